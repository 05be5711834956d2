//! What the panels show, rebuilt from the rules state: each seat's name, score and clock, whose
//! turn it is, the move list, the result. The panels (hud.rs) only read `ScoreBoard`.

use crate::app::child::children::{Children, name_of};
use crate::app::course::clocks::Clocks;
use crate::app::far::FarGame;
use crate::app::launch::{Control, MatchSetup};
use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::app::platform::speech::Utterance;
use crate::app::platform::store::Store;
use crate::app::session::feedback::{AskFirst, Notice, Notices, Preview, Question, RoundOver, game_key};
use crate::app::session::game::{Extra, RoundReport};
use crate::app::session::play::{Play, Playing};
use crate::app::session::shown::Shown;
use crate::net::Person;
use crate::rules::{EndReason, GameKind, Seat, Winner};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ScoreBoard>();
    app.add_systems(
        Update,
        publish_scoreboard.after(crate::app::session::play::TurnSet).run_if(resource_exists::<Play>),
    );
}

/// What the panels show about one seat.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatBoard {
    pub seat: Seat,
    pub name: String,
    pub control: Control,
    pub score: u32,
    pub extras: Vec<Extra>,
    pub to_move: bool,
    pub clock: Option<f32>,
    /// The seat playing on its team, if any.
    pub partner: Option<Seat>,
    /// The seat's colour as a picture, where the game has one (Crazy Nard's checkers).
    pub art: Option<Art>,
    /// Who plays it as a picture: the Robot's face, the child's own animal in a game against
    /// the Robot, else a person.
    pub face: Art,
}

/// The panels' view of the game, rebuilt from the rules state every frame.
/// The answers to the question before beginning again, and to the tutor's, in the order shown.
pub const START_AGAIN_ANSWERS: [&str; 2] = ["keep_playing", "start_again"];
pub const TUTOR_ANSWERS: [&str; 2] = ["tutor_think_again", "tutor_play_it"];
pub const TAKE_BACK_ANSWERS: [&str; 2] = ["far_play_on", "far_take_back"];

#[derive(Resource, Clone, Debug, Default)]
pub struct ScoreBoard {
    pub game: Option<GameKind>,
    pub seats: Vec<SeatBoard>,
    /// The seat whose panel sits below the board (the person's, or the first player's).
    pub bottom_seat: Seat,
    pub show_score: bool,
    /// The line under the board: whose turn, the Robot thinking, a pass…
    pub status: String,
    /// The status is a passing message (a pass, a refused tap), not whose turn it is.
    pub notice: bool,
    /// The board is long (`GameView::LONG`): on a phone the panels shrink to thin strips.
    pub long_board: bool,
    /// A big message over the board, such as a new round.
    pub big_notice: Option<String>,
    pub banner: Option<String>,
    /// The move list in rounds: each round's moves, White's (or the first seat's) first.
    pub move_list: Vec<String>,
    pub result: Option<ResultBoard>,
    pub can_undo: bool,
    /// The game is a room's, played with someone far away: it is not begun again here.
    pub afar: bool,
    /// Dice are due on a person's turn: the Roll button shows.
    pub can_roll: bool,
    pub can_redo: bool,
    pub moves: usize,
    /// Clock choices of this level, and the one the next Restart brings.
    pub clock_choices: Vec<u32>,
    pub next_clock: u32,
    /// A path is previewed on the person's turn: Confirm and Cancel show.
    pub previewing: bool,
    /// The person's tried-out moves wait to be confirmed: Confirm shows.
    pub draft_done: bool,
    /// The panel between two rounds, until it is closed.
    pub round: Option<RoundReport>,
    /// The picture of the question's dialog.
    pub question_art: crate::app::platform::art::Art,
    /// A hint can be asked for (a person's turn, with a piece to move).
    pub can_hint: bool,
    /// The game's button actions for the person now (`GameInfo::choices`), in words.
    pub choices: Vec<String>,
    /// Each choice's picture in the question's dialog (`GameInfo::choice_art`).
    pub choice_art: Vec<Option<crate::app::platform::art::Art>>,
    /// A question the person must answer with the choices first (a draw offered to them).
    pub question: Option<String>,
    /// New game passes the first turn on (a New game button beside Restart).
    pub passes_first: bool,
    /// The words of the question Restart or New game asked ("start again?"), or the tutor's,
    /// until answered.
    pub asking: Option<String>,
    /// The question is the tutor's (play it anyway, or think again).
    pub asking_tutor: bool,
    /// The question is someone's far away, to take back their move (yes, or play on).
    pub asking_far: bool,
    /// The same as it is said aloud (`panels::spoken`).
    pub said: SaidBoard,
}

