//! The coach: a game looked at again, move by move. For every move of the seats under review,
//! the Robot at its strongest rates the choices there and says how much the move played lost
//! against its own best one, in the game's own units. The moves that lost the most, above the
//! game's threshold (`ron_configs/coach.ron`), are the slips, at most three; the move that found
//! the best choice where the others were worst gets a star. The review thinks in the same
//! slices as a Robot turn (`Reviewer::step`), so a screen never waits for it.

use super::RobotPlayer;
use super::search::{Searcher, Tree};
use crate::history::Step;
use crate::rules::GameKind;
use crate::rules::board::Move;
use crate::rules::{Game, Seat};
use serde::Deserialize;

/// At most this many slips are marked in one game.
pub const MOST_SLIPS: usize = 3;

/// What the coach needs to know of one game, from `ron_configs/coach.ron`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoachData {
    /// A move that lost at least this much (in the Robot's units for the game) is a slip.
    pub threshold: f64,
    /// A won or lost game counts as this much, so one missed win does not dwarf every figure.
    pub decisive: f64,
}

/// The coach's data file, built into the program.
pub const COACH_FILE: &str = "ron_configs/coach.ron";
const COACH_SOURCE: &str = include_str!("../../ron_configs/coach.ron");

/// A game's coach data, by its code name in the file (`circles`, `knight_hunt`, …).
pub fn coach_data(game: GameKind) -> Result<CoachData, String> {
    coach_data_in(COACH_FILE, COACH_SOURCE, game)
}

/// The coach data of `game` in a coach file's text; a broken file (or one naming a game Tabla
/// does not have) names its file and line.
pub fn coach_data_in(file: &str, source: &str, game: GameKind) -> Result<CoachData, String> {
    let all: std::collections::BTreeMap<GameKind, CoachData> =
        ron::from_str(source).map_err(|e| format!("{file}:{}: {}", e.span.start.line, e.code))?;
    let data = all.get(&game).copied().ok_or_else(|| format!("{file}: no entry for the game '{game}'"))?;
    if !(data.threshold > 0.0 && data.decisive > data.threshold) {
        return Err(format!("{file}: {game}: the threshold must be above 0 and below `decisive`"));
    }
    Ok(data)
}

/// How one move compared with the Robot's best there.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating<A> {
    /// The Robot's best move there (a dice set's moves in Crazy Nard).
    pub best: Vec<A>,
    /// What the move played lost against the best, never below 0.
    pub loss: f64,
    /// When the move played was the best: how far ahead of the next best it was (0 otherwise).
    pub margin: f64,
}

/// Rates one move, a slice at a time.
pub trait Rater<G: Game>: Send + Sync {
    /// Thinks for about `nodes` more nodes; the rating once it is known.
    fn step(&mut self, nodes: u64) -> Option<Rating<G::Action>>;
}

/// One move the coach rates: the actions one seat took from one position, by its own choice.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveToRate<A> {
    /// The history's step the move was made from (its first action is number `from + 1`).
    pub from: usize,
    pub seat: Seat,
    pub played: Vec<A>,
}

/// A game the coach can review.
pub trait Coached: RobotPlayer {
    /// Every reason `why` may give (the screens have words for each: `coach_<game>_<reason>`).
    const REASONS: &'static [&'static str];
    /// The pieces a reason may name (`why_args`' `piece`): each reason then has a sentence for
    /// each of them instead (`coach_<game>_<reason>_<piece>`).
    const REASON_PIECES: &'static [&'static str] = &[];

    /// The moves of a history worth rating, in order: by default every action a seat chose
    /// among two or more (never a roll of the dice).
    fn moves_to_rate<N>(steps: &[Step<Self, N>]) -> Vec<MoveToRate<Self::Action>> {
        let mut moves = Vec::new();
        for (from, pair) in steps.windows(2).enumerate() {
            let (before, step) = (&pair[0].game, &pair[1]);
            let (Some(action), Some(seat)) = (&step.action, step.mover) else { continue };
            if before.chance().is_none() && before.legal_actions().len() > 1 && before.rated(action) {
                moves.push(MoveToRate { from, seat, played: vec![action.clone()] });
            }
        }
        moves
    }

    /// Whether a chosen action is a move the coach rates (not, say, a vote on a draw).
    fn rated(&self, _action: &Self::Action) -> bool {
        true
    }

    /// Starts rating the move `played` made from this position.
    fn rater(&self, played: &[Self::Action], data: CoachData) -> Box<dyn Rater<Self>>;

    /// Why the best move was better, in the game's own terms, when the rules can tell: a key
    /// the screens turn into one short sentence (`coach.<game>.<key>`).
    fn why(&self, played: &[Self::Action], best: &[Self::Action]) -> Option<&'static str>;

    /// What the reason `why` names, when it names something: a `piece` (its sentence is then
    /// `coach.<game>.<key>_<piece>`, so each language words it with the piece's own grammar) and
    /// places (`to`: where the better move went; `by` and `at`: the piece that can catch, and
    /// where), filled into the sentence.
    fn why_args(
        &self,
        _why: &'static str,
        _played: &[Self::Action],
        _best: &[Self::Action],
    ) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}

