//! The stars a finished game earns on its stage: one for a win, one for a win without a hint or a
//! take-back, one for a win that meets the stage's own goal. Each is kept once earned, so a child
//! who won on their own once and met the goal another time has all three. The record is replayed
//! through the rules to judge it, as everything else reads a record.

use super::path::{Goal, Stage};
use crate::history::History;
use crate::levels::{FromLevel, LevelGame};
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
    match &stage.level.game {
        LevelGame::Circles(_) => judge::<Circles>(stage, record, |h, seat| within(h, seat, stage.goal)),
        LevelGame::Halma(_) => judge::<Halma>(stage, record, |h, seat| within(h, seat, stage.goal)),
        LevelGame::KnightHunt(_) => {
            judge::<KnightHunt>(stage, record, |h, seat| kept_pawns(h, seat, stage.goal))
        }
        LevelGame::Bunnies(_) => judge::<BunniesAndHorses>(stage, record, all_bunnies),
        LevelGame::Nard(_) => judge::<Nard>(stage, record, |h, seat| nard_goal(h, seat, stage.goal)),
    }
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

fn judge<G: Game + FromLevel>(
    stage: &Stage,
    record: &Record,
    goal_met: impl Fn(&History<G>, Seat) -> bool,
) -> Result<Stars, RecordError> {
    let history: History<G> = record.replay_on(&stage.level, |_, _, _| ())?;
    let won = history.game().outcome().is_some_and(|o| o.winner.includes(stage.seat));
    if !won {
        return Ok(Stars::default());
    }
    let mut stars = Stars::WON;
    if record.hints_asked == 0 && record.takebacks == 0 && record.hinted.is_empty() {
        stars = stars.with(Stars::ON_OWN);
    }
    if goal_met(&history, stage.seat) {
        stars = stars.with(Stars::GOAL);
    }
    Ok(stars)
}

/// Making Circles and Halma: the child's moves were no more than the goal's.
fn within<G: Game>(history: &History<G>, seat: Seat, goal: Goal) -> bool {
    let moves =
        history.steps().iter().filter(|step| step.mover == Some(seat) && step.action.is_some()).count();
    matches!(goal, Goal::WinWithin(most) if moves <= most as usize)
}

fn kept_pawns(history: &History<KnightHunt>, seat: Seat, goal: Goal) -> bool {
    matches!(goal, Goal::KeepPawns(least) if history.game().pawns_left(seat) >= least)
}

fn all_bunnies(history: &History<BunniesAndHorses>, seat: Seat) -> bool {
    let game = history.game();
    u32::from(game.score(seat)) >= game.bunnies_at_start()
}

fn nard_goal(history: &History<Nard>, seat: Seat, goal: Goal) -> bool {
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
