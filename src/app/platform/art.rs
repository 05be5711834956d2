//! The pictures, built into the program (so the browser build fetches nothing but the page):
//! made by tools/make_art.py from free fonts, see assets/LICENSES.md.

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;
use std::collections::HashMap;
use tracing::error;

/// Every picture the game shows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub enum Art {
    WhiteKnight,
    BlackKnight,
    WhitePawn,
    BlackPawn,
    WhiteRook,
    BlackRook,
    WhiteBishop,
    BlackBishop,
    TargetDot,
    TargetRing,
    SelectedRing,
    MenuKnightHunt,
    Robot,
    People,
    Star,
    Clock,
    Trophy,
    #[default]
    Handshake,
    MenuCircles,
    MenuBunnies,
    Bunny,
    Horse,
    Carrot,
    ClockwiseRing,
    MenuHalma,
    HalmaRed,
    HalmaYellow,
    HalmaBlue,
    HalmaPurple,
    HalmaGoalRed,
    HalmaGoalYellow,
    HalmaGoalBlue,
    HalmaGoalPurple,
    /// A white dot and ring, tinted where they are drawn.
    MarkDot,
    MarkRing,
    MenuNard,
    NardWhite,
    NardBlack,
    /// A backgammon point: a white triangle, tinted where it is drawn.
    NardPoint,
    /// A die showing 1 to 6.
    Die(u8),
    /// The doubling cube showing 2 to the power given (1 to 64).
    Cube(u8),
    /// A badge with a stack's height, 2 to 15.
    Count(u8),
    DiceCup,
    /// The answers to a double: take (a tick) and drop (a white flag).
    NardTake,
    NardDrop,
    /// A child's picture: one of eight animals, each on its own colour.
    Animal(u8),
    /// An animal of a room's code (`net::code::ANIMALS`), drawn on a disc of the code's colour
    /// (the desktop's only: the browser build has no rooms yet).
    RoomAnimal(u8),
}

