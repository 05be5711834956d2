//! The game being played, whatever the game: what a game brings to the screen (`game`: the traits
//! its view file implements) and how the rest sees any game (`shown`); the session (`play`,
//! holding a `play_of::PlayOf` of the game's own type) with its history, seats and drafts; the
//! review of its moves (`coach`); what it tells a child (`feedback`: messages, marks, sounds);
//! the screens' states (`screen`).

pub mod coach;
pub mod feedback;
pub mod game;
pub mod play;
pub mod play_of;
pub mod screen;
pub mod shown;

pub use screen::Screen;
