//! Order notation: parsing what people and the DATC write, printing it back, and the errors a
//! user sees for orders that cannot be read.

use std::sync::LazyLock;

use dipsandbox_core::model::map::{Coast, Map, PowerId, UnitKind};
use dipsandbox_core::model::orders::{
    LocSpec, NameStyle, Order, OrderKind, UnitRef, UnitSpec, format_order, parse_loc, parse_order,
    parse_unit,
};

static MAP: LazyLock<Map> = LazyLock::new(Map::standard);

fn map() -> &'static Map {
    &MAP
}

/// A place as written: `par`, `spa/nc`.
fn at(spec: &str) -> LocSpec {
    let (p, c) = match spec.split_once('/') {
        Some((p, c)) => (p, Some(Coast::parse(c).expect("coast"))),
        None => (spec, None),
    };
    LocSpec {
        province: map()
            .find_province(p)
            .unwrap_or_else(|| panic!("no province {p}")),
        coast: c,
    }
}

fn power(name: &str) -> PowerId {
    map().find_power(name).expect("power")
}

fn army(spec: &str) -> UnitSpec {
    UnitSpec {
        kind: Some(UnitKind::Army),
        loc: at(spec),
    }
}

fn fleet(spec: &str) -> UnitSpec {
    UnitSpec {
        kind: Some(UnitKind::Fleet),
        loc: at(spec),
    }
}

fn unlettered(spec: &str) -> UnitSpec {
    UnitSpec {
        kind: None,
        loc: at(spec),
    }
}

fn r(unit: UnitSpec) -> UnitRef {
    UnitRef { power: None, unit }
}

fn order(unit: UnitSpec, kind: OrderKind) -> Order {
    Order {
        power: None,
        unit: Some(unit),
        kind,
    }
}

fn mv(unit: UnitSpec, dest: &str) -> Order {
    order(
        unit,
        OrderKind::Move {
            dest: at(dest),
            via_convoy: false,
            path: vec![],
        },
    )
}

fn hold(unit: UnitSpec) -> Order {
    order(unit, OrderKind::Hold)
}

fn support_move(unit: UnitSpec, target: UnitSpec, dest: &str) -> Order {
    order(
        unit,
        OrderKind::Support {
            target: r(target),
            dest: Some(at(dest)),
        },
    )
}

fn support_hold(unit: UnitSpec, target: UnitSpec) -> Order {
    order(
        unit,
        OrderKind::Support {
            target: r(target),
            dest: None,
        },
    )
}

fn convoy(unit: UnitSpec, a: UnitSpec, dest: &str) -> Order {
    order(
        unit,
        OrderKind::Convoy {
            army: r(a),
            dest: at(dest),
        },
    )
}

fn parse(text: &str) -> Order {
    parse_order(map(), text).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"))
}

/// Each example of the issue, with the structure a user expects.
fn issue_examples() -> Vec<(&'static str, Order)> {
    vec![
        ("A Liverpool - Edinburgh", mv(army("lvp"), "edi")),
        (
            "F North Sea Convoys A Yorkshire - Belgium",
            convoy(fleet("nth"), army("yor"), "bel"),
        ),
        (
            "A Holland Supports A Ruhr - Belgium",
            support_move(army("hol"), army("ruh"), "bel"),
        ),
        (
            "F Kiel Supports F Berlin",
            support_hold(fleet("kie"), fleet("ber")),
        ),
        (
            "A Bre - Lon via Convoy",
            order(
                army("bre"),
                OrderKind::Move {
                    dest: at("lon"),
                    via_convoy: true,
                    path: vec![],
                },
            ),
        ),
        ("F Spain(nc) - Gulf of Lyon", mv(fleet("spa/nc"), "lyo")),
        (
            "A Rumania Supports Turkish F Constantinople - Bulgaria(ec)",
            order(
                army("rum"),
                OrderKind::Support {
                    target: UnitRef {
                        power: Some(power("Turkey")),
                        unit: fleet("con"),
                    },
                    dest: Some(at("bul/ec")),
                },
            ),
        ),
        ("A Paris Hold", hold(army("par"))),
        ("A Par - Bur", mv(army("par"), "bur")),
        ("A Paris Disband", order(army("par"), OrderKind::Disband)),
        ("Build A Paris", order(army("par"), OrderKind::Build)),
        (
            "Build F St Petersburg(nc)",
            order(fleet("stp/nc"), OrderKind::Build),
        ),
        ("Remove A Paris", order(army("par"), OrderKind::Remove)),
        (
            "Waive",
            Order {
                power: None,
                unit: None,
                kind: OrderKind::Waive,
            },
        ),
        (
            "England: A Lvp - Edi",
            Order {
                power: Some(power("England")),
                ..mv(army("lvp"), "edi")
            },
        ),
    ]
}

