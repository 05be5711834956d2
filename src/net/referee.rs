//! The server's referee of one room's game, whatever the game: every action a seat sends is played
//! through the rules or refused with a reason, the dice are thrown from the room's seed (through
//! `History::roll`), and the Robot's seats play themselves.

use crate::history::History;
use crate::levels::FromLevel;
use crate::record::{Control, Record, RecordError};
use crate::robot::RobotPlayer;
use crate::rules::{Game, Seat};

/// What a seat sends to ask for the dice.
pub const ROLL: &str = "roll";
/// The most actions the Robot and the dice play in a row before a person is asked (a guard; no
/// game comes near it).
const MOST_SETTLED: usize = 10_000;

pub trait Referee: Send {
    /// Plays `text` for `seat`, then the dice and the Robot's seats until a person must act: the
    /// texts of every action played, or why nothing was.
    fn act(&mut self, seat: Seat, text: &str) -> Result<Vec<String>, String>;
    /// Plays the dice and the Robot's seats until a person must act (or the game is over).
    fn settle(&mut self) -> Vec<String>;
    /// The seat to act now, if the game names one.
    fn to_move(&self) -> Option<Seat>;
    /// The seat's clock ran out: the game ends so, as the text of that step.
    fn time_out(&mut self, seat: Seat) -> String;
    /// Every action since the start.
    fn actions(&self) -> Vec<String>;
    fn seat_count(&self) -> usize;
    fn is_over(&self) -> bool;
    /// The seat whose turn the action at `index` (counted from 0) was played on: its move, or the
    /// dice it threw (thrown again, they fall the same: they come from the position).
    fn mover_of(&self, index: usize) -> Option<Seat>;
}

struct RefereeOf<G: Game> {
    history: History<G>,
    seats: Vec<Control>,
}

/// The referee of a record's game on its built-in level (a server reads no level from disk),
/// replayed through the rules.
pub fn referee(record: &Record) -> Result<Box<dyn Referee>, RecordError> {
    let level = crate::levels::built_in(&record.level_file()).map_err(RecordError::Mismatch)?;
    crate::with_game!(level.kind(), G => {
        let history: History<G> = record.replay_on(&level, |_, _, _| ())?;
        Ok(Box::new(RefereeOf { history, seats: record.seats.clone() }))
    })
}

impl<G: Game + RobotPlayer + FromLevel + Send> RefereeOf<G> {
    fn control(&self, seat: Seat) -> Control {
        self.seats.get(seat.index()).copied().unwrap_or(Control::Person)
    }

    /// The dice or the Robot's next action, when nobody else is to act now.
    fn automatic(&mut self) -> Option<String> {
        let game = self.history.game();
        if game.outcome().is_some() {
            return None;
        }
        let before = game.clone();
        let robot = game.to_move().and_then(|seat| match self.control(seat) {
            Control::Robot(level) => Some(level),
            Control::Person | Control::Far => None,
        });
        let action = match (robot, game.chance()) {
            (Some(level), _) => self.history.robot_action(level)?,
            // Dice due and no choice before them (or nobody in particular to make it): thrown.
            (None, Some(_)) if game.to_move().is_none() || game.legal_actions().is_empty() => {
                return self.history.roll().map(|roll| before.action_text(&roll));
            }
            (None, _) => return None,
        };
        self.history.play(&action, ()).ok()?;
        Some(before.action_text(&action))
    }
}

impl<G: Game + RobotPlayer + FromLevel + Send> Referee for RefereeOf<G> {
    fn act(&mut self, seat: Seat, text: &str) -> Result<Vec<String>, String> {
        let game = self.history.game().clone();
        if game.outcome().is_some() {
            return Err("the game is over".into());
        }
        if game.to_move() != Some(seat) {
            return Err(match game.to_move() {
                Some(other) => {
                    format!("it is {}'s turn, not {}'s", game.seat_name(other), game.seat_name(seat))
                }
                None => "nobody is to move while the dice are thrown".into(),
            });
        }
        if self.control(seat) != Control::Person {
            return Err(format!("the Robot plays {}", game.seat_name(seat)));
        }
        let mut played = Vec::new();
        if text.trim() == ROLL {
            let roll = self.history.roll().ok_or("no dice are due")?;
            played.push(game.action_text(&roll));
        } else {
            let action = game.parse_action(text).map_err(|e| e.to_string())?;
            if game.chance().is_some() && !game.legal_actions().contains(&action) {
                return Err("the server throws the dice: send 'roll'".into());
            }
            self.history.play(&action, ()).map_err(|e| e.to_string())?;
            played.push(game.action_text(&action));
        }
        played.extend(self.settle());
        Ok(played)
    }

    fn settle(&mut self) -> Vec<String> {
        std::iter::from_fn(|| self.automatic()).take(MOST_SETTLED).collect()
    }

    fn to_move(&self) -> Option<Seat> {
        self.history.game().to_move()
    }

    fn time_out(&mut self, seat: Seat) -> String {
        self.history.time_out(seat);
        self.history.action_texts().pop().unwrap_or_default()
    }

    fn actions(&self) -> Vec<String> {
        self.history.action_texts()
    }

    fn seat_count(&self) -> usize {
        self.history.game().seat_count()
    }

    fn is_over(&self) -> bool {
        self.history.game().outcome().is_some()
    }

    fn mover_of(&self, index: usize) -> Option<Seat> {
        self.history.steps().get(index + 1)?.mover
    }
}
