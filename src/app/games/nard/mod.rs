//! Crazy Nard on screen: the long-nard board drawn as a backgammon board (two halves of twelve
//! points, the bar between them, each side's home tinted), checkers stacked on their points with
//! a count on a tall stack, borne-off checkers in each side's tray, dice that tumble and settle
//! (greyed as they are played, travelling to the other side when they pass), the cube on the bar.
//! Every decision is asked of `rules::nard`; this file only says where things stand.

use crate::app::board::animate::Glide;
use crate::app::board::view::{BoardLayout, BoardRoot, OnBoard, PIECE_Z};
use crate::app::platform::art::{Art, ArtImages};
use crate::app::platform::settings::Words;
use crate::app::session::game::{BoardAction, Decoration, Exit, Extra, GameInfo, GameView, RoundReport};
use crate::app::session::play::{Change, Play, Playing};
use crate::app::session::play_of::PlayOf;
use crate::rules::board::{BoardShape, Move, Square};
use crate::rules::nard::{
    CheckerMove, DiceSet, Event, Nard, NardAction, Phase, SetKind, Stuck, own_point, white_point,
};
use crate::rules::{Game, Seat};
use bevy::prelude::*;

mod dice;

pub(super) use dice::plugin;
use dice::{DIE_SIZE, Dice, dice_of, die_at, die_colour, opening_tie};

// The board is as short across as a phone allows: on a 360×640 screen held upright (the board
// turned, its points along the long edge) each point is 44 px across. The trays, the dice and
// the owned cube lie in the middle strip, so nothing but the points takes the board's length.

/// A point's length, in checkers.
const POINT_LENGTH: f32 = 3.2;
/// The strip between the two rows of points: the trays, the dice and the cube.
const MIDDLE: f32 = 1.2;
/// The bar between the two halves.
const BAR: f32 = 0.3;
/// From the board's middle line to a row's centre.
const ROW: f32 = (MIDDLE + POINT_LENGTH) / 2.0;
/// From one checker of a stack to the next.
const STEP: f32 = 0.7;
/// Checkers of a point drawn apart; a taller stack shows its count.
const DRAWN: usize = 4;
/// In the middle strip of each half, from the bar outward: the owned cube, the dice, the tray.
const CUBE_SPOT: f32 = BAR / 2.0 + 0.5;
const DICE_SPOT: f32 = BAR / 2.0 + 2.85;
const DICE_LENGTH: f32 = 3.7;
const TRAY_SPOT: f32 = BAR / 2.0 + 5.4;
const TRAY_LENGTH: f32 = 1.2;

/// White's borne-off checkers, at the end of its half (its home's side), and Black's.
const WHITE_TRAY: Square = Square::new(12, 0);
const BLACK_TRAY: Square = Square::new(12, 1);
/// Where each side rolls its dice: the middle strip of its half.
const WHITE_DICE: Square = Square::new(13, 0);
const BLACK_DICE: Square = Square::new(13, 1);

/// A point in squares from the centre of a1, given from the board's middle.
fn from_middle(x: f32, y: f32) -> Vec2 {
    Vec2::new(5.5 + x, 0.5 + y)
}

/// The place of White's point `p`: its 13–24 along the top from left to right (its head top
/// right), its 12–1 along the bottom from left to right (its home bottom right).
fn square_of(p: u8) -> Square {
    if p >= 13 { Square::new(p - 13, 1) } else { Square::new(12 - p, 0) }
}

/// White's point on a place of the board.
fn point_on(square: Square) -> Option<u8> {
    match (square.file, square.rank) {
        (file, 1) if file < 12 => Some(13 + file),
        (file, 0) if file < 12 => Some(12 - file),
        _ => None,
    }
}

fn tray_of(seat: Seat) -> Square {
    if seat == Seat::WHITE { WHITE_TRAY } else { BLACK_TRAY }
}

fn dice_place(seat: Seat) -> Square {
    if seat == Seat::WHITE { WHITE_DICE } else { BLACK_DICE }
}

fn checker(seat: Seat) -> Art {
    if seat == Seat::WHITE { Art::NardWhite } else { Art::NardBlack }
}

/// Whether a place's stack grows downward from the top edge.
fn from_top(square: Square) -> bool {
    square.rank == 1
}

impl Nard {
    /// The player of the dice set in play.
    fn player(&self) -> Option<Seat> {
        self.dice_set().map(|set| set.player)
    }

    /// Where a checker move of the player in play goes on the board.
    fn motion(&self, mv: CheckerMove) -> Option<Move> {
        let seat = self.player()?;
        let to = if mv.is_bear_off() { tray_of(seat) } else { square_of(white_point(seat, mv.to)) };
        Some(Move::new(square_of(white_point(seat, mv.from)), to))
    }

