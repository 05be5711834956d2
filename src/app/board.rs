//! The board kit: squares and pieces as entities laid out for any rectangular board, mirrored from
//! the rules state (they never own it), with highlights and the captured-piece trays.

use super::Screen;
use super::animate::{Glide, glide_seconds};
use super::art::{Art, ArtImages};
use super::input::{self, Dragging};
use super::turn::{Change, Play};
use crate::levels::Level;
use crate::robot::RobotPlayer;
use crate::rules::Seat;
use crate::rules::board::{BoardShape, Move, Square};
use bevy::prelude::*;

/// What a square-board game tells the screen, beyond the rules.
pub trait AppGame: RobotPlayer<Action = Move> {
    const NAME: &'static str;
    /// The game for a level file, if the file is one of this game's.
    fn from_level(level: &Level) -> Option<Self>;
    /// The words key of a seat's colour or role ("white", "bunnies"…).
    fn colour_key(seat: Seat) -> &'static str {
        if seat == Seat::WHITE { "white" } else { "black" }
    }
    /// The seat's score as its panel shows it.
    fn score(&self, seat: Seat) -> u32;
    /// Small pictures with counts under a seat's score (knights left, …).
    fn extras(&self, _seat: Seat) -> Vec<(Art, u32)> {
        Vec::new()
    }
    /// A words key for a lasting message about the game's phase.
    fn banner(&self) -> Option<&'static str> {
        None
    }
    fn shape(&self) -> BoardShape {
        BoardShape::CHESS
    }
    /// Every piece on the board and its picture.
    fn pieces(&self) -> Vec<(Square, Art)>;
    /// The pieces a seat has collected, shown beside the board.
    fn tray(&self, seat: Seat) -> Vec<Art>;
    /// Where a piece goes when it leaves the board with `action`, played by `mover`.
    fn exit(&self, _square: Square, _art: Art, mover: Seat) -> Exit {
        Exit::Tray(mover)
    }
    /// The legal destinations of the piece on `from`, for the seat to move.
    fn targets(&self, from: Square) -> Vec<Square> {
        self.legal_actions().into_iter().filter(|m| m.from == from).map(|m| m.to).collect()
    }
    /// Whether the piece on `square` belongs to the seat to move (it may be picked up).
    fn movable(&self, square: Square) -> bool;
    /// The colours of the board's light and dark squares.
    fn square_colours(&self) -> (Color, Color) {
        (Color::srgb(0.94, 0.85, 0.71), Color::srgb(0.71, 0.53, 0.39))
    }
}

pub enum Exit {
    Tray(Seat),
    Vanish,
}

#[derive(Component)]
pub struct BoardRoot;

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell(pub Square);

/// A piece on the board: where it stands and what it looks like.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceView {
    pub square: Square,
    pub art: Art,
}

/// A piece collected by a seat, shown in that seat's tray.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrayItem {
    pub seat: Seat,
    pub slot: usize,
    pub art: Art,
}

/// A highlight: a legal target, the selected piece, the last move.
#[derive(Component)]
pub struct Mark;

/// The part of the window the board may use (logical pixels, y down), set by the panels around it.
#[derive(Resource, Clone, Copy, Debug)]
pub struct BoardArea(pub Rect);

impl Default for BoardArea {
    fn default() -> Self {
        BoardArea(Rect::new(0.0, 0.0, 800.0, 800.0))
    }
}

/// How the board lies: its shape and whether it is turned for Black at the bottom.
#[derive(Resource, Clone, Copy, Debug)]
pub struct BoardLayout {
    pub shape: BoardShape,
    pub flipped: bool,
    /// Local units between the board's edge and each tray's centre.
    pub tray_gap: f32,
}

const PIECE_Z: f32 = 2.0;
const MARK_Z: f32 = 1.0;
const TRAY_ITEM_SIZE: f32 = 0.5;

impl BoardLayout {
    /// The centre of a square in the board's own units (one square = 1).
    pub fn local(&self, square: Square) -> Vec2 {
        let x = square.file as f32 - (self.shape.files as f32 - 1.0) / 2.0;
        let y = square.rank as f32 - (self.shape.ranks as f32 - 1.0) / 2.0;
        if self.flipped { Vec2::new(-x, -y) } else { Vec2::new(x, y) }
    }

    pub fn piece_position(&self, square: Square) -> Vec3 {
        self.local(square).extend(PIECE_Z)
    }

    pub fn bottom_seat(&self) -> Seat {
        if self.flipped { Seat::BLACK } else { Seat::WHITE }
    }

    /// Where a seat's n-th collected piece sits: below the board for the seat at the bottom.
    pub fn tray_position(&self, seat: Seat, slot: usize) -> Vec3 {
        let half_w = self.shape.files as f32 / 2.0;
        let half_h = self.shape.ranks as f32 / 2.0 + self.tray_gap;
        let step = TRAY_ITEM_SIZE * 0.9;
        let x = -half_w + TRAY_ITEM_SIZE / 2.0 + slot as f32 * step;
        if seat == self.bottom_seat() {
            Vec3::new(x, -half_h, PIECE_Z)
        } else {
            Vec3::new(-x, half_h, PIECE_Z)
        }
    }

