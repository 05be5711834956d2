//! The board kit: squares and pieces as entities laid out for any rectangular board, mirrored from
//! the rules state (they never own it), with highlights and the captured-piece trays.

use super::Screen;
use super::animate::{DespawnAfterGlide, Glide, glide_seconds};
use super::art::{Art, ArtImages};
use super::input::{self, Dragging};
use super::settings::Words;
use super::turn::{Change, Play};
use crate::levels::FromLevel;
use crate::robot::RobotPlayer;
use crate::rules::Seat;
use crate::rules::board::{BoardShape, Move, Square};
use bevy::prelude::*;

/// What a square-board game tells the screen, beyond the rules.
pub trait AppGame: RobotPlayer<Action = Move> + FromLevel {
    const NAME: &'static str;
    /// The game's picture on the menu.
    const MENU_ART: Art;
    /// The person's seat against the Robot, when the game decides it (else the person chooses).
    const PERSON_SEAT: Option<Seat> = None;
    /// Whether the panels show a score.
    const SHOW_SCORE: bool = true;
    /// Whether pieces leave the board for trays beside it (else no room is kept for them).
    const HAS_TRAYS: bool = true;

    /// The words key of a seat's colour or role now ("white", "role_bunnies"…).
    fn seat_label_key(&self, seat: Seat) -> &'static str {
        if seat == Seat::WHITE { "white" } else { "black" }
    }
    /// The seat's score as its panel shows it.
    fn score(&self, seat: Seat) -> u32;
    /// What the seat's panel shows under its score (knights left, progress, …).
    fn extras(&self, _seat: Seat) -> Vec<Extra> {
        Vec::new()
    }
    /// A lasting message about the game's phase.
    fn banner(&self, _words: &Words) -> Option<String> {
        None
    }
    /// A big message when a new phase begins with this state (a new round), told to `person`
    /// (the person playing the Robot; `None` for two players).
    fn phase_notice(&self, _before: &Self, _person: Option<Seat>, _words: &Words) -> Option<String> {
        None
    }
    /// The words key of the letter the move list writes for the piece making `action`; games
    /// without a move list say `None`.
    fn piece_letter(&self, _action: &Move) -> Option<&'static str> {
        None
    }
    /// Whether this state begins a new phase laid out afresh (a new round): every piece of the
    /// last phase leaves the board and the new ones appear.
    fn new_phase(&self, _before: &Self) -> bool {
        false
    }
    /// Whether the board is turned (rank 8 at the bottom) for `person`.
    fn flipped(&self, person: Option<Seat>) -> bool {
        person == Some(Seat::BLACK)
    }
    fn shape(&self) -> BoardShape {
        BoardShape::CHESS
    }
    /// Every piece on the board and its picture.
    fn pieces(&self) -> Vec<(Square, Art)>;
    /// The pieces a seat has collected, shown beside the board.
    fn tray(&self, seat: Seat) -> Vec<Art>;
    /// Whether a seat's tray lies beyond rank 8 (else below rank 1).
    fn tray_beyond_rank_8(&self, seat: Seat) -> bool {
        seat == Seat::BLACK
    }
    /// Where a piece goes when it leaves the board with the last action, played by `mover`.
    fn exit(&self, _square: Square, _art: Art, mover: Seat) -> Exit {
        Exit::Tray(mover)
    }
    /// The legal destinations of the piece on `from`, for the seat to move.
    fn targets(&self, from: Square) -> Vec<Square> {
        self.legal_actions().into_iter().filter(|m| m.from == from).map(|m| m.to).collect()
    }
    /// Whether the piece on `square` belongs to the seat to move (it may be picked up).
    fn movable(&self, square: Square) -> bool;
    fn square_colour(&self, square: Square) -> Color {
        if square.is_dark() { Color::srgb(0.71, 0.53, 0.39) } else { Color::srgb(0.94, 0.85, 0.71) }
    }
    /// Pictures drawn on the board under the pieces.
    fn decorations(&self) -> Vec<Decoration> {
        Vec::new()
    }
}

/// A line of a seat's panel.
#[derive(Clone, Debug, PartialEq)]
pub enum Extra {
    /// A picture repeated `n` times (knights left).
    Count(Art, u32),
    /// A piece's way round, filling a bar.
    Progress { art: Art, percent: u8, finished: bool },
    /// A few words.
    Text(String),
}