    /// The player's own point on a place, when the player in play has a checker there.
    fn own_checker_on(&self, square: Square) -> Option<u8> {
        let seat = self.player()?;
        let own = own_point(seat, point_on(square)?);
        (self.board().count(seat, own) > 0).then_some(own)
    }

    /// The routes of the checker on `from` to each place it can reach with the numbers left.
    fn routes_on_board(&self, from: Square) -> Vec<Vec<CheckerMove>> {
        self.own_checker_on(from).map(|own| self.routes_from(own)).unwrap_or_default()
    }

    fn route_path(&self, route: &[CheckerMove]) -> Vec<Square> {
        route.iter().filter_map(|mv| self.motion(*mv)).map(|m| m.to).collect()
    }

    /// The seat's name in words: its colour.
    fn colour_name<'a>(&self, seat: Seat, words: &'a Words) -> &'a str {
        words.get(self.seat_label_key(seat))
    }
}

impl BoardAction for NardAction {
    /// A checker move is named in its player's own points: `GameView::motion_of` places it.
    fn motion(&self) -> Option<Move> {
        None
    }
}

/// The words key of each reason a checker cannot move.
fn stuck_key(stuck: Stuck) -> &'static str {
    match stuck {
        Stuck::HomeFrozen => "nard_stuck_home_frozen",
        Stuck::HeadUsed => "nard_stuck_head_used",
        Stuck::ExactBearOff => "nard_stuck_exact_bear_off",
        Stuck::Closed => "nard_stuck_closed",
        Stuck::Prime => "nard_stuck_prime",
        Stuck::PlayOthersFirst => "nard_stuck_play_others_first",
    }
}

/// The chain of a turn that rolled a double, as its steps: each double, whether it is played,
/// and whether it is the one in play.
fn chain_steps(game: &Nard) -> Option<Vec<(u8, bool, bool)>> {
    let start = game.chain_start()?;
    let now = match (game.dice_set(), game.chain_next()) {
        (Some(set), _) if set.kind != SetKind::Passed => set.dealt.as_slice()[0],
        // Passed numbers in between: the chain's next double is still to come.
        (_, Some((_, next))) => next - 1,
        // The chain is over.
        _ => 7,
    };
    let passing = game.dice_set().is_some_and(|s| s.kind == SetKind::Passed);
    Some((start..=6).map(|v| (v, v < now || (v == now && passing), v == now && !passing)).collect())
}

impl GameInfo for Nard {
    const MENU_ART: Art = Art::MenuNard;
    const STAGE_ART: Art = Art::NardWhite;

    fn score(&self, seat: Seat) -> u32 {
        Nard::score(self, seat)
    }

    fn seat_art(&self, seat: Seat) -> Option<Art> {
        Some(checker(seat))
    }

    fn extras(&self, seat: Seat, words: &Words) -> Vec<Extra> {
        let mut extras =
            vec![Extra::Text(words.fill("nard_pips", &[("n", &self.pip_count(seat).to_string())]))];
        if self.borne_off(seat) > 0 {
            extras.push(Extra::Text(words.fill("nard_off", &[("n", &self.borne_off(seat).to_string())])));
        }
        // The seat's dice: its opening die (both, after a tie) or the set it plays.
        if let Some((_, faces)) = dice_of(self).sides.into_iter().find(|(s, _)| *s == seat) {
            extras.push(Extra::Dice(faces));
        }
        if self.dice_set().is_some_and(|s| s.player == seat && s.kind == SetKind::Passed) {
            let from = self.colour_name(seat.opponent(), words);
            extras.push(Extra::Text(words.fill("nard_passed_from", &[("name", from)])));
        }
        if let Some(steps) = chain_steps(self).filter(|_| self.chain_owner() == Some(seat)) {
            let text: Vec<String> = steps
                .iter()
                .map(|&(v, played, now)| {
                    let step = format!("4×{v}");
                    match (played, now) {
                        (true, _) => format!("{step} ✓"),
                        (_, true) => words.fill("nard_chain_now", &[("step", &step)]),
                        _ => step,
                    }
                })
                .collect();
            extras.push(Extra::Text(text.join(" · ")));
        }
        if self.cube_enabled() && self.cube().owner == Some(seat) {
            extras.push(Extra::Text(words.fill("nard_cube_owned", &[("n", &self.cube().value.to_string())])));
        }
        extras
    }

