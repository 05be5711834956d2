//! The first screen: big picture buttons, one per game, the language and the sound.

use super::setup::SetupFor;
use crate::app::child::children::{Children, name_of};
use crate::app::child::keeping::{self, SavedGame};
use crate::app::course::catalog::{GameEntry, Levels, PlayableGames};
use crate::app::launch::Control;
use crate::app::panels::scoreboard::face_of;
use crate::app::panels::theme::{
    ACCENT, CARD, EguiArt, UiReady, bold, bold_size_fitting, card, card_tapped, full_screen, not_saved_note,
    problem_note,
};
use crate::app::platform::settings::{Settings, Words};
use crate::app::platform::store::Store;
use crate::app::platform::web;
use crate::app::session::play::Opened;
use crate::app::session::play::Watching;
use crate::app::session::screen::Screen;
use crate::i18n::Language;
use crate::progress::Child;
use crate::record::{Progress, Record, Summary};
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// The Continue card's warm fill.
const CONTINUE: Color32 = Color32::from_rgb(255, 236, 200);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        menu.run_if(resource_exists::<UiReady>).run_if(in_state(Screen::Menu)),
    );
}

#[allow(clippy::too_many_arguments)]
fn menu(
    mut contexts: EguiContexts,
    art: Res<EguiArt>,
    words: Res<Words>,
    mut settings: ResMut<Settings>,
    playable: Res<PlayableGames>,
    levels: Res<Levels>,
    mut saved: ResMut<SavedGame>,
    store: Res<Store>,
    children: Res<Children>,
    mut opening: Local<bool>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let list = playable.in_menu_order(&levels);
    // Every card in one row where the screen is wide enough (a card is its picture and 34 more).
    let tile = ((screen.width() - 60.0) / list.len().max(2) as f32 - 36.0).clamp(110.0, 220.0);
    // A game to open (a game in progress, a record file, or the last game to watch), where it
    // comes from, and the problem if it could not be read.
    let mut chosen: Option<(Result<Record, String>, Opened)> = None;
    // Free play, opened from a child's map: one tap back to it; or, when nobody has chosen yet (a
    // game begun from the command line), the way to who is playing. In a corner of its own, so
    // the menu below keeps its place.
    let (key, way_back) =
        if store.child().is_some() { ("map", Screen::Map) } else { ("children_who", Screen::Children) };
    egui::Area::new("menu_back".into()).anchor(egui::Align2::LEFT_TOP, egui::vec2(8.0, 8.0)).show(
        ctx,
        |ui| {
            // One line: an area's first width is narrow, and the words would break letter by letter.
            let back = ui.add(
                egui::Button::new(bold(format!("◂ {}", words.get(key)), 18.0))
                    .wrap_mode(egui::TextWrapMode::Extend),
            );
            web::tag(&back, "menu.map");
            if back.clicked() {
                next.set(way_back);
            }
        },
    );
    full_screen(ctx, "menu", |ui| {
        ui.add_space((screen.height() * 0.08).min(60.0));
        ui.label(bold(words.get("app_title"), 56.0).color(ACCENT));
        not_saved_note(ui, &words, &store);
        if let Some(problem) = &saved.problem
            && problem_note(ui, words.get("saved_problem"), problem)
        {
            saved.problem = None;
        }
        if let Some((record, summary)) = saved.latest()
            && let Some(entry) = playable.get(record.game)
            && continue_card(
                ui,
                (&art, &words, &entry),
                (record, summary),
                children.playing(&store).map(|(_, child)| child),
                screen.width(),
            )
        {
            chosen = Some((Ok(record.clone()), Opened::Continued));
        }
        if let Some(picked) = web::picked_file() {
            chosen = Some((picked.and_then(|text| keeping::read_record_text(&text)), Opened::File));
        }
        if !saved.cards.is_empty() {
            ui.add_space(10.0);
        }
        for newer in &saved.newer {
            ui.label(RichText::new(format!("{}: {newer}", words.get("made_by_newer"))).size(15.0));
        }
        ui.label(bold(words.get("menu_title"), 26.0));
        ui.add_space(12.0);
        // One row of picture cards, centred; it wraps on a narrow screen.
        let per_row = (((screen.width() - 24.0) / (tile + 34.0)) as usize).clamp(1, list.len().max(1));
        for row in list.chunks(per_row) {
            let width = row.len() as f32 * (tile + 34.0);
            ui.horizontal(|ui| {
                ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                for game in row {
                    ui.vertical(|ui| {
                        if game_tile(ui, &art, &words, game, tile) {
                            commands.insert_resource(SetupFor(game.kind));
                            next.set(Screen::Setup);
                        }
                        // Its own game in progress, one tap away.
                        if let Some((record, _)) = saved.of(game.kind) {
                            let label = bold(format!("▶ {}", words.get("continue_title")), 18.0);
                            let button =
                                ui.add_sized([tile + 24.0, 40.0], egui::Button::new(label).fill(CONTINUE));
                            web::tag(&button, &format!("continue.{}", game.kind));
                            if button.clicked() {
                                chosen = Some((Ok(record.clone()), Opened::Continued));
                            }
                        }
                    });
                }
            });
        }
        ui.add_space(16.0);
        ui.horizontal(|ui| {
            // The language card is about 740 points wide: centre it when there is room.
            ui.add_space(((ui.available_width() - 740.0) / 2.0).max(0.0));
            if let Some(changed) = language_card(ui, &words, &settings) {
                *settings = changed;
            }
        });
        ui.add_space(8.0);
        if let Some(record) = &saved.last {
            let tapped = ui.vertical_centered(|ui| {
                let response =
                    ui.button(RichText::new(format!("▶ {}", words.get("watch_last_game"))).size(18.0));
                web::tag(&response, "watch_last_game");
                response.clicked()
            });
            if tapped.inner {
                chosen = Some((Ok(record.clone()), Opened::LastGame));
            }
        }
        if let Some(file) = open_card(ui, &words, &store, &mut opening) {
            chosen = Some((keeping::read_record_file(&file), Opened::File));
        }
        ui.vertical_centered(|ui| {
            let response = ui.button(RichText::new(format!("◆ {}", words.get("far_join_title"))).size(18.0));
            web::tag(&response, "far_join");
            if response.clicked() {
                commands.insert_resource(super::far::FarPage::to_join(
                    &settings.server,
                    "",
                    &settings.far_name,
                ));
                next.set(Screen::Far);
            }
        });
    });
    let Some((read, from)) = chosen else { return Ok(()) };
    let opened = read.and_then(|record| {
        keeping::begin(&mut commands, record.clone(), from).map_err(|e| e.to_string())?;
        Ok(record)
    });
    match opened {
        Ok(record) => {
            commands.insert_resource(SetupFor(record.game));
            if from == Opened::LastGame {
                commands.insert_resource(Watching::Opening);
            }
            next.set(Screen::Playing);
        }
        Err(problem) => saved.problem = Some(problem),
    }
    Ok(())
}

