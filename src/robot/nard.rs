//! How the Robot plays Crazy Nard. It plans a whole dice set at a time: every distinct end position
//! of the set is judged by an estimate of each side's rolls still needed (race, the shape of the
//! home for exact bearing off, numbers blocked by the opponent's points, checkers left on the
//! head); level 3 then looks one roll ahead, averaging over the opponent's 21 rolls (with its whole
//! doubles chain and the numbers it passes back), each answered by its best reply.
//!
//! A dice set's plan depends only on the position and the level, never on the seed, so asking
//! again after the plan's first move gives the plan's next move; the last plan is kept per thread
//! so that asking again costs nothing.

use super::{Evaluate, RobotPlayer, Thinker, pick_best_by};
use crate::rules::nard::{
    Board, CHECKERS, CheckerMove, HEAD, Nard, NardAction, Numbers, Phase, Play, SetKind, plays,
};
use crate::rules::{Game, Seat};
use rand::rngs::SmallRng;
use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

/// Pips a roll moves on average, counting the whole chain of a double (about 15.9).
const PIPS_PER_ROLL: f64 = 15.94;

/// How hard one Robot level plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// Look one roll ahead (the opponent's 21 rolls) for the best few plays.
    pub lookahead: bool,
    /// Plays kept for the lookahead, best by the static estimate first.
    pub candidates: usize,
    /// Opponent replies the lookahead may generate for one decision.
    pub node_limit: u64,
    /// Random amount (±) added to each play's estimated winning chance.
    pub noise: f64,
    /// Chance of playing any legal play of the set instead of thinking.
    pub blunder: f64,
    /// Doubles when its winning chance is at least this.
    pub double_at: f64,
    /// Takes a double when its winning chance is at least this.
    pub take_at: f64,
}

