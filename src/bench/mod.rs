//! `tabla bench`: figures for each game, one per line as `game.figure value`. Targets are checked
//! by reading these figures, not by timed tests.

pub mod coach;
#[cfg(not(target_arch = "wasm32"))]
pub mod serve;

use crate::chance::{self, SeededRng};
use crate::history::History;
use crate::levels::{self, FromLevel};
use crate::robot::review::{self, Reviewer};
use crate::robot::slips::TeacherSlips;
use crate::robot::{self, RobotLevel, RobotPlayer};
use crate::rules::bunnies::BunniesAndHorses;
use crate::rules::circles::Circles;
use crate::rules::halma::Halma;
use crate::rules::knight_hunt::KnightHunt;
use crate::rules::nard::Nard;
use crate::rules::{Game, GameKind, Seat, SeatSet, Winner};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

pub struct Options {
    /// Only this game, or every game.
    pub game: Option<GameKind>,
    /// Arena games per opponent.
    pub games: usize,
    pub seed: u64,
    /// Only the coach's figures (`--part coach`).
    pub coach_only: bool,
}

/// A player in the arena: the Robot at a level, or one of the simple baselines.
#[derive(Clone, Copy, Debug)]
pub enum Player {
    Robot(RobotLevel),
    Random,
    Greedy,
}

/// What the benchmark needs to know of a game beyond `Game`.
pub trait Benchmarked: TeacherSlips + FromLevel {
    /// The built-in level every benchmark game starts from.
    const LEVEL: &'static str;
    fn start() -> Self {
        levels::find(Self::LEVEL)
            .ok()
            .and_then(|level| Self::from_level(&level))
            .unwrap_or_else(|| panic!("the built-in level {} is missing", Self::LEVEL))
    }
    fn greedy(&self, rng: &mut SeededRng) -> Option<Self::Action>;
    /// Figures of this game beyond the common ones, as (name, value).
    fn extra_figures(_options: &Options) -> Vec<(String, f64)> {
        Vec::new()
    }
    /// Moves after which an arena game is stopped and judged by `judge_unfinished`; `None`
    /// plays every game to its end.
    fn move_limit(&self) -> Option<usize> {
        None
    }
    /// Who wins a game stopped at the move limit.
    fn judge_unfinished(&self) -> Winner {
        Winner::Draw
    }
    /// Figures drawn from the level-3 arenas against the random and the greedy player.
    fn arena_figures(_options: &Options, _random: &ArenaResult, _greedy: &ArenaResult) -> Vec<(String, f64)> {
        Vec::new()
    }
}

impl Benchmarked for KnightHunt {
    const LEVEL: &'static str = "ron_configs/knight_hunt/two_knights_capture.ron";

    fn greedy(&self, rng: &mut SeededRng) -> Option<Self::Action> {
        robot::knight_hunt::greedy(self, rng)
    }
}

impl Benchmarked for BunniesAndHorses {
    /// The harder variant: a match is two rounds, and the arena gives the Robot one seat (one
    /// player) for both of them, so it plays both roles.
    const LEVEL: &'static str = "ron_configs/bunnies/two_horses.ron";

    fn greedy(&self, rng: &mut SeededRng) -> Option<Self::Action> {
        robot::bunnies::greedy(self, rng)
    }
}

impl Benchmarked for Circles {
    const LEVEL: &'static str = "ron_configs/circles/classic.ron";

    fn greedy(&self, rng: &mut SeededRng) -> Option<Self::Action> {
        robot::circles::greedy(self, rng)
    }
}

/// The arena plays 1-point matches: one game each, no cube.
impl Benchmarked for Nard {
    const LEVEL: &'static str = "ron_configs/nard/one_point.ron";

    fn greedy(&self, rng: &mut SeededRng) -> Option<Self::Action> {
        robot::nard::greedy(self, rng)
    }

    fn extra_figures(options: &Options) -> Vec<(String, f64)> {
        let mut times = nard_set_times(RobotLevel::Three, options.seed, 300);
        times.sort_by(f64::total_cmp);
        vec![
            ("robot3.median_ms_per_dice_set".into(), percentile(&times, 0.5)),
            ("robot3.p95_ms_per_dice_set".into(), percentile(&times, 0.95)),
        ]
    }
}

