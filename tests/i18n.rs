//! Every word in all four languages. The app shows the raw key when no table has a word; these
//! tests make that a failure instead: a key one language has and another lacks, a key the source
//! asks for by name that no table has, and a game on screen without its names, help and variants.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use tabla::i18n::{Language, table};
use tabla::levels;
use tabla::robot::RobotLevel;
use tabla::rules::EndReason;

fn keys(language: Language) -> BTreeSet<String> {
    table(language).unwrap_or_else(|e| panic!("{e}")).into_keys().collect()
}

/// Fails naming every (language, key) that the tables lack.
fn assert_all_languages_have(wanted: &BTreeSet<String>, what: &str) {
    let mut missing = Vec::new();
    for language in Language::ALL {
        let have = keys(language);
        missing.extend(
            wanted.difference(&have).map(|key| format!("i18n/{}.ron lacks \"{key}\"", language.code())),
        );
    }
    assert!(missing.is_empty(), "{what}:\n{}", missing.join("\n"));
}

#[test]
fn a_key_in_one_language_is_in_every_language() {
    let mut missing = Vec::new();
    for from in Language::ALL {
        for to in Language::ALL {
            for key in keys(from).difference(&keys(to)) {
                missing.push(format!(
                    "i18n/{}.ron lacks \"{key}\" (i18n/{}.ron has it)",
                    to.code(),
                    from.code()
                ));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_key_the_source_names_exists() {
    let mut used = BTreeSet::new();
    scan(Path::new("src"), &mut used);
    // The scan must keep finding the words, or this test would pass by finding none.
    assert!(used.len() > 30, "the scan found only {used:?}");
    assert!(used.contains("menu_title") && used.contains("bunnies_stuck"));
    assert_all_languages_have(&used, "keys named in src/");
}

#[test]
fn every_seat_of_the_largest_table_has_a_name() {
    // The panels name a person's seat "player_<n>" when people play each other, up to four seats.
    let seats: BTreeSet<String> = (1..=4).map(|n| format!("player_{n}")).collect();
    assert_all_languages_have(&seats, "seat names");
}

#[test]
fn every_game_on_screen_has_its_words() {
    let games = games_on_screen();
    assert!(!games.is_empty(), "no game found in src/app/games");
    let mut wanted = BTreeSet::new();
    for game in &games {
        for prefix in ["game", "blurb", "help"] {
            wanted.insert(format!("{prefix}_{game}"));
        }
    }
    for (file, source) in levels::BUILTIN {
        let level = levels::parse(file, source).unwrap_or_else(|e| panic!("{e}"));
        if games.contains(level.kind().code()) {
            wanted.insert(format!("variant_{}", level.variant()));
            wanted.insert(format!("about_{}", level.variant()));
        }
    }
    for level in RobotLevel::ALL {
        wanted.insert(format!("level_{level}"));
    }
    let reasons = [
        EndReason::Goal,
        EndReason::NoMoves,
        EndReason::OutOfTime,
        EndReason::NoProgress,
        EndReason::MoveLimit,
        EndReason::Repetition,
        EndReason::Agreement,
    ];
    wanted.extend(reasons.iter().map(|r| format!("reason_{}", r.key())));
    assert_all_languages_have(&wanted, "words of the games on screen");
}

/// The games with a screen: each game view in src/app/games names itself with `const NAME: &'static str = "…"`.
fn games_on_screen() -> BTreeSet<String> {
    // Every game of Tabla's is on screen (tests/games_list.rs checks each has its view).
    tabla::rules::GameKind::ALL.iter().map(|kind| kind.code().to_string()).collect()
}

/// Every Rust file under `dir`: the keys named as string literals in `words.get(…)`,
/// `words.fill(…)`, `words.has(…)` (a literal, or the literals of an `if … else …` argument) and
/// the base key of `game_key(words, "…", …)`.
fn scan(dir: &Path, used: &mut BTreeSet<String>) {
    for entry in fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("a file").path();
        if path.is_dir() {
            scan(&path, used);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let source = fs::read_to_string(&path).expect("a source file");
            keys_in(&source, used);
        }
    }
}

fn keys_in(source: &str, used: &mut BTreeSet<String>) {
    for method in [".get(", ".fill(", ".has("] {
        for (at, _) in source.match_indices(method) {
            if !source[..at].trim_end().ends_with("words") {
                continue;
            }
            let argument = argument(&source[at + method.len()..]);
            if argument.starts_with('"') {
                used.extend(literals(argument).into_iter().take(1));
            } else if argument.starts_with("if ") {
                used.extend(literals(argument));
            }
        }
    }
    for (at, call) in source.match_indices("game_key(") {
        let argument = argument(&source[at + call.len()..]);
        if let Some((_, rest)) = argument.split_once(',')
            && rest.trim_start().starts_with('"')
        {
            used.extend(literals(rest).into_iter().take(1));
        }
    }
}

/// The text of a call's arguments, up to its closing parenthesis.
fn argument(after_open: &str) -> &str {
    let mut depth = 0;
    for (i, c) in after_open.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return after_open[..i].trim(),
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    after_open.trim()
}

/// The string literals in a piece of code, in order.
fn literals(code: &str) -> Vec<String> {
    code.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

#[test]
fn every_reason_the_coach_gives_has_its_words() {
    use tabla::robot::review::Coached;
    let mut wanted = BTreeSet::new();
    let mut add = |game: &str, reasons: &[&str], pieces: &[&str]| {
        for reason in reasons {
            if pieces.is_empty() {
                wanted.insert(format!("coach_{game}_{reason}"));
            }
            wanted.extend(pieces.iter().map(|piece| format!("coach_{game}_{reason}_{piece}")));
        }
    };
    use tabla::rules::{
        bunnies::BunniesAndHorses, circles::Circles, halma::Halma, knight_hunt::KnightHunt, nard::Nard,
    };
    add("circles", Circles::REASONS, Circles::REASON_PIECES);
    add("knight_hunt", KnightHunt::REASONS, KnightHunt::REASON_PIECES);
    add("bunnies", BunniesAndHorses::REASONS, BunniesAndHorses::REASON_PIECES);
    add("halma", Halma::REASONS, Halma::REASON_PIECES);
    add("nard", Nard::REASONS, Nard::REASON_PIECES);
    assert_eq!(wanted.len(), 17);
    assert_all_languages_have(&wanted, "the coach's reasons");
}

/// Keys whose words are never said aloud: the rules in full and the keys (read by a grown-up),
/// the panels' small figures, the grown-ups' page.
const NEVER_SAID: &[&str] = &[
    "help_keys",
    "help_keys_halma",
    "help_keys_nard",
    "help_halma",
    "help_nard",
    "hints_used",
    "nard_cube_owned",
    "nard_match",
    "clear_stars",
    "no_records",
    "progress_exported",
    "progress_imported",
];

#[test]
fn every_key_can_be_said_in_every_language() {
    for language in Language::ALL {
        let words = table(language).unwrap();
        let mut unsayable = Vec::new();
        for (key, text) in &words {
            if key.starts_with("say_") || NEVER_SAID.contains(&key.as_str()) {
                continue;
            }
            let said = words.get(&format!("say_{key}")).unwrap_or(text);
            // Placeholders are filled with words (names, numbers) before anything is said.
            let mut plain = said.clone();
            while let (Some(open), Some(close)) = (plain.find('{'), plain.find('}')) {
                plain.replace_range(open..=close.max(open), "");
            }
            let signs: String = plain.chars().filter(|&c| !tabla::i18n::is_said(c)).collect();
            if !signs.is_empty() || (tabla::i18n::spoken(said).is_empty() && !text.trim().is_empty()) {
                unsayable.push(format!("{}: \"{key}\" has {signs:?} with no say_{key}", language.code()));
            }
        }
        assert!(unsayable.is_empty(), "words a voice cannot say:\n{}", unsayable.join("\n"));
    }
}

/// The names in braces a sentence is filled with (`{to}`, `{by}`, …).
fn placeholders(text: &str) -> BTreeSet<&str> {
    text.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(name, _)| name)).collect()
}

#[test]
fn every_language_fills_a_sentence_with_the_same_names() {
    let english = table(Language::En).unwrap();
    let mut differ = Vec::new();
    for language in Language::ALL {
        for (key, text) in &table(language).unwrap() {
            let Some(wanted) = english.get(key) else { continue };
            if placeholders(text) != placeholders(wanted) {
                differ.push(format!(
                    "{}: \"{key}\" fills {:?}, English {:?}",
                    language.code(),
                    placeholders(text),
                    placeholders(wanted)
                ));
            }
        }
    }
    assert!(differ.is_empty(), "sentences filled differently:\n{}", differ.join("\n"));
}
