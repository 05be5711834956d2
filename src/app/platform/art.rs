//! The pictures, built into the program (so the browser build fetches nothing but the page, save
//! the animals of a room's code, fetched beside it when a room is played): made by
//! tools/make_art.py from free fonts, see assets/LICENSES.md.

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
    /// The animals of a room's code on one sheet, 8 across and 4 down in `net::code::ANIMALS`'
    /// order (`room_animal` cuts one out). The browser fetches it beside the page when a room
    /// first shows it.
    RoomAnimals,
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
        all.push(Art::RoomAnimals);
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
            Art::RoomAnimals => image!("room_animals"),
            #[cfg(target_arch = "wasm32")]
            Art::RoomAnimals => &[],
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

    /// Every picture loaded so far.
    pub fn loaded(&self) -> impl Iterator<Item = (Art, &Handle<Image>)> {
        self.0.iter().map(|(art, handle)| (*art, handle))
    }
}

/// Where an animal of a room's code lies on `Art::RoomAnimals`' sheet (egui's 0 to 1 measure).
pub fn room_animal(index: usize) -> bevy_egui::egui::Rect {
    let (column, row) = ((index % 8) as f32, (index / 8 % 4) as f32);
    bevy_egui::egui::Rect::from_min_size(
        bevy_egui::egui::pos2(column / 8.0, row / 4.0),
        bevy_egui::egui::vec2(1.0 / 8.0, 1.0 / 4.0),
    )
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ArtImages>();
    app.add_systems(PreStartup, load_pictures);
    #[cfg(target_arch = "wasm32")]
    app.add_systems(Update, fetched::take);
}

fn load_pictures(mut images: ResMut<Assets<Image>>, mut art: ResMut<ArtImages>) {
    for picture in Art::all() {
        add_picture(&mut images, &mut art, picture, picture.png());
    }
}

fn add_picture(images: &mut Assets<Image>, art: &mut ArtImages, picture: Art, png: &[u8]) {
    match Image::from_buffer(
        png,
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

/// Asks for a picture the browser fetches beside the page (`Art::RoomAnimals`); it shows once it
/// came. Nothing on the desktop, where every picture is built in.
pub fn want(picture: Art) {
    #[cfg(target_arch = "wasm32")]
    fetched::want(picture);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = picture;
}

/// The pictures a page fetches when first wanted, beside it: `web/build.sh` puts them in
/// `pictures/`, outside the first download.
#[cfg(target_arch = "wasm32")]
mod fetched {
    use super::{Art, ArtImages};
    use bevy::prelude::*;
    use std::cell::RefCell;
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;

    thread_local! {
        static ASKED: RefCell<Vec<Art>> = const { RefCell::new(Vec::new()) };
        static CAME: RefCell<Vec<(Art, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
    }

    pub fn want(picture: Art) {
        let new = ASKED.with(|asked| {
            let mut asked = asked.borrow_mut();
            let new = !asked.contains(&picture);
            if new {
                asked.push(picture);
            }
            new
        });
        if !new {
            return;
        }
        let file = match picture {
            Art::RoomAnimals => "pictures/room_animals.png",
            _ => return,
        };
        wasm_bindgen_futures::spawn_local(async move {
            match fetch(file).await {
                Ok(png) => {
                    CAME.with(|came| came.borrow_mut().push((picture, png)));
                    crate::app::platform::wake::wake_window();
                }
                Err(e) => tracing::warn!("the picture {file} did not come: {e:?}"),
            }
        });
    }

    async fn fetch(file: &str) -> Result<Vec<u8>, JsValue> {
        let window = web_sys::window().ok_or("no window")?;
        let response = JsFuture::from(window.fetch_with_str(file)).await?;
        if !js_sys::Reflect::get(&response, &"ok".into())?.is_truthy() {
            return Err("not found".into());
        }
        let read = js_sys::Reflect::get(&response, &"arrayBuffer".into())?;
        let promise = read.unchecked_ref::<js_sys::Function>().call0(&response)?;
        let buffer = JsFuture::from(js_sys::Promise::from(promise)).await?;
        Ok(js_sys::Uint8Array::new(&buffer).to_vec())
    }

    /// Takes the pictures that came.
    pub fn take(mut images: ResMut<Assets<Image>>, mut art: ResMut<ArtImages>) {
        for (picture, png) in CAME.with(|came| std::mem::take(&mut *came.borrow_mut())) {
            super::add_picture(&mut images, &mut art, picture, &png);
        }
    }
}
