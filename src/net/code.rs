//! A room's code: 30 bits of chance, typed as six characters without look-alikes, shown as four
//! coloured animal pictures. Rooms are found only by their code; nothing lists them.

use std::fmt;

/// The typed form's characters: Crockford's base 32, with no I, L, O or U to mistake for 1, 0 or V.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Characters of the typed form.
const LENGTH: usize = 6;
const BITS: u32 = 30;

/// The animals of the picture form, each in six colours: 192 pictures, four of them hold 30 bits.
pub const ANIMALS: [&str; 32] = [
    "bear",
    "bee",
    "bird",
    "butterfly",
    "camel",
    "cat",
    "cow",
    "crab",
    "deer",
    "dog",
    "dolphin",
    "duck",
    "elephant",
    "fish",
    "fox",
    "frog",
    "giraffe",
    "goat",
    "hedgehog",
    "horse",
    "koala",
    "lion",
    "monkey",
    "mouse",
    "owl",
    "panda",
    "penguin",
    "pig",
    "rabbit",
    "snail",
    "turtle",
    "whale",
];
pub const COLOURS: [&str; 6] = ["red", "orange", "yellow", "green", "blue", "purple"];
const PICTURES: u32 = (ANIMALS.len() * COLOURS.len()) as u32;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RoomCode(u32);

/// One picture of the four: an animal in a colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Picture {
    pub animal: &'static str,
    pub colour: &'static str,
}

impl RoomCode {
    /// The code of 30 random bits (the rest of `bits` is dropped).
    pub fn from_bits(bits: u64) -> RoomCode {
        RoomCode((bits & ((1 << BITS) - 1)) as u32)
    }

    /// Reads a typed code: six characters, in any case, with spaces or dashes between; O is read
    /// as 0 and I or L as 1, as a child may type them.
    pub fn parse(text: &str) -> Result<RoomCode, String> {
        let mut value = 0u32;
        let mut count = 0;
        for c in text.chars().filter(|c| !matches!(c, ' ' | '-')) {
            let c = match c.to_ascii_uppercase() {
                'O' => '0',
                'I' | 'L' => '1',
                other => other,
            };
            let digit = ALPHABET.iter().position(|&a| a as char == c).ok_or_else(|| {
                format!(
                    "a room's code is six letters and digits; '{}' is not one of them",
                    crate::quote::quote(text)
                )
            })?;
            value = (value << 5) | digit as u32;
            count += 1;
            if count > LENGTH {
                break;
            }
        }
        if count != LENGTH {
            return Err(format!("a room's code has six characters, not '{}'", crate::quote::quote(text)));
        }
        Ok(RoomCode(value))
    }

    /// The four pictures that show the code.
    pub fn pictures(self) -> [Picture; 4] {
        let mut rest = self.0;
        let mut pictures = [Picture { animal: ANIMALS[0], colour: COLOURS[0] }; 4];
        for picture in pictures.iter_mut().rev() {
            let index = (rest % PICTURES) as usize;
            rest /= PICTURES;
            *picture =
                Picture { animal: ANIMALS[index % ANIMALS.len()], colour: COLOURS[index / ANIMALS.len()] };
        }
        pictures
    }

    /// The code the four pictures show, if they show one.
    pub fn from_pictures(pictures: &[Picture]) -> Option<RoomCode> {
        if pictures.len() != 4 {
            return None;
        }
        let mut value = 0u64;
        for picture in pictures {
            let animal = ANIMALS.iter().position(|&a| a == picture.animal)?;
            let colour = COLOURS.iter().position(|&c| c == picture.colour)?;
            value = value * PICTURES as u64 + (colour * ANIMALS.len() + animal) as u64;
        }
        (value < 1 << BITS).then_some(RoomCode(value as u32))
    }
}

impl fmt::Display for RoomCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for place in (0..LENGTH).rev() {
            let digit = (self.0 >> (5 * place)) & 31;
            write!(f, "{}", ALPHABET[digit as usize] as char)?;
        }
        Ok(())
    }
}

impl fmt::Display for Picture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.colour, self.animal)
    }
}
