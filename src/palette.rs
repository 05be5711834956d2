//! The colours of the marks that tell a child something on the board, and how they look to a
//! colour-blind child. Every mark differs from the others shown with it by its shape too (a ring
//! round a piece, a dot or a ring where it can go, a dashed arrow ending in a diamond for a slip,
//! a solid one ending in an arrowhead for a better move), so colour is never the only sign; the
//! colours are Okabe and Ito's eight, chosen for people with each kind of colour blindness.
//!
//! `difference` tells how far apart two colours look (CIE 1976 ΔE in CIELAB) to normal vision
//! and under Machado, Oliveira and Fernandes' simulation (2009, severity 1) of the three common
//! kinds: protanopia, deuteranopia, tritanopia. The tests ask it of every two marks shown
//! together; the app's tests ask it of each mark and the squares it lies on.

/// A colour as sRGB bytes.
pub type Rgb = [u8; 3];

/// Okabe and Ito's palette ("Color Universal Design", 2008).
pub mod okabe_ito {
    use super::Rgb;
    pub const ORANGE: Rgb = [230, 159, 0];
    pub const SKY_BLUE: Rgb = [86, 180, 233];
    pub const BLUISH_GREEN: Rgb = [0, 158, 115];
    pub const YELLOW: Rgb = [240, 228, 66];
    pub const BLUE: Rgb = [0, 114, 178];
    pub const VERMILLION: Rgb = [213, 94, 0];
    pub const REDDISH_PURPLE: Rgb = [204, 121, 167];
    pub const BLACK: Rgb = [0, 0, 0];
}

use okabe_ito::*;

/// A ring round each piece that can move, before any tap.
pub const MOVABLE: Rgb = SKY_BLUE;
/// A ring round the piece picked.
pub const SELECTED: Rgb = BLUE;
/// A ring where a picked piece can go on a place where pieces stack (Crazy Nard's points).
pub const TARGET: Rgb = REDDISH_PURPLE;
/// The dots and rings where a picked piece can go on a square (drawn into `target_dot.png` and
/// `target_ring.png`, half seen through): a shadow, dark on every board.
pub const TARGET_SHADE: Rgb = [40, 110, 60];
/// The last turn's trail, and the squares it left and reached.
pub const LAST_MOVE: Rgb = ORANGE;
/// A previewed path: its dots, arrows and end.
pub const PATH: Rgb = VERMILLION;
/// The coach's slip (the move played) and its better move.
pub const SLIP: Rgb = VERMILLION;
pub const BETTER: Rgb = BLUE;
/// The keyboard's cursor: a frame round its square.
pub const CURSOR: Rgb = BLACK;

/// The marks that are on the board at the same time: before a tap, with a piece picked, with a
/// path previewed, and the coach's two moves.
pub const SHOWN_TOGETHER: [&[(&str, Rgb)]; 4] = [
    &[("movable", MOVABLE), ("last move", LAST_MOVE), ("cursor", CURSOR)],
    &[
        ("selected", SELECTED),
        ("target", TARGET),
        ("target shade", TARGET_SHADE),
        ("last move", LAST_MOVE),
        ("cursor", CURSOR),
    ],
    &[("selected", SELECTED), ("path", PATH), ("target shade", TARGET_SHADE), ("last move", LAST_MOVE)],
    &[("slip", SLIP), ("better", BETTER)],
];

/// Every mark, by name.
pub fn marks() -> Vec<(&'static str, Rgb)> {
    let mut all: Vec<(&str, Rgb)> = SHOWN_TOGETHER.iter().flat_map(|group| group.iter().copied()).collect();
    all.sort();
    all.dedup();
    all
}

/// The least difference two marks shown together must keep in every vision, to be told apart by
/// colour as well as by shape: five times the 2.3 a trained eye just notices.
pub const APART: f32 = 12.0;

/// The least difference a mark keeps from each square it lies on, in every vision, to be seen on
/// it (its shape then tells what it is).
pub const SEEN: f32 = 8.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vision {
    Normal,
    Protanopia,
    Deuteranopia,
    Tritanopia,
}

