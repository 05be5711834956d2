//! A hint, in every game: the Robot, not at its strongest (`HINT_LEVEL`), thinks of a move for the
//! person in slices, as it thinks of its own, and shows it as the move's own preview (the piece
//! lit, its target marked, its path). The person plays it (✔, or a tap on the target) or not; a
//! move played from a hint is marked in the move list and counted in the seat's panel.

use super::robot_turn::{RobotPace, think_within};
use super::turn::GameCommand;
use crate::app::session::feedback::Feedback;
use crate::app::session::play::TurnSet;
use crate::app::session::play::{AnyThinker, Play};
use bevy::prelude::*;

/// The hint being thought of, until it shows or the game changes.
#[derive(Resource, Default)]
pub(in crate::app) struct Hinting(pub(in crate::app) Option<Box<dyn AnyThinker>>);

pub(in crate::app) fn plugin(app: &mut App) {
    app.init_resource::<Hinting>();
    app.add_systems(
        Update,
        think_of_hint
            .after(super::turn::commands)
            .in_set(TurnSet)
            .run_if(resource_exists::<Play>.and_then(not(crate::app::session::play::watching))),
    );
}

fn think_of_hint(
    mut play: ResMut<Play>,
    mut hinting: ResMut<Hinting>,
    mut commands: MessageReader<GameCommand>,
    pace: Res<RobotPace>,
    mut feedback: Feedback,
) {
    // A move, an undo or new players: the hint being thought of no longer fits.
    if play.is_changed() {
        hinting.0 = None;
    }
    if commands.read().any(|c| *c == GameCommand::Hint) {
        hinting.0 = play.hint_thinker();
        if hinting.0.is_some() {
            // Counting it changes nothing on the board.
            play.bypass_change_detection().ask_hint();
        }
    }
    let Some(thinker) = hinting.0.as_mut() else { return };
    let Some(choice) = think_within(thinker.as_mut(), pace.budget) else { return };
    hinting.0 = None;
    let Some(from) = play.choice_motion(&choice).map(|m| m.from) else { return };
    let path = play.choice_path(&choice);
    // Remembering the hint changes nothing on the board: the board must not lay itself out again.
    play.bypass_change_detection().set_hint(&choice);
    let to = path.last().copied();
    feedback.show_path(from, path);
    // The move in words: "the knight from g1 to f3".
    let game = play.game();
    let piece = game.pieces().into_iter().find(|(at, _)| *at == from).and_then(|(_, art)| art.piece_key());
    match (piece, to) {
        (Some(piece), Some(to)) => {
            let (piece, from, to) =
                (feedback.words.get(piece).to_string(), game.place_name(from), game.place_name(to));
            let text = feedback.words.fill("hint_move", &[("piece", &piece), ("from", &from), ("to", &to)]);
            feedback.tell_words(text);
        }
        _ => feedback.tell("hint_shown".to_string()),
    }
}
