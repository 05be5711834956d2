//! The map: the playing child's path, one trail per game, each stage a picture with its stars
//! under it. Stages already played and the next one to play are open (the next one breathes
//! gently); the rest are grey behind a lock. A tap on an open stage plays it at once. A stage just
//! won sends its new stars flying to their places, and the stage it opened pops open. Free play
//! (the menu) and the game in progress are one tap away; a diploma earned is shown again from here.

use super::setup::SetupFor;
use crate::app::child::children::name_of;
use crate::app::child::children::{ChildCommand, Children, ThePath};
use crate::app::child::keeping::{self, SavedGame};
use crate::app::child::stages::{DiplomaFor, StageNews};
use crate::app::course::catalog::PlayableGames;
use crate::app::panels::theme::{
    ACCENT, CALM, CARD, EguiArt, GOLD, INK, UiReady, bold, bold_size_fitting, card, draw_star, draw_stars,
    full_screen, not_saved_note, problem_note,
};
use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::app::platform::store::Store;
use crate::app::platform::web;
use crate::app::session::play::Opened;
use crate::app::session::screen::Screen;
use crate::progress::{Child, Stars, Trail};
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, Pos2, Rect, RichText, Stroke, pos2, vec2};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use std::collections::HashMap;

const LOCKED: Color32 = Color32::from_rgb(200, 196, 190);
/// The width of a trail's name and stars, before its stages.
const HEADER: f32 = 230.0;
/// Seconds the new stars fly, then the opened stage pops.
const FLIGHT: f64 = 1.2;
const POP: f64 = 0.8;
/// Seconds the next stage breathes when the map shows and after a touch: two breaths, and then
/// it keeps still (a still map asks for no frames).
const BREATHING: f64 = 4.0 * std::f64::consts::PI / 3.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        map_screen.run_if(resource_exists::<UiReady>).run_if(in_state(Screen::Map)),
    );
}

/// How a stage stands for the child.
#[derive(Clone, Copy, PartialEq)]
enum Standing {
    Played,
    Next,
    Open,
    Locked,
}

#[allow(clippy::too_many_arguments)]
fn map_screen(
    mut contexts: EguiContexts,
    art: Res<EguiArt>,
    words: Res<Words>,
    children: Res<Children>,
    store: Res<Store>,
    path: Res<ThePath>,
    playable: Res<PlayableGames>,
    mut saved: ResMut<SavedGame>,
    mut news: Option<ResMut<StageNews>>,
    // The news flying in (its stage and stars) and since when.
    mut flight_began: Local<Option<(String, u8, f64)>>,
    // When the next stage began to breathe, and when the map was last drawn.
    mut breathing: Local<(f64, f64)>,
    mut orders: MessageWriter<ChildCommand>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some((slot, child)) = children.playing(&store) else {
        next.set(Screen::Children);
        return Ok(());
    };
    let now = ctx.input(|i| i.time);
    let (breath_began, last_drawn) = &mut *breathing;
    if now - *last_drawn > 1.0 || ctx.input(|i| i.pointer.any_pressed()) {
        *breath_began = now;
    }
    *last_drawn = now;
    let breath = Some(now - *breath_began).filter(|&t| t < BREATHING);
    // The stars of the stage this child just won fly in once, when the map opens after it.
    let flying = news.as_deref().filter(|n| !n.shown && n.slot == slot).cloned();
    let flight = flying.as_ref().map(|news| {
        let began = match flight_began.as_ref() {
            Some((stage, stars, began)) if *stage == news.stage && *stars == news.new.0 => *began,
            _ => now,
        };
        *flight_began = Some((news.stage.clone(), news.new.0, began));
        now - began
    });
    let screen = ctx.content_rect();
    let bubble = (screen.width() / 9.0).clamp(52.0, 84.0);
    let mut places: HashMap<String, Rect> = HashMap::new();
    full_screen(ctx, "map", |ui| {
        not_saved_note(ui, &words, &store);
        top_bar(ui, &art, &words, child, &mut saved, &playable, &mut commands, &mut next);
        ui.add_space(8.0);
        for trail in &path.trails {
            if playable.get(trail.game).is_none() {
                continue;
            }
            let going = saved.of(trail.game).map(|(record, _)| record.clone());
            let tapped = trail_card(
                ui,
                &art,
                &words,
                &playable,
                child,
                (trail, going.is_some()),
                bubble,
                breath,
                flying.as_ref(),
                flight,
                &mut places,
            );
            match tapped {
                Some(Tap::Continue) => {
                    if let Some(record) = &going
                        && let Err(problem) = go_on(&mut commands, &mut next, record)
                    {
                        saved.problem = Some(problem);
                    }
                }
                Some(Tap::Stage(id)) => {
                    orders.write(ChildCommand::PlayStage(id));
                }
                Some(Tap::Diploma) => {
                    commands.insert_resource(DiplomaFor { slot, game: trail.game });
                    next.set(Screen::Diploma);
                }
                None => {}
            }
            ui.add_space(6.0);
        }
    });
    if let (Some(landing), Some(t)) = (&flying, flight) {
        draw_flight(ctx, landing, t, screen, &places);
        if t > FLIGHT + POP {
            if let Some(news) = news_mut(&mut news) {
                news.shown = true;
            }
        } else {
            ctx.request_repaint();
        }
    }
    Ok(())
}