impl Art {
    /// The words key of the piece a picture shows, for saying a move ("the knight from g1").
    pub fn piece_key(self) -> Option<&'static str> {
        match self {
            Art::WhiteKnight | Art::BlackKnight => Some("piece_knight"),
            Art::WhiteRook | Art::BlackRook => Some("piece_rook"),
            Art::WhiteBishop | Art::BlackBishop => Some("piece_bishop"),
            Art::WhitePawn | Art::BlackPawn => Some("piece_pawn"),
            Art::Bunny => Some("piece_bunny"),
            Art::Horse => Some("piece_horse"),
            Art::HalmaRed | Art::HalmaYellow | Art::HalmaBlue | Art::HalmaPurple => Some("piece_halma"),
            Art::NardWhite | Art::NardBlack => Some("piece_checker"),
            _ => None,
        }
    }

    /// Every picture once.
    pub fn all() -> Vec<Art> {
        let mut all = vec![
            Art::WhiteKnight,
            Art::BlackKnight,
            Art::WhitePawn,
            Art::BlackPawn,
            Art::WhiteRook,
            Art::BlackRook,
            Art::WhiteBishop,
            Art::BlackBishop,
            Art::TargetDot,
            Art::TargetRing,
            Art::SelectedRing,
            Art::MenuKnightHunt,
            Art::Robot,
            Art::People,
            Art::Star,
            Art::Clock,
            Art::Trophy,
            Art::Handshake,
            Art::MenuCircles,
            Art::MenuBunnies,
            Art::Bunny,
            Art::Horse,
            Art::Carrot,
            Art::ClockwiseRing,
            Art::MenuHalma,
            Art::HalmaRed,
            Art::HalmaYellow,
            Art::HalmaBlue,
            Art::HalmaPurple,
            Art::HalmaGoalRed,
            Art::HalmaGoalYellow,
            Art::HalmaGoalBlue,
            Art::HalmaGoalPurple,
            Art::MarkDot,
            Art::MarkRing,
            Art::MenuNard,
            Art::NardWhite,
            Art::NardBlack,
            Art::NardPoint,
            Art::DiceCup,
            Art::NardTake,
            Art::NardDrop,
        ];
        all.extend((1..=6).map(Art::Die));
        all.extend((0..=6).map(Art::Cube));
        all.extend((2..=15).map(Art::Count));
        all.extend((0..8).map(Art::Animal));
        #[cfg(not(target_arch = "wasm32"))]
        all.extend((0..ROOM_ANIMALS.len() as u8).map(Art::RoomAnimal));
        all
    }

    fn png(self) -> &'static [u8] {
        macro_rules! image {
            ($name:literal) => {
                include_bytes!(concat!("../../../assets/images/", $name, ".png")) as &'static [u8]
            };
        }
        match self {
            Art::WhiteKnight => image!("white_knight"),
            Art::BlackKnight => image!("black_knight"),
            Art::WhitePawn => image!("white_pawn"),
            Art::BlackPawn => image!("black_pawn"),
            Art::WhiteRook => image!("white_rook"),
            Art::BlackRook => image!("black_rook"),
            Art::WhiteBishop => image!("white_bishop"),
            Art::BlackBishop => image!("black_bishop"),
            Art::TargetDot => image!("target_dot"),
            Art::TargetRing => image!("target_ring"),
            Art::SelectedRing => image!("selected_ring"),
            Art::MenuKnightHunt => image!("menu_knight_hunt"),
            Art::Robot => image!("robot"),
            Art::People => image!("people"),
            Art::Star => image!("star"),
            Art::Clock => image!("clock"),
            Art::Trophy => image!("trophy"),
            Art::Handshake => image!("handshake"),
            Art::MenuCircles => image!("menu_circles"),
            Art::MenuBunnies => image!("menu_bunnies"),
            Art::Bunny => image!("piece_bunny"),
            Art::Horse => image!("piece_horse"),
            Art::Carrot => image!("carrot"),
            Art::ClockwiseRing => image!("clockwise_ring"),
            Art::MenuHalma => image!("menu_halma"),
            Art::HalmaRed => image!("halma_red"),
            Art::HalmaYellow => image!("halma_yellow"),
            Art::HalmaBlue => image!("halma_blue"),
            Art::HalmaPurple => image!("halma_purple"),
            Art::HalmaGoalRed => image!("halma_goal_red"),
            Art::HalmaGoalYellow => image!("halma_goal_yellow"),
            Art::HalmaGoalBlue => image!("halma_goal_blue"),
            Art::HalmaGoalPurple => image!("halma_goal_purple"),
            Art::MarkDot => image!("mark_dot"),
            Art::MarkRing => image!("mark_ring"),
            Art::MenuNard => image!("menu_nard"),
            Art::NardWhite => image!("nard_white"),
            Art::NardBlack => image!("nard_black"),
            Art::NardPoint => image!("nard_point"),
            Art::DiceCup => image!("dice_cup"),
            Art::NardTake => image!("nard_take"),
            Art::NardDrop => image!("nard_drop"),
            Art::Die(n) => [
                image!("die_1"),
                image!("die_2"),
                image!("die_3"),
                image!("die_4"),
                image!("die_5"),
                image!("die_6"),
            ][(n.clamp(1, 6) - 1) as usize],
            Art::Cube(power) => [
                image!("cube_1"),
                image!("cube_2"),
                image!("cube_4"),
                image!("cube_8"),
                image!("cube_16"),
                image!("cube_32"),
                image!("cube_64"),
            ][power.min(6) as usize],
            Art::Animal(n) => [
                image!("animal_0"),
                image!("animal_1"),
                image!("animal_2"),
                image!("animal_3"),
                image!("animal_4"),
                image!("animal_5"),
                image!("animal_6"),
                image!("animal_7"),
            ][usize::from(n % 8)],
            #[cfg(not(target_arch = "wasm32"))]
            Art::RoomAnimal(n) => ROOM_ANIMALS[usize::from(n) % ROOM_ANIMALS.len()],
            #[cfg(target_arch = "wasm32")]
            Art::RoomAnimal(_) => &[],
            Art::Count(n) => [
                image!("count_2"),
                image!("count_3"),
                image!("count_4"),
                image!("count_5"),
                image!("count_6"),
                image!("count_7"),
                image!("count_8"),
                image!("count_9"),
                image!("count_10"),
                image!("count_11"),
                image!("count_12"),
                image!("count_13"),
                image!("count_14"),
                image!("count_15"),
            ][(n.clamp(2, 15) - 2) as usize],
        }
    }
}

