//! Pointer and finger input on the board, through bevy_picking observers on the squares. The
//! observers only translate gestures into `BoardPress` and `BoardDrop`; the turn logic (and the
//! headless tests) work from those messages alone.

use super::board::{BoardRoot, Cell, PieceView};
use crate::rules::board::Square;
use bevy::picking::events::{Drag, DragDrop, DragEnd, DragStart, Pointer, Press};
use bevy::prelude::*;

/// A square was touched or clicked.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardPress(pub Square);

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
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<BoardPress>().add_message::<BoardDrop>().init_resource::<Dragging>();
}

/// Gives a square entity its pointer observers.
pub fn observe_cell(commands: &mut Commands, cell: Entity) {
    commands
        .entity(cell)
        .observe(on_press)
        .observe(on_drag_start)
        .observe(on_drag)
        .observe(on_drop)
        .observe(on_drag_end);
}

fn cell_square(cells: &Query<&Cell>, entity: Entity) -> Option<Square> {
    cells.get(entity).ok().map(|c| c.0)
}

fn on_press(press: On<Pointer<Press>>, cells: Query<&Cell>, mut out: MessageWriter<BoardPress>) {
    if let Some(square) = cell_square(&cells, press.entity) {
        out.write(BoardPress(square));
    }
}

fn on_drag_start(
    start: On<Pointer<DragStart>>,
    cells: Query<&Cell>,
    pieces: Query<(Entity, &PieceView)>,
    mut dragging: ResMut<Dragging>,
) {
    let Some(square) = cell_square(&cells, start.entity) else { return };
    let piece = pieces.iter().find(|(_, view)| view.square == square).map(|(e, _)| e);
    *dragging = Dragging { entity: piece, from: Some(square), dropped: false };
}

/// The dragged piece follows the pointer, lifted above the others.
fn on_drag(
    drag: On<Pointer<Drag>>,
    dragging: Res<Dragging>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    roots: Query<&GlobalTransform, With<BoardRoot>>,
    mut transforms: Query<&mut Transform, With<PieceView>>,
) {
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
    let (Some(from), Some(to)) = (dragging.from, cell_square(&cells, drop.entity)) else { return };
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
