//! Where one Halma piece can go: a step to an empty neighbour, or a chain of jumps, each straight
//! over one adjacent piece onto the empty square just beyond. These work on a `Grid16` of occupied
//! squares, so the game, the Robot's search and the screen share them.
//!
//! A jump keeps the parity of both the file and the rank, a step changes one of them: a step and a
//! jump chain never reach the same square, so a move is known by its two ends.

use crate::rules::board::Square;
use crate::rules::grid16::{self, Grid16, JUMPS, NEIGHBOURS};

/// The empty neighbours of the piece on `from`.
#[inline]
pub fn steps(occupied: Grid16, from: u8) -> Grid16 {
    NEIGHBOURS[from as usize] & !occupied
}

/// The landings of one jump from `at` (empty squares beyond an adjacent piece).
#[inline]
pub fn one_jump(occupied: Grid16, at: u8) -> Grid16 {
    let mut landings = Grid16::EMPTY;
    for (over, land) in JUMPS[at as usize].iter() {
        if occupied.contains(over) && !occupied.contains(land) {
            landings.insert(land);
        }
    }
    landings
}

/// Every square a jump chain of the piece on `from` can end on. The piece has left `from`, so
/// it is empty while the piece jumps; no landing may be `from` or a square landed on before.
#[inline]
pub fn jumps(occupied: Grid16, from: u8) -> Grid16 {
    search(occupied, from, |_, _| ())
}

/// Breadth-first over the landings; `visit(landing, came_from)` is told each new landing once.
#[inline]
fn search(mut occupied: Grid16, from: u8, mut visit: impl FnMut(u8, u8)) -> Grid16 {
    occupied.remove(from);
    let mut reached = Grid16::bit(from);
    // A chain keeps the parities of file and rank: at most 64 landings.
    let mut queue = [0u8; 64];
    queue[0] = from;
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let at = queue[head];
        head += 1;
        for (over, land) in JUMPS[at as usize].iter() {
            if !occupied.contains(over) || occupied.contains(land) || reached.contains(land) {
                continue;
            }
            reached.insert(land);
            visit(land, at);
            queue[tail] = land;
            tail += 1;
        }
    }
    reached.remove(from);
    reached
}

/// Every destination of the piece on `from`: its steps and the ends of its jump chains.
#[inline]
pub fn destinations(occupied: Grid16, from: u8) -> Grid16 {
    steps(occupied, from) | jumps(occupied, from)
}

/// Whether the piece on `from` has any move at all.
pub fn can_move(occupied: Grid16, from: u8) -> bool {
    !steps(occupied, from).is_empty() || !one_jump(occupied, from).is_empty()
}

/// The landings, in order and ending with `to`, of one way from `from` to `to`: `[to]` for a
/// step, the fewest jumps for a chain. `None` when `to` is no destination.
pub fn path(occupied: Grid16, from: u8, to: u8) -> Option<Vec<u8>> {
    if steps(occupied, from).contains(to) {
        return Some(vec![to]);
    }
    let mut came_from = [from; 256];
    let reached = search(occupied, from, |land, at| came_from[land as usize] = at);
    if !reached.contains(to) {
        return None;
    }
    let mut landings = vec![to];
    let mut at = to;
    while came_from[at as usize] != from {
        at = came_from[at as usize];
        landings.push(at);
    }
    landings.reverse();
    Some(landings)
}

/// Whether `chain` (the start, then every landing) is a chain of legal jumps: each over an
/// adjacent piece onto the empty square beyond, never landing twice on a square nor on the start.
pub fn is_jump_chain(occupied: Grid16, chain: &[u8]) -> bool {
    let Some((&from, landings)) = chain.split_first() else { return false };
    if landings.is_empty() || !occupied.contains(from) {
        return false;
    }
    let mut board = occupied;
    board.remove(from);
    let mut seen = Grid16::bit(from);
    let mut at = from;
    for &land in landings {
        if seen.contains(land) || !one_jump(board, at).contains(land) {
            return false;
        }
        seen.insert(land);
        at = land;
    }
    true
}

/// The further landings from the end of a partial jump chain (the start, then the landings so
/// far): where a child may extend the chain. Empty after a step, or when the chain cannot go on.
pub fn further_landings(occupied: Grid16, chain: &[u8]) -> Grid16 {
    let Some(&from) = chain.first() else { return Grid16::EMPTY };
    if chain.len() > 1 && !is_jump_chain(occupied, chain) {
        return Grid16::EMPTY;
    }
    let mut board = occupied;
    board.remove(from);
    let mut seen = Grid16::EMPTY;
    for &s in chain {
        seen.insert(s);
    }
    one_jump(board, *chain.last().expect("not empty")) & !seen
}

/// Whether a partial jump chain (the start, then the landings so far) can go on jumping until it
/// lands on one of `targets`, never landing twice on a square nor on its start.
pub fn can_go_on_to(occupied: Grid16, chain: &[u8], targets: Grid16) -> bool {
    let (Some(&from), Some(&end)) = (chain.first(), chain.last()) else { return false };
    let mut board = occupied;
    board.remove(from);
    let mut seen = Grid16::EMPTY;
    for &s in chain {
        seen.insert(s);
    }
    // A search from the end over squares not landed on yet: a square it reaches is reached by a
    // chain that lands on no square twice.
    let mut queue = vec![end];
    while let Some(at) = queue.pop() {
        for land in one_jump(board, at).indices() {
            if seen.contains(land) {
                continue;
            }
            if targets.contains(land) {
                return true;
            }
            seen.insert(land);
            queue.push(land);
        }
    }
    false
}

/// Square names for indices.
pub fn squares(indices: &[u8]) -> Vec<Square> {
    indices.iter().map(|&i| grid16::square(i)).collect()
}
