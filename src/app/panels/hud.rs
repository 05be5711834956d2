//! The panels around the board (the seats, the status, the buttons, the move list) in the layout
//! the screen calls for, the view buttons beside the board and the question under it; the room
//! left is the board's. Its dialogs (`dialogs`), settings (`settings_window`) and help
//! (`help_window`) are drawn after it. Panels only read `ScoreBoard` and send orders.

use super::panel_parts::{
    BUTTON, PHONE_SIDE, PanelAction, PanelButton, Part, VIEW_BUTTON, answer_button, centred_row,
    choice_buttons, dialog, draw_button, game_buttons, said_line, status_lines,
};
use super::scoreboard::{ScoreBoard, SeatBoard};
use super::seat_cards::seat_card;
use super::stage_end::StageEnd;
use super::theme::{ACCENT, CARD, EguiArt, UiReady, bold, card};
use crate::app::board::covered::Covers;
use crate::app::board::help::HelpOpen;
use crate::app::board::view::{BoardArea, BoardLayout, SteadyRoom, ViewCommand};
use crate::app::course::replay::{Replay, ReplayCommand};
use crate::app::course::turn::GameCommand;
use crate::app::far::FarGame;
use crate::app::platform::settings::Words;
use crate::app::platform::speech::{Speech, say_in_turn};
use crate::app::session::screen::Screen;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText, vec2};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

pub(super) fn plugin(app: &mut App) {
    // In this order: the dialogs over the panels, the windows over the dialogs.
    app.add_systems(
        EguiPrimaryContextPass,
        (
            game_panels,
            super::dialogs::game_dialogs,
            super::settings_window::settings_dialog,
            super::help_window::help_dialog,
        )
            .chain()
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<UiReady>)),
    );
    app.init_resource::<SteadyRoom>();
    app.add_systems(OnExit(Screen::Playing), |mut room: ResMut<SteadyRoom>| *room = SteadyRoom::default());
}

fn view_buttons(
    ctx: &egui::Context,
    board: Rect,
    beside: bool,
    words: &Words,
    actions: &mut Vec<PanelAction>,
) {
    let at = if beside {
        egui::pos2(board.max.x + 6.0, board.min.y)
    } else {
        egui::pos2(board.max.x - 4.0 * (VIEW_BUTTON + 4.0), board.max.y + 6.0)
    };
    egui::Area::new("view".into()).fixed_pos(at).show(ctx, |ui| {
        ui.spacing_mut().item_spacing = vec2(4.0, 4.0);
        let mut add = |ui: &mut egui::Ui| {
            for button in super::panel_parts::view_buttons() {
                actions.extend(draw_button(ui, button, words, true, VIEW_BUTTON));
            }
        };
        if beside {
            ui.vertical(|ui| add(ui));
        } else {
            ui.horizontal(|ui| add(ui));
        }
    });
}

/// The seats' panels in order, each followed by its partner where it has one: `first`, then
/// `others` in turn.
fn partners_together<'a>(first: &'a SeatBoard, others: &[&'a SeatBoard]) -> Vec<&'a SeatBoard> {
    let all: Vec<&SeatBoard> = std::iter::once(first).chain(others.iter().copied()).collect();
    let mut ordered: Vec<&SeatBoard> = Vec::with_capacity(all.len());
    for seat in &all {
        if ordered.iter().any(|s| s.seat == seat.seat) {
            continue;
        }
        ordered.push(seat);
        if let Some(partner) = seat.partner.and_then(|p| all.iter().find(|s| s.seat == p)) {
            ordered.push(partner);
        }
    }
    ordered
}

/// A button that comes and goes with the moment (confirm, cancel, hint, roll), not one that is
/// always there.
fn of_the_moment(button: &PanelButton) -> bool {
    matches!(
        button.3,
        PanelAction::Game(
            GameCommand::Confirm | GameCommand::Deselect | GameCommand::Hint | GameCommand::Roll
        )
    )
}

/// A question the person must answer first (a draw offered to them): two big buttons.
fn question_dialog(
    ctx: &egui::Context,
    (board, art, words): (&ScoreBoard, &EguiArt, &Words),
    commands: &mut Vec<PanelAction>,
) {
    let Some(question) = &board.question else { return };
    dialog(ctx, "question").show(ctx, |ui| {
        ui.vertical_centered(|ui| {
            ui.add(art.image(board.question_art, 72.0));
            if said_line(ui, bold(question, 24.0).color(ACCENT), !board.said.question.is_empty(), words) {
                commands.push(PanelAction::SayAgain(Part::Question));
            }
            centred_row(ui, "question_answers", |ui| {
                for (index, words) in board.choices.iter().enumerate() {
                    let text = bold(words, 22.0).color(Color32::WHITE);
                    let button = match board.choice_art.get(index).copied().flatten() {
                        Some(picture) => egui::Button::image_and_text(art.image(picture, 56.0), text)
                            .min_size(vec2(150.0, 80.0)),
                        None => egui::Button::new(text).min_size(vec2(140.0, 64.0)),
                    };
                    answer_button(ui, index, button, commands);
                }
            });
        });
    });
}

/// The game screen's orders from its panels, and what they open.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct PanelOrders<'w, 's> {
    commands: MessageWriter<'w, GameCommand>,
    view: MessageWriter<'w, ViewCommand>,
    replay: MessageWriter<'w, ReplayCommand>,
    next: ResMut<'w, NextState<Screen>>,
    help: ResMut<'w, HelpOpen>,
    covers: ResMut<'w, Covers>,
    stage: StageEnd<'w, 's>,
    speech: MessageWriter<'w, Speech>,
}