    fn banner(&self, words: &Words) -> Option<String> {
        let mut text = words.fill(
            "nard_match",
            &[("n", &self.match_length().to_string()), ("game", &self.game_number().to_string())],
        );
        if self.is_crawford_game() {
            text = format!("{text} · {}", words.get("nard_crawford"));
        }
        Some(text)
    }

    fn phase_notice(&self, before: &Self, _person: Option<Seat>, words: &Words) -> Option<String> {
        if self.game_number() != before.game_number() {
            return None;
        }
        if let Some(die) = opening_tie(self) {
            return Some(words.fill("nard_opening_tie", &[("n", &die.to_string())]));
        }
        if let (Phase::Opening { white_die: Some(white) }, Some(set)) = (before.phase(), self.dice_set())
            && set.kind == SetKind::Roll
        {
            let black =
                if set.player == Seat::WHITE { set.dealt.as_slice()[1] } else { set.dealt.as_slice()[0] };
            let (white, black) = (white.to_string(), black.to_string());
            let name = self.colour_name(set.player, words);
            return Some(words.fill("nard_starts", &[("name", name), ("white", &white), ("black", &black)]));
        }
        if let (Some(doubler), None) = (before.double_offered_by(), self.double_offered_by()) {
            let taker = self.colour_name(doubler.opponent(), words);
            return Some(words.fill("nard_taken", &[("name", taker), ("n", &self.cube().value.to_string())]));
        }
        // The chain goes back to its owner once the numbers it passed are played.
        let back = before.dice_set().is_some_and(|s| s.kind == SetKind::Passed);
        if let Some(set) = self.dice_set().filter(|s| back && s.kind == SetKind::Chain) {
            let name = self.colour_name(set.player, words);
            let step = format!("4×{}", set.dealt.as_slice()[0]);
            return Some(words.fill("nard_chain_back", &[("name", name), ("step", &step)]));
        }
        None
    }

    fn new_phase(&self, before: &Self) -> bool {
        self.game_number() != before.game_number()
    }

    fn choices(&self) -> Vec<(NardAction, &'static str)> {
        match self.phase() {
            Phase::DoubleOffered(_) => vec![(NardAction::Take, "nard_take"), (NardAction::Drop, "nard_drop")],
            Phase::AwaitingRoll(seat) if self.can_double(*seat) => vec![(NardAction::Double, "nard_double")],
            _ => Vec::new(),
        }
    }

    fn question(&self, words: &Words) -> Option<String> {
        let doubler = self.double_offered_by()?;
        let value = (self.cube().value * 2).to_string();
        Some(words.fill("nard_double_question", &[("name", self.colour_name(doubler, words)), ("n", &value)]))
    }

    fn question_art(&self) -> Art {
        Art::Cube((self.cube().value * 2).trailing_zeros() as u8)
    }

    fn choice_art(&self, choice: &NardAction) -> Option<Art> {
        match choice {
            NardAction::Take => Some(Art::NardTake),
            NardAction::Drop => Some(Art::NardDrop),
            _ => None,
        }
    }

    /// At the opening nobody is to move: White rolls its die, then Black.
    fn actor(&self) -> Option<Seat> {
        match self.phase() {
            Phase::Opening { white_die: None } => Some(Seat::WHITE),
            Phase::Opening { white_die: Some(_) } => Some(Seat::BLACK),
            _ => self.to_move(),
        }
    }

    /// Not in the middle of a dice set: undo goes back to where a set began.
    fn undo_stop(&self) -> bool {
        self.dice_set().is_none_or(|set| set.moves.is_empty())
    }

    fn why_stuck(&self, square: Square) -> Option<&'static str> {
        self.own_checker_on(square).and_then(|own| Nard::why_stuck(self, own)).map(stuck_key)
    }

    /// A point by its number as the player to move counts it (24 their head, 1 the last).
    fn place_name(&self, square: Square) -> String {
        let Some(point) = point_on(square) else { return String::new() };
        let own = if self.to_move() == Some(Seat::BLACK) { 25 - point } else { point };
        own.to_string()
    }

    fn round_over(&self, before: &Self, _person: Option<Seat>, words: &Words) -> Option<RoundReport> {
        if self.game_number() == before.game_number() || self.outcome().is_some() {
            return None;
        }
        let result = self.last_game()?;
        let number = result.game_number.to_string();
        let Some(winner) = result.winner else {
            return Some(RoundReport {
                title: words.fill("nard_game_drawn", &[("game", &number)]),
                lines: vec![words.get("nard_result_draw").to_string()],
                winner: None,
            });
        };
        let name = self.colour_name(winner, words);
        let points = result.points.to_string();
        let mut lines =
            vec![words.fill(&format!("nard_result_{}", result.kind.key()), &[("points", &points)])];
        if result.cube > 1 {
            lines.push(words.fill("nard_result_cube", &[("n", &result.cube.to_string())]));
        }
        let score = format!("{} – {}", Nard::score(self, Seat::WHITE), Nard::score(self, Seat::BLACK));
        lines.push(words.fill("nard_result_score", &[("score", &score)]));
        if self.is_crawford_game() {
            lines.push(words.get("nard_crawford").to_string());
        }
        Some(RoundReport {
            title: words.fill("nard_game_won", &[("name", name), ("game", &number)]),
            lines,
            winner: Some(winner),
        })
    }
}

