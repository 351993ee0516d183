//! The unit tests of the core's `model::orders::plain`.

use dipsandbox_core::model::map::Map;
use dipsandbox_core::model::orders::hooks::{
    order_by_parser, plain_order as order, plain_unit as unit, unit_by_parser,
};
use dipsandbox_core::model::orders::{Order, OrderKind};
use proptest::prelude::*;
use std::path::Path;

/// The parser alone (no fast path).
fn parsed(map: &Map, text: &str) -> Option<Order> {
    order_by_parser(map, text).ok()
}

/// Every quoted string of every scenario file of the project.
fn scenario_strings() -> Vec<String> {
    let mut texts = Vec::new();
    quoted_strings(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"),
        &mut texts,
    );
    texts
}

/// Every quoted string of every scenario file under `dir`.
fn quoted_strings(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            quoted_strings(&p, out);
        } else if p.extension().is_some_and(|x| x == "ron") {
            let text = std::fs::read_to_string(&p).expect("readable");
            out.extend(text.split('"').skip(1).step_by(2).map(str::to_string));
        }
    }
}

#[test]
fn reads_the_scenario_files_orders_as_the_parser_does() {
    let map = Map::standard_arc();
    let texts = scenario_strings();
    // Each distinct text read once both ways; counted over the files' own texts.
    let mut seen: std::collections::HashMap<&str, (bool, bool)> = Default::default();
    let (mut orders, mut read) = (0, 0);
    for t in &texts {
        let (fast, slow) = *seen.entry(t.as_str()).or_insert_with(|| {
            let fast = order(&map, t);
            let slow = parsed(&map, t);
            if let Some(f) = &fast {
                assert_eq!(Some(f), slow.as_ref(), "{t:?}");
            }
            (fast.is_some(), slow.is_some())
        });
        read += usize::from(fast);
        orders += usize::from(slow);
    }
    // Not a test that passes by reading nothing: most orders in the files are plain.
    assert!(orders > 2000, "{orders} orders");
    assert!(read * 10 > orders * 8, "{read} of {orders} read here");
}

#[test]
fn reads_the_scenario_files_units_as_the_parser_does() {
    let map = Map::standard_arc();
    let mut texts = scenario_strings();
    let parse = |t: &str| unit_by_parser(&map, t).ok();
    let base = texts.len();
    // Variants of each: lower case, a double space, a coast word, a second letter.
    for t in texts.clone() {
        texts.push(t.to_lowercase());
        texts.push(t.replace(' ', "  "));
        texts.push(format!("{t} nc"));
        texts.push(t.replacen(' ', " F ", 1));
    }
    texts.extend(
        [
            "F Spain(nc)",
            "F Mid-Atlantic Ocean",
            "Army Gulf of Lyon",
            "A Gulf of Bothnia",
            "A St Petersburg",
            "A Mid Atlantic Ocean",
            "A Army",
            "F F",
            "A ",
            "A A Paris",
            "A Paris Burgundy",
            "F North Sea Skagerrak Sweden Norway Denmark Kiel",
        ]
        .map(String::from),
    );
    // The files repeat their texts many times over: each distinct text is read once
    // both ways, and the counts below are still over the files' own texts.
    let mut seen: std::collections::HashMap<&str, (bool, bool)> = Default::default();
    let (mut units, mut read) = (0, 0);
    for (i, t) in texts.iter().enumerate() {
        let (fast, slow) = *seen.entry(t.as_str()).or_insert_with(|| {
            let slow = parse(t);
            let fast = unit(&map, t);
            if fast.is_some() {
                assert_eq!(fast, slow, "{t:?}");
            }
            (fast.is_some(), slow.is_some())
        });
        // Counted on the files' own texts.
        if i < base {
            read += usize::from(fast);
            units += usize::from(slow);
        }
    }
    assert!(units > 2000, "{units} units");
    assert!(read * 100 > units * 95, "{read} of {units} read here");
    for t in [
        "A",
        "A Paris - Burgundy",
        "F Spain nc",
        "F Spain(north)",
        "A Narnia",
        "Paris",
        "A  Paris",
    ] {
        assert_eq!(unit(&map, t), None, "{t:?}");
    }
}

