//! A child's path through the games: the stages each game offers in order (`path`, read from
//! `ron_configs/path.ron`), the stars a finished game earns on its stage (`stars`), and what is
//! kept of each child: their picture and name, their stars, their figures and their diplomas
//! (`child`). Plain Rust: the app keeps and shows it, the tests check it without a window.

pub mod child;
pub mod gate;
pub mod path;
pub mod stars;

pub use child::{
    Child, Counted, Figures, GameEnd, Merge, ProgressError, Reading, StageResult, Transfer, day_text, is_day,
    plan_merge,
};
pub use path::{Goal, Path, Stage, Trail};
pub use stars::{Stars, stars_of};