pub fn strength(level: u8) -> Strength {
    match level {
        1 => Strength {
            lookahead: false,
            candidates: 1,
            node_limit: 0,
            noise: 0.12,
            blunder: 0.3,
            double_at: 0.85,
            take_at: 0.1,
        },
        2 => Strength {
            lookahead: false,
            candidates: 1,
            node_limit: 0,
            noise: 0.02,
            blunder: 0.03,
            double_at: 0.75,
            take_at: 0.2,
        },
        _ => Strength {
            lookahead: true,
            candidates: 6,
            node_limit: 200_000,
            noise: 0.0,
            blunder: 0.0,
            double_at: 0.7,
            take_at: 0.25,
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Bearing off: expected rolls to bear off a home position alone, with the exact rule and the
// doubles chain (passed numbers left out). Home positions of up to 15 checkers on points 1–6.

const BEAROFF_STATES: usize = 54_264;

/// `WAYS[k][m]`: ways to put at most m checkers on k points.
fn ways(k: usize, m: usize) -> usize {
    // C(m + k, k)
    let mut r = 1usize;
    for i in 1..=k {
        r = r * (m + i) / i;
    }
    r
}

/// The index of a home position in the table (counts on points 1..=6, at most 15 in all).
fn bearoff_index(home: &[u8; 6]) -> usize {
    let mut index = 0;
    let mut budget = CHECKERS as usize;
    for (i, &c) in home.iter().enumerate() {
        let rest = 5 - i;
        for v in 0..c as usize {
            index += ways(rest, budget - v);
        }
        budget -= c as usize;
    }
    index
}

fn bearoff_table() -> &'static [f32] {
    static TABLE: OnceLock<Vec<f32>> = OnceLock::new();
    TABLE.get_or_init(build_bearoff_table)
}

fn build_bearoff_table() -> Vec<f32> {
    let mut table = vec![0f32; BEAROFF_STATES];
    // Positions in order of checker count, so every smaller position is known first.
    let mut positions: Vec<[u8; 6]> = Vec::with_capacity(BEAROFF_STATES);
    let mut home = [0u8; 6];
    fn fill(i: usize, left: u8, home: &mut [u8; 6], out: &mut Vec<[u8; 6]>) {
        if i == 6 {
            out.push(*home);
            return;
        }
        for c in 0..=left {
            home[i] = c;
            fill(i + 1, left - c, home, out);
        }
        home[i] = 0;
    }
    fill(0, CHECKERS, &mut home, &mut positions);
    positions.sort_by_key(|h| h.iter().map(|&c| c as u32).sum::<u32>());
    for home in positions {
        if home.iter().all(|&c| c == 0) {
            continue;
        }
        let mut stay = 0.0;
        let mut rest = 1.0;
        for (a, b, p) in rolls() {
            let mut next = home;
            if a == b {
                for v in a..=6 {
                    let off = next[v as usize - 1].min(4);
                    next[v as usize - 1] -= off;
                }
            } else {
                for d in [a, b] {
                    if next[d as usize - 1] > 0 {
                        next[d as usize - 1] -= 1;
                    }
                }
            }
            if next == home {
                stay += p;
            } else {
                rest += p * table[bearoff_index(&next)] as f64;
            }
        }
        table[bearoff_index(&home)] = (rest / (1.0 - stay)) as f32;
    }
    table
}

/// The 21 different rolls with their probabilities, higher die first.
pub fn rolls() -> impl Iterator<Item = (u8, u8, f64)> {
    (1..=6u8)
        .rev()
        .flat_map(|a| (1..=a).rev().map(move |b| (a, b, if a == b { 1.0 / 36.0 } else { 2.0 / 36.0 })))
}

/// Expected rolls to bear off the seat's home checkers alone.
fn bearoff_rolls(board: &Board, seat: Seat) -> f64 {
    let mut home = [0u8; 6];
    for (i, cell) in home.iter_mut().enumerate() {
        *cell = board.count(seat, i as u8 + 1);
    }
    bearoff_table()[bearoff_index(&home)] as f64
}

// ---------------------------------------------------------------------------------------------
// The static estimate.

/// Weights of the estimate, in rolls.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// Per checker outside home: the rolls its share of the final bearing off will cost.
    pub entry: f64,
    /// Per checker, times the share of the six numbers its point cannot use.
    pub blocked: f64,
    /// Per checker whose point can use no number at all.
    pub trapped: f64,
    /// Per checker still on the head beyond the first.
    pub head: f64,
}

pub const WEIGHTS: Weights = Weights { entry: 0.5, blocked: 0.6, trapped: 0.6, head: 0.15 };

/// The rolls the seat still needs to finish, by the estimate.
pub fn rolls_needed(board: &Board, seat: Seat, w: &Weights) -> f64 {
    let mut travel = 0u32;
    let mut outside = 0u32;
    let mut blocked = 0.0;
    let mut trapped = 0u32;
    for p in 7..=24u8 {
        let n = board.count(seat, p) as u32;
        if n == 0 {
            continue;
        }
        travel += n * (p as u32 - 6);
        outside += n;
        let closed = (1..=6u8).filter(|&d| board.opponent_on(seat, p - d)).count();
        blocked += n as f64 * (closed as f64 / 6.0).powi(2);
        if closed == 6 {
            trapped += n;
        }
    }
    let head = board.count(seat, HEAD).saturating_sub(1) as f64;
    travel as f64 / PIPS_PER_ROLL
        + bearoff_rolls(board, seat)
        + w.entry * outside as f64
        + w.blocked * blocked
        + w.trapped * trapped as f64
        + w.head * head
}

/// The seat's chance to win the game from `board` with `on_roll` about to roll, by the estimate.
pub fn win_chance(board: &Board, seat: Seat, on_roll: Seat) -> f64 {
    win_chance_with(board, seat, on_roll, &WEIGHTS)
}

pub fn win_chance_with(board: &Board, seat: Seat, on_roll: Seat, w: &Weights) -> f64 {
    if board.borne_off(seat) == CHECKERS {
        return 1.0;
    }
    if board.borne_off(seat.opponent()) == CHECKERS {
        return 0.0;
    }
    if board.is_deadlock() {
        return 0.5;
    }
    let mine = rolls_needed(board, seat, w);
    let theirs = rolls_needed(board, seat.opponent(), w);
    let tempo = if on_roll == seat { 0.5 } else { -0.5 };
    // The number of rolls to finish spreads by about 1.4 √rolls per side.
    let lead = (theirs - mine + tempo) / (1.37 * (mine + theirs + 1.0).sqrt());
    1.0 / (1.0 + (-1.7 * lead).exp())
}

impl Evaluate for Nard {
    /// The estimated winning chance of the game under way, scaled to ±1000.
    fn evaluate(&self, seat: Seat) -> i32 {
        let on_roll = self.to_move().unwrap_or(seat);
        ((win_chance(self.board(), seat, on_roll) - 0.5) * 2000.0).round() as i32
    }
}

// ---------------------------------------------------------------------------------------------
// Planning a dice set.

/// What the planner needs to know of the game around the dice set in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Situation {
    player: Seat,
    kind: SetKind,
    board: Board,
    left: Numbers,
    head_left: u8,
    /// The next double of the player's own chain, if one follows this set.
    chain_next: Option<u8>,
    /// Whether the opponent's next ordinary roll is its first (first-roll doubles rule).
    opponent_first_roll: bool,
    serial: u32,
}

