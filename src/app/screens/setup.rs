//! A game's setup screen: the variant, the opponent, the person's colour, the Robot's level and
//! the clock. The choices are remembered in the settings.

use crate::app::course::catalog::{Levels, PlayableGames, SeatLabel};
use crate::app::launch::{Control, MatchSetup, Opponent};
use crate::app::panels::theme::{
    ACCENT, CALM, EguiArt, UiReady, bold, bold_size_on_one_line, card, full_screen,
};
use crate::app::platform::art::Art;
use crate::app::platform::settings::{Choices, Settings, Words};
use crate::app::session::screen::Screen;
use crate::levels::Level;
use crate::robot::RobotLevel;
use crate::rules::Seat;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, vec2};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// The game whose setup screen is open.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct SetupFor(pub crate::rules::GameKind);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        setup.run_if(resource_exists::<UiReady>).run_if(in_state(Screen::Setup)),
    );
}

/// A row of choices drawn as toggle buttons; returns the one clicked.
fn choice_row<T: Copy + PartialEq>(
    ui: &mut egui::Ui,
    chosen: T,
    options: &[(T, egui::WidgetText)],
) -> Option<T> {
    let mut picked = None;
    ui.horizontal_wrapped(|ui| {
        for (value, label) in options {
            let button =
                ui.add(egui::Button::selectable(*value == chosen, label.clone()).min_size(vec2(56.0, 48.0)));
            crate::app::platform::web::tag(&button, &format!("choice.{}", label.text()));
            if button.clicked() {
                picked = Some(*value);
            }
        }
    });
    picked
}

#[allow(clippy::too_many_arguments)]
fn setup(
    mut contexts: EguiContexts,
    art: Res<EguiArt>,
    words: Res<Words>,
    game: Res<SetupFor>,
    playable: Res<PlayableGames>,
    all_levels: Res<Levels>,
    mut settings: ResMut<Settings>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let game = game.0;
    let Some(info) = playable.get(game) else {
        next.set(Screen::Menu);
        return Ok(());
    };
    let levels: Vec<Level> = all_levels.of(game).cloned().collect();
    let mut choices = settings.choices.get(&game).cloned().unwrap_or_default();
    if !levels.iter().any(|l| l.variant() == choices.variant) {
        choices.variant = levels.first().map(|l| l.variant().to_string()).unwrap_or_default();
    }
    let level = levels.iter().find(|l| l.variant() == choices.variant).cloned();
    let mut start = false;
    let mut back = false;

    full_screen(ctx, &format!("setup_{game}"), |ui| {
        ui.set_max_width((screen.width() - 16.0).min(760.0));
        {
            ui.vertical_centered(|ui| {
                ui.horizontal(|ui| {
                    ui.add(art.image(info.picture, 64.0));
                    let key = format!("game_{game}");
                    let title = words.get(&key);
                    let room = ui.available_width() - 8.0;
                    let size = bold_size_on_one_line(ui, title, (34.0, 18.0), room);
                    ui.label(bold(title, size).color(ACCENT));
                });
            });
            card(Color32::from_rgb(255, 250, 240)).show(ui, |ui| {
                // The choices read from the left, as a list.
                ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                    ui.label(bold(words.get("setup_variant"), 20.0));
                    let options: Vec<(usize, egui::WidgetText)> = levels
                        .iter()
                        .enumerate()
                        .map(|(i, l)| (i, bold(words.get(&format!("variant_{}", l.variant())), 19.0).into()))
                        .collect();
                    let chosen = levels.iter().position(|l| l.variant() == choices.variant).unwrap_or(0);
                    if let Some(i) = choice_row(ui, chosen, &options) {
                        choices.variant = levels[i].variant().to_string();
                    }
                    ui.label(egui::RichText::new(words.get(&format!("about_{}", choices.variant))).italics());

                    if info.seat_by_seat {
                        if let Some(level) = &level {
                            seat_by_seat(ui, &art, &words, (info.seats)(level), &mut choices);
                        }
                    } else {
                        opponent_and_colour(ui, &art, &words, info.person_seat, &mut choices);
                    }

                    ui.add_space(6.0);
                    ui.label(bold(words.get("setup_clock"), 20.0));
                    let mut clocks = vec![(0u32, egui::WidgetText::from(words.get("clock_off")))];
                    for minutes in level.as_ref().map(|l| l.clock_minutes().to_vec()).unwrap_or_default() {
                        clocks.push((
                            minutes,
                            words.fill("clock_minutes", &[("n", &minutes.to_string())]).into(),
                        ));
                    }
                    if let Some(m) = choice_row(ui, choices.clock_minutes, &clocks) {
                        choices.clock_minutes = m;
                    }
                });
            });
            ui.add_space(10.0);
            ui.vertical_centered(|ui| {
                ui.horizontal(|ui| {
                    back = ui
                        .add(
                            egui::Button::new(bold(format!("‹ {}", words.get("back")), 20.0))
                                .min_size(vec2(120.0, 56.0)),
                        )
                        .clicked();
                    let play = egui::Button::new(bold(words.get("start"), 28.0).color(Color32::WHITE))
                        .fill(CALM)
                        .min_size(vec2(200.0, 64.0));
                    let play = ui.add(play);
                    crate::app::platform::web::tag(&play, "start");
                    start = play.clicked();
                });
            });
        }
    });

    if settings.choices.get(&game) != Some(&choices) {
        settings.choices.insert(game, choices.clone());
    }
    if back {
        next.set(Screen::Menu);
    }
    if start && let Some(level) = level {
        let setup = if info.seat_by_seat {
            seat_by_seat_setup(level, &choices)
        } else {
            match_setup(level, &choices, info.person_seat)
        };
        let far = setup.controls(setup.level.seat_count()).contains(&Control::Far);
        if far {
            // A room's game: made behind the grown-ups' gate (its clocks are the server's).
            commands.insert_resource(super::far::FarPage::to_make(
                setup,
                &settings.server,
                &settings.far_name,
            ));
            next.set(Screen::Far);
        } else {
            commands.insert_resource(setup);
            next.set(Screen::Playing);
        }
    }
    Ok(())
}

