//! Positions in source files and the messages of RON parse errors: the pieces every located
//! error is made of, below the model's own error types (`model::error`).

use std::fmt;

/// A position in a source file (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourcePos {
    /// The file, as the user named it.
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub col: usize,
}

impl SourcePos {
    /// The start of a file.
    pub fn start(file: &str) -> Self {
        SourcePos {
            file: file.to_string(),
            line: 1,
            col: 1,
        }
    }

    /// The position of a RON error: where what was expected is missing.
    pub fn from_ron(file: &str, text: &str, e: &ron::error::SpannedError) -> Self {
        let at = ron_position(e, text);
        SourcePos {
            file: file.to_string(),
            line: at.line.max(1),
            col: at.col.max(1),
        }
    }

    /// This position moved `chars` characters to the right (for positions inside a string).
    pub fn shifted(&self, chars: usize) -> Self {
        SourcePos {
            file: self.file.clone(),
            line: self.line,
            col: self.col + chars,
        }
    }
}

impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// [`ron_message`], saying what was found at the error's position where the RON error says
/// only what was expected (expected `,`, found `name`), with a hint where the text shows a
/// common slip: a string in single quotes (`'Paris'`: RON strings take double quotes).
pub fn ron_message_in(e: &ron::error::SpannedError, text: &str) -> String {
    let mut m = ron_message(&e.code);
    let at = ron_position(e, text);
    let rest = rest_at(text, at.line, at.col);
    if e.code == ron::error::Error::UnclosedBlockComment && unclosed_comment(text).is_some() {
        return "a `/*` comment that starts here is not closed before the end of the file; \
                expected `*/` (comments nest: each `/*` inside it needs its own `*/`)"
            .into();
    }
    if e.code == ron::error::Error::Eof {
        m = "expected the rest of the value, found the end of the file (a bracket or a string is not closed)".into();
    } else if let Some(mut expected) = syntax_expectation(&e.code) {
        if rest.trim().is_empty() && e.code == ron::error::Error::ExpectedComma {
            // Nothing follows: the closing bracket is missing as much as a comma.
            expected.push_str(" or a closing bracket");
        }
        m = format!("{expected}, found {}", found_token(rest));
    }
    if rest.trim_start().starts_with('\'') {
        m.push_str("; strings take double quotes (\"Paris\"), not single quotes");
    }
    m
}

/// Where a RON error is: the start of its span, except where a syntax error's span ends at the
/// end of the file or the error is a missing comma: the span may then start at the value before what is
/// missing (`paradox: Szykman` or `[` at the end of the file), and it ends where that is.
/// An unclosed block comment is located at its opening `/*` (the `ron` crate names where it
/// gave up, at the end of a line).
fn ron_position(e: &ron::error::SpannedError, text: &str) -> ron::error::Position {
    if e.code == ron::error::Error::UnclosedBlockComment
        && let Some(at) = unclosed_comment(text)
    {
        return at;
    }
    let syntax = e.code == ron::error::Error::Eof || syntax_expectation(&e.code).is_some();
    let at_end = syntax
        && rest_at(text, e.span.end.line, e.span.end.col)
            .trim()
            .is_empty();
    if at_end || e.code == ron::error::Error::ExpectedComma {
        e.span.end
    } else {
        e.span.start
    }
}

