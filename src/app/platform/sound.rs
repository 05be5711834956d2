//! Short sounds for a move, a capture, a pass, a win and a roll of the dice, silenced by the sound
//! setting. On the desktop through Bevy's audio; in the browser straight through the page's Web
//! Audio (the sounds are tiny PCM files the project makes), which keeps Bevy's audio stack out of
//! the download.

use super::settings::Settings;
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
    /// The sound's file, built into the program.
    pub fn wav(self) -> &'static [u8] {
        match self {
            SoundCue::Move => include_bytes!("../../../assets/sounds/move.wav"),
            SoundCue::Capture => include_bytes!("../../../assets/sounds/capture.wav"),
            SoundCue::Pass => include_bytes!("../../../assets/sounds/pass.wav"),
            SoundCue::Win => include_bytes!("../../../assets/sounds/win.wav"),
            SoundCue::Roll => include_bytes!("../../../assets/sounds/dice.wav"),
        }
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
        let buffers =
            SoundCue::ALL.into_iter().filter_map(|cue| Some((cue, buffer(&context, cue.wav())?))).collect();
        Some((context, buffers))
    }

    /// A mono 16-bit PCM file as an audio buffer.
    fn buffer(context: &AudioContext, wav: &[u8]) -> Option<AudioBuffer> {
        let (rate, samples) = super::pcm16_mono(wav)?;
        let mut samples: Vec<f32> = samples.collect();
        let buffer = context.create_buffer(1, samples.len() as u32, rate as f32).ok()?;
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

/// A WAV file of mono 16-bit PCM: its sample rate and its samples in [-1, 1]; `None` for any
/// other kind of file.
pub fn pcm16_mono(wav: &[u8]) -> Option<(u32, impl Iterator<Item = f32> + '_)> {
    let u16_at = |at: usize| Some(u16::from_le_bytes(wav.get(at..at + 2)?.try_into().ok()?));
    let u32_at = |at: usize| Some(u32::from_le_bytes(wav.get(at..at + 4)?.try_into().ok()?));
    if wav.get(0..4)? != b"RIFF" || wav.get(8..12)? != b"WAVE" {
        return None;
    }
    let (mut at, mut rate, mut data) = (12, None, None);
    while at + 8 <= wav.len() {
        let (id, size) = (wav.get(at..at + 4)?, u32_at(at + 4)? as usize);
        let body = at + 8;
        match id {
            b"fmt " if u16_at(body)? == 1 && u16_at(body + 2)? == 1 && u16_at(body + 14)? == 16 => {
                rate = Some(u32_at(body + 4)?);
            }
            b"fmt " => return None,
            b"data" => data = Some(wav.get(body..body + size)?),
            _ => {}
        }
        at = body + size + size % 2;
    }
    let samples = data?.chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]]) as f32 / 32768.0);
    Some((rate?, samples))
}
