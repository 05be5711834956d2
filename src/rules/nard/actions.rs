//! Crazy Nard as a `Game`: the actions, who acts, the dice that are due, and the text form.

use super::{CheckerMove, Event, Nard, Phase};
use crate::rules::{EndReason, Game, Outcome, RuleError, Seat, per_seat, white_or_black};
use serde_json::{Map, Value, json};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NardAction {
    /// One opening die: White's first, then Black's (`roll D`).
    OpeningDie(u8),
    /// An ordinary roll, higher die first (`roll D D`).
    Roll(u8, u8),
    Move(CheckerMove),
    Double,
    Take,
    Drop,
}

impl NardAction {
    pub fn roll(a: u8, b: u8) -> NardAction {
        NardAction::Roll(a.max(b), a.min(b))
    }
}

impl Nard {
    pub(super) fn refusal(&self, action: &NardAction) -> RuleError {
        let why = match (&self.phase, action) {
            (Phase::Opening { .. }, NardAction::Roll(..)) => {
                "the opening is one die each: roll D (White's die first, then Black's)".to_string()
            }
            (Phase::Opening { .. }, _) => "the opening dice are due: roll D".to_string(),
            (Phase::AwaitingRoll(_), NardAction::OpeningDie(_)) => {
                "an ordinary roll is two dice: roll D D".to_string()
            }
            (Phase::AwaitingRoll(_), NardAction::Double) => "the cube cannot be turned now".to_string(),
            (Phase::AwaitingRoll(_), _) => "the dice are due: roll D D".to_string(),
            (Phase::DoubleOffered(_), _) => "a double was offered: take or drop".to_string(),
            (Phase::Playing(set), NardAction::Move(mv)) => {
                format!("{mv} is not a legal move with {} now", set.left)
            }
            (Phase::Playing(set), _) => format!("the numbers {} are still to play", set.left),
            (Phase::MatchOver, _) => "the match is over".to_string(),
        };
        RuleError::Illegal(why)
    }
}

impl Game for Nard {
    type Action = NardAction;
    const KIND: crate::rules::GameKind = crate::rules::GameKind::Nard;

