//! The Robot's turn: it thinks in slices within each frame's budget (so the screen keeps
//! drawing), waits a moment so a child sees its move coming, lights the piece and its path, then
//! plays; where dice are due it acts before the roll if it wants to, else rolls through the
//! history. A tap asks it to hurry. Hints and the coach think through the same budget loop.

use crate::app::board::covered::BoardCovered;
use crate::app::launch::Control;
use crate::app::session::feedback::{Feedback, Selection};
use crate::app::session::play::{AnyThinker, Choice, Play, change_if};
use crate::robot::SLICE_NODES;
use bevy::platform::time::Instant;
use bevy::prelude::*;

/// How the Robot paces itself so a child sees each move coming, and how much thinking (the
/// Robot's, a hint's, the coach's, the tutor's) a frame holds.
#[derive(Resource, Clone, Copy, Debug)]
pub struct RobotPace {
    /// Seconds the Robot waits, at least, before it moves.
    pub think: f32,
    /// Seconds its chosen piece stays lit before it jumps.
    pub show: f32,
    pub budget: ThinkBudget,
}

/// The thinking a frame holds: real milliseconds in the app, so the screen keeps drawing on any
/// machine; a count of slices in the tests, so a test's frames do the same work on a fast, a
/// slow and a loaded machine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ThinkBudget {
    /// At most so many milliseconds: no slice starts that would likely pass them.
    Millis(f32),
    /// So many slices of `SLICE_NODES` nodes, however long they take.
    Slices(u32),
}

impl Default for RobotPace {
    fn default() -> Self {
        RobotPace { think: 0.5, show: 0.4, budget: ThinkBudget::Millis(8.0) }
    }
}

/// The person asked the Robot to hurry: it plays the rest of its turn without pauses, until a
/// person is to act again.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hurry(pub bool);

/// The Robot deciding the current position, a slice each frame.
#[derive(Resource, Default)]
pub struct Thinking(pub(in crate::app) Option<RobotTurn>);

impl Thinking {
    /// Whether the Robot is in the middle of its turn (thinking, waiting or showing its move).
    pub fn busy(&self) -> bool {
        self.0.is_some()
    }
}

pub(in crate::app) struct RobotTurn {
    thinker: Box<dyn AnyThinker>,
    waited: f32,
    choice: Option<Choice>,
    shown: f32,
}

pub(in crate::app) fn plugin(app: &mut App) {
    app.init_resource::<RobotPace>().init_resource::<Hurry>().init_resource::<Thinking>();
}

/// Thinks in slices within the frame's budget; the action once it is decided.
pub(in crate::app) fn think_within(thinker: &mut dyn AnyThinker, budget: ThinkBudget) -> Option<Choice> {
    within_budget(budget, |nodes| thinker.step(nodes))
}

/// Runs `step` a slice of nodes at a time until it gives an answer, or until the frame's budget
/// is spent: its slices, or its milliseconds when another slice as long as the longest yet would
/// likely pass them (the Robot's turn, a hint, the tutor and the coach's review all think this way).
pub(in crate::app) fn within_budget<T>(
    budget: ThinkBudget,
    mut step: impl FnMut(u64) -> Option<T>,
) -> Option<T> {
    match budget {
        ThinkBudget::Slices(slices) => (0..slices.max(1)).find_map(|_| step(SLICE_NODES)),
        ThinkBudget::Millis(budget_ms) => {
            let started = Instant::now();
            let mut longest = 0.0f32;
            loop {
                let before = started.elapsed().as_secs_f32() * 1000.0;
                if let Some(answer) = step(SLICE_NODES) {
                    return Some(answer);
                }
                let now = started.elapsed().as_secs_f32() * 1000.0;
                longest = longest.max(now - before);
                if now + longest > budget_ms {
                    return None;
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
pub(in crate::app) fn robot_turn(
    mut play: ResMut<Play>,
    mut thinking: ResMut<Thinking>,
    pace: Res<RobotPace>,
    covered: Res<BoardCovered>,
    time: Res<Time>,
    gliding: Query<(), With<crate::app::board::animate::Glide>>,
    mut hurry: ResMut<Hurry>,
    mut feedback: Feedback,
) {
    // A new position (or new players) needs a new thought.
    if play.is_changed() {
        thinking.0 = None;
    }
    // The Robot waits for the last move to land, for a big message to be read, for the panel
    // between rounds to close, and while something covers the board.
    let Some(level) = play.robot_to_move() else {
        hurry.set_if_neq(Hurry(false));
        return;
    };
    // Robots playing among themselves do not wait for the panel between rounds.
    let panel_waits = feedback.waits() && play.controls().contains(&Control::Person);
    if covered.0 || !gliding.is_empty() || feedback.notices.0.as_ref().is_some_and(|n| n.big) || panel_waits {
        return;
    }
    let pace = if hurry.0 { RobotPace { think: 0.0, show: 0.0, ..*pace } } else { *pace };
    if play.game().chance_due() {
        // Dice are due: the Robot acts before the roll when it wants to (a double), else rolls
        // through the history.
        change_if(&mut play, |play| {
            match play.before_roll(level) {
                Some(choice) => play.play_choice(choice),
                None => play.roll(),
            };
            feedback.report(play);
        });
        return;
    }
    let robot = thinking.0.get_or_insert_with(|| RobotTurn {
        thinker: play.thinker(level),
        waited: 0.0,
        choice: None,
        shown: 0.0,
    });
    robot.waited += time.delta_secs();
    if robot.choice.is_none() {
        robot.choice = think_within(robot.thinker.as_mut(), pace.budget);
    }
    let Some(choice) = robot.choice.as_ref() else { return };
    if robot.waited < pace.think {
        return;
    }
    robot.shown += time.delta_secs();
    // The chosen piece and its path show before it moves.
    let motion = play.choice_motion(choice);
    if feedback.selection.set_if_neq(Selection(motion.map(|m| m.from))) {
        feedback.preview.0 = if motion.is_some() { play.choice_path(choice) } else { Vec::new() };
    }
    if robot.shown >= pace.show
        && let Some(choice) = thinking.0.take().and_then(|robot| robot.choice)
    {
        change_if(&mut play, |play| {
            play.play_choice(choice);
            feedback.report(play);
        });
    }
}