/// Other spellings of the same orders: abbreviations, full names, any case, `-`/`->`/`to`,
/// `S`/`C`/`H`, coasts as `(nc)`, `/nc`, ` nc`, `north coast`; plus what must be kept as written.
fn variants() -> Vec<(&'static str, Order)> {
    vec![
        // Move arrows and words, any case.
        ("A lvp - edi", mv(army("lvp"), "edi")),
        ("a LVP -> EDI", mv(army("lvp"), "edi")),
        ("A Liverpool to Edinburgh", mv(army("lvp"), "edi")),
        ("army liverpool MOVES edinburgh", mv(army("lvp"), "edi")),
        ("A Lvp-Edi", mv(army("lvp"), "edi")),
        ("A Par-Bur", mv(army("par"), "bur")),
        // A move word followed by `to`, as retreats are often written.
        ("A Trieste Retreats to Albania", mv(army("tri"), "alb")),
        ("A Liverpool moves to Edinburgh", mv(army("lvp"), "edi")),
        ("A lvp - to edi", mv(army("lvp"), "edi")),
        (
            "A Holland supports A Ruhr moves to Belgium",
            support_move(army("hol"), army("ruh"), "bel"),
        ),
        // Support, convoy, hold letters.
        (
            "A hol S A ruh - bel",
            support_move(army("hol"), army("ruh"), "bel"),
        ),
        (
            "A Holland supports A Ruhr -> Belgium",
            support_move(army("hol"), army("ruh"), "bel"),
        ),
        ("F kie S F ber", support_hold(fleet("kie"), fleet("ber"))),
        (
            "F Kiel S F Berlin H",
            support_hold(fleet("kie"), fleet("ber")),
        ),
        (
            "F nth C A yor - bel",
            convoy(fleet("nth"), army("yor"), "bel"),
        ),
        (
            "f NORTH SEA convoys a YORKSHIRE to belgium",
            convoy(fleet("nth"), army("yor"), "bel"),
        ),
        ("A par H", hold(army("par"))),
        ("A PARIS HOLDS", hold(army("par"))),
        (
            "A bre - lon by convoy",
            order(
                army("bre"),
                OrderKind::Move {
                    dest: at("lon"),
                    via_convoy: true,
                    path: vec![],
                },
            ),
        ),
        // Coasts in every notation.
        ("F spa(nc) - lyo", mv(fleet("spa/nc"), "lyo")),
        ("F spa/nc - lyo", mv(fleet("spa/nc"), "lyo")),
        ("F Spain nc - Gulf of Lyon", mv(fleet("spa/nc"), "lyo")),
        (
            "F Spain north coast - Gulf of Lyon",
            mv(fleet("spa/nc"), "lyo"),
        ),
        (
            "F Spain (North Coast) - Gulf of Lyon",
            mv(fleet("spa/nc"), "lyo"),
        ),
        ("F spa-nc - gol", mv(fleet("spa/nc"), "lyo")),
        ("F Spain(NC) - lyo", mv(fleet("spa/nc"), "lyo")),
        ("F lyo - spa/sc", mv(fleet("lyo"), "spa/sc")),
        ("F mao - Spain south coast", mv(fleet("mao"), "spa/sc")),
        (
            "F Mid-Atlantic Ocean - Spain(sc)",
            mv(fleet("mao"), "spa/sc"),
        ),
        (
            "F St. Petersburg(sc) - Gulf of Bothnia",
            mv(fleet("stp/sc"), "bot"),
        ),
        (
            "A rum S Turkish F con - bul/ec",
            order(
                army("rum"),
                OrderKind::Support {
                    target: UnitRef {
                        power: Some(power("Turkey")),
                        unit: fleet("con"),
                    },
                    dest: Some(at("bul/ec")),
                },
            ),
        ),
        // Adjustment and retreat verbs.
        ("build f stp/nc", order(fleet("stp/nc"), OrderKind::Build)),
        ("A Paris Build", order(army("par"), OrderKind::Build)),
        ("A par D", order(army("par"), OrderKind::Disband)),
        ("Disband A Paris", order(army("par"), OrderKind::Disband)),
        ("remove a par", order(army("par"), OrderKind::Remove)),
        (
            "waive",
            Order {
                power: None,
                unit: None,
                kind: OrderKind::Waive,
            },
        ),
        (
            "Russia: Waive",
            Order {
                power: Some(power("Russia")),
                unit: None,
                kind: OrderKind::Waive,
            },
        ),
        (
            "english: a liverpool -> edinburgh",
            Order {
                power: Some(power("England")),
                ..mv(army("lvp"), "edi")
            },
        ),
        // A missing unit letter is kept as missing (DATC 4.C.1).
        ("Kiel - Munich", mv(unlettered("kie"), "mun")),
        (
            "Kiel Supports Berlin",
            support_hold(unlettered("kie"), unlettered("ber")),
        ),
        // A wrong or irrelevant coast is kept as written (DATC 4.B.5, 4.B.6).
        ("F Spain(ec) - Gulf of Lyon", mv(fleet("spa/ec"), "lyo")),
        ("A Paris(nc) - Burgundy", mv(army("par/nc"), "bur")),
        ("F gas - spa/sc", mv(fleet("gas"), "spa/sc")),
        // A wrong unit letter is kept too (DATC 4.C.2): parsing is not legality checking.
        ("F Paris - Burgundy", mv(fleet("par"), "bur")),
        // Path specification (DATC 4.A.6).
        (
            "A Yor - Nth - Bel",
            order(
                army("yor"),
                OrderKind::Move {
                    dest: at("bel"),
                    via_convoy: false,
                    path: vec![at("nth").province],
                },
            ),
        ),
        (
            "A Lon - ENG - MAO - Portugal via convoy",
            order(
                army("lon"),
                OrderKind::Move {
                    dest: at("por"),
                    via_convoy: true,
                    path: vec![at("eng").province, at("mao").province],
                },
            ),
        ),
    ]
}