#[test]
fn reads_plain_orders_and_leaves_the_rest() {
    let map = Map::standard_arc();
    for t in [
        "A Paris - Burgundy",
        "A par - bur",
        "F North Sea Convoys A London - Norway",
        "A Munich S A Berlin",
        "A Munich Supports A Berlin Holds",
        "A Munich Supports A Berlin - Kiel",
        "A London - Belgium via Convoy",
        "A Paris moves to Burgundy",
        "F Gulf of Lyon H",
        "Army Paris - Burgundy",
        "F Mid-Atlantic Ocean - Spain(nc)",
        "F Spain (SC) Supports A Marseilles - Gulf of Lyon",
        "F Bulgaria(ec) H",
        "F Western Mediterranean - Spain(sc)",
        "F Gulf of Lyon Supports F Western Mediterranean - Spain(sc)",
        "F Western Mediterranean Hold",
        "F Eastern Mediterranean - Ionian Sea",
        "A war -> mos",
        "A Prussia Supports Livonia - Prussia",
        "F Skagerrak Convoys Denmark - Norway",
    ] {
        assert!(order(&map, t).is_some(), "{t:?}");
    }
    for t in [
        "",
        "A Paris  - Burgundy",
        " A Paris - Burgundy",
        "A Paris - Burgundy ",
        "A Par-Bur",
        "F Spain(north) - Gascony",
        "F Spain(nc)- Gascony",
        "F Spain(nc",
        "F Spain(xc) - Gascony",
        "F Spain (nc) (sc) - Gascony",
        "F Mid--Atlantic Ocean - Spain",
        "F Spain nc - Gascony",
        "England: F London - North Sea",
        "A Munich S German A Berlin",
        "A sil->war",
        "A Munich S England - Berlin",
        "A Yorkshire - North Sea - Belgium",
        "A Paris Disband",
        "A Paris - Burgundy.",
        "A Paris",
        "A Paris - Narnia",
        "F London Convoys A Wales - Norway via Convoy",
    ] {
        assert_eq!(order(&map, t), None, "{t:?}");
    }
}

#[test]
fn leaves_a_name_that_a_longer_name_continues() {
    // Fenwick is also "Borland to Haven": the parser reads that name whole (and then finds
    // no order), where the words up to the keyword would make a move from Borland.
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/test7.ron"))
            .expect("test7");
    let text = text.replacen(
        "name: \"Fenwick\",\n            aliases: [],",
        "name: \"Fenwick\",\n            aliases: [\"Borland to Haven\"],",
        1,
    );
    let map = Map::from_ron(&text, "test7.ron").expect("loads");
    assert!(parsed(&map, "A Borland to Haven").is_none());
    assert_eq!(order(&map, "A Borland to Haven"), None);
    // Where no longer name is written, the parser reads the move, and so does the fast path.
    let plain = "A Aldmark - Fenwick";
    assert!(order(&map, plain).is_some());
    assert_eq!(order(&map, plain), parsed(&map, plain));
}

#[test]
fn leaves_a_unit_letter_that_names_a_power() {
    // Where a power is called "F", the parser reads `F` after `S` as a nationality.
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/test7.ron"))
            .expect("test7");
    let text = text.replacen("aliases: [],", "aliases: [\"F\"],", 1);
    let map = Map::from_ron(&text, "test7.ron").expect("loads");
    let support = "A Aldmark S F Calder";
    let p = parsed(&map, support).expect("parses");
    assert!(matches!(p.kind, OrderKind::Support { target, .. } if target.power.is_some()));
    assert_eq!(order(&map, support), None);
    assert!(order(&map, "A Aldmark S A Calder").is_some());
}

