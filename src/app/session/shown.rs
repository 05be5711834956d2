//! A game state as the game screen sees it, whatever its game: `Shown` asks it what the rules and the
//! game's view file say (its seats, its pieces and places, its words) without naming its type,
//! so every system of the game screen exists once for all five games. It is implemented once, for every
//! `AppGame`, by forwarding to the game's own traits.

use super::game::{AppGame, Decoration, Exit, Extra, RoundReport};
use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::rules::board::{BoardShape, Square};
use crate::rules::{GameKind, Outcome, Seat};
use bevy::prelude::*;
use std::any::Any;

/// How a game stands on the board and is played there: the constants of its `GameView`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Manner {
    pub has_trays: bool,
    pub confirm_moves: bool,
    pub hops: bool,
    pub drafts: bool,
    pub show_movable: bool,
    pub long: bool,
    pub show_score: bool,
}

/// A game state of any of Tabla's games (see the module's words).
pub trait Shown: Send + Sync + 'static {
    fn kind(&self) -> GameKind;
    fn manner(&self) -> Manner;
    fn as_any(&self) -> &dyn Any;
    fn boxed(&self) -> Box<dyn Shown>;

    // The rules.
    fn seat_count(&self) -> usize;
    fn to_move(&self) -> Option<Seat>;
    fn actor(&self) -> Option<Seat>;
    fn outcome(&self) -> Option<Outcome>;
    fn passed(&self) -> Vec<Seat>;
    /// Dice are due.
    fn chance_due(&self) -> bool;
    fn seat_name(&self, seat: Seat) -> &'static str;

    // What it tells (`GameInfo`).
    fn seat_label_key(&self, seat: Seat) -> &'static str;
    fn score(&self, seat: Seat) -> u32;
    fn extras(&self, seat: Seat, words: &Words) -> Vec<Extra>;
    fn banner(&self, words: &Words) -> Option<String>;
    fn phase_notice(&self, before: &dyn Shown, person: Option<Seat>, words: &Words) -> Option<String>;
    fn new_phase(&self, before: &dyn Shown) -> bool;
    fn seat_art(&self, seat: Seat) -> Option<Art>;
    fn partner_of(&self, seat: Seat) -> Option<Seat>;
    /// The words keys of the button actions now, in order.
    fn choice_keys(&self) -> Vec<&'static str>;
    /// The picture of each button action in the question's dialog.
    fn choice_arts(&self) -> Vec<Option<Art>>;
    fn question(&self, words: &Words) -> Option<String>;
    fn question_art(&self) -> Art;
    /// New game gives the first turn to the next seat.
    fn passes_first(&self) -> bool;
    fn undo_stop(&self) -> bool;
    fn why_stuck(&self, square: Square) -> Option<&'static str>;
    fn place_name(&self, square: Square) -> String;
    fn round_over(&self, before: &dyn Shown, person: Option<Seat>, words: &Words) -> Option<RoundReport>;

    // How it stands on the board (`GameView`).
    fn shape(&self) -> BoardShape;
    fn pieces(&self) -> Vec<(Square, Art)>;
    fn tray(&self, seat: Seat) -> Vec<Art>;
    fn tray_on_far_side(&self, seat: Seat) -> bool;
    fn exit(&self, square: Square, art: Art, mover: Seat) -> Exit;
    fn targets(&self, from: Square) -> Vec<Square>;
    fn target_paths(&self, from: Square) -> Vec<Vec<Square>>;
    fn target_labels(&self, from: Square, path: &[Square]) -> Vec<Art>;
    fn further(&self, from: Square, path: &[Square]) -> Vec<Square>;
    fn movable(&self, square: Square) -> bool;
    fn rolls_dice_at(&self, square: Square) -> bool;
    fn place_at(&self, square: Square) -> Vec2;
    fn zones(&self) -> Vec<Square>;
    fn cell_size(&self, square: Square) -> Vec2;
    fn stack_step_at(&self, square: Square) -> Vec2;
    fn stack_start(&self, square: Square) -> Vec2;
    fn stack_drawn(&self, square: Square) -> usize;
    fn count_art(&self, height: usize) -> Option<Art>;
    fn flipped(&self, person: Option<Seat>) -> bool;
    fn square_colour(&self, square: Square) -> Color;
    fn corners_between(&self, from: Square, to: Square) -> Vec<Square>;
    fn decorations(&self) -> Vec<Decoration>;
    fn pictures(&self) -> Vec<Decoration>;
    /// While drafting: whether moves may still follow those played since `start`.
    fn draft_open(&self, start: &dyn Shown) -> bool;
    /// The path previewed for the move from `from` to `to`, when it is legal.
    fn path_between(&self, from: Square, to: Square) -> Option<Vec<Square>>;
}

impl dyn Shown {
    /// The state as its own game's type, when it is of that game.
    pub fn of<G: AppGame>(&self) -> Option<&G> {
        self.as_any().downcast_ref::<G>()
    }
}