/// A picture on the board: `at` in squares from the centre of a1, `size` in squares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decoration {
    pub art: Art,
    pub at: Vec2,
    pub size: f32,
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
    pub beyond_rank_8: bool,
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

    /// Board units to local units, for a point given in squares from the centre of a1.
    pub fn local_point(&self, at: Vec2) -> Vec2 {
        let centred = at - Vec2::new(self.shape.files as f32 - 1.0, self.shape.ranks as f32 - 1.0) / 2.0;
        if self.flipped { -centred } else { centred }
    }

    /// Where a seat's n-th collected piece sits: in a row above or below the board, the first
    /// seat's from the left, the second seat's from the right.
    pub fn tray_position(&self, seat: Seat, slot: usize, beyond_rank_8: bool) -> Vec3 {
        let half_w = self.shape.files as f32 / 2.0;
        let half_h = self.shape.ranks as f32 / 2.0 + self.tray_gap;
        let step = TRAY_ITEM_SIZE * 0.9;
        let from_left = -half_w + TRAY_ITEM_SIZE / 2.0 + slot as f32 * step;
        let x = if seat == Seat::WHITE { from_left } else { -from_left };
        let y = if beyond_rank_8 != self.flipped { half_h } else { -half_h };
        Vec3::new(x, y, PIECE_Z)
    }

    /// Board units the layout needs: the board plus a tray row above and below, if any.
    fn extent(&self) -> Vec2 {
        let trays = if self.tray_gap > 0.0 { 2.0 * (self.tray_gap + 0.35) } else { 0.3 };
        Vec2::new(self.shape.files as f32 + 0.3, self.shape.ranks as f32 + trays)
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
        (follow_flip::<G>, sync_pieces::<G>, settle_pieces, mark_squares::<G>)
            .chain()
            .after(super::turn::TurnSet)
            .run_if(resource_exists::<Play<G>>),
    );
}

/// A picture drawn on the board, kept in place when the board turns.
#[derive(Component)]
struct OnBoard(Vec2);

