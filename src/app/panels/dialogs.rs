//! The game screen's dialogs over the board: a big message, the panel between two rounds, the
//! question before a game in progress begins again, and the game's result (with a stage's stars
//! and the way out). None shows while the game is watched again.

use super::panel_parts::{VIEW_BUTTON, centred_row, dialog, said_line, window};
use super::scoreboard::{START_AGAIN_ANSWERS, ScoreBoard, TAKE_BACK_ANSWERS, TUTOR_ANSWERS};
use super::stage_end::StageEnd;
use super::theme::{ACCENT, CALM, EguiArt, bold, bold_size_fitting, card};
use crate::app::board::view::{BoardArea, BoardLayout};
use crate::app::course::replay::{Replay, ReplayCommand};
use crate::app::course::turn::GameCommand;
use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::app::platform::speech::{Speech, say_in_turn};
use crate::app::platform::web;
use crate::app::session::feedback::game_key;
use crate::app::session::screen::Screen;
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, vec2};

/// What the dialogs read, and what they answer with.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct DialogParts<'w, 's> {
    board: Res<'w, ScoreBoard>,
    area: Res<'w, BoardArea>,
    layout: Option<Res<'w, BoardLayout>>,
    art: Res<'w, EguiArt>,
    words: Res<'w, Words>,
    replay: Option<Res<'w, Replay>>,
    commands: MessageWriter<'w, GameCommand>,
    replay_orders: MessageWriter<'w, ReplayCommand>,
    next: ResMut<'w, NextState<Screen>>,
    stage: StageEnd<'w, 's>,
    speech: MessageWriter<'w, Speech>,
}

pub(super) fn game_dialogs(mut contexts: EguiContexts, parts: DialogParts) -> Result {
    let ctx = contexts.ctx_mut()?;
    let DialogParts {
        board,
        area,
        layout,
        art,
        words,
        replay,
        mut commands,
        mut replay_orders,
        mut next,
        mut stage,
        mut speech,
    } = parts;
    let screen = ctx.content_rect();
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

    if replay.is_some() {
        return Ok(());
    }
    round_dialog(ctx, (&board, &words, &art), &mut commands, &mut speech);
    let whole_board = area.whole_board(layout.as_deref());
    ask_dialog(ctx, (&board, &words), whole_board, &mut commands, &mut speech);

    if let Some(result) = &board.result {
        dialog(ctx, "result").show(ctx, |ui| {
            // Within a phone's width: the buttons go onto a second line rather than off the screen.
            ui.set_max_width((screen.width() - 40.0).min(560.0));
            ui.vertical_centered(|ui| {
                let picture = if result.winner.is_some() { Art::Trophy } else { Art::Handshake };
                ui.add(art.image(picture, 96.0));
                if said_line(ui, bold(&result.title, 30.0).color(ACCENT), true, &words) {
                    say_in_turn(&mut speech, board.said.result.clone());
                }
                ui.label(&result.reason);
                if board.show_score {
                    let scores: Vec<String> = board.seats.iter().map(|s| s.score.to_string()).collect();
                    ui.label(bold(scores.join(" – "), 26.0));
                }
                if stage.stars_won(ui, &art, &words) {
                    next.set(Screen::Diploma);
                }
                centred_row(ui, "result_buttons", |ui| {
                    let watch = ui.button(bold(format!("▶ {}", words.get("watch_again")), 20.0));
                    web::tag(&watch, "button.watch_again");
                    if watch.clicked() {
                        replay_orders.write(ReplayCommand::Open);
                    }
                    // A room's game is not begun again from one side.
                    if !board.afar && ui.button(bold(words.get("play_again"), 20.0)).clicked() {
                        commands.write(GameCommand::NewGame);
                    }
                    let (out, key) = match stage.way_out() {
                        Screen::Map => (Screen::Map, "map"),
                        _ => (Screen::Menu, "menu"),
                    };
                    let leave = ui.button(bold(words.get(key), 20.0));
                    web::tag(&leave, &format!("button.{key}"));
                    if leave.clicked() {
                        next.set(out);
                    }
                });
            });
        });
    }
    Ok(())
}

