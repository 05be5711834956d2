//! The game screen with a game of its own making: a dice race for 2 to 4 seats whose action is not
//! a chess move (a roll or a step). It shows what the three games on screen cannot: the Robot
//! rolling dice through the history, a person's Roll button, seats counted up to four, pieces
//! stacked on one place with exactly the moving one gliding, paths shown and followed, a zone
//! beyond the grid that is a place like any other, and the view turned, zoomed and panned while
//! the game stays as it was.
use crate::common;

use bevy::prelude::*;
use serde_json::{Map, Value, json};
use tabla::app::board::covered::Covers;
use tabla::app::board::input::{BoardDrop, BoardPress};
use tabla::app::board::view::{BoardLayout, BoardView, PieceView, ViewCommand};
use tabla::app::course::catalog;
use tabla::app::course::turn::{GameCommand, SetControls};
use tabla::app::panels::scoreboard::ScoreBoard;
use tabla::app::platform::art::Art;
use tabla::app::session::game::{BoardAction, GameInfo, GameView};
use tabla::app::session::play::{Play, Playing};
use tabla::app::{Control, Opponent};
use tabla::levels::{FromLevel, Level, LevelGame};
use tabla::robot::review::{CoachData, Coached, Rater, Rating};
use tabla::robot::{RobotLevel, RobotPlayer, Thinker};
use tabla::rules::board::{BoardShape, Move, Square};
use tabla::rules::{EndReason, Game, GameKind, Outcome, RuleError, Seat};

const FINISH: u8 = 7;
/// The finish: a zone beyond the track's squares, where the winner's piece stands.
const HOME: Square = Square::new(FINISH, 0);
const HOME_AT: Vec2 = Vec2::new(FINISH as f32 - 0.5, 2.0);

/// Every seat's piece runs along one row from a1 to h1, so pieces share places (a stack at the
/// start); a turn is a roll of one die (1 or 2) and then a step of that many squares, passing
/// through each.
#[derive(Clone, Debug, PartialEq)]
struct DiceRace {
    files: Vec<u8>,
    to_move: Seat,
    die: Option<u8>,
    outcome: Option<Outcome>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum RaceAction {
    Roll(u8),
    Step(Move),
}

impl BoardAction for RaceAction {
    fn motion(&self) -> Option<Move> {
        match self {
            RaceAction::Roll(_) => None,
            RaceAction::Step(step) => Some(*step),
        }
    }
    fn path(&self) -> Vec<Square> {
        match self {
            RaceAction::Roll(_) => Vec::new(),
            RaceAction::Step(step) => {
                (step.from.file + 1..=step.to.file).map(|f| Square::new(f, 0)).collect()
            }
        }
    }
}

impl DiceRace {
    fn new(seats: usize) -> DiceRace {
        DiceRace { files: vec![0; seats], to_move: Seat(0), die: None, outcome: None }
    }

    fn square(&self, seat: Seat) -> Square {
        Square::new(self.files[seat.index()], 0)
    }
}

impl Game for DiceRace {
    type Action = RaceAction;
    const KIND: GameKind = GameKind::Nard;

    fn seat_count(&self) -> usize {
        self.files.len()
    }
    fn to_move(&self) -> Option<Seat> {
        self.outcome.is_none().then_some(self.to_move)
    }
    fn legal_actions(&self) -> Vec<RaceAction> {
        match (self.outcome, self.die) {
            (Some(_), _) => Vec::new(),
            (None, None) => vec![RaceAction::Roll(1), RaceAction::Roll(2)],
            (None, Some(die)) => {
                let from = self.square(self.to_move);
                let to = Square::new((from.file + die).min(FINISH), from.rank);
                vec![RaceAction::Step(Move::new(from, to))]
            }
        }
    }
    fn play(&mut self, action: &RaceAction) {
        match action {
            RaceAction::Roll(n) => self.die = Some(*n),
            RaceAction::Step(step) => {
                self.files[self.to_move.index()] = step.to.file;
                self.die = None;
                if step.to.file == FINISH {
                    self.outcome = Some(Outcome::win(self.to_move, EndReason::Goal));
                }
                self.to_move = self.to_move.next(self.seat_count());
            }
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    fn time_out(&mut self, seat: Seat) {
        self.outcome = Some(Outcome::win(seat.next(self.seat_count()), EndReason::OutOfTime));
    }
    fn chance(&self) -> Option<Vec<(RaceAction, f64)>> {
        (self.outcome.is_none() && self.die.is_none())
            .then(|| vec![(RaceAction::Roll(1), 0.5), (RaceAction::Roll(2), 0.5)])
    }
    fn seat_name(&self, seat: Seat) -> &'static str {
        ["red", "green", "blue", "yellow"][seat.index()]
    }
    fn action_text(&self, action: &RaceAction) -> String {
        format!("{action:?}")
    }
    fn parse_action(&self, text: &str) -> Result<RaceAction, RuleError> {
        Err(RuleError::Unreadable(text.to_string()))
    }
    fn state_fields(&self) -> Map<String, Value> {
        let mut fields = Map::new();
        fields.insert("files".into(), json!(self.files));
        fields
    }
}

/// The Robot of the race has nothing to think about: it takes the one step.
struct TakeFirst(RaceAction);

impl Thinker<DiceRace> for TakeFirst {
    fn nodes(&self) -> u64 {
        1
    }