fn news_mut<'a>(news: &'a mut Option<ResMut<StageNews>>) -> Option<&'a mut StageNews> {
    news.as_mut().map(|n| &mut **n)
}

enum Tap {
    Stage(String),
    Diploma,
    /// The trail's game in progress.
    Continue,
}

/// The child's picture and name, the game in progress, free play, and another child.
#[allow(clippy::too_many_arguments)]
fn top_bar(
    ui: &mut egui::Ui,
    art: &EguiArt,
    words: &Words,
    child: &Child,
    saved: &mut SavedGame,
    playable: &PlayableGames,
    commands: &mut Commands,
    next: &mut NextState<Screen>,
) {
    if let Some(problem) = &saved.problem
        && problem_note(ui, words.get("saved_problem"), problem)
    {
        saved.problem = None;
    }
    let mut problem = None;
    ui.horizontal_wrapped(|ui| {
        let who = ui.add(art.image(Art::Animal(child.animal), 64.0).sense(egui::Sense::click()));
        let name = ui.add(egui::Label::new(bold(name_of(words, child), 28.0)).sense(egui::Sense::click()));
        web::tag(&who, "map.child");
        if who.clicked() || name.clicked() {
            next.set(Screen::Children);
        }
        ui.add_space(12.0);
        if let Some((record, _)) = saved.latest()
            && let Some(entry) = playable.get(record.game)
        {
            let button = ui.add(egui::Button::image_and_text(
                art.image(entry.picture, 40.0),
                bold(format!("▶ {}", words.get("continue_title")), 22.0),
            ));
            web::tag(&button, "map.continue");
            if button.clicked() {
                problem = go_on(commands, next, record).err();
            }
        }
        let free = ui.add(egui::Button::image_and_text(
            art.image(Art::People, 40.0),
            bold(words.get("free_play"), 22.0),
        ));
        web::tag(&free, "map.free_play");
        if free.clicked() {
            next.set(Screen::Menu);
        }
    });
    for newer in &saved.newer {
        ui.label(RichText::new(format!("{}: {newer}", words.get("made_by_newer"))).size(15.0));
    }
    if problem.is_some() {
        saved.problem = problem;
    }
}

/// Goes on with a game in progress.
fn go_on(
    commands: &mut Commands,
    next: &mut NextState<Screen>,
    record: &crate::record::Record,
) -> Result<(), String> {
    keeping::begin(commands, record.clone(), Opened::Continued).map_err(|e| e.to_string())?;
    commands.insert_resource(SetupFor(record.game));
    next.set(Screen::Playing);
    Ok(())
}

