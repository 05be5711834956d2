//! Pointer and finger input on the board: one gesture at a time (the mouse's left button, or the
//! first finger down), found on the board's places by their own rectangles. Gestures only become
//! `BoardTap` and `BoardDrop`; the turn logic (and the headless tests) work from those messages
//! alone. A press on one of egui's panels or windows is theirs, not the board's.
//!
//! Tabla does its own hit tests instead of using bevy_picking: the places are plain rectangles,
//! and picking with its sprite backend weighed 0.06 MB gzipped of the browser download.

use super::view::{BoardRoot, Cell, PieceView, ViewCommand};
use crate::app::session::screen::Screen;
use crate::rules::board::Square;
use bevy::input::ButtonState;
use bevy::input::mouse::{MouseButtonInput, MouseScrollUnit, MouseWheel};
use bevy::input::touch::{TouchInput, TouchPhase, Touches};
use bevy::prelude::*;
use bevy::window::CursorMoved;
use bevy_egui::{EguiContext, egui};

/// A square was chosen: the one a tap meant (see `BoardTap`), or the keyboard cursor's.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardPress(pub Square);

/// A finger or the mouse touched the board: the square it touched, and where exactly (so a tap on
/// a board of small squares can be taken for the place it was meant for, or zoom in).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct BoardTap {
    pub square: Square,
    /// Window pixels, y down.
    pub pointer: Vec2,
    /// The same point in the board's own units (one square = 1).
    pub local: Vec2,
    /// Window pixels per square now.
    pub pitch: f32,
}

/// A piece dragged from `from` was let go over `to` (`None`: off the board or back on its square).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardDrop {
    pub from: Square,
    pub to: Option<Square>,
}

/// The piece being dragged, if any: it follows the pointer instead of its square.
#[derive(Resource, Default, Debug)]
pub struct Dragging {
    pub entity: Option<Entity>,
    pub from: Option<Square>,
    dropped: bool,
    /// The drag began on an empty square: it moves the view, not a piece.
    panning: bool,
}

/// The gesture under way: the pointer held down (last at `at`), on `square` if it pressed one.
#[derive(Resource, Default, Debug)]
struct Gesture {
    /// Where the mouse is (window pixels, y down), from the window's cursor movements.
    cursor: Option<Vec2>,
    held: Option<Held>,
}

#[derive(Debug, Clone, Copy)]
struct Held {
    /// The finger holding it (`None`: the mouse).
    finger: Option<u64>,
    at: Vec2,
    square: Option<Square>,
    dragging: bool,
}

pub(in crate::app) fn plugin(app: &mut App) {
    app.add_message::<BoardPress>()
        .add_message::<BoardTap>()
        .add_message::<BoardDrop>()
        .init_resource::<Dragging>()
        .init_resource::<Gesture>();
    // The wheel and the fingers come with a window (the headless app has neither).
    app.add_systems(
        Update,
        (
            wheel_zoom.run_if(resource_exists::<Messages<MouseWheel>>),
            pinch_zoom.run_if(resource_exists::<Touches>),
        )
            .run_if(in_state(Screen::Playing)),
    );
    // Before the frame's turn logic reads what the gestures made of the pointer.
    app.add_systems(
        PreUpdate,
        follow_pointer.run_if(in_state(Screen::Playing).and_then(resource_exists::<Messages<CursorMoved>>)),
    );
    app.add_systems(OnExit(Screen::Playing), |mut gesture: ResMut<Gesture>| gesture.held = None);
}

/// The mouse wheel zooms around the pointer.
fn wheel_zoom(
    mut wheels: MessageReader<MouseWheel>,
    windows: Query<&Window>,
    mut view: MessageWriter<ViewCommand>,
) {
    for wheel in wheels.read() {
        let notches = match wheel.unit {
            MouseScrollUnit::Line => wheel.y,
            MouseScrollUnit::Pixel => wheel.y / 40.0,
        };
        if notches == 0.0 {
            continue;
        }
        let around = windows.get(wheel.window).ok().and_then(|w| w.cursor_position());
        view.write(ViewCommand::Zoom { factor: 1.15f32.powf(notches), around });
    }
}

