//! The game being played, as the screens see it: its history, who plays each seat, and the last
//! change for the board's animation. Every decision is the rules'; this keeps the history.

use super::game::AppGame;
use super::keeping::{Happened, Opened};
use super::turn::Clocks;
use crate::app::launch::{Control, MatchSetup};
use crate::history::History;
use crate::levels::Level;
use crate::record::{Record, RecordError};
use crate::robot::RobotLevel;
use crate::rules::board::{Move, Square};
use crate::rules::{GameKind, Outcome, Seat};
use bevy::prelude::*;
use tracing::info;

/// The Robot's level that thinks of hints: not the strongest, and not the first either, whose
/// moves are meant to be beaten.
pub const HINT_LEVEL: RobotLevel = RobotLevel::Two;

/// What any screen may know of the game being played, whatever the game: its name and how it
/// ended (for a match, the match).
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct NowPlaying {
    pub game: Option<GameKind>,
    pub outcome: Option<Outcome>,
}

/// Publishes `NowPlaying` for `G`'s game when it changes.
pub(super) fn publish_now_playing<G: AppGame>(play: Res<Play<G>>, mut now: ResMut<NowPlaying>) {
    if play.is_changed() {
        now.set_if_neq(NowPlaying { game: Some(G::KIND), outcome: play.game().outcome() });
    }
}

/// What the last change to the game was, for the board's animation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// An action was played: the piece it moved, if any (a roll moves none), glides along
    /// `path`, the places it passed through, ending on `motion.to`.
    Played { motion: Option<Move>, path: Vec<Square>, mover: Seat },
    /// A jump in time (start, restart, undo, redo): the board is laid out afresh.
    Reset,
}

impl Change {
    /// An action taken back: its piece glides back the way it came.
    fn back(motion: Option<Move>, mover: Seat) -> Change {
        let back = motion.map(|m| Move::new(m.to, m.from));
        Change::Played { motion: back, path: back.map(|m| vec![m.to]).unwrap_or_default(), mover }
    }
}

/// One entry of the move list: a piece letter's words key and the square it went to, or a
/// skipped turn (`letter` and `to` both `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    pub seat: Seat,
    pub letter: Option<&'static str>,
    pub to: Option<Square>,
}

/// What the history remembers with each step: its move-list entries, and whether the move was
/// the one a hint proposed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepNote {
    pub moves: Vec<MoveNote>,
    pub hinted: bool,
}

impl StepNote {
    /// The move-list entries of `action`, played in `before` and leading to `after`: the piece's
    /// letter and where it went, then the seats that passed right after it.
    pub fn of<G: AppGame>(before: &G, action: &G::Action, after: &G, hinted: bool) -> StepNote {
        let mut moves = Vec::new();
        if let (Some(letter), Some(motion), Some(seat)) =
            (before.piece_letter(action), before.motion_of(action), before.actor())
        {
            moves.push(MoveNote { seat, letter: Some(letter), to: Some(motion.to) });
            moves.extend(after.passed().into_iter().map(|seat| MoveNote { seat, letter: None, to: None }));
        }
        StepNote { moves, hinted }
    }
}

/// The game being played: its history (undo, redo and dice are the history's), who plays each
/// seat, a person's moves tried out and not yet confirmed, and what the last change was. Systems
/// change it through `change_if`, so Bevy sees it changed only when the game (or its players)
/// did: a piece picked, a hint shown or a panel opened leaves it as it was.
#[derive(Resource)]
pub struct Play<G: AppGame> {
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
    news: Vec<News<G>>,
    /// What happened since the keeper was last told (`take_happened`).
    happened: Vec<Happened>,
    /// Counts the changes to the game and its players (`change_if` compares it).
    changes: u64,
    asked: Asked,
    /// The level it is played on and the stage it is played for, which its record names (its
    /// own, whatever is chosen next on the setup screen or the map).
    level: Level,
    stage: Option<String>,
}