impl Situation {
    fn of(game: &Nard) -> Option<Situation> {
        let Phase::Playing(set) = game.phase() else { return None };
        let chain_next = game.chain_next().filter(|(owner, _)| *owner == set.player).map(|(_, v)| v);
        Some(Situation {
            player: set.player,
            kind: set.kind,
            board: *game.board(),
            left: set.left,
            head_left: set.head_left(),
            chain_next,
            opponent_first_roll: game.rolls_made(set.player.opponent()) == 0,
            serial: set.serial,
        })
    }

    /// Who rolls next once this set is over (the chain left aside): the player's own chain
    /// comes first, else the opponent.
    fn next_on_roll(&self) -> Seat {
        if self.chain_next.is_some() { self.player } else { self.player.opponent() }
    }
}

/// A number in [-1, 1] that depends only on the inputs: the noise of the weaker levels.
fn noise_of(board: &Board, serial: u32, level: u8) -> f64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (board, serial, level).hash(&mut h);
    (h.finish() % 2_000_001) as f64 / 1_000_000.0 - 1.0
}

fn unit_of(serial: u32, level: u8, salt: u64) -> f64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (serial, level, salt).hash(&mut h);
    (h.finish() % 1_000_000) as f64 / 1_000_000.0
}

/// The seat's best play of `numbers` by the static estimate (`on_roll` rolls after it).
fn best_static(board: &Board, seat: Seat, numbers: Numbers, head_left: u8, on_roll: Seat) -> Option<Play> {
    let mut best: Option<(f64, Play)> = None;
    for play in plays(board, seat, numbers, head_left) {
        let value = win_chance(&play.board, seat, on_roll);
        if best.as_ref().is_none_or(|(v, _)| value > *v) {
            best = Some((value, play));
        }
    }
    best.map(|(_, p)| p)
}

/// The seat plays `numbers` by the static estimate; what it cannot play passes to the other side,
/// which plays it too (when `may_pass`). Returns the board and the plays made.
fn play_set_statically(
    board: &Board,
    seat: Seat,
    numbers: Numbers,
    head: u8,
    may_pass: bool,
    nodes: &mut u64,
) -> Board {
    let on_roll = seat.opponent();
    let mut board = *board;
    let mut left = numbers;
    if let Some(play) = best_static(&board, seat, numbers, head, on_roll) {
        *nodes += 1;
        board = play.board;
        left = play.left;
    }
    if may_pass && !left.is_empty() && board.borne_off(seat) < CHECKERS {
        board = play_set_statically(&board, seat.opponent(), left, 1, false, nodes);
    }
    board
}

