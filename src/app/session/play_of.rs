//! One game being played, of its own type (`PlayOf<G>`), and how the game screen asks it (`Playing`):
//! its history with undo and redo, who plays each seat, a draft of a person's moves, the last
//! change for the board, what it tells the feedback and the keeper. Generic code the game screen
//! reaches through one object, so its systems are the same for every game (only Crazy Nard adds
//! two of its own, for its dice and cube: `games/nard/dice.rs`).

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
        let before = self.history.game().clone();
        let mover = before.actor()?;
        let mut after = before.clone();
        after.apply(&action).ok()?;
        let note = StepNote::of(&before, &action, &after, hinted);
        self.history.play(&action, note).ok()?;
        // One line per move, which the browser test reads from the console.
        info!(
            "tabla move {} {} {} {}",
            G::KIND,
            before.seat_name(mover),
            self.who(mover),
            before.action_text(&action)
        );
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

impl<G: AppGame> Playing for PlayOf<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn changes(&self) -> u64 {
        self.changes
    }

    fn game(&self) -> &dyn Shown {
        PlayOf::<G>::game(self)
    }

    fn history_game(&self) -> &dyn Shown {
        self.history.game()
    }

    fn previous(&self) -> Option<&dyn Shown> {
        PlayOf::<G>::previous(self).map(|game| game as &dyn Shown)
    }

    fn first(&self) -> &dyn Shown {
        &self.history.steps()[0].game
    }

    fn change(&self) -> &Change {
        &self.change
    }

    fn moves_played(&self) -> usize {
        self.history.moves_played()
    }

    fn undone(&self) -> usize {
        self.history.undone().len()
    }

    fn controls(&self) -> &[Control] {
        &self.controls
    }

    fn control(&self, seat: Seat) -> Control {
        self.controls.get(seat.index()).copied().unwrap_or(Control::Person)
    }

    fn has_robot(&self) -> bool {
        self.controls.iter().any(|c| matches!(c, Control::Robot(_)))
    }

    /// The person's seat when one person plays against Robots.
    fn person_against_robot(&self) -> Option<Seat> {
        let people: Vec<Seat> =
            Seat::all(self.controls.len()).filter(|s| self.control(*s) == Control::Person).collect();
        match people[..] {
            [seat] if self.has_robot() => Some(seat),
            _ => None,
        }
    }

    /// The seat to act when a person plays it; while a draft waits, the person drafting.
    fn person_to_move(&self) -> Option<Seat> {
        if let Some(owner) = self.draft_owner() {
            return Some(owner);
        }
        self.game().actor().filter(|s| self.control(*s) == Control::Person)
    }

    /// The Robot's level when a Robot holds the seat to act (never while a person drafts).
    fn robot_to_move(&self) -> Option<RobotLevel> {
        if self.drafting() {
            return None;
        }
        match self.game().actor().map(|s| self.control(s)) {
            Some(Control::Robot(level)) => Some(level),
            _ => None,
        }
    }

    /// The person's moves are being tried out (Undo takes them back one by one).
    fn drafting(&self) -> bool {
        !self.draft.is_empty()
    }

    /// The draft's moves have done all they can (the dice set is played): it waits to be
    /// confirmed.
    fn draft_done(&self) -> bool {
        self.drafting() && !self.game().draft_open(self.history.game())
    }

    /// A person is to move a piece (no dice due, no draft waiting to be confirmed).
    fn can_hint(&self) -> bool {
        let game = self.game();
        self.person_to_move().is_some()
            && game.chance().is_none()
            && !self.draft_done()
            && game.legal_actions().iter().any(|a| game.motion_of(a).is_some())
    }

    /// A person's move can be taken back (with a clock running, nothing is; in a room, Undo asks
    /// the others first).
    fn can_undo(&self) -> bool {
        self.drafting() || self.history.steps().iter().skip(1).any(|s| self.is_person(s.mover))
    }

    /// Dice are due on a person's turn (in a room, asked for only where the person may choose
    /// something else first; the server throws them by itself otherwise).
    fn can_roll(&self) -> bool {
        let game = self.game();
        !self.drafting()
            && self.person_to_move().is_some()
            && game.chance().is_some()
            && !(self.afar() && game.legal_actions().is_empty())
    }

    fn can_redo(&self) -> bool {
        !self.drafting() && !self.afar() && !self.history.undone().is_empty()
    }

    fn last_move(&self) -> Option<Move> {
        self.last_action().and_then(|(action, before)| before.motion_of(action))
    }

    fn notes(&self) -> Vec<(MoveNote, bool)> {
        PlayOf::notes(self).map(|(note, hinted)| (*note, hinted)).collect()
    }

    /// The moves of `seat` that a hint proposed, in the history as it stands.
    fn hints_used(&self, seat: Seat) -> usize {
        let steps = self.history.steps().iter().filter(|s| s.mover == Some(seat) && s.note.hinted).count();
        let drafted = self.draft.iter().filter(|(_, _, hinted)| *hinted).count();
        steps + if self.draft_owner() == Some(seat) { drafted } else { 0 }
    }

    fn last_turn_paths(&self) -> Vec<(Square, Vec<Square>)> {
        let steps = self.history.steps();
        let Some(mover) = steps.last().and_then(|step| step.mover) else { return Vec::new() };
        let mut paths = Vec::new();
        for pair in steps.windows(2).rev() {
            let (before, step) = (&pair[0].game, &pair[1]);
            if step.mover != Some(mover) {
                break;
            }
            paths.extend(step.action.as_ref().and_then(|action| before.arrow_of(action)));
        }
        paths.reverse();
        paths
    }

    /// The hints and take-backs asked for in this game.
    fn asked(&self) -> Asked {
        self.asked
    }

    /// The game as a record: its level, seats, clocks, actions, what was asked for and its stage.
    fn record(&self) -> Record {
        Record {
            hinted: Record::hinted_in(&self.history, |note| note.hinted),
            hints_asked: self.asked.hints,
            takebacks: self.asked.takebacks,
            stage: self.stage.clone(),
            room: self.room.clone(),
            ..Record::of_history(&self.level, &self.history, self.controls.clone())
        }
    }

    /// Plays the actions taking the piece on `from` to `to` (one, or a route of several: a
    /// checker moved by several numbers) as one motion of one piece, seen to pass through each
    /// action's places. Stops at the first refused action; `false` when none was played.
    fn play_route(&mut self, from: Square, to: Square) -> bool {
        let Some(mover) = self.game().actor() else { return false };
        let before = self.game().clone();
        let mut path = Vec::new();
        let mut reached = None;
        for action in before.route_between(from, to) {
            let step = self.game().motion_of(&action);
            path.extend(self.game().path_of(&action));
            if !self.apply(action) {
                break;
            }
            reached = step.map(|m| m.to).or(reached);
        }
        let Some(reached) = reached else { return false };
        self.change = Change::Played { motion: Some(Move::new(from, reached)), path, mover };
        self.report_played(before);
        true
    }

    fn play_previewed(&mut self, from: Square, to: Square, path: Vec<Square>) -> bool {
        match PlayOf::<G>::game(self).action_between(from, to) {
            Some(action) => self.play_along(action, Some(path)),
            None => false,
        }
    }

    fn choose(&mut self, index: usize) -> bool {
        match PlayOf::<G>::game(self).choices().into_iter().nth(index) {
            Some((action, _)) => self.play(action),
            None => false,
        }
    }

    /// While dice are due: rolls them through the history (the same seeded dice as `tabla text`).
    fn roll(&mut self) -> bool {
        let Some(mover) = self.game().actor().filter(|_| !self.drafting()) else { return false };
        if self.afar() {
            self.dice_asked = true;
            return false;
        }
        let before = self.game().clone();
        let Some(roll) = self.history.roll() else { return false };
        info!(
            "tabla move {} {} {} {}",
            G::KIND,
            before.seat_name(mover),
            self.who(mover),
            before.action_text(&roll)
        );
        self.tell_played();
        self.change = Change::Played { motion: None, path: Vec::new(), mover };
        self.news.push(News::Rolled { before: Box::new(before), after: Box::new(self.game().clone()) });
        true
    }

    /// Plays the draft into the history (its moves as they were tried); `false` when there is
    /// no draft or it is not done.
    fn confirm_draft(&mut self) -> bool {
        if !self.draft_done() {
            return false;
        }
        let before = self.history.game().clone();
        let Some(mover) = self.draft_owner() else { return false };
        for (action, _, hinted) in std::mem::take(&mut self.draft) {
            if self.commit(action, hinted).is_none() {
                break;
            }
        }
        self.changes += 1;
        // The pieces already stand where the draft put them.
        self.change = Change::Played { motion: None, path: Vec::new(), mover };
        let after = Box::new(self.game().clone());
        self.news.push(News::Played { before: Box::new(before), after, kind: PlayKind::Confirmed });
        true
    }

    /// Takes back the person's last move, and the Robot's answers after it; while drafting,
    /// the draft's last move.
    fn undo(&mut self) {
        self.hint = None;
        if let Some((action, _, _)) = self.draft.pop() {
            let mover = self.history.game().actor().unwrap_or(Seat(0));
            self.change = Change::back(self.game().motion_of(&action), mover);
            self.news.push(News::Jumped { afresh: false });
            self.changes += 1;
        } else if self.afar() {
            // A room's game goes back only when the others agree (`far` asks them).
            self.back_asked = self.undo_point();
            self.asked.takebacks += u32::from(self.back_asked.is_some());
        } else if self.can_undo() {
            self.asked.takebacks += 1;
            self.travel(|history| history.undo().map(|step| step.mover));
            self.tell(Happened::Undone);
        }
    }

    /// Replays up to and including the next move of a person, with the Robot's answers before it.
    fn redo(&mut self) {
        self.hint = None;
        if self.can_redo() {
            self.travel(|history| history.redo().map(|step| step.mover));
            self.tell(Happened::Redone);
            if self.history.game().outcome().is_some() {
                self.tell(Happened::Finished);
            }
        }
    }

    /// A new game with the first turn moved to the next seat, where the game passes it round;
    /// else the same start again.
    fn new_game(&mut self) {
        self.draft.clear();
        self.hint = None;
        self.asked = Asked::default();
        match self.history.steps()[0].game.next_first() {
            Some(start) => {
                let seed = self.history.position_seed().wrapping_add(1);
                self.history = History::new(start, seed);
                self.change = Change::Reset;
                self.news.push(News::Jumped { afresh: true });
                self.tell(Happened::BegunAgain);
            }
            None => self.restart(),
        }
    }

    fn restart(&mut self) {
        self.draft.clear();
        self.hint = None;
        self.asked = Asked::default();
        self.history.restart();
        self.change = Change::Reset;
        self.news.push(News::Jumped { afresh: true });
        self.tell(Happened::BegunAgain);
    }

    fn time_out(&mut self, seat: Seat) {
        self.draft.clear();
        self.history.time_out(seat);
        self.change = Change::Reset;
        self.news.push(News::TimedOut);
        self.tell_played();
    }

    /// Hands the seats to other players; a list of the wrong length is ignored.
    fn set_controls(&mut self, controls: &[Control]) {
        if controls.len() == self.controls.len() && controls != self.controls {
            self.controls = controls.to_vec();
            self.tell(Happened::Seated);
        }
    }

    fn ask_hint(&mut self) {
        self.asked.hints += 1;
    }

    fn take_news(&mut self) -> Vec<News> {
        std::mem::take(&mut self.news)
    }

    fn take_happened(&mut self) -> Vec<Happened> {
        std::mem::take(&mut self.happened)
    }

    /// A replay's step: one action on (the piece glides as it was played) or back (it glides
    /// back where it came from); `false` at either end.
    fn step_once(&mut self, on: bool) -> bool {
        self.draft.clear();
        self.hint = None;
        let step = if on { self.history.redo() } else { self.history.undo() };
        let Some(step) = step else { return false };
        let (action, mover) = (step.action.clone(), step.mover.unwrap_or(Seat(0)));
        let before = if on { self.history.previous() } else { Some(self.history.game()) };
        self.change = match (action, before) {
            (Some(action), Some(before)) if on => {
                Change::Played { motion: before.motion_of(&action), path: before.path_of(&action), mover }
            }
            (Some(action), Some(before)) => Change::back(before.motion_of(&action), mover),
            _ => Change::Reset,
        };
        self.news.push(News::Jumped { afresh: false });
        self.changes += 1;
        true
    }

    /// A replay's jump to the state after `actions` actions (0: the start).
    fn jump_to(&mut self, actions: usize) {
        self.draft.clear();
        self.hint = None;
        while self.history.moves_played() > actions && self.history.undo().is_some() {}
        while self.history.moves_played() < actions && self.history.redo().is_some() {}
        self.change = Change::Reset;
        self.news.push(News::Jumped { afresh: false });
        self.changes += 1;
    }

    /// Try again from here: what came after is forgotten and the game goes on from this state
    /// as a new game (its record begins with the same actions; no hint or take-back asked yet).
    fn go_on_from_here(&mut self) {
        self.history.forget_undone();
        // A game of its own: counted on its own, taking its game's place at its first move.
        self.history.reseed(self.history.position_seed());
        // Going on from a position watched again is a move taken back, so a stage's "on your
        // own" star is not earned by it.
        self.asked.takebacks += 1;
        self.change = Change::Reset;
        self.news.push(News::Jumped { afresh: false });
        self.tell(Happened::Opened(Opened::TryAgain));
    }

    fn before_roll(&self, level: RobotLevel) -> Option<Choice> {
        let action = PlayOf::<G>::game(self).before_roll(level, self.history.position_seed())?;
        Some(Choice(Box::new(action)))
    }

    fn thinker(&self, level: RobotLevel) -> Box<dyn AnyThinker> {
        Box::new(ThinkerOf(self.history.thinker(level)))
    }

    fn hint_thinker(&self) -> Option<Box<dyn AnyThinker>> {
        if !PlayOf::can_hint(self) {
            return None;
        }
        let seed = self.history.position_seed().wrapping_add(self.draft.len() as u64);
        Some(Box::new(ThinkerOf(PlayOf::<G>::game(self).thinker(HINT_LEVEL, seed))))
    }

    fn set_hint(&mut self, choice: &Choice) {
        self.hint = action_of::<G>(choice).cloned();
    }

    fn play_far(&mut self, text: &str) -> bool {
        let game = self.history.game();
        // The server's word that a clock ran out.
        if let Some(name) = text.strip_prefix(crate::history::TIME_OUT).and_then(|n| n.strip_prefix(' ')) {
            let Some(seat) = Seat::all(game.seat_count()).find(|&s| game.seat_name(s) == name) else {
                return false;
            };
            if game.outcome().is_some() {
                return false;
            }
            self.time_out(seat);
            return true;
        }
        let Ok(action) = game.parse_action(text) else { return false };
        let Some(mover) = game.actor() else { return false };
        let rolled = game.chance().is_some_and(|rolls| rolls.iter().any(|(roll, _)| *roll == action));
        let before = game.clone();
        if !rolled {
            // The room's word goes into the history, never into a draft: it may be this device's
            // own move coming back after it went back here, and a draft it finds was never played.
            self.draft.clear();
            let (motion, path) = (before.motion_of(&action), before.path_of(&action));
            if self.commit(action, false).is_none() {
                return false;
            }
            self.change = Change::Played { motion, path, mover };
            self.report_played(before);
            return true;
        }
        if self.history.play(&action, StepNote::default()).is_err() {
            return false;
        }
        info!("tabla move {} {} far {}", G::KIND, before.seat_name(mover), before.action_text(&action));
        self.tell_played();
        self.change = Change::Played { motion: None, path: Vec::new(), mover };
        self.news.push(News::Rolled { before: Box::new(before), after: Box::new(self.game().clone()) });
        true
    }

    fn take_dice_asked(&mut self) -> bool {
        std::mem::take(&mut self.dice_asked)
    }

    fn take_back_asked(&mut self) -> Option<usize> {
        self.back_asked.take()
    }

    fn take_back_to(&mut self, actions: usize) {
        self.draft.clear();
        self.hint = None;
        if self.moves_played() <= actions {
            return;
        }
        while self.moves_played() > actions && self.history.undo().is_some() {}
        self.history.forget_undone();
        self.change = Change::Reset;
        self.news.push(News::Jumped { afresh: false });
        self.tell(Happened::Undone);
    }

    fn play_choice(&mut self, choice: Choice) -> bool {
        match choice.0.downcast::<G::Action>() {
            Ok(action) => self.play(*action),
            Err(_) => false,
        }
    }

    fn choice_motion(&self, choice: &Choice) -> Option<Move> {
        action_of::<G>(choice).and_then(|action| PlayOf::<G>::game(self).motion_of(action))
    }

    fn choice_path(&self, choice: &Choice) -> Vec<Square> {
        action_of::<G>(choice).map(|action| PlayOf::<G>::game(self).path_of(action)).unwrap_or_default()
    }

    fn reviewer(&self) -> Box<dyn super::coach::AnyReview> {
        super::coach::reviewer_of(self.history.steps(), &self.controls)
    }

    fn tutor(&self, pending: &Pending) -> Option<Box<dyn super::coach::AnyTutor>> {
        let now = PlayOf::<G>::game(self);
        let (before, actions) = match pending {
            Pending::Route { from, to } => (now, now.route_between(*from, *to)),
            Pending::Previewed { from, to, .. } => {
                (now, now.action_between(*from, *to).into_iter().collect())
            }
            Pending::Draft => {
                (self.history.game(), self.draft.iter().map(|(action, _, _)| action.clone()).collect())
            }
        };
        if actions.is_empty() {
            return None;
        }
        super::coach::tutor_of(before, &actions)
    }

    fn play_pending(&mut self, pending: Pending) -> bool {
        match pending {
            Pending::Route { from, to } => self.play_route(from, to),
            Pending::Previewed { from, to, path } => self.play_previewed(from, to, path),
            Pending::Draft => self.confirm_draft(),
        }
    }
}
