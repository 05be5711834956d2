//! `tabla text`: every game as lines of commands in and JSON lines out, for outside checks and
//! for playing without a screen. One session serves every game through `Game`.

use crate::history::History;
use crate::levels::{self, FromLevel, Level};
use crate::record::{Control, Record, RecordError};
use crate::robot::RobotLevel;
use crate::robot::review::{self, Coached, Reviewer};
use crate::rules::{Game, Winner};
use serde_json::{Value, json};
use std::io::{BufRead, Read, Write};

/// A game driven by text commands.
pub trait Console {
    fn handle(&mut self, line: &str) -> Value;
    /// The seat to act now (`None` when the game is over or nobody in particular acts).
    fn seat_to_move(&self) -> Option<crate::rules::Seat>;
    /// Whether dice are due (the seat to move may have a choice before them).
    fn dice_due(&self) -> bool;
    fn is_over(&self) -> bool;
    /// What the Robot would do now, as text, without playing it.
    fn robot_text(&self, level: RobotLevel) -> Option<String>;
    /// The number of actions before `seat`'s last one (what taking it back goes back to).
    fn before_last_of(&self, seat: crate::rules::Seat) -> Option<usize>;
}

pub struct Session<G: Coached> {
    /// Each step's note: whether a hint proposed it (as the loaded record says).
    history: History<G, bool>,
    /// The level the game was set up from, which its record names (`None`: no record).
    level: Option<Level>,
    /// What a loaded record says beyond its actions (its seats, clock, stage, hints and
    /// take-backs), which its `record` gives back as it was; `None` for a new session.
    loaded: Option<Record>,
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

impl<G: Coached> Session<G> {
    pub fn new(game: G, seed: u64) -> Session<G> {
        Session { history: History::new(game, seed), level: None, loaded: None }
    }

    /// A session going on from a record, on the record's level.
    pub fn from_record(level: &Level, record: &Record) -> Result<Session<G>, RecordError>
    where
        G: FromLevel,
    {
        let history = record.replay_on(level, |_, _, index| record.hinted.contains(&(index as u32 + 1)))?;
        Ok(Session { history, level: Some(level.clone()), loaded: Some(record.clone()) })
    }

    fn of_level(game: G, level: &Level, seed: u64) -> Session<G> {
        Session { history: History::new(game, seed), level: Some(level.clone()), loaded: None }
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
        match self.history.play(&action, false) {
            Ok(()) => self.played(&action),
            Err(e) => refuse(e),
        }
    }

    /// The game's record: a loaded record's seats, clock, stage, hints and take-backs as it had
    /// them, with the actions as they stand now; for a new session every seat a person, no clock.
    fn record(&self) -> Value {
        let Some(level) = &self.level else {
            return refuse("this session has no level file to name in a record");
        };
        let seats = match &self.loaded {
            Some(loaded) => loaded.seats.clone(),
            None => vec![Control::Person; self.game().seat_count()],
        };
        let mut record = Record::of_history(level, &self.history, seats);
        record.hinted = Record::hinted_in(&self.history, |hinted| *hinted);
        if let Some(loaded) = &self.loaded {
            record.clock_minutes = loaded.clock_minutes;
            record.clock_left_ms = loaded.clock_left_ms.clone();
            record.stage = loaded.stage.clone();
            record.hints_asked = loaded.hints_asked;
            record.takebacks = loaded.takebacks;
        }
        json!({ "record": record.to_ron() })
    }

    /// The coach's review of the game so far: of the people's seats, or of every seat (`all`).
    fn review(&self, which: &str) -> Value {
        let every_seat = match which {
            "" => false,
            "all" => true,
            other => return refuse(format!("review takes nothing or 'all', not '{other}'")),
        };
        let data = match review::coach_data(G::KIND) {
            Ok(data) => data,
            Err(e) => return refuse(e),
        };
        let person = |seat: crate::rules::Seat| match &self.loaded {
            Some(loaded) => loaded.seats.get(seat.index()) == Some(&Control::Person),
            None => true,
        };
        let steps = self.history.steps();
        let result = Reviewer::new(steps, |seat| every_seat || person(seat), data).finish();
        let game = self.game();
        let text = |rated: &review::Rated<G::Action>, actions: &[G::Action]| {
            review::actions_text(&steps[rated.from].game, actions)
        };
        let slips: Vec<Value> = result
            .slips()
            .map(|slip| {
                let mut fields = why_fields(slip);
                fields.insert("ply".into(), json!(slip.ply()));
                fields.insert("seat".into(), json!(game.seat_name(slip.seat)));
                fields.insert("played".into(), json!(text(slip, &slip.played)));
                fields.insert("better".into(), json!(text(slip, &slip.rating.best)));
                Value::Object(fields)
            })
            .collect();
        let best =
            result.best_move().map(|best| json!({ "ply": best.ply(), "played": text(best, &best.played) }));
        json!({ "slips": slips, "best": best, "rated": result.moves.len() })
    }

    /// What the tutor would say before `texts` (one move; a whole dice set in Crazy Nard) were
    /// played from here: a warning with the coach's reason and better move, or none. Nothing is
    /// played.
    fn tutor(&self, texts: &str) -> Value {
        let data = match review::coach_data(G::KIND) {
            Ok(data) => data,
            Err(e) => return refuse(e),
        };
        if self.game().to_move().is_none() || self.game().chance().is_some() {
            return refuse("the tutor looks at a move of the seat to move, and no move is due");
        }
        let mut after = self.game().clone();
        let mut played = Vec::new();
        for text in texts.split_whitespace() {
            let action = match after.parse_action(text) {
                Ok(action) => action,
                Err(e) => return refuse(e),
            };
            if let Err(e) = after.apply(&action) {
                return refuse(e);
            }
            played.push(action);
        }
        match review::Tutor::new(self.game(), &played, data).finish() {
            None => json!({ "warn": false }),
            Some(slip) => {
                let mut fields = why_fields(&slip);
                fields.insert("warn".into(), json!(true));
                fields.insert("better".into(), json!(review::actions_text(self.game(), &slip.rating.best)));
                Value::Object(fields)
            }
        }
    }