/// One game's trail: its picture and stars, then its stages joined by a path.
#[allow(clippy::too_many_arguments)]
fn trail_card(
    ui: &mut egui::Ui,
    art: &EguiArt,
    words: &Words,
    playable: &PlayableGames,
    child: &Child,
    (trail, going): (&Trail, bool),
    bubble: f32,
    breath: Option<f64>,
    flying: Option<&StageNews>,
    flight: Option<f64>,
    places: &mut HashMap<String, Rect>,
) -> Option<Tap> {
    let stars = |id: &str| child.star_count(id);
    let next_stage = trail.next(stars);
    let entry = playable.get(trail.game);
    let picture = entry.map_or(Art::Star, |entry| entry.picture);
    let stage_picture = entry.map_or(Art::Star, |entry| entry.stage_picture);
    let mut tapped = None;
    let mut pointed = None;
    let width = (ui.available_width() - 24.0).min(980.0);
    card(CARD).show(ui, |ui| {
        ui.set_width(width);
        ui.horizontal_wrapped(|ui| {
            ui.allocate_ui(vec2(HEADER, bubble + 30.0), |ui| {
                ui.set_min_width(HEADER);
                ui.horizontal(|ui| {
                    ui.add(art.image(picture, bubble * 0.8));
                    ui.vertical(|ui| {
                        let key = format!("game_{}", trail.game);
                        let name = words.get(&key);
                        ui.label(bold(name, bold_size_fitting(ui, name, 20.0, HEADER - bubble)));
                        let total = trail.stages.len() * 3;
                        let earned = format!("★ {} / {total}", child.trail_stars(trail));
                        ui.label(RichText::new(earned).size(17.0).color(INK));
                        if child.diplomas.contains_key(&trail.game) {
                            let diploma = ui.add(egui::Button::image_and_text(
                                art.image(Art::Trophy, 24.0),
                                bold(words.get("diploma"), 16.0),
                            ));
                            web::tag(&diploma, &format!("diploma.{}", trail.game));
                            if diploma.clicked() {
                                tapped = Some(Tap::Diploma);
                            }
                        }
                        if going {
                            let label = bold(format!("▶ {}", words.get("continue_title")), 16.0);
                            let button =
                                ui.add(egui::Button::new(label).fill(Color32::from_rgb(255, 236, 200)));
                            web::tag(&button, &format!("map.continue.{}", trail.game));
                            if button.clicked() {
                                tapped = Some(Tap::Continue);
                            }
                        }
                    });
                });
            });
            ui.spacing_mut().item_spacing.x = bubble * 0.35;
            // The stages stay together: on a narrow screen they take the row under the name.
            if width < HEADER + trail.stages.len() as f32 * bubble * 1.35 + 16.0 {
                ui.end_row();
            }
            let mut last_centre: Option<Pos2> = None;
            for (index, stage) in trail.stages.iter().enumerate() {
                let standing = if next_stage == Some(index) {
                    Standing::Next
                } else if stars(&stage.id) > 0 {
                    Standing::Played
                } else if trail.is_open(index, stars) {
                    Standing::Open
                } else {
                    Standing::Locked
                };
                // While the stars fly, the stage shows the stars it had before.
                let landing = flying.filter(|n| n.stage == stage.id && flight.is_some_and(|t| t < FLIGHT));
                let shown = match landing {
                    Some(news) => Stars(child.stars(&stage.id).0 & !news.new.0),
                    None => child.stars(&stage.id),
                };
                let popping = flying
                    .filter(|n| n.opened.as_deref() == Some(stage.id.as_str()))
                    .and(flight)
                    .filter(|t| (FLIGHT..FLIGHT + POP).contains(t))
                    .map(|t| ((t - FLIGHT) / POP) as f32);
                let (rect, response) =
                    ui.allocate_exact_size(vec2(bubble, bubble + bubble * 0.36), egui::Sense::click());
                let centre = pos2(rect.center().x, rect.top() + bubble / 2.0);
                if let Some(before) = last_centre.filter(|before| (before.y - centre.y).abs() < 1.0) {
                    let colour = if standing == Standing::Locked { LOCKED } else { CALM };
                    ui.painter().line_segment(
                        [pos2(before.x + bubble * 0.5, before.y), pos2(centre.x - bubble * 0.5, centre.y)],
                        Stroke::new(6.0, colour),
                    );
                }
                last_centre = Some(centre);
                let breathe = match breath.filter(|_| standing == Standing::Next) {
                    Some(t) => 1.0 + 0.06 * (t * 3.0).sin() as f32,
                    None => 1.0,
                };
                let pop = popping.map_or(1.0, |p| 1.0 + 0.35 * (1.0 - p) * (p * std::f32::consts::PI).sin());
                draw_stage(ui, art, stage_picture, index, standing, centre, bubble * 0.5 * breathe * pop);
                let star_row =
                    Rect::from_center_size(pos2(centre.x, rect.bottom() - 11.0), vec2(bubble, 22.0));
                draw_stars(ui.painter(), star_row, shown, bubble * 0.3);
                places.insert(stage.id.clone(), star_row);
                if response.hovered() {
                    pointed = Some(index);
                }
                web::tag(&response, &format!("stage.{}", stage.id));
                if response.clicked() && standing != Standing::Locked {
                    tapped = Some(Tap::Stage(stage.id.clone()));
                }
            }
        });
        // The goal of the stage the pointer is on, else of the next one, in the line under the
        // trail (a tooltip would lie over that line).
        if let Some(index) = pointed.or(next_stage) {
            let goal = trail.stages[index].goal_text(words.language);
            ui.label(RichText::new(format!("★★★ {goal}")).size(15.0).color(INK));
        }
    });
    if next_stage.is_some() && breath.is_some() {
        ui.ctx().request_repaint();
    }
    tapped
}