/// Two fingers zoom (their spread) and move (their middle) the view; a piece held by the first
/// finger is let go.
fn pinch_zoom(touches: Res<Touches>, mut dragging: ResMut<Dragging>, mut view: MessageWriter<ViewCommand>) {
    let fingers: Vec<_> = touches.iter().take(3).collect();
    let [a, b] = fingers[..] else { return };
    let before = a.previous_position().distance(b.previous_position());
    let now = a.position().distance(b.position());
    if dragging.from.is_some() {
        dragging.entity = None;
        dragging.from = None;
        dragging.dropped = true;
    }
    if before > 1.0 && now > 1.0 && (now - before).abs() > 0.5 {
        let middle = (a.position() + b.position()) / 2.0;
        view.write(ViewCommand::Zoom { factor: now / before, around: Some(middle) });
    }
    let moved = (a.delta() + b.delta()) / 2.0;
    if moved != Vec2::ZERO {
        view.write(ViewCommand::Pan(moved));
    }
}

/// One thing a pointer did, in the order it happened: the mouse (`None`) or a finger.
#[derive(Debug, Clone, Copy, PartialEq)]
enum PointerStep {
    Down(Option<u64>, Vec2),
    Move(Option<u64>, Vec2),
    Up(Option<u64>, Vec2),
}

/// The pointers' steps since the last frame, each in its order: the mouse's left button and its
/// movements, and every finger (read from the messages, not the frame's summary, so that two quick
/// taps in one slow frame stay two taps).
fn pointer_steps(
    gesture: &mut Gesture,
    moves: &mut MessageReader<CursorMoved>,
    buttons: &mut MessageReader<MouseButtonInput>,
    fingers: &mut MessageReader<TouchInput>,
) -> Vec<PointerStep> {
    let mut steps = Vec::new();
    for moved in moves.read() {
        gesture.cursor = Some(moved.position);
        steps.push(PointerStep::Move(None, moved.position));
    }
    for button in buttons.read().filter(|b| b.button == MouseButton::Left) {
        let Some(at) = gesture.cursor else { continue };
        steps.push(match button.state {
            ButtonState::Pressed => PointerStep::Down(None, at),
            ButtonState::Released => PointerStep::Up(None, at),
        });
    }
    for finger in fingers.read() {
        let (id, at) = (Some(finger.id), finger.position);
        steps.push(match finger.phase {
            TouchPhase::Started => PointerStep::Down(id, at),
            TouchPhase::Moved => PointerStep::Move(id, at),
            TouchPhase::Ended | TouchPhase::Canceled => PointerStep::Up(id, at),
        });
    }
    steps
}

/// Whether a window point lies on one of egui's panels or windows (as they were last drawn).
fn on_panels(contexts: &mut Query<&mut EguiContext>, at: Vec2) -> bool {
    contexts.iter_mut().any(|mut context| {
        context
            .get_mut()
            .layer_id_at(egui::pos2(at.x, at.y))
            .is_some_and(|layer| layer.order != egui::Order::Background)
    })
}

/// The board's own units (one square = 1) of a window point, with window pixels per square.
fn board_point(
    cameras: &Query<(&Camera, &GlobalTransform)>,
    roots: &Query<&GlobalTransform, With<BoardRoot>>,
    at: Vec2,
) -> Option<(Vec2, f32)> {
    let ((camera, camera_at), root) = (cameras.single().ok()?, roots.single().ok()?);
    let world = camera.viewport_to_world_2d(camera_at, at).ok()?;
    Some((root.affine().inverse().transform_point3(world.extend(0.0)).truncate(), root.scale().x))
}

/// The place under a window point: the one whose rectangle holds it.
fn place_at(
    cameras: &Query<(&Camera, &GlobalTransform)>,
    cells: &Query<(&Cell, &Sprite, &GlobalTransform)>,
    at: Vec2,
) -> Option<Square> {
    let (camera, camera_at) = cameras.single().ok()?;
    let world = camera.viewport_to_world_2d(camera_at, at).ok()?.extend(0.0);
    cells
        .iter()
        .filter(|(_, sprite, placed)| {
            let size = sprite.custom_size.unwrap_or(Vec2::ONE);
            let local = placed.affine().inverse().transform_point3(world).truncate();
            local.abs().cmple(size / 2.0).all()
        })
        .max_by(|(_, _, a), (_, _, b)| a.translation().z.total_cmp(&b.translation().z))
        .map(|(cell, _, _)| cell.0)
}

