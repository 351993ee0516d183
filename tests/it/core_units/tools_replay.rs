//! The unit tests of the core's `tools::replay`.

use dipsandbox_core::tools::replay::ReplayHeader;

#[test]
fn a_header_reads_back_as_written() {
    let h = ReplayHeader {
        game: "games/my game.json".into(),
        recorder: "diplomacy package".into(),
        phase: "1901 Spring Movement".into(),
        engine: "decisions".into(),
        rules: "datc".into(),
        explained_by: vec!["paradox=Rule1982".into(), "adjacent_convoy=Rule1971".into()],
        differences: vec!["Italy: A ROM - NAP: expected Succeeds, got Fails (x: y)".into()],
    };
    let text = format!("{}Scenario(\n)", h.to_comment());
    assert!(text.starts_with("// dipsandbox replay\n// game: games/my game.json\n"));
    assert_eq!(ReplayHeader::parse(&text), Some(h.clone()));
    let none = ReplayHeader {
        explained_by: Vec::new(),
        differences: Vec::new(),
        ..h
    };
    assert!(none.to_comment().contains("// explained by: none\n"));
    assert_eq!(ReplayHeader::parse(&none.to_comment()), Some(none));
    // A line break in a value does not end the header, nor does an ESC reach the file: both
    // are escaped, as everything written is (base::text::one_line).
    let odd = ReplayHeader {
        game: "a\nb\u{1b}[2J".into(),
        ..ReplayHeader::default()
    };
    assert_eq!(
        ReplayHeader::parse(&odd.to_comment()).map(|h| h.game),
        Some("a\\nb\\u{1b}[2J".into())
    );
    assert_eq!(ReplayHeader::parse("// dipsandbox versus a b\n"), None);
    assert_eq!(ReplayHeader::parse(""), None);
}
