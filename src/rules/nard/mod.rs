//! Crazy Nard: long-nard backgammon where a rolled double sets off a chain of every higher double and
//! the numbers a player cannot play pass to the opponent (spec/nard.md).
//!
//! Each player counts its own points 24 → 1: its head is its 24, its home its 1–6. Black's point q is
//! White's point `other_side(q)`. A `Nard` value is a whole match: games follow one another by
//! themselves, and `outcome` is the match's.
//!
//! The flow of a turn, as `Phase` values: dice are due (`Opening`, then `AwaitingRoll` where the roller
//! may also double), a `DoubleOffered` waits for take or drop, and `Playing` holds the dice set in play
//! (a rolled pair or double, one step of a doubles chain, or numbers passed by the opponent). Whatever
//! needs no decision (passing unplayable numbers, losing them, the next chain step, the next game)
//! happens inside `play`, and `events` tells what it was.
//!
//! In the text interface `legal` lists checker moves (`24/21`, `3/off`) and cube actions
//! (`double`, `take`, `drop`), never rolls: while `awaiting_roll` is true the dice are played as
//! `roll D` (the opening, White's die first, then Black's) or `roll D D`, with values from outside.
//!
//! The files, one concept each: `board` (points and the position), `plays` (legal moves and whole
//! plays), `dice` (dice sets and the flow between them), `game` (the match and its turn machine),
//! `cube` (doubling), `actions` (the `Game` interface and text form), `draft` (trying moves out),
//! `stuck` (why a checker cannot move).

mod actions;
mod board;
mod cube;
mod dice;
mod draft;
mod game;
mod plays;
mod stuck;

pub use actions::*;
pub use board::*;
pub use cube::*;
pub use dice::*;
pub use draft::*;
pub use game::*;
pub use plays::*;
pub use stuck::*;