/// Turns the pointer's gestures on the board into taps, drags and drops: a press on a place taps
/// it; moving while pressed drags the piece on top of it (or pans the view from an empty place);
/// letting go drops the piece on the place under the pointer.
#[allow(clippy::too_many_arguments)]
fn follow_pointer(
    mut gesture: ResMut<Gesture>,
    mut moves: MessageReader<CursorMoved>,
    mut buttons: MessageReader<MouseButtonInput>,
    mut fingers: MessageReader<TouchInput>,
    mut contexts: Query<&mut EguiContext>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    roots: Query<&GlobalTransform, With<BoardRoot>>,
    cells: Query<(&Cell, &Sprite, &GlobalTransform)>,
    pieces: Query<(Entity, &PieceView)>,
    mut transforms: Query<&mut Transform, With<PieceView>>,
    mut dragging: ResMut<Dragging>,
    mut taps: MessageWriter<BoardTap>,
    mut drops: MessageWriter<BoardDrop>,
    mut view: MessageWriter<ViewCommand>,
) {
    for step in pointer_steps(&mut gesture, &mut moves, &mut buttons, &mut fingers) {
        let held_by = gesture.held.map(|held| held.finger);
        match step {
            PointerStep::Down(_, _) if held_by.is_some() => {}
            PointerStep::Move(by, _) | PointerStep::Up(by, _) if held_by != Some(by) => {}
            PointerStep::Down(finger, at) => {
                if on_panels(&mut contexts, at) {
                    gesture.held = Some(Held { finger, at, square: None, dragging: false });
                    continue;
                }
                let square = place_at(&cameras, &cells, at);
                if let (Some(square), Some((local, pitch))) = (square, board_point(&cameras, &roots, at)) {
                    taps.write(BoardTap { square, pointer: at, local, pitch });
                }
                gesture.held = Some(Held { finger, at, square, dragging: false });
            }
            PointerStep::Move(_, at) => {
                let Some(held) = gesture.held.as_mut() else { continue };
                let Some(square) = held.square else { continue };
                let delta = at - held.at;
                held.at = at;
                if !held.dragging {
                    held.dragging = true;
                    // The top piece of a stack is the one a finger takes.
                    let piece = pieces
                        .iter()
                        .filter(|(_, view)| view.square == square)
                        .max_by_key(|(_, view)| view.level)
                        .map(|(e, _)| e);
                    *dragging = match piece {
                        Some(piece) => Dragging {
                            entity: Some(piece),
                            from: Some(square),
                            dropped: false,
                            panning: false,
                        },
                        None => Dragging { panning: true, ..default() },
                    };
                }
                if dragging.panning {
                    view.write(ViewCommand::Pan(delta));
                    continue;
                }
                // The dragged piece follows the pointer, lifted above the others.
                let Some(entity) = dragging.entity else { continue };
                let Some((local, _)) = board_point(&cameras, &roots, at) else { continue };
                if let Ok(mut transform) = transforms.get_mut(entity) {
                    transform.translation = local.extend(5.0);
                    transform.scale = Vec3::splat(1.15);
                }
            }
            PointerStep::Up(_, at) => {
                let Some(held) = gesture.held.take() else { continue };
                if !held.dragging {
                    continue;
                }
                if let Some(from) = dragging.from
                    && !dragging.dropped
                {
                    let to = place_at(&cameras, &cells, at);
                    drops.write(BoardDrop { from, to: to.filter(|to| *to != from) });
                }
                if let Some(mut transform) = dragging.entity.and_then(|e| transforms.get_mut(e).ok()) {
                    transform.scale = Vec3::ONE;
                }
                *dragging = Dragging::default();
            }
        }
    }
}
