//! The cube: when the Robot doubles, and when it takes a double.

use super::{strength, win_chance};
use crate::robot::RobotLevel;
use crate::rules::nard::{Nard, Phase};

/// Whether the Robot doubles before its roll.
pub fn wants_to_double(game: &Nard, level: RobotLevel) -> bool {
    let Phase::AwaitingRoll(seat) = *game.phase() else { return false };
    if !game.can_double(seat) {
        return false;
    }
    // With the cube as it is a win already takes the match: doubling only risks more.
    if game.score(seat) + game.cube().value >= game.match_length() {
        return false;
    }
    win_chance(game.board(), seat, seat) >= strength(level).double_at
}

/// Whether the Robot takes the double offered to it.
pub fn takes_double(game: &Nard, level: RobotLevel) -> bool {
    let Some(doubler) = game.double_offered_by() else { return false };
    let me = doubler.opponent();
    // Dropping would lose the match anyway.
    if game.score(doubler) + game.cube().value >= game.match_length() {
        return true;
    }
    win_chance(game.board(), me, doubler) >= strength(level).take_at
}
