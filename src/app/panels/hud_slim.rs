//! The panels of a phone. A long board takes the screen's long edge whole (Crazy Nard's points
//! are 44 px across on a 360×640 screen), so the seats and the buttons shrink to a thin strip at
//! each end of it: the other seat, the match and the menu buttons at the far end; the person's
//! seat and the buttons of the moves at the near end, each seat's words (its pips, a doubles
//! chain's steps) in small type beside them. A tap on a seat opens the whole panels; a message of
//! the moment (a pass, a hint) shows in the far strip's stead for its seconds, never over the
//! board. A square board on a phone held upright takes the screen's width whole: the seats'
//! panels above it, the message (or a question) under it, then two rows of picture buttons.

use super::panel_parts::{
    PHONE_SIDE, PanelAction, PanelButton, Part, SAY_SIDE, answer_button, choice_buttons, dialog, draw_button,
    game_buttons, say_button, say_button_of, status_lines, view_buttons,
};
use super::scoreboard::{ScoreBoard, SeatBoard};
use super::seat_cards::{extras_in_words, seat_card, tiny_seat_card};
use super::theme::{EguiArt, INK, bold, card, size_fitting, widest};
use crate::app::course::turn::GameCommand;
use crate::app::platform::settings::Words;
use bevy::prelude::*;
use bevy_egui::egui::{self, Align2, Color32, vec2};

/// A strip's buttons, square.
const BUTTON: f32 = 38.0;
const GAP: f32 = 3.0;

/// Whether the panels are the thin strips: a long board on a phone-sized screen, or any board on
/// a phone held upright (the board then takes the screen's width whole).
pub(super) fn wanted(board: &ScoreBoard, screen: egui::Rect) -> bool {
    let phone = screen.width().min(screen.height()) < PHONE_SIDE;
    phone && (board.long_board || screen.height() > screen.width())
}

/// The room kept under a square board on a phone upright for the message of the moment or a
/// question: two lines. It does not change with what it shows, so the board never moves under a
/// finger.
const MESSAGE_ROOM: f32 = SAY_SIDE + 2.0 * GAP;

/// What the strips show: the panels' view, the pictures and words, and the seats, the near one
/// (the person's, or the first player's) apart.
pub(super) struct Strips<'a> {
    pub board: &'a ScoreBoard,
    pub art: &'a EguiArt,
    pub words: &'a Words,
    pub near: &'a SeatBoard,
    pub far: &'a [&'a SeatBoard],
}

