//! The clocks: each seat's time left while a clock runs, counted down on the seat to move once
//! the first move is made (not while a move flies, a panel waits or something covers the board);
//! a clock that runs out ends the game. A room's clocks are its server's (`far` sets them
//! from each of its words): here they only run down between, whatever covers the board, and a
//! clock at zero is claimed from the server, which ends the game.

use crate::app::board::covered::BoardCovered;
use crate::app::platform::wake::WakeWithin;
use crate::app::session::feedback::Feedback;
use crate::app::session::play::{Play, change_if};
use crate::record::Record;
use bevy::prelude::*;

/// The most a clock runs down between two frames: a window at rest is woken each second while a
/// clock runs, so a longer gap is a page hidden (its timers slowed by the browser) or a computer
/// asleep, which a child's game does not lose on.
const MOST_BETWEEN_FRAMES: f32 = 5.0;

/// Asks for a frame when a running clock's shown second changes (it shows whole seconds, rounded
/// up).
pub fn wake_for_next_second(left: f32, wake: &mut WakeWithin) {
    let to_next = left - left.ceil() + 1.0;
    wake.within(f64::from(to_next.clamp(0.0, 1.0)) + 0.005);
}

/// Seconds left per seat while a clock runs, the minutes this game's clock started with, and the
/// minutes the next game's clock will have.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Clocks {
    pub left: Option<Vec<f32>>,
    pub minutes: u32,
    pub next_minutes: u32,
    /// A room's clocks wait for its server to start them (a person's first action).
    pub held: bool,
}

impl Clocks {
    pub(in crate::app) fn start(minutes: u32, seats: usize) -> Clocks {
        Clocks {
            left: (minutes > 0).then(|| vec![minutes as f32 * 60.0; seats]),
            minutes,
            next_minutes: minutes,
            held: false,
        }
    }

    /// A saved game's clocks: each seat's time left, in milliseconds.
    pub(in crate::app) fn resumed(minutes: u32, left_ms: Option<&[u64]>) -> Clocks {
        let left = left_ms.map(|left| left.iter().map(|&ms| ms as f32 / 1000.0).collect());
        Clocks { left, minutes, next_minutes: minutes, held: false }
    }

    /// Each seat's time left, in milliseconds, for a record.
    pub fn left_ms(&self) -> Option<Vec<u64>> {
        self.left.as_ref().map(|left| left.iter().map(|&s| (s.max(0.0) * 1000.0).round() as u64).collect())
    }

    /// A game's record with its clocks as they stand.
    pub fn stamp(&self, record: Record) -> Record {
        Record { clock_minutes: self.minutes, clock_left_ms: self.left_ms(), ..record }
    }
}

pub(in crate::app) fn tick_clock(
    mut play: ResMut<Play>,
    mut clocks: ResMut<Clocks>,
    covered: Res<BoardCovered>,
    time: Res<Time<Real>>,
    gliding: Query<(), With<crate::app::board::animate::Glide>>,
    mut wake: ResMut<WakeWithin>,
    mut feedback: Feedback,
) {
    let Some(seat) = play.game().to_move() else { return };
    let afar = play.afar();
    // The clock waits while a move is still flying, until the first move is made, and while
    // something covers the board; a room's, only until its server starts it.
    let waits = covered.0 || feedback.waits() || !gliding.is_empty() || play.moves_played() == 0;
    if (afar && clocks.held) || (!afar && waits) {
        return;
    }
    let Some(left) = clocks.left.as_mut().and_then(|l| l.get_mut(seat.index())) else { return };
    // Real time: the first frame after a window's rest counts only a frame's worth of the game's
    // own (`frame_pace`).
    *left = (*left - time.delta_secs().min(MOST_BETWEEN_FRAMES)).max(0.0);
    if *left > 0.0 {
        wake_for_next_second(*left, &mut wake);
    }
    if *left <= 0.0 && !afar {
        change_if(&mut play, |play| {
            play.time_out(seat);
            feedback.report(play);
        });
    }
}
