//! How to play, the board's part: whether the help is open, and its short moving demonstration
//! worked out from the game's own view (its places, colours, decorations and pieces) and played
//! from the game's demonstration file (`crate::demo`), a frame at a time (`DemoFrame`) for the
//! help window (`panels::help_window`) to paint.

use super::view::BoardLayout;
use crate::app::platform::art::Art;
use crate::app::session::game::{AppGame, Decoration};
use crate::app::session::play::NowPlaying;
use crate::app::session::shown::Shown;
use crate::demo::{self, Demo};
use crate::rules::GameKind;
use crate::rules::board::Square;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

/// Whether the help window is open.
#[derive(Resource, Default)]
pub struct HelpOpen(pub bool);

/// One moment of the demonstration, in the board's local units (a square is 1, y up), ready to
/// be painted whatever the game.
#[derive(Resource, Default, Clone, Debug)]
pub struct DemoFrame {
    pub game: Option<GameKind>,
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

/// How each game's demonstration is worked out, added with the game (`add_demo`).
#[derive(Resource, Default)]
struct Demos(HashMap<GameKind, ReelMaker>);

/// Works out a game's demonstration (`None`: the game has none).
type ReelMaker = fn() -> Option<Result<Reel, String>>;

pub(in crate::app) fn plugin(app: &mut App) {
    app.init_resource::<HelpOpen>().init_resource::<DemoFrame>().init_resource::<Demos>();
    app.add_systems(Update, play_demo);
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
pub struct Reel {
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

/// Lets the help show `G`'s demonstration, worked out from its file when the help first opens
/// (`None` when the game has none).
pub(in crate::app) fn add_demo<G: AppGame>(app: &mut App) {
    app.init_resource::<Demos>();
    let reel = || Some(demo::demo::<G>()?.and_then(|demo| reel_of(&demo)));
    app.world_mut().resource_mut::<Demos>().0.insert(G::KIND, reel);
}

fn reel_of<G: AppGame>(demo: &Demo<G>) -> Result<Reel, String> {
    let layout = BoardLayout::of(&demo.start, false);
    let window = match &demo.show {
        None => None,
        Some((a, b)) => {
            let shape = demo.start.shape();
            let corner = |name: &str| {
                shape.parse(name).map(|s| layout.local(s)).map_err(|e| format!("{}: {e}", G::KIND))
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
fn pieces_on(game: &dyn Shown, square: Square) -> usize {
    game.pieces().iter().filter(|(s, _)| *s == square).count()
}

/// `game`'s decorations, pictures and pieces, each piece on its level of its stack.
fn scene_of(game: &dyn Shown, layout: &BoardLayout) -> Scene {
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
    now: Res<NowPlaying>,
    demos: Res<Demos>,
    mut frame: ResMut<DemoFrame>,
    mut reels: Local<HashMap<GameKind, Option<Result<Reel, String>>>>,
    mut clock: Local<f32>,
) {
    if !help.0 {
        *clock = 0.0;
        return;
    }
    let Some(game) = now.game else { return };
    let reel = reels.entry(game).or_insert_with(|| {
        let reel = demos.0.get(&game).and_then(|reel| reel());
        if let Some(Err(problem)) = &reel {
            tracing::warn!("{problem}");
        }
        reel
    });
    *frame = match reel {
        None => DemoFrame::default(),
        Some(Err(problem)) => DemoFrame { game: Some(game), problem: Some(problem.clone()), ..default() },
        Some(Ok(reel)) => {
            let length: f32 = reel.steps.iter().map(|s| s.length).sum::<f32>() + HOLD;
            *clock = (*clock + time.delta_secs()) % length;
            moment(Some(game), reel, *clock)
        }
    };
}

/// What the board shows `clock` seconds into the demonstration.
fn moment(game: Option<GameKind>, reel: &Reel, clock: f32) -> DemoFrame {
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
