//! The board's view: squares and pieces as entities laid out for any rectangular board, mirrored from
//! the rules state (they never own it), with highlights and the captured-piece trays.

use crate::app::platform::art::{Art, ArtImages};
use crate::app::session::screen::Screen;
use crate::app::session::shown::Shown;
use crate::rules::Seat;
use crate::rules::board::{BoardShape, Square};
use bevy::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

#[derive(Component)]
pub struct BoardRoot;

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell(pub Square);

/// A piece on the board: where it stands, how high in the stack on its place (0 at the bottom),
/// and what it looks like. Each piece is an entity of its own, so exactly the piece that moved
/// glides, even out of a stack of pieces that look alike.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceView {
    pub square: Square,
    pub level: usize,
    pub art: Art,
}

/// A piece collected by a seat, shown in that seat's tray.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrayItem {
    pub seat: Seat,
    pub slot: usize,
    pub art: Art,
    pub far_side: bool,
}

/// A highlight: a legal target, the selected piece, the last move.
#[derive(Component)]
pub struct Mark;

/// The keyboard's square cursor, once an arrow key has been pressed.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyCursor(pub Option<Square>);

/// The part of the window the board may use (logical pixels, y down), set by the panels around it.
#[derive(Resource, Clone, Copy, Debug)]
pub struct BoardArea(pub Rect);

impl Default for BoardArea {
    fn default() -> Self {
        BoardArea(Rect::new(0.0, 0.0, 800.0, 800.0))
    }
}

impl BoardArea {
    /// Where the whole board of `layout` shows in this room, unzoomed: as large as fits with its
    /// squares square, in the middle (a square as tall or wide as fits, before there is a layout).
    pub fn whole_board(&self, layout: Option<&BoardLayout>) -> Rect {
        let extent = layout.map_or(Vec2::ONE, BoardLayout::extent);
        let scale = (self.0.width() / extent.x).min(self.0.height() / extent.y);
        Rect::from_center_size(self.0.center(), extent * scale)
    }
}

/// The most the panels above and below the board have taken in this game on this screen size.
/// The board keeps to the room left then, so it does not grow and shrink (and move under a
/// finger) as a message gets longer or the buttons of a previewed move come and go.
#[derive(Resource, Default, Debug)]
pub struct SteadyRoom {
    screen: Vec2,
    /// The edges last frame, and the furthest in they have stood for two frames running (a
    /// panel's first frame may be laid out oddly, and must not shrink the board for good).
    last: Option<(f32, f32)>,
    kept: Option<(f32, f32)>,
}

impl SteadyRoom {
    /// The top and bottom edges of the board's room, from the panels' edges now.
    pub fn keep(&mut self, screen: Vec2, top: f32, bottom: f32) -> (f32, f32) {
        if screen != self.screen {
            *self = SteadyRoom { screen, ..default() };
        }
        if let Some((last_top, last_bottom)) = self.last {
            let (held_top, held_bottom) = (top.min(last_top), bottom.max(last_bottom));
            self.kept = Some(match self.kept {
                Some((kept_top, kept_bottom)) => (kept_top.max(held_top), kept_bottom.min(held_bottom)),
                None => (held_top, held_bottom),
            });
        }
        self.last = Some((top, bottom));
        let (kept_top, kept_bottom) = self.kept.unwrap_or((top, bottom));
        (top.max(kept_top), bottom.min(kept_bottom))
    }

    /// The bottom edge of the board's room as last kept: the top of the panels under it.
    pub fn bottom(&self) -> Option<f32> {
        self.kept.or(self.last).map(|(_, bottom)| bottom)
    }
}

/// A place of the board as the game lays it out (in squares, before the view's turns): where it
/// stands, its cell's size, where its stack starts and which way it grows, and how many of its
/// pieces are drawn apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Place {
    pub at: Vec2,
    pub size: Vec2,
    pub stack_start: Vec2,
    pub stack_step: Vec2,
    pub stack_drawn: usize,
}