impl PanelOrders<'_, '_> {
    fn obey(&mut self, action: PanelAction, board: &ScoreBoard) {
        match action {
            PanelAction::SayAgain(part) => {
                let said: Vec<_> = match part {
                    Part::Status => board.said.status.iter().cloned().collect(),
                    Part::Question => board.said.question.clone(),
                    // The coach's words are what was said last while the game is watched.
                    Part::Coach => {
                        self.speech.write(Speech::Again);
                        return;
                    }
                };
                say_in_turn(&mut self.speech, said);
            }
            PanelAction::Menu => self.next.set(self.stage.way_out()),
            PanelAction::Game(command) => {
                self.commands.write(command);
            }
            PanelAction::Help => self.help.0 = !self.help.0,
            PanelAction::Settings => self.covers.settings = !self.covers.settings,
            PanelAction::View(command) => {
                self.view.write(command);
            }
            PanelAction::Replay(command) => {
                self.replay.write(command);
            }
        }
    }
}

/// What every layout of the panels draws from.
struct Seats<'a> {
    board: &'a ScoreBoard,
    art: &'a EguiArt,
    words: &'a Words,
    /// The bottom seat's panel, nearest the board's lower edge and the buttons.
    lower: &'a SeatBoard,
    /// The other seats, in turn order from the one after it.
    others: Vec<&'a SeatBoard>,
    /// The room of a game with someone far away.
    far: Option<&'a FarGame>,
}

/// The panels around the board in the layout the screen calls for, the view buttons beside it and
/// the question under it; the room left is the board's (`BoardArea`).
#[allow(clippy::too_many_arguments)]
fn game_panels(
    mut contexts: EguiContexts,
    board: Res<ScoreBoard>,
    art: Res<EguiArt>,
    words: Res<Words>,
    mut area: ResMut<BoardArea>,
    mut details: Local<bool>,
    mut room: ResMut<SteadyRoom>,
    layout: Option<Res<BoardLayout>>,
    replay: Option<Res<Replay>>,
    mut orders: PanelOrders,
    far: Option<Res<FarGame>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    // A phone on its side puts the panels left of the board and the buttons right of it.
    // While the game is watched again, every screen takes the plain layout: the replay's bar
    // under the board in place of the buttons.
    let replay = replay.as_deref();
    let sideways =
        replay.is_none() && screen.height() < PHONE_SIDE && screen.width() >= screen.height() * 1.3;
    let bottom = board.bottom_seat.index();
    let Some(lower) = board.seats.get(bottom) else { return Ok(()) };
    let others = (1..board.seats.len()).map(|i| &board.seats[(bottom + i) % board.seats.len()]).collect();
    let seats = Seats { board: &board, art: &art, words: &words, lower, others, far: far.as_deref() };
    let mut actions = Vec::new();
    let slim = replay.is_none() && super::hud_slim::wanted(&board, screen);
    let wanted = if slim {
        let strips = super::hud_slim::Strips {
            board: &board,
            art: &art,
            words: &words,
            near: lower,
            far: &seats.others,
        };
        let rect = super::hud_slim::slim_panels(ctx, &strips, &mut actions, &mut details);
        Rect::new(rect.min.x, rect.min.y, rect.max.x, rect.max.y)
    } else if sideways {
        sideways_panels(ctx, &seats, &mut actions)
    } else {
        plain_panels(ctx, &seats, replay, &mut room, &mut actions)
    };
    // The view buttons take a strip beside the board: on its right when the space is wide, under
    // it when it is tall, so they never cover a square. A phone's panels place their own (a long
    // board's thin strips leave them out: it fits whole, and fingers still zoom it).
    let extent = layout.as_deref().map_or(Vec2::ONE, BoardLayout::extent);
    let wide = wanted.width() / extent.x >= wanted.height() / extent.y;
    // A small screen watching a game again gives the view buttons' room to the board (fingers
    // still zoom it).
    let small_replay = replay.is_some() && screen.width().min(screen.height()) < PHONE_SIDE;
    let view_buttons_shown = !slim && !small_replay;
    let strip = if view_buttons_shown { VIEW_BUTTON + 8.0 } else { 0.0 };
    let wanted = if wide {
        Rect::new(wanted.min.x, wanted.min.y, wanted.max.x - strip, wanted.max.y)
    } else {
        Rect::new(wanted.min.x, wanted.min.y, wanted.max.x, wanted.max.y - strip)
    };
    if area.0 != wanted {
        area.0 = wanted;
    }
    let drawn = area.whole_board(layout.as_deref());
    if view_buttons_shown {
        view_buttons(ctx, drawn, wide, &words, &mut actions);
    }
    // Under a square board on a phone upright, the band under the board asks the question.
    if replay.is_none() && (!slim || board.long_board) {
        question_dialog(ctx, (&board, &art, &words), &mut actions);
    }
    for action in actions {
        orders.obey(action, &board);
    }
    let details = slim && *details;
    if orders.covers.details != details {
        orders.covers.details = details;
    }
    Ok(())
}

