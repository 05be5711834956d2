//! The egui side: fonts and style, the panels around the board (players, scores, buttons), the
//! game-over and help dialogs. Panels only read `ScoreBoard` and send `GameCommand`s.

use super::Control;
use super::Screen;
use super::art::{Art, ArtImages};
use super::board::BoardArea;
use super::board::Extra;
use super::settings::{Settings, Words};
use super::turn::{GameCommand, ScoreBoard, SeatBoard};
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, FontFamily, FontId, RichText, TextStyle, vec2};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, EguiTextureHandle};
use std::collections::HashMap;
use std::sync::Arc;

pub const INK: Color32 = Color32::from_rgb(60, 44, 34);
pub const CARD: Color32 = Color32::from_rgb(255, 250, 240);
pub const ACCENT: Color32 = Color32::from_rgb(232, 120, 40);
pub const CALM: Color32 = Color32::from_rgb(92, 148, 82);

/// egui's handles for the pictures, made once the pictures are loaded.
#[derive(Resource, Default)]
pub struct EguiArt(HashMap<Art, egui::TextureId>);

impl EguiArt {
    pub fn image(&self, art: Art, side: f32) -> egui::Image<'static> {
        let id = self.0.get(&art).copied().unwrap_or_default();
        egui::Image::new(egui::load::SizedTexture::new(id, vec2(side, side)))
    }
}

/// Present once egui has the game's fonts (they take effect from the next frame on).
#[derive(Resource)]
pub struct UiReady;

/// Whether the help window is open.
#[derive(Resource, Default)]
pub struct HelpOpen(pub bool);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EguiArt>().init_resource::<HelpOpen>();
    app.add_systems(EguiPrimaryContextPass, style_once.run_if(not(resource_exists::<UiReady>)));
    app.add_systems(
        EguiPrimaryContextPass,
        game_panels.run_if(in_state(Screen::Playing).and_then(resource_exists::<UiReady>)),
    );
    app.add_systems(OnExit(Screen::Playing), |mut help: ResMut<HelpOpen>| help.0 = false);
    super::screens::ui_plugin(app);
}