    /// Board units the layout needs: the board plus a tray row above and below.
    fn extent(&self) -> Vec2 {
        Vec2::new(self.shape.files as f32 + 0.3, self.shape.ranks as f32 + 2.0 * (self.tray_gap + 0.35))
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardArea>();
    app.add_systems(PostUpdate, fit_board.before(TransformSystems::Propagate));
}

/// Adds the systems that mirror one game's state on the board.
pub fn add_game<G: AppGame>(app: &mut App) {
    app.add_systems(
        Update,
        (sync_pieces::<G>, settle_pieces, mark_squares::<G>)
            .chain()
            .after(super::turn::TurnSet)
            .run_if(resource_exists::<Play<G>>),
    );
}

/// Spawns the squares of the board for a new game.
pub fn spawn_board<G: AppGame>(commands: &mut Commands, game: &G, layout: BoardLayout) {
    commands.insert_resource(layout);
    let (light, dark) = game.square_colours();
    let root = commands
        .spawn((BoardRoot, Transform::default(), Visibility::default(), DespawnOnExit(Screen::Playing)))
        .id();
    // A frame around the board.
    let frame_size = Vec2::new(layout.shape.files as f32 + 0.24, layout.shape.ranks as f32 + 0.24);
    commands.spawn((
        Sprite::from_color(Color::srgb(0.42, 0.27, 0.17), frame_size),
        Transform::from_xyz(0.0, 0.0, -0.1),
        Pickable::IGNORE,
        ChildOf(root),
    ));
    for square in layout.shape.squares() {
        let colour = if square.is_dark() { dark } else { light };
        let cell = commands
            .spawn((
                Cell(square),
                Sprite::from_color(colour, Vec2::ONE),
                Transform::from_translation(layout.local(square).extend(0.0)),
                ChildOf(root),
            ))
            .id();
        input::observe_cell(commands, cell);
    }
}

/// Places and scales the board to fill its area, keeping squares square.
fn fit_board(
    area: Res<BoardArea>,
    layout: Option<Res<BoardLayout>>,
    windows: Query<&Window>,
    mut roots: Query<&mut Transform, With<BoardRoot>>,
) {
    let (Some(layout), Ok(window)) = (layout, windows.single()) else { return };
    let extent = layout.extent();
    let rect = area.0;
    let scale = (rect.width() / extent.x).min(rect.height() / extent.y).max(1.0);
    let centre = Vec2::new(rect.center().x - window.width() / 2.0, window.height() / 2.0 - rect.center().y);
    for mut transform in &mut roots {
        transform.translation = centre.extend(0.0);
        transform.scale = Vec3::new(scale, scale, 1.0);
    }
}

fn piece_bundle(art: Art, images: &ArtImages) -> impl Bundle {
    (Sprite { image: images.get(art), custom_size: Some(Vec2::splat(1.0)), ..default() }, Pickable::IGNORE)
}

/// Mirrors the pieces and trays after every change of the game, animating what the last action did.
#[allow(clippy::too_many_arguments)]
fn sync_pieces<G: AppGame>(
    mut commands: Commands,
    play: Res<Play<G>>,
    layout: Res<BoardLayout>,
    images: Res<ArtImages>,
    roots: Query<Entity, With<BoardRoot>>,
    mut pieces: Query<(Entity, &mut PieceView, &Transform)>,
    trays: Query<(Entity, &TrayItem)>,
    mut synced: Local<Option<u64>>,
) {
    if *synced == Some(play.version) {
        return;
    }
    let Ok(root) = roots.single() else { return };
    *synced = Some(play.version);
    let game = play.game();
    let mut wanted = game.pieces();
    let mut tray_counts = [0usize; 2];
    for (_, item) in &trays {
        tray_counts[item.seat.index()] = tray_counts[item.seat.index()].max(item.slot + 1);
    }

    if let Change::Played { action, mover } = play.change {
        // The piece that moved keeps its entity and glides on from wherever it is (a drag ends mid-board).
        let mut mover_entity = None;
        for (entity, mut view, transform) in &mut pieces {
            if view.square == action.from {
                if let Some(at) = wanted.iter().position(|(s, a)| *s == action.to && *a == view.art) {
                    wanted.swap_remove(at);
                    view.square = action.to;
                    let to = layout.piece_position(action.to);
                    let distance = transform.translation.truncate().distance(to.truncate());
                    commands.entity(entity).insert(
                        Glide::new(transform.translation.with_z(PIECE_Z + 1.0), to, glide_seconds(distance))
                            .eased(EaseFunction::CubicOut),
                    );
                    mover_entity = Some(entity);
                }
            }
        }
        for (entity, view, transform) in &pieces {
            if Some(entity) == mover_entity {
                continue;
            }
            if let Some(at) = wanted.iter().position(|(s, a)| *s == view.square && *a == view.art) {
                wanted.swap_remove(at);
                continue;
            }
            // This piece left the board with the move: fly it out.
            match game.exit(view.square, view.art, mover) {
                Exit::Tray(seat) => {
                    let slot = tray_counts[seat.index()];
                    tray_counts[seat.index()] += 1;
                    let to = layout.tray_position(seat, slot);
                    commands.entity(entity).remove::<PieceView>().insert((
                        TrayItem { seat, slot, art: view.art },
                        Glide::new(transform.translation.with_z(PIECE_Z + 2.0), to, 0.6)
                            .scaled(1.25, TRAY_ITEM_SIZE)
                            .eased(EaseFunction::CubicInOut),
                    ));
                }
                Exit::Vanish => {
                    commands.entity(entity).remove::<PieceView>().insert(
                        Glide::new(transform.translation, transform.translation, 0.35)
                            .scaled(1.0, 0.0)
                            .eased(EaseFunction::BackIn),
                    );
                    commands.entity(entity).insert(super::animate::DespawnAfterGlide);
                }
            }
        }
        for (square, art) in wanted {
            let at = layout.piece_position(square);
            commands.spawn((
                PieceView { square, art },
                piece_bundle(art, &images),
                Transform::from_translation(at).with_scale(Vec3::ZERO),
                Glide::new(at, at, 0.3).scaled(0.0, 1.0).eased(EaseFunction::BackOut),
                ChildOf(root),
            ));
        }
    } else {
        for (entity, _, _) in &pieces {
            commands.entity(entity).despawn();
        }
        for (entity, _) in &trays {
            commands.entity(entity).despawn();
        }
        for (square, art) in wanted {
            commands.spawn((
                PieceView { square, art },
                piece_bundle(art, &images),
                Transform::from_translation(layout.piece_position(square)),
                ChildOf(root),
            ));
        }
        for seat in [Seat::WHITE, Seat::BLACK] {
            for (slot, art) in game.tray(seat).into_iter().enumerate() {
                commands.spawn((
                    TrayItem { seat, slot, art },
                    piece_bundle(art, &images),
                    Transform::from_translation(layout.tray_position(seat, slot))
                        .with_scale(Vec3::splat(TRAY_ITEM_SIZE)),
                    ChildOf(root),
                ));
            }
        }
    }
}

/// Pieces not where they belong (a refused drag, a turned board) glide back to their square.
fn settle_pieces(
    mut commands: Commands,
    layout: Res<BoardLayout>,
    dragging: Res<Dragging>,
    pieces: Query<(Entity, &PieceView, &Transform), Without<Glide>>,
    trays: Query<(Entity, &TrayItem, &Transform), Without<Glide>>,
) {
    for (entity, view, transform) in &pieces {
        if dragging.entity == Some(entity) {
            continue;
        }
        let home = layout.piece_position(view.square);
        if transform.translation.truncate().distance(home.truncate()) > 1e-3 {
            let distance = transform.translation.truncate().distance(home.truncate());
            commands.entity(entity).insert(Glide::new(transform.translation, home, glide_seconds(distance)));
        }
    }
    for (entity, item, transform) in &trays {
        let home = layout.tray_position(item.seat, item.slot);
        if transform.translation.truncate().distance(home.truncate()) > 1e-3 {
            commands.entity(entity).insert(
                Glide::new(transform.translation, home, 0.3).scaled(transform.scale.x, TRAY_ITEM_SIZE),
            );
        }
    }
}

/// Lights up the selected piece, its legal targets and the last move.
#[allow(clippy::too_many_arguments)]
fn mark_squares<G: AppGame>(
    mut commands: Commands,
    play: Res<Play<G>>,
    layout: Res<BoardLayout>,
    images: Res<ArtImages>,
    roots: Query<Entity, With<BoardRoot>>,
    marks: Query<Entity, With<Mark>>,
    mut cells: Query<(&Cell, &mut Sprite)>,
    mut shown: Local<Option<(u64, Option<Square>, bool)>>,
) {
    let now = (play.version, play.selected, layout.flipped);
    if *shown == Some(now) {
        return;
    }
    let Ok(root) = roots.single() else { return };
    *shown = Some(now);
    for entity in &marks {
        commands.entity(entity).despawn();
    }
    let game = play.game();
    let (light, dark) = game.square_colours();
    let last = play.last_move();
    for (cell, mut sprite) in &mut cells {
        let base = if cell.0.is_dark() { dark } else { light };
        let lit = last.is_some_and(|m| m.from == cell.0 || m.to == cell.0);
        sprite.color = if lit { base.mix(&Color::srgb(0.98, 0.86, 0.25), 0.45) } else { base };
    }
    let Some(from) = play.selected else { return };
    let mut mark = |art: Art, square: Square, size: f32| {
        commands.spawn((
            Mark,
            Sprite { image: images.get(art), custom_size: Some(Vec2::splat(size)), ..default() },
            Transform::from_translation(layout.local(square).extend(MARK_Z)),
            Pickable::IGNORE,
            ChildOf(root),
        ));
    };
    mark(Art::SelectedRing, from, 1.0);
    for target in game.targets(from) {
        let occupied = game.pieces().iter().any(|(s, _)| *s == target);
        if occupied {
            mark(Art::TargetRing, target, 1.0);
        } else {
            mark(Art::TargetDot, target, 0.9);
        }
    }
}