/// The strips around the board, upright or on its side; returns where the board goes.
pub(super) fn slim_panels(
    ctx: &egui::Context,
    strips: &Strips,
    actions: &mut Vec<PanelAction>,
    details: &mut bool,
) -> egui::Rect {
    let Strips { board, art, words, near, far } = *strips;
    let screen = ctx.content_rect();
    let (menu, moving): (Vec<PanelButton>, Vec<PanelButton>) =
        game_buttons(board).into_iter().partition(|b| {
            matches!(
                b.3,
                PanelAction::Menu
                    | PanelAction::Help
                    | PanelAction::Settings
                    | PanelAction::Game(GameCommand::Restart | GameCommand::NewGame)
            )
        });
    let upright = screen.height() >= screen.width();
    if upright && !board.long_board {
        return square_board_upright(ctx, strips, actions, (menu, moving));
    }
    let mut tapped = false;
    let mut again = false;
    // The message of the moment (a pass, a hint) takes the far strip's place for its seconds,
    // so it never lies over the board; the near strip keeps the buttons it may ask for.
    let notice = !*details && board.notice && !board.status.is_empty();
    // The far end's words: the match, then the far seats' own.
    let far_words = board.banner.iter().cloned().chain(far.iter().map(|s| extras_in_words(s)));
    let far_words = far_words.filter(|w| !w.is_empty()).collect::<Vec<String>>().join(" · ");
    let board_rect = if upright {
        let top = if notice {
            let height = kept_far_strip(ctx).map_or(BUTTON, |kept| kept.height());
            notice_row(ctx, (board, words), height, &mut again)
        } else {
            row(
                ctx,
                ("slim_far", Align2::LEFT_TOP),
                &far_words,
                |ui| {
                    for seat in far.iter().rev() {
                        tapped |= tiny_seat_card(ui, seat, art, board.show_score, true).clicked();
                    }
                },
                |ui| {
                    for button in menu {
                        actions.extend(draw_button(ui, button, words, true, BUTTON));
                    }
                },
            )
        };
        let top = far_strip_at(ctx, top, notice);
        let bottom = row(
            ctx,
            ("slim_near", Align2::LEFT_BOTTOM),
            &extras_in_words(near),
            |ui| {
                tapped |= tiny_seat_card(ui, near, art, board.show_score, true).clicked();
            },
            |ui| {
                choice_buttons(ui, (board, art), actions, BUTTON, true);
                for button in moving {
                    actions.extend(draw_button(ui, button, words, true, BUTTON));
                }
            },
        );
        egui::Rect::from_min_max(
            egui::pos2(screen.left() + 4.0, top.bottom() + 2.0),
            egui::pos2(screen.right() - 4.0, bottom.top() - 2.0),
        )
    } else {
        let width = kept_far_strip(ctx).map_or(BUTTON, |kept| kept.width());
        let left = column(ctx, "slim_far", Align2::LEFT_TOP, |ui| {
            if notice {
                again = column_notice(ui, (board, words), width);
                return;
            }
            for seat in far.iter().rev() {
                tapped |= tiny_seat_card(ui, seat, art, board.show_score, false).clicked();
            }
            for button in menu {
                actions.extend(draw_button(ui, button, words, true, BUTTON));
            }
            column_words(ui, &far_words);
        });
        let left = far_strip_at(ctx, left, notice);
        let right = column(ctx, "slim_near", Align2::RIGHT_TOP, |ui| {
            for button in moving {
                actions.extend(draw_button(ui, button, words, true, BUTTON));
            }
            choice_buttons(ui, (board, art), actions, BUTTON, true);
            tapped |= tiny_seat_card(ui, near, art, board.show_score, false).clicked();
            column_words(ui, &extras_in_words(near));
        });
        egui::Rect::from_min_max(
            egui::pos2(left.right() + 2.0, screen.top() + 2.0),
            egui::pos2(right.left() - 2.0, screen.bottom() - 2.0),
        )
    };
    if tapped {
        *details = !*details;
    }
    if *details {
        details_dialog(ctx, strips, details, actions);
    }
    if again {
        actions.push(PanelAction::SayAgain(Part::Status));
    }
    board_rect
}

/// The far strip's place as it was last drawn on a screen of this size (kept in egui's memory).
fn kept_far_strip(ctx: &egui::Context) -> Option<egui::Rect> {
    let id = far_strip_id(ctx);
    ctx.data(|d| d.get_temp::<egui::Rect>(id))
}

/// Where the far strip is, `drawn` now: kept when it is the strip itself; while a notice stands
/// in it, the strip's kept place and the notice's together, so the board keeps its size and place
/// under the child's finger.
fn far_strip_at(ctx: &egui::Context, drawn: egui::Rect, notice: bool) -> egui::Rect {
    if !notice {
        let id = far_strip_id(ctx);
        ctx.data_mut(|d| d.insert_temp(id, drawn));
        return drawn;
    }
    kept_far_strip(ctx).map_or(drawn, |kept| kept.union(drawn))
}

/// Its key in egui's memory: asked for before the memory is opened (egui's context is locked
/// while it is).
fn far_strip_id(ctx: &egui::Context) -> egui::Id {
    let screen = ctx.content_rect().size();
    egui::Id::new(("slim_far_kept", screen.x as i32, screen.y as i32))
}

