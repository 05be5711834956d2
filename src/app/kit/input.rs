//! Pointer and finger input on the board, through one set of bevy_picking observers on the board
//! itself: a touch on any square bubbles up to it. The observers only translate gestures into
//! `BoardTap` and `BoardDrop`; the turn logic (and the headless tests) work from those messages
//! alone.

use super::board::{BoardRoot, Cell, PieceView, ViewCommand};
use super::catalog::Screen;
use crate::rules::board::Square;
use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::input::touch::Touches;
use bevy::picking::events::{Drag, DragDrop, DragEnd, DragStart, Pointer, Press};
use bevy::prelude::*;

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

pub(super) fn plugin(app: &mut App) {
    app.add_message::<BoardPress>()
        .add_message::<BoardTap>()
        .add_message::<BoardDrop>()
        .init_resource::<Dragging>();
    // The wheel and the fingers come with a window (the headless app has neither).
    app.add_systems(
        Update,
        (
            wheel_zoom.run_if(resource_exists::<Messages<MouseWheel>>),
            pinch_zoom.run_if(resource_exists::<Touches>),
        )
            .run_if(in_state(Screen::Playing)),
    );
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

/// Gives the board its pointer observers (one of each, whatever the number of squares).
pub fn observe_board(commands: &mut Commands, board: Entity) {
    commands
        .entity(board)
        .observe(on_press)
        .observe(on_drag_start)
        .observe(on_drag)
        .observe(on_drop)
        .observe(on_drag_end);
}

fn cell_square(cells: &Query<&Cell>, entity: Entity) -> Option<Square> {
    cells.get(entity).ok().map(|c| c.0)
}

fn on_press(
    press: On<Pointer<Press>>,
    cells: Query<&Cell>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    roots: Query<&GlobalTransform, With<BoardRoot>>,
    mut out: MessageWriter<BoardTap>,
) {
    let Some(square) = cell_square(&cells, press.original_event_target()) else { return };
    let pointer = press.pointer_location.position;
    let (Ok((camera, camera_at)), Ok(root)) = (cameras.single(), roots.single()) else { return };
    let Ok(world) = camera.viewport_to_world_2d(camera_at, pointer) else { return };
    let local = root.affine().inverse().transform_point3(world.extend(0.0)).truncate();
    out.write(BoardTap { square, pointer, local, pitch: root.scale().x });
}

fn on_drag_start(
    start: On<Pointer<DragStart>>,
    cells: Query<&Cell>,
    pieces: Query<(Entity, &PieceView)>,
    mut dragging: ResMut<Dragging>,
) {
    let Some(square) = cell_square(&cells, start.original_event_target()) else { return };
    // The top piece of a stack is the one a finger takes.
    let piece = pieces
        .iter()
        .filter(|(_, view)| view.square == square)
        .max_by_key(|(_, view)| view.level)
        .map(|(e, _)| e);
    *dragging = match piece {
        Some(piece) => Dragging { entity: Some(piece), from: Some(square), dropped: false, panning: false },
        None => Dragging { panning: true, ..default() },
    };
}

/// The dragged piece follows the pointer, lifted above the others.
fn on_drag(
    drag: On<Pointer<Drag>>,
    dragging: Res<Dragging>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    roots: Query<&GlobalTransform, With<BoardRoot>>,
    mut transforms: Query<&mut Transform, With<PieceView>>,
    mut view: MessageWriter<ViewCommand>,
) {
    if dragging.panning {
        view.write(ViewCommand::Pan(drag.delta));
        return;
    }
    let Some(entity) = dragging.entity else { return };
    let (Ok((camera, camera_at)), Ok(root)) = (cameras.single(), roots.single()) else { return };
    let Ok(world) = camera.viewport_to_world_2d(camera_at, drag.pointer_location.position) else { return };
    let local = root.affine().inverse().transform_point3(world.extend(0.0));
    if let Ok(mut transform) = transforms.get_mut(entity) {
        transform.translation = local.truncate().extend(5.0);
        transform.scale = Vec3::splat(1.15);
    }
}

fn on_drop(
    drop: On<Pointer<DragDrop>>,
    cells: Query<&Cell>,
    mut dragging: ResMut<Dragging>,
    mut out: MessageWriter<BoardDrop>,
) {
    let (Some(from), Some(to)) = (dragging.from, cell_square(&cells, drop.original_event_target())) else {
        return;
    };
    dragging.dropped = true;
    out.write(BoardDrop { from, to: (to != from).then_some(to) });
}

fn on_drag_end(
    _end: On<Pointer<DragEnd>>,
    mut dragging: ResMut<Dragging>,
    mut transforms: Query<&mut Transform, With<PieceView>>,
    mut out: MessageWriter<BoardDrop>,
) {
    if let Some(from) = dragging.from
        && !dragging.dropped
    {
        out.write(BoardDrop { from, to: None });
    }
    if let Some(mut transform) = dragging.entity.and_then(|e| transforms.get_mut(e).ok()) {
        transform.scale = Vec3::ONE;
    }
    *dragging = Dragging::default();
}