/// Milliseconds the Robot takes for all the moves of one dice set, over seeded games against a
/// random player (the Robot plays Black).
fn nard_set_times(level: RobotLevel, seed: u64, sets: usize) -> Vec<f64> {
    let mut rng = chance::rng(seed ^ 0x5e7);
    let mut times = Vec::with_capacity(sets);
    while times.len() < sets {
        let mut game = Nard::start();
        while game.outcome().is_none() && times.len() < sets {
            let robot_set = game.dice_set().filter(|set| set.player == Seat::BLACK).map(|set| set.serial);
            match robot_set {
                Some(serial) => {
                    let started = Instant::now();
                    while game.dice_set().is_some_and(|set| set.serial == serial) && game.outcome().is_none()
                    {
                        let Some(action) = robot::choose(&game, level, seed) else { break };
                        game.play(&action);
                    }
                    times.push(started.elapsed().as_secs_f64() * 1000.0);
                }
                None => match act(&game, Player::Random, &mut rng, seed) {
                    Some(action) => game.play(&action),
                    None => break,
                },
            }
        }
    }
    times
}

/// Two to four seats; the arena plays its seatings up to a move limit and judges an unfinished
/// game by the pieces each team has in its goal.
impl Benchmarked for Halma {
    const LEVEL: &'static str = "ron_configs/halma/two_players.ron";

    fn greedy(&self, rng: &mut SeededRng) -> Option<Self::Action> {
        robot::halma::greedy(self, rng)
    }

    fn move_limit(&self) -> Option<usize> {
        Some(200 * self.seat_count())
    }

    fn judge_unfinished(&self) -> Winner {
        self.leader_by_goal()
    }

    fn arena_figures(options: &Options, random: &ArenaResult, greedy: &ArenaResult) -> Vec<(String, f64)> {
        let mut figures = Vec::new();
        let mut finish = greedy.hero_moves_to_win.clone();
        finish.sort_unstable();
        let median = finish.get(finish.len().saturating_sub(1) / 2).copied().unwrap_or(0);
        figures.push(("robot3.moves_to_finish".into(), median as f64));
        let four_start = || {
            let level = levels::find("ron_configs/halma/four_one_army.ron").expect("a built-in level");
            Halma::from_level(&level).expect("a Halma level")
        };
        // Four seats are slower: a quarter of the games, at least 8; the Robot's team takes
        // either pair of seats half the time.
        let four = arena_on(
            four_start,
            |index| {
                if index % 2 == 0 {
                    SeatSet::of(&[Seat(0), Seat(2)])
                } else {
                    SeatSet::of(&[Seat(1), Seat(3)])
                }
            },
            Player::Robot(RobotLevel::Three),
            Player::Greedy,
            (options.games / 4).max(8),
            options.seed,
        );
        figures.push(("four_one_army.robot3_team_vs_greedy.win_share".into(), four.share));
        figures.push(("four_one_army.robot3_team_vs_greedy.games".into(), four.games as f64));
        for (name, result) in [("random", random), ("greedy", greedy), ("four_one_army", &four)] {
            figures.push((format!("arena.{name}.decided_by_goal_count"), result.decided_at_limit as f64));
        }
        let decided = random.decided_at_limit + greedy.decided_at_limit + four.decided_at_limit;
        figures.push(("arena.decided_by_goal_count".into(), decided as f64));
        figures
    }
}

pub fn run(options: &Options) {
    for kind in GameKind::ALL.into_iter().filter(|kind| options.game.is_none_or(|g| g == *kind)) {
        crate::with_game!(kind, G => bench_game::<G>(options))
    }
}

fn print(game: GameKind, figure: &str, value: f64) {
    println!("{game}.{figure} {}", (value * 1000.0).round() / 1000.0);
}

fn bench_game<G: Benchmarked>(options: &Options) {
    if !options.coach_only {
        bench_robot::<G>(options);
    }
    let check = coach::check::<G>(COACH_GAMES, options.seed);
    print(G::KIND, "coach_recall", check.recall());
    print(G::KIND, "coach_false_marks", check.false_marks());
    print(G::KIND, "coach_reasons_right", check.reasons_right::<G>());
    print(G::KIND, "coach_slip_games", check.games.len() as f64);
    let (tutor_ms, tutor_slice_ms) = check.tutor_ms();
    print(G::KIND, "tutor_ms", tutor_ms);
    print(G::KIND, "tutor.max_slice_ms", tutor_slice_ms);
    print(G::KIND, "tutor_warned", check.warned());
}