/// A square board on a phone held upright: the seats' panels above it, the board the screen's
/// width across, under it the message of the moment (or a question with its answers), then two
/// rows of buttons: the moves' own, then the view's and the menu's. Returns where the board goes.
fn square_board_upright(
    ctx: &egui::Context,
    strips: &Strips,
    actions: &mut Vec<PanelAction>,
    (menu, moving): (Vec<PanelButton>, Vec<PanelButton>),
) -> egui::Rect {
    let Strips { board, art, words, near, far } = *strips;
    let screen = ctx.content_rect();
    let seats: Vec<&SeatBoard> = far.iter().rev().copied().chain([near]).collect();
    let top = egui::Area::new("upright_seats".into())
        .anchor(Align2::CENTER_TOP, vec2(0.0, GAP))
        .show(ctx, |ui| {
            ui.spacing_mut().item_spacing = vec2(GAP, GAP);
            // Two panels a row from three seats on, so the board keeps its width.
            let per_row = if seats.len() > 2 { 2 } else { 1 };
            let width = (screen.width() - 8.0) / per_row as f32 - 2.0 * GAP - 16.0;
            egui::Grid::new("upright_seat_grid").spacing(vec2(GAP, GAP)).show(ui, |ui| {
                for (i, seat) in seats.iter().enumerate() {
                    seat_card(ui, seat, art, width, board.show_score, true);
                    if (i + 1) % per_row == 0 {
                        ui.end_row();
                    }
                }
            });
        })
        .response
        .rect;
    let buttons = egui::Area::new("upright_buttons".into())
        .anchor(Align2::CENTER_BOTTOM, vec2(0.0, -GAP))
        .show(ctx, |ui| {
            ui.spacing_mut().item_spacing = vec2(GAP, GAP);
            ui.spacing_mut().button_padding = vec2(4.0, 4.0);
            let width = screen.width() - 8.0;
            ui.set_width(width);
            let choices = if board.question.is_some() { 0 } else { board.choices.len() };
            let (side, pad) = row_of(width, moving.len() + choices);
            ui.horizontal(|ui| {
                ui.add_space(pad);
                choice_buttons(ui, (board, art), actions, side, true);
                for button in moving {
                    actions.extend(draw_button(ui, button, words, true, side));
                }
            });
            let others: Vec<PanelButton> = view_buttons().into_iter().chain(menu).collect();
            let (side, pad) = row_of(width, others.len());
            ui.horizontal(|ui| {
                ui.add_space(pad);
                for button in others {
                    actions.extend(draw_button(ui, button, words, true, side));
                }
            });
        })
        .response
        .rect;
    let message = egui::Area::new("upright_message".into())
        .pivot(Align2::CENTER_BOTTOM)
        .fixed_pos(egui::pos2(screen.center().x, buttons.top() - GAP))
        .show(ctx, |ui| {
            ui.set_width(screen.width() - 8.0);
            ui.spacing_mut().item_spacing = vec2(GAP, GAP);
            // On a card: a zoomed board may reach under it.
            let fill = Color32::from_rgba_unmultiplied(250, 244, 232, 235);
            card(fill).inner_margin(egui::Margin::symmetric(6, 2)).show(ui, |ui| {
                // The speaker button before the message or the question says it again.
                let (part, spoken) = match &board.question {
                    Some(_) => (Part::Question, !board.said.question.is_empty()),
                    None => (Part::Status, board.said.status.is_some()),
                };
                ui.horizontal(|ui| {
                    if spoken && say_button(ui, words) {
                        actions.push(PanelAction::SayAgain(part));
                    }
                    let width = ui.available_width();
                    ui.vertical_centered(|ui| match &board.question {
                        Some(question) => question_rows(ui, board, art, question, actions),
                        None => message(ui, board, width - 8.0),
                    });
                });
            });
        })
        .response
        .rect;
    // The board ends above the message's room, or above the message where a question with its
    // answers needs more.
    let message_top =
        if message.height() > MESSAGE_ROOM + 2.0 { message.top() } else { buttons.top() - MESSAGE_ROOM };
    egui::Rect::from_min_max(
        egui::pos2(screen.left() + 4.0, top.bottom() + GAP),
        egui::pos2(screen.right() - 4.0, message_top - GAP),
    )
}

/// The side of `count` square buttons in one row `width` across (never larger than a strip's
/// button), and the room before the first that centres the row.
fn row_of(width: f32, count: usize) -> (f32, f32) {
    let gaps = GAP * count.saturating_sub(1) as f32;
    let side = ((width - gaps) / count.max(1) as f32).min(BUTTON);
    (side, ((width - gaps - side * count as f32) / 2.0).max(0.0))
}