/// What the panels show, as it is said: each message in its spoken form and language.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SaidBoard {
    pub status: Option<Utterance>,
    pub big_notice: Option<Utterance>,
    /// The question, then its answers.
    pub question: Vec<Utterance>,
    pub asking: Vec<Utterance>,
    /// The title, then how the game ended.
    pub result: Vec<Utterance>,
    pub round: Vec<Utterance>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ResultBoard {
    pub title: String,
    pub reason: String,
    pub winner: Option<Seat>,
}

/// The name a seat goes by: "You", "Robot", "Player 1", the first name of someone far away…, with
/// its colour or role.
pub fn seat_name(play: &dyn Playing, seat: Seat, words: &Words, far: &[Person]) -> String {
    seat_name_in(play, play.game(), seat, (words, far, None))
}

/// As `seat_name`, with the seat's colour or role as `shown` names it, and the child's name
/// for "You" where it is given (a seat's card).
fn seat_name_in(
    play: &dyn Playing,
    shown: &dyn Shown,
    seat: Seat,
    (words, far, child): (&Words, &[Person], Option<&str>),
) -> String {
    let colour = words.get(shown.seat_label_key(seat));
    let first_name = far.iter().find(|p| usize::from(p.seat) == seat.index() && !p.name.is_empty());
    let who = match play.control(seat) {
        Control::Robot(_) => words.get("robot").to_string(),
        Control::Far => first_name.map_or_else(|| words.get("seat_far").to_string(), |p| p.name.clone()),
        _ if play.has_robot() => child.map_or_else(|| words.get("you").to_string(), str::to_string),
        _ if play.afar() => words.get("you").to_string(),
        _ => words.get(&format!("player_{}", seat.index() + 1)).to_string(),
    };
    format!("{who} ({colour})")
}

/// Who plays a seat as a picture: the Robot's face, the child's own animal (`child`, given in a
/// game against the Robot), else a person.
pub fn face_of(control: Control, child: Option<u8>) -> Art {
    match (control, child) {
        (Control::Robot(_), _) => Art::Robot,
        (Control::Person, Some(animal)) => Art::Animal(animal),
        _ => Art::People,
    }
}

/// The mark beside a move a hint proposed, in the move list and the seat's panel.
pub const HINT_MARK: &str = "★";

/// The seat's panel lines: the game's own, then the hints it used, if any.
fn extras(play: &dyn Playing, shown: &dyn Shown, seat: Seat, words: &Words) -> Vec<Extra> {
    let mut extras = shown.extras(seat, words);
    let hints = play.hints_used(seat);
    if hints > 0 {
        extras.push(Extra::Text(words.fill("hints_used", &[("count", &hints.to_string())])));
    }
    extras
}

/// The move list written round by round: "1. Ta8 Nf7". A round starts with the first seat; a
/// round that starts later (the Robot opened as the second seat) begins with "…".
fn move_list(play: &dyn Playing, words: &Words) -> Vec<String> {
    let mut rounds: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut last_seat: Option<Seat> = None;
    for (note, hinted) in play.notes() {
        let text = match (note.letter, note.to) {
            (Some(letter), Some(to)) if hinted => format!("{}{to}{HINT_MARK}", words.get(letter)),
            (Some(letter), Some(to)) => format!("{}{to}", words.get(letter)),
            _ => "—".to_string(),
        };
        if last_seat.is_some_and(|last| note.seat <= last) && !current.is_empty() {
            rounds.push(std::mem::take(&mut current));
        }
        last_seat = Some(note.seat);
        if current.is_empty() {
            current = if note.seat == Seat(0) {
                format!("{}. {text}", rounds.len() + 1)
            } else {
                format!("{}. … {text}", rounds.len() + 1)
            };
        } else {
            current = format!("{current}  {text}");
        }
    }
    if !current.is_empty() {
        rounds.push(current);
    }
    rounds
}