/// The Robot's and the review's speed and strength.
fn bench_robot<G: Benchmarked>(options: &Options) {
    LONGEST_SLICE_NS.store(0, Ordering::Relaxed);
    print(G::KIND, "movegen.positions_per_s", movegen_rate::<G>(options.seed));
    for level in RobotLevel::ALL {
        let mut times = robot_times::<G>(level, options.seed, 300);
        times.sort_by(f64::total_cmp);
        print(G::KIND, &format!("robot{level}.median_ms"), percentile(&times, 0.5));
        print(G::KIND, &format!("robot{level}.p95_ms"), percentile(&times, 0.95));
    }
    for (figure, value) in G::extra_figures(options) {
        print(G::KIND, &figure, value);
    }
    let results = arenas::<G>(RobotLevel::Three, options);
    for (figure, value) in G::arena_figures(options, &results[0], &results[1]) {
        print(G::KIND, &figure, value);
    }
    // Level 1 is for a young child: it should lose to the greedy player more often than it
    // wins. Its losses tell whether the greedy player can win at all (in Making Circles it
    // never finishes, so its opponents' share cannot fall under one half).
    for (name, result) in ["random", "greedy"].iter().zip(arenas::<G>(RobotLevel::One, options)) {
        print(G::KIND, &format!("robot1_vs_{name}.losses"), result.losses as f64);
    }
    let longest_slice = LONGEST_SLICE_NS.load(Ordering::Relaxed) as f64 / 1e6;
    print(G::KIND, "robot3.max_slice_ms", longest_slice);
    let review = review_times::<G>(options.seed, REVIEWED_GAMES);
    print(G::KIND, "review_ms", percentile(&review.ms, 0.5));
    print(G::KIND, "review.max_ms", review.ms.last().copied().unwrap_or(0.0));
    print(G::KIND, "review.moves", percentile(&review.moves, 0.5));
    print(G::KIND, "review.max_slice_ms", review.longest_slice_ns as f64 / 1e6);
}

/// Seeded games for each kind of slip in `<game>.coach_recall`.
const COACH_GAMES: usize = 20;

/// Seeded games whose review is timed for `<game>.review_ms`.
const REVIEWED_GAMES: usize = 7;
/// The reviewed seat's moves in each of them (unless the game ends before).
const REVIEWED_MOVES: usize = 40;

/// What `review_times` measured, each list sorted.
struct ReviewTimes {
    ms: Vec<f64>,
    /// Moves rated in each review.
    moves: Vec<f64>,
    longest_slice_ns: u64,
}

/// The coach's review of White's moves, as the app makes it (`SLICE_NODES` at a time, each slice
/// timed on the core), over seeded games between two Robots at level 1 (a child's opponent, who
/// slips as a child might): each game played until White has made `REVIEWED_MOVES` moves the
/// coach rates or the game is over (a whole game of a 1-point match in Crazy Nard).
fn review_times<G: Benchmarked>(seed: u64, games: usize) -> ReviewTimes {
    let data = review::coach_data(G::KIND).expect("the built-in coach data");
    let mut times = ReviewTimes { ms: Vec::new(), moves: Vec::new(), longest_slice_ns: 0 };
    for game_number in 0..games as u64 {
        let history = reviewed_game::<G>(seed ^ game_number.wrapping_mul(0x9E37_79B9));
        let started = Instant::now();
        let mut reviewer = Reviewer::new(history.steps(), |seat| seat == Seat::WHITE, data);
        let mut ran = on_core_ns();
        let review = loop {
            let done = reviewer.step(robot::SLICE_NODES);
            let ran_now = on_core_ns();
            times.longest_slice_ns = times.longest_slice_ns.max(ran_now.saturating_sub(ran));
            ran = ran_now;
            if let Some(review) = done {
                break review;
            }
        };
        times.ms.push(started.elapsed().as_secs_f64() * 1000.0);
        times.moves.push(review.moves.len() as f64);
    }
    times.ms.sort_by(f64::total_cmp);
    times.moves.sort_by(f64::total_cmp);
    times
}