/// How the board lies: its shape, whether the game turns it for the second seat at the bottom,
/// and the quarter turns the person added (`BoardView`).
#[derive(Resource, Clone, Debug)]
pub struct BoardLayout {
    pub shape: BoardShape,
    /// Every place (`AppGame::place_at`, `cell_size`, `stack_step_at`…).
    pub places: Arc<HashMap<Square, Place>>,
    pub flipped: bool,
    /// Quarter turns counterclockwise on top of the game's own orientation (0 to 3).
    pub turns: u8,
    /// Local units between the board's edge and each tray's centre.
    pub tray_gap: f32,
}

impl BoardLayout {
    /// The layout of `game`'s places (its grid's squares and its zones), as the game puts them.
    pub fn of(game: &dyn Shown, flipped: bool) -> BoardLayout {
        let places = game
            .shape()
            .squares()
            .chain(game.zones())
            .map(|square| {
                let place = Place {
                    at: game.place_at(square),
                    size: game.cell_size(square),
                    stack_start: game.stack_start(square),
                    stack_step: game.stack_step_at(square),
                    stack_drawn: game.stack_drawn(square),
                };
                (square, place)
            })
            .collect();
        let tray_gap = if game.manner().has_trays { 0.55 } else { 0.0 };
        BoardLayout { shape: game.shape(), places: Arc::new(places), flipped, turns: 0, tray_gap }
    }
}

/// How the person looks at the board: quarter turns, zoom (1 shows the whole board) and pan (in
/// window pixels, y up). The game and any selection stay as they are whatever the view.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct BoardView {
    pub turns: u8,
    pub zoom: f32,
    pub pan: Vec2,
}

impl Default for BoardView {
    fn default() -> Self {
        BoardView { turns: 0, zoom: 1.0, pan: Vec2::ZERO }
    }
}

pub const MAX_ZOOM: f32 = 4.0;

/// A change of the view, from the view buttons, the wheel, a pinch or a drag of the empty board.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub enum ViewCommand {
    /// A quarter turn counterclockwise.
    Turn,
    /// Zoom by a factor, keeping the point under `around` (window pixels, y down) in place; `None`
    /// zooms around the board's centre.
    Zoom { factor: f32, around: Option<Vec2> },
    /// Move the board by window pixels (y down, as the pointer reports them).
    Pan(Vec2),
    /// The whole board again, unturned views keep their turn.
    Fit,
}

impl BoardView {
    pub fn apply(&mut self, command: ViewCommand, fit_centre: Vec2) {
        match command {
            ViewCommand::Turn => self.turns = (self.turns + 1) % 4,
            ViewCommand::Zoom { factor, around } => {
                let zoom = (self.zoom * factor).clamp(1.0, MAX_ZOOM);
                // The point under the pointer stays under it: the board's centre moves away from
                // (or toward) it by the zoom's ratio.
                if let Some(at) = around {
                    let at = Vec2::new(at.x, -at.y);
                    let centre = fit_centre + self.pan;
                    let ratio = zoom / self.zoom;
                    self.pan = at + (centre - at) * ratio - fit_centre;
                } else {
                    self.pan *= zoom / self.zoom;
                }
                self.zoom = zoom;
                if self.zoom <= 1.0 {
                    self.pan = Vec2::ZERO;
                }
            }
            ViewCommand::Pan(delta) if self.zoom > 1.0 => self.pan += Vec2::new(delta.x, -delta.y),
            ViewCommand::Pan(_) => {}
            ViewCommand::Fit => {
                self.zoom = 1.0;
                self.pan = Vec2::ZERO;
            }
        }
    }
}

/// A vector turned by quarter turns counterclockwise.
fn turned(v: Vec2, turns: u8) -> Vec2 {
    match turns % 4 {
        0 => v,
        1 => Vec2::new(-v.y, v.x),
        2 => -v,
        _ => Vec2::new(v.y, -v.x),
    }
}

pub const PIECE_Z: f32 = 2.0;
pub const MARK_Z: f32 = 1.0;
pub const TRAY_ITEM_SIZE: f32 = 0.5;

impl BoardLayout {
    /// The centre of a square in the board's own units (one square = 1).
    pub fn local(&self, square: Square) -> Vec2 {
        let grid = Vec2::new(square.file as f32, square.rank as f32);
        self.local_point(self.places.get(&square).map_or(grid, |p| p.at))
    }