fn style_once(
    mut commands: Commands,
    mut contexts: EguiContexts,
    images: Res<ArtImages>,
    mut art: ResMut<EguiArt>,
) -> Result {
    for picture in Art::ALL {
        let id = contexts.add_image(EguiTextureHandle::Strong(images.get(picture)));
        art.0.insert(picture, id);
    }
    let ctx = contexts.ctx_mut()?;
    let mut fonts = egui::FontDefinitions::empty();
    fonts.font_data.insert(
        "sans".into(),
        Arc::new(egui::FontData::from_static(include_bytes!("../../assets/fonts/DejaVuSans.ttf"))),
    );
    fonts.font_data.insert(
        "bold".into(),
        Arc::new(egui::FontData::from_static(include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf"))),
    );
    fonts.families.insert(FontFamily::Proportional, vec!["sans".into()]);
    fonts.families.insert(FontFamily::Monospace, vec!["sans".into()]);
    fonts.families.insert(FontFamily::Name("bold".into()), vec!["bold".into(), "sans".into()]);
    ctx.set_fonts(fonts);
    ctx.set_theme(egui::Theme::Light);
    ctx.all_styles_mut(|style| {
        style.text_styles = [
            (TextStyle::Heading, FontId::new(30.0, FontFamily::Name("bold".into()))),
            (TextStyle::Body, FontId::proportional(19.0)),
            (TextStyle::Button, FontId::proportional(19.0)),
            (TextStyle::Small, FontId::proportional(14.0)),
            (TextStyle::Monospace, FontId::proportional(17.0)),
        ]
        .into();
        style.spacing.button_padding = vec2(14.0, 10.0);
        style.spacing.item_spacing = vec2(10.0, 10.0);
        style.spacing.interact_size.y = 48.0;
        style.visuals.override_text_color = Some(INK);
        style.visuals.window_fill = CARD;
        style.visuals.panel_fill = CARD;
        style.visuals.window_corner_radius = 18.into();
        style.visuals.widgets.inactive.corner_radius = 12.into();
        style.visuals.widgets.hovered.corner_radius = 12.into();
        style.visuals.widgets.active.corner_radius = 12.into();
        style.visuals.widgets.inactive.weak_bg_fill = Color32::from_rgb(246, 232, 208);
        style.visuals.widgets.hovered.weak_bg_fill = Color32::from_rgb(252, 220, 170);
        style.visuals.selection.bg_fill = Color32::from_rgb(255, 196, 110);
        style.visuals.selection.stroke.color = INK;
    });
    commands.insert_resource(UiReady);
    Ok(())
}

/// Draws a whole-window screen (menu, setup) that scrolls when the window is small.
pub fn full_screen(ctx: &egui::Context, add_contents: impl FnOnce(&mut egui::Ui)) {
    let mut root = egui::Ui::new(
        ctx.clone(),
        "screen".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    egui::CentralPanel::default().frame(egui::Frame::NONE.inner_margin(egui::Margin::same(8))).show(
        &mut root,
        |ui| {
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                ui.vertical_centered(add_contents);
            });
        },
    );
}

pub fn bold(text: impl Into<String>, size: f32) -> RichText {
    RichText::new(text).font(FontId::new(size, FontFamily::Name("bold".into())))
}

/// A card with rounded corners, as every panel of the game is drawn.
pub fn card(fill: Color32) -> egui::Frame {
    egui::Frame::new()
        .fill(fill)
        .corner_radius(16)
        .inner_margin(egui::Margin::same(10))
        .stroke(egui::Stroke::new(1.5, Color32::from_rgb(214, 190, 160)))
}

fn clock_text(seconds: f32) -> String {
    let whole = seconds.ceil() as u32;
    format!("{}:{:02}", whole / 60, whole % 60)
}

fn face(seat: &SeatBoard) -> Art {
    if matches!(seat.control, Control::Robot(_)) { Art::Robot } else { Art::People }
}

fn clock_label(ui: &mut egui::Ui, art: &EguiArt, left: f32, size: f32) {
    let colour = if left < 20.0 { Color32::from_rgb(200, 40, 30) } else { INK };
    ui.add(art.image(Art::Clock, size * 1.1));
    ui.label(bold(clock_text(left), size).color(colour));
}

/// A seat's extra lines: pictures with counts, progress bars, words.
fn extras(ui: &mut egui::Ui, seat: &SeatBoard, art: &EguiArt, icon: f32, bar_width: f32) {
    for extra in &seat.extras {
        match extra {
            Extra::Count(picture, count) => {
                for _ in 0..*count {
                    ui.add(art.image(*picture, icon));
                }
            }
            Extra::Progress { art: picture, percent, finished } => {
                ui.add(art.image(*picture, icon));
                let fill = if *finished { CALM } else { ACCENT };
                let text = if *finished { format!("{percent}% ✓") } else { format!("{percent}%") };
                ui.add(
                    egui::ProgressBar::new(*percent as f32 / 100.0)
                        .desired_width(bar_width)
                        .desired_height(icon * 0.8)
                        .corner_radius(6)
                        .fill(fill)
                        .text(RichText::new(text).size(14.0).color(INK)),
                );
            }
            Extra::Text(text) => {
                ui.label(RichText::new(text).size(14.0));
            }
        }
    }
}

fn seat_card(
    ui: &mut egui::Ui,
    seat: &SeatBoard,
    art: &EguiArt,
    width: f32,
    show_score: bool,
    compact: bool,
) {
    let fill = if seat.to_move { Color32::from_rgb(255, 226, 170) } else { CARD };
    if compact {
        return compact_seat_card(ui, seat, art, width, fill, show_score);
    }
    card(fill).show(ui, |ui| {
        ui.set_width(width);
        ui.set_min_height(64.0);
        ui.horizontal(|ui| {
            ui.add(art.image(face(seat), 34.0));
            ui.vertical(|ui| {
                ui.horizontal(|ui| {
                    ui.label(bold(&seat.name, 17.0));
                    if let Some(left) = seat.clock {
                        ui.add_space(6.0);
                        clock_label(ui, art, left, 18.0);
                    }
                });
                ui.horizontal(|ui| {
                    if show_score {
                        ui.label(bold(seat.score.to_string(), 30.0).color(ACCENT));
                        ui.add_space(4.0);
                    }
                    extras(ui, seat, art, 24.0, 90.0);
                });
            });
        });
    });
}

/// One line per seat for a phone: face, score, name, extras, clock.
fn compact_seat_card(
    ui: &mut egui::Ui,
    seat: &SeatBoard,
    art: &EguiArt,
    width: f32,
    fill: Color32,
    show_score: bool,
) {
    card(fill).inner_margin(egui::Margin::symmetric(8, 4)).show(ui, |ui| {
        ui.set_width(width);
        ui.spacing_mut().interact_size.y = 26.0;
        ui.spacing_mut().item_spacing = vec2(6.0, 2.0);
        ui.horizontal_wrapped(|ui| {
            ui.add(art.image(face(seat), 26.0));
            if show_score {
                ui.label(bold(seat.score.to_string(), 24.0).color(ACCENT));
            }
            ui.label(RichText::new(&seat.name).size(15.0));
            if let Some(left) = seat.clock {
                clock_label(ui, art, left, 15.0);
            }
            extras(ui, seat, art, 20.0, 56.0);
        });
    });
}

/// The in-game settings: language, sound, and the clock of the next game.
fn settings_window(
    ctx: &egui::Context,
    board: &ScoreBoard,
    words: &Words,
    settings: &mut Settings,
    open: &mut bool,
    commands: &mut MessageWriter<GameCommand>,
) {
    let mut still_open = *open;
    egui::Window::new(words.get("settings"))
        .collapsible(false)
        .resizable(false)
        .open(&mut still_open)
        .anchor(egui::Align2::CENTER_CENTER, vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label(bold(words.get("language"), 18.0));
            ui.horizontal_wrapped(|ui| {
                for language in crate::i18n::Language::ALL {
                    if ui.selectable_label(settings.language == language, language.native_name()).clicked()
                        && settings.language != language
                    {
                        settings.language = language;
                    }
                }
            });
            ui.label(bold(words.get("sound"), 18.0));
            ui.horizontal(|ui| {
                if ui.selectable_label(settings.sound, words.get("sound_on")).clicked() && !settings.sound {
                    settings.sound = true;
                }
                if ui.selectable_label(!settings.sound, words.get("sound_off")).clicked() && settings.sound {
                    settings.sound = false;
                }
            });
            if !board.clock_choices.is_empty() {
                ui.label(bold(words.get("setup_clock"), 18.0));
                ui.horizontal_wrapped(|ui| {
                    let choices = std::iter::once(0).chain(board.clock_choices.iter().copied());
                    for minutes in choices {
                        let label = if minutes == 0 {
                            words.get("clock_off").to_string()
                        } else {
                            words.fill("clock_minutes", &[("n", &minutes.to_string())])
                        };
                        if ui.selectable_label(board.next_clock == minutes, label).clicked() {
                            commands.write(GameCommand::SetClock(minutes));
                        }
                    }
                });
                ui.label(RichText::new(words.get("clock_at_restart")).italics().size(15.0));
            }
            ui.vertical_centered(|ui| {
                if ui.button(words.get("close")).clicked() {
                    *open = false;
                }
            });
        });
    if !still_open {
        *open = false;
    }
}