impl<G: AppGame> Shown for G {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn manner(&self) -> Manner {
        Manner {
            has_trays: G::HAS_TRAYS,
            confirm_moves: G::CONFIRM_MOVES,
            hops: G::HOPS,
            drafts: G::DRAFTS,
            show_movable: G::SHOW_MOVABLE,
            long: G::LONG,
            show_score: G::SHOW_SCORE,
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn boxed(&self) -> Box<dyn Shown> {
        Box::new(self.clone())
    }

    fn seat_count(&self) -> usize {
        crate::rules::Game::seat_count(self)
    }

    fn to_move(&self) -> Option<Seat> {
        crate::rules::Game::to_move(self)
    }

    fn actor(&self) -> Option<Seat> {
        super::game::GameInfo::actor(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        crate::rules::Game::outcome(self)
    }

    fn passed(&self) -> Vec<Seat> {
        crate::rules::Game::passed(self)
    }

    fn chance_due(&self) -> bool {
        self.chance().is_some()
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        crate::rules::Game::seat_name(self, seat)
    }

    fn seat_label_key(&self, seat: Seat) -> &'static str {
        super::game::GameInfo::seat_label_key(self, seat)
    }

    fn score(&self, seat: Seat) -> u32 {
        super::game::GameInfo::score(self, seat)
    }

    fn extras(&self, seat: Seat, words: &Words) -> Vec<Extra> {
        super::game::GameInfo::extras(self, seat, words)
    }

    fn banner(&self, words: &Words) -> Option<String> {
        super::game::GameInfo::banner(self, words)
    }

    fn phase_notice(&self, before: &dyn Shown, person: Option<Seat>, words: &Words) -> Option<String> {
        before.of::<G>().and_then(|before| super::game::GameInfo::phase_notice(self, before, person, words))
    }

    fn new_phase(&self, before: &dyn Shown) -> bool {
        before.of::<G>().is_some_and(|before| super::game::GameInfo::new_phase(self, before))
    }

    fn seat_art(&self, seat: Seat) -> Option<Art> {
        super::game::GameInfo::seat_art(self, seat)
    }

    fn partner_of(&self, seat: Seat) -> Option<Seat> {
        super::game::GameInfo::partner_of(self, seat)
    }

    fn choice_keys(&self) -> Vec<&'static str> {
        self.choices().into_iter().map(|(_, key)| key).collect()
    }

    fn choice_arts(&self) -> Vec<Option<Art>> {
        self.choices().iter().map(|(action, _)| self.choice_art(action)).collect()
    }

    fn question(&self, words: &Words) -> Option<String> {
        super::game::GameInfo::question(self, words)
    }

    fn question_art(&self) -> Art {
        super::game::GameInfo::question_art(self)
    }

    fn passes_first(&self) -> bool {
        self.next_first().is_some()
    }

    fn undo_stop(&self) -> bool {
        super::game::GameInfo::undo_stop(self)
    }

    fn why_stuck(&self, square: Square) -> Option<&'static str> {
        super::game::GameInfo::why_stuck(self, square)
    }

    fn place_name(&self, square: Square) -> String {
        super::game::GameInfo::place_name(self, square)
    }

    fn round_over(&self, before: &dyn Shown, person: Option<Seat>, words: &Words) -> Option<RoundReport> {
        before.of::<G>().and_then(|before| super::game::GameInfo::round_over(self, before, person, words))
    }

    fn shape(&self) -> BoardShape {
        super::game::GameView::shape(self)
    }

    fn pieces(&self) -> Vec<(Square, Art)> {
        super::game::GameView::pieces(self)
    }

    fn tray(&self, seat: Seat) -> Vec<Art> {
        super::game::GameView::tray(self, seat)
    }

    fn tray_on_far_side(&self, seat: Seat) -> bool {
        super::game::GameView::tray_on_far_side(self, seat)
    }

    fn exit(&self, square: Square, art: Art, mover: Seat) -> Exit {
        super::game::GameView::exit(self, square, art, mover)
    }

    fn targets(&self, from: Square) -> Vec<Square> {
        super::game::GameView::targets(self, from)
    }

    fn target_paths(&self, from: Square) -> Vec<Vec<Square>> {
        super::game::GameView::target_paths(self, from)
    }

    fn target_labels(&self, from: Square, path: &[Square]) -> Vec<Art> {
        super::game::GameView::target_labels(self, from, path)
    }

    fn further(&self, from: Square, path: &[Square]) -> Vec<Square> {
        super::game::GameView::further(self, from, path)
    }

    fn movable(&self, square: Square) -> bool {
        super::game::GameView::movable(self, square)
    }

    fn rolls_dice_at(&self, square: Square) -> bool {
        super::game::GameView::rolls_dice_at(self, square)
    }

    fn place_at(&self, square: Square) -> Vec2 {
        super::game::GameView::place_at(self, square)
    }

    fn zones(&self) -> Vec<Square> {
        super::game::GameView::zones(self)
    }

    fn cell_size(&self, square: Square) -> Vec2 {
        super::game::GameView::cell_size(self, square)
    }

    fn stack_step_at(&self, square: Square) -> Vec2 {
        super::game::GameView::stack_step_at(self, square)
    }

    fn stack_start(&self, square: Square) -> Vec2 {
        super::game::GameView::stack_start(self, square)
    }

    fn stack_drawn(&self, square: Square) -> usize {
        super::game::GameView::stack_drawn(self, square)
    }

    fn count_art(&self, height: usize) -> Option<Art> {
        super::game::GameView::count_art(self, height)
    }

    fn flipped(&self, person: Option<Seat>) -> bool {
        super::game::GameView::flipped(self, person)
    }

    fn square_colour(&self, square: Square) -> Color {
        super::game::GameView::square_colour(self, square)
    }

    fn corners_between(&self, from: Square, to: Square) -> Vec<Square> {
        super::game::GameView::corners_between(self, from, to)
    }

    fn decorations(&self) -> Vec<Decoration> {
        super::game::GameView::decorations(self)
    }

    fn pictures(&self) -> Vec<Decoration> {
        super::game::GameView::pictures(self)
    }

    fn draft_open(&self, start: &dyn Shown) -> bool {
        start.of::<G>().is_some_and(|start| super::game::GameView::draft_open(self, start))
    }

    fn path_between(&self, from: Square, to: Square) -> Option<Vec<Square>> {
        let action = super::game::GameView::action_between(self, from, to)?;
        Some(super::game::GameView::path_of(self, &action))
    }
}
