//! The unit tests of the core's `base::text`.

use dipsandbox_core::base::text::*;
use std::borrow::Cow;

/// No byte a terminal obeys: below 0x20 (but the allowed), DEL, or a C1 control.
fn has_control(s: &str, allowed: &[char]) -> bool {
    s.chars().any(|c| c.is_control() && !allowed.contains(&c))
}

#[test]
fn one_line_escapes_every_control_character() {
    let s = "a\u{1b}[2J\0\u{7}\n\t\r\u{7f}\u{9b}31m\u{85}é—z";
    let e = one_line(s);
    assert_eq!(
        e,
        "a\\u{1b}[2J\\0\\u{7}\\n\\t\\r\\u{7f}\\u{9b}31m\\u{85}é—z"
    );
    assert!(!has_control(&e, &[]));
    // Clean text is not copied.
    assert!(matches!(one_line("Évian — ok"), Cow::Borrowed(_)));
    for c in (0..0x110000u32).filter_map(char::from_u32) {
        let s = c.to_string();
        assert!(!has_control(&one_line(&s), &[]), "{c:?}");
        assert!(!has_control(&multi_line(&s), &['\n', '\t']), "{c:?}");
        assert!(!has_control(&quoted(&s), &[]), "{c:?}");
    }
}

#[test]
fn multi_line_keeps_line_feeds_and_tabs() {
    assert_eq!(multi_line("a\nb\tc\r\u{1b}"), "a\nb\tc\\r\\u{1b}");
    assert!(matches!(multi_line("a\nb\tc"), Cow::Borrowed(_)));
    assert!(is_safe("a\nb"));
    assert!(!is_safe("a\u{9f}"));
}

#[test]
fn long_text_is_cut_with_its_length() {
    let long = "x".repeat(1_000_000);
    let q = quoted(&long);
    assert_eq!(
        q,
        format!("\"{}\"… (1000000 characters)", "x".repeat(SHOWN))
    );
    assert_eq!(
        cut(&long),
        format!("{}… (1000000 characters)", "x".repeat(SHOWN))
    );
    // Up to 20 characters past the cut, the text is shown whole.
    let near = "y".repeat(SHOWN + 20);
    assert_eq!(quoted(&near), format!("{near:?}"));
    assert_eq!(cut(&near), near);
    let past = "y".repeat(SHOWN + 21);
    assert!(cut(&past).ends_with(&format!("… ({} characters)", SHOWN + 21)));
    // Escaped, and cut on a character boundary.
    let esc = format!("\u{1b}{}", "é".repeat(200));
    assert!(quoted(&esc).starts_with("\"\\u{1b}éé"));
    assert!(cut(&esc).starts_with("\\u{1b}éé"));
    assert!(cut(&esc).ends_with("… (201 characters)"));
}

#[test]
fn bounded_cuts_long_messages() {
    let m = format!("invalid type: string \"{}\"", "\u{1b}".repeat(5000));
    let b = one_line(&bounded(&m, MESSAGE_CHARS)).into_owned();
    assert!(b.chars().count() < MESSAGE_CHARS * 7);
    assert!(
        b.ends_with("… (cut: the message has 5023 characters)"),
        "{b}"
    );
    assert!(!has_control(&b, &[]));
    assert!(matches!(bounded("short", 5), Cow::Borrowed("short")));
    assert_eq!(
        bounded("short!", 5),
        "short… (cut: the message has 6 characters)"
    );
}

#[test]
fn a_count_takes_the_plural_unless_it_is_one() {
    use dipsandbox_core::base::text::count;
    assert_eq!(count(0, "file"), "0 files");
    assert_eq!(count(1, "file"), "1 file");
    assert_eq!(count(3, "linked folder"), "3 linked folders");
}

#[test]
fn cut_after_keeps_max_characters_and_does_not_escape() {
    assert!(matches!(cut_after("short", 5), Cow::Borrowed("short")));
    // One character past the limit is cut (no slack, unlike a quoted text in a message).
    assert_eq!(cut_after("short!", 5), "short… (6 characters)");
    // Control characters stay as they are (the terminal UI draws them through its own filter),
    // and the cut falls on a character boundary.
    let t = format!("a\tb{}", "é".repeat(10));
    assert_eq!(cut_after(&t, 4), "a\tbé… (13 characters)");
    assert_eq!(cut_after("", 0), "");
    assert_eq!(cut_after("x", 0), "… (1 characters)");
}

#[test]
fn slug_keeps_letters_and_digits_and_joins_the_rest_with_one_hyphen() {
    assert_eq!(slug("convoy paradox"), "convoy-paradox");
    // Case is kept (`versus` names its files with the rule values as written).
    assert_eq!(
        slug("dpjudge_no_convoy_list=AsWritten"),
        "dpjudge-no-convoy-list-AsWritten"
    );
    assert_eq!(
        slug("  Opening position (Spring 1902 Movement)!! "),
        "Opening-position-Spring-1902-Movement"
    );
    assert_eq!(slug("Ünïcode — only"), "n-code-only");
    assert_eq!(slug("…"), "");
}
