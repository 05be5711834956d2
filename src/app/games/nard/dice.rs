//! Crazy Nard's dice and cube on the board: the dice of each side tumbling in its middle strip
//! and greyed as they are played, the cup a child taps to roll, the cube on the bar or beside its
//! owner.

use super::*;

/// Crazy Nard's own dice and cube on the board.
pub(in crate::app::games) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (show_dice, show_cube)
            .after(crate::app::session::play::TurnSet)
            .run_if(|play: Option<Res<Play>>| play.is_some_and(|play| play.is::<Nard>())),
    );
}

/// A die drawn on the board.
#[derive(Component)]
struct NardDie;

/// The doubling cube on the bar.
#[derive(Component)]
struct NardCube;

pub(super) const DIE_SIZE: f32 = 0.9;

/// A die, the dice cup or the cube: an upright picture over the board, `at` in squares from the
/// centre of a1, kept in place when the board turns.
struct Picture {
    art: Art,
    at: Vec2,
    size: f32,
    colour: Color,
}

impl Picture {
    fn bundle(self, layout: &BoardLayout, images: &ArtImages, root: Entity) -> impl Bundle {
        (
            OnBoard(self.at, None),
            Sprite {
                image: images.get(self.art),
                color: self.colour,
                custom_size: Some(Vec2::splat(self.size)),
                ..default()
            },
            Transform::from_translation(layout.local_point(self.at).extend(PIECE_Z + 0.5)),
            ChildOf(root),
        )
    }
}

/// What the dice show: each side's dice (each its number and whether it is played), and the
/// side whose cup waits to be tapped where dice are due.
pub(super) struct Dice {
    pub(super) sides: Vec<(Seat, Vec<(u8, bool)>)>,
    pub(super) cup: Option<Seat>,
}

/// The dice to show while playing: a draft that has played its set shows that set, all played,
/// until it is confirmed.
fn dice_to_show(play: &PlayOf<Nard>) -> Dice {
    if play.draft_done() {
        let game = play.history().game();
        if let Some(set) = game.dice_set() {
            let faces = set.dealt.as_slice().iter().map(|&v| (v, true)).collect();
            return Dice { sides: vec![(set.player, faces)], cup: None };
        }
    }
    dice_of(play.game())
}

/// The dice of a game as it stands. At the opening each side's die lies on its own side; after a
/// tie both stay there until White rolls again.
pub(super) fn dice_of(game: &Nard) -> Dice {
    if let Some(set) = game.dice_set() {
        return Dice { sides: vec![(set.player, dice_faces(set))], cup: None };
    }
    match game.phase() {
        Phase::Opening { white_die: Some(white) } => {
            Dice { sides: vec![(Seat::WHITE, vec![(*white, false)])], cup: Some(Seat::BLACK) }
        }
        Phase::Opening { white_die: None } => {
            let sides = match opening_tie(game) {
                Some(die) => vec![(Seat::WHITE, vec![(die, false)]), (Seat::BLACK, vec![(die, false)])],
                None => Vec::new(),
            };
            Dice { sides, cup: Some(Seat::WHITE) }
        }
        Phase::AwaitingRoll(seat) => Dice { sides: Vec::new(), cup: Some(*seat) },
        _ => Dice { sides: Vec::new(), cup: None },
    }
}

/// The number both opening dice showed, when the last roll was a tie.
pub(super) fn opening_tie(game: &Nard) -> Option<u8> {
    game.events().iter().find_map(|e| match e {
        Event::OpeningTie(die) => Some(*die),
        _ => None,
    })
}

/// Where the `i`-th of `count` dice lies, about its side's dice place `centre`.
pub(super) fn die_at(centre: Vec2, i: usize, count: usize) -> Vec2 {
    centre + Vec2::new((i as f32 - (count as f32 - 1.0) / 2.0) * 0.95, 0.0)
}

/// A played die is greyed.
pub(super) fn die_colour(played: bool) -> Color {
    if played { Color::srgba(0.55, 0.55, 0.55, 0.55) } else { Color::WHITE }
}

