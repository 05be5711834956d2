//! How often a window is drawn: every frame while anything moves or thinks, and for a second
//! after anything happens (a touch, a key, a move, a new screen); then not at all until something
//! does again: a touch, a message from far away (`platform::wake`), or a time something on screen
//! asked for (a running clock's next second, `WakeWithin`). A still menu or board costs a phone's
//! battery, a laptop's fan and a shared machine's cores nothing.
//!
//! While the window rests, a frame counts at most a sixtieth of a second of the game's time
//! (`Time<Virtual>`), so the first frame after a rest does not count the rest: a piece set gliding
//! by a touch starts at its start. What counts real time across a rest (the clocks, the time
//! played) reads `Time<Real>`. (Pausing the game's time instead would keep Bevy's messages from
//! being cleared, and a `RequestRedraw` left in them redraws for ever.)

use crate::app::board::animate::Glide;
use crate::app::board::celebrate::Confetti;
use crate::app::board::help::HelpOpen;
use crate::app::course::hint::Hinting;
use crate::app::course::replay::{Replay, Reviewing};
use crate::app::course::robot_turn::Thinking;
use crate::app::course::tutor::Tutoring;
use crate::app::platform::wake::{WakeWithin, alarm, take_stirred, wake_window};
use crate::app::session::feedback::Notices;
use crate::app::session::play::Play;
use crate::app::session::screen::Screen;
use bevy::ecs::system::SystemParam;
use bevy::input::keyboard::KeyboardInput;
use bevy::input::mouse::{MouseButtonInput, MouseWheel};
use bevy::input::touch::{TouchInput, Touches};
use bevy::prelude::*;
use bevy::window::{CursorMoved, RequestRedraw, WindowResized};
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_egui::{EguiInput, EguiPostUpdateSet, EguiPreUpdateSet, EguiRenderOutput, egui};
use std::time::Duration;

/// Seconds of every frame drawn after the last thing that happened: long enough for what a touch
/// starts on the next frames (egui asks for its own frames while it animates; pieces, the Robot and
/// messages keep drawing as `Moving`).
const LIVELY_FOR: f64 = 1.0;
/// The most of the game's time a frame counts, while the window draws (Bevy's own) and in the
/// first frame after a rest (a frame's worth, and no less than a fixed step of Bevy's, after
/// which its messages are cleared).
const LIVELY_STEP: Duration = Duration::from_millis(250);
const RESTED_STEP: Duration = Duration::from_micros(16_667);
/// The longest a window at rest goes without a frame when nothing asks for one.
const LONGEST_REST: Duration = Duration::from_secs(3600);

/// A window's app draws when told to, woken or asked (the tour sets its own pace). Raw device
/// events (a mouse moved anywhere on the screen) do not wake it; the window's own events do.
pub fn plugin(app: &mut App) {
    app.insert_resource(WinitSettings {
        focused_mode: UpdateMode::reactive_low_power(LONGEST_REST),
        unfocused_mode: UpdateMode::reactive_low_power(LONGEST_REST),
    });
    app.init_resource::<LastStir>();
    app.add_systems(
        PostUpdate,
        note_font_growth.after(EguiPostUpdateSet::ProcessOutput).before(EguiPostUpdateSet::PostProcessOutput),
    );
    app.add_systems(Last, keep_drawing);
    app.add_systems(
        PreUpdate,
        pass_only_modifier_changes.after(EguiPreUpdateSet::ProcessInput).before(EguiPreUpdateSet::BeginPass),
    );
}

/// When something last happened, and when the alarm is set to wake the window (seconds of real
/// time since the start).
#[derive(Resource, Default)]
struct LastStir {
    at: f64,
    alarm: Option<f64>,
}

/// egui's pictures (its font's above all) changed this frame: letters new to them show only from
/// the next frame, so the window is woken for it, even at rest.
fn note_font_growth(drawn: Query<&EguiRenderOutput>) {
    if drawn.iter().any(|drawn| !drawn.textures_delta.is_empty()) {
        wake_window();
    }
}

