//! One game being played, of its own type (`PlayOf<G>`), and how the game screen asks it
//! (`Playing`, in `playing.rs`): its history with undo and redo, who plays each seat, a draft of a
//! person's moves, the last change for the board, what it tells the feedback and the keeper.
//! Generic code the game screen reaches through one object, so its systems are the same for every
//! game (only Crazy Nard adds two of its own, for its dice and cube: `games/nard/dice.rs`).

use super::game::AppGame;
use super::play::{
    AnyThinker, Asked, Change, Choice, HINT_LEVEL, MoveNote, News, Pending, PlayKind, Playing, StepNote,
};
use super::play::{Happened, Opened, Play};
use super::shown::Shown;
use crate::app::launch::{Control, MatchSetup};
use crate::history::History;
use crate::levels::Level;
use crate::record::{Record, RecordError, RoomPlace};
use crate::robot::{RobotLevel, Thinker};
use crate::rules::board::{Move, Square};
use crate::rules::{GameKind, Seat};
use std::any::Any;
use tracing::info;

mod playing;

/// One game being played, of its own type: its history (undo, redo and dice are the history's),
/// who plays each seat, a person's moves tried out and not yet confirmed, and what the last change
/// was. The game screen holds it as `Play` and asks it through `Playing`.
pub struct PlayOf<G: AppGame> {
    history: History<G, StepNote>,
    /// Who plays each seat, one entry per seat of the game.
    controls: Vec<Control>,
    pub change: Change,
    /// A person's moves tried out before they are confirmed (`GameView::DRAFTS`), each with
    /// the game after it and whether a hint proposed it; the history holds none of them until
    /// the draft is confirmed.
    draft: Vec<(G::Action, G, bool)>,
    /// The move the last hint proposed, until the next move is played or time jumps.
    hint: Option<G::Action>,
    /// What happened since the feedback last read it (`take_news`).
    news: Vec<News>,
    /// What happened since the keeper was last told (`take_happened`).
    happened: Vec<Happened>,
    /// Counts the changes to the game and its players (`change_if` compares it).
    changes: u64,
    asked: Asked,
    /// The level it is played on and the stage it is played for, which its record names (its
    /// own, whatever is chosen next on the setup screen or the map).
    level: Level,
    stage: Option<String>,
    /// The room the game is played in, with someone far away.
    room: Option<RoomPlace>,
    /// A person asked for the dice of a room's game, which its server throws.
    dice_asked: bool,
    /// A person asked Undo in a room's game: the actions it would go back to.
    back_asked: Option<usize>,
}

impl<G: AppGame> PlayOf<G> {
    pub fn new(start: G, setup: &MatchSetup, seed: u64) -> PlayOf<G> {
        let seats = start.seat_count();
        PlayOf {
            history: History::new(start, seed),
            controls: setup.controls(seats),
            change: Change::Reset,
            draft: Vec::new(),
            hint: None,
            news: Vec::new(),
            happened: vec![Happened::Opened(Opened::New)],
            changes: 0,
            asked: Asked::default(),
            level: setup.level.clone(),
            stage: setup.stage.clone(),
            room: None,
            dice_asked: false,
            back_asked: None,
        }
    }

    /// A record's game, replayed through the rules with its move list, hint marks, and the
    /// hints and take-backs asked for.
    pub fn of_record(record: &Record, from: Opened) -> Result<PlayOf<G>, RecordError> {
        let level = record.level()?.with_first(Seat(record.first));
        let history = record.replay::<G, StepNote>(|before, action, index| {
            let mut after = before.clone();
            after.play(action);
            StepNote::of(before, action, &after, record.hinted.contains(&(index as u32 + 1)))
        })?;
        Ok(PlayOf {
            history,
            controls: record.seats.clone(),
            change: Change::Reset,
            draft: Vec::new(),
            hint: None,
            news: Vec::new(),
            happened: vec![Happened::Opened(from)],
            changes: 0,
            asked: Asked { hints: record.hints_asked, takebacks: record.takebacks },
            level,
            stage: record.stage.clone(),
            room: record.room.clone(),
            dice_asked: false,
            back_asked: None,
        })
    }

    /// The game changed: the keeper is told `happened`, and Bevy will see the change.
    fn tell(&mut self, happened: Happened) {
        self.changes += 1;
        // A draft confirmed plays several actions: one save says them all.
        if !(happened == Happened::Played && self.happened.last() == Some(&Happened::Played)) {
            self.happened.push(happened);
        }
    }

    /// After actions reached the history: the game's end, when they ended it.
    fn tell_played(&mut self) {
        self.tell(Happened::Played);
        if self.history.game().outcome().is_some() {
            self.tell(Happened::Finished);
        }
    }

    pub fn history(&self) -> &History<G, StepNote> {
        &self.history
    }

    /// The game as the board shows it: with the draft's moves, if any.
    pub fn game(&self) -> &G {
        self.draft.last().map_or(self.history.game(), |(_, game, _)| game)
    }

    /// The state before the last step (of the draft, while there is one).
    pub fn previous(&self) -> Option<&G> {
        match self.draft.len() {
            0 => self.history.previous(),
            1 => Some(self.history.game()),
            n => Some(&self.draft[n - 2].1),
        }
    }

    /// The last action and the state it was played in.
    fn last_action(&self) -> Option<(&G::Action, &G)> {
        match self.draft.last() {
            Some((action, _, _)) => Some((action, self.previous()?)),
            None => Some((self.history.last().action.as_ref()?, self.history.previous()?)),
        }
    }