impl Nard {
    /// Whose doubles chain is under way.
    fn chain_owner(&self) -> Option<Seat> {
        self.chain_start()?;
        match (self.chain_next(), self.dice_set()) {
            (Some((owner, _)), _) => Some(owner),
            (None, Some(set)) if set.kind != SetKind::Passed => Some(set.player),
            (None, Some(set)) => Some(set.player.opponent()),
            _ => None,
        }
    }
}

/// The dice of a set: each number and whether it is played.
fn dice_faces(set: &DiceSet) -> Vec<(u8, bool)> {
    let mut left = set.left;
    set.dealt
        .as_slice()
        .iter()
        .map(|&value| {
            let still = left.contains(value);
            if still {
                left = left.without(value);
            }
            (value, !still)
        })
        .collect()
}

impl GameView for Nard {
    const HAS_TRAYS: bool = false;
    const DRAFTS: bool = true;
    const SHOW_MOVABLE: bool = true;
    const LONG: bool = true;

    fn motion_of(&self, action: &NardAction) -> Option<Move> {
        match action {
            NardAction::Move(mv) => self.motion(*mv),
            _ => None,
        }
    }

    fn draft_open(&self, start: &Self) -> bool {
        let serial = |game: &Nard| game.dice_set().map(|set| set.serial);
        self.outcome().is_none() && serial(start).is_some() && serial(self) == serial(start)
    }

    fn shape(&self) -> BoardShape {
        BoardShape { files: 12, ranks: 2 }
    }

    fn pieces(&self) -> Vec<(Square, Art)> {
        let board = self.board();
        let mut pieces = Vec::new();
        for p in 1..=24u8 {
            if let Some((seat, count)) = board.at_white_point(p) {
                pieces.extend(std::iter::repeat_n((square_of(p), checker(seat)), count as usize));
            }
        }
        for seat in [Seat::WHITE, Seat::BLACK] {
            pieces
                .extend(std::iter::repeat_n((tray_of(seat), checker(seat)), board.borne_off(seat) as usize));
        }
        pieces
    }

    fn tray(&self, _seat: Seat) -> Vec<Art> {
        Vec::new()
    }

    fn exit(&self, _square: Square, _art: Art, _mover: Seat) -> Exit {
        Exit::Vanish
    }

    fn movable(&self, square: Square) -> bool {
        self.own_checker_on(square).is_some_and(|own| self.movable_points().contains(&own))
    }

    fn targets(&self, from: Square) -> Vec<Square> {
        self.target_paths(from).iter().filter_map(|path| path.last().copied()).collect()
    }

    fn target_paths(&self, from: Square) -> Vec<Vec<Square>> {
        self.routes_on_board(from).iter().map(|route| self.route_path(route)).collect()
    }

    fn path_of(&self, action: &NardAction) -> Vec<Square> {
        self.motion_of(action).map(|m| vec![m.to]).unwrap_or_default()
    }

    fn route_between(&self, from: Square, to: Square) -> Vec<NardAction> {
        self.routes_on_board(from)
            .into_iter()
            .find(|route| self.route_path(route).last() == Some(&to))
            .map(|route| route.into_iter().map(NardAction::Move).collect())
            .unwrap_or_default()
    }

    fn target_labels(&self, from: Square, path: &[Square]) -> Vec<Art> {
        self.routes_on_board(from)
            .into_iter()
            .find(|route| self.route_path(route) == path)
            .map(|route| route.iter().map(|mv| Art::Die(mv.die())).collect())
            .unwrap_or_default()
    }

    fn rolls_dice_at(&self, square: Square) -> bool {
        square == WHITE_DICE || square == BLACK_DICE
    }