/// A phone on its side: the seats' panels in a column left of the board, the buttons in a grid
/// right of it.
fn sideways_panels(ctx: &egui::Context, seats: &Seats, actions: &mut Vec<PanelAction>) -> Rect {
    let (board, art, words, lower, others) =
        (seats.board, seats.art, seats.words, seats.lower, &seats.others);
    let screen = ctx.content_rect();
    let column = (screen.width() * 0.3).min(260.0);
    let left =
        egui::Area::new("seats".into()).anchor(egui::Align2::LEFT_TOP, vec2(6.0, 6.0)).show(ctx, |ui| {
            ui.set_max_width(column);
            ui.spacing_mut().item_spacing.y = 4.0;
            for seat in others.iter().rev() {
                seat_card(ui, seat, art, column - 16.0, board.show_score, true);
            }
            seat_card(ui, lower, art, column - 16.0, board.show_score, true);
            status_lines(ui, (board, words), true, actions);
            ui.horizontal_wrapped(|ui| choice_buttons(ui, (board, art), actions, BUTTON, false));
        });
    let right =
        egui::Area::new("buttons".into()).anchor(egui::Align2::RIGHT_TOP, vec2(-6.0, 6.0)).show(ctx, |ui| {
            egui::Grid::new("button_grid").spacing(vec2(6.0, 6.0)).show(ui, |ui| {
                for (i, button) in game_buttons(board).into_iter().enumerate() {
                    if let Some(action) = draw_button(ui, button, words, true, BUTTON) {
                        actions.push(action);
                    }
                    if i % 2 == 1 {
                        ui.end_row();
                    }
                }
            });
        });
    Rect::new(left.response.rect.right() + 6.0, 6.0, right.response.rect.left() - 6.0, screen.bottom() - 6.0)
}

