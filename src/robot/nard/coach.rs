//! The coach's view of Crazy Nard: a whole dice set is one move, rated the way level 3 judges
//! its candidates.

use super::lookahead::{Lookahead, sort_best_first};
use super::playout::Situation;
use super::work::Search;
use super::{strength, win_chance};
use crate::history::Step;
use crate::robot::review::{CoachData, Coached, MoveToRate, Rater, Rating};
use crate::robot::slips::{SlipKind, TeacherSlips};
use crate::robot::{RobotLevel, review};
use crate::rules::nard::{Board, HEAD, Nard, NardAction, Play};

/// A whole dice set is one move for the coach: its first position, and the moves made in it.
impl Coached for Nard {
    const REASONS: &'static [&'static str] = &["bear_off", "head", "into_home"];

    fn moves_to_rate<N>(steps: &[Step<Nard, N>]) -> Vec<MoveToRate<NardAction>> {
        let mut moves = Vec::new();
        let serial_at = |i: usize| steps[i].game.dice_set().map(|set| set.serial);
        let mut from = 0;
        while from + 1 < steps.len() {
            let starts_set = steps[from].game.dice_set().is_some_and(|set| set.moves.is_empty());
            let (Some(seat), Some(NardAction::Move(_))) = (steps[from + 1].mover, &steps[from + 1].action)
            else {
                from += 1;
                continue;
            };
            if !starts_set {
                from += 1;
                continue;
            }
            let serial = serial_at(from);
            let mut end = from + 1;
            let mut played = Vec::new();
            while end < steps.len() && serial_at(end - 1) == serial {
                let Some(action @ NardAction::Move(_)) = steps[end].action else { break };
                played.push(action);
                end += 1;
            }
            // A set still being played is not a move yet.
            if serial_at(end - 1) != serial {
                moves.push(MoveToRate { from, seat, played });
            }
            from = end - 1;
        }
        moves
    }

    fn rater(&self, played: &[NardAction], _data: CoachData) -> Box<dyn Rater<Self>> {
        Box::new(SetRater::new(self, played))
    }

    /// Where the best play left the board better in a way a child can see: more checkers borne
    /// off, fewer checkers left on the head, or fewer checkers gone home early (where they
    /// cannot move again until the bearing off).
    fn why(&self, played: &[NardAction], best: &[NardAction]) -> Option<&'static str> {
        let seat = self.dice_set()?.player;
        let (after_played, after_best) = (review::after(self, played), review::after(self, best));
        let (played_board, best_board) = (after_played.board(), after_best.board());
        if best_board.borne_off(seat) > played_board.borne_off(seat) {
            Some("bear_off")
        } else if best_board.count(seat, HEAD) < played_board.count(seat, HEAD) {
            Some("head")
        } else if at_home(best_board, seat) < at_home(played_board, seat)
            && !played_board.is_bearing_off(seat)
        {
            Some("into_home")
        } else {
            None
        }
    }
}

/// The checkers a seat has on its home points (1 to 6).
fn at_home(board: &Board, seat: crate::rules::Seat) -> u8 {
    (1..=6).map(|point| board.count(seat, point)).sum()
}

/// Rates the play of a whole dice set the way level 3 judges its candidates: every play by the
/// estimate, then the best few and the play made one roll ahead.
struct SetRater {
    situation: Option<Situation>,
    /// The board the set's moves made.
    played: Board,
    search: Search,
    plays: Vec<Play>,
    /// The plays to look at one roll ahead, with their values so far.
    candidates: Vec<(Play, f64)>,
    looked: usize,
    ahead: Option<Lookahead>,
    listed: bool,
}

impl SetRater {
    fn new(game: &Nard, played: &[NardAction]) -> SetRater {
        let situation = Situation::of(game);
        let mut board = *game.board();
        if let Some(s) = &situation {
            for action in played {
                if let NardAction::Move(mv) = action {
                    board = board.after(s.player, *mv);
                }
            }
        }
        let search = Search::new(strength(RobotLevel::Three));
        SetRater {
            situation,
            played: board,
            search,
            plays: Vec::new(),
            candidates: Vec::new(),
            looked: 0,
            ahead: None,
            listed: false,
        }
    }

