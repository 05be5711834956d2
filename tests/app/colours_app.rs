//! Colour is never the only sign, and the marks' colours (`tabla::palette`, Okabe and Ito's) stand
//! out from every square of every game they lie on, to normal vision and to each of the three
//! common kinds of colour blindness (simulated).
use crate::common;

use bevy::prelude::*;
use tabla::app::Opponent;
use tabla::app::board::view::Cell;
use tabla::palette::{self, Rgb, SEEN};
use tabla::robot::RobotLevel;
use tabla::rules::Seat;

/// The colour of every square the game `level` shows, as drawn.
fn squares_of(level: &str) -> Vec<Rgb> {
    let setup = common::setup(level, Opponent::Friend, Seat::WHITE, RobotLevel::One);
    let mut app = common::headless(setup, "colours", 1, |_| {});
    common::settle(&mut app);
    let mut cells = app.world_mut().query::<(&Cell, &Sprite)>();
    let mut colours: Vec<Rgb> = cells
        .iter(app.world())
        .map(|(_, sprite)| {
            let srgba = sprite.color.to_srgba();
            [srgba.red, srgba.green, srgba.blue].map(|c| (c * 255.0).round() as u8)
        })
        .collect();
    colours.sort();
    colours.dedup();
    assert!(!colours.is_empty(), "{level} shows its squares");
    colours
}

#[test]
fn every_mark_stands_out_from_every_square_it_lies_on_to_every_kind_of_colour_blindness() {
    let levels = [
        "knight_hunt/one_knight",
        "circles/classic",
        "bunnies/one_horse",
        "halma/four_one_army",
        "nard/one_point",
    ];
    let mut too_close = Vec::new();
    for level in levels {
        for square in squares_of(level) {
            for (mark, colour) in palette::marks() {
                // Where a picked piece can go: on Crazy Nard's points (where pieces stack) a
                // ring of the target's colour, on the other games' squares the target's shade.
                let stacks = level.starts_with("nard");
                if (mark == "target shade" && stacks) || (mark == "target" && !stacks) {
                    continue;
                }
                let (least, vision) = palette::least_difference(colour, square);
                if least < SEEN {
                    too_close.push(format!("{level}: {mark} on {square:?}: ΔE {least:.1} in {vision:?}"));
                }
            }
        }
    }
    assert!(too_close.is_empty(), "marks too like their square:\n{}", too_close.join("\n"));
}
