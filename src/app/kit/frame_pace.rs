//! How often a window is drawn: every frame while anything moves or thinks, and for a second
//! after anything happens (a touch, a key, a move, a new screen); then only a few frames a second
//! until something does again. A still menu or board need not cost a phone's battery, a laptop's
//! fan, or a shared machine's cores sixty pictures a second.

use super::animate::Glide;
use super::celebrate::Confetti;
use super::feedback::Notices;
use super::help::HelpOpen;
use super::hint::Hinting;
use super::replay::{Replay, Reviewing};
use super::robot_turn::Thinking;
use super::screen::Screen;
use super::tutor::Tutoring;
use bevy::ecs::system::SystemParam;
use bevy::input::keyboard::KeyboardInput;
use bevy::input::mouse::{MouseButtonInput, MouseWheel};
use bevy::input::touch::{TouchInput, Touches};
use bevy::prelude::*;
use bevy::window::{CursorMoved, RequestRedraw, WindowResized};
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_egui::{EguiInput, EguiPreUpdateSet, egui};
use std::time::Duration;

/// Seconds of every frame drawn after the last thing that happened: long enough for what a touch
/// starts on the next frames (egui asks for its own frames while it animates; pieces, the Robot and
/// messages keep drawing as `Moving`).
const LIVELY_FOR: f64 = 1.0;
/// The time between two frames once nothing has happened for a while: clocks still tick on
/// screen (within a quarter of a second of their second), and a message from far away shows
/// within it.
const STILL_FRAME: Duration = Duration::from_millis(250);

/// A window's app draws when told to and at least every `STILL_FRAME` (the tour sets its own).
pub fn plugin(app: &mut App) {
    app.insert_resource(WinitSettings {
        focused_mode: UpdateMode::reactive(STILL_FRAME),
        unfocused_mode: UpdateMode::reactive_low_power(STILL_FRAME),
    });
    app.init_resource::<LastStir>();
    app.add_systems(Last, keep_drawing);
    app.add_systems(
        PreUpdate,
        pass_only_modifier_changes.after(EguiPreUpdateSet::ProcessInput).before(EguiPreUpdateSet::BeginPass),
    );
}

/// When something last happened, in seconds of real time since the start.
#[derive(Resource, Default)]
struct LastStir(f64);

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
/// coach thinking, a message fading, a replay playing, the help's demonstration.
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
    screen: Option<Res<'w, State<Screen>>>,
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
            || self.screen.as_ref().is_some_and(|screen| screen.is_changed())
    }
}

fn keep_drawing(
    mut person: PersonActs,
    moving: Moving,
    time: Res<Time<Real>>,
    mut last: ResMut<LastStir>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let now = time.elapsed_secs_f64();
    if person.now() || moving.now() {
        last.0 = now;
    }
    if now - last.0 < LIVELY_FOR {
        redraw.write(RequestRedraw);
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