/// Where the block comment that is never closed starts (line and column of its `/*`, from 1),
/// reading the text as the `ron` crate does: strings (`"…"` with escapes, raw `r#"…"#`) and
/// characters (`'"'`) hold no comment, `//` comments end at the line's end, and block comments
/// nest, with only `/*` and `*/` counted inside them. `None` when every comment is closed. One
/// pass, no recursion: the nesting is a counter.
pub fn unclosed_comment(text: &str) -> Option<ron::error::Position> {
    let b = text.as_bytes();
    let mut i = 0;
    // The opening of the outermost open comment, and how deep the nesting is.
    let mut open: Option<usize> = None;
    let mut depth = 0usize;
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < b.len() {
        let here = b.get(i).copied().unwrap_or(0);
        let next = b.get(i + 1).copied().unwrap_or(0);
        if depth > 0 {
            match (here, next) {
                (b'/', b'*') => {
                    depth += 1;
                    i += 2;
                }
                (b'*', b'/') => {
                    depth -= 1;
                    if depth == 0 {
                        open = None;
                    }
                    i += 2;
                }
                _ => i += 1,
            }
            continue;
        }
        match (here, next) {
            (b'/', b'*') => {
                open = Some(i);
                depth = 1;
                i += 2;
            }
            (b'/', b'/') => {
                i = memchr::memchr(b'\n', b.get(i..).unwrap_or_default())
                    .map_or(b.len(), |k| i + k);
            }
            (b'"', _) => {
                // To the closing quote; a backslash escapes the next byte.
                i += 1;
                while let Some(&c) = b.get(i) {
                    i += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
            }
            (b'r', b'"' | b'#') if i == 0 || !b.get(i - 1).copied().is_some_and(ident) => {
                // A raw string: r, some #, a quote, up to a quote and as many #.
                let hashes = b
                    .get(i + 1..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|&&c| c == b'#')
                    .count();
                let start = i + 1 + hashes;
                if b.get(start) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let mut close = String::from("\"");
                close.extend(std::iter::repeat_n('#', hashes));
                i = memchr::memmem::find(b.get(start + 1..).unwrap_or_default(), close.as_bytes())
                    .map_or(b.len(), |k| start + 1 + k + close.len());
            }
            (b'\'', _) => {
                // A character: 'x' or an escape up to the next quote; a lone apostrophe is
                // skipped.
                let rest = b.get(i + 1..).unwrap_or_default();
                let len = if rest.first() == Some(&b'\\') {
                    rest.iter().skip(2).position(|&c| c == b'\'').map(|k| k + 3)
                } else {
                    let c = text.get(i + 1..).and_then(|t| t.chars().next());
                    c.filter(|c| rest.get(c.len_utf8()) == Some(&b'\''))
                        .map(|c| c.len_utf8() + 1)
                };
                i += 1 + len.unwrap_or(0);
            }
            _ => i += 1,
        }
    }
    let start = open?;
    let before = text.get(..start)?;
    let line = before.bytes().filter(|&c| c == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |k| k + 1);
    let col = before.get(line_start..)?.chars().count() + 1;
    Some(ron::error::Position { line, col })
}

/// The text from a 1-based line and column (in characters) to the end.
fn rest_at(text: &str, line: usize, col: usize) -> &str {
    let mut offset = 0;
    for _ in 1..line.max(1) {
        match text.get(offset..).and_then(|t| t.find('\n')) {
            Some(i) => offset += i + 1,
            None => return "",
        }
    }
    let here = text.get(offset..).unwrap_or("");
    match here.char_indices().nth(col.saturating_sub(1)) {
        Some((i, _)) => here.get(i..).unwrap_or(""),
        None => "",
    }
}

/// What an error's position holds, for `found …`: a string (`"Paris"`), a word (`name`), a
/// number, one character (`}`), or the end of the file.
fn found_token(rest: &str) -> String {
    let rest = rest.trim_start();
    let mut chars = rest.char_indices();
    let Some((_, first)) = chars.next() else {
        return "the end of the file".into();
    };
    let token = if first == '"' {
        // Up to the closing quote (an escaped quote does not close), or the end of the line.
        let mut escaped = false;
        let end = chars
            .find(|&(_, c)| {
                let close = (c == '"' && !escaped) || c == '\n';
                escaped = c == '\\' && !escaped;
                close
            })
            .map_or(rest.len(), |(i, c)| if c == '"' { i + 1 } else { i });
        rest.get(..end).unwrap_or(rest)
    } else if first.is_alphanumeric() || first == '_' {
        let end = rest
            .char_indices()
            .find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .map_or(rest.len(), |(i, _)| i);
        rest.get(..end).unwrap_or(rest)
    } else {
        rest.get(..first.len_utf8()).unwrap_or(rest)
    };
    format!("`{}`", crate::base::text::cut(token))
}

/// For a RON syntax error that says only what was expected, that expectation in words (the
/// caller adds what was found); None for the others, whose message is complete.
fn syntax_expectation(code: &ron::error::Error) -> Option<String> {
    use ron::error::Error as E;
    Some(match code {
        E::ExpectedArray => "expected `[` (a list)".into(),
        E::ExpectedArrayEnd => "expected the closing `]`".into(),
        E::ExpectedBoolean => "expected `true` or `false`".into(),
        E::ExpectedComma => "expected `,`".into(),
        E::ExpectedChar => "expected a character in single quotes".into(),
        E::ExpectedFloat | E::ExpectedInteger => "expected a number".into(),
        E::ExpectedOption => "expected `Some(…)` or `None`".into(),
        E::ExpectedOptionEnd | E::ExpectedStructLikeEnd => "expected the closing `)`".into(),
        E::ExpectedMap => "expected `{` (a map)".into(),
        E::ExpectedMapColon => "expected `:`".into(),
        E::ExpectedMapEnd => "expected the closing `}`".into(),
        E::ExpectedStructLike => "expected `(`".into(),
        E::ExpectedNamedStructLike(name) if !name.is_empty() => {
            format!("expected `{name}(` or `(`")
        }
        E::ExpectedUnit => "expected `()`".into(),
        E::ExpectedString => "expected a string in double quotes".into(),
        E::ExpectedStringEnd => "expected the closing `\"` of the string".into(),
        E::ExpectedIdentifier => "expected a field or value name".into(),
        E::TrailingCharacters => "expected nothing after the end of the value".into(),
        _ => return None,
    })
}

/// Describes a RON error in words a newcomer can act on: unknown fields and values with the
/// ones expected. What it quotes from the file is cut short and escaped ([`crate::base::text::cut`]);
/// the `ron` crate's other messages, which may quote the file's text whole, are cut after
/// [`crate::base::text::MESSAGE_CHARS`] characters and escaped.
pub fn ron_message(code: &ron::error::Error) -> String {
    use ron::error::Error as E;
    match code {
        E::NoSuchStructField {
            expected, found, ..
        } => format!(
            "unknown field `{}`{}; expected one of: {}",
            crate::base::text::cut(found),
            near_hint(found, expected),
            expected
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        E::MissingStructField { field, .. } => format!("missing field `{field}`"),
        E::ExpectedDifferentStructName { expected, found } => format!(
            "expected `{expected}(` or `(`, found `{}`",
            crate::base::text::cut(found)
        ),
        E::DuplicateStructField { field, .. } => {
            format!("field `{field}` is given twice; give each field once")
        }
        E::NoSuchEnumVariant {
            expected, found, ..
        } => format!(
            "unknown value `{}`{}; expected one of: {}",
            crate::base::text::cut(found),
            near_hint(found, expected),
            expected
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => {
            let m = other.to_string();
            crate::base::text::one_line(&crate::base::text::bounded(
                &m,
                crate::base::text::MESSAGE_CHARS,
            ))
            .into_owned()
        }
    }
}

/// ` (did you mean `NAME`?)` for the expected name [`crate::base::near::meant`], or nothing.
fn near_hint(found: &str, expected: &[&str]) -> String {
    crate::base::near::meant(found, expected.iter().copied())
        .map(|n| format!(" (did you mean `{n}`?)"))
        .unwrap_or_default()
}
