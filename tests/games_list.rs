//! The list of games against the code: every game `GameKind::ALL` names has what
//! docs/adding-a-game.md says a game brings (its level folder, its demonstration, its coach's
//! data, its words in every language, its trail on the map, a text session), so a sixth game
//! that forgets one of them fails here, naming it.

use tabla::i18n::{self, Language};
use tabla::levels;
use tabla::progress::Path;
use tabla::robot::review::coach_data;
use tabla::rules::GameKind;
use tabla::{demo, text, with_game};

#[test]
fn every_game_has_built_in_levels_in_its_own_folder() {
    let all = levels::builtin();
    for kind in GameKind::ALL {
        let folder = format!("ron_configs/{}/", kind.code());
        let of_kind: Vec<_> = all.iter().filter(|level| level.kind() == kind).collect();
        assert!(!of_kind.is_empty(), "{kind}: no built-in level");
        for level in of_kind {
            assert!(level.file.starts_with(&folder), "{kind}: {} is not in {folder}", level.file);
        }
    }
}

#[test]
fn every_game_shows_a_demonstration_that_plays() {
    for kind in GameKind::ALL {
        let shown = with_game!(kind, G => demo::demo::<G>().map(|demo| demo.map(|d| d.steps.len())));
        let steps = shown.unwrap_or_else(|| panic!("{kind}: no how_to_play.ron")).unwrap();
        assert!(steps > 0, "{kind}: the demonstration shows no move");
    }
}

#[test]
fn every_game_has_its_coach_data() {
    for kind in GameKind::ALL {
        coach_data(kind).unwrap_or_else(|why| panic!("{kind}: {why}"));
    }
}

#[test]
fn every_game_is_named_and_explained_in_every_language() {
    for language in Language::ALL {
        let words = i18n::table(language).unwrap();
        for kind in GameKind::ALL {
            for key in ["game", "blurb", "help_short", "help"] {
                let key = format!("{key}_{}", kind.code());
                assert!(words.contains_key(&key), "{}: no '{key}'", language.code());
            }
        }
    }
}

#[test]
fn every_game_has_a_trail_on_the_map() {
    let path = Path::builtin();
    for kind in GameKind::ALL {
        let trail = path.trails.iter().find(|trail| trail.game == kind);
        assert!(trail.is_some_and(|t| !t.stages.is_empty()), "{kind}: no trail with stages");
    }
}

#[test]
fn every_game_plays_through_the_text_interface() {
    let all = levels::builtin();
    for kind in GameKind::ALL {
        let level = all.iter().find(|level| level.kind() == kind).unwrap();
        let mut session = text::session_for(level, 7);
        let played = session.handle("robot");
        assert_eq!(played["ok"], true, "{kind}: {played}");
        let state = session.handle("state");
        assert_eq!(state["game"], kind.code(), "{kind}: {state}");
    }
}
