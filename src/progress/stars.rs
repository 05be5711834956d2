//! The stars a finished game earns on its stage: one for a win, one for a win without a hint or a
//! take-back, one for a win that meets the stage's own goal. Each is kept once earned, so a child
//! who won on their own once and met the goal another time has all three. The record is replayed
//! through the rules to judge it, as everything else reads a record.

use super::path::{Goal, Stage};
use crate::history::History;
use crate::levels::FromLevel;
use crate::record::{Control, Record, RecordError};
use crate::rules::bunnies::BunniesAndHorses;
use crate::rules::circles::Circles;
use crate::rules::halma::Halma;
use crate::rules::knight_hunt::KnightHunt;
use crate::rules::nard::{Nard, ResultKind};
use crate::rules::{Game, Seat};

/// The stars of a stage, each its own bit, so a star once earned stays whatever comes later.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stars(pub u8);

impl Stars {
    pub const WON: Stars = Stars(1);
    /// Won without asking a hint or taking a move back.
    pub const ON_OWN: Stars = Stars(2);
    /// Won meeting the stage's own goal.
    pub const GOAL: Stars = Stars(4);
    /// The three stars, in the order they are shown.
    pub const ALL: [Stars; 3] = [Stars::WON, Stars::ON_OWN, Stars::GOAL];

    pub fn count(self) -> u32 {
        (self.0 & 7).count_ones()
    }

    pub fn has(self, star: Stars) -> bool {
        self.0 & star.0 == star.0
    }

    /// Both sets' stars.
    pub fn with(self, other: Stars) -> Stars {
        Stars(self.0 | other.0)
    }
}

/// The stars `record` earns on `stage`: none unless it is the stage's game (its level, the child in
/// the stage's seat, the Robot at the stage's level in every other) and the child won it.
pub fn stars_of(stage: &Stage, record: &Record) -> Result<Stars, RecordError> {
    if !is_of_stage(stage, record) {
        return Ok(Stars::default());
    }
    crate::with_game!(stage.level.kind(), G => judge::<G>(stage, record))
}

fn is_of_stage(stage: &Stage, record: &Record) -> bool {
    let seats_fit = record.seats.iter().enumerate().all(|(i, control)| {
        if i == stage.seat.index() {
            *control == Control::Person
        } else {
            *control == Control::Robot(stage.robot)
        }
    });
    (record.game, record.variant.as_str()) == (stage.level.kind(), stage.level.variant())
        && record.seats.len() == stage.level.seat_count()
        && seats_fit
}

fn judge<G: Judged>(stage: &Stage, record: &Record) -> Result<Stars, RecordError> {
    let history: History<G> = record.replay_on(&stage.level, |_, _, _| ())?;
    let won = history.game().outcome().is_some_and(|o| o.winner.includes(stage.seat));
    if !won {
        return Ok(Stars::default());
    }
    let mut stars = Stars::WON;
    if record.hints_asked == 0 && record.takebacks == 0 && record.hinted.is_empty() {
        stars = stars.with(Stars::ON_OWN);
    }
    if G::goal_met(&history, stage.seat, stage.goal) {
        stars = stars.with(Stars::GOAL);
    }
    Ok(stars)
}

/// Whether a won game met its stage's own goal: each game judges the goals its rules give a
/// meaning (`Goal::fits`); any other is not met.
pub trait Judged: Game + FromLevel {
    fn goal_met(history: &History<Self>, seat: Seat, goal: Goal) -> bool;
}

/// Making Circles: the child's moves were no more than the goal's.
impl Judged for Circles {
    fn goal_met(history: &History<Circles>, seat: Seat, goal: Goal) -> bool {
        within(history, seat, goal)
    }
}

/// Halma: the child's moves were no more than the goal's.
impl Judged for Halma {
    fn goal_met(history: &History<Halma>, seat: Seat, goal: Goal) -> bool {
        within(history, seat, goal)
    }
}

fn within<G: Game>(history: &History<G>, seat: Seat, goal: Goal) -> bool {
    let moves =
        history.steps().iter().filter(|step| step.mover == Some(seat) && step.action.is_some()).count();
    matches!(goal, Goal::WinWithin(most) if moves <= most as usize)
}

/// Knight Hunt: at least the goal's pawns kept.
impl Judged for KnightHunt {
    fn goal_met(history: &History<KnightHunt>, seat: Seat, goal: Goal) -> bool {
        matches!(goal, Goal::KeepPawns(least) if history.game().pawns_left(seat) >= least)
    }
}

/// Bunnies and Horses: every bunny brought into the garden.
impl Judged for BunniesAndHorses {
    fn goal_met(history: &History<BunniesAndHorses>, seat: Seat, goal: Goal) -> bool {
        let game = history.game();
        goal == Goal::AllBunnies && u32::from(game.score(seat)) >= game.bunnies_at_start()
    }
}

/// Crazy Nard: a game of the match won by a mars, or the match won without losing a game.
impl Judged for Nard {
    fn goal_met(history: &History<Nard>, seat: Seat, goal: Goal) -> bool {
        let game = history.game();
        match goal {
            // Each game's result stays in the state until the next game ends.
            Goal::Mars => history
                .steps()
                .iter()
                .filter_map(|step| step.game.last_game())
                .any(|result| result.winner == Some(seat) && result.kind == ResultKind::Mars),
            Goal::NoGameLost => game.score(seat.opponent()) == 0,
            _ => false,
        }
    }
}
