//! How to play: a window that opens with a short moving demonstration on a small board, drawn
//! from the game's own view (its places, colours, decorations and pieces) and played from the
//! game's demonstration file (`crate::demo`), a line under it saying what each move shows, then
//! the game's rules in a few words, and all of them folded away below.

use super::art::Art;
use super::board::BoardLayout;
use super::game::{AppGame, Decoration};
use super::scoreboard::ScoreBoard;
use super::settings::Words;
use super::theme::{ACCENT, EguiArt, INK, bold};
use crate::demo::{self, Demo};
use crate::rules::board::Square;
use bevy::platform::collections::HashMap;
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
    app.init_resource::<HelpOpen>().init_resource::<DemoFrame>().init_resource::<ReelMakers>();
    app.add_systems(Update, play_demo.run_if(resource_exists::<ScoreBoard>));
}

/// Works out a game's demonstration; `None` for a game without one.
type ReelMaker = fn() -> Option<Result<Reel, String>>;

/// Each game's demonstration maker, by the game's name.
#[derive(Resource, Default)]
struct ReelMakers(HashMap<&'static str, ReelMaker>);

pub fn add_game<G: AppGame>(app: &mut App) {
    app.init_resource::<ReelMakers>();
    app.world_mut().resource_mut::<ReelMakers>().0.insert(G::NAME, reel::<G>);
}

/// Seconds a move's piece is ringed and its path marked, then its glide, then the rest after it.
const SHOW: f32 = 0.9;
const GLIDE: f32 = 0.8;
const REST: f32 = 0.9;
/// A step that moves no piece (a roll) is a rest alone; the last position stays a while.
const ROLL: f32 = 1.3;
const HOLD: f32 = 2.5;

/// A demonstration worked out once, in the board's local units: the places, then each step's
/// pictures before and after it. Only this is per game; showing it is the same for all.
#[derive(Clone, Debug, Default)]
struct Reel {
    cells: Vec<(Vec2, Vec2, Color)>,
    start: Scene,
    steps: Vec<ReelStep>,
}

#[derive(Clone, Debug, Default)]
struct Scene {
    decorations: Vec<Decoration>,
    pieces: Vec<(Vec2, Art)>,
}

#[derive(Clone, Debug)]
struct ReelStep {
    say: Option<String>,
    /// Seconds it takes: none for a move outside the part of the board shown.
    length: f32,
    /// The piece that moves: its place in the scene before, and the points it passes through,
    /// ending where it stops.
    moving: Option<(usize, Vec<Vec2>)>,
    after: Scene,
}

/// Works out `G`'s demonstration from its file; `None` when the game has none.
fn reel<G: AppGame>() -> Option<Result<Reel, String>> {
    Some(demo::demo::<G>(G::NAME)?.and_then(|demo| reel_of(&demo)))
}

fn reel_of<G: AppGame>(demo: &Demo<G>) -> Result<Reel, String> {
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
    let inside = |at: Vec2| window.is_none_or(|w| w.contains(at));
    let scene = |game: &G| {
        let mut scene = scene_of(game, &layout);
        scene.decorations.retain(|d| inside(d.at));
        scene.pieces.retain(|(at, _)| inside(*at));
        scene
    };
    let mut cells: Vec<_> = layout.places.iter().collect();
    cells.sort_by_key(|(s, _)| (s.rank, s.file));
    let cells = cells
        .into_iter()
        .map(|(s, p)| (layout.local_point(p.at), p.size, demo.start.square_colour(*s)))
        .filter(|(at, _, _)| inside(*at))
        .collect();
    let steps = demo
        .steps
        .iter()
        .map(|step| {
            let motion = step.before.motion_of(&step.action);
            // A step that begins a new round shows the old board with its last move made, so
            // the demonstration does not jump to a board laid out afresh.
            let after = if step.after.new_phase(&step.before) { &step.before } else { &step.after };
            let moving = motion.and_then(|motion| {
                let start = layout
                    .piece_position(motion.from, pieces_on(&step.before, motion.from).saturating_sub(1));
                let end = layout.piece_position(motion.to, pieces_on(&step.after, motion.to).max(1) - 1);
                let (start, end) = (start.truncate(), end.truncate());
                let index =
                    scene(&step.before).pieces.iter().rposition(|(at, _)| at.distance(start) < 0.01)?;
                let path = step.before.path_of(&step.action);
                let mut points: Vec<Vec2> =
                    path.iter().take(path.len().saturating_sub(1)).map(|s| layout.local(*s)).collect();
                points.push(end);
                Some((index, points))
            });
            let length = match (&moving, motion) {
                (Some(_), _) => SHOW + GLIDE + REST,
                (None, None) => ROLL,
                // A move outside the part shown is made at once.
                (None, Some(_)) => 0.0,
            };
            ReelStep { say: step.say.clone(), length, moving, after: scene(after) }
        })
        .collect();
    Ok(Reel { cells, start: scene(&demo.start), steps })
}

/// How many pieces stand on `square`.
fn pieces_on<G: AppGame>(game: &G, square: Square) -> usize {
    game.pieces().iter().filter(|(s, _)| *s == square).count()
}

/// `game`'s decorations, pictures and pieces, each piece on its level of its stack.
fn scene_of<G: AppGame>(game: &G, layout: &BoardLayout) -> Scene {
    let decorations = game
        .decorations()
        .into_iter()
        .chain(game.pictures())
        .map(|d| Decoration { at: layout.local_point(d.at), ..d })
        .collect();
    let mut levels: HashMap<Square, usize> = HashMap::new();
    let mut pieces = Vec::new();
    for (square, art) in game.pieces() {
        let level = levels.entry(square).or_default();
        pieces.push((layout.piece_position(square, *level).truncate(), art));
        *level += 1;
    }
    Scene { decorations, pieces }
}

/// Plays the demonstration of the game on screen while the help is open, from its beginning
/// each time it opens.
fn play_demo(
    help: Res<HelpOpen>,
    time: Res<Time>,
    board: Res<ScoreBoard>,
    makers: Res<ReelMakers>,
    mut frame: ResMut<DemoFrame>,
    mut reels: Local<HashMap<&'static str, Option<Result<Reel, String>>>>,
    mut clock: Local<f32>,
) {
    if !help.0 {
        *clock = 0.0;
        return;
    }
    let game = board.game;
    let reel = reels.entry(game).or_insert_with(|| {
        let reel = makers.0.get(game).and_then(|make| make());
        if let Some(Err(problem)) = &reel {
            tracing::warn!("{problem}");
        }
        reel
    });
    *frame = match reel {
        None => DemoFrame::default(),
        Some(Err(problem)) => DemoFrame { game, problem: Some(problem.clone()), ..default() },
        Some(Ok(reel)) => {
            let length: f32 = reel.steps.iter().map(|s| s.length).sum::<f32>() + HOLD;
            *clock = (*clock + time.delta_secs()) % length;
            moment(game, reel, *clock)
        }
    };
}

/// What the board shows `clock` seconds into the demonstration.
fn moment(game: &'static str, reel: &Reel, clock: f32) -> DemoFrame {
    let mut frame = DemoFrame { game, cells: reel.cells.clone(), ..default() };
    let mut left = clock;
    let mut before = &reel.start;
    for step in &reel.steps {
        frame.say = step.say.clone().or(frame.say);
        if left >= step.length {
            left -= step.length;
            before = &step.after;
            continue;
        }
        let Some((index, points)) = step.moving.as_ref().filter(|_| left < SHOW + GLIDE) else {
            before = &step.after;
            break;
        };
        // The piece ringed and its path marked, then the piece gliding along it.
        let mut pieces = before.pieces.clone();
        let (start, art) = pieces.remove(*index);
        let waypoints: Vec<Vec2> = std::iter::once(start).chain(points.iter().copied()).collect();
        let t = ((left - SHOW) / GLIDE).clamp(0.0, 1.0);
        pieces.push((
            along(&waypoints, EasingCurve::new(0.0, 1.0, EaseFunction::CubicInOut).sample_clamped(t)),
            art,
        ));
        frame.lit = (left < SHOW).then_some(start);
        frame.path = points.clone();
        frame.decorations = before.decorations.clone();
        frame.pieces = pieces;
        return frame;
    }
    frame.decorations = before.decorations.clone();
    frame.pieces = before.pieces.clone();
    frame
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
