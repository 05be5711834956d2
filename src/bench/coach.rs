//! The coach measured both ways: seeded games of two level-3 Robots, each with one deliberate
//! slip of a kind a teacher names (`robot::slips`) put in; then the review of the moves around
//! it. `coach_recall` is the share of the deliberate slips the review marks, `coach_false_marks`
//! the share of the Robot's own moves it marks.

use super::Benchmarked;
use crate::history::History;
use crate::robot::review::{self, CoachData, Reviewer, Tutor};
use crate::robot::{RobotLevel, stable_hash};

/// Decisions made at random at the start, so the seeded games do not all open alike (the
/// level-3 Robot plays the same position the same way), then the least the Robots make before
/// a slip is looked for, and the most in all.
const RANDOM_OPENING: usize = 2;
const WARM_UP: usize = 2;
const LOOK_FOR_SLIP: usize = 160;
/// Actions before the slip that the review looks at too (the Robot's moves among them count for
/// `coach_false_marks`).
const REVIEWED_BEFORE: usize = 16;

/// What the review made of one game with a deliberate slip.
#[derive(Clone, Debug, PartialEq)]
pub struct SlipGame {
    pub kind: &'static str,
    /// The slip in the text interface's notation.
    pub slip: String,
    /// The coach's better move there.
    pub best: String,
    /// Whether the review marked the slip, and the reason it gave.
    pub marked: bool,
    pub reason: Option<&'static str>,
    /// What the slip lost, in the Robot's units, and the most one of the Robot's own moves lost.
    pub loss: f64,
    pub robot_worst: f64,
    /// The tutor's check of the slip before it is played: milliseconds in all, its longest slice
    /// of `robot::SLICE_NODES` on the core, and whether it warned.
    pub tutor_ms: f64,
    pub tutor_slice_ms: f64,
    pub warned: bool,
    /// The Robot's own moves the review rated, and how many of them it marked.
    pub robot_moves: usize,
    pub robot_marked: usize,
}

/// The figures over many games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CoachCheck {
    pub games: Vec<SlipGame>,
    /// Games in which no slip of the kind came up (not counted).
    pub no_chance: usize,
}

impl CoachCheck {
    pub fn recall(&self) -> f64 {
        share(self.games.iter().filter(|g| g.marked).count(), self.games.len())
    }

    /// The tutor's check of a slip, in milliseconds: its median, and its longest slice.
    pub fn tutor_ms(&self) -> (f64, f64) {
        let mut times: Vec<f64> = self.games.iter().map(|g| g.tutor_ms).collect();
        times.sort_by(f64::total_cmp);
        let longest = self.games.iter().map(|g| g.tutor_slice_ms).fold(0.0, f64::max);
        (super::percentile(&times, 0.5), longest)
    }

    /// The share of the deliberate slips the tutor warned of before they were played.
    pub fn warned(&self) -> f64 {
        share(self.games.iter().filter(|g| g.warned).count(), self.games.len())
    }

    pub fn false_marks(&self) -> f64 {
        let moves: usize = self.games.iter().map(|g| g.robot_moves).sum();
        share(self.games.iter().map(|g| g.robot_marked).sum(), moves)
    }

    /// Of the marked slips, the share given the reason a teacher gives for their kind.
    pub fn reasons_right<G: Benchmarked>(&self) -> f64 {
        let wanted = |kind: &str| G::SLIPS.iter().find(|k| k.name == kind).map(|k| k.reason);
        let marked: Vec<&SlipGame> = self.games.iter().filter(|g| g.marked).collect();
        let right =
            marked.iter().filter(|g| wanted(g.kind).is_some_and(|r| r.is_empty() || g.reason == Some(r)));
        share(right.count(), marked.len())
    }
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
}

/// `games` seeded games for each kind of slip of the game.
pub fn check<G: Benchmarked>(games: usize, seed: u64) -> CoachCheck {
    let mut check = CoachCheck::default();
    for kind in 0..G::SLIPS.len() {
        for index in 0..games {
            match slip_game::<G>(kind, stable_hash(&(seed, kind, index))) {
                Some(game) => {
                    if std::env::var_os("TABLA_COACH_DETAIL").is_some() {
                        eprintln!("{game:?}");
                    }
                    check.games.push(game)
                }
                None => check.no_chance += 1,
            }
        }
    }
    check
}