/// Runs `f` on the game being played and marks it changed for Bevy only when the game (or who
/// plays it) changed: a tap that only picks a piece leaves it unchanged.
pub fn change_if<G: AppGame, T>(play: &mut ResMut<Play<G>>, f: impl FnOnce(&mut Play<G>) -> T) -> T {
    let inner = play.bypass_change_detection();
    let before = inner.changes;
    let answer = f(inner);
    if inner.changes != before {
        play.set_changed();
    }
    answer
}

/// A record to go on from when the game screen opens, and where it came from.
#[derive(Resource, Clone, Debug)]
pub struct Resume {
    pub record: Record,
    pub from: Opened,
}

/// The game is being watched again: shown, not played, so the turns, the clocks, hints and the
/// keeping wait (`replay` keeps it). `Opening`: the game screen opens to watch its game.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watching {
    Opening,
    Open,
}

/// A run condition: whether the game is being watched again.
pub fn watching(watching: Option<Res<Watching>>) -> bool {
    watching.is_some()
}

/// What a person asked for in a game besides moves: hints, and moves taken back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    pub hints: u32,
    pub takebacks: u32,
}

/// What happened to the game, as `Play` reports it: the one place that turns it into messages,
/// sounds and marks (`turn::Feedback::report`) reads these, in order.
#[derive(Clone, Debug)]
pub enum News<G> {
    /// Actions reached the game: one, a checker's route of several, a move into a draft, or a
    /// draft confirmed; the game `before` and `after` them.
    Played { before: G, after: G, kind: PlayKind },
    /// The dice were rolled: the game `before` and `after` the roll (a tie at the opening, who
    /// starts, numbers that pass at once all show in `after`).
    Rolled { before: G, after: G },
    /// Time jumped (undo, redo); `afresh` when a new game began (restart, new game).
    Jumped { afresh: bool },
    /// A seat's clock ran out and the game ended with that.
    TimedOut,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayKind {
    /// Played into the history.
    Played,
    /// Tried out in a draft, not played yet.
    Drafted,
    /// A draft played into the history at once.
    Confirmed,
}

impl<G: AppGame> Play<G> {
    pub fn new(start: G, setup: &MatchSetup, seed: u64) -> Play<G> {
        let seats = start.seat_count();
        Play {
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
        }
    }

    /// A record's game, replayed through the rules with its move list, hint marks, and the
    /// hints and take-backs asked for.
    pub fn of_record(record: &Record, from: Opened) -> Result<Play<G>, RecordError> {
        let level = record.level()?.with_first(Seat(record.first));
        let history = record.replay::<G, StepNote>(|before, action, index| {
            let mut after = before.clone();
            after.play(action);
            StepNote::of(before, action, &after, record.hinted.contains(&(index as u32 + 1)))
        })?;
        Ok(Play {
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
        })
    }

    /// The game as a record: its level, seats, clocks, actions, what was asked for and its stage.
    pub fn record(&self, clocks: &Clocks) -> Record {
        Record {
            clock_minutes: clocks.minutes,
            clock_left_ms: clocks.left_ms(),
            hinted: Record::hinted_in(&self.history, |note| note.hinted),
            hints_asked: self.asked.hints,
            takebacks: self.asked.takebacks,
            stage: self.stage.clone(),
            ..Record::of_history(&self.level, &self.history, self.controls.clone())
        }
    }

