//! Error types of the library. Every error that comes from a file names the file, line and column,
//! what was found and what was expected.

use thiserror::Error;

pub use crate::base::position::{SourcePos, ron_message, ron_message_in, unclosed_comment};

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
        "no map named {}{hint}: expected a built-in map ({built_in}), a file maps/<name>.ron, or a path to a .ron map file",
        quoted(.name)
    )]
    NotFound {
        /// What was asked for.
        name: String,
        /// ` (did you mean "NAME"?)` when a built-in name is close, else empty.
        hint: String,
        /// The built-in maps' names, joined with commas.
        built_in: String,
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
    Read(#[from] crate::base::source::ReadError),
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
    Read(#[from] crate::base::source::ReadError),
}

/// Text quoted for an error message, escaped and cut short when long ([`crate::base::text::quoted`]).
pub use crate::base::text::quoted;
