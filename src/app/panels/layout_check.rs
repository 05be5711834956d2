//! The layout check: what a child could not read or reach on the screen being shown. Read from
//! the frame egui has just laid out, it finds every text cut (ended by an ellipsis, or running
//! past its panel or the screen's side), every word broken inside itself across two lines, and
//! every window or panel lying over a button below it, or over the board while the game is on.
//! The tour turns each finding into a failure; the browser build tells them to the page's console
//! (`tabla layout`), which the browser test reads at a phone's density.
//!
//! What may lie over the board and the buttons: a window that holds the screen while the game
//! waits for it (its result, a round's end, a question, the help, the settings: what it veils
//! takes no tap until it is answered, `panel_parts::hold_under`), and a big message no finger can
//! tap, for its few seconds (a new round). Nothing else: not the tutor's question beside the
//! board, not a panel, a notice or a strip.

use crate::app::board::covered::BoardCovered;
use crate::app::board::view::{BoardArea, BoardLayout};
use crate::app::panels::scoreboard::ScoreBoard;
use crate::app::session::screen::Screen;
use bevy::prelude::*;
use bevy_egui::egui::{self, Order, Shape, epaint::TextShape};
use bevy_egui::{EguiContext, EguiFullOutput, EguiPostUpdateSet, PrimaryEguiContext};

/// Present while the check runs (the tour, the browser's probes): each frame's findings.
#[derive(Resource, Default, Debug)]
pub struct LayoutCheck {
    /// The size of the screen checked last (egui's points).
    pub screen: Vec2,
    pub findings: Vec<Finding>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Finding {
    /// A text ended by an ellipsis.
    Cut(String),
    /// A text running past the side of what holds it, or off the screen.
    Clipped(String),
    /// A word broken inside itself: the end of one line and the start of the next.
    BrokenWord(String, String),
    /// A window or panel (its place) over a button (its words).
    CoversButton(egui::Rect, String),
    /// A window or panel (its place) over the board while the game is on.
    CoversBoard(egui::Rect),
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::Cut(text) => write!(f, "cut: '{text}'"),
            Finding::Clipped(text) => write!(f, "past its edge: '{text}'"),
            Finding::BrokenWord(end, start) => write!(f, "a word broken: '{end}|{start}'"),
            Finding::CoversButton(over, button) => write!(f, "{} over the button '{button}'", place(over)),
            Finding::CoversBoard(over) => write!(f, "{} over the board", place(over)),
        }
    }
}

fn place(rect: &egui::Rect) -> String {
    format!("a window at {:.0},{:.0} ({:.0}×{:.0})", rect.min.x, rect.min.y, rect.width(), rect.height())
}

pub fn plugin(app: &mut App) {
    app.add_systems(
        PostUpdate,
        check
            .after(EguiPostUpdateSet::EndPass)
            .before(EguiPostUpdateSet::ProcessOutput)
            .run_if(resource_exists::<LayoutCheck>),
    );
    // The browser build always checks, and tells the page's console (the browser test reads it).
    #[cfg(target_arch = "wasm32")]
    app.init_resource::<LayoutCheck>().add_systems(PostUpdate, tell_the_page.after(check));
}

/// `tabla layout N: …` each time what the check finds changes (N things, each said).
#[cfg(target_arch = "wasm32")]
fn tell_the_page(layout: Res<LayoutCheck>, mut told: Local<Option<Vec<Finding>>>) {
    if told.as_ref() == Some(&layout.findings) {
        return;
    }
    let said: Vec<String> = layout.findings.iter().map(Finding::to_string).collect();
    tracing::info!("tabla layout {}: {}", said.len(), said.join("; "));
    *told = Some(layout.findings.clone());
}

/// Where a list scrolls sideways (its view, in egui's points): what runs past its sides there is
/// reached by scrolling. Told each pass by what draws it; forgotten at the next.
pub fn scrolls_sideways(ctx: &egui::Context, view: egui::Rect) {
    let pass = ctx.cumulative_pass_nr();
    ctx.data_mut(|data| {
        let views = data.get_temp_mut_or_default::<(u64, Vec<egui::Rect>)>(sideways_id());
        if views.0 != pass {
            *views = (pass, Vec::new());
        }
        views.1.push(view);
    });
}

