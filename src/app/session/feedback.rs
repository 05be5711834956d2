//! What the person sees and hears around the board besides the game itself: the piece picked and
//! its previewed path, the message over the board, the panel between rounds, a question asked
//! first, the sounds. The game's news (`Playing::take_news`) becomes these in one place,
//! `Feedback::report`.

use super::play::{News, PlayKind, Playing};
use super::shown::Shown;
use crate::app::platform::settings::Words;
use crate::app::platform::sound::SoundCue;
use crate::rules::board::Square;
use crate::rules::{GameKind, Seat};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// The piece the person (or the Robot, about to move it) has picked.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection(pub Option<Square>);

/// The path the picked piece would take, previewed before it is played (places after the
/// piece's own, ending where it stops); empty when nothing is previewed.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Preview(pub Vec<Square>);

/// The message over the board now, if any.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Notices(pub Option<Notice>);

/// A short message over the board (a pass, a refused square), in the words' keys.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// A words key, or the words themselves when `ready` is set.
    pub key: String,
    pub seat: Option<Seat>,
    pub seconds_left: f32,
    /// Shown large over the board (a new round), not in the status line.
    pub big: bool,
    /// The text is already in words.
    pub ready: bool,
}

/// The panel between two rounds (a game of a match just ended), until it is closed: the Robot
/// and the clocks wait for it. It keeps the game as it stood before the round's last action; the
/// report is written when it is shown (`Shown::round_over`), so it names the seats as their panels
/// do and speaks the language chosen meanwhile.
#[derive(Resource, Default)]
pub struct RoundOver(pub Option<Box<dyn Shown>>);

/// A question the person answers before the game goes on (keep playing, or start again).
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct AskFirst(pub Option<Question>);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Question {
    /// Restart (or, `new_game`, New game) asked in a game with moves.
    StartAgain { new_game: bool },
    /// This game would take the place of `game`'s game in progress, which has `moves` moves
    /// (the keeper asks: `keeping.rs`).
    TakePlace { game: GameKind, moves: usize },
    /// The tutor's question about a slip before it is played: the coach's reason, then "Play
    /// it anyway?".
    Warned { sentence: String },
    /// Someone far away (`name`) asks to take back their move (`far`).
    TakeBack { name: String },
}

pub(in crate::app) fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .init_resource::<Preview>()
        .init_resource::<Notices>()
        .init_resource::<RoundOver>()
        .init_resource::<AskFirst>();
}

/// The game's own words for `key` (`<key>_<game>`) when it has them, else the shared ones.
pub fn game_key(words: &Words, key: &str, game: GameKind) -> String {
    let specific = format!("{key}_{game}");
    if words.has(&specific) { specific } else { key.to_string() }
}

/// The messages, marks and sounds around the board (see the module's words).
#[derive(SystemParam)]
pub struct Feedback<'w> {
    pub(in crate::app) words: Res<'w, Words>,
    pub(in crate::app) notices: ResMut<'w, Notices>,
    pub(in crate::app) selection: ResMut<'w, Selection>,
    pub(in crate::app) preview: ResMut<'w, Preview>,
    pub(in crate::app) round_over: ResMut<'w, RoundOver>,
    pub(in crate::app) ask: ResMut<'w, AskFirst>,
    cues: MessageWriter<'w, SoundCue>,
}

impl Feedback<'_> {
    /// Nothing picked, previewed, told or asked: a game begins.
    pub(in crate::app) fn clear(&mut self) {
        *self.selection = Selection::default();
        *self.preview = Preview::default();
        *self.notices = Notices::default();
        *self.round_over = RoundOver::default();
        *self.ask = AskFirst::default();
    }

    /// A short message over the board, by its words key.
    pub(in crate::app) fn tell(&mut self, key: String) {
        self.notices.0 = Some(Notice { key, seat: None, seconds_left: 2.5, big: false, ready: false });
    }

    /// A message over the board already in words, long enough to be said to its end.
    pub(in crate::app) fn tell_words(&mut self, text: String) {
        self.notices.0 = Some(Notice { key: text, seat: None, seconds_left: 6.0, big: false, ready: true });
    }

    /// Picks the piece on `from` and previews `path` for it.
    pub(in crate::app) fn show_path(&mut self, from: Square, path: Vec<Square>) {
        self.selection.0 = Some(from);
        self.preview.0 = path;
    }

    /// Turns what happened to the game since the last report into messages, sounds and marks.
    pub(in crate::app) fn report(&mut self, play: &mut dyn Playing) {
        let person = play.person_against_robot();
        for news in play.take_news() {
            match news {
                News::Played { before, after, kind } => self.played(&*before, &*after, kind, person),
                News::Rolled { before, after } => {
                    self.cues.write(SoundCue::Roll);
                    self.announce(&*before, &*after, person);
                }
                News::Jumped { afresh } => {
                    self.notices.0 = None;
                    self.selection.0 = None;
                    self.preview.0.clear();
                    if afresh {
                        self.round_over.0 = None;
                        self.ask.0 = None;
                    }
                }
                News::TimedOut => {
                    self.cues.write(SoundCue::Win);
                }
            }
        }
    }

    /// After actions: nothing picked any more, their sounds, and the messages they bring.
    fn played(&mut self, before: &dyn Shown, after: &dyn Shown, kind: PlayKind, person: Option<Seat>) {
        self.selection.0 = None;
        self.preview.0.clear();
        let captured = after.pieces().len() < before.pieces().len();
        self.cues.write(if captured { SoundCue::Capture } else { SoundCue::Move });
        if kind == PlayKind::Drafted {
            if !self.notices.0.as_ref().is_some_and(|n| n.big) {
                self.notices.0 = None;
            }
            return;
        }
        if kind == PlayKind::Confirmed {
            self.notices.0 = None;
        }
        if after.outcome().is_some() {
            self.cues.write(SoundCue::Win);
        }
        self.announce(before, after, person);
    }

    /// The messages and panels that actions or a roll bring: who passed, a new phase, a round over.
    fn announce(&mut self, before: &dyn Shown, after: &dyn Shown, person: Option<Seat>) {
        // A big message (a new round, a tie) stays for its time; small ones end with the next move.
        if !self.notices.0.as_ref().is_some_and(|n| n.big) {
            self.notices.0 = None;
        }
        for seat in after.passed() {
            self.cues.write(SoundCue::Pass);
            let key = game_key(&self.words, "passes", after.kind());
            self.notices.0 =
                Some(Notice { key, seat: Some(seat), seconds_left: 3.0, big: false, ready: false });
        }
        if let Some(text) = after.phase_notice(before, person, &self.words) {
            self.notices.0 =
                Some(Notice { key: text, seat: None, seconds_left: 3.5, big: true, ready: true });
        }
        if after.round_over(before, person, &self.words).is_some() {
            self.round_over.0 = Some(before.boxed());
        }
    }

    /// The board waits for a panel between rounds to be closed, or a question to be answered.
    pub(in crate::app) fn waits(&self) -> bool {
        self.round_over.0.is_some() || self.ask.0.is_some()
    }
}

/// A message fades after its time.
pub(in crate::app) fn fade_notice(mut notices: ResMut<Notices>, time: Res<Time>) {
    let Some(notice) = notices.0.as_mut() else { return };
    notice.seconds_left -= time.delta_secs();
    if notice.seconds_left <= 0.0 {
        notices.0 = None;
    }
}

/// The coach's arrows on the board now: the move played, the better one, and the star of the
/// best move.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct CoachArrows {
    pub played: Vec<(Square, Vec<Square>)>,
    pub better: Vec<(Square, Vec<Square>)>,
    pub star: Option<Square>,
}
