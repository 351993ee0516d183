//! Text from files made safe to show: control characters escaped, long text cut short.
//!
//! Titles, names, orders, case names and file names come from files the user did not
//! necessarily write. Printed as they are, an ESC sequence in a title clears the screen or
//! retitles the terminal, a NUL or BEL reaches it, and a one-megabyte token quoted in an error
//! is a megabyte of output. Everything the program prints goes through these functions:
//!
//! - [`one_line`]: a field that is one line (a title, a name, an order): every control
//!   character escaped, line ends included.
//! - [`multi_line`]: text that may span lines (a description, a whole report): every control
//!   character escaped except line feed and tab.
//! - [`quoted`]: user text quoted in a message, `"…"`, escaped and cut to its first
//!   [`SHOWN`] characters with its length when long.
//! - [`cut`]: the same without the quotes (for text shown between backticks).
//! - [`cut_after`]: the same cut after any number of characters, not escaped (for text that is
//!   drawn, not printed: the terminal UI's).
//! - [`slug`]: a name made of a text for a file name (`convoy-paradox`).
//! - [`count`]: a count with its noun, singular or plural (`1 case`, `3 cases`).
//! - [`bounded`]: a whole message that may hold user text the program did not quote itself
//!   (another crate's message), cut when it is far longer than a message needs to be.
//!
//! The escaping is Rust's, one way everywhere: `\u{1b}` for ESC, `\0` for NUL, `\u{7}` for BEL,
//! `\n`, `\r` and `\t`, `\u{7f}` for DEL, `\u{9b}` for the C1 controls (U+0080 to U+009F),
//! which terminals also obey. The control characters are those of [`char::is_control`], the
//! set the terminal UI's widgets drop; the [invisible](is_invisible) ones (bidirectional
//! overrides, zero-width characters) are escaped the same way (`\u{202e}`), since they change
//! what a line appears to say.

use std::borrow::Cow;

/// A count and its noun, the noun in the plural unless the count is one: `1 case`, `3 cases`,
/// `0 files` (every noun the program counts takes an `s`).
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Characters of user text quoted in a message before it is cut short.
pub const SHOWN: usize = 60;

/// Characters a message of another crate may have before it is cut ([`bounded`]).
pub const MESSAGE_CHARS: usize = 1000;

/// Whether `c` is an invisible character that changes how the text around it reads: the
/// bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069: a
/// right-to-left override makes `A Par - Bur` show as something else), the zero-width ones
/// (U+200B to U+200D, U+2060, U+FEFF: two names that look alike but differ), the line and
/// paragraph separators (U+2028, U+2029: a line end to some programs) and the soft hyphen
/// (U+00AD). They are escaped like control characters (`\u{202e}`), and refused in the
/// names of maps.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{61c}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// The first character of `s` that is not plain text (a control character or an
/// [invisible](is_invisible) one), with its byte offset.
pub fn first_unprintable(s: &str) -> Option<(usize, char)> {
    if !may_need(s, false) {
        return None;
    }
    s.char_indices()
        .find(|(_, c)| c.is_control() || is_invisible(*c))
}

/// Whether `c` is escaped in text shown on one line.
fn escaped_on_one_line(c: char) -> bool {
    c.is_control() || is_invisible(c)
}

/// Whether `c` is escaped in text that may span lines.
fn escaped_in_lines(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_invisible(c)
}

/// Whether some byte of `s` may start a character that `escape` escapes: a byte below 0x20,
/// DEL, 0xC2 (the first byte of U+0080 to U+00BF: the C1 controls and the soft hyphen), 0xD8
/// (U+061C), 0xE2 (U+2000 to U+2FFF: the zero-width and bidirectional ones) or 0xEF (U+FEFF).
/// One pass over the bytes, so that clean text (nearly all of it) is not copied.
fn may_need(s: &str, keep_lines: bool) -> bool {
    s.bytes().any(|b| {
        (b < 0x20 && !(keep_lines && (b == b'\n' || b == b'\t')))
            || matches!(b, 0x7f | 0xc2 | 0xd8 | 0xe2 | 0xef)
    })
}

fn escape(s: &str, keep_lines: bool, is_escaped: fn(char) -> bool) -> Cow<'_, str> {
    if !may_need(s, keep_lines) || !s.chars().any(is_escaped) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_invisible(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else if is_escaped(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `s` with every control character escaped (`\u{1b}`, `\0`, `\n`, …): safe to print, and one
/// line.
pub fn one_line(s: &str) -> Cow<'_, str> {
    escape(s, false, escaped_on_one_line)
}

/// `s` with every control character escaped except line feed and tab: safe to print, with its
/// lines.
pub fn multi_line(s: &str) -> Cow<'_, str> {
    escape(s, true, escaped_in_lines)
}