/// What the person did this frame, or is doing (a finger or a button held down).
#[derive(SystemParam)]
struct PersonActs<'w, 's> {
    keys: MessageReader<'w, 's, KeyboardInput>,
    buttons: MessageReader<'w, 's, MouseButtonInput>,
    wheels: MessageReader<'w, 's, MouseWheel>,
    moves: MessageReader<'w, 's, CursorMoved>,
    touches: MessageReader<'w, 's, TouchInput>,
    resized: MessageReader<'w, 's, WindowResized>,
    held: Res<'w, ButtonInput<MouseButton>>,
    fingers: Res<'w, Touches>,
}

impl PersonActs<'_, '_> {
    fn now(&mut self) -> bool {
        let acted = self.keys.read().count()
            + self.buttons.read().count()
            + self.wheels.read().count()
            + self.moves.read().count()
            + self.touches.read().count()
            + self.resized.read().count()
            > 0;
        acted || self.held.get_pressed().next().is_some() || self.fingers.iter().next().is_some()
    }
}

/// Anything moved this frame, or gliding, or confetti flying.
type MovedOrFlying = Or<(Changed<Transform>, With<Glide>, With<Confetti>)>;

/// What moves or thinks on its own: pieces gliding, confetti, a Robot, a hint, the tutor or the
/// coach thinking, a message fading, a replay playing, the help's demonstration, a game changed, a
/// new screen.
#[derive(SystemParam)]
struct Moving<'w, 's> {
    moved: Query<'w, 's, (), MovedOrFlying>,
    thinking: Res<'w, Thinking>,
    hinting: Res<'w, Hinting>,
    tutoring: Res<'w, Tutoring>,
    reviewing: Res<'w, Reviewing>,
    notices: Res<'w, Notices>,
    help: Res<'w, HelpOpen>,
    replay: Option<Res<'w, Replay>>,
    play: Option<Res<'w, Play>>,
    screen: Option<Res<'w, State<Screen>>>,
    next_screen: Option<Res<'w, NextState<Screen>>>,
}

impl Moving<'_, '_> {
    fn now(&self) -> bool {
        !self.moved.is_empty()
            || self.thinking.0.is_some()
            || self.hinting.0.is_some()
            || self.tutoring.thinking()
            || self.reviewing.0.is_some()
            || self.notices.0.is_some()
            || self.help.0
            || self.replay.as_ref().is_some_and(|replay| replay.playing)
            || self.play.as_ref().is_some_and(|play| play.is_changed())
            || self.screen.as_ref().is_some_and(|screen| screen.is_changed())
            // A new screen asked for comes with the next frame (a room's game opened when the
            // other side sits, in a frame a message woke).
            || self.next_screen.as_ref().is_some_and(|next| !matches!(**next, NextState::Unchanged))
    }
}

/// Draws on while anything happens; at rest, sets the alarm for the soonest frame asked for (set
/// again only when that changes), and the next frame counts a frame's worth of the game's time.
fn keep_drawing(
    mut person: PersonActs,
    moving: Moving,
    time: Res<Time<Real>>,
    mut game_time: ResMut<Time<Virtual>>,
    mut wake: ResMut<WakeWithin>,
    mut last: ResMut<LastStir>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let now = time.elapsed_secs_f64();
    let stirred = take_stirred();
    if stirred || person.now() || moving.now() {
        last.at = now;
    }
    let within = wake.take();
    let wake_at = if now - last.at < LIVELY_FOR {
        redraw.write(RequestRedraw);
        game_time.set_max_delta(LIVELY_STEP);
        None
    } else {
        game_time.set_max_delta(RESTED_STEP);
        within.map(|s| now + s)
    };
    if wake_at != last.alarm {
        last.alarm = wake_at;
        alarm(wake_at.map(|at| at - now));
    }
}

/// bevy_egui tells egui the modifier keys every frame as if they had just changed, and egui asks
/// for the next frame at once for any news: only a real change is passed on.
fn pass_only_modifier_changes(mut inputs: Query<&mut EguiInput>, mut last: Local<Option<egui::Modifiers>>) {
    for mut input in &mut inputs {
        input.events.retain(|event| match event {
            egui::Event::ModifiersChanged(modifiers) => {
                let changed = *last != Some(*modifiers);
                *last = Some(*modifiers);
                changed
            }
            _ => true,
        });
    }
}
