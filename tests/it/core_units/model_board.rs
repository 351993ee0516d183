//! The unit tests of the core's `model::board`.

use dipsandbox_core::model::board::*;

/// Years run from 1 to 9999: a year outside is refused by name (a number out of range, not
/// "not a number"), and the year after the last is none (the turn cycle stops there).
#[test]
fn years_have_a_range() {
    for y in ["1", "1901", "9999"] {
        let p = Phase::parse(&format!("Spring {y} Movement")).expect("in range");
        assert_eq!(p.year.to_string(), y);
    }
    for y in [
        "0",
        "-5",
        "10000",
        "2147483647",
        "-2147483648",
        "99999999999999999999",
    ] {
        let e = Phase::parse(&format!("Winter {y} Adjustment")).expect_err(y);
        assert!(
            e.ends_with(&format!(
                "year {y} is out of range; a year is from 1 to 9999"
            )),
            "{e}"
        );
    }
    let e = Phase::parse("Spring 19o1 Movement").expect_err("a typo");
    assert!(e.contains("year \"19o1\" is not a number"), "{e}");
    let last = Phase::parse("Winter 9999 Adjustment").expect("last");
    assert_eq!(last.next_year(), None);
    let max = Phase {
        year: i32::MAX,
        ..last
    };
    assert_eq!(max.next_year(), None);
    assert_eq!(
        Phase::parse("Fall 1901 Movement").map(|p| p.next_year()),
        Ok(Some(1902))
    );
}

/// The bytes that separate a phase's words in ASCII text are exactly the characters that
/// separate them in any text, so both ways of splitting find the same words.
#[test]
fn phase_separators_are_the_same_by_bytes_and_by_characters() {
    for b in 0u8..128 {
        let by_byte = b.is_ascii_whitespace() || b == b',' || b == 0x0b;
        let by_char = char::from(b).is_whitespace() || b == b',';
        assert_eq!(by_byte, by_char, "byte {b:#04x}");
    }
}

/// The short form is the one game records use: every phase reads back as itself.
#[test]
fn the_short_form_reads_back() {
    use dipsandbox_core::io::games::python::parse_name;
    for season in [Season::Spring, Season::Fall, Season::Winter] {
        for kind in [
            PhaseKind::Movement,
            PhaseKind::Retreat,
            PhaseKind::Adjustment,
        ] {
            for year in [1, 1901, 9999] {
                let p = Phase { season, year, kind };
                assert_eq!(parse_name(&p.short()), Ok(p), "{}", p.short());
            }
        }
    }
    let p = Phase::parse("Fall 1903 Movement").expect("a phase");
    assert_eq!(p.short(), "F1903M");
}