    fn robot(&mut self, level: &str) -> Value {
        let Some(level) = RobotLevel::parse(level) else {
            return refuse(format!("the Robot's level is 1, 2 or 3, not '{level}'"));
        };
        let Some(action) = self.history.robot_action(level) else {
            return refuse("nobody is to move");
        };
        match self.history.play(&action, false) {
            Ok(()) => self.played(&action),
            Err(e) => refuse(e),
        }
    }
}

impl<G: Coached> Console for Session<G> {
    fn seat_to_move(&self) -> Option<crate::rules::Seat> {
        self.game().to_move()
    }

    fn dice_due(&self) -> bool {
        self.game().chance().is_some()
    }

    fn is_over(&self) -> bool {
        self.game().outcome().is_some()
    }

    fn robot_text(&self, level: RobotLevel) -> Option<String> {
        self.history.robot_action(level).map(|action| self.game().action_text(&action))
    }

    fn before_last_of(&self, seat: crate::rules::Seat) -> Option<usize> {
        let steps = self.history.steps();
        (1..steps.len()).rev().find(|&i| steps[i].mover == Some(seat)).map(|i| i - 1)
    }

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
            "record" => self.record(),
            "review" => self.review(rest),
            "tutor" if !rest.is_empty() => self.tutor(rest),
            "tutor" => refuse("tutor needs a move to look at, for example: tutor g1f3"),
            "" => refuse("empty line"),
            other => refuse(format!(
                "unknown command '{other}': use state, legal, play, undo, redo, robot, record, review or tutor"
            )),
        }
    }
}

/// What a rated move lost, and why, as the text interface writes it: `loss`, `why`, `why_args`.
fn why_fields<A>(rated: &review::Rated<A>) -> serde_json::Map<String, Value> {
    let args = rated.why_args.iter().map(|(name, value)| (name.to_string(), Value::from(value.as_str())));
    let mut fields = serde_json::Map::new();
    fields.insert("loss".into(), json!((rated.rating.loss * 1000.0).round() / 1000.0));
    fields.insert("why".into(), json!(rated.why));
    fields.insert("why_args".into(), Value::Object(args.collect()));
    fields
}

/// A text session for the game a level file describes.
pub fn session_for(level: &Level, seed: u64) -> Box<dyn Console> {
    crate::with_game!(level.kind(), G => session_of::<G>(level, seed))
}

fn session_of<G: Coached + FromLevel>(level: &Level, seed: u64) -> Box<dyn Console> {
    // A level's game is the one its kind names, so it always sets one up.
    let game = G::from_level(level).expect("a level sets up the game it names");
    Box::new(Session::of_level(game, level, seed))
}

/// A text session going on from a record, on `level` (the record's own level, or a file of the
/// same game and variant).
pub fn session_from_record(level: &Level, record: &Record) -> Result<Box<dyn Console>, RecordError> {
    Ok(crate::with_game!(level.kind(), G => Box::new(Session::<G>::from_record(level, record)?)))
}

/// `tabla text --load FILE [--level FILE]`: the session a record file continues, on the
/// record's level, or on `level_file` when it is given (of the record's game and variant).
pub fn load_session(record_file: &str, level_file: Option<&str>) -> Result<Box<dyn Console>, String> {
    let in_file = |e: &dyn std::fmt::Display| format!("{record_file}: {e}");
    let text = crate::record::read_small_file(std::path::Path::new(record_file))
        .map_err(|e| in_file(&format_args!("cannot read the record: {e}")))?;
    let record = Record::from_ron(&text).map_err(|e| in_file(&e))?;
    let level = match level_file {
        None => record.level().map_err(|e| in_file(&e))?,
        Some(file) => levels::find(file).map_err(|e| e.to_string())?,
    };
    session_from_record(&level, &record).map_err(|e| in_file(&e))
}

/// The longest command line read; a longer one is answered with an error and skipped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line of input as read.
enum Line {
    Text(String),
    NotUtf8,
    TooLong,
}

/// Reads the next line (without its line end), holding at most `MAX_LINE_BYTES` of it; `None`
/// at the end of the input.
fn read_line(input: &mut impl BufRead) -> std::io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let limit = MAX_LINE_BYTES as u64 + 1;
    if input.by_ref().take(limit).read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() > MAX_LINE_BYTES {
        skip_line(input)?;
        return Ok(Some(Line::TooLong));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(String::from_utf8(bytes).map_or(Line::NotUtf8, Line::Text)))
}

/// Drops the input up to and including the next line end, a buffer at a time.
fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(());
            }
            None => {
                let all = buffer.len();
                input.consume(all);
            }
        }
    }
}

/// Reads commands until the input ends, answering each with one JSON line. A line that is not
/// UTF-8 or longer than `MAX_LINE_BYTES` is answered with an error, and reading goes on.
pub fn run(
    console: &mut dyn Console,
    mut input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    while let Some(line) = read_line(&mut input)? {
        let answer = match line {
            Line::Text(text) if text.trim().is_empty() => continue,
            Line::Text(text) => console.handle(&text),
            Line::NotUtf8 => refuse("the line is not UTF-8 text"),
            Line::TooLong => refuse(format!("the line is longer than {MAX_LINE_BYTES} bytes")),
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
    Ok(())
}
