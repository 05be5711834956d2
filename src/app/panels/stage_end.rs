//! A game played on a stage of the child's path ends with its stars in the result dialog (the
//! new ones told), a diploma if it brought one, and the way back to the map instead of the menu.

use super::theme::{EguiArt, bold, draw_stars};
use crate::app::child::children::Children;
use crate::app::child::stages::{DiplomaFor, StageNews};
use crate::app::launch::MatchSetup;
use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::app::platform::store::Store;
use crate::app::platform::web;
use crate::app::session::screen::Screen;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui::{self, vec2};

#[derive(SystemParam)]
pub struct StageEnd<'w, 's> {
    setup: Option<Res<'w, MatchSetup>>,
    news: Option<Res<'w, StageNews>>,
    children: Res<'w, Children>,
    store: Res<'w, Store>,
    commands: Commands<'w, 's>,
}

impl StageEnd<'_, '_> {
    fn stage(&self) -> Option<&str> {
        self.setup.as_ref().and_then(|s| s.stage.as_deref())
    }

    /// Where leaving the game goes: the map for a stage, the menu for free play.
    pub fn way_out(&self) -> Screen {
        if self.stage().is_some() && self.store.child().is_some() { Screen::Map } else { Screen::Menu }
    }

    /// The stage's stars under the result, and its diploma's button; `true` when that was tapped
    /// (the diploma screen is to open).
    pub fn stars_won(&mut self, ui: &mut egui::Ui, art: &EguiArt, words: &Words) -> bool {
        let Some(news) = self.news.as_deref().filter(|n| Some(n.stage.as_str()) == self.stage()) else {
            return false;
        };
        let Some(child) = self.children.get(news.slot) else { return false };
        let (row, _) = ui.allocate_exact_size(vec2(150.0, 46.0), egui::Sense::hover());
        draw_stars(ui.painter(), row, child.stars(&news.stage), 46.0);
        if news.new.count() > 0 {
            ui.label(bold(words.fill("stars_new", &[("n", &news.new.count().to_string())]), 20.0));
        }
        let mut tapped = false;
        for game in &news.diplomas {
            let button = ui.add(egui::Button::image_and_text(
                art.image(Art::Trophy, 32.0),
                bold(words.get("diploma_won"), 20.0),
            ));
            web::tag(&button, "button.diploma");
            if button.clicked()
                && let Some(slot) = self.store.child()
            {
                self.commands.insert_resource(DiplomaFor { slot, game: *game });
                tapped = true;
            }
        }
        tapped
    }
}
