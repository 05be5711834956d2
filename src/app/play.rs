//! The game being played, as the screens see it: its history, who plays each seat, and the last
//! change for the board's animation. Every decision is the rules'; this keeps the history.

use super::game::{AppGame, BoardAction};
use super::settings::Words;
use super::{Control, MatchSetup};
use crate::history::History;
use crate::robot::RobotLevel;
use crate::rules::Seat;
use crate::rules::board::{Move, Square};
use bevy::prelude::*;

/// What the last change to the game was, for the board's animation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// An action was played: the piece it moved, if any (a roll moves none), glides along
    /// `path`, the places it passed through, ending on `motion.to`.
    Played { motion: Option<Move>, path: Vec<Square>, mover: Seat },
    /// A jump in time (start, restart, undo, redo): the board is laid out afresh.
    Reset,
}

/// One entry of the move list: a piece letter's words key and the square it went to, or a
/// skipped turn (`letter` and `to` both `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    pub seat: Seat,
    pub letter: Option<&'static str>,
    pub to: Option<Square>,
}

/// The game being played: its history (undo, redo and dice are the history's), who plays each
/// seat, and what the last change was. It changes only when the game does (or its players), so
/// the board and panels follow it through Bevy's change detection.
#[derive(Resource)]
pub struct Play<G: AppGame> {
    history: History<G, Vec<MoveNote>>,
    /// Who plays each seat, one entry per seat of the game.
    controls: Vec<Control>,
    pub change: Change,
}

/// What playing an action brought, for the sounds and messages.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub captured: bool,
    pub over: bool,
    /// Seats that had no move and passed right after it.
    pub passed: Vec<Seat>,
    /// A big message when a new phase began (a new round), in words.
    pub phase_notice: Option<String>,
}

impl<G: AppGame> Play<G> {
    pub fn new(start: G, setup: &MatchSetup, seed: u64) -> Play<G> {
        let seats = start.seat_count();
        Play { history: History::new(start, seed), controls: setup.controls(seats), change: Change::Reset }
    }

    pub fn controls(&self) -> &[Control] {
        &self.controls
    }

    /// Hands the seats to other players; a list of the wrong length is ignored.
    pub fn set_controls(&mut self, controls: &[Control]) {
        if controls.len() == self.controls.len() && controls != self.controls {
            self.controls = controls.to_vec();
        }
    }

    pub fn history(&self) -> &History<G, Vec<MoveNote>> {
        &self.history
    }

    pub fn game(&self) -> &G {
        self.history.game()
    }

    /// The state before the last step.
    pub fn previous(&self) -> Option<&G> {
        self.history.previous()
    }

    pub fn last_move(&self) -> Option<Move> {
        self.history.last().action.as_ref().and_then(BoardAction::motion)
    }

    pub fn moves_played(&self) -> usize {
        self.history.moves_played()
    }

    pub fn control(&self, seat: Seat) -> Control {
        self.controls.get(seat.index()).copied().unwrap_or(Control::Person)
    }

    /// The seat to move when a person plays it.
    pub fn person_to_move(&self) -> Option<Seat> {
        self.game().to_move().filter(|s| self.control(*s) == Control::Person)
    }

    /// The Robot's level when a Robot holds the seat to move.
    pub fn robot_to_move(&self) -> Option<RobotLevel> {
        match self.game().to_move().map(|s| self.control(s)) {
            Some(Control::Robot(level)) => Some(level),
            _ => None,
        }
    }

    pub fn has_robot(&self) -> bool {
        self.controls.iter().any(|c| matches!(c, Control::Robot(_)))
    }

    /// The person's seat when one person plays against Robots.
    pub fn person_against_robot(&self) -> Option<Seat> {
        let people: Vec<Seat> =
            Seat::all(self.controls.len()).filter(|s| self.control(*s) == Control::Person).collect();
        match people[..] {
            [seat] if self.has_robot() => Some(seat),
            _ => None,
        }
    }

    /// The move list so far.
    pub fn notes(&self) -> impl Iterator<Item = &MoveNote> {
        self.history.steps().iter().flat_map(|step| step.note.iter())
    }

