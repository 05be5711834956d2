//! A candidate play judged one roll ahead (the opponent's 21 rolls, each with its best reply) and,
//! for the closest few, two rolls deep; the order plays are ranked in.

use super::bearoff::rolls;
use super::playout::{Playout, Progress, Situation};
use super::win_chance;
use super::work::Search;
use crate::rules::nard::{Board, CHECKERS, Play, SetKind};

/// The roll `rolls()` gives at `index`.
pub(super) fn roll_at(index: usize) -> (u8, u8, f64) {
    rolls().nth(index).expect("21 rolls")
}

/// A candidate play's value for its player, looking one roll of the opponent ahead, and with
/// `two_rolls` the player's own roll after it too; worked out a node at a time.
pub(super) struct Lookahead {
    pub(super) two_rolls: bool,
    pub(super) stage: Stage,
}

pub(super) enum Stage {
    Start,
    /// After numbers passed to the player, the passer goes on with its chain; then the player rolls.
    PassedChain(Playout),
    /// The numbers the play leaves pass to the opponent.
    LeftOver(Playout),
    /// The player's own chain comes before the opponent rolls.
    OwnChain(Playout),
    /// The opponent's rolls one by one (`roll` indexes `rolls()`), `sum` their weighted values so
    /// far; with two rolls, the player's own rolls after the opponent's roll under way.
    Rolls {
        board: Board,
        roll: usize,
        sum: f64,
        turn: Playout,
        own: Option<Box<OwnRolls>>,
    },
}

/// The player's 21 rolls after one roll of the opponent.
pub(super) struct OwnRolls {
    pub(super) after: Board,
    pub(super) roll: usize,
    pub(super) sum: f64,
    pub(super) turn: Playout,
}

impl Lookahead {
    pub(super) fn new(two_rolls: bool) -> Lookahead {
        Lookahead { two_rolls, stage: Stage::Start }
    }

    pub(super) fn rolls_from(s: &Situation, board: Board) -> Stage {
        let (a, b, _) = roll_at(0);
        let turn = Playout::ordinary_turn(&board, s.player.opponent(), a, b, s.opponent_first_roll);
        Stage::Rolls { board, roll: 0, sum: 0.0, turn, own: None }
    }

    pub(super) fn own_chain_or_rolls(s: &Situation, board: Board) -> Stage {
        match s.chain_next {
            Some(first) => Stage::OwnChain(Playout::chain(&board, s.player, first)),
            None => Lookahead::rolls_from(s, board),
        }
    }

    /// Does a node or two of work; the value once it is known.
    pub(super) fn advance(&mut self, s: &Situation, play: &Play, search: &mut Search) -> Option<f64> {
        let me = s.player;
        let opponent = me.opponent();
        let two_rolls = self.two_rolls;
        loop {
            match &mut self.stage {
                Stage::Start => {
                    let board = play.board;
                    if board.borne_off(me) == CHECKERS {
                        return Some(1.0);
                    }
                    self.stage = if s.kind == SetKind::Passed {
                        let Some(first) = s.opponent_chain_next else {
                            search.nodes += 1;
                            return Some(win_chance(&board, me, me));
                        };
                        Stage::PassedChain(Playout::chain(&board, opponent, first))
                    } else if !play.left.is_empty() {
                        Stage::LeftOver(Playout::set(&board, opponent, play.left, 1, false))
                    } else {
                        Lookahead::own_chain_or_rolls(s, board)
                    };
                }
                Stage::PassedChain(turn) => {
                    if let Progress::Worked = turn.advance(search) {
                        return None;
                    }
                    search.nodes += 1;
                    return Some(win_chance(&turn.board, me, me));
                }
                Stage::LeftOver(turn) => {
                    if let Progress::Worked = turn.advance(search) {
                        return None;
                    }
                    let board = turn.board;
                    self.stage = Lookahead::own_chain_or_rolls(s, board);
                }
                Stage::OwnChain(turn) => {
                    if let Progress::Worked = turn.advance(search) {
                        return None;
                    }
                    let board = turn.board;
                    if board.borne_off(me) == CHECKERS || board.borne_off(opponent) == CHECKERS {
                        search.nodes += 1;
                        return Some(win_chance(&board, me, opponent));
                    }
                    self.stage = Lookahead::rolls_from(s, board);
                }
                Stage::Rolls { board, roll, sum, turn, own } => {
                    let (_, _, p) = roll_at(*roll);
                    if let Some(mine) = own {
                        if let Progress::Worked = mine.turn.advance(search) {
                            return None;
                        }
                        let (_, _, p_mine) = roll_at(mine.roll);
                        search.nodes += 1;
                        mine.sum += p_mine * win_chance(&mine.turn.board, me, opponent);
                        mine.roll += 1;
                        if mine.roll < 21 {
                            let (a, b, _) = roll_at(mine.roll);
                            mine.turn = Playout::ordinary_turn(&mine.after, me, a, b, false);
                            return None;
                        }
                        *sum += p * mine.sum;
                        *own = None;
                    } else {
                        if let Progress::Worked = turn.advance(search) {
                            return None;
                        }
                        let after = turn.board;
                        if two_rolls && after.borne_off(opponent) < CHECKERS {
                            let (a, b, _) = roll_at(0);
                            let turn = Playout::ordinary_turn(&after, me, a, b, false);
                            *own = Some(Box::new(OwnRolls { after, roll: 0, sum: 0.0, turn }));
                            continue;
                        }
                        search.nodes += 1;
                        *sum += p * win_chance(&after, me, me);
                    }
                    *roll += 1;
                    if *roll == 21 {
                        return Some(*sum);
                    }
                    let (a, b, _) = roll_at(*roll);
                    *turn = Playout::ordinary_turn(board, opponent, a, b, s.opponent_first_roll);
                    return None;
                }
            }
        }
    }
}

/// Best value first; equal values keep a fixed order by position, so a plan made again from
/// the middle of the set picks the same end position.
pub(super) fn sort_best_first(ranked: &mut [(Play, f64)]) {
    ranked.sort_by(|(pa, va), (pb, vb)| vb.total_cmp(va).then_with(|| pa.board.cmp(&pb.board)));
}
