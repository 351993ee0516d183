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
        "no map named {}: expected `standard`, a file maps/<name>.ron, or a path to a .ron map file",
        quoted(.name)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What the `ron` crate quotes from a file is cut and escaped, in its own messages too.
    #[test]
    fn ron_messages_quote_the_file_cut_short() {
        use ron::error::Error as E;
        let huge = format!("\u{1b}[2J{}", "x".repeat(1_000_000));
        for code in [
            E::Message(format!("invalid type: string {huge:?}, expected a boolean")),
            E::InvalidValueForType {
                expected: "a boolean".into(),
                found: huge.clone(),
            },
            E::ExpectedDifferentStructName {
                expected: "Scenario",
                found: huge.clone(),
            },
            E::NoSuchStructField {
                expected: &["title"],
                found: huge.clone(),
                outer: None,
            },
            E::NoSuchEnumVariant {
                expected: &["Szykman"],
                found: huge.clone(),
                outer: None,
            },
            E::InvalidIdentifier(huge.clone()),
            E::NoSuchExtension(huge.clone()),
        ] {
            let m = ron_message(&code);
            assert!(
                m.chars().count() < 7 * crate::base::text::MESSAGE_CHARS,
                "{}",
                m.len()
            );
            assert!(!m.contains('\u{1b}'), "{m}");
            assert!(m.contains("characters)"), "{m}");
        }
    }

    /// An unclosed block comment is found where it starts, reading strings, characters, raw
    /// strings and line comments as `ron` does.
    #[test]
    fn an_unclosed_comment_is_found_where_it_starts() {
        let at = |t: &str| unclosed_comment(t).map(|p| (p.line, p.col));
        assert_eq!(at("a /* b */ c"), None);
        assert_eq!(at("a /* /* */ */ c"), None);
        assert_eq!(at("a\n  /* /* */\nb"), Some((2, 3)));
        assert_eq!(at("/* a */ /* b"), Some((1, 9)));
        // Not comments: inside strings, raw strings, characters and line comments.
        assert_eq!(at(r#"title: "/*", x"#), None);
        assert_eq!(at(r#"title: "a\"/*", x"#), None);
        assert_eq!(at(r###"title: r#"/*"#, x"###), None);
        assert_eq!(at("c: '\"', d: \"/*\""), None);
        assert_eq!(at("// a /* b\nc"), None);
        // Inside a block comment only /* and */ count ("*/" in a string there closes it).
        assert_eq!(at("/* \"*/\" */"), None);
        assert_eq!(at("é /* x"), Some((1, 3)));
        assert_eq!(at("/*"), Some((1, 1)));
    }
}
