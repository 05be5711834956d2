//! Crazy Nard: 10,000 seeded games between random players (dice from the seeded RNG, any legal
//! action including doubles, takes and drops) end, keep 15 checkers a side, never show an illegal
//! position, and replay identically from their seeds.

use tabla::chance;
use tabla::levels::{self, LevelGame};
use tabla::robot;
use tabla::rules::nard::{Board, CHECKERS, Event, HEAD, Nard, NardAction, POINTS, Setup, other_side};
use tabla::rules::{Game, Seat};

const W: Seat = Seat::WHITE;
const B: Seat = Seat::BLACK;
const GAMES: usize = 10_000;
/// No match of random players comes near this many actions; reaching it means a game that never ends.
const ACTION_LIMIT: usize = 200_000;

fn setup(file: &str) -> Setup {
    match levels::find(file).map(|l| l.game) {
        Ok(LevelGame::Nard(level)) => level.setup,
        other => panic!("{file}: {other:?}"),
    }
}

/// A finished game's board may show a block with nobody ahead: the loser's opponent has gone.
fn check_board(board: &Board, finished: bool) {
    for seat in [W, B] {
        let on_board: u32 = (1..=POINTS).map(|p| board.count(seat, p) as u32).sum();
        assert_eq!(on_board + board.borne_off(seat) as u32, CHECKERS as u32, "15 checkers a side");
        assert!(finished || !board.has_forbidden_prime(seat), "six in a row with nobody ahead: {board:?}");
    }
    for p in 1..=POINTS {
        assert!(board.count(W, p) == 0 || board.count(B, other_side(p)) == 0, "a shared point: {board:?}");
    }
}

fn check_state(game: &Nard) {
    check_board(game.board(), game.outcome().is_some());
    if let Some(set) = game.dice_set() {
        let off_head = set.moves.iter().filter(|m| m.leaves_head()).count() as u8;
        assert!(off_head <= set.head_limit && set.head_limit <= 2);
        assert_eq!(set.moves.len() + set.left.len(), set.dealt.len());
        assert!(!game.legal_actions().is_empty(), "a set in play always has a move");
    }
    if game.outcome().is_none() {
        assert!(game.awaiting_roll() || !game.legal_actions().is_empty(), "someone can act");
    } else {
        assert!(game.to_move().is_none() && game.chance().is_none());
    }
}

/// What one action may do to the board: only the mover's checkers change, by exactly the die.
fn check_move(before: &Nard, action: &NardAction, after: &Nard) {
    let NardAction::Move(mv) = *action else { return };
    let seat = before.dice_set().expect("moves only inside a dice set").player;
    let was = before.board();
    if mv.from <= 6 {
        assert!(mv.is_bear_off() && was.is_bearing_off(seat), "a home checker moved before bearing off");
    }
    if mv.is_bear_off() {
        assert!(was.is_bearing_off(seat) && mv.from == mv.die(), "bearing off is exact");
    }
    if after.game_number() != before.game_number() {
        return;
    }
    let now = after.board();
    assert_eq!(now.pip_count(seat) + mv.die() as u32, was.pip_count(seat));
    for p in 1..=POINTS {
        assert_eq!(now.count(seat.opponent(), p), was.count(seat.opponent(), p), "no hitting");
    }
    if mv.from == HEAD {
        assert!(before.dice_set().unwrap().head_left() > 0);
    }
}

struct MatchRecord {
    actions: Vec<NardAction>,
    games: usize,
    end: Nard,
}

fn random_match(file: &str, seed: u64) -> MatchRecord {
    let mut rng = chance::rng(seed);
    let mut game = Nard::new(&setup(file));
    check_state(&game);
    let mut actions = Vec::new();
    let mut games = 0;
    let mut score_from_results = [0u32; 2];
    while game.outcome().is_none() {
        let action = match game.chance() {
            Some(rolls) => chance::pick_chance(rolls, &mut rng).unwrap(),
            None => robot::random_action(&game, &mut rng).expect("someone can act"),
        };
        let before = game.clone();
        game.apply(&action).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        check_move(&before, &action, &game);
        check_state(&game);
        for event in game.events() {
            if let Event::GameEnded(result) = event {
                games += 1;
                if let Some(winner) = result.winner {
                    score_from_results[winner.index()] += result.points;
                }
                check_board(&result.board, true);
            }
        }
        actions.push(action);
        assert!(actions.len() < ACTION_LIMIT, "{file} seed {seed}: the match does not end");
    }
    assert_eq!(score_from_results, [game.score(W), game.score(B)]);
    MatchRecord { actions, games, end: game }
}

#[test]
fn ten_thousand_random_games_end_legally_and_replay_from_their_seeds() {
    let files = [
        "ron_configs/nard/one_point.ron",
        "ron_configs/nard/crazy.ron",
        "ron_configs/nard/head_per_turn.ron",
    ];
    let mut games = 0;
    let mut seed = 0u64;
    while games < GAMES {
        let file = files[seed as usize % files.len()];
        let record = random_match(file, seed);
        games += record.games;
        if seed.is_multiple_of(25) {
            let again = random_match(file, seed);
            assert_eq!(again.actions, record.actions, "seed {seed} replays differently");
            assert_eq!(again.end, record.end);
        }
        seed += 1;
    }
}