/// The seats' panels above the board, the move list right of it on a wide screen, the status and
/// the buttons (or the replay's bar) under it.
fn plain_panels(
    ctx: &egui::Context,
    seats: &Seats,
    replay: Option<&Replay>,
    room: &mut SteadyRoom,
    actions: &mut Vec<PanelAction>,
) -> Rect {
    let (board, art, words, lower, others) =
        (seats.board, seats.art, seats.words, seats.lower, &seats.others);
    let far = seats.far;
    let screen = ctx.content_rect();
    // The person's panel (or the first player's) sits nearer the buttons; a phone held
    // upright stacks the panels, any small screen gets the compact ones.
    let narrow = screen.width() < 640.0;
    let compact = narrow || screen.height() < PHONE_SIDE;
    let seat_count = board.seats.len() as f32;
    let card_width = if narrow {
        screen.width() - 36.0
    } else {
        (screen.width() / seat_count - 30.0 * seat_count).min(420.0)
    };
    // A game watched again on a short screen (a phone on its side) gives the seats' room to the
    // board: the replay's bar under it is tall.
    let seats_shown = replay.is_none() || screen.height() >= PHONE_SIDE;
    let seats =
        egui::Area::new("seats".into()).anchor(egui::Align2::CENTER_TOP, vec2(0.0, 6.0)).show(ctx, |ui| {
            if !seats_shown {
                return;
            }
            if narrow {
                ui.spacing_mut().item_spacing.y = 4.0;
                ui.vertical(|ui| {
                    for seat in others.iter().rev() {
                        seat_card(ui, seat, art, card_width, board.show_score, compact);
                    }
                    seat_card(ui, lower, art, card_width, board.show_score, compact);
                });
            } else if others.len() > 1 {
                // Three or four seats: two one-line panels a row, partners side by side.
                let in_rows = partners_together(lower, others);
                let width = (screen.width() / 2.0 - 40.0).min(420.0);
                egui::Grid::new("seat_grid").spacing(vec2(8.0, 4.0)).show(ui, |ui| {
                    for (i, seat) in in_rows.iter().enumerate() {
                        seat_card(ui, seat, art, width, board.show_score, true);
                        if i % 2 == 1 {
                            ui.end_row();
                        }
                    }
                });
            } else {
                // Side by side, the person's (or the first player's) panel comes first.
                ui.horizontal_top(|ui| {
                    seat_card(ui, lower, art, card_width, board.show_score, compact);
                    for seat in others {
                        seat_card(ui, seat, art, card_width, board.show_score, compact);
                    }
                });
            }
        });
    let top = if seats_shown { seats.response.rect.bottom() } else { screen.top() };
    // The move list: a column on the right of a wide screen, the last round on a phone.
    let mut right = screen.right();
    if !board.move_list.is_empty() && !compact {
        let list = egui::Area::new("moves".into())
            .anchor(egui::Align2::RIGHT_TOP, vec2(-6.0, top + 6.0))
            .show(ctx, |ui| {
                card(CARD).show(ui, |ui| {
                    ui.set_width(170.0);
                    ui.label(bold(words.get("moves"), 17.0));
                    // The last rounds that fit, in whole rows (one round a row), so the
                    // list's first row is never cut in half.
                    let font = egui::FontId::proportional(16.0);
                    let row = ui.ctx().fonts_mut(|f| f.row_height(&font)) + ui.spacing().item_spacing.y;
                    // Above the buttons (or the replay's bar) under the board, its heading too.
                    let bottom = room.bottom().unwrap_or(screen.height() - 110.0);
                    let room = (bottom - top - 62.0).max(80.0);
                    let rows = ((room + ui.spacing().item_spacing.y) / row).floor().max(1.0) as usize;
                    let first = board.move_list.len().saturating_sub(rows);
                    for round in &board.move_list[first..] {
                        ui.add(egui::Label::new(RichText::new(round).font(font.clone())).truncate());
                    }
                });
            });
        right = list.response.rect.left();
    }
    let buttons = egui::Area::new("buttons".into())
        .anchor(egui::Align2::CENTER_BOTTOM, vec2(0.0, -6.0))
        .show(ctx, |ui| {
            ui.set_max_width(screen.width() - 16.0);
            ui.vertical_centered(|ui| {
                if let Some(replay) = replay {
                    let width = (screen.width() - 40.0).min(760.0);
                    let side = if compact { 40.0 } else { BUTTON };
                    super::replay_bar::replay_bar(ui, replay, words, (width, compact, side), actions);
                    return;
                }
                if let Some(far) = far {
                    super::far_strip::strip(ui, far, words);
                }
                status_lines(ui, (board, words), compact, actions);
                let buttons = game_buttons(board);
                // Many buttons on one row: the ones always there show their sign only (their
                // words come on hover), the ones of the moment keep their words.
                let many = buttons.len() + board.choices.len() > 8;
                ui.horizontal_wrapped(|ui| {
                    for button in buttons {
                        let short = compact || (many && !of_the_moment(&button));
                        if let Some(action) = draw_button(ui, button, words, short, BUTTON) {
                            actions.push(action);
                        }
                    }
                    choice_buttons(ui, (board, art), actions, BUTTON, false);
                });
            });
        });
    let (top, bottom_edge) =
        room.keep(Vec2::new(screen.width(), screen.height()), top, buttons.response.rect.top());
    Rect::new(screen.left() + 8.0, top + 4.0, right - 8.0, (bottom_edge - 4.0).max(top + 54.0))
}