/// One move of the review with its rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated<A> {
    pub from: usize,
    pub seat: Seat,
    pub played: Vec<A>,
    pub rating: Rating<A>,
    pub why: Option<&'static str>,
    /// What `why` names (`Coached::why_args`).
    pub why_args: Vec<(&'static str, String)>,
}

impl<A: Clone> Rated<A> {
    /// The rating of `played`, made from `before` after `from` actions, with the reason the rules
    /// give for a move that lost something.
    pub fn of<G: Coached<Action = A>>(
        before: &G,
        from: usize,
        seat: Seat,
        played: &[A],
        rating: Rating<A>,
    ) -> Rated<A> {
        let why = if rating.loss > 0.0 { before.why(played, &rating.best) } else { None };
        let why_args = why.map_or_else(Vec::new, |why| before.why_args(why, played, &rating.best));
        debug_assert!(why.is_none_or(|why| G::REASONS.contains(&why)), "{why:?} is not among the reasons");
        Rated { from, seat, played: played.to_vec(), rating, why, why_args }
    }
}

impl<A> Rated<A> {
    /// The number of the move's first action, from 1.
    pub fn ply(&self) -> usize {
        self.from + 1
    }
}

/// A whole review: every rated move, the slips among them and the best one.
#[derive(Clone, Debug, PartialEq)]
pub struct Review<A> {
    pub moves: Vec<Rated<A>>,
    /// Indices into `moves` of the slips, in the order they were played.
    pub slips: Vec<usize>,
    /// Index into `moves` of the best move of the game.
    pub best: Option<usize>,
}

impl<A> Review<A> {
    fn of(moves: Vec<Rated<A>>, data: CoachData) -> Review<A> {
        let mut slips: Vec<usize> =
            (0..moves.len()).filter(|&i| moves[i].rating.loss >= data.threshold).collect();
        // The greatest losses first, the earlier move first among equals.
        slips.sort_by(|&a, &b| moves[b].rating.loss.total_cmp(&moves[a].rating.loss).then(a.cmp(&b)));
        slips.truncate(MOST_SLIPS);
        slips.sort_unstable();
        let best = (0..moves.len())
            .filter(|&i| moves[i].rating.loss == 0.0 && moves[i].rating.margin > 0.0)
            .max_by(|&a, &b| moves[a].rating.margin.total_cmp(&moves[b].rating.margin).then(b.cmp(&a)));
        Review { moves, slips, best }
    }

    pub fn slips(&self) -> impl Iterator<Item = &Rated<A>> {
        self.slips.iter().map(|&i| &self.moves[i])
    }

    pub fn best_move(&self) -> Option<&Rated<A>> {
        self.best.map(|i| &self.moves[i])
    }
}

/// A review under way, a slice at a time.
pub struct Reviewer<G: Coached> {
    data: CoachData,
    /// Each move to rate with the position it was made from.
    todo: Vec<(G, MoveToRate<G::Action>)>,
    rater: Option<Box<dyn Rater<G>>>,
    done: Vec<Rated<G::Action>>,
}

impl<G: Coached> Reviewer<G> {
    /// Reviews the moves of the seats `reviewed` says yes to.
    pub fn new<N>(steps: &[Step<G, N>], reviewed: impl Fn(Seat) -> bool, data: CoachData) -> Reviewer<G> {
        let todo = G::moves_to_rate(steps)
            .into_iter()
            .filter(|m| reviewed(m.seat))
            .map(|m| (steps[m.from].game.clone(), m))
            .collect();
        Reviewer { data, todo, rater: None, done: Vec::new() }
    }