/// A seeded game of two Robots at level 1, for `review_times`.
fn reviewed_game<G: Benchmarked>(seed: u64) -> History<G> {
    let mut history = History::new(G::start(), seed);
    while history.game().outcome().is_none() {
        let white_moves = G::moves_to_rate(history.steps()).iter().filter(|m| m.seat == Seat::WHITE).count();
        if white_moves >= REVIEWED_MOVES {
            break;
        }
        let Some(action) = history.robot_action(RobotLevel::One) else { break };
        if history.play(&action, ()).is_err() {
            break;
        }
    }
    history
}

/// The Robot at `level` against the random and then the greedy player, each taking either seat
/// half the time; prints `robot<level>_vs_<player>.win_share` for each.
fn arenas<G: Benchmarked>(level: RobotLevel, options: &Options) -> [ArenaResult; 2] {
    [("random", Player::Random), ("greedy", Player::Greedy)].map(|(name, opponent)| {
        let two_seats = |index: usize| SeatSet::of(&[Seat((index % 2) as u8)]);
        let result =
            arena_on(G::start, two_seats, Player::Robot(level), opponent, options.games, options.seed);
        print(G::KIND, &format!("robot{level}_vs_{name}.win_share"), result.share);
        result
    })
}

/// The longest single `step(SLICE_NODES)` of a level-3 Robot (with the making of its thinker in
/// the first), in nanoseconds, over the game's arena games so far. (The timed decisions think in
/// one go, so reading the clock between slices adds nothing to their times.)
static LONGEST_SLICE_NS: AtomicU64 = AtomicU64::new(0);

/// `robot::choose` as the app thinks: `SLICE_NODES` at a time, each slice timed by the time the
/// thread ran on a core (Linux tells it), so neither other programs' turns nor the host taking the
/// virtual machine's core away count as the Robot's work.
fn choose_in_slices<G: RobotPlayer>(game: &G, level: RobotLevel, seed: u64) -> Option<G::Action> {
    game.to_move()?;
    if game.chance().is_some() {
        return game.before_roll(level, seed);
    }
    let mut ran = on_core_ns();
    let mut thinker = game.thinker(level, seed);
    loop {
        let choice = thinker.step(robot::SLICE_NODES);
        let ran_now = on_core_ns();
        LONGEST_SLICE_NS.fetch_max(ran_now.saturating_sub(ran), Ordering::Relaxed);
        if choice.is_some() {
            return choice;
        }
        ran = ran_now;
    }
}

