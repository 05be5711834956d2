//! The game screen said aloud, each thing once as it appears: a stage's game, number and goal and
//! what to do when a game begins; the person's turn; every message of the moment; a question
//! with its answers; the result with the stars; the report between two rounds. While a game is
//! watched again, the coach's words at each slip and its praise. The Robot's own moves are never
//! narrated, nor is its thinking.

use super::scoreboard::ScoreBoard;
use crate::app::child::children::ThePath;
use crate::app::child::keeping::Keep;
use crate::app::child::stages::StageNews;
use crate::app::course::replay::Replay;
use crate::app::launch::MatchSetup;
use crate::app::platform::settings::Words;
use crate::app::platform::speech::{Speech, Utterance, say_in_turn};
use crate::app::session::play::{Happened, Opened};
use crate::app::session::screen::Screen;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Heard>();
    app.add_systems(OnEnter(Screen::Playing), |mut heard: ResMut<Heard>| *heard = Heard::default());
    app.add_systems(
        Update,
        (speak_game, speak_coach)
            .after(super::scoreboard::publish_scoreboard)
            .after(crate::app::child::keeping::KeepTold)
            .run_if(in_state(Screen::Playing)),
    );
}

/// What of the game screen was said last, so each thing is said once when it appears.
#[derive(Resource, Default, Debug)]
pub struct Heard {
    status: Option<Utterance>,
    /// Whose turn was said last, with the moves made then: said again only when a move was made.
    turn: Option<(usize, Utterance)>,
    big_notice: Option<Utterance>,
    question: Vec<Utterance>,
    asking: Vec<Utterance>,
    result: Vec<Utterance>,
    round: Vec<Utterance>,
    coach: Option<Utterance>,
}

/// Says what newly appeared on the game screen. What begins a game is said first, a message of
/// the moment cuts short whatever was being said, and the turn waits for what is being said.
#[allow(clippy::too_many_arguments)]
fn speak_game(
    board: Res<ScoreBoard>,
    words: Res<Words>,
    setup: Res<MatchSetup>,
    path: Res<ThePath>,
    news: Option<ResMut<StageNews>>,
    replay: Option<Res<Replay>>,
    mut told: MessageReader<Keep>,
    mut heard: ResMut<Heard>,
    mut speech: MessageWriter<Speech>,
) {
    let begun = told.read().any(|keep| {
        matches!(keep.happened, Happened::Opened(Opened::New | Opened::TryAgain) | Happened::BegunAgain)
    });
    if replay.is_some() {
        return;
    }
    let said = &board.said;
    let heard = &mut *heard;
    if begun && let Some(game) = board.game {
        *heard = Heard::default();
        let mut first = Vec::new();
        if let Some(stage) = setup.stage.as_deref() {
            first.extend(stage_words(&path, &words, stage));
        }
        first.push(Utterance::of(&words, &format!("help_short_{game}")));
        say_in_turn(&mut speech, first);
    }
    if said.big_notice != heard.big_notice {
        heard.big_notice = said.big_notice.clone();
        if let Some(big) = &said.big_notice {
            speech.write(Speech::Say(big.clone()));
        }
    }
    if said.status != heard.status {
        heard.status = said.status.clone();
        match &said.status {
            // A message of the moment cuts in.
            Some(message) if board.notice => {
                speech.write(if begun {
                    Speech::Then(message.clone())
                } else {
                    Speech::Say(message.clone())
                });
            }
            // Whose turn it is waits its turn, once a move (not once a message went away).
            Some(turn) => {
                let now = Some((board.moves, turn.clone()));
                if heard.turn != now {
                    heard.turn = now;
                    speech.write(Speech::Then(turn.clone()));
                }
            }
            None => {}
        }
    }
    for (shown, was) in [
        (&said.question, &mut heard.question),
        (&said.asking, &mut heard.asking),
        (&said.round, &mut heard.round),
    ] {
        if shown != was {
            *was = shown.clone();
            say_in_turn(&mut speech, shown.clone());
        }
    }
    if said.result != heard.result {
        heard.result = said.result.clone();
        say_in_turn(&mut speech, said.result.clone());
    }
    // The new stars are counted a frame or two after the result shows: said after it, once.
    if !heard.result.is_empty()
        && let Some(mut news) = news.filter(|n| !n.said && Some(n.stage.as_str()) == setup.stage.as_deref())
        && news.new.count() > 0
    {
        news.said = true;
        let n = news.new.count().to_string();
        speech.write(Speech::Then(Utterance::filled(&words, "stars_new", &[("n", &n)])));
    }
}

/// A stage as the map names it: its game, its number on the trail and its goal.
fn stage_words(path: &ThePath, words: &Words, id: &str) -> Option<Utterance> {
    path.trails.iter().find_map(|trail| {
        let (index, stage) = trail.stages.iter().enumerate().find(|(_, s)| s.id == id)?;
        let game = words.get(&format!("game_{}", trail.game)).to_string();
        let n = (index + 1).to_string();
        let goal = stage.goal_text(words.language).to_string();
        Some(Utterance::filled(words, "stage_said", &[("game", &game), ("n", &n), ("goal", &goal)]))
    })
}

/// While a game is watched again: the coach's words at the position shown (a slip's reason and
/// what the two arrows are, the best move's praise, a game without slips).
fn speak_coach(
    replay: Option<Res<Replay>>,
    words: Res<Words>,
    mut heard: ResMut<Heard>,
    mut speech: MessageWriter<Speech>,
) {
    let Some(replay) = replay.filter(|r| r.is_changed()) else { return };
    let now = coach_words(&replay, &words);
    if now.first() == heard.coach.as_ref() {
        return;
    }
    heard.coach = now.first().cloned();
    say_in_turn(&mut speech, now);
}

/// What the coach says at the position shown, as `panels::replay_bar` writes it.
pub fn coach_words(replay: &Replay, words: &Words) -> Vec<Utterance> {
    let coach = &replay.coach;
    if !coach.done {
        return Vec::new();
    }
    if let Some(slip) = coach.slip_at(replay.at) {
        let (why, args) = slip.why_words(words);
        return vec![
            Utterance::filled(words, why, &args),
            Utterance::of(words, &slip.words_key("say_coach_arrows")),
        ];
    }
    if let Some(best) = coach.best_at(replay.at) {
        return vec![Utterance::of(words, &best.words_key("coach_best"))];
    }
    if coach.slips.is_empty() && replay.at == 0 {
        return vec![Utterance::of(words, "coach_no_slips")];
    }
    Vec::new()
}