/// The dice after every change of the game: a fresh roll tumbles in and settles, numbers passed
/// to the other side travel there, played dice are greyed, and where dice are due a cup waits
/// to be tapped.
fn show_dice(
    mut commands: Commands,
    play: Res<Play>,
    layout: Res<BoardLayout>,
    images: Res<ArtImages>,
    roots: Query<Entity, With<BoardRoot>>,
    dice: Query<Entity, With<NardDie>>,
) {
    if !play.is_changed() {
        return;
    }
    let play = play.of::<Nard>();
    let Ok(root) = roots.single() else { return };
    for entity in &dice {
        commands.entity(entity).despawn();
    }
    let game = play.game();
    let Dice { sides, cup } = dice_to_show(play);
    let rolled = matches!(play.change, Change::Played { motion: None, .. })
        && play.previous().is_some_and(|before| before.chance().is_some());
    // After a tie only Black's die was just thrown; White's has lain there since its roll.
    let tie = opening_tie(game).is_some();
    let passed = game.events().iter().any(|e| matches!(e, Event::NumbersPassed { .. }))
        && game.dice_set().is_some_and(|s| s.kind == SetKind::Passed);
    let place = |seat: Seat| layout.places.get(&dice_place(seat)).map_or(Vec2::ZERO, |p| p.at);
    for (seat, faces) in sides {
        let centre = place(seat);
        for (i, &(value, played)) in faces.iter().enumerate() {
            let at = die_at(centre, i, faces.len());
            let end = layout.local_point(at).extend(PIECE_Z + 0.5);
            let picture = Picture { art: Art::Die(value), at, size: DIE_SIZE, colour: die_colour(played) };
            let mut die = commands.spawn((NardDie, picture.bundle(&layout, &images, root)));
            if rolled && !(tie && seat == Seat::WHITE) {
                // Thrown in from nearer the middle, spinning, bouncing to rest.
                let start = layout.local_point(at + Vec2::new(-1.5 + i as f32 * 0.4, 0.8)).extend(end.z);
                die.insert(
                    Glide::new(start, end, 0.7 + 0.08 * i as f32)
                        .scaled(0.5, 1.0)
                        .spun(1.5 + 0.25 * i as f32)
                        .eased(EaseFunction::BounceOut),
                );
            } else if passed {
                // The numbers come over from the side that could not play them.
                let start = layout.local_point(place(seat.opponent()) + (at - centre)).extend(end.z);
                die.insert(Glide::new(start, end, 0.9).eased(EaseFunction::CubicInOut).arced(0.6));
            }
        }
    }
    if let Some(seat) = cup.filter(|_| game.outcome().is_none()) {
        let picture = Picture { art: Art::DiceCup, at: place(seat), size: 1.1, colour: Color::WHITE };
        commands.spawn((NardDie, picture.bundle(&layout, &images, root)));
    }
}

/// The cube on the bar: in the middle, or nearer the side that owns it; offered, it shows the
/// value it would go to. Not there when the match plays without it (or in a Crawford game).
fn show_cube(
    mut commands: Commands,
    play: Res<Play>,
    layout: Res<BoardLayout>,
    images: Res<ArtImages>,
    roots: Query<Entity, With<BoardRoot>>,
    cubes: Query<Entity, With<NardCube>>,
) {
    if !play.is_changed() {
        return;
    }
    let play = play.of::<Nard>();
    let Ok(root) = roots.single() else { return };
    for entity in &cubes {
        commands.entity(entity).despawn();
    }
    let game = play.game();
    if !game.cube_enabled() || game.is_crawford_game() {
        return;
    }
    let cube = game.cube();
    let (value, x) = match (game.double_offered_by(), cube.owner) {
        (Some(_), _) => (cube.value * 2, 0.0),
        (None, Some(owner)) if owner == Seat::WHITE => (cube.value, CUBE_SPOT),
        (None, Some(_)) => (cube.value, -CUBE_SPOT),
        (None, None) => (cube.value, 0.0),
    };
    let art = Art::Cube(value.trailing_zeros() as u8);
    let picture = Picture { art, at: from_middle(x, 0.0), size: 0.75, colour: Color::WHITE };
    commands.spawn((NardCube, picture.bundle(&layout, &images, root)));
}