/// The game in progress, first and large: its picture, who plays and how far it has gone; a tap
/// anywhere on it goes on with it.
fn continue_card(
    ui: &mut egui::Ui,
    (art, words, entry): (&EguiArt, &Words, &GameEntry),
    (record, summary): (&Record, &Summary),
    child: Option<&Child>,
    width: f32,
) -> bool {
    let picture = (width * 0.22).clamp(72.0, 140.0);
    let inner = card(CONTINUE).show(ui, |ui| {
        ui.set_width((width - 48.0).min(720.0));
        ui.horizontal(|ui| {
            ui.add(art.image(entry.picture, picture));
            ui.vertical(|ui| {
                ui.label(bold(format!("▶ {}", words.get("continue_title")), 28.0).color(ACCENT));
                ui.label(bold(words.get(&format!("game_{}", record.game)), 22.0));
                players(ui, (art, words), record, child);
                ui.label(RichText::new(how_far(words, summary)).size(18.0));
            });
        });
    });
    let response = ui.interact(inner.response.rect, egui::Id::new("continue"), egui::Sense::click());
    crate::app::platform::web::tag(&response, "continue");
    response.clicked()
}

/// Who plays each seat, each with their picture: against the Robot, the child's animal and name
/// (or "You" before a child is chosen) and the Robot's face with its stars; "Player 1 – Player 2"
/// between friends.
fn players(ui: &mut egui::Ui, (art, words): (&EguiArt, &Words), record: &Record, child: Option<&Child>) {
    let has_robot = record.seats.iter().any(|c| matches!(c, Control::Robot(_)));
    let child = child.filter(|_| has_robot);
    ui.horizontal_wrapped(|ui| {
        for (i, control) in record.seats.iter().enumerate() {
            if i > 0 {
                ui.label(RichText::new("–").size(18.0));
            }
            let name = match (control, child) {
                (Control::Robot(level), _) => {
                    format!("{} {}", words.get("robot"), "★".repeat(level.number() as usize))
                }
                (Control::Far, _) => words.get("seat_far").to_string(),
                (Control::Person, Some(child)) => name_of(words, child),
                (Control::Person, None) if has_robot => words.get("you").to_string(),
                (Control::Person, None) => words.get(&format!("player_{}", i + 1)).to_string(),
            };
            ui.add(art.image(face_of(*control, child.map(|c| c.animal)), 30.0));
            ui.label(RichText::new(name).size(18.0));
        }
    });
}