    /// Where the piece `level` high in the stack on `square` is drawn. A stack taller than
    /// `stack_drawn` keeps its top pieces on its last drawn place, so it never runs off its place.
    pub fn piece_position(&self, square: Square, level: usize) -> Vec3 {
        let grid = Vec2::new(square.file as f32, square.rank as f32);
        let place = self.places.get(&square).copied().unwrap_or(Place {
            at: grid,
            size: Vec2::ONE,
            stack_start: Vec2::ZERO,
            stack_step: Vec2::ZERO,
            stack_drawn: 1,
        });
        let drawn = level.min(place.stack_drawn.max(1) - 1) as f32;
        let at = place.at + place.stack_start + place.stack_step * drawn;
        self.local_point(at).extend(PIECE_Z + 0.01 * level as f32)
    }

    /// How many pieces of the stack on `square` are drawn apart.
    pub fn stack_drawn(&self, square: Square) -> usize {
        self.places.get(&square).map_or(1, |p| p.stack_drawn)
    }

    /// How far a picture drawn on the board turns with it: the game's half turn and the view's
    /// quarter turns.
    pub fn rotation(&self) -> Quat {
        let quarters = self.turns as f32 + if self.flipped { 2.0 } else { 0.0 };
        Quat::from_rotation_z(quarters * std::f32::consts::FRAC_PI_2)
    }

    /// The square next to `from` in a direction on the screen (x right, y up), as the board is
    /// turned now; `from` itself at the board's edge.
    pub fn step_on_screen(&self, from: Square, on_screen: IVec2) -> Square {
        let on_board = turned(on_screen.as_vec2(), (4 - self.turns % 4) % 4);
        let on_board = if self.flipped { -on_board } else { on_board };
        let file = from.file as i32 + on_board.x.round() as i32;
        let rank = from.rank as i32 + on_board.y.round() as i32;
        if (0..self.shape.files as i32).contains(&file) && (0..self.shape.ranks as i32).contains(&rank) {
            Square::new(file as u8, rank as u8)
        } else {
            from
        }
    }

    /// Board units to local units, for a point given in squares from the centre of a1.
    pub fn local_point(&self, at: Vec2) -> Vec2 {
        let centred = at - Vec2::new(self.shape.files as f32 - 1.0, self.shape.ranks as f32 - 1.0) / 2.0;
        turned(if self.flipped { -centred } else { centred }, self.turns)
    }

    /// Where a seat's n-th collected piece sits. The first two seats' trays are rows beyond the
    /// near or far edge (the first seat's filling from the left, the second's from the right);
    /// a third and fourth seat's are columns beside the left and right edges, filling upward.
    pub fn tray_position(&self, seat: Seat, slot: usize, far_side: bool) -> Vec3 {
        let half_w = self.shape.files as f32 / 2.0;
        let half_h = self.shape.ranks as f32 / 2.0;
        let step = TRAY_ITEM_SIZE * 0.9;
        let along = |half: f32| -half + TRAY_ITEM_SIZE / 2.0 + slot as f32 * step;
        let at = match seat.index() {
            0 | 1 => {
                let x = if seat.index() == 0 { along(half_w) } else { -along(half_w) };
                let y = half_h + self.tray_gap;
                Vec2::new(x, if far_side != self.flipped { y } else { -y })
            }
            index => {
                let x = half_w + self.tray_gap;
                Vec2::new(if index == 2 { -x } else { x }, along(half_h))
            }
        };
        turned(at, self.turns).extend(PIECE_Z)
    }

    /// Board units the layout needs: the board plus a tray row above and below, if any, and as
    /// far out as its places reach (evenly on both sides, so the grid stays in the middle).
    pub fn extent(&self) -> Vec2 {
        let trays = if self.tray_gap > 0.0 { 2.0 * (self.tray_gap + 0.35) } else { 0.3 };
        let grid = Vec2::new(self.shape.files as f32 + 0.3, self.shape.ranks as f32 + trays);
        let centre = self.grid_centre();
        let reach = self
            .places
            .values()
            .fold(grid, |reach, p| reach.max((p.at - centre).abs() * 2.0 + p.size.max(Vec2::ONE) + 0.3));
        if self.turns % 2 == 1 { Vec2::new(reach.y, reach.x) } else { reach }
    }

