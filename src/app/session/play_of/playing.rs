//! How the game screen asks a game of its own type (`Playing` for `PlayOf<G>`): what stands,
//! what may be done, and doing it (a tap's route, a roll, a confirmation, undo and redo, a
//! replay's steps, a move from far away, the Robot's and the hint's thinking).

use super::*;

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

    fn reviewer(&self) -> Box<dyn crate::app::session::coach::AnyReview> {
        crate::app::session::coach::reviewer_of(self.history.steps(), &self.controls)
    }

    fn tutor(&self, pending: &Pending) -> Option<Box<dyn crate::app::session::coach::AnyTutor>> {
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
        crate::app::session::coach::tutor_of(before, &actions)
    }

    fn play_pending(&mut self, pending: Pending) -> bool {
        match pending {
            Pending::Route { from, to } => self.play_route(from, to),
            Pending::Previewed { from, to, path } => self.play_previewed(from, to, path),
            Pending::Draft => self.confirm_draft(),
        }
    }
}
