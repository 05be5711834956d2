//! The shipped fonts are cut down to what Tabla writes (tools/subset_fonts.sh): every character of
//! the string tables and of the app's own strings must have a glyph in both of them.

use std::fs;
use std::path::Path;

fn read_u16(data: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([data[at], data[at + 1]])
}

fn read_u32(data: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]])
}

/// The font's character map for the Basic Multilingual Plane (the Windows Unicode, format 4 one).
struct CharMap<'a> {
    data: &'a [u8],
    /// Where the format 4 subtable starts.
    at: usize,
}

impl<'a> CharMap<'a> {
    fn of(font: &'a [u8]) -> CharMap<'a> {
        let tables = read_u16(font, 4) as usize;
        let cmap = (0..tables)
            .map(|i| 12 + 16 * i)
            .find(|&record| &font[record..record + 4] == b"cmap")
            .map(|record| read_u32(font, record + 8) as usize)
            .expect("the font has a cmap table");
        let encodings = read_u16(font, cmap + 2) as usize;
        let at = (0..encodings)
            .map(|i| cmap + 4 + 8 * i)
            .filter(|&record| read_u16(font, record) == 3 && read_u16(font, record + 2) == 1)
            .map(|record| cmap + read_u32(font, record + 4) as usize)
            .find(|&table| read_u16(font, table) == 4)
            .expect("the font maps Unicode with a format 4 table");
        CharMap { data: font, at }
    }

    fn has(&self, c: char) -> bool {
        let code = c as u32;
        if code > 0xFFFF {
            return false;
        }
        let (data, at) = (self.data, self.at);
        let segments = read_u16(data, at + 6) as usize / 2;
        let ends = at + 14;
        let starts = ends + 2 * segments + 2;
        let deltas = starts + 2 * segments;
        let range_offsets = deltas + 2 * segments;
        for s in 0..segments {
            let end = read_u16(data, ends + 2 * s) as u32;
            let start = read_u16(data, starts + 2 * s) as u32;
            if code > end {
                continue;
            }
            if code < start {
                return false;
            }
            let delta = read_u16(data, deltas + 2 * s) as u32;
            let range_offset = read_u16(data, range_offsets + 2 * s) as usize;
            let glyph = if range_offset == 0 {
                (code + delta) & 0xFFFF
            } else {
                let slot = range_offsets + 2 * s + range_offset + 2 * (code - start) as usize;
                match read_u16(data, slot) as u32 {
                    0 => 0,
                    index => (index + delta) & 0xFFFF,
                }
            };
            return glyph != 0;
        }
        false
    }
}

/// The characters inside the double-quoted strings of Rust or RON source (comments left out).
fn quoted_chars(source: &str, out: &mut Vec<char>) {
    for line in source.lines() {
        let mut in_string = false;
        let mut escaped = false;
        let mut previous = ' ';
        for c in line.chars() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_string = false;
                } else {
                    out.push(c);
                }
            } else if c == '"' {
                in_string = true;
            } else if c == '/' && previous == '/' {
                break;
            }
            previous = c;
        }
    }
}

fn sources(dir: &Path, ext: &str, out: &mut Vec<String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(fs::read_to_string(&path).unwrap());
        }
    }
}

#[test]
fn every_written_character_has_a_glyph_in_both_fonts() {
    let mut texts = Vec::new();
    sources(Path::new("i18n"), "ron", &mut texts);
    sources(Path::new("src/app"), "rs", &mut texts);
    let mut written: Vec<char> = (' '..='~').collect();
    for text in &texts {
        quoted_chars(text, &mut written);
    }
    written.sort();
    written.dedup();
    assert!(written.contains(&'ș') && written.contains(&'λ'), "the string tables were read");
    for font in ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"] {
        let data = fs::read(Path::new("assets/fonts").join(font)).unwrap();
        let map = CharMap::of(&data);
        let missing: String = written.iter().filter(|&&c| !c.is_control() && !map.has(c)).collect();
        assert!(missing.is_empty(), "{font} has no glyph for {missing:?}");
        assert!(!map.has('\u{4E00}'), "{font} is cut down (no CJK)");
    }
}
