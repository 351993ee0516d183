//! Error types of the library. Every error that comes from a file names the file, line and column,
//! what was found and what was expected.

use std::fmt;

use thiserror::Error;

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

    /// The start position of a RON error.
    pub fn from_ron(file: &str, e: &ron::error::SpannedError) -> Self {
        SourcePos {
            file: file.to_string(),
            line: e.span.start.line.max(1),
            col: e.span.start.col.max(1),
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

/// [`ron_message`], with a hint where the text shows a common slip: a string in single quotes
/// (`'Paris'`: RON strings take double quotes).
pub fn ron_message_in(e: &ron::error::SpannedError, text: &str) -> String {
    let mut m = ron_message(&e.code);
    let line = text
        .lines()
        .nth(e.span.start.line.saturating_sub(1))
        .unwrap_or("");
    let next = line
        .chars()
        .skip(e.span.start.col.saturating_sub(1))
        .find(|c| !c.is_whitespace());
    if next == Some('\'') {
        m.push_str("; strings take double quotes (\"Paris\"), not single quotes");
    }
    m
}

/// Describes a RON error in words a newcomer can act on: unknown fields and values with the
/// ones expected.
pub fn ron_message(code: &ron::error::Error) -> String {
    use ron::error::Error as E;
    match code {
        E::NoSuchStructField {
            expected, found, ..
        } => format!(
            "unknown field `{found}`; expected one of: {}",
            expected
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        E::MissingStructField { field, .. } => format!("missing field `{field}`"),
        E::NoSuchEnumVariant {
            expected, found, ..
        } => format!(
            "unknown value `{found}`; expected one of: {}",
            expected
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

/// An error loading or validating a map.
#[derive(Debug, Error)]
pub enum MapError {
    /// The file could not be read.
    #[error("{file}: cannot read map: {message}")]
    Io {
        /// The file.
        file: String,
        /// The operating system's message.
        message: String,
    },
    /// No map of that name.
    #[error(
        "no map named {name:?}: expected `standard`, a file maps/<name>.ron, or a path to a .ron map file"
    )]
    NotFound {
        /// What was asked for.
        name: String,
    },
    /// The RON did not parse into a map.
    #[error("{pos}: {message}")]
    Syntax {
        /// Where.
        pos: SourcePos,
        /// What went wrong.
        message: String,
    },
    /// The map parsed but is inconsistent.
    #[error("{pos}: {message}")]
    Invalid {
        /// Where.
        pos: SourcePos,
        /// What went wrong.
        message: String,
    },
    /// The file could not be read as text (not a file, too large, not UTF-8).
    #[error(transparent)]
    Read(#[from] crate::source::ReadError),
}

/// An error parsing one order.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("column {col}: {message}")]
pub struct OrderError {
    /// Column within the order text, from 1.
    pub col: usize,
    /// What was found and what was expected.
    pub message: String,
}

/// An error loading, validating or saving a scenario.
#[derive(Debug, Error)]
pub enum ScenarioError {
    /// The file could not be read or written.
    #[error("{file}: {message}")]
    Io {
        /// The file.
        file: String,
        /// The operating system's message.
        message: String,
    },
    /// The RON did not parse into a scenario.
    #[error("{pos}: {message}")]
    Syntax {
        /// Where.
        pos: SourcePos,
        /// What went wrong.
        message: String,
    },
    /// A value in the scenario is wrong (unknown province, bad order, …).
    #[error("{pos}: {message}")]
    Invalid {
        /// Where.
        pos: SourcePos,
        /// What went wrong.
        message: String,
    },
    /// The file could not be read as text (not a file, too large, not UTF-8).
    #[error(transparent)]
    Read(#[from] crate::source::ReadError),
}

/// Text quoted for an error message, cut short when long: `"A Parsi - Bur"`, or the first 60
/// characters and the length (`"Axxx…"… (1000001 characters)`), so that a megabyte of input
/// is not echoed back (twice).
pub fn quoted(text: &str) -> String {
    const SHOWN: usize = 60;
    let n = text.chars().count();
    if n <= SHOWN + 20 {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(SHOWN).collect();
    format!("{head:?}… ({n} characters)")
}