/// Rebuilds the panels' view when the game, its clocks, its messages or the words changed.
#[allow(clippy::too_many_arguments)]
pub fn publish_scoreboard(
    play: Res<Play>,
    clocks: Res<Clocks>,
    notices: Res<Notices>,
    words: Res<Words>,
    setup: Res<MatchSetup>,
    preview: Res<Preview>,
    round_over: Res<RoundOver>,
    ask: Res<AskFirst>,
    room: Option<Res<FarGame>>,
    (children, store): (Option<Res<Children>>, Option<Res<Store>>),
    mut board: ResMut<ScoreBoard>,
) {
    let changed = ask.is_changed()
        || room.as_ref().is_some_and(|room| room.is_changed())
        || children.as_ref().is_some_and(|children| children.is_changed())
        || play.is_changed()
        || clocks.is_changed()
        || notices.is_changed()
        || words.is_changed()
        || preview.is_changed()
        || round_over.is_changed();
    let kind = play.kind();
    if !changed && board.game == Some(kind) {
        return;
    }
    let play: &dyn Playing = play.0.as_ref();
    let far = room.as_ref().map_or(&[][..], |room| &room.people[..]);
    let game = play.game();
    // While the panel between two rounds is up, the seats show the round that ended (their
    // roles, what each has), with the scores it brought, and nobody to move yet.
    let ended_round = round_over.0.as_deref();
    let shown = ended_round.unwrap_or(game);
    // The child playing against the Robot is named and pictured as themself on their card.
    let child = children
        .as_deref()
        .zip(store.as_deref())
        .and_then(|(children, store)| children.playing(store))
        .filter(|_| play.has_robot())
        .map(|(_, child)| (child.animal, name_of(&words, child)));
    let child_name = child.as_ref().map(|(_, name)| name.as_str());
    let seats = Seat::all(game.seat_count())
        .map(|seat| SeatBoard {
            seat,
            name: seat_name_in(play, shown, seat, (&words, far, child_name)),
            face: face_of(play.control(seat), child.as_ref().map(|(animal, _)| *animal)),
            control: play.control(seat),
            score: game.score(seat),
            extras: extras(play, shown, seat, &words),
            to_move: ended_round.is_none() && game.actor() == Some(seat),
            clock: clocks.left.as_ref().and_then(|c| c.get(seat.index()).copied()),
            partner: game.partner_of(seat),
            art: shown.seat_art(seat),
        })
        .collect();
    let notice_said = |notice: &Notice| {
        if notice.ready {
            return Utterance::words(&words, notice.key.clone());
        }
        let name = notice.seat.map(|s| seat_name(play, s, &words, far)).unwrap_or_default();
        Utterance::filled(&words, &notice.key, &[("name", &name)])
    };
    let notice_text = |notice: &Notice| {
        if notice.ready {
            return notice.key.clone();
        }
        let name = notice.seat.map(|s| seat_name(play, s, &words, far)).unwrap_or_default();
        words.fill(&notice.key, &[("name", &name)])
    };
    let person_acts = play.person_to_move().is_some();
    let previewing = person_acts && !preview.0.is_empty();
    // The line under the board: a message of the moment, else whose turn it is (as a words key
    // with its arguments, written and said).
    // In a room, what stands in the way of playing comes first (on a phone it is the room's only
    // word).
    let trouble = room.as_deref().and_then(FarGame::trouble);
    let turn_line: Option<(String, Vec<(&str, String)>)> = trouble.or(match game.actor() {
        Some(_) if play.draft_done() => Some((game_key(&words, "confirm_first", kind), Vec::new())),
        Some(_) if previewing => Some((game_key(&words, "preview", kind), Vec::new())),
        Some(_) if play.can_roll() => Some((game_key(&words, "roll_prompt", kind), Vec::new())),
        Some(seat) if play.control(seat) == Control::Far => Some(("far_their_turn".to_string(), Vec::new())),
        Some(_) if play.person_to_move().is_none() => Some(("robot_thinking".to_string(), Vec::new())),
        Some(_) if play.has_robot() => Some(("your_turn".to_string(), Vec::new())),
        Some(seat) => Some(("to_move".to_string(), vec![("name", seat_name(play, seat, &words, far))])),
        None => None,
    });
    let fill = |(key, args): &(String, Vec<(&str, String)>)| {
        let args: Vec<(&str, &str)> = args.iter().map(|(name, value)| (*name, value.as_str())).collect();
        (words.fill(key, &args), Utterance::filled(&words, key, &args))
    };
    let moment = notices.0.as_ref().filter(|n| !n.big);
    // Under a dialog that waits for a tap (the result, the panel between rounds, a question
    // before beginning again) the line says nothing: the dialog says what comes next.
    let waits = game.outcome().is_some() || round_over.0.is_some() || ask.0.is_some();
    let (status, status_said) = match (moment.filter(|_| !waits), turn_line.as_ref().filter(|_| !waits)) {
        (Some(notice), _) => (notice_text(notice), Some(notice_said(notice))),
        (None, Some(line)) => {
            let (written, said) = fill(line);
            // The Robot thinking is shown, never said: a child waits for it in silence.
            (written, Some(said).filter(|_| line.0 != "robot_thinking"))
        }
        (None, None) => (String::new(), None),
    };
    let result = game.outcome().map(|outcome| {
        let winners: Vec<Seat> = match outcome.winner {
            Winner::Seat(seat) => vec![seat],
            Winner::Team(team) => team.seats().collect(),
            Winner::Draw => Vec::new(),
        };
        let person_won = winners.iter().any(|s| play.control(*s) == Control::Person);
        // Robots against a person: "you win" or "the Robot wins"; else the winners by name.
        let against_robot = play.has_robot() && play.controls().contains(&Control::Person);
        let title = match (winners.is_empty(), against_robot) {
            (true, _) => words.get("draw").to_string(),
            (false, true) if person_won => words.get("you_win").to_string(),
            (false, true) => words.get("robot_wins").to_string(),
            (false, false) => {
                let names: Vec<String> = winners.iter().map(|s| seat_name(play, *s, &words, far)).collect();
                words.fill("wins", &[("name", &names.join(" & "))])
            }
        };
        let reason = match outcome.reason {
            EndReason::OutOfTime => {
                // The seat whose clock ran out was the one to move before the game ended.
                let loser = play.previous().and_then(|before| before.to_move()).unwrap_or(Seat(0));
                words.fill("reason_out_of_time", &[("name", &seat_name(play, loser, &words, far))])
            }
            other => words.get(&game_key(&words, &format!("reason_{}", other.key()), kind)).to_string(),
        };
        ResultBoard { title, reason, winner: winners.first().copied() }
    });
    let asking = ask.0.as_ref().map(|asked| match asked {
        Question::StartAgain { new_game: true } => fill(&("ask_new_game".to_string(), Vec::new())),
        Question::StartAgain { new_game: false } => fill(&("ask_restart".to_string(), Vec::new())),
        Question::TakePlace { game, moves } => fill(&(
            "ask_take_place".to_string(),
            vec![("game", words.get(&format!("game_{game}")).to_string()), ("moves", moves.to_string())],
        )),
        Question::Warned { sentence } => (sentence.clone(), Utterance::words(&words, sentence.clone())),
        Question::TakeBack { name } => fill(&("far_asks_back".to_string(), vec![("name", name.clone())])),
    });
    let asking_tutor = matches!(ask.0, Some(Question::Warned { .. }));
    let asking_far = matches!(ask.0, Some(Question::TakeBack { .. }));
    let answers = match (asking_tutor, asking_far) {
        (true, _) => TUTOR_ANSWERS,
        (_, true) => TAKE_BACK_ANSWERS,
        _ => START_AGAIN_ANSWERS,
    };
    let question = game.question(&words).filter(|_| person_acts);
    let choices: Vec<String> = if person_acts {
        game.choice_keys().into_iter().map(|key| words.get(key).to_string()).collect()
    } else {
        Vec::new()
    };
    let big_notice = notices.0.as_ref().filter(|n| n.big);
    // As the game screen obeys Undo and Redo: not while a clock runs or a round's panel is up (nor, in a
    // room, while anyone asks to take back).
    let takes_back = clocks.left.is_none()
        && round_over.0.is_none()
        && room.as_ref().is_none_or(|room| room.asking.is_none() && room.over.is_none());
    let round = round_over
        .0
        .as_ref()
        .and_then(|before| game.round_over(before.as_ref(), play.person_against_robot(), &words));
    let said = SaidBoard {
        status: status_said,
        big_notice: big_notice.map(notice_said),
        // A question with its answers; the game's buttons alone are no question.
        question: question
            .iter()
            .chain(choices.iter().filter(|_| question.is_some()))
            .map(|text| Utterance::words(&words, text.clone()))
            .collect(),
        asking: asking
            .iter()
            .map(|(_, said)| said.clone())
            .chain(asking.iter().flat_map(|_| answers.map(|key| Utterance::of(&words, key))))
            .collect(),
        result: result
            .iter()
            .flat_map(|r| [r.title.clone(), r.reason.clone()])
            .map(|t| Utterance::words(&words, t))
            .collect(),
        round: round
            .iter()
            .flat_map(|r| std::iter::once(r.title.clone()).chain(r.lines.iter().cloned()))
            .map(|t| Utterance::words(&words, t))
            .collect(),
    };
    *board = ScoreBoard {
        game: Some(kind),
        seats,
        bottom_seat: play.person_against_robot().unwrap_or(Seat(0)),
        show_score: game.manner().show_score,
        status,
        notice: notices.0.as_ref().is_some_and(|n| !n.big),
        long_board: game.manner().long,
        big_notice: big_notice.map(notice_text),
        // Once the game is over, only its result speaks: a phase's banner ("one last move")
        // would tell what no longer is.
        banner: shown.banner(&words).filter(|_| game.outcome().is_none()),
        move_list: move_list(play, &words),
        result,
        can_undo: play.can_undo() && takes_back,
        afar: play.afar(),
        can_roll: play.can_roll(),
        can_redo: play.can_redo() && takes_back,
        moves: play.moves_played(),
        clock_choices: setup.level.clock_minutes().to_vec(),
        next_clock: clocks.next_minutes,
        previewing,
        draft_done: play.draft_done(),
        round,
        question_art: game.question_art(),
        can_hint: play.can_hint(),
        choices,
        choice_art: if person_acts { game.choice_arts() } else { Vec::new() },
        question,
        passes_first: play.first().passes_first(),
        asking: asking.map(|(written, _)| written),
        asking_tutor,
        asking_far,
        said,
    };
}
