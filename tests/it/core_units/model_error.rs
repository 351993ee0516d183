//! The unit tests of the core's `model::error`.

use dipsandbox_core::model::error::*;

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
            m.chars().count() < 7 * dipsandbox_core::base::text::MESSAGE_CHARS,
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