fn sideways_id() -> egui::Id {
    egui::Id::new("layout_check.sideways")
}

/// Less than this much overlap (in points) is two edges touching, not one thing over another.
const TOUCHING: f32 = 2.0;

fn check(
    mut layout: ResMut<LayoutCheck>,
    mut contexts: Query<(&mut EguiContext, &EguiFullOutput), With<PrimaryEguiContext>>,
    screen: Res<State<Screen>>,
    board: Option<Res<ScoreBoard>>,
    area: Option<Res<BoardArea>>,
    board_layout: Option<Res<BoardLayout>>,
    covered: Option<Res<BoardCovered>>,
) {
    let Ok((mut context, output)) = contexts.single_mut() else { return };
    // A frame egui did not lay out (the window at rest) changes nothing.
    let Some(output) = &output.0 else { return };
    let ctx = context.get_mut();
    let screen_rect = ctx.content_rect();
    let mut findings = Vec::new();
    let mut texts = Vec::new();
    let pass = ctx.cumulative_pass_nr();
    let sideways = ctx.data(|data| data.get_temp::<(u64, Vec<egui::Rect>)>(sideways_id()));
    let sideways: Vec<egui::Rect> =
        sideways.filter(|(told, _)| *told + 1 >= pass).map(|(_, views)| views).unwrap_or_default();
    for clipped in &output.shapes {
        each_text(&clipped.shape, &mut |text| {
            texts.push(text.clone());
            let scrolled = sideways.iter().any(|view| scrolled_in(*view, clipped.clip_rect, text));
            check_text(text, clipped.clip_rect, screen_rect, scrolled, &mut findings);
        });
    }
    // A window that holds the screen (a result, a round's end, a question) stops the game.
    let held = ctx.memory(|memory| memory.top_modal_layer().is_some());
    let game_on = *screen.get() == Screen::Playing
        && !held
        && !covered.is_some_and(|covered| covered.0)
        && board.as_ref().is_some_and(|board| board.result.is_none());
    let board_rect = area.filter(|_| game_on).map(|area| to_egui(area.whole_board(board_layout.as_deref())));
    covering(ctx, board_rect, &texts, &mut findings);
    findings.dedup();
    layout.screen = Vec2::new(screen_rect.width(), screen_rect.height());
    layout.findings = findings;
}

/// A text in a list that scrolls sideways in `view`: clipped at the view's sides (and a margin,
/// `Visuals::clip_rect_margin`), and in its height.
fn scrolled_in(view: egui::Rect, clip: egui::Rect, text: &TextShape) -> bool {
    const MARGIN: f32 = 8.0;
    let middle = text.visual_bounding_rect().center().y;
    clip.left() >= view.left() - MARGIN
        && clip.right() <= view.right() + MARGIN
        && (view.top() - MARGIN..=view.bottom() + MARGIN).contains(&middle)
}

fn to_egui(rect: Rect) -> egui::Rect {
    egui::Rect::from_min_max(egui::pos2(rect.min.x, rect.min.y), egui::pos2(rect.max.x, rect.max.y))
}

fn each_text(shape: &Shape, found: &mut impl FnMut(&TextShape)) {
    match shape {
        Shape::Text(text) => found(text),
        Shape::Vec(shapes) => shapes.iter().for_each(|shape| each_text(shape, found)),
        _ => {}
    }
}

