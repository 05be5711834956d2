//! The app's words in Romanian, English, Italian and Greek. Each language is a RON map in
//! `i18n/<code>.ron`, built into the program; a missing word falls back to English.

use std::collections::BTreeMap;

#[derive(
    Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Language {
    Ro,
    #[default]
    En,
    It,
    El,
}

impl Language {
    pub const ALL: [Language; 4] = [Language::Ro, Language::En, Language::It, Language::El];

    pub fn code(self) -> &'static str {
        match self {
            Language::Ro => "ro",
            Language::En => "en",
            Language::It => "it",
            Language::El => "el",
        }
    }

    /// The language's own name, as its speakers write it.
    pub fn native_name(self) -> &'static str {
        match self {
            Language::Ro => "Română",
            Language::En => "English",
            Language::It => "Italiano",
            Language::El => "Ελληνικά",
        }
    }

    /// The language of a locale such as "ro-RO", "el_GR.UTF-8" or "it"; English otherwise.
    pub fn from_locale(locale: &str) -> Language {
        let code = locale.get(..2).unwrap_or("").to_ascii_lowercase();
        Language::ALL.into_iter().find(|l| l.code() == code).unwrap_or(Language::En)
    }

    /// The words of rooms with someone far away.
    fn far_source(self) -> &'static str {
        match self {
            Language::Ro => include_str!("../i18n/far/ro.ron"),
            Language::En => include_str!("../i18n/far/en.ron"),
            Language::It => include_str!("../i18n/far/it.ron"),
            Language::El => include_str!("../i18n/far/el.ron"),
        }
    }

    fn source(self) -> &'static str {
        match self {
            Language::Ro => include_str!("../i18n/ro.ron"),
            Language::En => include_str!("../i18n/en.ron"),
            Language::It => include_str!("../i18n/it.ron"),
            Language::El => include_str!("../i18n/el.ron"),
        }
    }
}

/// One language's table, with English behind it.
#[derive(Clone, Debug)]
pub struct Strings {
    pub language: Language,
    words: BTreeMap<String, String>,
    english: BTreeMap<String, String>,
}

/// Reads a language's table; a broken table is reported with its line. The words of playing
/// with someone far away (`i18n/far/`) are in it too.
pub fn table(language: Language) -> Result<BTreeMap<String, String>, String> {
    let read = |file: &str, text: &str| {
        ron::from_str::<BTreeMap<String, String>>(text)
            .map_err(|e| format!("{file}:{}: {}", e.span.start.line, e.code))
    };
    let mut words = read(&format!("i18n/{}.ron", language.code()), language.source())?;
    words.extend(read(&format!("i18n/far/{}.ron", language.code()), language.far_source())?);
    Ok(words)
}

impl Strings {
    pub fn new(language: Language) -> Strings {
        let english = table(Language::En).unwrap_or_default();
        let words = table(language).unwrap_or_else(|_| english.clone());
        Strings { language, words, english }
    }

    /// The text for a key; the key itself if no language has it.
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        self.words.get(key).or_else(|| self.english.get(key)).map(String::as_str).unwrap_or(key)
    }

    /// The text for a key with `{name}` places filled in.
    pub fn fill(&self, key: &str, values: &[(&str, &str)]) -> String {
        let mut text = self.get(key).to_string();
        for (name, value) in values {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        text
    }

    pub fn has(&self, key: &str) -> bool {
        self.words.contains_key(key) || self.english.contains_key(key)
    }
}

/// The words as they are said: no pictures, arrows, stars or other signs, nor the spaces they
/// leave; letters of every language, digits and the marks a voice pauses at stay.
pub fn spoken(text: &str) -> String {
    let kept: String = text.chars().map(|c| if is_said(c) { c } else { ' ' }).collect();
    let words: Vec<&str> = kept.split_whitespace().collect();
    let joined = words.join(" ");
    // A slash stands between two numbers ("3 / 9"); alone it is a sign.
    joined.trim_matches(|c: char| "-–/,;:".contains(c) || c.is_whitespace()).to_string()
}

/// The marks a voice reads as a pause or a tone (Greek's question mark and upper stop among them).
pub const SPOKEN_MARKS: &str = ".,;:!?'’\"()%-–…/·\u{0387}„”“«»";

/// Whether a character is said (a letter of any language, a digit, a space, a mark a voice
/// pauses at), or left out as a sign (arrows, stars, pictures).
pub fn is_said(c: char) -> bool {
    c.is_alphanumeric() || c.is_whitespace() || SPOKEN_MARKS.contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places(text: &str) -> Vec<&str> {
        let mut found: Vec<&str> =
            text.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(name, _)| name)).collect();
        found.sort();
        found
    }

    #[test]
    fn every_language_has_every_word_with_the_same_places() {
        let english = table(Language::En).unwrap();
        for language in Language::ALL {
            let words = table(language).unwrap_or_else(|e| panic!("{e}"));
            let missing: Vec<&String> = english.keys().filter(|k| !words.contains_key(*k)).collect();
            let extra: Vec<&String> = words.keys().filter(|k| !english.contains_key(*k)).collect();
            assert!(missing.is_empty(), "{} lacks {missing:?}", language.code());
            assert!(extra.is_empty(), "{} has unknown keys {extra:?}", language.code());
            for (key, text) in &words {
                assert!(!text.trim().is_empty(), "{}: {key} is empty", language.code());
                assert_eq!(places(text), places(&english[key]), "{}: {key}", language.code());
            }
        }
    }

    #[test]
    fn romanian_and_greek_use_their_own_letters() {
        let ro = Strings::new(Language::Ro);
        assert!(ro.get("game_knight_hunt").contains('ă') || ro.get("game_knight_hunt").contains('â'));
        let el = Strings::new(Language::El);
        assert!(el.get("menu_title").chars().any(|c| ('\u{0370}'..='\u{03ff}').contains(&c)));
    }

    #[test]
    fn fill_puts_values_in_their_places() {
        let en = Strings::new(Language::En);
        assert_eq!(en.fill("clock_minutes", &[("n", "5")]), "5 min");
        assert_eq!(en.get("no.such.key"), "no.such.key");
    }

    #[test]
    fn locales_pick_their_language() {
        assert_eq!(Language::from_locale("ro_RO.UTF-8"), Language::Ro);
        assert_eq!(Language::from_locale("el-GR"), Language::El);
        assert_eq!(Language::from_locale("it"), Language::It);
        assert_eq!(Language::from_locale("de-DE"), Language::En);
        assert_eq!(Language::from_locale(""), Language::En);
    }
}
