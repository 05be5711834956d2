//! The game screen's course: the game chosen starts when the screen opens (a new one, or a record
//! to go on from), the buttons' commands (undo, redo, restart and new game asking first, the clock
//! of the next game, a roll, a confirmation, a game's own button), and the order of the frame's
//! systems: a person's taps (`taps`), the buttons, the Robot's turn (`robot_turn`), the clocks
//! (`clocks`), the messages (`feedback`). Each exists once, whatever the game.

use super::catalog::PlayableGames;
use super::clocks::Clocks;
use super::robot_turn::Thinking;
use super::tutor::Tutoring;
use crate::app::board::view::{BoardLayout, ViewSet};
use crate::app::launch::{Control, Launch, MatchSetup};
use crate::app::session::feedback::{Feedback, Question};
use crate::app::session::play::{Play, Playing, Resume, TurnSet, change_if};
use crate::app::session::screen::Screen;
use bevy::prelude::*;

/// The systems that start the chosen game when the game screen opens.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct StartSet;

/// Buttons that change the course of the game.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameCommand {
    Undo,
    Redo,
    Restart,
    /// Minutes per player for the next game (0: no clock); it starts at Restart.
    SetClock(u32),
    /// The person rolls the dice (when dice are due on their turn).
    Roll,
    /// The person lets go of the previewed path, or else of the piece they picked.
    Deselect,
    /// Plays the previewed path.
    Confirm,
    /// Shows a move the Robot would play, as a preview to confirm.
    Hint,
    /// The person plays the game's n-th button action (`GameInfo::choices`).
    Choose(usize),
    /// A new game, the first turn moved to the next seat where the game passes it round.
    NewGame,
    /// Closes the panel between two rounds: the next round goes on.
    NextRound,
    /// The answer to "start again?" (asked by Restart or New game in a game with moves): yes.
    StartAgain,
    /// The same question: no, the game goes on.
    KeepPlaying,
    /// Gives the game out as a file (desktop: into `records/`, browser: a download).
    Export,
    /// The tutor's question about a slip: play the move anyway.
    PlayAnyway,
    /// The same question: the move goes back, to think again.
    ThinkAgain,
    /// Someone far away asked to take back their move: yes.
    AllowTakeBack,
    /// The same question: no, the game goes on.
    DeclineTakeBack,
}

/// Hands the seats to other players in the middle of a game (the tour lets two Robots finish one):
/// one entry per seat.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct SetControls(pub Vec<Control>);

/// The seed of the next game's Robot choices; a test sets it to replay a game exactly.
#[derive(Resource, Clone, Copy, Debug)]
pub struct GameSeed(pub u64);

pub(in crate::app) fn plugin(app: &mut App) {
    let seed =
        app.world().get_resource::<Launch>().and_then(|launch| launch.seed).unwrap_or_else(seed_from_clock);
    app.add_message::<GameCommand>()
        .add_message::<SetControls>()
        .init_resource::<super::taps::PickUp>()
        .init_resource::<Clocks>()
        .init_resource::<crate::app::session::play::NowPlaying>()
        .insert_resource(GameSeed(seed));
    app.add_plugins((crate::app::session::feedback::plugin, super::robot_turn::plugin, super::tutor::plugin));
    app.configure_sets(Update, TurnSet.run_if(in_state(Screen::Playing)).before(ViewSet));
    app.add_systems(OnEnter(Screen::Playing), start_game.in_set(StartSet));
    app.add_systems(OnExit(Screen::Playing), |mut commands: Commands| {
        commands.remove_resource::<Play>();
        commands.insert_resource(Thinking::default());
    });
    app.add_systems(
        Update,
        (
            super::taps::person_input,
            commands,
            super::robot_turn::robot_turn,
            super::clocks::tick_clock,
            crate::app::session::feedback::fade_notice,
            super::tutor::think,
            super::taps::publish_pickup,
        )
            .chain()
            .in_set(TurnSet)
            .run_if(resource_exists::<Play>.and_then(not(crate::app::session::play::watching))),
    );
    app.add_systems(
        Update,
        crate::app::session::play::publish_now_playing.after(TurnSet).run_if(resource_exists::<Play>),
    );
}

fn seed_from_clock() -> u64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    }
    #[cfg(target_arch = "wasm32")]
    {
        (js_sys::Date::now() * 1000.0) as u64
    }
}

/// Starts the chosen game when the game screen opens: the record to go on from, if one waits for
/// this game, else a new game of the chosen level.
#[allow(clippy::too_many_arguments)]
fn start_game(
    mut commands: Commands,
    setup: Res<MatchSetup>,
    playable: Res<PlayableGames>,
    mut seed: ResMut<GameSeed>,
    mut clocks: ResMut<Clocks>,
    mut feedback: Feedback,
    images: Res<crate::app::platform::art::ArtImages>,
    resume: Option<Res<Resume>>,
) {
    let Some(entry) = playable.get(setup.level.kind()) else { return };
    let resumed = resume.as_ref().filter(|r| r.record.game == entry.kind).map(|r| {
        let clocks = Clocks::resumed(r.record.clock_minutes, r.record.clock_left_ms.as_deref());
        (entry.resume)(&r.record, r.from).map(|play| (play, clocks))
    });
    if resumed.is_some() {
        commands.remove_resource::<Resume>();
    }
    let (play, started_clocks) = match resumed {
        Some(Ok(resumed)) => resumed,
        other => {
            if let Some(Err(why)) = other {
                tracing::error!("the saved game could not be continued: {why}");
            }
            let Some(play) = (entry.start)(&setup, seed.0) else { return };
            let seats = play.game().seat_count();
            (play, Clocks::start(setup.clock_minutes, seats))
        }
    };
    let game = play.game();
    let layout = BoardLayout::of(game, game.flipped(play.person_against_robot()));
    crate::app::board::view::spawn_board(&mut commands, game, layout, &images);
    *clocks = started_clocks;
    feedback.clear();
    commands.insert_resource(Play(play));
    commands.insert_resource(Thinking::default());
    seed.0 = seed.0.wrapping_add(0x9E37_79B9);
}

