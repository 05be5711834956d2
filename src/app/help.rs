//! How to play: a window that opens with a short moving demonstration on a small board, drawn
//! from the game's own view (its places, colours, decorations and pieces) and played from the
//! game's demonstration file (`crate::demo`), a line under it saying what each move shows, then
//! the game's rules in a few words, and all of them folded away below.

use super::art::Art;
use super::board::BoardLayout;
use super::game::{AppGame, Decoration};
use super::play::Play;
use super::scoreboard::ScoreBoard;
use super::settings::Words;
use super::theme::{ACCENT, EguiArt, INK, bold};
use crate::demo::{self, Demo};
use crate::rules::board::Square;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, Pos2, RichText, Stroke, pos2, vec2};

/// Whether the help window is open.
#[derive(Resource, Default)]
pub struct HelpOpen(pub bool);

/// One moment of the demonstration, in the board's local units (a square is 1, y up), ready to
/// be painted whatever the game.
#[derive(Resource, Default, Clone, Debug)]
pub struct DemoFrame {
    pub game: &'static str,
    /// Each place: its centre, its size and its colour.
    pub cells: Vec<(Vec2, Vec2, Color)>,
    /// The board's pictures under the pieces, then those over it (dice), `at` in local units.
    pub decorations: Vec<Decoration>,
    pub pieces: Vec<(Vec2, Art)>,
    /// The piece about to move, ringed.
    pub lit: Option<Vec2>,
    /// The places its move passes through, ending where it stops.
    pub path: Vec<Vec2>,
    /// The words key of what the move shows.
    pub say: Option<String>,
    /// Why there is no demonstration (its file is broken).
    pub problem: Option<String>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HelpOpen>().init_resource::<DemoFrame>();
}

pub fn add_game<G: AppGame>(app: &mut App) {
    app.add_systems(Update, play_demo::<G>.run_if(resource_exists::<Play<G>>));
}

/// Seconds a move's piece is ringed and its path marked, then its glide, then the rest after it.
const SHOW: f32 = 0.9;
const GLIDE: f32 = 0.8;
const REST: f32 = 0.9;
/// A step that moves no piece (a roll) is a rest alone; the last position stays a while.
const ROLL: f32 = 1.3;
const HOLD: f32 = 2.5;

/// The demonstration of one game and how far it has played; a game without one shows none.
struct Running<G: AppGame> {
    demo: Option<Result<Prepared<G>, String>>,
    clock: f32,
}

/// A demonstration with its board's layout and the part of it shown (local units), if not all.
struct Prepared<G: AppGame> {
    demo: Demo<G>,
    layout: BoardLayout,
    window: Option<Rect>,
}

impl<G: AppGame> Prepared<G> {
    fn new(demo: Demo<G>) -> Result<Prepared<G>, String> {
        let layout = BoardLayout::of(&demo.start, false);
        let window = match &demo.show {
            None => None,
            Some((a, b)) => {
                let shape = demo.start.shape();
                let corner = |name: &str| {
                    shape.parse(name).map(|s| layout.local(s)).map_err(|e| format!("{}: {e}", G::NAME))
                };
                Some(Rect::from_corners(corner(a)?, corner(b)?).inflate(0.5))
            }
        };
        Ok(Prepared { demo, layout, window })
    }

    /// Whether a step is seen: a move with a place in the window, or a step that moves nothing.
    fn seen(&self, step: &demo::Shown<G>) -> bool {
        match (step.before.motion_of(&step.action), self.window) {
            (Some(motion), Some(window)) => {
                [motion.from, motion.to].iter().any(|s| window.contains(self.layout.local(*s)))
            }
            _ => true,
        }
    }

    /// Seconds a step takes; a step not seen is made at once.
    fn length(&self, step: &demo::Shown<G>) -> f32 {
        match step.before.motion_of(&step.action) {
            _ if !self.seen(step) => 0.0,
            Some(_) => SHOW + GLIDE + REST,
            None => ROLL,
        }
    }
}

fn play_demo<G: AppGame>(
    help: Res<HelpOpen>,
    time: Res<Time>,
    mut frame: ResMut<DemoFrame>,
    mut running: Local<Option<Running<G>>>,
) {
    let running = running.get_or_insert_with(|| {
        let demo = demo::demo::<G>(G::NAME).map(|demo| demo.and_then(Prepared::new));
        if let Some(Err(problem)) = &demo {
            tracing::warn!("{problem}");
        }
        Running { demo, clock: 0.0 }
    });
    // Each opening of the help starts the demonstration from its beginning.
    if !help.0 {
        running.clock = 0.0;
        return;
    }
    let prepared = match &running.demo {
        None => {
            *frame = DemoFrame::default();
            return;
        }
        Some(Ok(prepared)) => prepared,
        Some(Err(problem)) => {
            *frame = DemoFrame { game: G::NAME, problem: Some(problem.clone()), ..default() };
            return;
        }
    };
    let length: f32 = prepared.demo.steps.iter().map(|s| prepared.length(s)).sum::<f32>() + HOLD;
    running.clock = (running.clock + time.delta_secs()) % length;
    *frame = cropped(moment(prepared, running.clock), prepared.window);
}