    /// A person's move can be taken back (with a clock running, nothing is).
    pub fn can_undo(&self) -> bool {
        self.history.steps().iter().skip(1).any(|s| self.is_person(s.mover))
    }

    /// Dice are due on a person's turn.
    pub fn can_roll(&self) -> bool {
        self.person_to_move().is_some() && self.game().chance().is_some()
    }

    pub fn can_redo(&self) -> bool {
        !self.history.undone().is_empty()
    }

    fn is_person(&self, seat: Option<Seat>) -> bool {
        seat.is_some_and(|s| self.control(s) == Control::Person)
    }

    /// Plays a legal action for the seat to move; a refused action changes nothing (`None`).
    pub fn play(&mut self, action: G::Action, words: &Words) -> Option<Played> {
        self.play_along(action, None, words)
    }

    /// Plays an action whose piece is seen to pass through `path` (the chain the person
    /// previewed), or else through the rules' own path.
    pub fn play_along(
        &mut self,
        action: G::Action,
        path: Option<Vec<Square>>,
        words: &Words,
    ) -> Option<Played> {
        let mover = self.game().to_move()?;
        let before = self.game().clone();
        let path = path.unwrap_or_else(|| before.path_of(&action));
        let mut notes = Vec::new();
        if let (Some(letter), Some(motion)) = (before.piece_letter(&action), action.motion()) {
            notes.push(MoveNote { seat: mover, letter: Some(letter), to: Some(motion.to) });
        }
        self.history.play(&action, notes).ok()?;
        // One line per move, which the browser test reads from the console.
        let who = if self.is_person(Some(mover)) { "person" } else { "robot" };
        info!("tabla move {} {} {} {}", G::NAME, before.seat_name(mover), who, before.action_text(&action));
        let passed = self.game().passed();
        if let Some(step_notes) = self.history.last_note_mut()
            && !step_notes.is_empty()
        {
            step_notes.extend(passed.iter().map(|&seat| MoveNote { seat, letter: None, to: None }));
        }
        self.change = Change::Played { motion: action.motion(), path, mover };
        Some(Played {
            captured: self.game().pieces().len() < before.pieces().len(),
            over: self.game().outcome().is_some(),
            passed,
            phase_notice: self.game().phase_notice(&before, self.person_against_robot(), words),
        })
    }

    /// While dice are due: rolls them through the history (the same seeded dice as `tabla text`).
    pub fn roll(&mut self) -> bool {
        let Some(mover) = self.game().to_move() else { return false };
        if self.history.roll().is_none() {
            return false;
        }
        self.change = Change::Played { motion: None, path: Vec::new(), mover };
        true
    }

    /// Takes back the person's last move, and the Robot's answers after it.
    pub fn undo(&mut self) {
        if self.can_undo() {
            self.travel(|history| history.undo().map(|step| step.mover));
        }
    }

    /// Replays up to and including the next move of a person, with the Robot's answers before it.
    pub fn redo(&mut self) {
        if self.can_redo() {
            self.travel(|history| history.redo().map(|step| step.mover));
        }
    }

    /// Steps through the history (back or on, by `step`, which gives the mover of the step it
    /// took, or `None` at the end) until a person's move has been passed.
    fn travel(&mut self, step: impl Fn(&mut History<G, Vec<MoveNote>>) -> Option<Option<Seat>>) {
        while let Some(mover) = step(&mut self.history) {
            if self.is_person(mover) {
                break;
            }
        }
        self.change = Change::Reset;
    }

    /// A new game with the first turn moved to the next seat, where the game passes it round;
    /// else the same start again.
    pub fn new_game(&mut self) {
        match self.history.steps()[0].game.next_first() {
            Some(start) => {
                let seed = self.history.position_seed().wrapping_add(1);
                self.history = History::new(start, seed);
                self.change = Change::Reset;
            }
            None => self.restart(),
        }
    }

    pub fn restart(&mut self) {
        self.history.restart();
        self.change = Change::Reset;
    }

    pub fn time_out(&mut self, seat: Seat) {
        self.history.time_out(seat);
        self.change = Change::Reset;
    }
}
