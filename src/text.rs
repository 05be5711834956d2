//! `tabla text`: every game as lines of commands in and JSON lines out, for outside checks and
//! for playing without a screen. One session serves every game through `Game`.

use crate::history::History;
use crate::levels::{Level, LevelGame};
use crate::robot::{RobotLevel, RobotPlayer};
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
    history: History<G>,
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
        Session { history: History::new(game, seed) }
    }

    pub fn game(&self) -> &G {
        self.history.game()
    }

    fn played(&self, action: &G::Action) -> Value {
        let game = self.game();
        let text = self.history.previous().map_or_else(String::new, |before| before.action_text(action));
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
        let action = match self.game().parse_action(text) {
            Ok(action) => action,
            Err(e) => return refuse(e),
        };
        match self.history.play(&action, ()) {
            Ok(()) => self.played(&action),
            Err(e) => refuse(e),
        }
    }

    fn robot(&mut self, level: &str) -> Value {
        let Some(level) = RobotLevel::parse(level) else {
            return refuse(format!("the Robot's level is 1, 2 or 3, not '{level}'"));
        };
        let Some(action) = self.history.robot_action(level) else {
            return refuse("nobody is to move");
        };
        match self.history.play(&action, ()) {
            Ok(()) => self.played(&action),
            Err(e) => refuse(e),
        }
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
            "undo" => match self.history.undo() {
                None => refuse("nothing to undo"),
                Some(_) => json!({ "ok": true }),
            },
            "redo" => match self.history.redo() {
                None => refuse("nothing to redo"),
                Some(_) => json!({ "ok": true }),
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
