//! Watching a game again: the game's own history stepped through (an action on or back, a jump
//! anywhere), played on by itself at one of three speeds, with the coach's review thought in
//! slices beside it (`robot::review`). At a slip the board shows the move played and the
//! Robot's better one as two arrows of different shapes, and the panel says why; the best move
//! gets a star. From any position, Try again goes on from there as a new game with the same
//! players (its record begins with the same actions).

use super::robot_turn::{RobotPace, within_budget};
use crate::app::session::coach::{AnyReview, CoachView};
use crate::app::session::feedback::CoachArrows;
use crate::app::session::feedback::{Preview, Selection};
use crate::app::session::play::TurnSet;
use crate::app::session::play::{Play, Watching};
use bevy::prelude::*;

/// What the replay's buttons ask for.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayCommand {
    /// Watch the game again from its start.
    Open,
    /// Back to the game as it stood.
    Close,
    /// Play on by itself, or pause.
    Toggle,
    Back,
    On,
    Start,
    End,
    /// The next of the three speeds.
    Speed,
    /// To the state after this many actions.
    Seek(usize),
    /// A new game from the position shown.
    TryAgain,
}

/// How fast the replay plays on by itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    Slow,
    #[default]
    Normal,
    Fast,
}

impl Speed {
    /// Seconds between two actions, once the last one has landed.
    pub fn pause(self) -> f32 {
        match self {
            Speed::Slow => 1.6,
            Speed::Normal => 0.8,
            Speed::Fast => 0.25,
        }
    }

    pub fn next(self) -> Speed {
        match self {
            Speed::Slow => Speed::Normal,
            Speed::Normal => Speed::Fast,
            Speed::Fast => Speed::Slow,
        }
    }

    /// The speed's number, 1 to 3 (the button shows as many signs).
    pub fn number(self) -> usize {
        self as usize + 1
    }
}

/// The replay under way; there is none while the game is played.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Replay {
    /// Actions shown (0: the start).
    pub at: usize,
    /// Actions in the whole game.
    pub length: usize,
    pub playing: bool,
    pub speed: Speed,
    waited: f32,
    pub coach: CoachView,
}

/// The review being thought of, a slice at a time.
#[derive(Resource, Default)]
pub(in crate::app) struct Reviewing(pub(in crate::app) Option<Box<dyn AnyReview>>);

pub(in crate::app) fn plugin(app: &mut App) {
    app.add_message::<ReplayCommand>().init_resource::<CoachArrows>().init_resource::<Reviewing>();
    app.add_systems(OnExit(crate::app::session::screen::Screen::Playing), |mut commands: Commands| {
        commands.remove_resource::<Replay>();
        commands.remove_resource::<Watching>();
    });
    app.add_systems(
        Update,
        (watch_on_open, replay_commands, play_on, review_slices, show_coach, tell_where)
            .chain()
            .in_set(TurnSet)
            .run_if(resource_exists::<Play>),
    );
}

/// One line when the position shown changes and one when the coach is done, which the browser
/// test reads from the console: `tabla replay <at> of <length>`, `tabla coach <slips> slips of
/// <rated> moves`.
fn tell_where(replay: Option<Res<Replay>>, mut told: Local<Option<(usize, bool)>>) {
    let Some(replay) = replay else {
        *told = None;
        return;
    };
    let now = (replay.at, replay.coach.done);
    if *told == Some(now) {
        return;
    }
    if told.is_none_or(|(at, _)| at != replay.at) {
        tracing::info!("tabla replay {} of {}", replay.at, replay.length);
    }
    if replay.coach.done && told.is_none_or(|(_, done)| !done) {
        tracing::info!("tabla coach {} slips of {} moves", replay.coach.slips.len(), replay.coach.of);
    }
    *told = Some(now);
}

/// The game screen opened to watch its game again: the replay begins.
fn watch_on_open(
    mut commands: Commands,
    watching: Option<Res<Watching>>,
    mut orders: MessageWriter<ReplayCommand>,
) {
    if watching.is_some_and(|w| *w == Watching::Opening) {
        commands.insert_resource(Watching::Open);
        orders.write(ReplayCommand::Open);
    }
}