    /// The seat whose moves the draft holds.
    fn draft_owner(&self) -> Option<Seat> {
        self.drafting().then(|| self.history.game().actor()).flatten()
    }

    /// The move list so far, each entry with whether a hint proposed its move.
    pub fn notes(&self) -> impl Iterator<Item = (&MoveNote, bool)> {
        self.history.steps().iter().flat_map(|step| step.note.moves.iter().map(|m| (m, step.note.hinted)))
    }

    /// Who plays the seat, as the move lines name it: a person here, someone far away, the Robot.
    fn who(&self, seat: Seat) -> &'static str {
        match self.control(seat) {
            Control::Person => "person",
            Control::Far => "far",
            Control::Robot(_) => "robot",
        }
    }

    fn is_person(&self, seat: Option<Seat>) -> bool {
        seat.is_some_and(|s| self.control(s) == Control::Person)
    }

    /// Plays a legal action for the seat to act; `false` when it was refused (nothing changed).
    pub fn play(&mut self, action: G::Action) -> bool {
        self.play_along(action, None)
    }

    /// Plays an action whose piece is seen to pass through `path` (the chain the person
    /// previewed), or else through the rules' own path. A person's move in a game that drafts
    /// goes into the draft.
    pub fn play_along(&mut self, action: G::Action, path: Option<Vec<Square>>) -> bool {
        let Some(mover) = self.game().actor() else { return false };
        let before = self.game().clone();
        let motion = before.motion_of(&action);
        let path = path.unwrap_or_else(|| before.path_of(&action));
        if !self.apply(action) {
            return false;
        }
        self.change = Change::Played { motion, path, mover };
        self.report_played(before);
        true
    }

    /// Plays one action: into the draft when it is a person's move in a game that drafts,
    /// else into the history; `false` when refused.
    fn apply(&mut self, action: G::Action) -> bool {
        let hinted = self.hint.take().is_some_and(|hint| hint == action);
        let person = self.is_person(self.game().actor());
        let drafts = G::DRAFTS && person && self.game().motion_of(&action).is_some();
        if !(drafts || self.drafting()) {
            return self.commit(action, hinted).is_some();
        }
        if self.draft_done() || !drafts {
            return false;
        }
        let mut after = self.game().clone();
        if after.apply(&action).is_err() {
            return false;
        }
        self.draft.push((action, after, hinted));
        self.changes += 1;
        true
    }

    /// Tells what was played since `before`.
    fn report_played(&mut self, before: G) {
        let kind = if self.drafting() { PlayKind::Drafted } else { PlayKind::Played };
        self.news.push(News::Played { before: Box::new(before), after: Box::new(self.game().clone()), kind });
    }

    /// Plays one action into the history, with its move-list entry.
    fn commit(&mut self, action: G::Action, hinted: bool) -> Option<()> {
        let before = self.history.game();
        let mover = before.actor()?;
        // One line per move, which the browser test reads from the console.
        let line = format!(
            "tabla move {} {} {} {}",
            G::KIND,
            before.seat_name(mover),
            self.who(mover),
            before.action_text(&action)
        );
        self.history
            .play_noted(&action, |before, after| StepNote::of(before, &action, after, hinted))
            .ok()?;
        info!("{line}");
        self.tell_played();
        Some(())
    }

    /// How many actions Undo goes back to: before the last move of a person here, at a place
    /// the game may stop at (the Robot's and far seats' moves after it go too).
    fn undo_point(&self) -> Option<usize> {
        let steps = self.history.steps();
        (1..steps.len())
            .rev()
            .find(|&i| self.is_person(steps[i].mover) && steps[i - 1].game.undo_stop())
            .map(|i| i - 1)
    }

    /// Steps through the history (back or on, by `step`, which gives the mover of the step it
    /// took, or `None` at the end) until a person's move has been passed and the game stands
    /// where the game may stop (`undo_stop`: not in the middle of a dice set).
    fn travel(&mut self, step: impl Fn(&mut History<G, StepNote>) -> Option<Option<Seat>>) {
        while let Some(mover) = step(&mut self.history) {
            if self.is_person(mover) && self.history.game().undo_stop() {
                break;
            }
        }
        self.change = Change::Reset;
        self.news.push(News::Jumped { afresh: false });
    }
}

impl Play {
    /// The game as its own game's: for a game's own systems (its dice, its cube) and the tests.
    /// Asked of another game, it is a programming error.
    pub fn of<G: AppGame>(&self) -> &PlayOf<G> {
        self.0.as_any().downcast_ref().unwrap_or_else(|| panic!("the game being played is not {}", G::KIND))
    }

    /// Whether `G`'s game is being played.
    pub fn is<G: AppGame>(&self) -> bool {
        self.0.as_any().is::<PlayOf<G>>()
    }
}

impl<G: AppGame> From<PlayOf<G>> for Play {
    fn from(play: PlayOf<G>) -> Play {
        Play(Box::new(play))
    }
}

/// A thinker of `G`'s, handing its choice over without its type.
struct ThinkerOf<G: AppGame>(Box<dyn Thinker<G>>);

impl<G: AppGame> AnyThinker for ThinkerOf<G> {
    fn step(&mut self, nodes: u64) -> Option<Choice> {
        self.0.step(nodes).map(|action| Choice(Box::new(action)))
    }
}

/// The action a choice holds, when it is `G`'s.
fn action_of<G: AppGame>(choice: &Choice) -> Option<&G::Action> {
    choice.0.downcast_ref::<G::Action>()
}
