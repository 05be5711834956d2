//! The coach against the slips a teacher names (issue "A coach a teacher would trust"): for each
//! game and each kind of slip, seeded games of two level-3 Robots with one slip of the kind put
//! in are reviewed; the slip must be marked, with its kind's reason, and the Robots' own moves
//! must not be.

use tabla::bench::Benchmarked;
use tabla::bench::coach::{self, SlipGame};
use tabla::rules::bunnies::BunniesAndHorses;
use tabla::rules::circles::Circles;
use tabla::rules::halma::Halma;
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::nard::Nard;

/// The first `wanted` seeded games with a slip of each kind of the game.
fn slip_games<G: Benchmarked>(wanted: usize) -> Vec<Vec<SlipGame>> {
    (0..G::SLIPS.len())
        .map(|kind| {
            let games: Vec<SlipGame> =
                (0..40u64).filter_map(|seed| coach::slip_game::<G>(kind, seed)).take(wanted).collect();
            assert_eq!(
                games.len(),
                wanted,
                "{}: too few chances for a {} slip",
                G::KIND,
                G::SLIPS[kind].name
            );
            games
        })
        .collect()
}

/// Of the first `wanted` games of each kind, all but `spare` have their slip marked, most of those
/// with the kind's reason (where the kind has one), and none of the Robot's own moves marked.
/// (A slip may cost nothing where the game goes the same way whatever is played.)
fn slips_marked<G: Benchmarked>(wanted: usize, spare: usize) {
    for (kind, games) in G::SLIPS.iter().zip(slip_games::<G>(wanted)) {
        let marked: Vec<&SlipGame> = games.iter().filter(|g| g.marked).collect();
        assert!(
            marked.len() + spare >= wanted,
            "{}: {} of the {} slips marked: {games:?}",
            G::KIND,
            marked.len(),
            kind.name
        );
        if !kind.reason.is_empty() {
            let with_reason = marked.iter().filter(|g| g.reason == Some(kind.reason)).count();
            assert!(
                2 * with_reason > marked.len(),
                "{}: the {} slips' reasons: {marked:?}",
                G::KIND,
                kind.name
            );
        }
        for game in &games {
            assert_eq!(game.robot_marked, 0, "{}: a Robot's move was marked: {game:?}", G::KIND);
        }
    }
}

#[test]
fn a_knight_left_for_nothing_and_a_pawn_not_caught_are_marked() {
    slips_marked::<KnightHunt>(4, 0);
}

#[test]
fn a_bunny_or_a_horse_left_for_nothing_and_a_catch_missed_are_marked() {
    slips_marked::<BunniesAndHorses>(3, 1);
}

#[test]
fn a_step_back_or_a_short_step_beside_a_long_chain_is_marked() {
    slips_marked::<Halma>(4, 0);
}

#[test]
fn a_crazy_nard_play_that_gives_away_a_tenth_is_marked() {
    slips_marked::<Nard>(4, 0);
}

#[test]
fn a_move_that_loses_ground_in_a_close_race_is_marked() {
    slips_marked::<Circles>(4, 1);
}

/// `tabla text`'s `tutor`: what the tutor would say before a move, with nothing played.
#[test]
fn the_tutor_warns_before_a_slip_and_lets_a_good_move_pass() {
    let level = tabla::levels::find("ron_configs/knight_hunt/two_knights_capture.ron").unwrap();
    let mut console = tabla::text::session_for(&level, 1);
    for line in ["play g1f3", "play g8f6"] {
        assert_eq!(console.handle(line)["ok"], true, "{line}");
    }
    let before = console.handle("state");
    // The knight on f3 can catch the pawn on d4; stepping back to e1 instead is a slip.
    let warned = console.handle("tutor f3e1");
    assert_eq!(warned["warn"], true, "{warned}");
    assert_eq!(warned["better"], "f3d4");
    assert_eq!(warned["why"], "missed_catch");
    assert_eq!(warned["why_args"]["to"], "d4");
    assert_eq!(console.handle("tutor f3d4")["warn"], false);
    assert_eq!(console.handle("state"), before, "the tutor plays nothing");
    assert_eq!(console.handle("tutor f3f4")["ok"], false, "no such move");
    assert_eq!(console.handle("tutor")["ok"], false);
}