/// What a button of the game screen asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum PanelAction {
    Menu,
    Game(GameCommand),
    Help,
    Settings,
}

/// A button: its sign, its words key, whether it can be pressed now, and what it does.
type PanelButton = (&'static str, &'static str, bool, PanelAction);

fn game_buttons(board: &ScoreBoard) -> [PanelButton; 6] {
    [
        ("⌂", "menu", true, PanelAction::Menu),
        ("↻", "restart", true, PanelAction::Game(GameCommand::Restart)),
        ("↶", "undo", board.can_undo, PanelAction::Game(GameCommand::Undo)),
        ("↷", "redo", board.can_redo, PanelAction::Game(GameCommand::Redo)),
        ("?", "help", true, PanelAction::Help),
        ("⚙", "settings", true, PanelAction::Settings),
    ]
}

/// On a small screen a button shows its sign only; the words come with a wider screen.
fn draw_button(ui: &mut egui::Ui, button: PanelButton, words: &Words, compact: bool) -> Option<PanelAction> {
    let (sign, key, enabled, action) = button;
    let (text, size) = if compact {
        (sign.to_string(), vec2(48.0, 48.0))
    } else {
        (format!("{sign} {}", words.get(key)), vec2(0.0, 48.0))
    };
    ui.add_enabled(enabled, egui::Button::new(text).min_size(size)).clicked().then_some(action)
}