/// Against the Robot or a friend, the person's colour and the Robot's level.
fn opponent_and_colour(
    ui: &mut egui::Ui,
    art: &EguiArt,
    words: &Words,
    person_seat: Option<Seat>,
    choices: &mut Choices,
) {
    ui.add_space(6.0);
    ui.label(bold(words.get("setup_opponent"), 20.0));
    let opponents = [
        (Opponent::Robot, egui::WidgetText::from(words.get("opponent_robot"))),
        (Opponent::Friend, egui::WidgetText::from(words.get("opponent_friend"))),
        // Someone far away, through a room of `tabla serve`.
        (Opponent::Far, egui::WidgetText::from(words.get("opponent_far"))),
    ];
    ui.horizontal(|ui| {
        ui.add(art.image(Art::Robot, 40.0));
        if let Some(o) = choice_row(ui, choices.opponent, &opponents) {
            choices.opponent = o;
        }
        ui.add(art.image(Art::People, 40.0));
    });

    if matches!(choices.opponent, Opponent::Robot | Opponent::Far) && person_seat.is_none() {
        ui.add_space(6.0);
        ui.label(bold(words.get("setup_colour"), 20.0));
        ui.horizontal(|ui| {
            for (colour, picture, key) in [(0u8, Art::WhiteKnight, "white"), (1, Art::BlackKnight, "black")] {
                let button = egui::Button::image_and_text(art.image(picture, 44.0), words.get(key))
                    .selected(choices.colour == colour)
                    .min_size(vec2(120.0, 56.0));
                if ui.add(button).clicked() {
                    choices.colour = colour;
                }
            }
        });
    }
    if choices.opponent == Opponent::Robot {
        ui.add_space(6.0);
        ui.label(bold(words.get("setup_level"), 20.0));
        ui.horizontal_wrapped(|ui| {
            for level in RobotLevel::ALL {
                let button = egui::Button::new(format!(
                    "{} {}",
                    "★".repeat(level.number() as usize),
                    words.get(&format!("level_{level}"))
                ))
                .selected(choices.robot_level == level)
                .min_size(vec2(100.0, 48.0));
                if ui.add(button).clicked() {
                    choices.robot_level = level;
                }
            }
        });
    }
}

/// Who plays each seat (a person or a Robot level), and who starts.
fn seat_by_seat(
    ui: &mut egui::Ui,
    art: &EguiArt,
    words: &Words,
    seats: Vec<SeatLabel>,
    choices: &mut Choices,
) {
    if choices.seats.len() != seats.len() {
        choices.seats = (0..seats.len())
            .map(|i| if i == 0 { Control::Person } else { Control::Robot(RobotLevel::One) })
            .collect();
    }
    if choices.first as usize >= seats.len() {
        choices.first = 0;
    }
    ui.add_space(6.0);
    ui.label(bold(words.get("setup_seats"), 20.0));
    let mut options = vec![(Control::Person, egui::WidgetText::from(words.get("seat_person")))];
    options.extend(RobotLevel::ALL.map(|level| {
        let stars = "★".repeat(level.number() as usize);
        (Control::Robot(level), egui::WidgetText::from(format!("{} {stars}", words.get("seat_robot"))))
    }));
    options.push((Control::Far, egui::WidgetText::from(words.get("seat_far"))));
    for (i, (key, picture)) in seats.iter().enumerate() {
        ui.horizontal(|ui| {
            if let Some(picture) = picture {
                ui.add(art.image(*picture, 40.0));
            }
            ui.label(bold(words.get(key), 18.0));
        });
        if let Some(control) = choice_row(ui, choices.seats[i], &options) {
            choices.seats[i] = control;
        }
    }
    ui.add_space(6.0);
    ui.label(bold(words.get("setup_first"), 20.0));
    ui.horizontal_wrapped(|ui| {
        for (i, (key, picture)) in seats.iter().enumerate() {
            let text = words.get(key);
            let button = match picture {
                Some(picture) => egui::Button::image_and_text(art.image(*picture, 32.0), text),
                None => egui::Button::new(text),
            };
            if ui.add(button.selected(choices.first as usize == i).min_size(vec2(100.0, 48.0))).clicked() {
                choices.first = i as u8;
            }
        }
    });
}

fn match_setup(level: Level, choices: &Choices, fixed_seat: Option<Seat>) -> MatchSetup {
    let chosen = if choices.colour == 1 { Seat::BLACK } else { Seat::WHITE };
    MatchSetup {
        level,
        opponent: choices.opponent,
        person_seat: fixed_seat.unwrap_or(chosen),
        robot_level: choices.robot_level,
        clock_minutes: choices.clock_minutes,
        seats: Vec::new(),
        stage: None,
    }
}

/// A game set up seat by seat: each seat's player as chosen, the chosen seat first.
fn seat_by_seat_setup(level: Level, choices: &Choices) -> MatchSetup {
    let has_robot = choices.seats.iter().any(|c| matches!(c, Control::Robot(_)));
    let person = choices.seats.iter().position(|c| *c == Control::Person).unwrap_or(0);
    MatchSetup {
        level: level.with_first(Seat(choices.first)),
        opponent: if has_robot { Opponent::Robot } else { Opponent::Friend },
        person_seat: Seat(person as u8),
        robot_level: choices.robot_level,
        clock_minutes: choices.clock_minutes,
        seats: choices.seats.clone(),
        stage: None,
    }
}
