//! Another window (or browser tab) holds the device's data, so this one writes nothing: it says
//! so, with a picture, and offers to play here instead. Tapped, it asks the other window to let go
//! (the other says so in its turn), takes the data over and reads it afresh, then asks who is
//! playing. On the desktop the window that holds the data looks every second whether another
//! asked for it. In the browser the page does the same with a Web Lock before the app starts
//! (web/index.html), so this screen is the desktop's.

use crate::app::child::children::ReadChildrenAgain;
use crate::app::child::keeping::SavedGame;
use crate::app::launch::Launch;
use crate::app::panels::theme::{ACCENT, CALM, CARD, EguiArt, UiReady, bold, card, full_screen};
use crate::app::platform::art::Art;
use crate::app::platform::holder;
use crate::app::platform::settings::{Words, read_kept_settings};
use crate::app::platform::store::Store;
use crate::app::platform::wake::{WakeWithin, waker};
use crate::app::platform::web;
use crate::app::session::screen::Screen;
use crate::i18n::Strings;
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use tracing::info;

/// The person asked to play in this window instead of the other.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayHere;

/// Since when this window has been waiting for the other to let go (seconds), while it waits.
#[derive(Resource, Default, Debug)]
pub struct TakingOver(pub Option<f32>);

/// How long a window waits for the other to let go before it says it could not.
const WAIT_SECONDS: f32 = 10.0;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<PlayHere>().init_resource::<TakingOver>();
    app.add_systems(Update, (let_go_when_asked, take_over).chain());
}

pub(super) fn ui_plugin(app: &mut App) {
    app.add_systems(Startup, |store: Res<Store>| holder::watch(store.dir(), waker()));
    app.add_systems(
        EguiPrimaryContextPass,
        elsewhere_screen.run_if(resource_exists::<UiReady>).run_if(in_state(Screen::Elsewhere)),
    );
}

/// The window holding the data looks, once a second while it draws and whenever the holder's
/// watcher woke it, whether another asked for it: then it lets go and says so.
fn let_go_when_asked(
    store: Res<Store>,
    time: Res<Time<Real>>,
    mut since: Local<f32>,
    mut next: ResMut<NextState<Screen>>,
) {
    *since += time.delta_secs();
    if *since < 1.0 && !holder::asked_since() {
        return;
    }
    *since = 0.0;
    if store.with_holder(|holder, dir| holder.let_go_if_asked(dir)) {
        info!("tabla elsewhere: another window took the games over");
        next.set(Screen::Elsewhere);
    }
}

/// Play here: asks the other window to let go, waits for it, then reads everything afresh.
#[allow(clippy::too_many_arguments)]
fn take_over(
    mut asked: MessageReader<PlayHere>,
    mut taking: ResMut<TakingOver>,
    store: Res<Store>,
    launch: Res<Launch>,
    time: Res<Time<Real>>,
    mut wake: ResMut<WakeWithin>,
    mut read_again: MessageWriter<ReadChildrenAgain>,
    mut saved: ResMut<SavedGame>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    if asked.read().count() > 0 && taking.0.is_none() {
        store.with_holder(|holder, dir| holder.ask(dir));
        taking.0 = Some(0.0);
    }
    let Some(waited) = taking.0.as_mut() else { return };
    *waited += time.delta_secs();
    if !store.with_holder(|holder, dir| holder.try_take(dir)) {
        wake.within(0.1);
        if *waited > WAIT_SECONDS {
            taking.0 = None;
        }
        return;
    }
    taking.0 = None;
    info!("tabla elsewhere: this window holds the games now");
    let (settings, kept_as_they) = read_kept_settings(&store, &launch);
    commands.insert_resource(Words(Strings::new(settings.language)));
    commands.insert_resource(settings);
    commands.insert_resource(kept_as_they);
    *saved = SavedGame::default();
    read_again.write(ReadChildrenAgain);
    next.set(Screen::Children);
}

fn elsewhere_screen(
    mut contexts: EguiContexts,
    art: Res<EguiArt>,
    words: Res<Words>,
    taking: Res<TakingOver>,
    mut play_here: MessageWriter<PlayHere>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    full_screen(ctx, "elsewhere", |ui| {
        ui.add_space((screen.height() * 0.08).min(60.0));
        ui.label(bold(words.get("app_title"), 48.0).color(ACCENT));
        ui.add_space(12.0);
        card(CARD).show(ui, |ui| {
            ui.set_width((screen.width() - 48.0).min(560.0));
            ui.vertical_centered(|ui| {
                ui.horizontal(|ui| {
                    ui.add_space(((ui.available_width() - 2.0 * 110.0) / 2.0).max(0.0));
                    ui.add(art.image(Art::People, 100.0));
                    ui.add(art.image(Art::Handshake, 100.0));
                });
                ui.label(bold(words.get("elsewhere_title"), 26.0));
                ui.label(RichText::new(words.get("elsewhere_text")).size(18.0));
                ui.add_space(10.0);
                if taking.0.is_some() {
                    ui.label(RichText::new(words.get("elsewhere_waiting")).size(18.0));
                    ui.ctx().request_repaint();
                } else {
                    let label = bold(words.get("elsewhere_play_here"), 26.0).color(egui::Color32::WHITE);
                    let button = ui.add_sized([260.0, 72.0], egui::Button::new(label).fill(CALM));
                    web::tag(&button, "elsewhere.play_here");
                    if button.clicked() {
                        play_here.write(PlayHere);
                    }
                }
            });
        });
    });
    Ok(())
}