fn replay_commands(
    mut commands: Commands,
    mut orders: MessageReader<ReplayCommand>,
    mut play: ResMut<Play>,
    mut replay: Option<ResMut<Replay>>,
    mut reviewing: ResMut<Reviewing>,
    (mut selection, mut preview): (ResMut<Selection>, ResMut<Preview>),
) {
    for order in orders.read().copied() {
        let Some(replay) = replay.as_deref_mut() else {
            if order == ReplayCommand::Open {
                // A piece picked (or the Robot's choice being shown) is no part of the replay.
                selection.set_if_neq(Selection(None));
                preview.set_if_neq(Preview(Vec::new()));
                // The game as played so far; what redo would bring back stays there, after it.
                let length = play.moves_played();
                reviewing.0 = Some(play.reviewer());
                play.jump_to(0);
                let coach = CoachView { of: reviewing.0.as_ref().map_or(0, |r| r.progress().1), ..default() };
                commands.insert_resource(Replay { length, playing: true, coach, ..default() });
                commands.insert_resource(Watching::Open);
            }
            continue;
        };
        let at = replay.at;
        match order {
            ReplayCommand::Open => {}
            ReplayCommand::Close => {
                play.jump_to(replay.length);
                reviewing.0 = None;
                commands.remove_resource::<Replay>();
                commands.remove_resource::<Watching>();
            }
            ReplayCommand::TryAgain => {
                play.go_on_from_here();
                reviewing.0 = None;
                commands.remove_resource::<Replay>();
                commands.remove_resource::<Watching>();
            }
            ReplayCommand::Toggle => {
                replay.playing = !replay.playing;
                if replay.playing && at == replay.length {
                    play.jump_to(0);
                    replay.at = 0;
                }
                replay.waited = replay.speed.pause();
            }
            ReplayCommand::Back if at > 0 => {
                replay.playing = false;
                play.step_once(false);
                replay.at -= 1;
            }
            ReplayCommand::On if at < replay.length => {
                replay.playing = false;
                play.step_once(true);
                replay.at += 1;
            }
            ReplayCommand::Back | ReplayCommand::On => {}
            ReplayCommand::Start => seek(&mut play, replay, 0),
            ReplayCommand::End => seek(&mut play, replay, replay.length),
            ReplayCommand::Seek(to) => seek(&mut play, replay, to.min(replay.length)),
            ReplayCommand::Speed => replay.speed = replay.speed.next(),
        }
    }
    // The replay's own moves are no news for the messages and sounds of a game being played.
    if replay.is_some() {
        play.bypass_change_detection().take_news();
    }
}

fn seek(play: &mut Play, replay: &mut Replay, to: usize) {
    replay.playing = false;
    play.jump_to(to);
    replay.at = to;
}

/// Plays on by itself: the next action once the last one has landed and the speed's pause has
/// passed. It stops at the end, and at a slip so the coach's arrows can be seen.
fn play_on(
    mut play: ResMut<Play>,
    replay: Option<ResMut<Replay>>,
    time: Res<Time>,
    gliding: Query<(), With<crate::app::board::animate::Glide>>,
) {
    let Some(mut replay) = replay else { return };
    if !replay.playing || !gliding.is_empty() {
        return;
    }
    replay.waited += time.delta_secs();
    if replay.waited < replay.speed.pause() {
        return;
    }
    replay.waited = 0.0;
    if replay.at >= replay.length || !play.step_once(true) {
        replay.playing = false;
        return;
    }
    replay.at += 1;
    let at = replay.at;
    if replay.at == replay.length || replay.coach.slip_at(at).is_some() {
        replay.playing = false;
    }
}

/// Thinks of the review within the frame's budget, like a Robot's turn.
fn review_slices(replay: Option<ResMut<Replay>>, mut reviewing: ResMut<Reviewing>, pace: Res<RobotPace>) {
    let (Some(mut replay), Some(reviewer)) = (replay, reviewing.0.as_mut()) else { return };
    let review = within_budget(pace.budget, |nodes| reviewer.step(nodes));
    match review {
        Some(coach) => {
            replay.coach = coach;
            reviewing.0 = None;
        }
        None => replay.coach.rated = reviewer.progress().0,
    }
}

/// The coach's arrows for the position shown: a slip's two moves, or the best move's star.
fn show_coach(
    replay: Option<Res<Replay>>,
    tutor: Res<super::tutor::Tutoring>,
    mut arrows: ResMut<CoachArrows>,
) {
    let wanted = match replay.as_deref() {
        // The tutor's question about a slip shows the coach's two arrows too.
        None => match &tutor.warning {
            Some(slip) => {
                CoachArrows { played: slip.played.clone(), better: slip.better.clone(), star: None }
            }
            None => CoachArrows::default(),
        },
        Some(replay) => match (replay.coach.slip_at(replay.at), replay.coach.best_at(replay.at)) {
            (Some(slip), _) => {
                CoachArrows { played: slip.played.clone(), better: slip.better.clone(), star: None }
            }
            (None, Some(best)) => CoachArrows {
                played: Vec::new(),
                better: best.played.clone(),
                star: best.played.last().and_then(|(_, path)| path.last().copied()),
            },
            (None, None) => CoachArrows::default(),
        },
    };
    arrows.set_if_neq(wanted);
}
