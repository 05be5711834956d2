//! The pieces and highlights on the board, mirrored from the rules state after every change of the
//! game: the piece that moved glides, captured pieces fly to their tray, the selection and its
//! targets light up.

use super::animate::{DespawnAfterGlide, Glide, glide_seconds};
use super::input::Dragging;
use super::view::{
    BoardLayout, BoardRoot, BoardView, Cell, KeyCursor, MARK_Z, Mark, OnBoard, PIECE_Z, PieceView,
    TRAY_ITEM_SIZE, TrayItem,
};
use crate::app::platform::art::{Art, ArtImages};
use crate::app::session::feedback::CoachArrows;
use crate::app::session::feedback::{Preview, Selection};
use crate::app::session::game::Exit;
use crate::app::session::play::{Change, Play};
use crate::app::session::shown::Shown;
use crate::palette::{self, Rgb};
use crate::rules::Seat;
use crate::rules::board::Square;
use bevy::prelude::*;
use std::collections::{BTreeSet, HashMap};

/// Adds the systems that mirror the game's state on the board.
pub(in crate::app) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (follow_turns, sync_pieces, settle_pieces, mark_squares)
            .chain()
            .after(crate::app::session::play::TurnSet)
            // The view's turn of this frame is the one the board follows.
            .after(super::view::ViewSet)
            .run_if(resource_exists::<Play>),
    );
}

/// Turns the board when the game asks for it (Bunnies and Horses turns it for round 2) or the
/// person turns the view; the pieces then glide to their new places (`settle_pieces`).
fn follow_turns(
    play: Res<Play>,
    view: Res<BoardView>,
    windows: Query<&Window>,
    mut layout: ResMut<BoardLayout>,
    mut drawn: Query<(&OnBoard, &mut Transform)>,
) {
    let flipped = play.game().flipped(play.person_against_robot());
    // A long board on a screen held upright lies along its long edge, the near side's end at
    // the bottom (a quarter turn clockwise).
    let tall = play.game().manner().long && windows.single().is_ok_and(|w| w.height() > w.width());
    let turns = (view.turns + if tall { 3 } else { 0 }) % 4;
    if layout.flipped == flipped && layout.turns == turns {
        return;
    }
    layout.flipped = flipped;
    layout.turns = turns;
    for (on_board, mut transform) in &mut drawn {
        on_board.place(&layout, &mut transform);
    }
}

fn piece_bundle(art: Art, images: &ArtImages) -> impl Bundle {
    Sprite { image: images.get(art), custom_size: Some(Vec2::splat(1.0)), ..default() }
}

/// The board's root, once it is there; until then `missed` keeps the work owed for later frames.
fn board_root(roots: &Query<Entity, With<BoardRoot>>, missed: &mut bool) -> Option<Entity> {
    let root = roots.single().ok();
    *missed = root.is_none();
    root
}