/// A stage's round picture: its game's piece (`picture`) with its number; grey with a lock when locked, a
/// ring round the next one.
fn draw_stage(
    ui: &egui::Ui,
    art: &EguiArt,
    picture: Art,
    index: usize,
    standing: Standing,
    centre: Pos2,
    radius: f32,
) {
    let painter = ui.painter();
    let (fill, rim) = match standing {
        Standing::Played => (Color32::from_rgb(255, 236, 200), CALM),
        Standing::Next => (Color32::from_rgb(255, 226, 170), ACCENT),
        Standing::Open => (Color32::from_rgb(255, 244, 224), CALM),
        Standing::Locked => (Color32::from_rgb(232, 228, 222), LOCKED),
    };
    painter.circle(
        centre,
        radius,
        fill,
        Stroke::new(if standing == Standing::Next { 5.0 } else { 3.0 }, rim),
    );
    let side = radius * 1.2;
    let tint = if standing == Standing::Locked {
        Color32::from_rgba_unmultiplied(150, 150, 150, 110)
    } else {
        Color32::WHITE
    };
    art.image(picture, side).tint(tint).paint_at(ui, Rect::from_center_size(centre, vec2(side, side)));
    let badge = pos2(centre.x + radius * 0.72, centre.y - radius * 0.72);
    painter.circle_filled(badge, radius * 0.34, if standing == Standing::Locked { LOCKED } else { rim });
    painter.text(
        badge,
        egui::Align2::CENTER_CENTER,
        (index + 1).to_string(),
        egui::FontId::new(radius * 0.42, egui::FontFamily::Name("bold".into())),
        Color32::WHITE,
    );
    if standing == Standing::Locked {
        draw_lock(painter, centre + vec2(0.0, radius * 0.15), radius * 0.55);
    }
}

/// A padlock: a body and its shackle.
fn draw_lock(painter: &egui::Painter, centre: Pos2, size: f32) {
    let body = Rect::from_center_size(centre + vec2(0.0, size * 0.2), vec2(size, size * 0.75));
    let shackle = Color32::from_rgb(110, 100, 92);
    let top = body.top();
    let points: Vec<Pos2> = (0..=16)
        .map(|i| {
            let angle = std::f32::consts::PI * (i as f32 / 16.0);
            pos2(centre.x - size * 0.3 * angle.cos(), top - size * 0.38 * angle.sin())
        })
        .collect();
    painter.add(egui::Shape::line(points, Stroke::new(size * 0.14, shackle)));
    painter.rect_filled(body, size * 0.12, Color32::from_rgb(140, 128, 118));
    painter.circle_filled(body.center(), size * 0.1, Color32::from_rgb(232, 228, 222));
}

/// The new stars flying from the middle of the screen to their places, then landing.
fn draw_flight(ctx: &egui::Context, news: &StageNews, t: f64, screen: Rect, places: &HashMap<String, Rect>) {
    let Some(target) = places.get(&news.stage) else { return };
    if t >= FLIGHT {
        return;
    }
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("flight")));
    let p = (t / FLIGHT) as f32;
    let eased = 1.0 - (1.0 - p).powi(3);
    for (i, star) in Stars::ALL.into_iter().enumerate() {
        if !news.new.has(star) {
            continue;
        }
        let from = screen.center() + vec2((i as f32 - 1.0) * 70.0, 0.0);
        let to = pos2(target.center().x + (i as f32 - 1.0) * 20.0, target.center().y);
        let at = from + (to - from) * eased - vec2(0.0, 120.0 * (p * std::f32::consts::PI).sin());
        draw_star(&painter, at, 10.0 + 30.0 * (1.0 - eased), GOLD);
    }
}