pub(in crate::app) fn commands(
    mut play: ResMut<Play>,
    mut commands: MessageReader<GameCommand>,
    mut controls: MessageReader<SetControls>,
    mut clocks: ResMut<Clocks>,
    mut feedback: Feedback,
    mut tutor: ResMut<Tutoring>,
) {
    for SetControls(new) in controls.read() {
        change_if(&mut play, |play| play.set_controls(new));
    }
    for command in commands.read() {
        let answer = match command {
            GameCommand::PlayAnyway => Some(true),
            GameCommand::ThinkAgain => Some(false),
            _ => None,
        };
        match answer {
            Some(play_it) => change_if(&mut play, |play| {
                tutor.answer(play, &mut feedback, play_it);
                feedback.report(play);
            }),
            // While the tutor holds a move, the other buttons wait for it.
            None if tutor.busy() => {}
            None => change_if(&mut play, |play| obey(play, *command, &mut clocks, &mut feedback, &mut tutor)),
        }
    }
}

/// One button's command for the game.
fn obey(
    play: &mut dyn Playing,
    command: GameCommand,
    clocks: &mut Clocks,
    feedback: &mut Feedback,
    tutor: &mut Tutoring,
) {
    // Nothing is taken back while a clock runs, nor under the panel between two rounds (it tells
    // of the round just ended).
    let fixed = clocks.left.is_some() || feedback.round_over.0.is_some();
    match command {
        // A room's game is the room's: it is not begun again here.
        GameCommand::Restart | GameCommand::NewGame | GameCommand::StartAgain if play.afar() => {}
        GameCommand::Undo if play.can_undo() && !fixed => play.undo(),
        GameCommand::Redo if play.can_redo() && !fixed => play.redo(),
        // A game with moves, not over yet, is not thrown away by one tap: the person is asked.
        GameCommand::Restart | GameCommand::NewGame if worth_asking(play) => {
            feedback.ask.0 = Some(Question::StartAgain { new_game: command == GameCommand::NewGame });
        }
        GameCommand::Restart | GameCommand::NewGame => begin_again(play, clocks, command),
        // The keeper's question (another game's place) is the keeper's to hear answered.
        GameCommand::StartAgain => {
            if let Some(Question::StartAgain { new_game }) = feedback.ask.0 {
                feedback.ask.0 = None;
                begin_again(play, clocks, if new_game { GameCommand::NewGame } else { GameCommand::Restart });
            }
        }
        GameCommand::KeepPlaying => {
            if let Some(Question::StartAgain { .. }) = feedback.ask.0 {
                feedback.ask.0 = None;
            }
        }
        GameCommand::NextRound => feedback.round_over.0 = None,
        GameCommand::SetClock(minutes) => clocks.next_minutes = minutes,
        GameCommand::Roll if play.can_roll() => {
            play.roll();
        }
        GameCommand::Deselect if play.person_to_move().is_some() => {
            if feedback.preview.0.is_empty() {
                feedback.selection.0 = None;
            } else {
                feedback.preview.0.clear();
            }
        }
        GameCommand::Confirm if play.person_to_move().is_some() => {
            super::taps::confirm(play, feedback, tutor);
        }
        GameCommand::Choose(index) if play.person_to_move().is_some() => {
            play.choose(index);
        }
        GameCommand::Undo
        | GameCommand::Redo
        | GameCommand::Roll
        | GameCommand::Deselect
        | GameCommand::Confirm
        | GameCommand::Choose(_) => {}
        // Thought of in slices, by hint.rs; given out by keeping.rs; answered above, or by far.rs.
        GameCommand::Hint
        | GameCommand::Export
        | GameCommand::PlayAnyway
        | GameCommand::ThinkAgain
        | GameCommand::AllowTakeBack
        | GameCommand::DeclineTakeBack => {}
    }
    feedback.report(play);
}

/// Whether Restart or New game asks first: the game has moves and is not over, and a person plays.
fn worth_asking(play: &dyn Playing) -> bool {
    play.moves_played() > 0 && play.game().outcome().is_none() && play.controls().contains(&Control::Person)
}

/// Restart (the same game again) or New game (the first turn to the next seat), with the clock
/// chosen for the next game.
fn begin_again(play: &mut dyn Playing, clocks: &mut Clocks, command: GameCommand) {
    if command == GameCommand::NewGame {
        play.new_game();
    } else {
        play.restart();
    }
    *clocks = Clocks::start(clocks.next_minutes, play.controls().len());
}