/// The opponent's ordinary roll `a`-`b` played out by the static estimate, with its whole chain
/// and the numbers it passes.
fn opponent_turn(board: &Board, opponent: Seat, a: u8, b: u8, first_roll: bool, nodes: &mut u64) -> Board {
    let head = if first_roll && a == b && matches!(a, 3 | 4 | 6) { 2 } else { 1 };
    let mut board = play_set_statically(board, opponent, Numbers::roll(a, b), head, true, nodes);
    if a == b {
        for v in a + 1..=6 {
            if board.borne_off(Seat::WHITE) == CHECKERS || board.borne_off(Seat::BLACK) == CHECKERS {
                break;
            }
            board = play_set_statically(&board, opponent, Numbers::repeat(v, 4), 1, true, nodes);
        }
    }
    board
}

/// The value of a finished set for its player, looking one roll of the opponent ahead.
fn lookahead(s: &Situation, play: &Play, nodes: &mut u64) -> f64 {
    let me = s.player;
    let opponent = me.opponent();
    let mut board = play.board;
    if board.borne_off(me) == CHECKERS {
        return 1.0;
    }
    if s.kind != SetKind::Passed && !play.left.is_empty() {
        board = play_set_statically(&board, opponent, play.left, 1, false, nodes);
    }
    if s.chain_next.is_some() {
        // The player's own chain comes before the opponent rolls: judge the position as it is.
        return win_chance(&board, me, me);
    }
    rolls()
        .map(|(a, b, p)| {
            let after = opponent_turn(&board, opponent, a, b, s.opponent_first_roll, nodes);
            p * win_chance(&after, me, me)
        })
        .sum()
}

/// The plays of the set in play, best first, with their values for the player.
fn ranked_plays(s: &Situation, level: u8, nodes: &mut u64) -> Vec<(Play, f64)> {
    let strength = strength(level);
    let on_roll = s.next_on_roll();
    let mut ranked: Vec<(Play, f64)> = plays(&s.board, s.player, s.left, s.head_left)
        .into_iter()
        .map(|play| {
            let mut value = win_chance(&play.board, s.player, on_roll);
            if strength.noise > 0.0 {
                value += strength.noise * noise_of(&play.board, s.serial, level);
            }
            (play, value)
        })
        .collect();
    *nodes += ranked.len() as u64;
    sort_best_first(&mut ranked);
    if strength.lookahead && ranked.len() > 1 {
        let keep = strength.candidates.min(ranked.len());
        ranked.truncate(keep);
        for entry in ranked.iter_mut() {
            if *nodes >= strength.node_limit {
                break;
            }
            entry.1 = lookahead(s, &entry.0, nodes);
        }
        sort_best_first(&mut ranked);
    }
    ranked
}

/// Best value first; equal values keep a fixed order by position, so a plan made again from
/// the middle of the set picks the same end position.
fn sort_best_first(ranked: &mut [(Play, f64)]) {
    ranked.sort_by(|(pa, va), (pb, vb)| vb.total_cmp(va).then_with(|| pa.board.cmp(&pb.board)));
}

/// The moves the Robot plays for the rest of the dice set in play.
pub fn plan(game: &Nard, level: u8) -> Vec<CheckerMove> {
    let Some(s) = Situation::of(game) else { return Vec::new() };
    let key = plan_key(&s, level);
    if let Some(mv) = cached_move(key) {
        return vec![mv];
    }
    let strength = strength(level);
    let mut nodes = 0;
    let all = plays(&s.board, s.player, s.left, s.head_left);
    let chosen = if all.len() > 1 && unit_of(s.serial, level, 1) < strength.blunder {
        let pick = (unit_of(s.serial, level, 2) * all.len() as f64) as usize;
        all[pick.min(all.len() - 1)].moves.clone()
    } else {
        ranked_plays(&s, level, &mut nodes).first().map(|(p, _)| p.moves.clone()).unwrap_or_default()
    };
    remember_plan(&s, level, &chosen);
    chosen
}

