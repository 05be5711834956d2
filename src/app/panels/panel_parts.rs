//! What the game screen's panels are made of, the full ones (hud) and a phone's thin strips
//! (hud_slim) alike: the buttons and what they ask for, the status lines, the choice buttons and
//! the centred dialog window.

use super::scoreboard::ScoreBoard;
use super::theme::{ACCENT, CALM, EguiArt, bold, card};
use crate::app::board::view::ViewCommand;
use crate::app::course::replay::ReplayCommand;
use crate::app::course::turn::GameCommand;
use crate::app::platform::settings::Words;
use bevy_egui::egui::{self, Color32, RichText, vec2};

/// A screen side shorter than this is a phone's: the panels get small.
pub(super) const PHONE_SIDE: f32 = 520.0;

/// A button's height in the panels.
pub(super) const BUTTON: f32 = 48.0;

/// Small buttons beside the board that change only the view.
pub(super) const VIEW_BUTTON: f32 = 44.0;

/// What a button of the game screen asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum PanelAction {
    Menu,
    Game(GameCommand),
    Help,
    Settings,
    /// A change of the view only (zoom, a quarter turn, the whole board).
    View(ViewCommand),
    /// A button of the replay.
    Replay(ReplayCommand),
    /// The speaker button beside a message: says it again.
    SayAgain(Part),
}

/// A part of the game screen that is said aloud, for its speaker button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Part {
    Status,
    Question,
    /// The coach's words while a game is watched again.
    Coach,
}

/// The side of the speaker button: a finger's width.
pub(super) const SAY_SIDE: f32 = 48.0;

/// The speaker button beside a message, question or help step, drawn (no font has its sign):
/// `true` when tapped.
pub(super) fn say_button(ui: &mut egui::Ui, words: &Words) -> bool {
    say_button_of(ui, words, SAY_SIDE)
}

/// The speaker button `side` across (a phone's strip has a strip's buttons' side).
pub(super) fn say_button_of(ui: &mut egui::Ui, words: &Words, side: f32) -> bool {
    let (rect, response) = ui.allocate_exact_size(vec2(side, side), egui::Sense::click());
    let response = response.on_hover_text(words.get("say_again"));
    crate::app::platform::web::tag(&response, "button.say_again");
    let visuals = ui.style().interact(&response);
    let painter = ui.painter();
    painter.rect(rect.shrink(2.0), 8.0, visuals.bg_fill, visuals.bg_stroke, egui::StrokeKind::Inside);
    let c = rect.center();
    let ink = ACCENT;
    // The speaker: a small box and its cone, then two waves.
    painter.rect_filled(egui::Rect::from_center_size(c + vec2(-9.0, 0.0), vec2(6.0, 10.0)), 1.0, ink);
    painter.add(egui::Shape::convex_polygon(
        vec![c + vec2(-7.0, -5.0), c + vec2(1.0, -12.0), c + vec2(1.0, 12.0), c + vec2(-7.0, 5.0)],
        ink,
        egui::Stroke::NONE,
    ));
    for radius in [6.0_f32, 11.0] {
        let wave: Vec<egui::Pos2> = (-4..=4)
            .map(|i| {
                let angle = i as f32 * 0.15;
                c + vec2(3.0 + radius * angle.cos(), radius * angle.sin())
            })
            .collect();
        painter.add(egui::Shape::line(wave, egui::Stroke::new(2.5, ink)));
    }
    response.clicked()
}

/// A button: its sign, its words key, whether it can be pressed now, and what it does.
pub(super) type PanelButton = (&'static str, &'static str, bool, PanelAction);