    fn step(&mut self, _nodes: u64) -> Option<RaceAction> {
        Some(self.0)
    }
}

impl RobotPlayer for DiceRace {
    fn thinker(&self, _level: RobotLevel, _seed: u64) -> Box<dyn Thinker<Self>> {
        Box::new(TakeFirst(self.legal_actions()[0]))
    }
}

/// The coach finds every move of the race as good as any: there is nothing to choose.
impl Coached for DiceRace {
    const REASONS: &'static [&'static str] = &[];

    fn rater(&self, played: &[RaceAction], _data: CoachData) -> Box<dyn Rater<Self>> {
        Box::new(NoLoss(played.to_vec()))
    }

    fn why(&self, _played: &[RaceAction], _best: &[RaceAction]) -> Option<&'static str> {
        None
    }
}

struct NoLoss(Vec<RaceAction>);

impl Rater<DiceRace> for NoLoss {
    fn step(&mut self, _nodes: u64) -> Option<Rating<RaceAction>> {
        Some(Rating { best: self.0.clone(), loss: 0.0, margin: 0.0 })
    }
}

/// The race borrows the Crazy Nard level files (the game screen's test app has no Crazy Nard of its own):
/// the one point match is a race of two, the three point match of three, any other of four.
impl FromLevel for DiceRace {
    fn from_level(level: &Level) -> Option<DiceRace> {
        let LevelGame::Nard(nard) = &level.game else { return None };
        Some(DiceRace::new(match nard.variant.as_str() {
            "one_point" => 2,
            "three_points" => 3,
            _ => 4,
        }))
    }
}

impl GameInfo for DiceRace {
    const MENU_ART: Art = Art::Star;
    const STAGE_ART: Art = Art::Star;

    fn score(&self, seat: Seat) -> u32 {
        self.files[seat.index()] as u32
    }
}

impl GameView for DiceRace {
    const HAS_TRAYS: bool = false;
    /// The track's squares; the finish is a zone beyond them.
    fn shape(&self) -> BoardShape {
        BoardShape { files: FINISH, ranks: 1 }
    }

    fn zones(&self) -> Vec<Square> {
        vec![HOME]
    }

    fn stack_step(&self) -> Vec2 {
        Vec2::new(0.0, 0.2)
    }

    /// The track zigzags: odd places stand half a square higher; the finish stands above its end.
    fn place_at(&self, square: Square) -> Vec2 {
        if square == HOME {
            return HOME_AT;
        }
        Vec2::new(square.file as f32, (square.file % 2) as f32 * 0.5)
    }

    fn pieces(&self) -> Vec<(Square, Art)> {
        Seat::all(self.seat_count()).map(|s| (self.square(s), Art::WhitePawn)).collect()
    }

    fn tray(&self, _seat: Seat) -> Vec<Art> {
        Vec::new()
    }

    fn movable(&self, square: Square) -> bool {
        self.to_move().is_some_and(|s| self.square(s) == square)
    }
}

fn race_app(variant: &str, opponent: Opponent) -> App {
    let setup = common::setup(&format!("nard/{variant}"), opponent, Seat(0), RobotLevel::One);
    common::headless_kit(setup, &format!("kit-{variant}"), 5, catalog::add_game::<DiceRace>)
}

fn race(app: &App) -> DiceRace {
    app.world().resource::<Play>().of::<DiceRace>().game().clone()
}

fn piece_squares(app: &mut App) -> Vec<Square> {
    let mut query = app.world_mut().query::<&PieceView>();
    let mut squares: Vec<Square> = query.iter(app.world()).map(|v| v.square).collect();
    squares.sort_by_key(|s| s.file);
    squares
}