/// Nanoseconds this thread has run on a core so far, where the system tells (else 0).
fn on_core_ns() -> u64 {
    let stats = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    stats.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// How the arena asks the Robot: level 3 in the app's slices, timed; the others in one go.
fn robot_choice<G: RobotPlayer>(game: &G, level: RobotLevel, seed: u64) -> Option<G::Action> {
    match level {
        RobotLevel::Three => choose_in_slices(game, level, seed),
        _ => robot::choose(game, level, seed),
    }
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// Positions whose legal actions are listed per second, over seeded random games.
fn movegen_rate<G: Benchmarked>(seed: u64) -> f64 {
    let mut rng = chance::rng(seed);
    let mut positions = 0u64;
    let mut listed = 0usize;
    let started = Instant::now();
    while started.elapsed().as_secs_f64() < 1.0 {
        let mut game = G::start();
        // Dice are rolled as they fall due; only positions with something to choose are counted.
        while let Some(action) = act(&game, Player::Random, &mut rng, seed) {
            if game.chance().is_some() {
                game.play(&action);
                continue;
            }
            for _ in 0..20 {
                listed += std::hint::black_box(game.legal_actions()).len();
            }
            positions += 20;
            game.play(&action);
        }
    }
    std::hint::black_box(listed);
    positions as f64 / started.elapsed().as_secs_f64()
}

/// Milliseconds per Robot decision over the positions of seeded games against a random player.
fn robot_times<G: Benchmarked>(level: RobotLevel, seed: u64, decisions: usize) -> Vec<f64> {
    let mut rng = chance::rng(seed ^ level.number() as u64);
    let mut times = Vec::with_capacity(decisions);
    let mut game_number = 0u64;
    while times.len() < decisions {
        let mut game = G::start();
        game_number += 1;
        while game.outcome().is_none() && times.len() < decisions {
            let action = if game.to_move() == Some(Seat::WHITE) || game.chance().is_some() {
                act(&game, Player::Random, &mut rng, seed)
            } else {
                let started = Instant::now();
                let action = robot::choose(&game, level, seed ^ game_number);
                times.push(started.elapsed().as_secs_f64() * 1000.0);
                action
            };
            match action {
                Some(action) => game.play(&action),
                None => break,
            }
        }
    }
    times
}

fn act<G: Benchmarked>(game: &G, player: Player, rng: &mut SeededRng, seed: u64) -> Option<G::Action> {
    if let Some(rolls) = game.chance() {
        // A Robot may act instead of rolling (a double).
        if let Player::Robot(level) = player
            && let Some(action) = robot::choose(game, level, seed)
        {
            return Some(action);
        }
        return chance::pick_chance(rolls, rng);
    }
    match player {
        Player::Robot(level) => {
            let decision_seed = seed ^ rand::Rng::random::<u64>(rng);
            robot_choice(game, level, decision_seed)
        }
        Player::Random => robot::random_action(game, rng),
        Player::Greedy => game.greedy(rng),
    }
}

/// Plays `games` seeded games, `hero` taking each seat half the time; returns its share of the
/// points (a win 1, a draw ½).
pub fn arena<G: Benchmarked>(hero: Player, opponent: Player, games: usize, seed: u64) -> f64 {
    arena_on(G::start, |index| SeatSet::of(&[Seat((index % 2) as u8)]), hero, opponent, games, seed).share
}

/// What an arena found.
#[derive(Clone, Debug, Default)]
pub struct ArenaResult {
    pub games: usize,
    /// The hero's share of the points (a win 1, a draw ½).
    pub share: f64,
    /// Games stopped at the move limit and judged by `Benchmarked::judge_unfinished`.
    pub decided_at_limit: usize,
    /// In the games the hero's side won by reaching its goal: the moves the hero's seats made.
    pub hero_moves_to_win: Vec<usize>,
    /// Games the hero lost.
    pub losses: usize,
}

/// Plays `games` seeded games from `start`, `hero` playing the seats `hero_seats(index)` of game
/// number `index` and `opponent` the others. A game that reaches the game's move limit is judged.
pub fn arena_on<G: Benchmarked>(
    start: impl Fn() -> G + Sync,
    hero_seats: impl Fn(usize) -> SeatSet + Sync,
    hero: Player,
    opponent: Player,
    games: usize,
    seed: u64,
) -> ArenaResult {
    let play_range = |range: std::ops::Range<usize>| -> ArenaResult {
        let mut result = ArenaResult::default();
        for index in range {
            let heroes = hero_seats(index);
            let mut rng = chance::rng(seed.wrapping_add(index as u64 * 7919));
            let mut game = start();
            let limit = game.move_limit().unwrap_or(usize::MAX);
            let (mut moves, mut hero_moves) = (0usize, 0usize);
            while game.outcome().is_none() && moves < limit {
                let hero_to_move = game.to_move().is_some_and(|s| heroes.contains(s));
                let player = if hero_to_move { hero } else { opponent };
                match act(&game, player, &mut rng, seed ^ index as u64) {
                    Some(action) => {
                        game.play(&action);
                        moves += 1;
                        hero_moves += usize::from(hero_to_move);
                    }
                    None => break,
                }
            }
            let winner = match game.outcome() {
                Some(outcome) => {
                    if outcome.reason == crate::rules::EndReason::Goal
                        && heroes.seats().any(|s| outcome.winner.includes(s))
                    {
                        result.hero_moves_to_win.push(hero_moves);
                    }
                    outcome.winner
                }
                None => {
                    result.decided_at_limit += 1;
                    game.judge_unfinished()
                }
            };
            result.games += 1;
            let points = match winner {
                Winner::Draw => 0.5,
                winner if heroes.seats().any(|s| winner.includes(s)) => 1.0,
                _ => 0.0,
            };
            result.share += points;
            result.losses += usize::from(points == 0.0);
        }
        result
    };
    // The two cores share the games; each game's result depends only on its own seed.
    let half = games / 2;
    let (first, second) = std::thread::scope(|scope| {
        let first = scope.spawn(|| play_range(0..half));
        let second = play_range(half..games);
        (first.join().expect("arena thread"), second)
    });
    let mut hero_moves_to_win = first.hero_moves_to_win;
    hero_moves_to_win.extend(second.hero_moves_to_win);
    ArenaResult {
        games,
        share: (first.share + second.share) / games.max(1) as f64,
        decided_at_limit: first.decided_at_limit + second.decided_at_limit,
        hero_moves_to_win,
        losses: first.losses + second.losses,
    }
}
