//! The game's sounds, made as the program starts (a few dozen lines instead of 40 kB of recordings
//! in every download): decaying tones with a few harmonics, a knock of noise for a move, and two
//! dice rattling, as noise through two resonators at slowing intervals. Each comes out as mono
//! samples in [-1, 1] at `RATE`, the same every time (the noise is seeded).

use rand::{Rng, SeedableRng};
use std::f32::consts::TAU;

pub const RATE: u32 = 11_025;

/// The loudest sample of a sound, of the whole range.
const PEAK: f32 = 0.8;

fn seconds(s: f32) -> usize {
    (s * RATE as f32) as usize
}

/// A tone of `freq` Hz dying by `decay` per second, with harmonics of these strengths.
fn tone(freq: f32, length: f32, decay: f32, harmonics: &[f32]) -> Vec<f32> {
    (0..seconds(length))
        .map(|i| {
            let t = i as f32 / RATE as f32;
            let sound: f32 =
                harmonics.iter().enumerate().map(|(k, a)| a * (TAU * freq * (k + 1) as f32 * t).sin()).sum();
            sound * (-decay * t).exp()
        })
        .collect()
}

const PLAIN: [f32; 3] = [1.0, 0.3, 0.1];

/// Noise through a two-pole resonator: a ring around `freq` that dies by `damping` per second.
fn resonate(noise: &[f32], freq: f32, damping: f32) -> Vec<f32> {
    let r = (-damping / RATE as f32).exp();
    let (a1, a2) = (2.0 * r * (TAU * freq / RATE as f32).cos(), -r * r);
    let (mut y1, mut y2) = (0.0, 0.0);
    noise
        .iter()
        .map(|x| {
            let y = x + a1 * y1 + a2 * y2;
            (y2, y1) = (y1, y);
            y
        })
        .collect()
}

fn normalised(mut samples: Vec<f32>) -> Vec<f32> {
    let peak = samples.iter().fold(1e-9f32, |m, s| m.max(s.abs()));
    samples.iter_mut().for_each(|s| *s *= PEAK / peak);
    samples
}

/// A piece set down: a short low knock with a breath of noise.
pub fn move_sound() -> Vec<f32> {
    let mut rng = crate::chance::SeededRng::seed_from_u64(7);
    let knock = tone(420.0, 0.12, 38.0, &[1.0, 0.5, 0.2]);
    let noisy = knock
        .iter()
        .enumerate()
        .map(|(i, k)| k + rng.random_range(-1.0f32..1.0) * (-120.0 * i as f32 / RATE as f32).exp() * 0.6);
    normalised(noisy.collect())
}

/// A piece taken: two quick rising pops.
pub fn capture_sound() -> Vec<f32> {
    normalised([tone(660.0, 0.09, 30.0, &PLAIN), tone(990.0, 0.16, 22.0, &PLAIN)].concat())
}

/// A turn passed: two falling notes.
pub fn pass_sound() -> Vec<f32> {
    normalised([tone(392.0, 0.12, 20.0, &PLAIN), tone(330.0, 0.2, 16.0, &PLAIN)].concat())
}

/// A win: a rising arpeggio of C major, its last note held.
pub fn win_sound() -> Vec<f32> {
    let notes = [523.25, 659.25, 783.99, 1046.5];
    let parts = notes.iter().enumerate().map(|(i, &f)| {
        let (length, decay) = if i < 3 { (0.13, 9.0) } else { (0.55, 5.0) };
        tone(f, length, decay, &[1.0, 0.25, 0.08])
    });
    normalised(parts.collect::<Vec<_>>().concat())
}

/// Two dice rattling and settling: bright clicks at slowing intervals, the last ones softer.
pub fn dice_sound() -> Vec<f32> {
    let mut rng = crate::chance::SeededRng::seed_from_u64(11);
    let mut out = vec![0.0f32; seconds(0.42)];
    // (start in seconds, strength): the gaps grow as the dice lose speed.
    let hits = [
        (0.004, 1.0),
        (0.030, 0.7),
        (0.058, 0.9),
        (0.071, 0.55),
        (0.105, 0.8),
        (0.140, 0.6),
        (0.152, 0.45),
        (0.196, 0.65),
        (0.252, 0.5),
        (0.317, 0.28),
        (0.366, 0.16),
    ];
    for (start, strength) in hits {
        let burst: Vec<f32> = (0..seconds(0.028))
            .map(|i| rng.random_range(-1.0f32..1.0) * (-(i as f32) / (0.0022 * RATE as f32)).exp())
            .collect();
        let ring = normalised(resonate(&burst, rng.random_range(2600.0..4200.0), 900.0));
        let knock = normalised(resonate(&burst, rng.random_range(700.0..1000.0), 500.0));
        let first = seconds(start);
        for (i, (a, b)) in ring.iter().zip(&knock).enumerate() {
            if let Some(sample) = out.get_mut(first + i) {
                *sample += strength * (a + 0.35 * b) / PEAK;
            }
        }
    }
    let fade = seconds(0.02);
    let length = out.len();
    for (i, sample) in out[length - fade..].iter_mut().rev().enumerate() {
        *sample *= i as f32 / fade as f32;
    }
    normalised(out)
}

/// Samples as a mono 16-bit PCM WAV file (what Bevy's audio plays on the desktop).
pub fn wav(samples: &[f32]) -> Vec<u8> {
    let data = (samples.len() * 2) as u32;
    let mut file = Vec::with_capacity(44 + data as usize);
    file.extend_from_slice(b"RIFF");
    file.extend_from_slice(&(36 + data).to_le_bytes());
    file.extend_from_slice(b"WAVEfmt ");
    file.extend_from_slice(&16u32.to_le_bytes());
    file.extend_from_slice(&1u16.to_le_bytes()); // PCM
    file.extend_from_slice(&1u16.to_le_bytes()); // mono
    file.extend_from_slice(&RATE.to_le_bytes());
    file.extend_from_slice(&(RATE * 2).to_le_bytes());
    file.extend_from_slice(&2u16.to_le_bytes());
    file.extend_from_slice(&16u16.to_le_bytes());
    file.extend_from_slice(b"data");
    file.extend_from_slice(&data.to_le_bytes());
    for s in samples {
        file.extend_from_slice(&((s.clamp(-1.0, 1.0) * 32767.0) as i16).to_le_bytes());
    }
    file
}