    fn seat_count(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<Seat> {
        match &self.phase {
            Phase::Opening { .. } | Phase::MatchOver => None,
            Phase::AwaitingRoll(seat) => Some(*seat),
            Phase::DoubleOffered(doubler) => Some(doubler.opponent()),
            Phase::Playing(set) => Some(set.player),
        }
    }

    /// Checker moves, or the cube actions. Rolls are never listed: they come from `chance`.
    fn legal_actions(&self) -> Vec<NardAction> {
        match &self.phase {
            Phase::AwaitingRoll(seat) if self.can_double(*seat) => vec![NardAction::Double],
            Phase::DoubleOffered(_) => vec![NardAction::Take, NardAction::Drop],
            Phase::Playing(_) => self.legal_moves().into_iter().map(NardAction::Move).collect(),
            _ => Vec::new(),
        }
    }

    fn play(&mut self, action: &NardAction) {
        self.events.clear();
        match *action {
            NardAction::OpeningDie(die) => self.play_opening_die(die),
            NardAction::Roll(a, b) => self.play_roll(a, b),
            NardAction::Move(mv) => self.play_move(mv),
            NardAction::Double => self.double(),
            NardAction::Take => self.take(),
            NardAction::Drop => self.drop_double(),
        }
    }

    fn apply(&mut self, action: &NardAction) -> Result<(), RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        let fits = match (&self.phase, action) {
            (Phase::Opening { .. }, NardAction::OpeningDie(d)) => (1..=6).contains(d),
            (Phase::AwaitingRoll(_), NardAction::Roll(a, b)) => (1..=6).contains(a) && (1..=6).contains(b),
            _ => self.legal_actions().contains(action),
        };
        if !fits {
            return Err(self.refusal(action));
        }
        self.play(action);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn time_out(&mut self, seat: Seat) {
        if self.outcome.is_none() {
            self.outcome = Some(Outcome::win(seat.opponent(), EndReason::OutOfTime));
            self.phase = Phase::MatchOver;
        }
    }

    /// Seats whose numbers passed to the opponent after the last action.
    fn passed(&self) -> Vec<Seat> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::NumbersPassed { from, .. } => Some(*from),
                _ => None,
            })
            .collect()
    }

    fn chance(&self) -> Option<Vec<(NardAction, f64)>> {
        match self.phase {
            Phase::Opening { .. } => Some((1..=6).map(|d| (NardAction::OpeningDie(d), 1.0 / 6.0)).collect()),
            Phase::AwaitingRoll(_) => {
                let mut rolls = Vec::with_capacity(21);
                for a in (1..=6).rev() {
                    for b in (1..=a).rev() {
                        let p = if a == b { 1.0 / 36.0 } else { 2.0 / 36.0 };
                        rolls.push((NardAction::Roll(a, b), p));
                    }
                }
                Some(rolls)
            }
            _ => None,
        }
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        white_or_black(seat)
    }

    fn action_text(&self, action: &NardAction) -> String {
        match action {
            NardAction::OpeningDie(d) => format!("roll {d}"),
            NardAction::Roll(a, b) => format!("roll {a} {b}"),
            NardAction::Move(mv) => mv.to_string(),
            NardAction::Double => "double".into(),
            NardAction::Take => "take".into(),
            NardAction::Drop => "drop".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<NardAction, RuleError> {
        let unreadable = || RuleError::Unreadable(text.to_string());
        let words: Vec<&str> = text.split_whitespace().collect();
        let die = |word: &str| word.parse::<u8>().ok().filter(|d| (1..=6).contains(d));
        match words.as_slice() {
            ["roll", d] => die(d).map(NardAction::OpeningDie).ok_or_else(unreadable),
            ["roll", a, b] => match (die(a), die(b)) {
                (Some(a), Some(b)) => Ok(NardAction::roll(a, b)),
                _ => Err(unreadable()),
            },
            ["double"] => Ok(NardAction::Double),
            ["take"] => Ok(NardAction::Take),
            ["drop"] => Ok(NardAction::Drop),
            [word] => CheckerMove::parse(word).map(NardAction::Move).ok_or_else(unreadable),
            _ => Err(unreadable()),
        }
    }

    fn state_fields(&self) -> Map<String, Value> {
        let dice = self.dice_set().map(|set| {
            json!({
                "player": white_or_black(set.player),
                "kind": set.kind.key(),
                "to_play": set.left.as_slice(),
                "dealt": set.dealt.as_slice(),
                "moves": set.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            })
        });
        let last_game = self.last_game.map(|g| {
            json!({
                "game": g.game_number,
                "winner": g.winner.map(white_or_black),
                "kind": g.kind.key(),
                "points": g.points,
            })
        });
        let mut fields = Map::new();
        fields.insert("game".into(), json!("nard"));
        fields.insert("awaiting_roll".into(), json!(self.awaiting_roll()));
        fields.insert("board".into(), json!(self.board.white_view().to_vec()));
        fields.insert("borne_off".into(), per_seat(|s| json!(self.board.borne_off(s))));
        fields.insert("pips".into(), per_seat(|s| json!(self.board.pip_count(s))));
        fields.insert("dice".into(), json!(dice));
        fields.insert("opening_white_die".into(), json!(self.opening_white_die()));
        fields.insert(
            "chain_next".into(),
            json!(self.chain.map(|(s, v)| json!({"player": white_or_black(s), "double": v}))),
        );
        fields.insert(
            "cube".into(),
            json!({
                "enabled": self.cube_enabled && !self.crawford_game,
                "value": self.cube.value,
                "owner": self.cube.owner.map(white_or_black),
                "offered_by": self.double_offered_by().map(white_or_black),
            }),
        );
        fields.insert("match_length".into(), json!(self.match_length));
        fields.insert("score".into(), per_seat(|s| json!(self.score(s))));
        fields.insert("game_number".into(), json!(self.game_number));
        fields.insert("last_game".into(), json!(last_game));
        fields.insert("crawford".into(), json!(self.crawford_game));
        fields.insert("head_rule".into(), json!(self.head_rule.key()));
        fields
    }
}
