//! A child's stages: a stage tapped on the map starts its game against the Robot, and a game the
//! keeper was told finished is counted in the child's figures (once per game) and, on a stage,
//! earns its stars, opens the next stage and may bring a diploma (`StageNews`).

use super::children::{ChildCommand, Children, ThePath, keep};
use super::keeping::{Keep, KeepSet, person_of};
use crate::app::launch::{MatchSetup, Opponent};
use crate::app::platform::store::Store;
use crate::app::platform::web;
use crate::app::session::play::Happened;
use crate::app::session::screen::Screen;
use crate::progress::{GameEnd, StageResult, Stars};
use crate::rules::GameKind;
use bevy::prelude::*;
use tracing::{info, warn};

/// Whose diploma of which game the diploma screen shows.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct DiplomaFor {
    pub slot: usize,
    pub game: GameKind,
}

/// What the last game played on a stage earned, for the result dialog and the map.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct StageNews {
    /// The child who played it.
    pub slot: usize,
    pub stage: String,
    /// The stars this game added (the stage's stars are the child's).
    pub new: Stars,
    /// The stage this game opened.
    pub opened: Option<String>,
    /// Diplomas this game brought, by game.
    pub diplomas: Vec<GameKind>,
    /// The map has shown it (its stars flew in).
    pub shown: bool,
    /// Its new stars were said aloud, after the game's result.
    pub said: bool,
}

pub(in crate::app) fn plugin(app: &mut App) {
    app.add_systems(Update, play_stage.after(super::children::obey));
    // After the keeper has written the game (Last), so a finished game is counted once it is kept.
    app.add_systems(Last, count_finished.after(KeepSet));
}

/// The playing child plays a stage, if it is open for them.
fn play_stage(
    mut orders: MessageReader<ChildCommand>,
    children: Res<Children>,
    store: Res<Store>,
    path: Res<ThePath>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    for order in orders.read() {
        let ChildCommand::PlayStage(id) = order else { continue };
        let Some((_, child)) = children.playing(&store) else { continue };
        let Some((trail, index)) =
            path.trails.iter().find_map(|t| t.stages.iter().position(|s| &s.id == id).map(|i| (t, i)))
        else {
            continue;
        };
        if !trail.can_play(index, |id| child.star_count(id)) {
            continue;
        }
        let stage = &trail.stages[index];
        commands.insert_resource(MatchSetup {
            level: stage.level.clone(),
            opponent: Opponent::Robot,
            person_seat: stage.seat,
            robot_level: stage.robot,
            clock_minutes: 0,
            seats: Vec::new(),
            stage: Some(stage.id.clone()),
        });
        commands.remove_resource::<StageNews>();
        next.set(Screen::Playing);
    }
}

/// A game the keeper was told finished is counted for the child who played it; on a stage it
/// earns stars.
fn count_finished(
    mut told: MessageReader<Keep>,
    store: Res<Store>,
    path: Res<ThePath>,
    mut children: ResMut<Children>,
    mut commands: Commands,
) {
    for Keep { happened, record, outcome } in told.read() {
        let (Happened::Finished, Some(outcome)) = (happened, outcome) else { continue };
        let Some((slot, child)) = children.playing_mut(&store) else { continue };
        let end = GameEnd::of(record, *outcome, person_of(record), &web::today());
        match child.finish(&path, record, &end) {
            Ok(Some(result)) => {
                info!("stage {} earned {} new stars", result.stage, result.new.count());
                let StageResult { stage, new, opened, diplomas } = result;
                commands.insert_resource(StageNews {
                    slot,
                    stage,
                    new,
                    opened,
                    diplomas,
                    shown: false,
                    said: false,
                });
            }
            Ok(None) => {}
            Err(e) => warn!("the stage's game could not be judged: {e}"),
        }
        keep(&store, slot, child);
    }
}