fn check_text(
    text: &TextShape,
    clip: egui::Rect,
    screen: egui::Rect,
    scrolled: bool,
    findings: &mut Vec<Finding>,
) {
    let galley = &text.galley;
    let words = galley.text().trim();
    if words.is_empty() {
        return;
    }
    if galley.elided {
        findings.push(Finding::Cut(words.to_string()));
    }
    let drawn = text.visual_bounding_rect();
    // A list that scrolls cuts its rows at its edges, as it should (up and down everywhere,
    // sideways where told: `scrolls_sideways`); a text past the side of what holds it, or shown
    // off the screen, is lost.
    let past_side =
        !scrolled && (drawn.left() < clip.left() - TOUCHING || drawn.right() > clip.right() + TOUCHING);
    let shown = drawn.intersect(clip);
    let off_screen = shown.is_positive() && !screen.expand(TOUCHING).contains_rect(shown);
    if (past_side || off_screen) && clip.intersects(drawn) {
        findings.push(Finding::Clipped(words.to_string()));
    }
    for pair in galley.rows.windows(2) {
        if pair[0].ends_with_newline {
            continue;
        }
        let end: String = pair[0].glyphs.iter().map(|g| g.chr).collect();
        let start: String = pair[1].glyphs.iter().map(|g| g.chr).collect();
        let inside_a_word = end.chars().last().is_some_and(char::is_alphanumeric)
            && start.chars().next().is_some_and(char::is_alphanumeric);
        if inside_a_word {
            let end = end.split_whitespace().last().unwrap_or_default().to_string();
            let start = start.split_whitespace().next().unwrap_or_default().to_string();
            findings.push(Finding::BrokenWord(end, start));
        }
    }
}

/// Each window or panel shown over the screen's panels (an egui area above the background)
/// against every button on a layer below it, and the board's place.
fn covering(
    ctx: &egui::Context,
    board: Option<egui::Rect>,
    texts: &[TextShape],
    findings: &mut Vec<Finding>,
) {
    let areas: Vec<(egui::LayerId, egui::Rect)> = ctx.memory(|memory| {
        memory
            .layer_ids()
            .filter(|layer| !matches!(layer.order, Order::Background | Order::Debug))
            .filter(|layer| memory.areas().visible_last_frame(layer))
            .filter_map(|layer| Some((layer, memory.area_rect(layer.id)?)))
            .collect()
    });
    let order = |layer: egui::LayerId| (layer.order, areas.iter().position(|(l, _)| *l == layer));
    // (The viewport is read under egui's lock, which the layers' places need too: one, then
    // the other.)
    let widgets: Vec<(egui::LayerId, egui::Rect)> = ctx.viewport(|viewport| {
        viewport
            .prev_pass
            .widgets
            .layers()
            .flat_map(|(_, widgets)| widgets.iter())
            .filter(|w| w.enabled && w.sense.senses_click())
            .map(|w| (w.layer_id, w.interact_rect))
            .collect()
    });
    let buttons: Vec<(egui::LayerId, egui::Rect)> = widgets
        .into_iter()
        .map(|(layer, rect)| (layer, ctx.layer_transform_to_global(layer).unwrap_or_default() * rect))
        .collect();
    // A window that holds the screen (`panel_parts::hold_under`) veils what is under it, and
    // nothing there takes a tap: what it covers is not lost.
    let held = |layer: egui::LayerId| !ctx.memory(|memory| memory.is_above_modal_layer(layer));
    for &(layer, over) in &areas {
        // A big message no finger can tap, for its few seconds: the taps go through it.
        if !egui::AreaState::load(ctx, layer.id).is_some_and(|area| area.interactable) {
            continue;
        }
        for &(below, button) in &buttons {
            if order(below) < order(layer) && !held(below) && overlap(over, button) {
                findings.push(Finding::CoversButton(over, words_in(button, texts)));
            }
        }
        if board.is_some_and(|board| overlap(over, board)) {
            findings.push(Finding::CoversBoard(over));
        }
    }
}

fn overlap(a: egui::Rect, b: egui::Rect) -> bool {
    let both = a.intersect(b);
    both.width() > TOUCHING && both.height() > TOUCHING
}

/// The words drawn on a button.
fn words_in(button: egui::Rect, texts: &[TextShape]) -> String {
    let words: Vec<&str> = texts
        .iter()
        .filter(|text| button.expand(TOUCHING).contains_rect(text.visual_bounding_rect()))
        .map(|text| text.galley.text().trim())
        .collect();
    if words.is_empty() { "(no words)".to_string() } else { words.join(" ") }
}