    fn grid_centre(&self) -> Vec2 {
        Vec2::new(self.shape.files as f32 - 1.0, self.shape.ranks as f32 - 1.0) / 2.0
    }

    /// The rectangle the places cover, in squares from the centre of a1.
    fn places_rect(&self) -> Rect {
        self.places.values().fold(Rect::from_center_size(self.grid_centre(), Vec2::ZERO), |rect, p| {
            rect.union(Rect::from_center_size(p.at, p.size))
        })
    }
}

pub(in crate::app) fn plugin(app: &mut App) {
    app.init_resource::<BoardArea>().init_resource::<BoardView>().add_message::<ViewCommand>();
    app.add_systems(Update, change_view.in_set(ViewSet).run_if(in_state(Screen::Playing)));
    app.add_systems(OnEnter(Screen::Playing), |mut view: ResMut<BoardView>| *view = BoardView::default());
    app.add_systems(PostUpdate, fit_board.before(TransformSystems::Propagate));
    #[cfg(target_arch = "wasm32")]
    app.add_systems(PostUpdate, report_board.after(TransformSystems::Propagate));
}

/// The board's centre in window pixels (y up, from the window's centre) when the whole board shows.
fn fit_centre(area: &BoardArea, window: &Window) -> Vec2 {
    let rect = area.0;
    Vec2::new(rect.center().x - window.width() / 2.0, window.height() / 2.0 - rect.center().y)
}

/// Where the view's orders are carried out; the turns run first, so a tap that zooms shows in its
/// own frame.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct ViewSet;

fn change_view(
    mut commands: MessageReader<ViewCommand>,
    mut view: ResMut<BoardView>,
    area: Res<BoardArea>,
    windows: Query<&Window>,
) {
    let centre = windows.single().map_or(Vec2::ZERO, |w| fit_centre(&area, w));
    for command in commands.read() {
        let mut next = *view;
        // Pointer positions come from the window's top-left corner; the view works from its centre.
        let command = match (*command, windows.single()) {
            (ViewCommand::Zoom { factor, around: Some(at) }, Ok(window)) => ViewCommand::Zoom {
                factor,
                around: Some(at - Vec2::new(window.width(), window.height()) / 2.0),
            },
            (command, _) => command,
        };
        next.apply(command, centre);
        view.set_if_neq(next);
    }
}

/// A picture drawn on the board, kept in place when the board turns: where it stands (in squares
/// from the centre of a1) and, for a shape that turns with the board, how far it is turned
/// itself (`None` stays upright, as a picture of a thing does).
#[derive(Component)]
pub struct OnBoard(pub Vec2, pub Option<f32>);

impl OnBoard {
    /// Where and how it is drawn as the board lies now.
    pub fn place(&self, layout: &BoardLayout, transform: &mut Transform) {
        let z = transform.translation.z;
        transform.translation = layout.local_point(self.0).extend(z);
        if let Some(angle) = self.1 {
            transform.rotation = layout.rotation() * Quat::from_rotation_z(angle);
        }
    }
}

