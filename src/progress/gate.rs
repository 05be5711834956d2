//! The gate before the grown-ups' page, which a young child does not pass by chance: a button held
//! down for three seconds, then a sum shown in digits, answered digit by digit. Letting go early
//! starts the holding again; a wrong answer closes the sum and the holding starts again.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Seconds the button must be held.
pub const HOLD_SECONDS: f32 = 3.0;

#[derive(Clone, Debug)]
pub struct Gate {
    held: f32,
    sum: Option<(u32, u32)>,
    typed: String,
    open: bool,
    rng: SmallRng,
}

impl Gate {
    pub fn new(seed: u64) -> Gate {
        Gate { held: 0.0, sum: None, typed: String::new(), open: false, rng: SmallRng::seed_from_u64(seed) }
    }

    /// Passes the gate as a grown-up does: the button held its three seconds, the sum answered
    /// (the tour's way through).
    pub fn pass(&mut self) {
        for _ in 0..20 {
            self.hold(true, 0.2);
        }
        if let Some((a, b)) = self.sum() {
            for digit in (a + b).to_string().chars().filter_map(|c| c.to_digit(10)) {
                self.digit(digit);
            }
        }
    }

    /// The button is down (or not) for `seconds` more.
    pub fn hold(&mut self, down: bool, seconds: f32) {
        if self.open || self.sum.is_some() {
            return;
        }
        if !down {
            self.held = 0.0;
            return;
        }
        self.held += seconds.clamp(0.0, 0.25);
        if self.held >= HOLD_SECONDS {
            self.sum = Some((self.rng.random_range(11..=19), self.rng.random_range(3..=9)));
        }
    }

    /// How far the holding has come, 0 to 1.
    pub fn held(&self) -> f32 {
        (self.held / HOLD_SECONDS).min(1.0)
    }

    /// The sum to answer, once the button was held long enough.
    pub fn sum(&self) -> Option<(u32, u32)> {
        self.sum
    }

    /// The digits typed so far.
    pub fn typed(&self) -> &str {
        &self.typed
    }

    /// A digit of the answer; the answer is judged when it has as many digits as the sum's.
    pub fn digit(&mut self, digit: u32) {
        let Some((a, b)) = self.sum else { return };
        if digit > 9 {
            return;
        }
        self.typed.push(char::from_digit(digit, 10).expect("a digit"));
        let answer = (a + b).to_string();
        if self.typed.len() >= answer.len() {
            self.open = self.typed == answer;
            self.typed.clear();
            self.sum = None;
            self.held = 0.0;
        }
    }

    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Closed again (on leaving the page).
    pub fn close(&mut self) {
        self.open = false;
        self.sum = None;
        self.held = 0.0;
        self.typed.clear();
    }
}