/// Words in `rows` centred lines of `width`, or as many more as they need.
fn lines(ui: &mut egui::Ui, text: &str, (size, rows): (f32, usize), width: f32) {
    let layout = |size: f32, rows: usize| {
        let mut job =
            egui::text::LayoutJob::simple(text.to_string(), egui::FontId::proportional(size), INK, width);
        job.wrap.max_rows = rows;
        job.halign = egui::Align::Center;
        ui.painter().layout_job(job)
    };
    // Never cut: smaller words (down to 12 points) in the lines it has, else a line more, and
    // more, as long as the words need.
    let mut galley = layout(size, rows);
    let mut at = (size, rows);
    while galley.elided && at.1 < 8 {
        at = if at.0 > 12.0 { (at.0 - 1.0, at.1) } else { (at.0, at.1 + 1) };
        galley = layout(at.0, at.1);
    }
    ui.add(egui::Label::new(galley));
}

/// The message of the moment in two lines; when it needs only one, the game's banner (the last
/// move of a race, a round) or the move list's last round goes above it, small.
fn message(ui: &mut egui::Ui, board: &ScoreBoard, width: f32) {
    let font = egui::FontId::proportional(16.0);
    let one_line = ui.fonts_mut(|f| f.layout_no_wrap(board.status.clone(), font, INK)).size().x <= width;
    let above = board.banner.as_ref().or(board.move_list.last()).filter(|_| one_line);
    if let Some(above) = above {
        lines(ui, above, (13.0, 1), width);
        lines(ui, &board.status, (16.0, 1), width);
    } else {
        lines(ui, &board.status, (16.0, 2), width);
    }
}

/// A question asked of the person (a draw offered): its words in one small line, its answers
/// in a row under them.
fn question_rows(
    ui: &mut egui::Ui,
    board: &ScoreBoard,
    art: &EguiArt,
    question: &str,
    actions: &mut Vec<PanelAction>,
) {
    lines(ui, question, (13.0, 1), ui.available_width());
    ui.horizontal_wrapped(|ui| {
        ui.add(art.image(board.question_art, 28.0));
        for (index, choice) in board.choices.iter().enumerate() {
            let text = bold(choice, 15.0).color(Color32::WHITE);
            answer_button(ui, index, egui::Button::new(text).min_size(vec2(0.0, BUTTON - 8.0)), actions);
        }
    });
}

/// A strip across the screen at its top or bottom edge: the seats from its left end, the
/// buttons from its right end, and small words between them; returns its rectangle.
fn row(
    ctx: &egui::Context,
    (name, anchor): (&str, Align2),
    text: &str,
    seats: impl FnOnce(&mut egui::Ui),
    buttons: impl FnOnce(&mut egui::Ui),
) -> egui::Rect {
    let (x, y) = (4.0, if anchor == Align2::LEFT_TOP { 2.0 } else { -2.0 });
    let right = Align2([egui::Align::Max, anchor.y()]);
    let buttons = egui::Area::new(egui::Id::new((name, "buttons")))
        .anchor(right, vec2(-x, y))
        .show(ctx, |ui| {
            ui.spacing_mut().item_spacing = vec2(GAP, GAP);
            ui.spacing_mut().interact_size = vec2(BUTTON, BUTTON);
            ui.spacing_mut().button_padding = vec2(4.0, 4.0);
            ui.horizontal(buttons);
        })
        .response
        .rect;
    let seats = egui::Area::new(egui::Id::new(name))
        .anchor(anchor, vec2(x, y))
        .show(ctx, |ui| {
            ui.spacing_mut().item_spacing = vec2(GAP, GAP);
            ui.spacing_mut().interact_size = vec2(BUTTON, BUTTON);
            ui.spacing_mut().button_padding = vec2(4.0, 4.0);
            ui.horizontal(|ui| {
                seats(ui);
                let room = buttons.left() - ui.cursor().left() - 2.0 * GAP;
                if room > 40.0 {
                    small_words(ui, text, vec2(room, buttons.height()));
                }
            });
        })
        .response
        .rect;
    seats.union(buttons)
}

/// A column down the screen's left or right edge; returns its rectangle.
fn column(ctx: &egui::Context, name: &str, anchor: Align2, add: impl FnOnce(&mut egui::Ui)) -> egui::Rect {
    let x = if anchor == Align2::LEFT_TOP { 2.0 } else { -2.0 };
    egui::Area::new(egui::Id::new(name))
        .anchor(anchor, vec2(x, 2.0))
        .show(ctx, |ui| {
            ui.spacing_mut().item_spacing = vec2(GAP, GAP);
            ui.spacing_mut().interact_size = vec2(BUTTON, BUTTON);
            ui.spacing_mut().button_padding = vec2(4.0, 4.0);
            ui.vertical_centered(|ui| {
                ui.set_width(BUTTON);
                add(ui);
            });
        })
        .response
        .rect
}