#[test]
fn robots_roll_their_dice_through_the_history_and_race_to_the_end() {
    let mut app = race_app("crazy", Opponent::Robot);
    app.world_mut().write_message(SetControls(vec![Control::Robot(RobotLevel::One); 4]));
    let mut frames = 0;
    while race(&app).outcome().is_none() {
        app.update();
        frames += 1;
        assert!(frames < 2_000, "the Robots stood still at {:?}", race(&app));
    }
    for _ in 0..40 {
        app.update();
    }
    let game = race(&app);
    let play = app.world().resource::<Play>().of::<DiceRace>();
    // Every turn is a roll and a step, so the history holds both.
    assert!(play.moves_played() >= 2 * 4, "{} actions", play.moves_played());
    let mut expected: Vec<Square> = Seat::all(4).map(|s| game.square(s)).collect();
    expected.sort_by_key(|s| s.file);
    assert_eq!(piece_squares(&mut app), expected);
    let board = app.world().resource::<ScoreBoard>().clone();
    assert_eq!(board.seats.len(), 4, "one panel per seat");
    assert!(board.result.is_some());
}

#[test]
fn the_same_seed_rolls_the_same_race() {
    let finish = || {
        let mut app = race_app("three_points", Opponent::Robot);
        app.world_mut().write_message(SetControls(vec![Control::Robot(RobotLevel::One); 3]));
        while race(&app).outcome().is_none() {
            app.update();
        }
        race(&app)
    };
    let (first, second) = (finish(), finish());
    assert_eq!(first, second);
    assert_eq!(first.seat_count(), 3);
}

#[test]
fn a_person_rolls_with_the_roll_button_then_moves_their_piece() {
    let mut app = race_app("crazy", Opponent::Robot);
    let controls = app.world().resource::<Play>().of::<DiceRace>().controls().to_vec();
    let robot = Control::Robot(RobotLevel::One);
    assert_eq!(
        controls,
        vec![Control::Person, robot, robot, robot],
        "a control per seat, the person's first"
    );
    app.update();
    assert!(app.world().resource::<ScoreBoard>().can_roll, "the Roll button shows on the person's turn");
    // A tap on the piece before the roll does nothing.
    let start = race(&app).square(Seat(0));
    app.world_mut().write_message(BoardPress(start));
    app.update();
    assert_eq!(race(&app), DiceRace::new(4));

    app.world_mut().write_message(GameCommand::Roll);
    app.update();
    let die = race(&app).die.expect("the dice were rolled");
    assert!(!app.world().resource::<ScoreBoard>().can_roll);
    app.world_mut().write_message(BoardPress(start));
    app.update();
    app.world_mut().write_message(BoardPress(Square::new(die, 0)));
    app.update();
    assert_eq!(race(&app).files[0], die, "the piece stepped as far as the die said");
    // The three Robots now roll and step by themselves, and the turn comes back.
    for _ in 0..200 {
        app.update();
        if race(&app).to_move() == Some(Seat(0)) {
            break;
        }
    }
    assert_eq!(race(&app).to_move(), Some(Seat(0)));
    assert!(race(&app).files[1..].iter().all(|&f| f > 0), "every Robot moved: {:?}", race(&app).files);
}

#[test]
fn the_clock_and_the_robot_wait_while_the_board_is_covered() {
    let mut app = race_app("one_point", Opponent::Robot);
    app.world_mut().write_message(SetControls(vec![Control::Robot(RobotLevel::One); 2]));
    app.world_mut().resource_mut::<Covers>().settings = true;
    for _ in 0..50 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<Play>().of::<DiceRace>().moves_played(),
        0,
        "nothing moved under the help"
    );
    app.world_mut().resource_mut::<Covers>().settings = false;
    for _ in 0..10 {
        app.update();
    }
    assert!(
        app.world().resource::<Play>().of::<DiceRace>().moves_played() > 0,
        "the Robots go on once it closes"
    );
}

