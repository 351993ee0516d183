//! The fast order parser (tokens as slices, names looked up in the map's prebuilt index
//! of normalized names and prefixes, no string built per look-up) against the parser it
//! replaced, kept in `tests/it/reference/` (verbatim but for `crate::` read as `super::`, the shims below): on orders drawn from the standard map's names,
//! the order keywords and punctuation, and on arbitrary text, both give the same order (compared
//! by their `Debug` form: the types are copies of each other) or the same error.

use dipsandbox_core::model::map::{Coast, Map, normalize_into, normalize_name};
use proptest::prelude::*;

/// The names the old parser reaches through `super::…` (`crate::…` where it lived).
mod map {
    pub use dipsandbox_core::model::map::*;
}
mod error {
    pub use dipsandbox_core::model::error::*;
}

#[path = "reference/orders_before_issue_11.rs"]
#[allow(dead_code, clippy::all)]
mod old;

fn map() -> &'static Map {
    static MAP: std::sync::OnceLock<Map> = std::sync::OnceLock::new();
    MAP.get_or_init(Map::standard)
}

/// Words an order is made of: every name of the standard map (abbreviations, full names,
/// aliases), powers, keywords, coasts and punctuation.
fn vocabulary() -> Vec<String> {
    let map = map();
    let mut v: Vec<String> = Vec::new();
    for p in &map.provinces {
        v.push(p.abbr.clone());
        v.push(p.name.clone());
        v.push(p.name.to_uppercase());
        v.extend(p.aliases.iter().cloned());
    }
    for p in &map.powers {
        v.push(p.name.clone());
        v.push(p.adjective.clone());
    }
    for w in [
        "A",
        "F",
        "army",
        "Fleet",
        "-",
        "->",
        "=>",
        ">",
        "to",
        "moves",
        "S",
        "supports",
        "sup",
        "C",
        "convoys",
        "H",
        "holds",
        "Hold.",
        "via",
        "by",
        "convoy",
        "(",
        ")",
        "/",
        ":",
        "nc",
        "sc",
        "ec",
        "wc",
        "north",
        "South",
        "coast",
        "(nc)",
        "/sc",
        "-nc",
        "Disband",
        "Build",
        "Remove",
        "Waive",
        "R",
        "Retreats",
        "St.",
        "Mid-",
        "Gulf",
        "of",
        "Sea",
        "spa-nc",
        "Par-Bur",
        "mid-atlantic-ocean",
        "_",
        "'",
        ".",
        ",",
        ";",
        "é",
        "Ø",
        "1",
        "x",
    ] {
        v.push(w.to_string());
    }
    v
}

fn order_text() -> impl Strategy<Value = String> {
    let words = vocabulary();
    let n = words.len();
    prop_oneof![
        // Orders made of known words, with various separators.
        proptest::collection::vec((0..n, 0..4usize), 0..9).prop_map(move |parts| {
            let mut s = String::new();
            for (w, sep) in parts {
                s.push_str(&words[w]);
                s.push_str(["", " ", " ", "-"][sep]);
            }
            s
        }),
        // Arbitrary text.
        ".{0,40}",
        well_formed(),
    ]
}

/// Orders shaped as people write them, from the map's names in any spelling.
fn well_formed() -> impl Strategy<Value = String> {
    let map = map();
    let mut names: Vec<String> = Vec::new();
    for p in &map.provinces {
        names.push(p.abbr.clone());
        names.push(p.name.clone());
        names.extend(p.aliases.iter().cloned());
    }
    let powers: Vec<String> = map
        .powers
        .iter()
        .flat_map(|p| [p.name.clone(), p.adjective.clone()])
        .collect();
    let (n, k) = (names.len(), powers.len());
    (
        (0..k, 0..3usize),
        (0..n, 0..n, 0..n),
        (0..6usize, 0..5usize, 0..4usize),
    )
        .prop_map(move |((pw, pre), (a, b, c), (shape, coast, letter))| {
            let unit = ["A ", "F ", "", "Army "][letter];
            let coast = ["", "(nc)", "/sc", " north coast", "-ec"][coast];
            let head = match pre {
                0 => String::new(),
                _ => format!("{}: ", powers[pw]),
            };
            let (a, b, c) = (&names[a], &names[b], &names[c]);
            let body = match shape {
                0 => format!("{unit}{a} Holds"),
                1 => format!("{unit}{a}{coast} - {b}{coast}"),
                2 => format!("{unit}{a} - {b} - {c} via Convoy"),
                3 => format!("{unit}{a} S {} {unit}{b} - {c}{coast}", powers[pw]),
                4 => format!("{unit}{a} Supports {unit}{b}"),
                _ => format!("F {a} C A {b} -> {c}"),
            };
            format!("{head}{body}")
        })
}

