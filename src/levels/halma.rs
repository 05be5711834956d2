//! Halma's level format, and its checks: two to four seats with their camps and goals, partners
//! in the team games, who moves first, when every piece must have left home.

use super::checker::Checker;
use super::{HalmaLevel, LevelError};
use crate::rules::board::Square;
use crate::rules::halma;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHalma {
    variant: String,
    mode: halma::Mode,
    /// One seat a line: its corner, its camp's row lengths, its goal's corner and row lengths.
    seats: Vec<RawHalmaSeat>,
    /// Partners by corner (team modes only).
    partners: Vec<(String, String)>,
    first: String,
    /// After this many of a seat's own moves, every piece must leave its starting camp.
    clear_camp_after: u32,
    #[serde(default)]
    clock_minutes: Vec<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHalmaSeat {
    corner: String,
    camp: Vec<u8>,
    goal: String,
    goal_camp: Vec<u8>,
}

/// The most moves of its own a Halma seat may make before it must clear its starting camp: the
/// rule must come into force in a game that is played, or a piece left at home could keep
/// another army out of its goal for ever.
const MAX_CLEAR_CAMP_AFTER: u32 = 1000;

impl Checker<'_> {
    fn corner(&self, name: &str, line: usize) -> Result<halma::Corner, LevelError> {
        halma::Corner::parse(name).ok_or_else(|| {
            self.error(line, format!("unknown corner \"{name}\" (the corners are a1, p1, p16 and a16)"))
        })
    }

    fn camp_rows(&self, rows: &[u8], line: usize, what: &str) -> Result<(), LevelError> {
        if rows.is_empty() || rows.len() > 16 || rows.iter().any(|&r| r == 0 || r > 16) {
            return Err(self
                .error(line, format!("{what} is 1 to 16 rows of 1 to 16 squares, counted from its corner")));
        }
        Ok(())
    }

    pub(super) fn halma(&self, raw: RawHalma) -> Result<HalmaLevel, LevelError> {
        let seat_line = |nth: usize| self.line_after_field("seats", "corner:", nth);
        if !(2..=4).contains(&raw.seats.len()) {
            return Err(self.error(
                self.line_of_field("seats"),
                format!("Halma is played by 2 to 4 seats, this file has {}", raw.seats.len()),
            ));
        }
        let mut seats = Vec::new();
        let mut taken = crate::rules::grid16::Grid16::EMPTY;
        let mut goals: Vec<Square> = Vec::new();
        for (nth, seat) in raw.seats.iter().enumerate() {
            let line = seat_line(nth);
            let corner = self.corner(&seat.corner, line)?;
            let goal_corner = self.corner(&seat.goal, line)?;
            if seats.iter().any(|s: &halma::SeatSetup| s.corner == corner) {
                return Err(self.error(line, format!("two seats in corner \"{}\"", seat.corner)));
            }
            if goal_corner == corner {
                return Err(self
                    .error(line, format!("the seat at \"{}\" has its goal in its own corner", seat.corner)));
            }
            self.camp_rows(&seat.camp, line, "a camp")?;
            self.camp_rows(&seat.goal_camp, line, "a goal")?;
            let camp = halma::camp_squares(corner, &seat.camp);
            let goal = halma::camp_squares(goal_corner, &seat.goal_camp);
            // Clearing the starting camp forbids ending a move there: a goal in it could never
            // be filled.
            if let Some(square) = goal.iter().find(|s| camp.contains(s)) {
                return Err(self.error(
                    line,
                    format!(
                        "the seat at \"{}\" has its goal over its own camp (on \"{square}\")",
                        seat.corner
                    ),
                ));
            }
            // Two armies can never both fill one square.
            if let Some(square) = goal.iter().find(|&&s| goals.contains(&s)) {
                return Err(self.error(line, format!("two goals overlap on square \"{square}\"")));
            }
            goals.extend(goal.iter().copied());
            if camp.len() != goal.len() {
                return Err(self.error(
                    line,
                    format!(
                        "the seat at \"{}\" has {} pieces but its goal has {} squares",
                        seat.corner,
                        camp.len(),
                        goal.len()
                    ),
                ));
            }
            for square in &camp {
                let index = crate::rules::grid16::index(*square);
                if taken.contains(index) {
                    return Err(
                        self.error(line, format!("two pieces on square \"{square}\": the camps overlap"))
                    );
                }
                taken.insert(index);
            }
            seats.push(halma::SeatSetup {
                corner,
                camp: seat.camp.clone(),
                goal_corner,
                goal: seat.goal_camp.clone(),
            });
        }
        let partners_line = self.line_of_field("partners");
        let mut partners = Vec::new();
        let mut partnered: Vec<halma::Corner> = Vec::new();
        for (a, b) in &raw.partners {
            let (a, b) = (self.corner(a, partners_line)?, self.corner(b, partners_line)?);
            for c in [a, b] {
                if !seats.iter().any(|s| s.corner == c) {
                    return Err(self.error(
                        partners_line,
                        format!("no seat in corner \"{}\" to be a partner", c.name()),
                    ));
                }
                if partnered.contains(&c) {
                    return Err(
                        self.error(partners_line, format!("the seat at \"{}\" has two partners", c.name()))
                    );
                }
                partnered.push(c);
            }
            partners.push((a, b));
        }
        match raw.mode {
            halma::Mode::Individual if !partners.is_empty() => {
                return Err(
                    self.error(partners_line, "individual play has no partners (partners: [])".into())
                );
            }
            halma::Mode::OneArmy | halma::Mode::BothArmies if seats.len() != 4 || partnered.len() != 4 => {
                return Err(
                    self.error(partners_line, "a team game needs four seats in two pairs of partners".into())
                );
            }
            _ => {}
        }
        let first_line = self.line_of_field("first");
        let first = self.corner(&raw.first, first_line)?;
        if !seats.iter().any(|s| s.corner == first) {
            return Err(self.error(first_line, format!("no seat in corner \"{}\" to move first", raw.first)));
        }
        if !(1..=MAX_CLEAR_CAMP_AFTER).contains(&raw.clear_camp_after) {
            return Err(self.error(
                self.line_of_field("clear_camp_after"),
                format!(
                    "clear_camp_after is 1 to {MAX_CLEAR_CAMP_AFTER} moves (after them every piece must leave home), not {}",
                    raw.clear_camp_after
                ),
            ));
        }
        seats.sort_by_key(|s| s.corner);
        Ok(HalmaLevel {
            variant: raw.variant,
            setup: halma::Setup {
                seats,
                mode: raw.mode,
                partners,
                first,
                clear_camp_after: raw.clear_camp_after,
            },
            clock_minutes: self.clock_minutes(raw.clock_minutes)?,
        })
    }
}