pub(super) fn game_buttons(board: &ScoreBoard) -> Vec<PanelButton> {
    let roll = board.can_roll.then_some(("⚅", "roll_dice", true, PanelAction::Game(GameCommand::Roll)));
    let confirm = ("✔", "confirm", true, PanelAction::Game(GameCommand::Confirm));
    let preview = [confirm, ("✖", "cancel", true, PanelAction::Game(GameCommand::Deselect))];
    // While a move is previewed (a hint's among them) the hint has nothing more to show.
    let hint = (board.can_hint && !board.previewing).then_some((
        "★",
        "hint",
        true,
        PanelAction::Game(GameCommand::Hint),
    ));
    let new_game =
        board.passes_first.then_some(("▶", "new_game", !board.afar, PanelAction::Game(GameCommand::NewGame)));
    // A question asked (the tutor's above all) is answered in its own dialog: no Confirm or
    // Cancel beside it as two more answers.
    let asked = board.asking.is_some();
    roll.into_iter()
        .chain(preview.into_iter().filter(|_| board.previewing && !asked))
        .chain(Some(confirm).filter(|_| board.draft_done && !board.previewing && !asked))
        .chain(hint)
        .chain([("⌂", "menu", true, PanelAction::Menu)])
        .chain(new_game)
        .chain([
            ("↻", "restart", !board.afar, PanelAction::Game(GameCommand::Restart)),
            ("↶", "undo", board.can_undo, PanelAction::Game(GameCommand::Undo)),
            ("↷", "redo", board.can_redo, PanelAction::Game(GameCommand::Redo)),
            ("?", "help", true, PanelAction::Help),
            ("⚙", "settings", true, PanelAction::Settings),
        ])
        .collect()
}

/// The buttons that change only the view: zoom in and out, turn the board a quarter, show the
/// whole board again.
pub(super) fn view_buttons() -> [PanelButton; 4] {
    [
        ("+", "zoom_in", true, PanelAction::View(ViewCommand::Zoom { factor: 1.5, around: None })),
        ("–", "zoom_out", true, PanelAction::View(ViewCommand::Zoom { factor: 1.0 / 1.5, around: None })),
        ("↺", "turn_board", true, PanelAction::View(ViewCommand::Turn)),
        ("▣", "whole_board", true, PanelAction::View(ViewCommand::Fit)),
    ]
}

/// On a small screen a button shows its sign only; the words come with a wider screen. `side`
/// is its height (and its width, for a sign alone).
pub(super) fn draw_button(
    ui: &mut egui::Ui,
    button: PanelButton,
    words: &Words,
    compact: bool,
    side: f32,
) -> Option<PanelAction> {
    let (sign, key, enabled, action) = button;
    let (text, size) = if compact {
        (sign.to_string(), vec2(side, side))
    } else {
        (format!("{sign} {}", words.get(key)), vec2(0.0, side))
    };
    // Confirm is the button a child looks for: big and green (in a phone's thin strip, green).
    let button = if action == PanelAction::Game(GameCommand::Confirm) {
        let big = if side < BUTTON { vec2(side, side) } else { vec2(64.0, 56.0) };
        egui::Button::new(bold(text, 22.0).color(Color32::WHITE)).fill(CALM).min_size(size.max(big))
    } else {
        egui::Button::new(text).min_size(size)
    };
    let response = ui.add_enabled(enabled, button).on_hover_text(words.get(key));
    crate::app::platform::web::tag(&response, &format!("button.{key}"));
    response.clicked().then_some(action)
}

/// The banner, the last round of the move list on a small screen, and whose turn it is.
pub(super) fn status_lines(
    ui: &mut egui::Ui,
    (board, words): (&ScoreBoard, &Words),
    compact: bool,
    actions: &mut Vec<PanelAction>,
) {
    if let Some(banner) = &board.banner {
        card(Color32::from_rgb(255, 236, 190)).show(ui, |ui| ui.label(bold(banner, 18.0)));
    }
    if compact && let Some(last) = board.move_list.last() {
        ui.label(RichText::new(last).size(15.0));
    }
    if !board.status.is_empty() {
        let text = bold(&board.status, if compact { 17.0 } else { 20.0 });
        if said_line(ui, text, board.said.status.is_some(), words) {
            actions.push(PanelAction::SayAgain(Part::Status));
        }
    }
}

/// A line of words centred with its speaker button before it (when it is said aloud), wrapped
/// where it is longer than the room; `true` when the button was tapped.
pub(super) fn said_line(ui: &mut egui::Ui, text: RichText, spoken: bool, words: &Words) -> bool {
    if !spoken {
        ui.label(text);
        return false;
    }
    let gap = ui.spacing().item_spacing.x;
    let room = (ui.available_width() - SAY_SIDE - gap).max(40.0);
    let galley = egui::WidgetText::from(text).into_galley(
        ui,
        Some(egui::TextWrapMode::Wrap),
        room,
        egui::TextStyle::Body,
    );
    let width = SAY_SIDE + gap + galley.size().x;
    let mut tapped = false;
    ui.horizontal(|ui| {
        ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
        tapped = say_button(ui, words);
        ui.label(galley);
    });
    tapped
}

