//! The screens around the game said aloud: who is playing when its screen opens, a child's animal
//! (or name) when it is tapped, free play when the menu of games opens, a diploma's words when it
//! is shown. The game screen's own are
//! `panels::spoken`'s.

use crate::app::child::children::name_of;
use crate::app::child::children::{ChildCommand, Children};
use crate::app::child::stages::DiplomaFor;
use crate::app::platform::settings::Words;
use crate::app::platform::speech::{Speech, Utterance};
use crate::app::session::screen::Screen;
use crate::progress::Child;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    // The words are read at the start: the first screen's entering may come before them.
    let ready = resource_exists::<Words>;
    app.add_systems(OnEnter(Screen::Children), ask_who.run_if(ready));
    app.add_systems(OnEnter(Screen::Diploma), say_diploma.run_if(ready));
    app.add_systems(OnEnter(Screen::Menu), say_free_play.run_if(ready));
    app.add_systems(Update, say_child_tapped.run_if(ready));
}

/// The menu of games is free play.
fn say_free_play(words: Res<Words>, mut speech: MessageWriter<Speech>) {
    speech.write(Speech::Say(Utterance::of(&words, "free_play")));
}

/// "Who is playing? Tap your picture", or, before there is any child, "Tap your animal!".
fn ask_who(children: Res<Children>, words: Res<Words>, mut speech: MessageWriter<Speech>) {
    let key = if children.each().next().is_none() { "children_pick_animal" } else { "children_say" };
    speech.write(Speech::Say(Utterance::of(&words, key)));
}

/// The child tapped (or the animal a new child chose), by their name.
fn say_child_tapped(
    mut orders: MessageReader<ChildCommand>,
    children: Res<Children>,
    words: Res<Words>,
    mut speech: MessageWriter<Speech>,
) {
    for order in orders.read() {
        let name = match order {
            ChildCommand::Add { animal } => name_of(&words, &Child::new(*animal)),
            ChildCommand::Choose(slot) => match children.get(*slot) {
                Some(child) => name_of(&words, child),
                None => continue,
            },
            _ => continue,
        };
        speech.write(Speech::Say(Utterance::words(&words, name)));
    }
}

/// The diploma's words: whose it is and which path they walked.
fn say_diploma(
    shown: Option<Res<DiplomaFor>>,
    children: Res<Children>,
    words: Res<Words>,
    mut speech: MessageWriter<Speech>,
) {
    let Some(shown) = shown else { return };
    let Some(child) = children.get(shown.slot) else { return };
    let game = words.get(&format!("game_{}", shown.game)).to_string();
    let name = name_of(&words, child);
    speech.write(Speech::Say(Utterance::filled(&words, "diploma_said", &[("name", &name), ("game", &game)])));
}