fn same<A: std::fmt::Debug, B: std::fmt::Debug>(
    new: &Result<A, dipsandbox_core::model::error::OrderError>,
    old: &Result<B, dipsandbox_core::model::error::OrderError>,
) -> bool {
    match (new, old) {
        (Ok(a), Ok(b)) => format!("{a:?}") == format!("{b:?}"),
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

/// The coast parser before the speed work (it built a lower-case copy).
fn old_coast(s: &str) -> Option<Coast> {
    let s = s.trim().to_ascii_lowercase();
    let s = s.strip_suffix(" coast").unwrap_or(&s).trim();
    match s {
        "nc" | "n" | "north" | "ncs" => Some(Coast::North),
        "sc" | "s" | "south" | "scs" => Some(Coast::South),
        "ec" | "e" | "east" | "ecs" => Some(Coast::East),
        "wc" | "w" | "west" | "wcs" => Some(Coast::West),
        _ => None,
    }
}

/// Name folding before the speed work (by characters only).
fn old_normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for ch in s.trim().chars() {
        let c = ch.to_ascii_lowercase();
        if c == '.' || c == '\'' {
            continue;
        }
        if c == ' ' || c == '-' || c == '_' {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    out
}

/// The order `text` parses as it did.
fn order_as_before(text: &str) -> Result<(), TestCaseError> {
    let map = map();
    let new = dipsandbox_core::model::orders::parse_order(map, text);
    let old = old::parse_order(map, text);
    prop_assert!(same(&new, &old), "{text:?}: {new:?} vs {old:?}");
    Ok(())
}

/// `text` read as a unit and as a place parses as it did.
fn unit_and_place_as_before(text: &str) -> Result<(), TestCaseError> {
    let map = map();
    let new = dipsandbox_core::model::orders::parse_unit(map, text);
    let old = old::parse_unit(map, text);
    prop_assert!(same(&new, &old), "{text:?}: {new:?} vs {old:?}");
    let new = dipsandbox_core::model::orders::parse_loc(map, text);
    let old = old::parse_loc(map, text);
    prop_assert!(same(&new, &old), "{text:?}: {new:?} vs {old:?}");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// 1,000 texts; `orders_parse_as_before` (slow tier) runs 3,000.
    #[test]
    fn orders_parse_as_before_on_a_sample(text in order_text()) {
        order_as_before(&text)?;
    }

    /// 1,000 texts; `units_and_places_parse_as_before` (slow tier) runs 3,000.
    #[test]
    fn units_and_places_parse_as_before_on_a_sample(text in order_text()) {
        unit_and_place_as_before(&text)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Slow tier: 3,000 texts (`orders_parse_as_before_on_a_sample` runs 1,000).
    #[test]
    #[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
    fn orders_parse_as_before(text in order_text()) {
        order_as_before(&text)?;
    }

    /// Slow tier: 3,000 texts (`units_and_places_parse_as_before_on_a_sample` runs 1,000).
    #[test]
    #[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
    fn units_and_places_parse_as_before(text in order_text()) {
        unit_and_place_as_before(&text)?;
    }

    #[test]
    fn coasts_and_names_fold_as_before(text in order_text()) {
        prop_assert_eq!(Coast::parse(&text), old_coast(&text));
        prop_assert_eq!(normalize_name(&text), old_normalize(&text));
        let mut buf = String::from("x");
        normalize_into(&text, &mut buf);
        let folded = old_normalize(&text);
        prop_assert_eq!(&buf[1..], folded.as_str());
    }
}