    fn rating(&self) -> Rating<NardAction> {
        let moves = |play: &Play| play.moves.iter().map(|&mv| NardAction::Move(mv)).collect();
        let mut ranked = self.candidates.clone();
        sort_best_first(&mut ranked);
        let Some((best, best_value)) = ranked.first() else {
            return Rating { best: Vec::new(), loss: 0.0, margin: 0.0 };
        };
        let played_value =
            ranked.iter().find(|(p, _)| p.board == self.played).map_or(*best_value, |(_, v)| *v);
        let loss = (best_value - played_value).max(0.0);
        let margin = match ranked.get(1) {
            Some((_, second)) if best.board == self.played => best_value - second,
            _ => 0.0,
        };
        Rating { best: moves(best), loss, margin }
    }
}

impl Rater<Nard> for SetRater {
    fn step(&mut self, nodes: u64) -> Option<Rating<NardAction>> {
        let Some(s) = self.situation else {
            return Some(Rating { best: Vec::new(), loss: 0.0, margin: 0.0 });
        };
        let stop_at = self.search.nodes.saturating_add(nodes);
        if !self.listed {
            self.plays = self.search.list(&s.board, s.player, s.left, s.head_left);
            self.listed = true;
        }
        // Every play by the estimate, a node each.
        while self.candidates.len() < self.plays.len() {
            if self.search.nodes >= stop_at {
                return None;
            }
            self.search.nodes += 1;
            let play = self.plays[self.candidates.len()].clone();
            let value = win_chance(&play.board, s.player, s.next_on_roll());
            self.candidates.push((play, value));
        }
        if !self.plays.is_empty() {
            // Keep the best few and the play made, to be looked at one roll ahead.
            sort_best_first(&mut self.candidates);
            let keep = self.search.strength.candidates;
            let played = self.candidates.iter().position(|(p, _)| p.board == self.played);
            if let Some(index) = played.filter(|&i| i >= keep) {
                self.candidates.swap(keep, index);
            }
            self.candidates.truncate(keep + usize::from(played.is_some_and(|i| i >= keep)));
            self.plays.clear();
        }
        if self.candidates.len() < 2 {
            return Some(self.rating());
        }
        while self.looked < self.candidates.len() {
            if self.search.nodes >= stop_at {
                return None;
            }
            let ahead = self.ahead.get_or_insert_with(|| Lookahead::new(false));
            if let Some(value) = ahead.advance(&s, &self.candidates[self.looked].0, &mut self.search) {
                self.candidates[self.looked].1 = value;
                self.looked += 1;
                self.ahead = None;
            }
        }
        Some(self.rating())
    }
}

/// How much of the chance to win a play must give away, by the quick estimate, for a teacher to
/// call it a slip.
const GIVES_AWAY: f64 = 0.1;

/// A play of a whole dice set that gives away a tenth of the chance to win, by the quick
/// estimate a player can make at the board: of those, the one that gives away the least.
impl TeacherSlips for Nard {
    const SLIPS: &'static [SlipKind<Self>] = &[SlipKind { name: "gave_away", reason: "", find: gave_away }];
}

fn gave_away(game: &Nard) -> Option<Vec<NardAction>> {
    let s = Situation::of(game)?;
    if !game.dice_set().is_some_and(|set| set.moves.is_empty()) {
        return None;
    }
    let mut search = Search::new(strength(RobotLevel::Three));
    let valued: Vec<(Play, f64)> = search
        .list(&s.board, s.player, s.left, s.head_left)
        .into_iter()
        .map(|play| {
            let value = win_chance(&play.board, s.player, s.next_on_roll());
            (play, value)
        })
        .collect();
    let best = valued.iter().map(|(_, v)| *v).fold(f64::MIN, f64::max);
    let (play, _) =
        valued.into_iter().filter(|(_, v)| best - v >= GIVES_AWAY).max_by(|(_, a), (_, b)| a.total_cmp(b))?;
    Some(play.moves.iter().map(|&mv| NardAction::Move(mv)).collect())
}