/// Small words in the lines that fit in `size` (the strip's height: the words never make it
/// taller): all their parts (" · " between them) in smaller words (down to 9 points) rather than
/// fewer; only where even those do not fit, as many parts as fit whole, then "…" for the rest,
/// which the details show (a tap on the seat's card); never a word cut.
fn small_words(ui: &mut egui::Ui, text: &str, size: egui::Vec2) {
    let parts: Vec<&str> = text.split(" · ").filter(|part| !part.is_empty()).collect();
    for keep in (1..=parts.len()).rev() {
        let mut shown = parts[..keep].join(" · ");
        if keep < parts.len() {
            shown.push_str(" · …");
        }
        for points in SMALL_SIZES {
            let font = egui::FontId::proportional(points);
            let rows = (size.y / ui.fonts_mut(|f| f.row_height(&font))).floor().clamp(1.0, 4.0) as usize;
            let mut job = egui::text::LayoutJob::simple(shown.clone(), font, INK, size.x);
            job.wrap.max_rows = rows;
            let galley = ui.painter().layout_job(job);
            if !galley.elided {
                ui.allocate_ui(size, |ui| ui.add(egui::Label::new(galley)));
                return;
            }
        }
    }
}

/// The sizes a strip's small words may take, largest first.
const SMALL_SIZES: [f32; 5] = [11.0, 10.5, 10.0, 9.5, 9.0];

/// A seat's words down a narrow column, one part under the other (its pips, then each step of
/// a doubles chain), small: all of them in the largest words for which they fit above the
/// screen's bottom edge (down to 8 points); only where they do not, as many parts as fit, then
/// "…" (the rest is in the details, a tap on the seat's card), so no line runs off the screen.
fn column_words(ui: &mut egui::Ui, text: &str) {
    let room = ui.ctx().content_rect().bottom() - 2.0 - ui.cursor().top();
    let gap = ui.spacing().item_spacing.y;
    // Smaller words where a long one would not fit the column, and never one broken inside
    // itself: a word longer still widens its lines.
    let words = |ui: &egui::Ui, text: &str, most: f32| {
        let size = size_fitting(ui, text.split_whitespace(), egui::FontId::proportional(most), (BUTTON, 8.0));
        let wrap = BUTTON.max(widest(ui, text.split_whitespace(), &egui::FontId::proportional(size)) + 1.0);
        layout_within(ui, text, size, wrap)
    };
    let parts: Vec<&str> = text.split(" · ").filter(|part| !part.is_empty()).collect();
    let tall = |galleys: &[std::sync::Arc<egui::Galley>]| {
        galleys.iter().map(|g| g.size().y + gap).sum::<f32>() - gap
    };
    for most in [11.0, 10.0, 9.0, 8.0] {
        let galleys: Vec<_> = parts.iter().map(|part| words(ui, part, most)).collect();
        if tall(&galleys) <= room {
            for galley in galleys {
                ui.add(egui::Label::new(galley));
            }
            return;
        }
    }
    let more = words(ui, "…", 8.0);
    let bottom = ui.ctx().content_rect().bottom() - 2.0;
    for (i, part) in parts.iter().enumerate() {
        let galley = words(ui, part, 8.0);
        let after = if i + 1 < parts.len() { gap + more.size().y } else { 0.0 };
        if ui.cursor().top() + galley.size().y + after > bottom {
            ui.add(egui::Label::new(more));
            return;
        }
        ui.add(egui::Label::new(galley));
    }
}