/// Only what stands inside the window, when the demonstration shows part of the board.
fn cropped(mut frame: DemoFrame, window: Option<Rect>) -> DemoFrame {
    let Some(window) = window else { return frame };
    frame.cells.retain(|(at, _, _)| window.contains(*at));
    frame.decorations.retain(|d| window.contains(d.at));
    frame.pieces.retain(|(at, _)| window.contains(*at));
    frame
}

/// What the board shows `clock` seconds into the demonstration.
fn moment<G: AppGame>(prepared: &Prepared<G>, clock: f32) -> DemoFrame {
    let (demo, layout) = (&prepared.demo, &prepared.layout);
    let mut frame = DemoFrame { game: G::NAME, cells: cells(&demo.start, layout), ..default() };
    let mut left = clock;
    let mut shown = &demo.start;
    for step in &demo.steps {
        let length = prepared.length(step);
        if left >= length {
            left -= length;
            shown = &step.after;
            frame.say = step.say.clone().or(frame.say);
            continue;
        }
        frame.say = step.say.clone().or(frame.say);
        let Some(motion) = step.before.motion_of(&step.action).filter(|_| left < SHOW + GLIDE) else {
            return drawn(frame, step_end(step), layout);
        };
        // The piece ringed and its path marked, then the piece gliding along it.
        let from_level = pieces_on(&step.before, motion.from).saturating_sub(1);
        let start = layout.piece_position(motion.from, from_level).truncate();
        let to_level = pieces_on(&step.after, motion.to).saturating_sub(1);
        let end = layout.piece_position(motion.to, to_level).truncate();
        let path = step.before.path_of(&step.action);
        let mut waypoints: Vec<Vec2> = vec![start];
        waypoints.extend(path.iter().take(path.len().saturating_sub(1)).map(|s| layout.local(*s)));
        waypoints.push(end);
        frame.path = waypoints[1..].to_vec();
        let mut frame = drawn(frame, &step.before, layout);
        let top = frame.pieces.iter().rposition(|(at, _)| at.distance(start) < 0.01);
        let Some(top) = top else { return frame };
        let (_, art) = frame.pieces.remove(top);
        let t = ((left - SHOW) / GLIDE).clamp(0.0, 1.0);
        let at = along(&waypoints, EasingCurve::new(0.0, 1.0, EaseFunction::CubicInOut).sample_clamped(t));
        if left < SHOW {
            frame.lit = Some(start);
        }
        frame.pieces.push((at, art));
        return frame;
    }
    drawn(frame, shown, layout)
}

/// The position a step leaves on the board; a step that begins a new round shows the old one
/// with its last move made, so the demonstration does not jump to a board laid out afresh.
fn step_end<G: AppGame>(step: &demo::Shown<G>) -> &G {
    if step.after.new_phase(&step.before) { &step.before } else { &step.after }
}

/// How many pieces stand on `square`.
fn pieces_on<G: AppGame>(game: &G, square: Square) -> usize {
    game.pieces().iter().filter(|(s, _)| *s == square).count()
}

/// The point `t` (0 to 1) of the way along the lines joining `points`, each line taking its share.
fn along(points: &[Vec2], t: f32) -> Vec2 {
    let lengths: Vec<f32> = points.windows(2).map(|w| w[0].distance(w[1])).collect();
    let total: f32 = lengths.iter().sum();
    let mut left = t * total;
    for (pair, length) in points.windows(2).zip(&lengths) {
        if left <= *length && *length > 0.0 {
            return pair[0].lerp(pair[1], left / length);
        }
        left -= length;
    }
    points.last().copied().unwrap_or_default()
}

fn cells<G: AppGame>(game: &G, layout: &BoardLayout) -> Vec<(Vec2, Vec2, Color)> {
    let mut places: Vec<_> = layout.places.iter().collect();
    places.sort_by_key(|(s, _)| (s.rank, s.file));
    places.into_iter().map(|(s, p)| (layout.local_point(p.at), p.size, game.square_colour(*s))).collect()
}

/// The frame with `game`'s decorations, pictures and pieces, each piece on its level of its stack.
fn drawn<G: AppGame>(mut frame: DemoFrame, game: &G, layout: &BoardLayout) -> DemoFrame {
    frame.decorations = game
        .decorations()
        .into_iter()
        .chain(game.pictures())
        .map(|d| Decoration { at: layout.local_point(d.at), ..d })
        .collect();
    let mut levels: std::collections::HashMap<Square, usize> = Default::default();
    for (square, art) in game.pieces() {
        let level = levels.entry(square).or_default();
        frame.pieces.push((layout.piece_position(square, *level).truncate(), art));
        *level += 1;
    }
    frame
}