#[test]
fn the_view_turns_zooms_and_pans_while_the_game_stays() {
    let mut app = race_app("crazy", Opponent::Friend);
    let before = race(&app);
    let piece_at = |app: &mut App, square: Square| {
        let mut query = app.world_mut().query::<(&PieceView, &Transform)>();
        query
            .iter(app.world())
            .find(|(v, _)| v.square == square)
            .map(|(_, t)| t.translation.truncate())
            .unwrap()
    };
    let red = before.square(Seat(0));
    let straight = piece_at(&mut app, red);

    app.world_mut().write_message(ViewCommand::Turn);
    for _ in 0..40 {
        app.update();
    }
    assert_eq!(app.world().resource::<BoardLayout>().turns, 1);
    let turned = piece_at(&mut app, red);
    assert!(
        (turned - Vec2::new(-straight.y, straight.x)).length() < 1e-3,
        "a quarter turn: {straight} to {turned}"
    );
    // Four turns bring the board back.
    for _ in 0..3 {
        app.world_mut().write_message(ViewCommand::Turn);
    }
    for _ in 0..40 {
        app.update();
    }
    assert!((piece_at(&mut app, red) - straight).length() < 1e-3);

    app.world_mut().write_message(ViewCommand::Zoom { factor: 2.0, around: None });
    app.update();
    app.world_mut().write_message(ViewCommand::Pan(Vec2::new(30.0, 10.0)));
    app.update();
    let view = *app.world().resource::<BoardView>();
    assert_eq!(view.zoom, 2.0);
    assert_eq!(view.pan, Vec2::new(30.0, -10.0), "pointer pixels run down, the view's up");
    app.world_mut().write_message(ViewCommand::Zoom { factor: 100.0, around: None });
    app.update();
    assert_eq!(app.world().resource::<BoardView>().zoom, tabla::app::board::view::MAX_ZOOM);
    app.world_mut().write_message(ViewCommand::Fit);
    app.update();
    assert_eq!(*app.world().resource::<BoardView>(), BoardView::default());
    assert_eq!(race(&app), before, "the view never touched the game");
}

#[test]
fn out_of_a_stack_exactly_the_top_piece_glides_along_its_path() {
    let mut app = race_app("crazy", Opponent::Friend);
    let start = Square::new(0, 0);
    let stack = |app: &mut App| {
        let mut query = app.world_mut().query::<(Entity, &PieceView, &Transform)>();
        let mut found: Vec<(Entity, PieceView, Vec3)> =
            query.iter(app.world()).map(|(e, v, t)| (e, *v, t.translation)).collect();
        found.sort_by_key(|(_, v, _)| (v.square.file, v.level));
        found
    };
    let before = stack(&mut app);
    let levels: Vec<usize> = before.iter().map(|(_, v, _)| v.level).collect();
    assert_eq!(levels, vec![0, 1, 2, 3], "four pieces stacked on a1");
    assert!(before.windows(2).all(|w| w[1].2.y > w[0].2.y), "a stack is drawn with an offset");

    app.world_mut().write_message(GameCommand::Roll);
    app.update();
    let die = race(&app).die.unwrap();
    app.world_mut().write_message(BoardPress(start));
    app.update();
    // The path's places are marked: small dots on the way, the full mark at its end.
    let mut marks = app.world_mut().query_filtered::<&Sprite, With<tabla::app::board::view::Mark>>();
    let sizes: Vec<f32> = marks.iter(app.world()).map(|s| s.custom_size.unwrap().x).collect();
    assert_eq!(sizes.len(), 1 + die as usize, "the selected ring and one mark per place of the path");
    assert_eq!(sizes.iter().filter(|&&s| s < 1.0).count(), die as usize - 1, "dots on the way");

    app.world_mut().write_message(BoardPress(Square::new(die, 0)));
    app.update();
    let (top, _, _) = before[3];
    let glide =
        app.world().get::<tabla::app::board::animate::Glide>(top).expect("the top piece glides").clone();
    let mut hops = 1;
    let mut next = glide.next.as_deref();
    while let Some(hop) = next {
        hops += 1;
        next = hop.next.as_deref();
    }
    assert_eq!(hops, die as usize, "one hop per place of the path");
    for _ in 0..40 {
        app.update();
    }
    let after = stack(&mut app);
    let moved: Vec<Entity> = after.iter().filter(|(_, v, _)| v.square != start).map(|(e, _, _)| *e).collect();
    assert_eq!(moved, vec![top], "exactly the top piece left the stack");
    for (entity, view, at) in &after[..3] {
        let was = before.iter().find(|(e, _, _)| e == entity).unwrap();
        assert_eq!((view.level, *at), (was.1.level, was.2), "the others stayed as they were");
    }
}