    /// The position the move made after `from` actions was rated in, if it is one the review
    /// rates.
    pub fn position_before(&self, from: usize) -> Option<&G> {
        self.todo.iter().find(|(_, to_rate)| to_rate.from == from).map(|(before, _)| before)
    }

    /// Moves rated so far and moves in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.done.len(), self.todo.len())
    }

    /// Thinks for about `nodes` more nodes; the review once every move is rated.
    pub fn step(&mut self, nodes: u64) -> Option<Review<G::Action>> {
        let mut left = nodes;
        while let Some((before, to_rate)) = self.todo.get(self.done.len()) {
            if left == 0 {
                return None;
            }
            let data = self.data;
            let rater = self.rater.get_or_insert_with(|| before.rater(&to_rate.played, data));
            // Each rater slice is given what is left; a slice spends about that.
            let slice = left.min(super::SLICE_NODES);
            left -= slice;
            let Some(rating) = rater.step(slice) else { continue };
            self.rater = None;
            self.done.push(Rated::of(before, to_rate.from, to_rate.seat, &to_rate.played, rating));
        }
        Some(Review::of(std::mem::take(&mut self.done), self.data))
    }

    /// Thinks to the end in one go: for tests, the text interface and the benchmark.
    pub fn finish(mut self) -> Review<G::Action> {
        loop {
            if let Some(review) = self.step(u64::MAX) {
                return review;
            }
        }
    }
}

/// The tutor: before a person's move is played, the coach rates it, a slice at a time; a move the
/// review would mark as a slip is warned of, with the coach's reason and better move.
pub struct Tutor<G: Coached> {
    game: G,
    played: Vec<G::Action>,
    threshold: f64,
    rater: Box<dyn Rater<G>>,
}

impl<G: Coached> Tutor<G> {
    pub fn new(game: &G, played: &[G::Action], data: CoachData) -> Tutor<G> {
        Tutor {
            game: game.clone(),
            played: played.to_vec(),
            threshold: data.threshold,
            rater: game.rater(played, data),
        }
    }

    /// Thinks for about `nodes` more nodes; once it knows: `Some(None)` for a move to play at
    /// once, `Some(Some(warning))` for a slip.
    pub fn step(&mut self, nodes: u64) -> Option<Option<Rated<G::Action>>> {
        let rating = self.rater.step(nodes)?;
        if rating.loss < self.threshold {
            return Some(None);
        }
        let seat = self.game.to_move().unwrap_or_default();
        Some(Some(Rated::of(&self.game, 0, seat, &self.played, rating)))
    }

    /// Thinks to the end in one go: for the text interface and the benchmark.
    pub fn finish(mut self) -> Option<Rated<G::Action>> {
        loop {
            if let Some(warning) = self.step(u64::MAX) {
                return warning;
            }
        }
    }
}

/// Rates a move of a searched game with an `exact` search: every root action's score at the
/// same depth, won and lost games counted as `decisive`.
pub struct SearchRater<T: Tree> {
    searcher: Searcher<T>,
    played: T::Action,
    decisive: f64,
}

impl<T: Tree> SearchRater<T> {
    pub fn new(searcher: Searcher<T>, played: &[T::Action], data: CoachData) -> SearchRater<T> {
        let played = played.first().expect("a move has an action").clone();
        SearchRater { searcher: searcher.exact(), played, decisive: data.decisive }
    }
}

impl<G: Game, T: Tree<Action = G::Action> + Send + Sync> Rater<G> for SearchRater<T>
where
    T::Position: Send + Sync,
    T::Move: Send + Sync,
{
    fn step(&mut self, nodes: u64) -> Option<Rating<G::Action>> {
        self.searcher.step(nodes)?;
        let value = |score: i32| (score as f64).clamp(-self.decisive, self.decisive);
        let ranked = self.searcher.ranked();
        let Some((best, best_score)) = ranked.first() else {
            return Some(Rating { best: vec![self.played.clone()], loss: 0.0, margin: 0.0 });
        };
        let played_score = ranked.iter().find(|(a, _)| *a == self.played).map_or(*best_score, |(_, s)| *s);
        let loss = value(*best_score) - value(played_score);
        let margin = match ranked.get(1) {
            Some((_, second)) if loss == 0.0 => value(*best_score) - value(*second),
            _ => 0.0,
        };
        Some(Rating { best: vec![best.clone()], loss, margin })
    }
}