/// A word of a generated order: a unit word, a name (full, abbreviated, in part), a
/// keyword of any list, or something else.
fn piece() -> impl Strategy<Value = String> {
    let map = Map::standard_arc();
    let mut names: Vec<String> = map
        .provinces
        .iter()
        .flat_map(|p| [p.name.clone(), p.abbr.clone()])
        .collect();
    names.extend(
        [
            "Gulf",
            "North",
            "of",
            "Sea",
            "St",
            "Petersburg",
            "Mid-Atlantic",
            "Par-Bur",
            "spa-nc",
            "(nc)",
            "(SC)",
            "(ec)",
            "(north)",
            "Spain(sc)",
            "Bulgaria(EC)",
            "Spa(wc)",
            "stp/nc",
        ]
        .map(String::from),
    );
    prop_oneof![
        4 => proptest::sample::select(names),
        3 => proptest::sample::select(vec!["A", "F", "a", "f", "army", "Fleet"]).prop_map(String::from),
        3 => proptest::sample::select(vec![
            "-", "->", ">", "to", "moves", "M", "r", "retreat", "S", "supports", "Sup", "C", "convoys",
            "cvy", "H", "holds", "stand", "d", "disband", "build", "b", "rem", "w", "via", "by",
            "convoy", "nc", "sc", "coast", "north", "England", "German", "Russia", "x",
        ]).prop_map(String::from),
        1 => "[a-zA-Z0-9 ()/:.,-]{1,6}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]
    /// Wherever the fast path answers, the parser gives the same order.
    #[test]
    fn agrees_with_the_parser_wherever_it_answers(
        pieces in proptest::collection::vec(piece(), 1..12),
        spaces in proptest::collection::vec(proptest::sample::select(vec![" ", " ", " ", "  ", ""]), 12),
    ) {
        let map = Map::standard_arc();
        let mut text = String::new();
        for (i, p) in pieces.iter().enumerate() {
            if i > 0 {
                text.push_str(spaces[i]);
            }
            text.push_str(p);
        }
        if let Some(fast) = order(&map, &text) {
            prop_assert_eq!(Some(fast), parsed(&map, &text), "{:?}", text);
        }
    }
}

/// Structured orders, so that many are plain: the agreement holds on them too.
fn plain_like() -> impl Strategy<Value = String> {
    let names = || {
        let map = Map::standard_arc();
        let names: Vec<String> = map
            .provinces
            .iter()
            .flat_map(|p| {
                let coasts = p
                    .coasts
                    .iter()
                    .map(move |(c, _)| format!("{}({})", p.abbr, c.abbr()));
                [p.name.clone(), p.abbr.to_uppercase()]
                    .into_iter()
                    .chain(coasts)
            })
            .collect();
        proptest::sample::select(names)
    };
    let unit = || {
        (
            proptest::sample::select(vec!["A", "F", "a", "Army", "fleet"]),
            names(),
        )
            .prop_map(|(u, n)| format!("{u} {n}"))
    };
    let kw = |v: Vec<&'static str>| proptest::sample::select(v);
    prop_oneof![
        (
            unit(),
            kw(vec!["-", "to", "moves to", "- to", "R"]),
            names(),
            kw(vec!["", " via Convoy", " by c", " via cvy"])
        )
            .prop_map(|(u, k, n, v)| format!("{u} {k} {n}{v}")),
        (
            unit(),
            kw(vec!["S", "Supports", "supp"]),
            unit(),
            kw(vec!["", " H", " Holds", " - ", " moves "]),
            names()
        )
            .prop_map(
                |(u, k, t, m, n)| if m.trim().is_empty() || m.contains('H') {
                    format!("{u} {k} {t}{m}")
                } else {
                    format!("{u} {k} {t}{m}{n}")
                }
            ),
        (
            unit(),
            kw(vec!["C", "Convoys", "cvy"]),
            unit(),
            kw(vec!["-", "to"]),
            names()
        )
            .prop_map(|(u, k, t, m, n)| format!("{u} {k} {t} {m} {n}")),
        (unit(), kw(vec!["H", "Holds", "stand", "D", "Build"]))
            .prop_map(|(u, k)| format!("{u} {k}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]
    /// The same agreement on orders built like real ones.
    #[test]
    fn agrees_with_the_parser_on_orders_like_real_ones(text in plain_like()) {
        let map = Map::standard_arc();
        if let Some(fast) = order(&map, &text) {
            prop_assert_eq!(Some(fast), parsed(&map, &text), "{:?}", text);
        }
    }
}