impl Vision {
    pub const ALL: [Vision; 4] =
        [Vision::Normal, Vision::Protanopia, Vision::Deuteranopia, Vision::Tritanopia];

    /// Machado et al.'s matrix on linear RGB (severity 1).
    fn matrix(self) -> [[f32; 3]; 3] {
        match self {
            Vision::Normal => [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            Vision::Protanopia => [
                [0.152286, 1.052583, -0.204868],
                [0.114503, 0.786281, 0.099216],
                [-0.003882, -0.048116, 1.051998],
            ],
            Vision::Deuteranopia => [
                [0.367322, 0.860646, -0.227968],
                [0.280085, 0.672501, 0.047413],
                [-0.011820, 0.042940, 0.968881],
            ],
            Vision::Tritanopia => [
                [1.255528, -0.076749, -0.178779],
                [-0.078411, 0.930809, 0.147602],
                [0.004733, 0.691367, 0.303900],
            ],
        }
    }
}

fn linear(byte: u8) -> f32 {
    let c = byte as f32 / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// The colour as `vision` sees it, in CIELAB (D65).
pub fn seen(colour: Rgb, vision: Vision) -> [f32; 3] {
    let rgb = colour.map(linear);
    let m = vision.matrix();
    let [r, g, b] =
        [0, 1, 2].map(|i| (m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2]).clamp(0.0, 1.0));
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f32| if t > 0.008856 { t.cbrt() } else { 7.787 * t + 16.0 / 116.0 };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// How far apart two colours look to `vision` (ΔE, CIE 1976).
pub fn difference(a: Rgb, b: Rgb, vision: Vision) -> f32 {
    let (a, b) = (seen(a, vision), seen(b, vision));
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// The least difference of two colours over the four visions, and the vision it is in.
pub fn least_difference(a: Rgb, b: Rgb) -> (f32, Vision) {
    Vision::ALL
        .into_iter()
        .map(|vision| (difference(a, b, vision), vision))
        .fold((f32::INFINITY, Vision::Normal), |least, next| if next.0 < least.0 { next } else { least })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simulation_loses_what_each_kind_of_colour_blindness_loses() {
        let (red, green) = ([220, 50, 40], [60, 160, 40]);
        let normal = difference(red, green, Vision::Normal);
        assert!(normal > 60.0, "{normal}");
        // Red against green is what protanopes and deuteranopes lose; tritanopes keep it.
        assert!(difference(red, green, Vision::Protanopia) < normal / 2.0);
        assert!(difference(red, green, Vision::Deuteranopia) < normal / 2.0);
        assert!(difference(red, green, Vision::Tritanopia) > normal / 2.0);
        // Blue against green is what tritanopes lose.
        let (blue, teal) = ([60, 90, 200], [40, 150, 140]);
        assert!(difference(blue, teal, Vision::Tritanopia) < difference(blue, teal, Vision::Normal) / 2.0);
        // Grey stays grey.
        let grey = seen([128, 128, 128], Vision::Deuteranopia);
        assert!(grey[1].abs() < 1.0 && grey[2].abs() < 1.0, "{grey:?}");
    }

    #[test]
    fn marks_shown_together_look_apart_to_every_kind_of_colour_blindness() {
        for group in SHOWN_TOGETHER {
            for (i, (one, a)) in group.iter().enumerate() {
                for (other, b) in &group[i + 1..] {
                    let (least, vision) = least_difference(*a, *b);
                    assert!(least >= APART, "{one} and {other}: ΔE {least:.1} in {vision:?}");
                }
            }
        }
    }

    #[test]
    fn the_marks_colours_are_okabe_and_itos() {
        let palette = [ORANGE, SKY_BLUE, BLUISH_GREEN, YELLOW, BLUE, VERMILLION, REDDISH_PURPLE, BLACK];
        for (name, colour) in marks() {
            // The target's shade is a shadow drawn half seen through, the one colour of its own.
            if name != "target shade" {
                assert!(palette.contains(&colour), "{name}: {colour:?}");
            }
        }
    }
}
