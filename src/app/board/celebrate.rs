//! A won game ends in a shower of confetti and stars over the whole screen, for a few seconds,
//! under the dialog that names the winner (in Crazy Nard: the match, not each of its games).

use crate::app::platform::art::{Art, ArtImages};
use crate::app::session::play::NowPlaying;
use crate::app::session::screen::Screen;
use crate::rules::Winner;
use bevy::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// One piece of confetti: how it flies, turns and how long it has been falling.
#[derive(Component)]
pub struct Confetti {
    velocity: Vec2,
    spin: f32,
    age: f32,
}

const PIECES: usize = 70;
const SECONDS: f32 = 4.0;
const GRAVITY: f32 = -260.0;
const COLOURS: [Color; 6] = [
    Color::srgb(0.95, 0.30, 0.30),
    Color::srgb(1.0, 0.78, 0.20),
    Color::srgb(0.30, 0.75, 0.40),
    Color::srgb(0.30, 0.55, 0.95),
    Color::srgb(0.70, 0.40, 0.90),
    Color::srgb(1.0, 0.55, 0.75),
];

pub(in crate::app) fn plugin(app: &mut App) {
    app.add_systems(Update, (start_shower, fall).chain().run_if(in_state(Screen::Playing)));
}

/// When the game gets a winner, the confetti comes out from above the screen's top edge.
fn start_shower(
    mut commands: Commands,
    now: Res<NowPlaying>,
    images: Res<ArtImages>,
    windows: Query<&Window>,
    mut won_before: Local<bool>,
    watching: Option<Res<crate::app::session::play::Watching>>,
) {
    // A game watched again was celebrated when it was won: neither its end in the replay nor
    // the way back to it brings the shower again.
    if watching.is_some() {
        *won_before = true;
        return;
    }
    let won = now.outcome.is_some_and(|o| o.winner != Winner::Draw);
    if won == *won_before {
        return;
    }
    *won_before = won;
    if !won {
        return;
    }
    // Without a window (the tests), the shower falls over a desktop window's size.
    let (width, height) = windows.single().map_or((1280.0, 800.0), |w| (w.width(), w.height()));
    // The same shower every time: the moves were the surprise.
    let mut rng = SmallRng::seed_from_u64(7);
    for i in 0..PIECES {
        let star = i % 5 == 0;
        let size = if star { 34.0 } else { rng.random_range(9.0..16.0) };
        let at = Vec2::new(rng.random_range(-0.5..0.5) * width, height / 2.0 + rng.random_range(10.0..220.0));
        let velocity = Vec2::new(rng.random_range(-90.0..90.0), rng.random_range(-160.0..-40.0));
        let (art, colour) =
            if star { (Art::Star, Color::WHITE) } else { (Art::MarkDot, COLOURS[i % COLOURS.len()]) };
        commands.spawn((
            Confetti { velocity, spin: rng.random_range(-4.0..4.0), age: 0.0 },
            Sprite {
                image: images.get(art),
                color: colour,
                custom_size: Some(if star { Vec2::splat(size) } else { Vec2::new(size, size * 0.6) }),
                ..default()
            },
            Transform::from_translation(at.extend(50.0)),
            DespawnOnExit(Screen::Playing),
        ));
    }
}

/// Each piece falls, drifts and turns; it is gone after a few seconds.
fn fall(
    mut commands: Commands,
    time: Res<Time>,
    mut pieces: Query<(Entity, &mut Confetti, &mut Transform, &mut Sprite)>,
) {
    let dt = time.delta_secs().min(0.05);
    for (entity, mut piece, mut transform, mut sprite) in &mut pieces {
        piece.age += dt;
        if piece.age > SECONDS {
            commands.entity(entity).despawn();
            continue;
        }
        piece.velocity.y = (piece.velocity.y + GRAVITY * dt).max(-320.0);
        piece.velocity.x *= 1.0 - 0.6 * dt;
        let sway = (piece.age * 3.0 + piece.spin).sin() * 30.0;
        transform.translation += (piece.velocity + Vec2::new(sway, 0.0)).extend(0.0) * dt;
        transform.rotate_z(piece.spin * dt);
        let fade = ((SECONDS - piece.age) / 0.8).clamp(0.0, 1.0);
        sprite.color = sprite.color.with_alpha(fade);
    }
}