    /// From one row to the other a checker goes round the board's end: White's at the left
    /// (its 13 to its 12), Black's at the right (White's 1 to White's 24).
    fn corners_between(&self, from: Square, to: Square) -> Vec<Square> {
        let (Some(from_point), Some(to_point)) = (point_on(from), point_on(to)) else { return Vec::new() };
        let corners = match (from_point >= 13, to_point >= 13) {
            (true, false) => [square_of(13), square_of(12)],
            (false, true) => [square_of(1), square_of(24)],
            _ => return Vec::new(),
        };
        corners.into_iter().filter(|corner| *corner != from && *corner != to).collect()
    }

    fn place_at(&self, square: Square) -> Vec2 {
        match square {
            WHITE_TRAY => from_middle(TRAY_SPOT, 0.0),
            BLACK_TRAY => from_middle(-TRAY_SPOT, 0.0),
            WHITE_DICE => from_middle(DICE_SPOT, 0.0),
            BLACK_DICE => from_middle(-DICE_SPOT, 0.0),
            _ => {
                let side = if square.file >= 6 { BAR / 2.0 } else { -BAR / 2.0 };
                let y = if from_top(square) { ROW } else { -ROW };
                from_middle(square.file as f32 - 5.5 + side, y)
            }
        }
    }

    fn zones(&self) -> Vec<Square> {
        vec![WHITE_TRAY, BLACK_TRAY, WHITE_DICE, BLACK_DICE]
    }

    fn cell_size(&self, square: Square) -> Vec2 {
        match square {
            WHITE_DICE | BLACK_DICE => Vec2::new(DICE_LENGTH, MIDDLE),
            WHITE_TRAY | BLACK_TRAY => Vec2::new(TRAY_LENGTH, MIDDLE),
            _ => Vec2::new(1.0, POINT_LENGTH),
        }
    }

    /// A point's stack starts at its outer end; a tray's pile at its outer end too, toward the bar.
    fn stack_start(&self, square: Square) -> Vec2 {
        match square {
            WHITE_TRAY => Vec2::new(0.2, 0.0),
            BLACK_TRAY => Vec2::new(-0.2, 0.0),
            _ => {
                let edge = POINT_LENGTH / 2.0 - 0.5;
                Vec2::new(0.0, if from_top(square) { edge } else { -edge })
            }
        }
    }

    fn stack_step_at(&self, square: Square) -> Vec2 {
        match square {
            WHITE_TRAY => Vec2::new(-0.2, 0.0),
            BLACK_TRAY => Vec2::new(0.2, 0.0),
            _ => Vec2::new(0.0, if from_top(square) { -STEP } else { STEP }),
        }
    }

    fn stack_drawn(&self, square: Square) -> usize {
        if matches!(square, WHITE_TRAY | BLACK_TRAY) { 2 } else { DRAWN }
    }

    fn count_art(&self, height: usize) -> Option<Art> {
        Some(Art::Count(height.min(15) as u8))
    }

    fn square_colour(&self, square: Square) -> Color {
        let felt = Color::srgb(0.20, 0.44, 0.33);
        match (square, point_on(square)) {
            (WHITE_TRAY | BLACK_TRAY, _) => Color::srgb(0.33, 0.21, 0.12),
            // Each side's home is tinted: White's 1–6, Black's (White's 13–18).
            (_, Some(1..=6)) => felt.mix(&Color::srgb(0.95, 0.92, 0.8), 0.22),
            (_, Some(13..=18)) => felt.mix(&Color::srgb(0.1, 0.08, 0.06), 0.3),
            _ => felt,
        }
    }

    fn decorations(&self) -> Vec<Decoration> {
        self.shape()
            .squares()
            .map(|square| {
                let light = (square.file + square.rank) % 2 == 0;
                Decoration {
                    art: Art::NardPoint,
                    at: self.place_at(square),
                    size: Vec2::new(0.94, POINT_LENGTH - 0.1),
                    colour: if light { Color::srgb(0.93, 0.85, 0.68) } else { Color::srgb(0.72, 0.26, 0.19) },
                    angle: Some(if from_top(square) { std::f32::consts::PI } else { 0.0 }),
                }
            })
            .collect()
    }

    fn pictures(&self) -> Vec<Decoration> {
        let Dice { sides, cup } = dice_of(self);
        let mut pictures = Vec::new();
        for (seat, faces) in sides {
            let centre = self.place_at(dice_place(seat));
            pictures.extend(faces.iter().enumerate().map(|(i, &(value, played))| Decoration {
                colour: die_colour(played),
                ..Decoration::new(Art::Die(value), die_at(centre, i, faces.len()), DIE_SIZE)
            }));
        }
        if let Some(seat) = cup.filter(|_| self.outcome().is_none()) {
            pictures.push(Decoration::new(Art::DiceCup, self.place_at(dice_place(seat)), 1.1));
        }
        pictures
    }
}
