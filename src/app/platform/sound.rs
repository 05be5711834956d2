//! Short sounds for a move, a capture, a pass, a win and a roll of the dice, silenced by the sound
//! setting. On the desktop through Bevy's audio; in the browser straight through the page's Web
//! Audio, which keeps Bevy's audio stack out of the download. The sounds are made as the program
//! starts (`synth`).

use super::settings::Settings;
use super::synth;
use bevy::prelude::*;

/// A sound to play: the game writes these, the sound plays them (when there is one).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoundCue {
    Move,
    Capture,
    Pass,
    Win,
    Roll,
}

impl SoundCue {
    /// The sound, as mono samples at `synth::RATE`.
    pub fn samples(self) -> Vec<f32> {
        match self {
            SoundCue::Move => synth::move_sound(),
            SoundCue::Capture => synth::capture_sound(),
            SoundCue::Pass => synth::pass_sound(),
            SoundCue::Win => synth::win_sound(),
            SoundCue::Roll => synth::dice_sound(),
        }
    }

    /// The sound as a WAV file.
    pub fn wav(self) -> Vec<u8> {
        synth::wav(&self.samples())
    }

    pub const ALL: [SoundCue; 5] =
        [SoundCue::Move, SoundCue::Capture, SoundCue::Pass, SoundCue::Win, SoundCue::Roll];
}

/// The cues, for the game to write whether or not anything plays them (the headless tests).
pub(super) fn cues_plugin(app: &mut App) {
    app.add_message::<SoundCue>();
}

pub(super) fn plugin(app: &mut App) {
    #[cfg(not(target_arch = "wasm32"))]
    app.add_systems(Startup, player::load);
    #[cfg(target_arch = "wasm32")]
    app.add_systems(Update, player::load_after_first_picture);
    app.add_systems(Update, play);
}

fn play(mut cues: MessageReader<SoundCue>, settings: Res<Settings>, mut commands: Commands) {
    for &cue in cues.read() {
        if settings.sound {
            player::play(&mut commands, cue);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod player {
    use super::SoundCue;
    use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings};
    use bevy::prelude::*;

    #[derive(Resource)]
    pub struct Sounds(Vec<(SoundCue, Handle<AudioSource>)>);

    pub fn load(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
        let sounds = SoundCue::ALL.map(|cue| (cue, sources.add(AudioSource { bytes: cue.wav().into() })));
        commands.insert_resource(Sounds(sounds.into()));
    }

    pub fn play(commands: &mut Commands, cue: SoundCue) {
        commands.queue(move |world: &mut World| {
            let Some(source) =
                world.get_resource::<Sounds>().and_then(|s| s.0.iter().find(|(c, _)| *c == cue))
            else {
                return;
            };
            let source = source.1.clone();
            world.spawn((AudioPlayer(source), PlaybackSettings::DESPAWN));
        });
    }
}

#[cfg(target_arch = "wasm32")]
mod player {
    use super::SoundCue;
    use bevy::prelude::*;
    use std::cell::OnceCell;
    use web_sys::{AudioBuffer, AudioContext};

    type Loaded = Option<(AudioContext, Vec<(SoundCue, AudioBuffer)>)>;

    thread_local! {
        /// The page's audio context (the page resumes it at the first tap) and each cue's sound.
        static SOUNDS: OnceCell<Loaded> = const { OnceCell::new() };
    }

    /// Making an audio context takes a good part of the start where the browser is slow, so it
    /// is made once the first picture is on screen (some frames in), before a child can tap.
    pub fn load_after_first_picture(mut frames: Local<u32>) {
        const FRAMES_BEFORE_SOUND: u32 = 10;
        *frames += 1;
        if *frames == FRAMES_BEFORE_SOUND {
            SOUNDS.with(|sounds| {
                sounds.get_or_init(load);
            });
        }
    }

    fn load() -> Loaded {
        let Ok(context) = AudioContext::new() else {
            tracing::warn!("this browser has no Web Audio: no sounds");
            return None;
        };
        let buffers = SoundCue::ALL
            .into_iter()
            .filter_map(|cue| Some((cue, buffer(&context, cue.samples())?)))
            .collect();
        Some((context, buffers))
    }

    /// Mono samples as an audio buffer.
    fn buffer(context: &AudioContext, mut samples: Vec<f32>) -> Option<AudioBuffer> {
        let rate = super::synth::RATE as f32;
        let buffer = context.create_buffer(1, samples.len() as u32, rate).ok()?;
        buffer.copy_to_channel(&mut samples, 0).ok()?;
        Some(buffer)
    }

    pub fn play(_commands: &mut Commands, cue: SoundCue) {
        SOUNDS.with(|sounds| {
            let Some((context, buffers)) = sounds.get_or_init(load) else { return };
            let Some((_, buffer)) = buffers.iter().find(|(c, _)| *c == cue) else { return };
            let Ok(source) = context.create_buffer_source() else { return };
            source.set_buffer(Some(buffer));
            if source.connect_with_audio_node(&context.destination()).is_ok() {
                let _ = source.start();
            }
        });
    }
}
