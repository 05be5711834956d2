//! The coach, as the replay shows it: its review of a game of any kind thought in slices
//! (`AnyReview`, `ReviewOf` of each game, asking `robot::review`), and what it found (`CoachView`:
//! the slips and the best move, each as the arrows the board draws and the words key of why);
//! and the tutor's look at one move before it is played (`AnyTutor`).

use super::game::AppGame;
use crate::app::launch::Control;
use crate::history::Step;
use crate::robot::review::{self, Rated, Reviewer};
use crate::rules::Seat;
use crate::rules::board::Square;

/// What the coach has found so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CoachView {
    /// Moves rated, of all those to rate.
    pub rated: usize,
    pub of: usize,
    pub done: bool,
    /// The slips, in the order played.
    pub slips: Vec<CoachMark>,
    pub best: Option<CoachMark>,
}

impl CoachView {
    /// The slip made from the position shown, if any.
    pub fn slip_at(&self, at: usize) -> Option<&CoachMark> {
        self.slips.iter().find(|slip| slip.from == at)
    }

    pub fn best_at(&self, at: usize) -> Option<&CoachMark> {
        self.best.as_ref().filter(|best| best.from == at)
    }
}

/// A move the coach marks, as the board draws it: each action's start and the places its piece
/// passes through.
#[derive(Clone, Debug, PartialEq)]
pub struct CoachMark {
    /// Actions before the move: the replay shows the mark at this position.
    pub from: usize,
    pub seat: Seat,
    pub played: Vec<(Square, Vec<Square>)>,
    pub better: Vec<(Square, Vec<Square>)>,
    /// The words key of why the better move was better (`coach_<game>_<reason>`), if the rules
    /// can tell.
    pub why: Option<String>,
    /// What `why`'s sentence names (`to`: a place), filled into it.
    pub why_args: Vec<(&'static str, String)>,
    /// The move was the Robot's (a game only Robots played): the words say so, never "your".
    pub by_robot: bool,
}

impl CoachMark {
    /// Why the better move was better, as the words key and its arguments (the Robot knowing a
    /// better move, when the rules cannot tell).
    pub fn why_words(&self, words: &crate::app::platform::settings::Words) -> (&str, Vec<(&str, &str)>) {
        let args = self.why_args.iter().map(|(name, value)| (*name, value.as_str())).collect();
        match self.why.as_deref().filter(|key| words.has(key)) {
            Some(key) => (key, args),
            None => ("coach_slip", Vec::new()),
        }
    }

    /// The words key that speaks of this move: `key`, or its `_robot` form for the Robot's.
    pub fn words_key(&self, key: &str) -> String {
        if self.by_robot { format!("{key}_robot") } else { key.to_string() }
    }
}

/// The coach reviewing a game of any kind, a slice at a time (`ReviewOf` of each game).
pub trait AnyReview: Send + Sync {
    /// Thinks for about `nodes` more nodes; what the coach found once it is done.
    fn step(&mut self, nodes: u64) -> Option<CoachView>;
    /// Moves rated, of all those to rate.
    fn progress(&self) -> (usize, usize);
}

/// `G`'s review: the coach's ratings turned into marks the board draws.
struct ReviewOf<G: AppGame> {
    reviewer: Reviewer<G>,
    controls: Vec<Control>,
}

/// The review of the people's seats of a game (of every seat, when only Robots played).
pub(in crate::app) fn reviewer_of<G: AppGame, N>(
    steps: &[Step<G, N>],
    controls: &[Control],
) -> Box<dyn AnyReview> {
    let nobody = !controls.contains(&Control::Person);
    let person = |seat: Seat| nobody || controls.get(seat.index()) == Some(&Control::Person);
    let data = review::coach_data(G::KIND).unwrap_or_else(|e| {
        // The coach file is built in and tested: this is only a guard.
        tracing::error!("{e}");
        review::CoachData { threshold: f64::MAX, decisive: f64::MAX }
    });
    Box::new(ReviewOf { reviewer: Reviewer::new(steps, person, data), controls: controls.to_vec() })
}

impl<G: AppGame> AnyReview for ReviewOf<G> {
    fn step(&mut self, nodes: u64) -> Option<CoachView> {
        let review = self.reviewer.step(nodes)?;
        let (_, of) = self.reviewer.progress();
        let mark = |rated: &Rated<G::Action>| {
            let before = self.reviewer.position_before(rated.from)?;
            let by_robot = self.controls.get(rated.seat.index()) != Some(&Control::Person);
            Some(mark_of(before, rated, by_robot))
        };
        Some(CoachView {
            rated: of,
            of,
            done: true,
            slips: review.slips().filter_map(mark).collect(),
            best: review.best_move().and_then(mark),
        })
    }

    fn progress(&self) -> (usize, usize) {
        self.reviewer.progress()
    }
}

/// A rated move as the board draws it and the words tell it.
fn mark_of<G: AppGame>(before: &G, rated: &Rated<G::Action>, by_robot: bool) -> CoachMark {
    CoachMark {
        from: rated.from,
        seat: rated.seat,
        played: paths(before, &rated.played),
        better: paths(before, &rated.rating.best),
        why: rated.why.map(|why| match rated.why_args.iter().find(|(name, _)| *name == "piece") {
            Some((_, piece)) => format!("coach_{}_{why}_{piece}", G::KIND),
            None => format!("coach_{}_{why}", G::KIND),
        }),
        why_args: rated.why_args.iter().filter(|(name, _)| *name != "piece").cloned().collect(),
        by_robot,
    }
}

/// The tutor looking at a person's move before it is played, a slice at a time.
pub trait AnyTutor: Send + Sync {
    /// Thinks for about `nodes` more nodes; once it knows: `Some(None)` to play the move,
    /// `Some(Some(mark))` to ask first (the move would be marked as a slip).
    fn step(&mut self, nodes: u64) -> Option<Option<CoachMark>>;
}

struct TutorOf<G: AppGame> {
    before: G,
    tutor: review::Tutor<G>,
}

/// The tutor's look at `played` from `before` (`None` when the coach has no data for the game).
pub(in crate::app) fn tutor_of<G: AppGame>(before: &G, played: &[G::Action]) -> Option<Box<dyn AnyTutor>> {
    let data = review::coach_data(G::KIND).ok()?;
    Some(Box::new(TutorOf { before: before.clone(), tutor: review::Tutor::new(before, played, data) }))
}

impl<G: AppGame> AnyTutor for TutorOf<G> {
    fn step(&mut self, nodes: u64) -> Option<Option<CoachMark>> {
        let warning = self.tutor.step(nodes)?;
        Some(warning.map(|rated| mark_of(&self.before, &rated, false)))
    }
}

/// The arrows of actions played one after another (a dice set's checkers).
fn paths<G: AppGame>(before: &G, actions: &[G::Action]) -> Vec<(Square, Vec<Square>)> {
    let mut game = before.clone();
    let mut drawn = Vec::new();
    for action in actions {
        drawn.extend(game.arrow_of(action));
        game.play(action);
    }
    drawn
}