// A user types each example of the issue and checks what the parser understood.
#[test]
fn issue_examples_parse() {
    for (text, expected) in issue_examples() {
        assert_eq!(parse(text), expected, "{text:?}");
    }
}

// A user writes the same orders with abbreviations, full names, any case, every arrow and coast
// notation, and gets the same parse; what was written wrongly is kept as written.
#[test]
fn variants_parse() {
    for (text, expected) in variants() {
        assert_eq!(parse(text), expected, "{text:?}");
    }
}

// A user prints an order and reads it back: the printed text parses to the same order, in both
// name styles.
#[test]
fn print_then_parse_gives_the_same_order() {
    for (text, o) in issue_examples().into_iter().chain(variants()) {
        for style in [NameStyle::Abbr, NameStyle::Full] {
            let printed = format_order(map(), &o, style);
            let back = parse_order(map(), &printed)
                .unwrap_or_else(|e| panic!("{printed:?} (from {text:?}) should parse: {e}"));
            assert_eq!(back, o, "{text:?} printed as {printed:?} ({style:?})");
        }
    }
}

// A user checks what the printer writes: the DATC style with full names, and a compact style.
#[test]
fn printed_forms() {
    let cases = [
        (
            "F nth C A yor - bel",
            "F North Sea Convoys A Yorkshire - Belgium",
            "F Nth C A Yor - Bel",
        ),
        (
            "a rum s turkish f con - bul ec",
            "A Rumania Supports Turkish F Constantinople - Bulgaria(ec)",
            "A Rum S Turkish F Con - Bul(ec)",
        ),
        ("A Paris Hold", "A Paris Hold", "A Par H"),
        (
            "England: A Lvp - Edi",
            "England: A Liverpool - Edinburgh",
            "England: A Lvp - Edi",
        ),
        (
            "A Bre - Lon via Convoy",
            "A Brest - London via Convoy",
            "A Bre - Lon via Convoy",
        ),
        (
            "A Yor - Nth - Bel",
            "A Yorkshire - North Sea - Belgium",
            "A Yor - Nth - Bel",
        ),
        (
            "build f stp/nc",
            "Build F St Petersburg(nc)",
            "Build F Stp(nc)",
        ),
        ("Remove A Paris", "Remove A Paris", "Remove A Par"),
        ("A Paris Disband", "A Paris Disband", "A Par Disband"),
        ("Kiel - Munich", "Kiel - Munich", "Kie - Mun"),
        ("Waive", "Waive", "Waive"),
    ];
    for (text, full, abbr) in cases {
        let o = parse(text);
        assert_eq!(format_order(map(), &o, NameStyle::Full), full, "{text:?}");
        assert_eq!(format_order(map(), &o, NameStyle::Abbr), abbr, "{text:?}");
    }
}

// A user lists units and places as scenarios do: a unit needs its letter; a place may carry a
// coast.
#[test]
fn units_and_places() {
    assert_eq!(parse_unit(map(), "F Spain(nc)").unwrap(), fleet("spa/nc"));
    assert_eq!(parse_unit(map(), "A par").unwrap(), army("par"));
    assert_eq!(parse_unit(map(), "f stp/sc").unwrap(), fleet("stp/sc"));
    let e = parse_unit(map(), "Paris").unwrap_err();
    assert_eq!(
        e.to_string(),
        "column 1: expected a unit letter, A or F, before the province"
    );
    let e = parse_unit(map(), "A Paris Hold").unwrap_err();
    assert_eq!(
        e.to_string(),
        "column 9: unexpected \"Hold\" after the end of the order"
    );
    assert_eq!(parse_loc(map(), "Bulgaria (ec)").unwrap(), at("bul/ec"));
    assert_eq!(parse_loc(map(), "St Petersburg").unwrap(), at("stp"));
}