/// Mirrors the pieces and trays after every change of the game, animating what the last action did.
#[allow(clippy::too_many_arguments)]
fn sync_pieces(
    mut commands: Commands,
    play: Res<Play>,
    layout: Res<BoardLayout>,
    images: Res<ArtImages>,
    roots: Query<Entity, With<BoardRoot>>,
    mut pieces: Query<(Entity, &mut PieceView, &Transform)>,
    trays: Query<(Entity, &TrayItem)>,
    mut missed: Local<bool>,
) {
    // The game changed (a new game counts as a change): mirror it, once.
    if !(play.is_changed() || *missed) {
        return;
    }
    let Some(root) = board_root(&roots, &mut missed) else { return };
    let game = play.game();
    let mut wanted = game.pieces();
    let mut tray_counts = vec![0usize; game.seat_count()];
    for (_, item) in &trays {
        if let Some(count) = tray_counts.get_mut(item.seat.index()) {
            *count = (*count).max(item.slot + 1);
        }
    }

    let Change::Played { motion, path, mover } = play.change() else {
        lay_out_afresh(&mut commands, game, &layout, &images, root, &pieces, &trays);
        return;
    };
    let (motion, mover) = (*motion, *mover);
    // Exactly one piece moved (none for a roll): the top one of the stack it left. It keeps its
    // entity and glides along its path from wherever it is (a drag ends mid-board).
    let mover_entity = motion.and_then(|motion| {
        pieces
            .iter()
            .filter(|(_, view, _)| view.square == motion.from)
            .max_by_key(|(_, view, _)| view.level)
            .map(|(entity, _, _)| entity)
    });
    let landed = motion.map_or(0, |m| stack_height(&wanted, m.to).saturating_sub(1));
    if let (Some(action), Some(entity)) = (motion, mover_entity)
        && let Ok((_, mut view, transform)) = pieces.get_mut(entity)
        && let Some(at) = wanted.iter().position(|(s, a)| *s == action.to && *a == view.art)
    {
        wanted.swap_remove(at);
        view.square = action.to;
        view.level = landed;
        let glide = glide_along(&layout, transform.translation, path, action.to, landed, game.manner().hops);
        commands.entity(entity).insert(glide);
    }
    let new_phase = play.previous().is_some_and(|before| game.new_phase(before));
    for (entity, view, transform) in &pieces {
        let is_mover = Some(entity) == mover_entity;
        if is_mover && motion.is_some_and(|m| view.square == m.to) {
            continue;
        }
        if !is_mover
            && !new_phase
            && let Some(at) = wanted.iter().position(|(s, a)| *s == view.square && *a == view.art)
        {
            wanted.swap_remove(at);
            continue;
        }
        // This piece left the board with the move: fly it out. The mover first lands on its square.
        let start = transform.translation.with_z(PIECE_Z + 2.0);
        let landing =
            motion.filter(|_| is_mover).map(|m| layout.piece_position(m.to, landed).with_z(PIECE_Z + 2.0));
        let mut entity_commands = commands.entity(entity);
        entity_commands.remove::<PieceView>();
        match game.exit(view.square, view.art, mover) {
            Exit::Tray(seat) => {
                let slot = tray_counts[seat.index()];
                tray_counts[seat.index()] += 1;
                let far_side = game.tray_on_far_side(seat);
                let to = layout.tray_position(seat, slot, far_side);
                let fly = |from: Vec3| {
                    Glide::new(from, to, 0.6).scaled(1.25, TRAY_ITEM_SIZE).eased(EaseFunction::CubicInOut)
                };
                let glide = match landing {
                    Some(square) => {
                        Glide::new(start, square, 0.3).eased(EaseFunction::CubicOut).then(fly(square))
                    }
                    None => fly(start),
                };
                entity_commands.insert((TrayItem { seat, slot, art: view.art, far_side }, glide));
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
    // What stays on the board, stack by stack, for the new pieces to go on top of.
    let mut stacks: HashMap<Square, usize> = HashMap::new();
    for (square, _) in game.pieces() {
        *stacks.entry(square).or_insert(0) += 1;
    }
    for (square, _) in &wanted {
        *stacks.get_mut(square).expect("a wanted piece is one of the game's") -= 1;
    }
    // A new phase waits for the old pieces to leave before it pops in.
    let delay = if new_phase { 0.7 } else { 0.0 };
    for (square, art) in wanted {
        // New pieces go on top of what stands on their place.
        let level = stacks.entry(square).or_insert(0);
        let at = layout.piece_position(square, *level);
        let view = PieceView { square, level: *level, art };
        *level += 1;
        commands.spawn((
            view,
            piece_bundle(art, &images),
            Transform::from_translation(at).with_scale(Vec3::ZERO),
            Glide::new(at, at, delay)
                .scaled(0.0, 0.0)
                .then(Glide::new(at, at, 0.3).scaled(0.0, 1.0).eased(EaseFunction::BackOut)),
            ChildOf(root),
        ));
    }
    // Whatever the animation made of the trays, they end as the rules have them.
    for seat in Seat::all(game.seat_count()) {
        let far_side = game.tray_on_far_side(seat);
        let tray = game.tray(seat);
        for (entity, item) in &trays {
            if item.seat == seat && item.slot >= tray.len() {
                commands.entity(entity).despawn();
            }
        }
        for (slot, art) in tray.iter().enumerate().skip(tray_counts[seat.index()]) {
            let at = layout.tray_position(seat, slot, far_side);
            commands.spawn((
                TrayItem { seat, slot, art: *art, far_side },
                piece_bundle(*art, &images),
                Transform::from_translation(at).with_scale(Vec3::ZERO),
                Glide::new(at, at, 0.3).scaled(0.0, TRAY_ITEM_SIZE).eased(EaseFunction::BackOut),
                ChildOf(root),
            ));
        }
    }
}

/// How many of `pieces` stand on `square`.
fn stack_height(pieces: &[(Square, Art)], square: Square) -> usize {
    pieces.iter().filter(|(s, _)| *s == square).count()
}

/// A glide from `from` through each place of `path` to the top of the stack on `to`: one short
/// hop per place, so a piece that used several steps is seen to take each of them; each hop an
/// arc where the game's pieces hop (`hops_arc`).
fn glide_along(
    layout: &BoardLayout,
    from: Vec3,
    path: &[Square],
    to: Square,
    level: usize,
    hops_arc: bool,
) -> Glide {
    let lifted = PIECE_Z + 1.0;
    let mut points: Vec<Vec3> = path.iter().map(|s| layout.piece_position(*s, 0).with_z(lifted)).collect();
    match points.last_mut() {
        Some(last) => *last = layout.piece_position(to, level),
        None => points.push(layout.piece_position(to, level)),
    }
    let mut hops = Vec::new();
    let mut at = from.with_z(lifted);
    for point in points {
        let distance = at.truncate().distance(point.truncate());
        let lift = if hops_arc { 0.25 + distance * 0.08 } else { 0.0 };
        let ease = if hops_arc { EaseFunction::QuadraticInOut } else { EaseFunction::CubicOut };
        hops.push(Glide::new(at, point, glide_seconds(distance)).eased(ease).arced(lift));
        at = point;
    }
    let mut glide = hops.pop().expect("at least one hop");
    while let Some(before) = hops.pop() {
        glide = before.then(glide);
    }
    glide
}

/// Lays every piece and tray out again without animation (a new game, undo, redo).
fn lay_out_afresh(
    commands: &mut Commands,
    game: &dyn Shown,
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
    let mut stacks: HashMap<Square, usize> = HashMap::new();
    for (square, art) in game.pieces() {
        let level = stacks.entry(square).or_insert(0);
        commands.spawn((
            PieceView { square, level: *level, art },
            piece_bundle(art, images),
            Transform::from_translation(layout.piece_position(square, *level)),
            ChildOf(root),
        ));
        *level += 1;
    }
    for seat in Seat::all(game.seat_count()) {
        let far_side = game.tray_on_far_side(seat);
        for (slot, art) in game.tray(seat).into_iter().enumerate() {
            commands.spawn((
                TrayItem { seat, slot, art, far_side },
                piece_bundle(art, images),
                Transform::from_translation(layout.tray_position(seat, slot, far_side))
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
        let home = layout.piece_position(view.square, view.level);
        let distance = transform.translation.truncate().distance(home.truncate());
        if distance > 1e-3 {
            commands.entity(entity).insert(
                Glide::new(transform.translation, home, glide_seconds(distance))
                    .scaled(transform.scale.x, 1.0),
            );
        }
    }
    for (entity, item, transform) in &trays {
        let home = layout.tray_position(item.seat, item.slot, item.far_side);
        if transform.translation.truncate().distance(home.truncate()) > 1e-3 {
            commands.entity(entity).insert(
                Glide::new(transform.translation, home, 0.3).scaled(transform.scale.x, TRAY_ITEM_SIZE),
            );
        }
    }
}

/// Lights up the selected piece, its legal targets and the last move.
#[allow(clippy::too_many_arguments)]
fn mark_squares(
    mut commands: Commands,
    play: Res<Play>,
    layout: Res<BoardLayout>,
    images: Res<ArtImages>,
    roots: Query<Entity, With<BoardRoot>>,
    marks: Query<Entity, With<Mark>>,
    mut cells: Query<(&Cell, &mut Sprite)>,
    selection: Res<Selection>,
    preview: Res<Preview>,
    cursor: Res<KeyCursor>,
    coach: Res<CoachArrows>,
    mut missed: Local<bool>,
) {
    if !(play.is_changed()
        || selection.is_changed()
        || preview.is_changed()
        || cursor.is_changed()
        || coach.is_changed()
        || layout.is_changed()
        || *missed)
    {
        return;
    }
    let Some(root) = board_root(&roots, &mut missed) else { return };
    for entity in &marks {
        commands.entity(entity).despawn();
    }
    let game = play.game();
    let last = play.last_move();
    // The last turn's moves keep a trail from where they came until the next move, under the
    // pieces, so a child who looked away sees what happened.
    // At a slip the coach's arrows alone are drawn, so the two moves are not mistaken for others.
    let coaching = !coach.played.is_empty() || !coach.better.is_empty();
    for (from, path) in play.last_turn_paths().into_iter().filter(|_| !coaching) {
        spawn_path(&mut commands, root, (&layout, game), (from, &path), LAST_MOVE_ARROW, 0.0);
    }
    // The coach's marks: the move played (dashed, ending in a diamond) and the better one
    // (solid, ending in an arrowhead), so they differ by shape, not by colour alone. Two that
    // set off the same way are drawn side by side, so neither hides the other.
    let aside = if same_start(&layout, game, &coach.played, &coach.better) { 0.13 } else { 0.0 };
    for (paths, style, aside) in [(&coach.played, SLIP_ARROW, aside), (&coach.better, BETTER_ARROW, -aside)] {
        for (from, path) in paths {
            spawn_path(&mut commands, root, (&layout, game), (*from, path), style, aside);
        }
    }
    for (cell, mut sprite) in &mut cells {
        let base = game.square_colour(cell.0);
        let lit = last.is_some_and(|m| m.from == cell.0 || m.to == cell.0);
        sprite.color = if lit { base.mix(&opaque(palette::LAST_MOVE), 0.4) } else { base };
    }
    if let Some(square) = cursor.0 {
        // The keyboard's cursor: a bright frame round its square, whatever stands on it.
        let centre = layout.local(square);
        let (thick, reach) = (0.09, 0.5 - 0.09 / 2.0);
        let bars = [(Vec2::new(0.0, reach), true), (Vec2::new(0.0, -reach), true)]
            .into_iter()
            .chain([(Vec2::new(reach, 0.0), false), (Vec2::new(-reach, 0.0), false)]);
        for (offset, across) in bars {
            let size = if across { Vec2::new(1.0, thick) } else { Vec2::new(thick, 1.0) };
            commands.spawn((
                Mark,
                Sprite::from_color(opaque(palette::CURSOR), size),
                Transform::from_translation((centre + offset).extend(MARK_Z + 0.1)),
                ChildOf(root),
            ));
        }
    }
    let occupied: Vec<Square> = game.pieces().into_iter().map(|(s, _)| s).collect();
    let height = |square: Square| occupied.iter().filter(|s| **s == square).count();
    // The top piece of a place, and where a piece arriving there would stand.
    let top = |square: Square| layout.piece_position(square, height(square).saturating_sub(1)).truncate();
    let landing = |square: Square| layout.piece_position(square, height(square)).truncate();
    let mut mark = |art: Art, at: Vec2, size: f32, colour: Color, z: f32| {
        commands.spawn((
            Mark,
            Sprite {
                image: images.get(art),
                color: colour,
                custom_size: Some(Vec2::splat(size)),
                ..default()
            },
            Transform::from_translation(at.extend(z)),
            ChildOf(root),
        ));
    };
    // A stack too tall to draw whole shows its height on its top piece.
    let stacks: BTreeSet<Square> = occupied.iter().copied().collect();
    for square in stacks {
        let count = height(square);
        if count > layout.stack_drawn(square)
            && let Some(art) = game.count_art(count)
        {
            mark(art, top(square), 0.55, Color::WHITE, PIECE_Z + 0.3);
        }
    }
    if let Some(square) = coach.star {
        mark(Art::Star, layout.local(square) + Vec2::new(0.3, 0.3), 0.5, Color::WHITE, PIECE_Z + 0.7);
    }
    let Some(from) = selection.0 else {
        // Before any tap, the pieces that can move are ringed, where the game wants it.
        if game.manner().show_movable && play.person_to_move().is_some() && !play.draft_done() {
            let movable: BTreeSet<Square> = occupied.iter().copied().filter(|s| game.movable(*s)).collect();
            crate::app::platform::web::report_marks("movable", &movable.iter().copied().collect::<Vec<_>>());
            for square in movable {
                mark(Art::MarkRing, top(square), 1.12, MOVABLE_COLOUR, PIECE_Z + 0.2);
            }
        }
        return;
    };
    mark(Art::MarkRing, top(from), 1.0, opaque(palette::SELECTED), PIECE_Z + 0.2);
    if !preview.0.is_empty() {
        // The previewed path: landings as dots joined by arrows over the board, its end ringed,
        // the pieces it jumps over ringed too, and the landings that would extend it as rings.
        let (end, through) = preview.0.split_last().expect("a preview is not empty");
        for step in through {
            mark(Art::MarkDot, landing(*step), 0.45, PATH_COLOUR, MARK_Z);
        }
        mark(Art::MarkDot, landing(*end), 0.6, PATH_COLOUR, MARK_Z);
        mark(Art::MarkRing, landing(*end), 1.0, PATH_COLOUR, MARK_Z);
        for further in game.further(from, &preview.0) {
            mark(Art::TargetRing, landing(further), 1.0, Color::WHITE, MARK_Z);
        }
        let mut at = from;
        for &next in &preview.0 {
            if let Some(over) = jumped_over(at, next).filter(|s| occupied.contains(s)) {
                mark(Art::MarkRing, top(over), 0.95, PATH_COLOUR, PIECE_Z + 0.4);
            }
            at = next;
        }
        spawn_path(&mut commands, root, (&layout, game), (from, &preview.0), PREVIEW_ARROW, 0.0);
        return;
    }
    let paths = game.target_paths(from);
    let ends: Vec<Square> =
        std::iter::once(from).chain(paths.iter().filter_map(|p| p.last().copied())).collect();
    crate::app::platform::web::report_marks("targets", &ends);
    for path in paths {
        let Some((target, through)) = path.split_last() else { continue };
        // The places a path passes through get small dots, its end the full mark.
        for step in through {
            mark(Art::TargetDot, landing(*step), 0.6, Color::WHITE, MARK_Z);
        }
        let at = landing(*target);
        let stacks_there = layout.places.get(target).is_some_and(|p| p.stack_step != Vec2::ZERO);
        if stacks_there {
            // Where the piece would stand on top of the stack: a bright ring.
            mark(Art::MarkRing, at, 1.0, TARGET_COLOUR, PIECE_Z + 0.1);
        } else if occupied.contains(target) {
            // A piece there is taken: a ring round it.
            mark(Art::TargetRing, at, 1.0, Color::WHITE, MARK_Z);
        } else {
            mark(Art::TargetDot, at, 1.3, Color::WHITE, MARK_Z);
        }
        // What the move uses (its dice), in a row beside the mark.
        let labels = game.target_labels(from, &path);
        let across = layout.rotation() * Vec3::X;
        for (i, art) in labels.iter().enumerate() {
            let offset = (i as f32 - (labels.len() as f32 - 1.0) / 2.0) * 0.42;
            mark(*art, at + across.truncate() * offset, 0.4, Color::WHITE, PIECE_Z + 0.35);
        }
    }
}

/// The ring where a picked piece can go, on a place where pieces stack.
const TARGET_COLOUR: Color = opaque(palette::TARGET);

/// The ring round a piece that can move, before any tap.
const MOVABLE_COLOUR: Color = opaque(palette::MOVABLE);

/// The colour of a previewed path: its dots, its arrows, the pieces it jumps over.
const PATH_COLOUR: Color = opaque(palette::PATH);

/// A mark's colour (`crate::palette`: Okabe and Ito's, told apart by colour-blind children).
const fn opaque([r, g, b]: Rgb) -> Color {
    Color::srgb_u8(r, g, b)
}

/// A mark's colour, `alpha` of 255 seen.
const fn seen_through([r, g, b]: Rgb, alpha: u8) -> Color {
    Color::srgba_u8(r, g, b, alpha)
}

/// The square between two places two squares apart in a line (the piece a hop jumps over).
fn jumped_over(from: Square, to: Square) -> Option<Square> {
    let (df, dr) = (to.file as i32 - from.file as i32, to.rank as i32 - from.rank as i32);
    let is_hop = df.abs().max(dr.abs()) == 2 && df % 2 == 0 && dr % 2 == 0;
    is_hop.then(|| Square::new((from.file as i32 + df / 2) as u8, (from.rank as i32 + dr / 2) as u8))
}

/// What an arrow over the board shows (each of its parts carries it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowKind {
    /// The path of the piece picked, before it is played.
    Preview,
    /// The last turn's moves, until the next one.
    LastMove,
    /// The coach: the move played at a slip.
    Slip,
    /// The coach: the better move there (or the best move of the game).
    Better,
}

/// How an arrow over the board looks.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ArrowStyle {
    kind: ArrowKind,
    colour: Color,
    width: f32,
    z: f32,
    dashed: bool,
    /// Barbs (an arrowhead), or else a diamond at its end.
    barbs: bool,
}

/// A previewed path's arrows: over the pieces (a jump's arrow crosses the piece it jumps).
const PREVIEW_ARROW: ArrowStyle = ArrowStyle {
    kind: ArrowKind::Preview,
    colour: seen_through(palette::PATH, 217),
    width: 0.12,
    z: PIECE_Z + 0.5,
    dashed: false,
    barbs: true,
};

/// The last move's trail: thin and soft, under the pieces.
const LAST_MOVE_ARROW: ArrowStyle = ArrowStyle {
    kind: ArrowKind::LastMove,
    colour: seen_through(palette::LAST_MOVE, 191),
    width: 0.09,
    z: MARK_Z + 0.05,
    dashed: false,
    barbs: true,
};

/// The coach's slip: the move played, dashed and ending in a diamond.
const SLIP_ARROW: ArrowStyle = ArrowStyle {
    kind: ArrowKind::Slip,
    colour: seen_through(palette::SLIP, 230),
    width: 0.1,
    z: PIECE_Z + 0.6,
    dashed: true,
    barbs: false,
};

/// The coach's better move: bold and solid, ending in an arrowhead.
const BETTER_ARROW: ArrowStyle = ArrowStyle {
    kind: ArrowKind::Better,
    colour: seen_through(palette::BETTER, 230),
    width: 0.17,
    z: PIECE_Z + 0.65,
    dashed: false,
    barbs: true,
};

/// The places an arrow from one place to the next passes, the corners it turns at included.
fn hop_points(layout: &BoardLayout, game: &dyn Shown, from: Square, to: Square) -> Vec<Vec2> {
    std::iter::once(from)
        .chain(game.corners_between(from, to))
        .chain(std::iter::once(to))
        .map(|s| layout.local(s))
        .collect()
}

/// Whether the coach's two moves leave the same place the same way.
fn same_start(
    layout: &BoardLayout,
    game: &dyn Shown,
    played: &[(Square, Vec<Square>)],
    better: &[(Square, Vec<Square>)],
) -> bool {
    let (Some((from, path)), Some((other_from, other_path))) = (played.first(), better.first()) else {
        return false;
    };
    let heading = |from: Square, path: &[Square]| match path.first() {
        Some(&next) => {
            let points = hop_points(layout, game, from, next);
            (points[1] - points[0]).normalize_or_zero()
        }
        None => Vec2::ZERO,
    };
    let (one, two) = (heading(*from, path), heading(*other_from, other_path));
    from == other_from && one != Vec2::ZERO && one.dot(two) > 0.99
}

/// Arrows from `from` through each place of `path` in turn, each hop round the corners the game
/// draws it by, moved `aside` (in squares, to its left) off its line.
fn spawn_path(
    commands: &mut Commands,
    root: Entity,
    (layout, game): (&BoardLayout, &dyn Shown),
    (from, path): (Square, &[Square]),
    style: ArrowStyle,
    aside: f32,
) {
    let mut at = from;
    for &next in path {
        spawn_arrow(commands, root, &hop_points(layout, game, at, next), style, aside);
        at = next;
    }
}

/// An arrow along `points` in `style`: bars (or dashes) and a head at its end (barbs or a
/// diamond), see-through enough to show what lies under it.
fn spawn_arrow(commands: &mut Commands, root: Entity, points: &[Vec2], style: ArrowStyle, aside: f32) {
    let last = points.len().saturating_sub(2);
    let mut head = None;
    for (index, pair) in points.windows(2).enumerate() {
        let direction = (pair[1] - pair[0]).normalize_or_zero();
        if direction == Vec2::ZERO {
            continue;
        }
        let shift = direction.perp() * aside;
        // The arrow stops short of both places, so the dots stay visible; it turns at corners.
        let start = pair[0] + shift + if index == 0 { direction * 0.25 } else { Vec2::ZERO };
        let end = pair[1] + shift - if index == last { direction * 0.3 } else { Vec2::ZERO };
        let angle = direction.to_angle();
        if style.dashed {
            // Shorter dashes on a short arrow, so a one-square move shows several.
            let length = start.distance(end);
            let dash = (length / 4.0).min(0.16);
            let mut at = 0.0;
            while at < length {
                let stop = (at + dash).min(length);
                spawn_bar(commands, root, style, (start + direction * at, start + direction * stop), angle);
                at = stop + dash * 0.6;
            }
        } else {
            spawn_bar(commands, root, style, (start, end), angle);
        }
        head = Some((end, angle));
    }
    let Some((end, angle)) = head else { return };
    let mut bar = |from: Vec2, to: Vec2, angle: f32| spawn_bar(commands, root, style, (from, to), angle);
    if style.barbs {
        for side in [-1.0f32, 1.0] {
            let back = Vec2::from_angle(angle + side * 2.6) * 0.25;
            bar(end, end + back, angle + side * 2.6);
        }
    } else {
        // A diamond: a square turned by an eighth.
        let side = style.width * 2.6;
        commands.spawn((
            Mark,
            style.kind,
            Sprite::from_color(style.colour, Vec2::splat(side)),
            Transform::from_translation(end.extend(style.z))
                .with_rotation(Quat::from_rotation_z(angle + std::f32::consts::FRAC_PI_4)),
            ChildOf(root),
        ));
    }
}

/// One bar of an arrow, from one point to another, turned by `angle`.
fn spawn_bar(commands: &mut Commands, root: Entity, style: ArrowStyle, (from, to): (Vec2, Vec2), angle: f32) {
    commands.spawn((
        Mark,
        style.kind,
        Sprite::from_color(style.colour, Vec2::new(from.distance(to), style.width)),
        Transform::from_translation(((from + to) / 2.0).extend(style.z))
            .with_rotation(Quat::from_rotation_z(angle)),
        ChildOf(root),
    ));
}