#[test]
fn places_stand_where_the_game_puts_them() {
    let mut app = race_app("one_point", Opponent::Friend);
    let layout = app.world().resource::<BoardLayout>().clone();
    let game = race(&app);
    let mut cells = app.world_mut().query::<(&tabla::app::board::view::Cell, &Transform)>();
    let placed: Vec<(Square, Vec2)> =
        cells.iter(app.world()).map(|(c, t)| (c.0, t.translation.truncate())).collect();
    assert_eq!(placed.len(), (FINISH + 1) as usize);
    for (square, at) in placed {
        assert_eq!(at, layout.local_point(game.place_at(square)), "{square} stands where the game put it");
    }
    // A piece that steps to an odd place stands half a square higher than one on an even place.
    app.world_mut().write_message(GameCommand::Roll);
    app.update();
    let die = race(&app).die.unwrap();
    app.world_mut().write_message(BoardPress(Square::new(0, 0)));
    app.update();
    app.world_mut().write_message(BoardPress(Square::new(die, 0)));
    for _ in 0..40 {
        app.update();
    }
    let mut pieces = app.world_mut().query::<(&PieceView, &Transform)>();
    let moved =
        pieces.iter(app.world()).find(|(v, _)| v.square.file == die).map(|(_, t)| t.translation).unwrap();
    let expected = layout.local_point(game.place_at(Square::new(die, 0)));
    assert!((moved.truncate() - expected).length() < 1e-3, "{moved} on {expected}");
}

#[test]
fn a_zone_beyond_the_grid_is_a_place_to_drop_on_and_stand_on() {
    let mut app = race_app("one_point", Opponent::Friend);
    let layout = app.world().resource::<BoardLayout>().clone();
    let mut cells = app.world_mut().query::<(&tabla::app::board::view::Cell, &Transform)>();
    let home_cell = cells.iter(app.world()).find(|(c, _)| c.0 == HOME).map(|(_, t)| t.translation.truncate());
    let home_at = layout.local_point(HOME_AT);
    assert_eq!(home_cell, Some(home_at), "the zone has a cell where the game put it");
    assert!(home_at.y > 0.5, "above the track's one row");
    assert!(layout.extent().y >= 2.0 * home_at.y + 1.0, "the board's fit makes room for the zone");

    // Race to the end, by taps; the last step is a drag onto the zone.
    while race(&app).outcome().is_none() {
        app.world_mut().write_message(GameCommand::Roll);
        app.update();
        let Some(RaceAction::Step(step)) = race(&app).legal_actions().first().copied() else {
            panic!("a step after the roll")
        };
        if step.to == HOME {
            app.world_mut().write_message(BoardDrop { from: step.from, to: Some(HOME) });
        } else {
            app.world_mut().write_message(BoardPress(step.from));
            app.update();
            app.world_mut().write_message(BoardPress(step.to));
        }
        app.update();
    }
    for _ in 0..40 {
        app.update();
    }
    let mut pieces = app.world_mut().query::<(&PieceView, &Transform)>();
    let at_home: Vec<Vec3> =
        pieces.iter(app.world()).filter(|(v, _)| v.square == HOME).map(|(_, t)| t.translation).collect();
    assert_eq!(at_home.len(), 1, "the winner's piece stands in the zone");
    assert!((at_home[0] - layout.piece_position(HOME, 0)).length() < 1e-3);
}

/// The board's room shrinks as soon as a panel grows, and does not grow back when the panel
/// shrinks again (the board would move under the finger), unless the screen changes size; a
/// panel's one odd frame does not shrink it for good.
#[test]
fn the_boards_room_keeps_to_the_largest_panels_of_the_game() {
    use tabla::app::board::view::SteadyRoom;
    let phone = Vec2::new(360.0, 640.0);
    let mut room = SteadyRoom::default();
    assert_eq!(room.keep(phone, 90.0, 450.0), (90.0, 450.0));
    // One odd frame: this frame's edges are used, but then forgotten.
    assert_eq!(room.keep(phone, 90.0, 200.0), (90.0, 200.0));
    assert_eq!(room.keep(phone, 90.0, 450.0), (90.0, 450.0));
    // A previewed move's buttons and a longer message, for a while: the room shrinks and stays so.
    assert_eq!(room.keep(phone, 96.0, 370.0), (96.0, 370.0));
    assert_eq!(room.keep(phone, 96.0, 370.0), (96.0, 370.0));
    assert_eq!(room.keep(phone, 90.0, 450.0), (96.0, 370.0));
    assert_eq!(room.keep(phone, 90.0, 450.0), (96.0, 370.0));
    // A panel that grows further still takes its room at once.
    assert_eq!(room.keep(phone, 90.0, 330.0), (96.0, 330.0));
    // The phone turned: the room starts again from the panels of the new screen.
    let turned = Vec2::new(640.0, 360.0);
    assert_eq!(room.keep(turned, 60.0, 300.0), (60.0, 300.0));
    assert_eq!(room.keep(turned, 60.0, 300.0), (60.0, 300.0));
}