#[derive(Resource, Default)]
pub struct ArtImages(HashMap<Art, Handle<Image>>);

impl ArtImages {
    pub fn get(&self, art: Art) -> Handle<Image> {
        self.0.get(&art).cloned().unwrap_or_default()
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ArtImages>();
    app.add_systems(PreStartup, load_pictures);
}

fn load_pictures(mut images: ResMut<Assets<Image>>, mut art: ResMut<ArtImages>) {
    for picture in Art::all() {
        match Image::from_buffer(
            picture.png(),
            ImageType::Extension("png"),
            CompressedImageFormats::NONE,
            true,
            ImageSampler::linear(),
            RenderAssetUsages::default(),
        ) {
            Ok(image) => {
                art.0.insert(picture, images.add(image));
            }
            Err(e) => error!("the picture {picture:?} could not be decoded: {e}"),
        }
    }
}

/// The animals of a room's code, in `net::code::ANIMALS`' order.
#[cfg(not(target_arch = "wasm32"))]
const ROOM_ANIMALS: [&[u8]; 32] = [
    include_bytes!("../../../assets/images/room_animal_0.png"),
    include_bytes!("../../../assets/images/room_animal_1.png"),
    include_bytes!("../../../assets/images/room_animal_2.png"),
    include_bytes!("../../../assets/images/room_animal_3.png"),
    include_bytes!("../../../assets/images/room_animal_4.png"),
    include_bytes!("../../../assets/images/room_animal_5.png"),
    include_bytes!("../../../assets/images/room_animal_6.png"),
    include_bytes!("../../../assets/images/room_animal_7.png"),
    include_bytes!("../../../assets/images/room_animal_8.png"),
    include_bytes!("../../../assets/images/room_animal_9.png"),
    include_bytes!("../../../assets/images/room_animal_10.png"),
    include_bytes!("../../../assets/images/room_animal_11.png"),
    include_bytes!("../../../assets/images/room_animal_12.png"),
    include_bytes!("../../../assets/images/room_animal_13.png"),
    include_bytes!("../../../assets/images/room_animal_14.png"),
    include_bytes!("../../../assets/images/room_animal_15.png"),
    include_bytes!("../../../assets/images/room_animal_16.png"),
    include_bytes!("../../../assets/images/room_animal_17.png"),
    include_bytes!("../../../assets/images/room_animal_18.png"),
    include_bytes!("../../../assets/images/room_animal_19.png"),
    include_bytes!("../../../assets/images/room_animal_20.png"),
    include_bytes!("../../../assets/images/room_animal_21.png"),
    include_bytes!("../../../assets/images/room_animal_22.png"),
    include_bytes!("../../../assets/images/room_animal_23.png"),
    include_bytes!("../../../assets/images/room_animal_24.png"),
    include_bytes!("../../../assets/images/room_animal_25.png"),
    include_bytes!("../../../assets/images/room_animal_26.png"),
    include_bytes!("../../../assets/images/room_animal_27.png"),
    include_bytes!("../../../assets/images/room_animal_28.png"),
    include_bytes!("../../../assets/images/room_animal_29.png"),
    include_bytes!("../../../assets/images/room_animal_30.png"),
    include_bytes!("../../../assets/images/room_animal_31.png"),
];
