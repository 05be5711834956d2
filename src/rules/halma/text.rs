//! Halma through text: moves written as square names (`c3c4`, `c3g7`, the exact chain `c3e5g5`;
//! dashes between squares are allowed), `offer_draw`, `accept_draw`, `refuse_draw`.

use super::{Halma, HalmaAction};
use crate::rules::board::{BoardShape, Square};
use crate::rules::{Game, RuleError, Seat};
use serde_json::{Map, Value, json};

pub const OFFER_DRAW: &str = "offer_draw";
pub const ACCEPT_DRAW: &str = "accept_draw";
pub const REFUSE_DRAW: &str = "refuse_draw";

pub(super) fn action_text(action: &HalmaAction) -> String {
    match action {
        HalmaAction::Move { from, to } => format!("{from}{to}"),
        HalmaAction::ProposeDraw => OFFER_DRAW.into(),
        HalmaAction::Vote(true) => ACCEPT_DRAW.into(),
        HalmaAction::Vote(false) => REFUSE_DRAW.into(),
    }
}

/// Square names one after the other, such as `c3e5g5` or `c3-e5-g5`.
pub fn parse_squares(text: &str) -> Option<Vec<Square>> {
    let text: String = text.chars().filter(|&c| c != '-' && !c.is_whitespace()).collect();
    let mut squares = Vec::new();
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let end =
            rest.char_indices().skip(1).find(|(_, c)| c.is_ascii_alphabetic()).map_or(rest.len(), |x| x.0);
        squares.push(BoardShape::HALMA.parse(&rest[..end]).ok()?);
        rest = &rest[end..];
    }
    Some(squares)
}

pub(super) fn parse_action(game: &Halma, input: &str) -> Result<HalmaAction, RuleError> {
    let text = input.trim().to_ascii_lowercase();
    match text.as_str() {
        OFFER_DRAW | "draw" => return Ok(HalmaAction::ProposeDraw),
        ACCEPT_DRAW | "yes" => return Ok(HalmaAction::Vote(true)),
        REFUSE_DRAW | "no" => return Ok(HalmaAction::Vote(false)),
        _ => {}
    }
    let squares = parse_squares(&text).ok_or_else(|| RuleError::Unreadable(input.to_string()))?;
    match squares.as_slice() {
        [from, to] => Ok(HalmaAction::Move { from: *from, to: *to }),
        [from, .., to] => {
            if game.is_jump_chain(&squares) {
                Ok(HalmaAction::Move { from: *from, to: *to })
            } else {
                Err(RuleError::Illegal(format!("{} is not a chain of legal jumps now", input.trim())))
            }
        }
        _ => Err(RuleError::Unreadable(input.to_string())),
    }
}

pub(super) fn state_fields(game: &Halma) -> Map<String, Value> {
    let name = |s: Seat| game.seat_name(s);
    let per_seat = |f: &dyn Fn(Seat) -> Value| -> Value {
        Value::Object(game.seats().map(|s| (name(s).to_string(), f(s))).collect())
    };
    let sorted = |squares: Vec<Square>| {
        let mut names: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
        names.sort();
        json!(names)
    };
    let picture: Vec<String> = (0..16u8)
        .rev()
        .map(|rank| {
            (0..16u8)
                .map(|file| match game.piece_at(Square::new(file, rank)) {
                    Some(seat) => char::from(b'1' + seat.0),
                    None => '.',
                })
                .collect()
        })
        .collect();
    let mut fields = Map::new();
    fields.insert("game".into(), json!("halma"));
    fields.insert("mode".into(), json!(game.mode().key()));
    fields.insert("seats".into(), json!(game.seats().map(name).collect::<Vec<_>>()));
    fields.insert("board".into(), per_seat(&|s| sorted(game.pieces(s).collect())));
    fields.insert("in_goal".into(), per_seat(&|s| json!(game.in_goal(s))));
    fields.insert("goal_size".into(), per_seat(&|s| json!(game.goal_grid(s).count())));
    fields.insert("goal_corner".into(), per_seat(&|s| json!(game.goal_corner(s).name())));
    fields.insert("partner".into(), per_seat(&|s| json!(game.partner(s).map(name))));
    fields.insert("moves_pieces_of".into(), per_seat(&|s| json!(name(game.army_of(s)))));
    fields.insert(
        "finished".into(),
        json!(game.seats().filter(|&s| game.has_finished(s)).map(name).collect::<Vec<_>>()),
    );
    fields.insert("turn".into(), json!(game.turn().map(name)));
    fields.insert(
        "draw_proposal".into(),
        match game.vote() {
            Some(vote) => json!({ "by": name(vote.proposer), "voter": name(vote.voter) }),
            None => Value::Null,
        },
    );
    fields.insert("may_offer_draw".into(), json!(game.may_propose()));
    fields.insert("passed".into(), json!(game.passed().into_iter().map(name).collect::<Vec<_>>()));
    fields.insert("last_move".into(), json!(game.last_move().map(|(f, t)| format!("{f}{t}"))));
    fields.insert("plies".into(), json!(game.plies()));
    fields.insert("moves_made".into(), per_seat(&|s| json!(game.moves_made(s))));
    fields.insert("clear_camp_after".into(), json!(game.clear_camp_after()));
    fields.insert("picture".into(), json!(picture));
    fields
}
