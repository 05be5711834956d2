//! A game with its past: every state since the start, undo and redo, and the seeded dice. The text
//! interface and the app both keep their game in a `History`, so there is one way to take an
//! action back and one way to roll the dice in the whole project.

use crate::chance;
use crate::rules::{Game, RuleError, Seat};

/// One state of the game and how it was reached. `note` is whatever the keeper of the history
/// wants to remember with it (the app's move-list entries; `()` for the text interface).
#[derive(Clone, Debug)]
pub struct Step<G: Game, N = ()> {
    pub game: G,
    /// The action that led here (`None` for the start and for a clock running out).
    pub action: Option<G::Action>,
    /// The seat that acted.
    pub mover: Option<Seat>,
    /// The seat whose clock ran out, for the step a clock running out made.
    pub timed_out: Option<Seat>,
    pub note: N,
}

#[derive(Clone, Debug)]
pub struct History<G: Game, N = ()> {
    start: G,
    steps: Vec<Step<G, N>>,
    undone: Vec<Step<G, N>>,
    seed: u64,
}

impl<G: Game, N: Default + Clone> History<G, N> {
    pub fn new(start: G, seed: u64) -> History<G, N> {
        History { steps: vec![Self::first(start.clone())], start, undone: Vec::new(), seed }
    }

    fn first(game: G) -> Step<G, N> {
        Step { game, action: None, mover: None, timed_out: None, note: N::default() }
    }

    /// The game as it stands.
    pub fn game(&self) -> &G {
        &self.steps.last().expect("a history always holds the start").game
    }

    /// The state before the last step.
    pub fn previous(&self) -> Option<&G> {
        self.steps.len().checked_sub(2).map(|i| &self.steps[i].game)
    }

    pub fn last(&self) -> &Step<G, N> {
        self.steps.last().expect("a history always holds the start")
    }

    /// Every step from the start (the start itself first).
    pub fn steps(&self) -> &[Step<G, N>] {
        &self.steps
    }

    /// Steps that redo would bring back, the next one last.
    pub fn undone(&self) -> &[Step<G, N>] {
        &self.undone
    }

    /// Actions (and clock run-outs) since the start.
    pub fn moves_played(&self) -> usize {
        self.steps.len() - 1
    }

    /// The seed the game was begun with (a restart takes a new one).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Every step since the start in the text interface's notation, each written by the state
    /// before it (`Game::action_text`); a clock running out is `time_out <seat name>`.
    pub fn action_texts(&self) -> Vec<String> {
        self.steps.windows(2).map(|pair| step_text(&pair[0].game, &pair[1])).collect()
    }

    /// What redo would bring back, in the same notation, the next step first.
    pub fn undone_texts(&self) -> Vec<String> {
        let mut before = self.game();
        let mut texts = Vec::new();
        for step in self.undone.iter().rev() {
            texts.push(step_text(before, step));
            before = &step.game;
        }
        texts
    }

    /// The seed of every random choice made in the current position (the dice, the Robot's
    /// ties and errors): the game's seed mixed with how far the game has come, so a game replays
    /// the same from its seed and its actions.
    pub fn position_seed(&self) -> u64 {
        self.seed ^ (self.steps.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Checks an action against the rules and plays it; a refused action changes nothing.
    pub fn play(&mut self, action: &G::Action, note: N) -> Result<(), RuleError> {
        self.play_noted(action, |_, _| note)
    }

    /// As `play`, with the step's note made from the game before the action and after it (the
    /// action is applied once).
    pub fn play_noted(
        &mut self,
        action: &G::Action,
        note: impl FnOnce(&G, &G) -> N,
    ) -> Result<(), RuleError> {
        let mut next = self.game().clone();
        next.apply(action)?;
        let note = note(self.game(), &next);
        let mover = self.game().to_move();
        self.push(Step { game: next, action: Some(action.clone()), mover, timed_out: None, note });
        Ok(())
    }

    /// While dice are due: rolls them with the position's seed and plays the roll.
    pub fn roll(&mut self) -> Option<G::Action> {
        let rolls = self.game().chance()?;
        let roll = chance::pick_chance(rolls, &mut chance::rng(self.position_seed()))?;
        self.play(&roll, N::default()).ok()?;
        Some(roll)
    }

    /// The seat ran out of time: the game ends with that, as a step of its own.
    pub fn time_out(&mut self, seat: Seat) {
        let mut game = self.game().clone();
        game.time_out(seat);
        self.push(Step { timed_out: Some(seat), ..Self::first(game) });
    }

    fn push(&mut self, step: Step<G, N>) {
        self.steps.push(step);
        self.undone.clear();
    }

    /// Takes the last step back; `None` at the start.
    pub fn undo(&mut self) -> Option<&Step<G, N>> {
        if self.steps.len() < 2 {
            return None;
        }
        let step = self.steps.pop().expect("more than one step");
        self.undone.push(step);
        self.undone.last()
    }

    /// Plays the last undone step again; `None` when nothing was undone.
    pub fn redo(&mut self) -> Option<&Step<G, N>> {
        let step = self.undone.pop()?;
        self.steps.push(step);
        self.steps.last()
    }

    /// Forgets what redo would bring back: the game goes on from here as a game of its own.
    pub fn forget_undone(&mut self) {
        self.undone.clear();
    }

    /// Goes on with `seed` for what is still to come (a game tried again from a position is a game
    /// of its own); the steps played stay as they were.
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Back to the start, with a new seed so the dice and the Robot do not repeat the last game.
    pub fn restart(&mut self) {
        self.steps = vec![Self::first(self.start.clone())];
        self.undone.clear();
        self.seed = self.seed.wrapping_add(1);
    }
}

/// How the text interface and records write a clock running out.
pub const TIME_OUT: &str = "time_out";

/// A step as text, written by the state it was taken in.
fn step_text<G: Game, N>(before: &G, step: &Step<G, N>) -> String {
    match (&step.action, step.timed_out) {
        (Some(action), _) => before.action_text(action),
        (None, Some(seat)) => format!("{TIME_OUT} {}", before.seat_name(seat)),
        // Only the start has neither, and it is never written.
        (None, None) => String::new(),
    }
}