/// The error for an order that should not parse, as `column N: message`.
fn error(text: &str) -> String {
    match parse_order(map(), text) {
        Ok(o) => panic!("{text:?} should not parse, got {o:?}"),
        Err(e) => e.to_string(),
    }
}

// A user misspells a province by swapping two letters and is pointed at the word with a
// suggestion.
#[test]
fn unknown_province_transposed_letters_suggests() {
    let e = parse_order(map(), "A Parsi - Bur").unwrap_err();
    assert_eq!(e.col, 3);
    assert!(
        e.message.contains("did you mean \"Paris (par)\""),
        "{}",
        e.message
    );
}

// A user sees exact messages, with the column of the offending word, for orders that cannot be
// read.
#[test]
fn bad_orders_exact_messages() {
    let cases = [
        // Unknown province, close to a real one.
        (
            "A Par - Burgondy",
            "column 9: unknown province \"Burgondy\"; did you mean \"Burgundy (bur)\"?",
        ),
        (
            "A Pari - Bur",
            "column 3: unknown province \"Pari\"; did you mean \"Paris (par)\"?",
        ),
        (
            "F Edinbrugh S A Lvp",
            "column 3: unknown province \"Edinbrugh\"; did you mean \"Edinburgh (edi)\"?",
        ),
        // Unknown province, nothing close.
        (
            "A Atlantis - Bur",
            "column 3: unknown province \"Atlantis\"; expected a province name or abbreviation (see `dipsandbox maps`)",
        ),
        // Unknown power prefix.
        (
            "Engand: A Lvp - Edi",
            "column 1: unknown power \"Engand\"; expected one of Austria, England, France, Germany, Italy, Russia, Turkey",
        ),
        // Missing destination.
        (
            "A Lvp -",
            "column 8: expected a province name, found the end of the order",
        ),
        (
            "F North Sea Convoys A Yorkshire",
            "column 32: expected '-' and the convoyed army's destination, found the end of the order",
        ),
        // Garbage after a complete order.
        (
            "A Lvp - Edi xyz",
            "column 13: unexpected \"xyz\" after the end of the order",
        ),
        (
            "A Paris Hold now",
            "column 14: unexpected \"now\" after the end of the order",
        ),
        // Bad coast in parentheses, and an unclosed one.
        (
            "F Spa(xc) - Lyo",
            "column 7: expected a coast such as nc, sc, ec or wc inside parentheses, found \"xc\"",
        ),
        (
            "F Spa(nc - Lyo",
            "column 10: expected ')' after the coast, found \"-\"",
        ),
        (
            "F Spa/ - Lyo",
            "column 8: expected a coast such as nc, sc, ec or wc after '/', found \"-\"",
        ),
        // No verb after the unit, or an unknown one.
        (
            "A Paris",
            "column 8: expected an order after the unit (Hold, -, Supports, Convoys, Disband, Build, Remove), found the end of the order",
        ),
        (
            "A Paris Attacks Burgundy",
            "column 9: expected Hold, '-', Supports, Convoys, Disband, Build or Remove after the unit, found \"Attacks\"",
        ),
        // Nothing at all.
        (
            "",
            "column 1: empty order; expected e.g. \"A Paris - Burgundy\"",
        ),
        (
            "England:",
            "column 9: empty order; expected e.g. \"A Paris - Burgundy\"",
        ),
        // Something after Waive.
        (
            "Waive A Paris",
            "column 7: unexpected \"A\" after the end of the order",
        ),
    ];
    let mut wrong = Vec::new();
    for (text, expected) in cases {
        let got = error(text);
        if got != expected {
            wrong.push(format!("{text:?}\n   got: {got}\n  want: {expected}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// The column counts characters, not bytes: a non-ASCII character before the error does not
// shift it.
#[test]
fn error_column_counts_characters() {
    assert_eq!(
        error("A Par – Bur"),
        "column 7: expected Hold, '-', Supports, Convoys, Disband, Build or Remove after the unit, found \"–\""
    );
    assert_eq!(
        error("A Zürich - Bur"),
        "column 3: unknown province \"Zürich\"; expected a province name or abbreviation (see `dipsandbox maps`)"
    );
}

// jDip writes a coast glued to the next province with a hyphen: `F spa/nc-gol`.
#[test]
fn jdip_glued_coast() {
    let a = parse_order(map(), "F spa/nc-gol").unwrap();
    let b = parse_order(map(), "F Spain(nc) - Gulf of Lyon").unwrap();
    assert_eq!(a, b);
    let c = parse_order(map(), "F con-bul/ec").unwrap();
    assert_eq!(
        c,
        parse_order(map(), "F Constantinople - Bulgaria(ec)").unwrap()
    );
}