/// The panel between two rounds (a game of a match): who won it and how, and Next.
fn round_dialog(
    ctx: &egui::Context,
    (board, words, art): (&ScoreBoard, &Words, &EguiArt),
    commands: &mut MessageWriter<GameCommand>,
    speech: &mut MessageWriter<Speech>,
) {
    let (Some(round), Some(game)) = (&board.round, board.game) else { return };
    if board.result.is_some() {
        return;
    }
    dialog(ctx, "round").show(ctx, |ui| {
        ui.vertical_centered(|ui| {
            let picture = if round.winner.is_some() { Art::Star } else { Art::Handshake };
            ui.add(art.image(picture, 72.0));
            if said_line(ui, bold(&round.title, 26.0).color(ACCENT), true, words) {
                say_in_turn(speech, board.said.round.clone());
            }
            for line in &round.lines {
                ui.label(bold(line, 19.0));
            }
            ui.add_space(6.0);
            let next = egui::Button::new(
                bold(format!("▶ {}", words.get(&game_key(words, "next_round", game))), 22.0)
                    .color(Color32::WHITE),
            )
            .fill(CALM)
            .min_size(vec2(180.0, 60.0));
            let response = ui.add(next);
            web::tag(&response, "button.next_round");
            if response.clicked() {
                commands.write(GameCommand::NextRound);
            }
        });
    });
}

/// The tutor's question keeps out of the board, so the coach's arrows on it show, and out of
/// the panels' buttons: beside the board (in egui's points) where the screen is wide enough,
/// past the view buttons.
fn tutor_window(ctx: &egui::Context, board: Rect) -> egui::Window<'static> {
    const WIDTH: f32 = 330.0;
    let screen = ctx.content_rect();
    let left = board.max.x + VIEW_BUTTON + 16.0;
    if screen.right() - left >= WIDTH + 16.0 {
        // The game waits for the answer, but the board and the buttons stay in sight.
        let offset = vec2(left - screen.left(), board.center().y - screen.center().y);
        return window("tutor", "tutor")
            .title_bar(false)
            .anchor(egui::Align2::LEFT_CENTER, offset)
            .max_width(WIDTH);
    }
    // No room beside the board (a phone): the question holds the screen as any other does, the
    // board and its arrows seen through the veil.
    dialog(ctx, "tutor").max_width(WIDTH.min(screen.width() - 24.0))
}

/// Restart or New game in a game with moves asks first: two big picture buttons, the game going on
/// (green, first) or beginning again. The tutor asks the same way before a slip: think again
/// (green, first) or play it.
fn ask_dialog(
    ctx: &egui::Context,
    (board, words): (&ScoreBoard, &Words),
    whole_board: Rect,
    commands: &mut MessageWriter<GameCommand>,
    speech: &mut MessageWriter<Speech>,
) {
    let Some(question) = &board.asking else { return };
    let (window, size, height) = if board.asking_tutor {
        (tutor_window(ctx, whole_board), 21.0, 64.0)
    } else {
        (dialog(ctx, "ask"), 26.0, 96.0)
    };
    window.show(ctx, |ui| {
        ui.vertical_centered(|ui| {
            if said_line(ui, bold(question, size).color(ACCENT), true, words) {
                say_in_turn(speech, board.said.asking.clone());
            }
            ui.add_space(if board.asking_tutor { 4.0 } else { 8.0 });
            // The calm answer first: the game going on, or the move taken back.
            let answers = if board.asking_tutor {
                [
                    ("↺", TUTOR_ANSWERS[0], CALM, GameCommand::ThinkAgain, "button.think_again"),
                    ("▶", TUTOR_ANSWERS[1], ACCENT, GameCommand::PlayAnyway, "button.play_it"),
                ]
            } else if board.asking_far {
                [
                    ("▶", TAKE_BACK_ANSWERS[0], CALM, GameCommand::DeclineTakeBack, "button.play_on"),
                    ("↺", TAKE_BACK_ANSWERS[1], ACCENT, GameCommand::AllowTakeBack, "button.take_back"),
                ]
            } else {
                [
                    ("▶", START_AGAIN_ANSWERS[0], CALM, GameCommand::KeepPlaying, "button.keep_playing"),
                    ("↻", START_AGAIN_ANSWERS[1], ACCENT, GameCommand::StartAgain, "button.start_again"),
                ]
            };
            // Each answer centred in its half of the dialog.
            ui.columns(answers.len(), |columns| {
                for ((sign, key, colour, command, tag), ui) in answers.into_iter().zip(columns) {
                    ui.vertical_centered(|ui| {
                        let text = if board.asking_tutor {
                            format!("{sign} {}", words.get(key))
                        } else {
                            format!("{sign}\n{}", words.get(key))
                        };
                        // Smaller words rather than one broken across two lines in a narrow half.
                        let room = ui.available_width() - 2.0 * ui.spacing().button_padding.x - 4.0;
                        let size = bold_size_fitting(ui, &text, size - 2.0, room);
                        let button = egui::Button::new(bold(text, size).color(Color32::WHITE))
                            .fill(colour)
                            .min_size(vec2(140.0, height));
                        let response = ui.add(button);
                        web::tag(&response, tag);
                        if response.clicked() {
                            commands.write(command);
                        }
                    });
                }
            });
        });
    });
}