/// `s` safe as XML or HTML text or a quoted attribute value: control and invisible characters
/// escaped as [`multi_line`] shows them (line feeds and tabs kept; XML 1.0 allows no other
/// control character, and a bidirectional override must not reorder a page), then `&`, `<`, `>`,
/// `"` and `'` as character references. Every picture and page writes user text through it.
pub fn markup(s: &str) -> String {
    let shown = multi_line(s);
    let mut out = String::with_capacity(shown.len() + shown.len() / 8);
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// `x` with at most one decimal, the same on every platform (`12`, `12.3`; never `-0`): the
/// coordinates and sizes the pictures write.
pub fn tenths(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Whether [`multi_line`] leaves `s` as it is.
pub fn is_safe(s: &str) -> bool {
    matches!(multi_line(s), Cow::Borrowed(_))
}

/// Text quoted for a message: `"A Parsi - Bur"` (escaped as Rust does, `\u{1b}`), or, when
/// long, its first [`SHOWN`] characters and its length (`"Axxx…"… (1000001 characters)`), so
/// that a megabyte of input is not echoed back.
pub fn quoted(text: &str) -> String {
    match head(text, SHOWN, 20) {
        None => format!("{text:?}"),
        Some((head, n)) => format!("{head:?}… ({n} characters)"),
    }
}

/// [`quoted`] without the quotes, for text shown between backticks: [`one_line`], and when
/// long its first [`SHOWN`] characters and its length (`xxxx… (1000000 characters)`).
pub fn cut(text: &str) -> String {
    match head(text, SHOWN, 20) {
        None => one_line(text).into_owned(),
        Some((head, n)) => format!("{}… ({n} characters)", one_line(head)),
    }
}

/// The first `max` characters of a text longer than `max + slack` characters, and its length in
/// characters; `None` for a text short enough. (A message cuts a quoted text only when the cut
/// saves more than the note of its length costs: a slack of 20 characters.)
fn head(text: &str, max: usize, slack: usize) -> Option<(&str, usize)> {
    // Counting stops early: a short text is counted once, a long one up to its cut.
    let mut chars = text.char_indices();
    let end = chars.nth(max).map(|(i, _)| i)?;
    if slack > 0 {
        chars.clone().nth(slack - 1)?;
    }
    let n = max + 1 + chars.count();
    Some((text.get(..end).unwrap_or(text), n))
}

/// `text` cut after `max` characters, with its length (`xxxx… (1000000 characters)`); whole
/// when it has at most `max` characters. Not escaped: for text that is drawn, not printed (the
/// terminal UI's lines, titles and messages), or escaped afterwards. [`cut`] is the same cut
/// for a message: escaped, after [`SHOWN`] characters.
pub fn cut_after(text: &str, max: usize) -> Cow<'_, str> {
    match head(text, max, 0) {
        None => Cow::Borrowed(text),
        Some((head, n)) => Cow::Owned(format!("{head}… ({n} characters)")),
    }
}

/// A message that may quote user text whole (another crate's, such as a deserializer's
/// `invalid type: string "…"`), cut after `max` characters with its length; not escaped (print
/// it through [`one_line`] or [`multi_line`]).
pub fn bounded(message: &str, max: usize) -> Cow<'_, str> {
    match head(message, max, 0) {
        None => Cow::Borrowed(message),
        Some((head, n)) => Cow::Owned(format!("{head}… (cut: the message has {n} characters)")),
    }
}

/// A file name made of a text: its ASCII letters and digits as they are (case kept), every run
/// of anything else between them one hyphen, none at either end (`convoy paradox` is
/// `convoy-paradox`, `rule=Szykman` is `rule-Szykman`, `(Spring 1902)` is `Spring-1902`). A
/// caller that wants lower case lowers it.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// `word` as a POSIX shell reads it back as one word: as it is when it holds only letters,
/// digits and `_@%+=:,./-`; else in single quotes, a quote inside written `'\''`. So a command
/// line the program writes (a `versus` file's header naming `cmd:python3 adapter.py`) pastes
/// back into a shell, and [`crate::engine::outside::split_words`] reads it the same way.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}