    /// What happened since the keeper was last told, in order.
    pub fn take_happened(&mut self) -> Vec<Happened> {
        std::mem::take(&mut self.happened)
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

    /// The hints and take-backs asked for in this game.
    pub fn asked(&self) -> Asked {
        self.asked
    }

    /// A hint was asked for.
    pub fn ask_hint(&mut self) {
        self.asked.hints += 1;
    }

    pub fn controls(&self) -> &[Control] {
        &self.controls
    }

    /// Hands the seats to other players; a list of the wrong length is ignored.
    pub fn set_controls(&mut self, controls: &[Control]) {
        if controls.len() == self.controls.len() && controls != self.controls {
            self.controls = controls.to_vec();
            self.tell(Happened::Seated);
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

    pub fn last_move(&self) -> Option<Move> {
        self.last_action().and_then(|(action, before)| before.motion_of(action))
    }

    /// The person's moves are being tried out (Undo takes them back one by one).
    pub fn drafting(&self) -> bool {
        !self.draft.is_empty()
    }

    /// The draft's moves have done all they can (the dice set is played): it waits to be
    /// confirmed.
    pub fn draft_done(&self) -> bool {
        self.drafting() && !self.game().draft_open(self.history.game())
    }

    pub fn moves_played(&self) -> usize {
        self.history.moves_played()
    }

    pub fn control(&self, seat: Seat) -> Control {
        self.controls.get(seat.index()).copied().unwrap_or(Control::Person)
    }

    /// The seat to act when a person plays it; while a draft waits, the person drafting.
    pub fn person_to_move(&self) -> Option<Seat> {
        if let Some(owner) = self.draft_owner() {
            return Some(owner);
        }
        self.game().actor().filter(|s| self.control(*s) == Control::Person)
    }

    /// The seat whose moves the draft holds.
    fn draft_owner(&self) -> Option<Seat> {
        self.drafting().then(|| self.history.game().actor()).flatten()
    }

    /// The Robot's level when a Robot holds the seat to act (never while a person drafts).
    pub fn robot_to_move(&self) -> Option<RobotLevel> {
        if self.drafting() {
            return None;
        }
        match self.game().actor().map(|s| self.control(s)) {
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

    /// The move list so far, each entry with whether a hint proposed its move.
    pub fn notes(&self) -> impl Iterator<Item = (&MoveNote, bool)> {
        self.history.steps().iter().flat_map(|step| step.note.moves.iter().map(|m| (m, step.note.hinted)))
    }

    /// The moves of `seat` that a hint proposed, in the history as it stands.
    pub fn hints_used(&self, seat: Seat) -> usize {
        let steps = self.history.steps().iter().filter(|s| s.mover == Some(seat) && s.note.hinted).count();
        let drafted = self.draft.iter().filter(|(_, _, hinted)| *hinted).count();
        steps + if self.draft_owner() == Some(seat) { drafted } else { 0 }
    }

    /// A person is to move a piece (no dice due, no draft waiting to be confirmed).
    pub fn can_hint(&self) -> bool {
        let game = self.game();
        self.person_to_move().is_some()
            && game.chance().is_none()
            && !self.draft_done()
            && game.legal_actions().iter().any(|a| game.motion_of(a).is_some())
    }

    /// Remembers the move a hint proposed, so the move list can mark it when it is played.
    pub fn set_hint(&mut self, action: G::Action) {
        self.hint = Some(action);
    }

    /// A Robot not at its strongest thinking of a move for the person to act, on the board as
    /// it stands (with the draft); none while dice are due or a Robot is to act.
    pub fn hint_thinker(&self) -> Option<Box<dyn crate::robot::Thinker<G>>> {
        if !self.can_hint() {
            return None;
        }
        let seed = self.history.position_seed().wrapping_add(self.draft.len() as u64);
        Some(self.game().thinker(HINT_LEVEL, seed))
    }

    /// A person's move can be taken back (with a clock running, nothing is).
    pub fn can_undo(&self) -> bool {
        self.drafting() || self.history.steps().iter().skip(1).any(|s| self.is_person(s.mover))
    }

    /// Dice are due on a person's turn.
    pub fn can_roll(&self) -> bool {
        !self.drafting() && self.person_to_move().is_some() && self.game().chance().is_some()
    }

    pub fn can_redo(&self) -> bool {
        !self.drafting() && !self.history.undone().is_empty()
    }

    fn is_person(&self, seat: Option<Seat>) -> bool {
        seat.is_some_and(|s| self.control(s) == Control::Person)
    }

    /// What happened since the last call, in order (for `turn::Feedback::report`).
    pub fn take_news(&mut self) -> Vec<News<G>> {
        std::mem::take(&mut self.news)
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

    /// Plays the actions taking the piece on `from` to `to` (one, or a route of several: a
    /// checker moved by several numbers) as one motion of one piece, seen to pass through each
    /// action's places. Stops at the first refused action; `false` when none was played.
    pub fn play_route(&mut self, from: Square, to: Square) -> bool {
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
        self.news.push(News::Played { before, after: self.game().clone(), kind });
    }

    /// Plays the draft into the history (its moves as they were tried); `false` when there is
    /// no draft or it is not done.
    pub fn confirm_draft(&mut self) -> bool {
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
        self.news.push(News::Played { before, after: self.game().clone(), kind: PlayKind::Confirmed });
        true
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
        let who = if self.is_person(Some(mover)) { "person" } else { "robot" };
        info!("tabla move {} {} {} {}", G::KIND, before.seat_name(mover), who, before.action_text(&action));
        self.tell_played();
        Some(())
    }

    /// While dice are due: rolls them through the history (the same seeded dice as `tabla text`).
    pub fn roll(&mut self) -> bool {
        let Some(mover) = self.game().actor().filter(|_| !self.drafting()) else { return false };
        let before = self.game().clone();
        let Some(roll) = self.history.roll() else { return false };
        let who = if self.is_person(Some(mover)) { "person" } else { "robot" };
        info!("tabla move {} {} {who} {}", G::KIND, before.seat_name(mover), before.action_text(&roll));
        self.tell_played();
        self.change = Change::Played { motion: None, path: Vec::new(), mover };
        self.news.push(News::Rolled { before, after: self.game().clone() });
        true
    }

    /// Takes back the person's last move, and the Robot's answers after it; while drafting,
    /// the draft's last move.
    pub fn undo(&mut self) {
        self.hint = None;
        if let Some((action, _, _)) = self.draft.pop() {
            let mover = self.history.game().actor().unwrap_or(Seat(0));
            self.change = Change::back(self.game().motion_of(&action), mover);
            self.news.push(News::Jumped { afresh: false });
            self.changes += 1;
        } else if self.can_undo() {
            self.asked.takebacks += 1;
            self.travel(|history| history.undo().map(|step| step.mover));
            self.tell(Happened::Undone);
        }
    }

    /// Replays up to and including the next move of a person, with the Robot's answers before it.
    pub fn redo(&mut self) {
        self.hint = None;
        if self.can_redo() {
            self.travel(|history| history.redo().map(|step| step.mover));
            self.tell(Happened::Redone);
            if self.history.game().outcome().is_some() {
                self.tell(Happened::Finished);
            }
        }
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

    /// A new game with the first turn moved to the next seat, where the game passes it round;
    /// else the same start again.
    pub fn new_game(&mut self) {
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

    pub fn restart(&mut self) {
        self.draft.clear();
        self.hint = None;
        self.asked = Asked::default();
        self.history.restart();
        self.change = Change::Reset;
        self.news.push(News::Jumped { afresh: true });
        self.tell(Happened::BegunAgain);
    }

    /// A replay's step: one action on (the piece glides as it was played) or back (it glides
    /// back where it came from); `false` at either end.
    pub fn step_once(&mut self, on: bool) -> bool {
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
    pub fn jump_to(&mut self, actions: usize) {
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
    pub fn go_on_from_here(&mut self) {
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

    pub fn time_out(&mut self, seat: Seat) {
        self.draft.clear();
        self.history.time_out(seat);
        self.change = Change::Reset;
        self.news.push(News::TimedOut);
        self.tell_played();
    }
}
