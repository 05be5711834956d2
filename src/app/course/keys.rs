//! The keyboard, for whoever prefers keys to a pointer: the arrows move a square cursor over the
//! board and Enter presses the square under it (pick a piece, then its target; where moves are
//! previewed, pressing the preview's end confirms it), Esc drops a preview, lets go of the picked
//! piece or closes the help, U and R take back and play again, Space or D rolls the dice,
//! + and - zoom, T turns the view, F shows the whole board again, H opens the help.

use super::turn::GameCommand;
use crate::app::board::covered::BoardCovered;
use crate::app::board::help::HelpOpen;
use crate::app::board::input::BoardPress;
use crate::app::board::view::{BoardLayout, KeyCursor, ViewCommand};
use crate::app::session::feedback::Selection;
use crate::app::session::screen::Screen;
use crate::rules::board::Square;
use bevy::input::InputSystems;
use bevy::prelude::*;

pub(in crate::app) fn plugin(app: &mut App) {
    app.init_resource::<KeyCursor>();
    // Before Update, so the game and the view answer a key in the frame it was pressed.
    app.add_systems(
        PreUpdate,
        keys.after(InputSystems)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<ButtonInput<KeyCode>>)),
    );
    app.add_systems(OnEnter(Screen::Playing), |mut cursor: ResMut<KeyCursor>| cursor.0 = None);
}

/// Where each arrow moves the cursor on the screen (x right, y up).
const ARROWS: [(KeyCode, IVec2); 4] = [
    (KeyCode::ArrowLeft, IVec2::NEG_X),
    (KeyCode::ArrowRight, IVec2::X),
    (KeyCode::ArrowUp, IVec2::Y),
    (KeyCode::ArrowDown, IVec2::NEG_Y),
];

#[allow(clippy::too_many_arguments)]
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    layout: Option<Res<BoardLayout>>,
    selection: Res<Selection>,
    covered: Res<BoardCovered>,
    mut help: Option<ResMut<HelpOpen>>,
    mut cursor: ResMut<KeyCursor>,
    mut game: MessageWriter<GameCommand>,
    mut view: MessageWriter<ViewCommand>,
    mut presses: MessageWriter<BoardPress>,
) {
    let pressed = |codes: &[KeyCode]| keys.any_just_pressed(codes.iter().copied());
    let control = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    if pressed(&[KeyCode::KeyH])
        && let Some(help) = help.as_mut()
    {
        help.0 = !help.0;
    }
    if pressed(&[KeyCode::Escape]) {
        match help.as_mut() {
            Some(help) if help.0 => help.0 = false,
            _ => {
                game.write(GameCommand::Deselect);
            }
        }
    }
    // What follows acts on the board, which waits while something covers it.
    if covered.0 {
        return;
    }
    if pressed(&[KeyCode::KeyU]) || (control && pressed(&[KeyCode::KeyZ])) {
        game.write(GameCommand::Undo);
    }
    if pressed(&[KeyCode::KeyR]) || (control && pressed(&[KeyCode::KeyY])) {
        game.write(GameCommand::Redo);
    }
    if pressed(&[KeyCode::Space, KeyCode::KeyD]) {
        game.write(GameCommand::Roll);
    }
    if pressed(&[KeyCode::Equal, KeyCode::NumpadAdd]) {
        view.write(ViewCommand::Zoom { factor: 1.25, around: None });
    }
    if pressed(&[KeyCode::Minus, KeyCode::NumpadSubtract]) {
        view.write(ViewCommand::Zoom { factor: 0.8, around: None });
    }
    if pressed(&[KeyCode::KeyT]) {
        view.write(ViewCommand::Turn);
    }
    if pressed(&[KeyCode::KeyF]) {
        view.write(ViewCommand::Fit);
    }
    let Some(layout) = layout else { return };
    for (key, on_screen) in ARROWS {
        if keys.just_pressed(key) {
            // The cursor shows up where the eye already is: on the picked piece, else mid-board.
            let from = cursor
                .0
                .or(selection.0)
                .unwrap_or_else(|| Square::new(layout.shape.files / 2, layout.shape.ranks / 2));
            let moved = if cursor.0.is_none() { from } else { layout.step_on_screen(from, on_screen) };
            cursor.0 = Some(moved);
        }
    }
    // Enter presses under the cursor (on a previewed path's end it confirms it); without a
    // cursor it confirms a preview (a hint).
    if pressed(&[KeyCode::Enter, KeyCode::NumpadEnter]) {
        match cursor.0 {
            Some(square) => {
                presses.write(BoardPress(square));
            }
            None => {
                game.write(GameCommand::Confirm);
            }
        }
    }
}