/// Spawns the squares and decorations of the board for a new game.
pub fn spawn_board(
    commands: &mut Commands,
    game: &dyn Shown,
    layout: BoardLayout,
    images: &ArtImages,
) -> Entity {
    commands.insert_resource(layout.clone());
    let root = commands
        .spawn((BoardRoot, Transform::default(), Visibility::default(), DespawnOnExit(Screen::Playing)))
        .id();
    // A frame around the board's places.
    let covered = layout.places_rect();
    let mut frame = Transform::from_xyz(0.0, 0.0, -0.1);
    let on_board = OnBoard(covered.center(), Some(0.0));
    on_board.place(&layout, &mut frame);
    commands.spawn((
        Sprite::from_color(Color::srgb(0.42, 0.27, 0.17), covered.size() + Vec2::splat(0.24)),
        frame,
        on_board,
        ChildOf(root),
    ));
    // Every place the layout knows (the grid's squares and the zones), in a fixed order.
    let mut places: Vec<(Square, Place)> = layout.places.iter().map(|(s, p)| (*s, *p)).collect();
    places.sort_by_key(|(s, _)| (s.rank, s.file));
    for (square, place) in places {
        let mut transform = Transform::default();
        let on_board = OnBoard(place.at, Some(0.0));
        on_board.place(&layout, &mut transform);
        commands.spawn((
            Cell(square),
            on_board,
            Sprite::from_color(game.square_colour(square), place.size),
            transform,
            ChildOf(root),
        ));
    }
    for decoration in game.decorations() {
        let mut transform = Transform::from_xyz(0.0, 0.0, 0.5);
        let on_board = OnBoard(decoration.at, decoration.angle);
        on_board.place(&layout, &mut transform);
        commands.spawn((
            on_board,
            Sprite {
                image: images.get(decoration.art),
                color: decoration.colour,
                custom_size: Some(decoration.size),
                ..default()
            },
            transform,
            ChildOf(root),
        ));
    }
    root
}

/// Places and scales the board to fill its area, keeping squares square, then applies the
/// person's zoom and pan.
fn fit_board(
    area: Res<BoardArea>,
    layout: Option<Res<BoardLayout>>,
    view: Res<BoardView>,
    windows: Query<&Window>,
    mut roots: Query<&mut Transform, With<BoardRoot>>,
) {
    let (Some(layout), Ok(window)) = (layout, windows.single()) else { return };
    let extent = layout.extent();
    let rect = area.0;
    let scale = (rect.width() / extent.x).min(rect.height() / extent.y).max(1.0) * view.zoom;
    let centre = fit_centre(&area, window) + view.pan;
    for mut transform in &mut roots {
        // Changed only when it moves: a still board asks for no more frames (`frame_pace`).
        let fitted =
            Transform { translation: centre.extend(0.0), scale: Vec3::new(scale, scale, 1.0), ..*transform };
        transform.set_if_neq(fitted);
    }
}

#[cfg(target_arch = "wasm32")]
/// Logs `tabla board <first square> x y <last square> x y fit <width> <height>`: the centres of
/// the board's two corner squares in CSS pixels and the size of the whole board shown whole (the
/// room the panels leave it), whenever the board is laid out anew; and `tabla places <square> x
/// y …`, the centre of every place (a board that is no grid has its own).
fn report_board(
    cells: Query<(&Cell, &GlobalTransform)>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    area: Res<BoardArea>,
    layout: Option<Res<BoardLayout>>,
    mut last: Local<String>,
    mut last_places: Local<String>,
) {
    if let Ok((camera, eye)) = cameras.single() {
        let mut places: Vec<(Cell, Vec2)> = cells
            .iter()
            .filter_map(|(cell, at)| Some((*cell, camera.world_to_viewport(eye, at.translation()).ok()?)))
            .collect();
        places.sort_by_key(|(cell, _)| (cell.0.rank, cell.0.file));
        let line = places.iter().fold("tabla places".to_string(), |line, (cell, at)| {
            format!("{line} {} {:.1} {:.1}", cell.0, at.x, at.y)
        });
        if *last_places != line && !places.is_empty() {
            tracing::info!("{line}");
            *last_places = line;
        }
    }
    let first = cells.iter().min_by_key(|(cell, _)| (cell.0.rank, cell.0.file));
    let end = cells.iter().max_by_key(|(cell, _)| (cell.0.rank, cell.0.file));
    let (Some(first), Some(end), Ok((camera, eye))) = (first, end, cameras.single()) else {
        last.clear();
        return;
    };
    let at = |place: &GlobalTransform| camera.world_to_viewport(eye, place.translation()).ok();
    let (Some(a), Some(b)) = (at(first.1), at(end.1)) else { return };
    let fit = area.whole_board(layout.as_deref()).size();
    let line = format!(
        "tabla board {} {:.1} {:.1} {} {:.1} {:.1} fit {:.1} {:.1}",
        first.0.0, a.x, a.y, end.0.0, b.x, b.y, fit.x, fit.y
    );
    if *last != line {
        tracing::info!("{line}");
        *last = line;
    }
}