/// The game's button actions (offering a draw), unless a question asks for them in a dialog; in
/// the row of buttons. `compact`: a choice with a picture shows the picture alone (its words on
/// hover), square.
pub(super) fn choice_buttons(
    ui: &mut egui::Ui,
    (board, art): (&ScoreBoard, &EguiArt),
    commands: &mut Vec<PanelAction>,
    height: f32,
    compact: bool,
) {
    if board.question.is_some() {
        return;
    }
    for (index, words) in board.choices.iter().enumerate() {
        let button = match board.choice_art.get(index).copied().flatten() {
            Some(picture) if compact => {
                egui::Button::image(art.image(picture, height - 10.0)).min_size(vec2(height, height))
            }
            _ => egui::Button::new(words.as_str()).min_size(vec2(0.0, height)),
        };
        let response = ui.add(button).on_hover_text(words.as_str());
        crate::app::platform::web::tag(&response, &format!("choice.{index}"));
        if response.clicked() {
            commands.push(PanelAction::Game(GameCommand::Choose(index)));
        }
    }
}

/// One answer to the question asked of the person: the first green, the others orange.
pub(super) fn answer_button(
    ui: &mut egui::Ui,
    index: usize,
    button: egui::Button,
    actions: &mut Vec<PanelAction>,
) {
    let response = ui.add(button.fill(if index == 0 { CALM } else { ACCENT }));
    crate::app::platform::web::tag(&response, &format!("choice.{index}"));
    if response.clicked() {
        actions.push(PanelAction::Game(GameCommand::Choose(index)));
    }
}

/// Every window of the game: in the middle of the screen, of the size of what it holds, and drawn
/// above the game's panels whatever was tapped last. (A tap on a panel's button brings that panel
/// to the front of its layer, so a window it opens in the same layer, the help from ? or the
/// settings from ⚙, would sit under the panel's buttons on a phone.) `id` names it whatever the
/// language of its title.
pub(super) fn window<'open>(id: &str, title: impl Into<egui::WidgetText>) -> egui::Window<'open> {
    egui::Window::new(title)
        .id(egui::Id::new(id))
        .order(egui::Order::Foreground)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, vec2(0.0, 0.0))
}

/// A window with no title bar, for what must be answered or seen before the game goes on: it
/// holds the screen under it (`hold_under`).
pub(super) fn dialog(ctx: &egui::Context, name: &str) -> egui::Window<'static> {
    hold_under(ctx, name);
    window(name, name.to_string()).title_bar(false)
}

/// The veil over the screen under a window that holds it.
const VEIL: Color32 = Color32::from_rgba_premultiplied(40, 30, 20, 90);

/// Everything under the window `id` (the panels, their buttons, the board) is veiled and takes
/// no tap while it shows (egui's modal layer), so no half-hidden button beneath it seems to work.
/// The veil is painted in the panels' layer order, after them, so every window draws above it.
pub(super) fn hold_under(ctx: &egui::Context, id: &str) {
    let window = egui::LayerId::new(egui::Order::Foreground, egui::Id::new(id));
    ctx.memory_mut(|memory| memory.set_modal_layer(window));
    let veil = egui::LayerId::new(egui::Order::Middle, egui::Id::new("veil"));
    ctx.layer_painter(veil).rect_filled(ctx.content_rect(), 0.0, VEIL);
}

/// A row of buttons centred in the width there is: its width of the frame before (kept in egui's
/// memory) says how far in it starts. A row that must wrap onto more lines starts at the left.
pub(super) fn centred_row(ui: &mut egui::Ui, name: &str, add: impl FnOnce(&mut egui::Ui)) {
    let id = ui.id().with(name);
    let before: f32 = ui.data(|d| d.get_temp(id)).unwrap_or(0.0);
    let available = ui.available_width();
    ui.horizontal_wrapped(|ui| {
        ui.add_space(((available - before) / 2.0).max(0.0));
        let (start, top) = (ui.cursor().left(), ui.cursor().top());
        add(ui);
        let wrapped = ui.cursor().top() > top + 1.0;
        let width = if wrapped { available } else { ui.min_rect().right() - start };
        if width != before {
            ui.data_mut(|d| d.insert_temp(id, width));
            ui.ctx().request_repaint();
        }
    });
}
