//! `tabla text`: every game as lines of commands in and JSON lines out, for outside checks and
//! for playing without a screen. One session serves every game through `Game`.

use crate::levels::{Level, LevelGame};
use crate::robot::{self, RobotLevel, RobotPlayer};
use crate::rules::bunnies::BunniesAndHorses;
use crate::rules::circles::Circles;
use crate::rules::halma::Halma;
use crate::rules::knight_hunt::KnightHunt;
use crate::rules::nard::Nard;
use crate::rules::{Game, Winner};
use serde_json::{Value, json};
use std::io::{BufRead, Write};

/// A game driven by text commands.
pub trait Console {
    fn handle(&mut self, line: &str) -> Value;
}

pub struct Session<G: RobotPlayer> {
    history: Vec<G>,
    undone: Vec<G>,
    seed: u64,
}

pub fn outcome_json<G: Game>(game: &G) -> Value {
    match game.outcome() {
        None => Value::Null,
        Some(outcome) => {
            let result = match outcome.winner {
                Winner::Seat(seat) => game.winner_name(seat).to_string(),
                Winner::Team(team) => team.seats().map(|s| game.winner_name(s)).collect::<Vec<_>>().join("+"),
                Winner::Draw => "draw".to_string(),
            };
            json!({ "result": result, "reason": outcome.reason.key() })
        }
    }
}

pub fn state_json<G: Game>(game: &G) -> Value {
    let mut fields = game.state_fields();
    fields.insert("to_move".into(), json!(game.to_move().map(|s| game.seat_name(s))));
    fields.insert("outcome".into(), outcome_json(game));
    Value::Object(fields)
}

fn refuse(error: impl ToString) -> Value {
    json!({ "ok": false, "error": error.to_string() })
}

impl<G: RobotPlayer> Session<G> {
    pub fn new(game: G, seed: u64) -> Session<G> {
        Session { history: vec![game], undone: Vec::new(), seed }
    }

    pub fn game(&self) -> &G {
        self.history.last().expect("a session always holds a game")
    }

    fn played(&mut self, next: G, action: &G::Action) -> Value {
        let text = self.game().action_text(action);
        self.history.push(next);
        self.undone.clear();
        let game = self.game();
        let passed: Vec<&str> = game.passed().into_iter().map(|s| game.seat_name(s)).collect();
        json!({
            "ok": true,
            "action": text,
            "passed": passed,
            "to_move": game.to_move().map(|s| game.seat_name(s)),
            "outcome": outcome_json(game),
        })
    }

    fn play(&mut self, text: &str) -> Value {
        let mut next = self.game().clone();
        let action = match next.parse_action(text) {
            Ok(action) => action,
            Err(e) => return refuse(e),
        };
        match next.apply(&action) {
            Ok(()) => self.played(next, &action),
            Err(e) => refuse(e),
        }
    }

    fn robot(&mut self, level: &str) -> Value {
        let level = match RobotLevel::parse(level) {
            Some(level) => level,
            None => return refuse(format!("the Robot's level is 1, 2 or 3, not '{level}'")),
        };
        let seed = self.seed ^ (self.history.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let game = self.game();
        let chosen = if let Some(rolls) = game.chance() {
            // Dice are due: the Robot may act first (a double); otherwise it rolls the session's
            // seeded dice, so a session replays from its seed.
            robot::choose(game, level, seed).or_else(|| robot::pick_chance(rolls, &mut robot::rng(seed)))
        } else {
            robot::choose(game, level, seed)
        };
        let Some(action) = chosen else {
            return refuse("nobody is to move");
        };
        let mut next = self.game().clone();
        next.play(&action);
        self.played(next, &action)
    }
}

impl<G: RobotPlayer> Console for Session<G> {
    fn handle(&mut self, line: &str) -> Value {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "state" => state_json(self.game()),
            "legal" => {
                let game = self.game();
                let legal: Vec<String> = game.legal_actions().iter().map(|a| game.action_text(a)).collect();
                json!({ "legal": legal })
            }
            "play" if !rest.is_empty() => self.play(rest),
            "play" => refuse("play needs an action, for example: play g1f3"),
            "undo" => match self.history.len() {
                1 => refuse("nothing to undo"),
                _ => {
                    let undone = self.history.pop().expect("more than one state");
                    self.undone.push(undone);
                    json!({ "ok": true })
                }
            },
            "redo" => match self.undone.pop() {
                None => refuse("nothing to redo"),
                Some(state) => {
                    self.history.push(state);
                    json!({ "ok": true })
                }
            },
            "robot" => self.robot(if rest.is_empty() { "3" } else { rest }),
            "" => refuse("empty line"),
            other => {
                refuse(format!("unknown command '{other}': use state, legal, play, undo, redo or robot"))
            }
        }
    }
}

/// A text session for the game a level file describes.
pub fn session_for(level: &Level, seed: u64) -> Box<dyn Console> {
    match &level.game {
        LevelGame::Circles(level) => Box::new(Session::new(Circles::new(&level.setup), seed)),
        LevelGame::KnightHunt(level) => Box::new(Session::new(KnightHunt::new(&level.setup), seed)),
        LevelGame::Bunnies(level) => Box::new(Session::new(BunniesAndHorses::new(&level.setup), seed)),
        LevelGame::Nard(level) => Box::new(Session::new(Nard::new(&level.setup), seed)),
        LevelGame::Halma(level) => Box::new(Session::new(Halma::new(&level.setup), seed)),
    }
}

/// Reads commands until the input ends, answering each with one JSON line.
pub fn run(console: &mut dyn Console, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        writeln!(output, "{}", console.handle(&line))?;
        output.flush()?;
    }
    Ok(())
}
