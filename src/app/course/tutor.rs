//! The tutor ("Warn me before a slip"): before a person's move is played, the coach looks at it,
//! in slices within the frame's budget like the Robot, the move shown as pending meanwhile. A
//! move the review would mark as a slip is asked about first, with the coach's two arrows and
//! one sentence: play it anyway, or think again. A warned move played counts as any other. The
//! switch is the child's own (`Reading::tutor`); left unset, it is on in each game's first
//! stages of the path.

use super::robot_turn::{RobotPace, within_budget};
use crate::app::launch::MatchSetup;
use crate::app::platform::speech::ReadingNow;
use crate::app::session::coach::{AnyTutor, CoachMark};
use crate::app::session::feedback::{Feedback, Question};
use crate::app::session::play::{Pending, Play, Playing, change_if};
use bevy::prelude::*;

/// The stages of each game's path that have the tutor on when the child has not chosen.
const FIRST_STAGES: u32 = 2;

/// The tutor's look at the move held, and the warning asked about.
#[derive(Resource, Default)]
pub struct Tutoring {
    /// Whether the tutor looks at the person's moves (the child's switch, or the stage's).
    pub on: bool,
    check: Option<Box<dyn AnyTutor>>,
    pending: Option<Pending>,
    /// The slip asked about: the board draws its arrows.
    pub warning: Option<CoachMark>,
}

impl Tutoring {
    /// Whether a move is held (thought about, or asked about): the board takes no taps.
    pub fn busy(&self) -> bool {
        self.pending.is_some()
    }

    /// Whether the tutor is still thinking about the move it holds (not yet asking).
    pub(in crate::app) fn thinking(&self) -> bool {
        self.check.is_some()
    }

    /// Holds the person's move for the tutor when it is on, else plays it; `false` when it is no
    /// move.
    pub(in crate::app) fn play_or_hold(&mut self, play: &mut dyn Playing, pending: Pending) -> bool {
        if self.busy() {
            return true;
        }
        let check = self.on.then(|| play.tutor(&pending)).flatten();
        match check {
            Some(check) => {
                self.check = Some(check);
                self.pending = Some(pending);
                true
            }
            None => play.play_pending(pending),
        }
    }

    /// The answer to the tutor's question: the move played anyway (it counts as any other), or
    /// taken back to think again (a dice set's moves too).
    pub(in crate::app) fn answer(&mut self, play: &mut dyn Playing, feedback: &mut Feedback, play_it: bool) {
        if matches!(feedback.ask.0, Some(Question::Warned { .. })) {
            feedback.ask.0 = None;
            self.let_go(play, feedback, play_it);
        }
    }

    /// Lets go of the move held: plays it, or takes it back.
    fn let_go(&mut self, play: &mut dyn Playing, feedback: &mut Feedback, play_it: bool) {
        let pending = self.pending.take();
        *self = Tutoring { on: self.on, ..Tutoring::default() };
        feedback.preview.0.clear();
        match pending {
            Some(pending) if play_it => {
                play.play_pending(pending);
            }
            Some(Pending::Draft) => {
                while play.drafting() {
                    play.undo();
                }
            }
            _ => feedback.selection.0 = None,
        }
    }
}

/// The tutor's systems, which the game screen puts after the buttons' commands.
pub(in crate::app) fn plugin(app: &mut App) {
    app.init_resource::<Tutoring>();
    app.add_systems(Update, switch_tutor.run_if(resource_exists::<Play>));
}

/// The child's switch, or, left unset, on in each game's first stages of the path.
fn switch_tutor(reading: Res<ReadingNow>, setup: Res<MatchSetup>, mut tutoring: ResMut<Tutoring>) {
    let on = reading.0.tutor.unwrap_or_else(|| setup.stage.as_deref().is_some_and(first_stage));
    if tutoring.on != on {
        tutoring.on = on;
    }
}

/// A stage id (`<game>_<n>`) among each game's first stages.
fn first_stage(id: &str) -> bool {
    id.rsplit_once('_').and_then(|(_, n)| n.parse::<u32>().ok()).is_some_and(|n| n <= FIRST_STAGES)
}

/// Thinks about the move held: plays it, or asks first.
pub(in crate::app) fn think(
    mut play: ResMut<Play>,
    mut tutoring: ResMut<Tutoring>,
    pace: Res<RobotPace>,
    mut feedback: Feedback,
) {
    let Some(check) = tutoring.check.as_mut() else { return };
    let Some(warning) = within_budget(pace.budget, |nodes| check.step(nodes)) else { return };
    tutoring.check = None;
    match warning {
        None => change_if(&mut play, |play| {
            tutoring.let_go(play, &mut feedback, true);
            feedback.report(play);
        }),
        Some(mark) => {
            let (key, args) = mark.why_words(&feedback.words);
            let reason = feedback.words.fill(key, &args);
            let sentence = format!("{reason} {}", feedback.words.get("tutor_anyway"));
            feedback.ask.0 = Some(Question::Warned { sentence });
            tutoring.warning = Some(mark);
        }
    }
}
