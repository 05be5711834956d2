//! A person's taps, drags and key presses on the board, and what each means: a tap on a small
//! board is taken for the place it was meant for (or zooms in where two are too close); then a
//! pick, a preview, a move, a roll or a message. The moves go to `Play`, whose news the feedback
//! turns into marks, messages and sounds.

use super::robot_turn::Hurry;
use super::tutor::Tutoring;
use crate::app::board::input::{BoardDrop, BoardPress, BoardTap};
use crate::app::board::view::{BoardLayout, BoardView, MAX_ZOOM, ViewCommand};
use crate::app::session::feedback::{Feedback, game_key};
use crate::app::session::play::{Pending, Play, Playing, change_if};
use crate::app::session::shown::Shown;
use crate::rules::board::Square;
use bevy::prelude::*;

/// The square whose piece the person may pick up and drag now.
#[derive(Resource, Default, Debug, PartialEq, Eq)]
pub struct PickUp(pub Option<Square>);

/// The person chose to take the piece on `from` to `to`: played at once (the actions of its
/// route one after the other), or previewed first where the game asks for a confirmation;
/// `false` when it cannot go there.
/// A move the tutor looks at first is shown as pending meanwhile: its path previewed.
fn choose(
    play: &mut dyn Playing,
    from: Square,
    to: Square,
    feedback: &mut Feedback,
    tutor: &mut Tutoring,
) -> bool {
    let manner = play.game().manner();
    if !manner.confirm_moves {
        if manner.drafts || !tutor.on {
            return play.play_route(from, to);
        }
        let path = play.game().path_between(from, to);
        let held = tutor.play_or_hold(play, Pending::Route { from, to });
        if tutor.busy() {
            feedback.show_path(from, path.unwrap_or_default());
        }
        return held;
    }
    let Some(path) = play.game().path_between(from, to) else { return false };
    feedback.show_path(from, path);
    true
}

/// Plays the previewed path (a hint's, in a game that drafts), or else the draft that waits
/// (the tutor looking at either first); `false` when there is none (or it no longer fits the
/// game).
pub(in crate::app) fn confirm(play: &mut dyn Playing, feedback: &mut Feedback, tutor: &mut Tutoring) -> bool {
    let (Some(from), Some(&to)) = (feedback.selection.0, feedback.preview.0.last()) else {
        if !play.draft_done() {
            return false;
        }
        return tutor.play_or_hold(play, Pending::Draft);
    };
    let path = feedback.preview.0.clone();
    let held = tutor.play_or_hold(play, Pending::Previewed { from, to, path });
    if !tutor.busy() {
        feedback.preview.0.clear();
    }
    held
}

#[allow(clippy::too_many_arguments)]
pub(in crate::app) fn person_input(
    mut play: ResMut<Play>,
    mut presses: MessageReader<BoardPress>,
    mut taps: MessageReader<BoardTap>,
    mut drops: MessageReader<BoardDrop>,
    layout: Option<Res<BoardLayout>>,
    board_view: Res<BoardView>,
    mut view: MessageWriter<ViewCommand>,
    mut hurry: ResMut<Hurry>,
    mut feedback: Feedback,
    mut tutor: ResMut<Tutoring>,
) {
    let mut squares: Vec<Square> = presses.read().map(|p| p.0).collect();
    let taps: Vec<BoardTap> = taps.read().copied().collect();
    let drops: Vec<BoardDrop> = drops.read().copied().collect();
    if feedback.waits() || tutor.busy() {
        return;
    }
    // A tap while the Robot plays its moves one by one asks it to hurry.
    if play.robot_to_move().is_some() && !(taps.is_empty() && squares.is_empty()) {
        hurry.0 = true;
    }
    if play.person_to_move().is_none() {
        return;
    }
    for tap in taps {
        let Some(layout) = layout.as_deref() else { continue };
        let meant = meant_places(play.game(), layout, &feedback, tap);
        match meant[..] {
            [] => squares.push(tap.square),
            [one] => squares.push(one),
            // Two places a finger cannot tell apart: look closer instead of guessing (unless the
            // view is already as close as it gets).
            [nearest, ..] if board_view.zoom * 2.0 > MAX_ZOOM => squares.push(nearest),
            _ => {
                view.write(ViewCommand::Zoom { factor: 2.5, around: Some(tap.pointer) });
                feedback.tell("zoomed_in".to_string());
            }
        }
    }
    for square in squares {
        change_if(&mut play, |play| {
            press(play, square, &mut feedback, &mut tutor);
            feedback.report(play);
        });
    }
    for drop in drops {
        let Some(to) = drop.to else {
            // Let go where it started, or off the board: the piece glides home, still selected.
            continue;
        };
        change_if(&mut play, |play| {
            if choose(play, drop.from, to, &mut feedback, &mut tutor) {
                feedback.report(play);
            } else {
                feedback.tell(format!("not_allowed_{}", play.kind()));
            }
        });
    }
}

