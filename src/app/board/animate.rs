//! Eased movement: pieces glide to their squares, captured pieces fly to the captor's tray.

use bevy::prelude::*;

/// Moves an entity's translation (and scale) along an eased curve, then removes itself.
#[derive(Component, Clone, Debug)]
pub struct Glide {
    pub from: Vec3,
    pub to: Vec3,
    pub from_scale: f32,
    pub to_scale: f32,
    pub elapsed: f32,
    pub seconds: f32,
    pub ease: EaseFunction,
    /// How high (in squares) the piece arcs above its straight way at mid-glide, a hop's bump.
    pub lift: f32,
    /// Whole turns the thing spins through on its way, settling upright (a die's tumble).
    pub spin: f32,
    /// The glide that follows this one.
    pub next: Option<Box<Glide>>,
}

impl Glide {
    pub fn new(from: Vec3, to: Vec3, seconds: f32) -> Glide {
        Glide {
            from,
            to,
            from_scale: 1.0,
            to_scale: 1.0,
            elapsed: 0.0,
            seconds,
            ease: EaseFunction::CubicInOut,
            lift: 0.0,
            spin: 0.0,
            next: None,
        }
    }

    pub fn scaled(mut self, from: f32, to: f32) -> Glide {
        self.from_scale = from;
        self.to_scale = to;
        self
    }

    pub fn eased(mut self, ease: EaseFunction) -> Glide {
        self.ease = ease;
        self
    }

    /// An arc: the piece rises `lift` squares (and grows a little) at mid-glide, as in a hop.
    pub fn arced(mut self, lift: f32) -> Glide {
        self.lift = lift;
        self
    }

    /// A tumble: `turns` whole turns on the way, ending upright.
    pub fn spun(mut self, turns: f32) -> Glide {
        self.spin = turns;
        self
    }

    pub fn then(mut self, next: Glide) -> Glide {
        self.next = Some(Box::new(next));
        self
    }
}

/// How fast animations play: 1 is the normal pace (the tour runs them faster).
#[derive(Resource, Clone, Copy, Debug)]
pub struct AnimationPace(pub f32);

impl Default for AnimationPace {
    fn default() -> Self {
        AnimationPace(1.0)
    }
}

/// Removes the entity when its glide ends (a piece shrinking away).
#[derive(Component)]
pub struct DespawnAfterGlide;

/// Seconds for a glide of `distance` squares: short hops are quick, long flights a little longer.
pub fn glide_seconds(distance: f32) -> f32 {
    (0.16 + distance.sqrt() * 0.09).min(0.55)
}

pub(in crate::app) fn plugin(app: &mut App) {
    app.init_resource::<AnimationPace>();
    app.add_systems(PostUpdate, run_glides.before(TransformSystems::Propagate));
}

fn run_glides(
    mut commands: Commands,
    time: Res<Time>,
    pace: Res<AnimationPace>,
    mut glides: Query<(Entity, &mut Glide, &mut Transform, Has<DespawnAfterGlide>)>,
) {
    for (entity, mut glide, mut transform, despawn) in &mut glides {
        glide.elapsed += time.delta_secs() * pace.0;
        let t = (glide.elapsed / glide.seconds.max(1e-3)).min(1.0);
        let eased = EasingCurve::new(0.0, 1.0, glide.ease).sample_clamped(t);
        let bump = (eased * std::f32::consts::PI).sin() * glide.lift;
        transform.translation = glide.from.lerp(glide.to, eased) + Vec3::Y * bump;
        let scale = glide.from_scale + (glide.to_scale - glide.from_scale) * eased;
        transform.scale = Vec3::splat(scale * (1.0 + bump * 0.5));
        if glide.spin != 0.0 {
            transform.rotation = Quat::from_rotation_z(glide.spin * std::f32::consts::TAU * (1.0 - eased));
        }
        if t >= 1.0 {
            if let Some(next) = glide.next.take() {
                *glide = *next;
            } else if despawn {
                commands.entity(entity).despawn();
            } else {
                commands.entity(entity).remove::<Glide>();
            }
        }
    }
}