/// How far the game has gone, in the game's own terms.
fn how_far(words: &Words, summary: &Summary) -> String {
    match &summary.progress {
        Progress::Moves(n) => words.fill("continue_move", &[("n", &(n + 1).to_string())]),
        Progress::Match { white, black, game, .. } => words.fill(
            "continue_match",
            &[("white", &white.to_string()), ("black", &black.to_string()), ("game", &game.to_string())],
        ),
        Progress::InGoal(counts) => {
            let counts: Vec<String> = counts.iter().map(|c| format!("{}/{}", c.in_goal, c.of)).collect();
            words.fill("continue_goal", &[("counts", &counts.join(" · "))])
        }
    }
}

/// Opening a game's record file. In the browser the button opens the file picker (the file's
/// text comes a few frames later, through `web::picked_file`); on the desktop it lists the
/// records exported to `records/`, newest first, and returns the one tapped.
fn open_card(
    ui: &mut egui::Ui,
    words: &Words,
    store: &Store,
    opening: &mut bool,
) -> Option<std::path::PathBuf> {
    let mut chosen = None;
    ui.vertical_centered(|ui| {
        let response = ui.button(RichText::new(format!("↑ {}", words.get("open_game"))).size(18.0));
        web::tag(&response, "open_game");
        if response.clicked() {
            if cfg!(target_arch = "wasm32") {
                web::pick_file();
            } else {
                *opening = !*opening;
            }
        }
        if *opening {
            let files = store.records();
            if files.is_empty() {
                ui.label(RichText::new(words.get("no_records")).size(15.0));
            }
            for file in files.into_iter().take(8) {
                let name = file.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                if ui.button(RichText::new(name).size(16.0)).clicked() {
                    *opening = false;
                    chosen = Some(file);
                }
            }
        }
    });
    chosen
}

/// The language and sound choices; returns the new settings when one was changed.
fn language_card(ui: &mut egui::Ui, words: &Words, settings: &Settings) -> Option<Settings> {
    let mut changed = None;
    card(CARD).show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(bold(words.get("language"), 18.0));
            for language in Language::ALL {
                let chosen = settings.language == language;
                if ui.selectable_label(chosen, language.native_name()).clicked() && !chosen {
                    changed = Some(Settings { language, ..settings.clone() });
                }
            }
            ui.separator();
            let label = words.get(if settings.sound { "sound_on" } else { "sound_off" });
            let sign = if settings.sound { "♪" } else { "×" };
            if ui.button(format!("{sign} {label}")).clicked() {
                changed = Some(Settings { sound: !settings.sound, ..settings.clone() });
            }
        });
    });
    changed
}

/// A game's card: its picture with its name below; a tap anywhere on it opens the game.
fn game_tile(ui: &mut egui::Ui, art: &EguiArt, words: &Words, game: &GameEntry, tile: f32) -> bool {
    let name = game.kind;
    let inner = card(CARD).show(ui, |ui| {
        ui.set_width(tile + 8.0);
        ui.vertical_centered(|ui| {
            ui.add(art.image(game.picture, tile));
            let key = format!("game_{name}");
            let title = words.get(&key);
            ui.label(bold(title, bold_size_fitting(ui, title, 22.0, tile + 8.0)));
            ui.label(egui::RichText::new(words.get(&format!("blurb_{name}"))).size(15.0));
        });
    });
    card_tapped(ui, inner.response.rect, egui::Id::new(("game", name)), &format!("game.{name}"))
}