/// The rater of a game the Robot plays by alpha-beta search, at level 3.
pub fn searched_rater<G: super::Searched>(
    game: &G,
    played: &[G::Action],
    data: CoachData,
) -> Box<dyn Rater<G>> {
    let searcher = super::search::AlphaBeta::for_game(game, G::strength(super::RobotLevel::Three), 0);
    RobotChecked::wrap(game, played, data, Box::new(SearchRater::new(searcher, played, data)))
}

/// A rating that would mark a slip, checked against the Robot's own choice: a move the level-3
/// Robot plays there itself is no slip. (The rater's search must score every move alike, so it
/// sees less deep than the Robot's, and may think less of the Robot's deeper choice.)
pub struct RobotChecked<G: RobotPlayer> {
    game: G,
    played: G::Action,
    threshold: f64,
    rater: Box<dyn Rater<G>>,
    rating: Option<Rating<G::Action>>,
    thinker: Option<Box<dyn super::Thinker<G>>>,
}

impl<G: RobotPlayer + Send + Sync> RobotChecked<G>
where
    G::Action: Send + Sync,
{
    /// `rater`, checked: a rater of its own kind.
    pub fn wrap(
        game: &G,
        played: &[G::Action],
        data: CoachData,
        rater: Box<dyn Rater<G>>,
    ) -> Box<dyn Rater<G>> {
        let Some(first) = played.first() else { return rater };
        Box::new(RobotChecked {
            game: game.clone(),
            played: first.clone(),
            threshold: data.threshold,
            rater,
            rating: None,
            thinker: None,
        })
    }
}

impl<G: RobotPlayer + Send + Sync> Rater<G> for RobotChecked<G>
where
    G::Action: Send + Sync,
{
    fn step(&mut self, nodes: u64) -> Option<Rating<G::Action>> {
        if self.rating.is_none() {
            let rating = self.rater.step(nodes)?;
            if rating.loss < self.threshold {
                return Some(rating);
            }
            self.rating = Some(rating);
            return None;
        }
        let thinker = self.thinker.get_or_insert_with(|| self.game.thinker(super::RobotLevel::Three, 0));
        let choice = thinker.step(nodes)?;
        let rating = self.rating.take().expect("a rating to check");
        Some(if choice == self.played {
            Rating { best: vec![choice], loss: 0.0, margin: 0.0 }
        } else {
            rating
        })
    }
}

/// The game after `actions` from `game`.
pub fn after<G: Game>(game: &G, actions: &[G::Action]) -> G {
    let mut next = game.clone();
    for action in actions {
        next.play(action);
    }
    next
}

/// The most `count` can grow by the next seat's best single action from `game`.
pub fn reply_gain<G: Game>(game: &G, count: impl Fn(&G) -> i32) -> i32 {
    let now = count(game);
    let gains = game.legal_actions().into_iter().map(|action| count(&after(game, &[action])) - now);
    gains.max().unwrap_or(0).max(0)
}

/// The next seat's single action from `game` that raises `count` the most, if one raises it:
/// the move a reason names ("the horse on c5 can catch this bunny").
pub fn threat<G: Game>(game: &G, count: impl Fn(&G) -> i32) -> Option<G::Action> {
    let now = count(game);
    let gains = game
        .legal_actions()
        .into_iter()
        .map(|action| (count(&after(game, std::slice::from_ref(&action))) - now, action));
    gains.filter(|(gain, _)| *gain > 0).max_by_key(|(gain, _)| *gain).map(|(_, action)| action)
}

/// The places a reason names in a game whose moves go from a square to a square: the next
/// seat's move from `game` that raises `count` the most, as the piece that can do it (`by`) and
/// where (`at`): "the horse on c5 can catch the bunny on d4".
pub fn threat_places<G: Game<Action = Move>>(
    game: &G,
    count: impl Fn(&G) -> i32,
) -> Vec<(&'static str, String)> {
    threat(game, count)
        .map(|mv| vec![("by", mv.from.to_string()), ("at", mv.to.to_string())])
        .unwrap_or_default()
}

/// Where the better move went (`to`).
pub fn better_place(best: &[Move]) -> Vec<(&'static str, String)> {
    best.first().map(|mv| vec![("to", mv.to.to_string())]).unwrap_or_default()
}

/// Actions played one after another from `game`, in the text interface's notation.
pub fn actions_text<G: Game>(game: &G, actions: &[G::Action]) -> String {
    let mut game = game.clone();
    let mut texts = Vec::new();
    for action in actions {
        texts.push(game.action_text(action));
        game.play(action);
    }
    texts.join(" ")
}