/// The banner, the last round of the move list on a small screen, and whose turn it is.
fn status_lines(ui: &mut egui::Ui, board: &ScoreBoard, compact: bool) {
    if let Some(banner) = &board.banner {
        card(Color32::from_rgb(255, 236, 190)).show(ui, |ui| ui.label(bold(banner, 18.0)));
    }
    if compact && let Some(last) = board.move_list.last() {
        ui.label(RichText::new(last).size(15.0));
    }
    if !board.status.is_empty() {
        ui.label(bold(&board.status, if compact { 17.0 } else { 20.0 }));
    }
}

#[allow(clippy::too_many_arguments)]
fn game_panels(
    mut contexts: EguiContexts,
    board: Res<ScoreBoard>,
    art: Res<EguiArt>,
    words: Res<Words>,
    mut settings: ResMut<Settings>,
    mut area: ResMut<BoardArea>,
    mut help: ResMut<HelpOpen>,
    mut settings_open: Local<bool>,
    mut commands: MessageWriter<GameCommand>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    // A phone on its side puts the panels left of the board and the buttons right of it.
    let sideways = screen.height() < 520.0 && screen.width() >= screen.height() * 1.3;
    let bottom = board.bottom_seat.index();
    let (upper, lower) = match (board.seats.get(1 - bottom), board.seats.get(bottom)) {
        (Some(upper), Some(lower)) => (upper, lower),
        _ => return Ok(()),
    };
    let mut actions = Vec::new();
    let wanted = if sideways {
        let column = (screen.width() * 0.3).min(260.0);
        let left =
            egui::Area::new("seats".into()).anchor(egui::Align2::LEFT_TOP, vec2(6.0, 6.0)).show(ctx, |ui| {
                ui.set_max_width(column);
                ui.spacing_mut().item_spacing.y = 4.0;
                seat_card(ui, upper, &art, column - 16.0, board.show_score, true);
                seat_card(ui, lower, &art, column - 16.0, board.show_score, true);
                status_lines(ui, &board, true);
            });
        let right = egui::Area::new("buttons".into()).anchor(egui::Align2::RIGHT_TOP, vec2(-6.0, 6.0)).show(
            ctx,
            |ui| {
                egui::Grid::new("button_grid").spacing(vec2(6.0, 6.0)).show(ui, |ui| {
                    for (i, button) in game_buttons(&board).into_iter().enumerate() {
                        if let Some(action) = draw_button(ui, button, &words, true) {
                            actions.push(action);
                        }
                        if i % 2 == 1 {
                            ui.end_row();
                        }
                    }
                });
            },
        );
        Rect::new(
            left.response.rect.right() + 6.0,
            6.0,
            right.response.rect.left() - 6.0,
            screen.bottom() - 6.0,
        )
    } else {
        // The person's panel (or the first player's) sits nearer the buttons; a phone held
        // upright stacks the panels, any small screen gets the compact ones.
        let narrow = screen.width() < 640.0;
        let compact = narrow || screen.height() < 520.0;
        let card_width =
            if narrow { screen.width() - 36.0 } else { (screen.width() / 2.0 - 60.0).min(420.0) };
        let seats = egui::Area::new("seats".into()).anchor(egui::Align2::CENTER_TOP, vec2(0.0, 6.0)).show(
            ctx,
            |ui| {
                if narrow {
                    ui.spacing_mut().item_spacing.y = 4.0;
                    ui.vertical(|ui| {
                        seat_card(ui, upper, &art, card_width, board.show_score, compact);
                        seat_card(ui, lower, &art, card_width, board.show_score, compact);
                    });
                } else {
                    // Side by side, the person's (or the first player's) panel comes first.
                    ui.horizontal_top(|ui| {
                        seat_card(ui, lower, &art, card_width, board.show_score, compact);
                        seat_card(ui, upper, &art, card_width, board.show_score, compact);
                    });
                }
            },
        );
        let top = seats.response.rect.bottom();
        // The move list: a column on the right of a wide screen, the last round on a phone.
        let mut right = screen.right();
        if !board.move_list.is_empty() && !compact {
            let list = egui::Area::new("moves".into())
                .anchor(egui::Align2::RIGHT_TOP, vec2(-6.0, top + 6.0))
                .show(ctx, |ui| {
                    card(CARD).show(ui, |ui| {
                        ui.set_width(170.0);
                        ui.label(bold(words.get("moves"), 17.0));
                        egui::ScrollArea::vertical()
                            .max_height((screen.height() - top - 170.0).max(80.0))
                            .stick_to_bottom(true)
                            .show(ui, |ui| {
                                for round in &board.move_list {
                                    ui.label(RichText::new(round).size(16.0));
                                }
                            });
                    });
                });
            right = list.response.rect.left();
        }
        let buttons = egui::Area::new("buttons".into())
            .anchor(egui::Align2::CENTER_BOTTOM, vec2(0.0, -6.0))
            .show(ctx, |ui| {
                ui.set_max_width(screen.width() - 16.0);
                ui.vertical_centered(|ui| {
                    status_lines(ui, &board, compact);
                    ui.horizontal_wrapped(|ui| {
                        for button in game_buttons(&board) {
                            if let Some(action) = draw_button(ui, button, &words, compact) {
                                actions.push(action);
                            }
                        }
                    });
                });
            });
        let bottom_edge = buttons.response.rect.top();
        Rect::new(screen.left() + 8.0, top + 4.0, right - 8.0, (bottom_edge - 4.0).max(top + 54.0))
    };
    if area.0 != wanted {
        area.0 = wanted;
    }
    for action in actions {
        match action {
            PanelAction::Menu => next.set(Screen::Menu),
            PanelAction::Game(command) => {
                commands.write(command);
            }
            PanelAction::Help => help.0 = !help.0,
            PanelAction::Settings => *settings_open = !*settings_open,
        }
    }

    if let Some(text) = &board.big_notice {
        egui::Area::new("big_notice".into())
            .order(egui::Order::Foreground)
            .anchor(egui::Align2::CENTER_CENTER, vec2(0.0, 0.0))
            .interactable(false)
            .show(ctx, |ui| {
                card(Color32::from_rgb(255, 240, 200)).inner_margin(egui::Margin::same(20)).show(ui, |ui| {
                    ui.set_max_width((screen.width() - 60.0).min(520.0));
                    ui.vertical_centered(|ui| ui.label(bold(text, 30.0).color(ACCENT)));
                });
            });
    }

    if *settings_open {
        let mut open = true;
        settings_window(ctx, &board, &words, &mut settings, &mut open, &mut commands);
        *settings_open = open;
    }

    if help.0 {
        let mut open = true;
        egui::Window::new(words.get("help"))
            .collapsible(false)
            .resizable(false)
            .open(&mut open)
            .anchor(egui::Align2::CENTER_CENTER, vec2(0.0, 0.0))
            .max_width((screen.width() - 40.0).min(560.0))
            .show(ctx, |ui| {
                egui::ScrollArea::vertical().max_height(screen.height() * 0.7).show(ui, |ui| {
                    ui.label(words.get(&format!("help_{}", board.game)));
                });
                ui.vertical_centered(|ui| {
                    if ui.button(words.get("close")).clicked() {
                        help.0 = false;
                    }
                });
            });
        if !open {
            help.0 = false;
        }
    }

    if let Some(result) = &board.result {
        egui::Window::new("result")
            .title_bar(false)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, vec2(0.0, 0.0))
            .show(ctx, |ui| {
                ui.vertical_centered(|ui| {
                    let picture = if result.winner.is_some() { Art::Trophy } else { Art::Handshake };
                    ui.add(art.image(picture, 96.0));
                    ui.label(bold(&result.title, 30.0).color(ACCENT));
                    ui.label(&result.reason);
                    if board.show_score
                        && let [first, second] = &board.seats[..]
                    {
                        let score = words.fill(
                            "final_score",
                            &[("a", &first.score.to_string()), ("b", &second.score.to_string())],
                        );
                        ui.label(bold(score, 26.0));
                    }
                    ui.horizontal(|ui| {
                        if ui.button(bold(words.get("play_again"), 20.0)).clicked() {
                            commands.write(GameCommand::Restart);
                        }
                        if ui.button(bold(words.get("menu"), 20.0)).clicked() {
                            next.set(Screen::Menu);
                        }
                    });
                });
            });
    }
    Ok(())
}