/// The message of the moment (a pass, a refused tap, a hint) across the top of an upright
/// phone in the far strip's stead, `height` tall as the strip was, with its speaker button: its
/// words as large as fit (down to 9 points), else on a line more. Sets `again` when the speaker
/// is tapped.
fn notice_row(
    ctx: &egui::Context,
    (board, words): (&ScoreBoard, &Words),
    height: f32,
    again: &mut bool,
) -> egui::Rect {
    let screen = ctx.content_rect();
    egui::Area::new("slim_notice".into())
        .anchor(Align2::LEFT_TOP, vec2(4.0, 2.0))
        .show(ctx, |ui| {
            notice_card().show(ui, |ui| {
                ui.set_width(screen.width() - 8.0 - 2.0 * NOTICE_MARGIN);
                // Within the strip's height: its margins and its edge's width on each side.
                let inside = height - 2.0 * NOTICE_MARGIN - 3.0;
                ui.spacing_mut().item_spacing = vec2(GAP, GAP);
                ui.spacing_mut().interact_size = vec2(inside, inside);
                ui.horizontal(|ui| {
                    if board.said.status.is_some() {
                        *again = say_button_of(ui, words, inside);
                    }
                    let room = vec2(ui.available_width(), inside);
                    let sizes = (0..=12).map(|step| 15.0 - 0.5 * step as f32);
                    let galley = sizes
                        .map(|size| layout_within(ui, &board.status, size, room.x))
                        .find(|galley| galley.size().y <= room.y)
                        .unwrap_or_else(|| layout_within(ui, &board.status, 9.0, room.x));
                    ui.add(egui::Label::new(galley));
                });
            });
        })
        .response
        .rect
}

/// The message of the moment down the far column of a phone on its side, in its stead, `width`
/// across as the column was: its speaker button, then its words a few to a line, as large as fit
/// the column and the screen's height; where a word is too wide for the column even at 8 points,
/// the column widens as little as it can (a word is never broken).
fn column_notice(ui: &mut egui::Ui, (board, words): (&ScoreBoard, &Words), width: f32) -> bool {
    let again = board.said.status.is_some() && say_button_of(ui, words, BUTTON);
    let room = ui.ctx().content_rect().bottom() - 2.0 - ui.cursor().top();
    let column = width - 2.0 * NOTICE_MARGIN - 3.0;
    let text = &board.status;
    let widest_at = |size: f32| widest(ui, text.split_whitespace(), &egui::FontId::proportional(size)) + 1.0;
    let sizes = || (0..=8).map(|step| 12.0 - 0.5 * step as f32);
    let within_column = sizes()
        .filter(|size| widest_at(*size) <= column)
        .map(|size| layout_within(ui, text, size, column))
        .find(|galley| galley.size().y <= room);
    let galley = within_column.or_else(|| {
        sizes()
            .rev()
            .map(|size| layout_within(ui, text, size, widest_at(size)))
            .find(|galley| galley.size().y <= room)
    });
    let galley = galley.unwrap_or_else(|| layout_within(ui, text, 8.0, 4.0 * column));
    notice_card().show(ui, |ui| ui.add(egui::Label::new(galley)));
    again
}

/// Words `size` points large wrapped within `width`.
fn layout_within(ui: &egui::Ui, text: &str, size: f32, width: f32) -> std::sync::Arc<egui::Galley> {
    let job = egui::text::LayoutJob::simple(text.to_string(), egui::FontId::proportional(size), INK, width);
    ui.painter().layout_job(job)
}

const NOTICE_MARGIN: f32 = 3.0;

/// The warm card a message of the moment is on.
fn notice_card() -> egui::Frame {
    card(Color32::from_rgba_unmultiplied(255, 240, 200, 235))
        .inner_margin(egui::Margin::same(NOTICE_MARGIN as i8))
        .corner_radius(8)
}

/// Every seat's whole panel, the match and whose turn it is, until closed.
fn details_dialog(ctx: &egui::Context, strips: &Strips, open: &mut bool, actions: &mut Vec<PanelAction>) {
    let Strips { board, art, words, near, far } = *strips;
    let width = (ctx.content_rect().width() - 60.0).min(320.0);
    dialog(ctx, "slim_details").show(ctx, |ui| {
        ui.set_width(width);
        for seat in far.iter().rev() {
            seat_card(ui, seat, art, width - 16.0, board.show_score, true);
        }
        seat_card(ui, near, art, width - 16.0, board.show_score, true);
        status_lines(ui, (board, words), true, actions);
        ui.vertical_centered(|ui| {
            if ui.button(bold(words.get("close"), 18.0)).clicked() {
                *open = false;
            }
        });
    });
}
