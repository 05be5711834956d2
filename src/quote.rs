//! What a message may quote of a file: at most about 80 characters of it, on one line, so a
//! record with a megabyte-long action gives a message a child's screen can show.

/// The most characters of a file a message quotes.
pub const QUOTED: usize = 80;

/// `text` as a message quotes it: control characters shown as spaces, cut to `QUOTED`
/// characters with "…" where it was cut.
pub fn quote(text: &str) -> String {
    let mut quoted: String =
        text.chars().take(QUOTED).map(|c| if c.is_control() { ' ' } else { c }).collect();
    if text.chars().nth(QUOTED).is_some() {
        quoted.push('…');
    }
    quoted
}

/// A whole message that may carry a file's words (a parser's error): cut to a few lines' worth.
pub fn cut_message(message: &str) -> String {
    let mut cut: String = message.chars().take(QUOTED * 3).collect();
    if message.chars().nth(QUOTED * 3).is_some() {
        cut.push('…');
    }
    cut
}