/// The help window: the demonstration, what its move shows, the rules in a few words, and all
/// of them and the keys folded below.
pub(super) fn help_window(
    ctx: &egui::Context,
    board: &ScoreBoard,
    words: &Words,
    art: &EguiArt,
    frame: &DemoFrame,
    help: &mut HelpOpen,
) {
    let screen = ctx.content_rect();
    let mut open = true;
    egui::Window::new(words.get("help"))
        .collapsible(false)
        .resizable(false)
        .open(&mut open)
        .anchor(egui::Align2::CENTER_CENTER, vec2(0.0, 0.0))
        .max_width((screen.width() - 40.0).min(560.0))
        .min_width((screen.width() - 40.0).min(480.0))
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().max_height(screen.height() * 0.8).show(ui, |ui| {
                if frame.game == board.game {
                    match &frame.problem {
                        Some(problem) => {
                            ui.label(RichText::new(problem).small());
                        }
                        None => paint_demo(ui, frame, art, screen.height() * 0.36),
                    }
                    let say = frame.say.as_deref().map(|key| words.get(key)).unwrap_or_default();
                    // Two lines kept for it, so the words below stay still as it changes.
                    let line = ui.text_style_height(&egui::TextStyle::Body);
                    ui.allocate_ui(vec2(ui.available_width(), line * 2.6), |ui| {
                        ui.vertical_centered(|ui| ui.label(bold(say, 18.0).color(ACCENT)));
                    });
                }
                ui.label(words.get(&format!("help_short_{}", board.game)));
                egui::CollapsingHeader::new(words.get("all_rules")).show(ui, |ui| {
                    ui.label(words.get(&format!("help_{}", board.game)));
                    ui.add_space(10.0);
                    let keys = super::turn::game_key(words, "help_keys", board.game);
                    ui.label(RichText::new(words.get(&keys)).small());
                });
            });
            ui.vertical_centered(|ui| {
                if ui.button(words.get("close")).clicked() {
                    help.0 = false;
                }
            });
        });
    if !open {
        help.0 = false;
    }
}

/// Paints the demonstration's board as wide as the window allows, at most `max_height` tall.
fn paint_demo(ui: &mut egui::Ui, frame: &DemoFrame, art: &EguiArt, max_height: f32) {
    let Some(bounds) =
        frame.cells.iter().map(|(at, size, _)| Rect::from_center_size(*at, *size)).reduce(|a, b| a.union(b))
    else {
        return;
    };
    let bounds = bounds.inflate(0.12);
    let width = ui.available_width();
    let scale = (width / bounds.width()).min(max_height / bounds.height());
    let (area, _) = ui.allocate_exact_size(vec2(width, bounds.height() * scale), egui::Sense::hover());
    let centre = area.center();
    let to_screen = |at: Vec2| -> Pos2 {
        let d = (at - bounds.center()) * scale;
        pos2(centre.x + d.x, centre.y - d.y)
    };
    let rect_at =
        |at: Vec2, size: Vec2| egui::Rect::from_center_size(to_screen(at), vec2(size.x, size.y) * scale);
    let painter = ui.painter_at(area);
    let frame_rect = egui::Rect::from_center_size(centre, vec2(bounds.width(), bounds.height()) * scale);
    painter.rect_filled(frame_rect, 4.0, Color32::from_rgb(107, 69, 43));
    for (at, size, colour) in &frame.cells {
        painter.rect_filled(rect_at(*at, *size), 0.0, colour32(*colour));
    }
    for decoration in &frame.decorations {
        let image = art.image(decoration.art, 1.0).tint(colour32(decoration.colour));
        let image = match decoration.angle {
            Some(angle) => image.rotate(-angle, vec2(0.5, 0.5)),
            None => image,
        };
        image.paint_at(ui, rect_at(decoration.at, decoration.size));
    }
    let path_colour = Color32::from_rgb(255, 115, 13);
    if let Some(lit) = frame.lit {
        let mut from = to_screen(lit);
        for &at in &frame.path {
            let to = to_screen(at);
            painter.line_segment([from, to], Stroke::new(scale * 0.12, path_colour.gamma_multiply(0.7)));
            from = to;
        }
    }
    for (at, picture) in &frame.pieces {
        art.image(*picture, 1.0).paint_at(ui, rect_at(*at, Vec2::splat(0.92)));
    }
    if let Some(lit) = frame.lit {
        painter.circle_stroke(
            to_screen(lit),
            scale * 0.48,
            Stroke::new(scale * 0.08, Color32::from_rgb(255, 200, 0)),
        );
    }
    for (i, &at) in frame.path.iter().enumerate() {
        let last = i + 1 == frame.path.len();
        let stroke = Stroke::new(scale * if last { 0.08 } else { 0.05 }, path_colour);
        painter.circle_stroke(to_screen(at), scale * if last { 0.46 } else { 0.2 }, stroke);
    }
    painter.rect_stroke(frame_rect, 4.0, Stroke::new(1.0, INK.gamma_multiply(0.4)), egui::StrokeKind::Inside);
}

fn colour32(colour: Color) -> Color32 {
    let [r, g, b, a] = colour.to_srgba().to_u8_array();
    Color32::from_rgba_unmultiplied(r, g, b, a)
}