/// Half a finger, in window pixels: a tap means a place this near it.
const HALF_FINGER: f32 = 24.0;

/// The places a tap on a small board may mean, nearest first: the person's movable pieces and
/// the lit places (targets, further landings, the preview's end) within half a finger of it.
/// Where the places are a finger wide or more, the tap means the square it touched (none here).
/// A place whose cell is larger than a square (a backgammon point) is taken as tapped.
fn meant_places(game: &dyn Shown, layout: &BoardLayout, feedback: &Feedback, tap: BoardTap) -> Vec<Square> {
    let cell = layout.places.get(&tap.square).map_or(Vec2::ONE, |p| p.size);
    if tap.pitch >= 2.0 * HALF_FINGER || cell.max_element() > 1.0 {
        return Vec::new();
    }
    let mut places: Vec<Square> =
        game.pieces().into_iter().map(|(s, _)| s).filter(|s| game.movable(*s)).collect();
    if let Some(from) = feedback.selection.0 {
        places.extend(game.target_paths(from).iter().filter_map(|p| p.last().copied()));
        places.extend(game.further(from, &feedback.preview.0));
    }
    let mut near: Vec<(f32, Square)> = places
        .into_iter()
        .map(|s| (layout.local(s).distance(tap.local) * tap.pitch, s))
        .filter(|(pixels, _)| *pixels <= HALF_FINGER)
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    near.dedup_by_key(|(_, s)| *s);
    near.into_iter().map(|(_, s)| s).collect()
}

/// A tap on `square`: the tap becomes an action for `play` to apply, or a pick, a preview or a
/// message.
fn press(play: &mut dyn Playing, square: Square, feedback: &mut Feedback, tutor: &mut Tutoring) {
    if play.person_to_move().is_none() {
        return;
    }
    if let Some(from) = feedback.selection.0 {
        // A previewed path: tapping its end plays it, a further landing extends it, anything
        // else drops it and counts as a fresh tap.
        if let Some(&end) = feedback.preview.0.last() {
            if end == square {
                confirm(play, feedback, tutor);
                return;
            }
            if play.game().further(from, &feedback.preview.0).contains(&square) {
                feedback.preview.0.push(square);
                return;
            }
            feedback.preview.0.clear();
        }
        if choose(play, from, square, feedback, tutor) {
            return;
        }
    }
    if play.can_roll() && play.game().rolls_dice_at(square) {
        play.roll();
        return;
    }
    if play.draft_done() {
        feedback.tell(game_key(&feedback.words, "confirm_first", play.kind()));
        return;
    }
    if play.game().movable(square) {
        feedback.selection.0 = Some(square);
        if play.game().targets(square).is_empty() {
            let why = play.game().why_stuck(square).map(str::to_string);
            feedback.tell(why.unwrap_or_else(|| format!("stuck_{}", play.kind())));
        }
    } else if let Some(why) = play.game().why_stuck(square) {
        feedback.selection.0 = None;
        feedback.tell(why.to_string());
    } else if feedback.selection.0.take().is_some() && !play.game().pieces().iter().any(|(s, _)| *s == square)
    {
        feedback.tell(format!("not_allowed_{}", play.kind()));
    }
}

pub(in crate::app) fn publish_pickup(
    play: Res<Play>,
    selection: Res<crate::app::session::feedback::Selection>,
    mut pickup: ResMut<PickUp>,
) {
    let now = selection.0.filter(|_| play.person_to_move().is_some());
    pickup.set_if_neq(PickUp(now));
}