/// Spawns the squares and decorations of the board for a new game.
pub fn spawn_board<G: AppGame>(commands: &mut Commands, game: &G, layout: BoardLayout, images: &ArtImages) {
    commands.insert_resource(layout);
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
        let at = Vec2::new(square.file as f32, square.rank as f32);
        let cell = commands
            .spawn((
                Cell(square),
                OnBoard(at),
                Pickable::default(),
                Sprite::from_color(game.square_colour(square), Vec2::ONE),
                Transform::from_translation(layout.local(square).extend(0.0)),
                ChildOf(root),
            ))
            .id();
        input::observe_cell(commands, cell);
    }
    for decoration in game.decorations() {
        commands.spawn((
            OnBoard(decoration.at),
            Sprite {
                image: images.get(decoration.art),
                custom_size: Some(Vec2::splat(decoration.size)),
                ..default()
            },
            Transform::from_translation(layout.local_point(decoration.at).extend(0.5)),
            Pickable::IGNORE,
            ChildOf(root),
        ));
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

/// Turns the board when the game asks for it (Bunnies and Horses turns it for round 2).
fn follow_flip<G: AppGame>(
    play: Res<Play<G>>,
    mut layout: ResMut<BoardLayout>,
    mut drawn: Query<(&OnBoard, &mut Transform)>,
) {
    let flipped = play.game().flipped(play.person_against_robot());
    if layout.flipped == flipped {
        return;
    }
    layout.flipped = flipped;
    for (on_board, mut transform) in &mut drawn {
        let z = transform.translation.z;
        transform.translation = layout.local_point(on_board.0).extend(z);
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

    let Change::Played { action, mover } = play.change else {
        lay_out_afresh(&mut commands, game, &layout, &images, root, &pieces, &trays);
        return;
    };
    // The piece that moved keeps its entity and glides on from wherever it is (a drag ends mid-board).
    let mut mover_entity = None;
    for (entity, mut view, transform) in &mut pieces {
        if view.square != action.from {
            continue;
        }
        mover_entity = Some(entity);
        if let Some(at) = wanted.iter().position(|(s, a)| *s == action.to && *a == view.art) {
            wanted.swap_remove(at);
            view.square = action.to;
            let to = layout.piece_position(action.to);
            let distance = transform.translation.truncate().distance(to.truncate());
            commands.entity(entity).insert(
                Glide::new(transform.translation.with_z(PIECE_Z + 1.0), to, glide_seconds(distance))
                    .eased(EaseFunction::CubicOut),
            );
        }
    }
    let new_phase = play.previous().is_some_and(|before| game.new_phase(before));
    for (entity, view, transform) in &pieces {
        if view.square == action.to && Some(entity) == mover_entity {
            continue;
        }
        if Some(entity) != mover_entity
            && !new_phase
            && let Some(at) = wanted.iter().position(|(s, a)| *s == view.square && *a == view.art)
        {
            wanted.swap_remove(at);
            continue;
        }
        // This piece left the board with the move: fly it out. The mover first lands on its square.
        let start = transform.translation.with_z(PIECE_Z + 2.0);
        let landing =
            (Some(entity) == mover_entity).then(|| layout.piece_position(action.to).with_z(PIECE_Z + 2.0));
        let mut entity_commands = commands.entity(entity);
        entity_commands.remove::<PieceView>();
        match game.exit(view.square, view.art, mover) {
            Exit::Tray(seat) => {
                let slot = tray_counts[seat.index()];
                tray_counts[seat.index()] += 1;
                let beyond_rank_8 = game.tray_beyond_rank_8(seat);
                let to = layout.tray_position(seat, slot, beyond_rank_8);
                let fly = |from: Vec3| {
                    Glide::new(from, to, 0.6).scaled(1.25, TRAY_ITEM_SIZE).eased(EaseFunction::CubicInOut)
                };
                let glide = match landing {
                    Some(square) => {
                        Glide::new(start, square, 0.3).eased(EaseFunction::CubicOut).then(fly(square))
                    }
                    None => fly(start),
                };
                entity_commands.insert((TrayItem { seat, slot, art: view.art, beyond_rank_8 }, glide));
            }
            Exit::Vanish => {
                let at = landing.unwrap_or(start);
                let shrink = Glide::new(at, at, 0.35).scaled(1.0, 0.0).eased(EaseFunction::BackIn);
                let glide = match landing {
                    Some(square) => Glide::new(start, square, 0.3).then(shrink),
                    None => shrink,
                };
                entity_commands.insert((glide, DespawnAfterGlide));
            }
        }
    }
    // A new phase waits for the old pieces to leave before it pops in.
    let delay = if new_phase { 0.7 } else { 0.0 };
    for (square, art) in wanted {
        let at = layout.piece_position(square);
        commands.spawn((
            PieceView { square, art },
            piece_bundle(art, &images),
            Transform::from_translation(at).with_scale(Vec3::ZERO),
            Glide::new(at, at, delay)
                .scaled(0.0, 0.0)
                .then(Glide::new(at, at, 0.3).scaled(0.0, 1.0).eased(EaseFunction::BackOut)),
            ChildOf(root),
        ));
    }
    // Whatever the animation made of the trays, they end as the rules have them.
    for seat in [Seat::WHITE, Seat::BLACK] {
        let beyond_rank_8 = game.tray_beyond_rank_8(seat);
        let tray = game.tray(seat);
        for (entity, item) in &trays {
            if item.seat == seat && item.slot >= tray.len() {
                commands.entity(entity).despawn();
            }
        }
        for (slot, art) in tray.iter().enumerate().skip(tray_counts[seat.index()]) {
            let at = layout.tray_position(seat, slot, beyond_rank_8);
            commands.spawn((
                TrayItem { seat, slot, art: *art, beyond_rank_8 },
                piece_bundle(*art, &images),
                Transform::from_translation(at).with_scale(Vec3::ZERO),
                Glide::new(at, at, 0.3).scaled(0.0, TRAY_ITEM_SIZE).eased(EaseFunction::BackOut),
                ChildOf(root),
            ));
        }
    }
}

/// Lays every piece and tray out again without animation (a new game, undo, redo).
fn lay_out_afresh<G: AppGame>(
    commands: &mut Commands,
    game: &G,
    layout: &BoardLayout,
    images: &ArtImages,
    root: Entity,
    pieces: &Query<(Entity, &mut PieceView, &Transform)>,
    trays: &Query<(Entity, &TrayItem)>,
) {
    for (entity, _, _) in pieces {
        commands.entity(entity).despawn();
    }
    for (entity, _) in trays {
        commands.entity(entity).despawn();
    }
    for (square, art) in game.pieces() {
        commands.spawn((
            PieceView { square, art },
            piece_bundle(art, images),
            Transform::from_translation(layout.piece_position(square)),
            ChildOf(root),
        ));
    }
    for seat in [Seat::WHITE, Seat::BLACK] {
        let beyond_rank_8 = game.tray_beyond_rank_8(seat);
        for (slot, art) in game.tray(seat).into_iter().enumerate() {
            commands.spawn((
                TrayItem { seat, slot, art, beyond_rank_8 },
                piece_bundle(art, images),
                Transform::from_translation(layout.tray_position(seat, slot, beyond_rank_8))
                    .with_scale(Vec3::splat(TRAY_ITEM_SIZE)),
                ChildOf(root),
            ));
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
        let distance = transform.translation.truncate().distance(home.truncate());
        if distance > 1e-3 {
            commands.entity(entity).insert(
                Glide::new(transform.translation, home, glide_seconds(distance))
                    .scaled(transform.scale.x, 1.0),
            );
        }
    }
    for (entity, item, transform) in &trays {
        let home = layout.tray_position(item.seat, item.slot, item.beyond_rank_8);
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
    let last = play.last_move();
    for (cell, mut sprite) in &mut cells {
        let base = game.square_colour(cell.0);
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
    let occupied: Vec<Square> = game.pieces().into_iter().map(|(s, _)| s).collect();
    for target in game.targets(from) {
        if occupied.contains(&target) {
            mark(Art::TargetRing, target, 1.0);
        } else {
            mark(Art::TargetDot, target, 0.9);
        }
    }
}
