//! Short sounds for a move, a capture, a pass, a win and a roll of the dice, silenced by the sound
//! setting.

use super::settings::Settings;
use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings};
use bevy::prelude::*;

#[derive(Resource)]
struct Sounds {
    moved: Handle<AudioSource>,
    capture: Handle<AudioSource>,
    pass: Handle<AudioSource>,
    win: Handle<AudioSource>,
    roll: Handle<AudioSource>,
}

/// A sound to play: the game writes these, the sound plays them (when there is one).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoundCue {
    Move,
    Capture,
    Pass,
    Win,
    Roll,
}

/// The cues, for the game to write whether or not anything plays them (the headless tests).
pub(super) fn cues_plugin(app: &mut App) {
    app.add_message::<SoundCue>();
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, load);
    app.add_systems(Update, play.run_if(resource_exists::<Sounds>));
}

fn load(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
    let mut add = |bytes: &'static [u8]| sources.add(AudioSource { bytes: bytes.into() });
    commands.insert_resource(Sounds {
        moved: add(include_bytes!("../../../assets/sounds/move.wav")),
        capture: add(include_bytes!("../../../assets/sounds/capture.wav")),
        pass: add(include_bytes!("../../../assets/sounds/pass.wav")),
        win: add(include_bytes!("../../../assets/sounds/win.wav")),
        roll: add(include_bytes!("../../../assets/sounds/dice.wav")),
    });
}

fn play(
    mut commands: Commands,
    mut cues: MessageReader<SoundCue>,
    sounds: Res<Sounds>,
    settings: Res<Settings>,
) {
    for cue in cues.read() {
        if !settings.sound {
            continue;
        }
        let source = match cue {
            SoundCue::Move => &sounds.moved,
            SoundCue::Capture => &sounds.capture,
            SoundCue::Pass => &sounds.pass,
            SoundCue::Win => &sounds.win,
            SoundCue::Roll => &sounds.roll,
        };
        commands.spawn((AudioPlayer(source.clone()), PlaybackSettings::DESPAWN));
    }
}