/// One game of two level-3 Robots with a slip of the kind number `kind` put in at the first
/// chance after a seeded number of decisions; `None` when no chance came.
pub fn slip_game<G: Benchmarked>(kind: usize, seed: u64) -> Option<SlipGame> {
    let slip_kind = &G::SLIPS[kind];
    let mut history = History::<G>::new(G::start(), seed);
    let warm_up = WARM_UP + (seed % 12) as usize;
    let mut decisions = 0;
    let mut rng = crate::chance::rng(seed);
    let mut random_steps = Vec::new();
    let slip = loop {
        let game = history.game();
        if game.outcome().is_some() || decisions > LOOK_FOR_SLIP {
            return None;
        }
        if decisions >= warm_up
            && game.chance().is_none()
            && let Some(slip) = (slip_kind.find)(game)
        {
            break slip;
        }
        let action = if decisions < RANDOM_OPENING && game.chance().is_none() {
            random_steps.push(history.steps().len() - 1);
            crate::robot::random_action(game, &mut rng)?
        } else {
            history.robot_action(RobotLevel::Three)?
        };
        decisions += usize::from(game.chance().is_none());
        history.play(&action, ()).ok()?;
    };
    let slip_at = history.steps().len() - 1;
    let slip_text = review::actions_text(history.game(), &slip);
    if std::env::var_os("TABLA_COACH_DETAIL").is_some() {
        let fields = history.game().state_fields();
        eprintln!("{slip_text} {}", fields.get("board").map(|b| b.to_string()).unwrap_or_default());
    }
    let data = review::coach_data(G::KIND).expect("the built-in coach data");
    let (tutor_ms, tutor_slice_ms, warned) = tutor_check(history.game(), &slip, data);
    for action in &slip {
        history.play(action, ()).ok()?;
    }
    let first = slip_at.saturating_sub(REVIEWED_BEFORE);
    let steps = &history.steps()[first..];
    let review = Reviewer::new(steps, |_| true, data).finish();
    let slip_index = review.moves.iter().position(|m| m.from + first == slip_at)?;
    let marked = review.slips.contains(&slip_index);
    let by_robot = |i: &usize| *i != slip_index && !random_steps.contains(&(review.moves[*i].from + first));
    let robot_moves = (0..review.moves.len()).filter(by_robot).count();
    let robot_marked = review.slips.iter().filter(|i| by_robot(i)).count();
    Some(SlipGame {
        kind: slip_kind.name,
        slip: slip_text,
        best: review::actions_text(&history.steps()[slip_at].game, &review.moves[slip_index].rating.best),
        marked,
        reason: review.moves[slip_index].why,
        loss: review.moves[slip_index].rating.loss,
        robot_worst: (0..review.moves.len())
            .filter(by_robot)
            .map(|i| review.moves[i].rating.loss)
            .fold(0.0, f64::max),
        tutor_ms,
        tutor_slice_ms,
        warned,
        robot_moves,
        robot_marked,
    })
}

/// The tutor's check of `played` from `game`, as the app runs it (`SLICE_NODES` at a time):
/// milliseconds in all (by the clock; the time on the core is counted in the system's ticks, too
/// coarse to add up), the longest slice on the core, and whether it warned.
fn tutor_check<G: Benchmarked>(game: &G, played: &[G::Action], data: CoachData) -> (f64, f64, bool) {
    let started = std::time::Instant::now();
    let mut tutor = Tutor::new(game, played, data);
    let mut longest = 0u64;
    loop {
        let ran = super::on_core_ns();
        let done = tutor.step(crate::robot::SLICE_NODES);
        longest = longest.max(super::on_core_ns().saturating_sub(ran));
        if let Some(warning) = done {
            return (started.elapsed().as_secs_f64() * 1000.0, longest as f64 / 1e6, warning.is_some());
        }
    }
}