fn plan_key(s: &Situation, level: u8) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (s, level).hash(&mut h);
    h.finish()
}

thread_local! {
    /// The last plan: for each position along it, the move to make there.
    static LAST_PLAN: RefCell<Vec<(u64, CheckerMove)>> = const { RefCell::new(Vec::new()) };
}

fn cached_move(key: u64) -> Option<CheckerMove> {
    LAST_PLAN.with(|plan| plan.borrow().iter().find(|(k, _)| *k == key).map(|(_, m)| *m))
}

fn remember_plan(s: &Situation, level: u8, moves: &[CheckerMove]) {
    let mut entries = Vec::with_capacity(moves.len());
    let mut step = *s;
    for &mv in moves {
        entries.push((plan_key(&step, level), mv));
        step.board = step.board.after(step.player, mv);
        step.left = step.left.without(mv.die());
        step.head_left -= mv.leaves_head() as u8;
    }
    LAST_PLAN.with(|plan| *plan.borrow_mut() = entries);
}

// ---------------------------------------------------------------------------------------------
// The cube.

/// The seat's estimated winning chance with `on_roll` to roll.
fn chance_for(game: &Nard, seat: Seat, on_roll: Seat) -> f64 {
    win_chance(game.board(), seat, on_roll)
}

/// Whether the Robot doubles before its roll.
pub fn wants_to_double(game: &Nard, level: u8) -> bool {
    let Phase::AwaitingRoll(seat) = *game.phase() else { return false };
    if !game.can_double(seat) {
        return false;
    }
    // With the cube as it is a win already takes the match: doubling only risks more.
    if game.score(seat) + game.cube().value >= game.match_length() {
        return false;
    }
    chance_for(game, seat, seat) >= strength(level).double_at
}

/// Whether the Robot takes the double offered to it.
pub fn takes_double(game: &Nard, level: u8) -> bool {
    let Some(doubler) = game.double_offered_by() else { return false };
    let me = doubler.opponent();
    // Dropping would lose the match anyway.
    if game.score(doubler) + game.cube().value >= game.match_length() {
        return true;
    }
    chance_for(game, me, doubler) >= strength(level).take_at
}

// ---------------------------------------------------------------------------------------------

struct NardThinker {
    game: Nard,
    level: u8,
}

impl Thinker<Nard> for NardThinker {
    fn step(&mut self, _nodes: u64) -> Option<NardAction> {
        Some(decide(&self.game, self.level))
    }
}

/// The Robot's action when no dice are due.
fn decide(game: &Nard, level: u8) -> NardAction {
    match game.phase() {
        Phase::DoubleOffered(_) => {
            if takes_double(game, level) {
                NardAction::Take
            } else {
                NardAction::Drop
            }
        }
        _ => match plan(game, level).first() {
            Some(&mv) => NardAction::Move(mv),
            None => game.legal_actions().first().copied().unwrap_or(NardAction::Take),
        },
    }
}

impl RobotPlayer for Nard {
    fn thinker(&self, level: u8, _seed: u64) -> Box<dyn Thinker<Self>> {
        Box::new(NardThinker { game: self.clone(), level })
    }

    fn before_roll(&self, level: u8, _seed: u64) -> Option<NardAction> {
        wants_to_double(self, level).then_some(NardAction::Double)
    }
}

/// The benchmark's greedy player: the play of the dice set that leaves its smallest pip count,
/// ties broken at random; it takes every double and never offers one.
pub fn greedy(game: &Nard, rng: &mut SmallRng) -> Option<NardAction> {
    match game.phase() {
        Phase::DoubleOffered(_) => Some(NardAction::Take),
        Phase::Playing(set) => {
            let seat = set.player;
            let play = pick_best_by(game.plays(), |p| p.board.pip_count(seat), rng)?;
            play.moves.first().map(|&m| NardAction::Move(m))
        }
        _ => None,
    }
}
