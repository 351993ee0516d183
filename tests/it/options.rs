//! Rule options that no DATC variant file exercises: each changes the outcome the way DATC
//! chapter 4 describes.

use dipsandbox_core::engine::Verdict;
use dipsandbox_core::model::rules::{PathSpecification, Rules};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::run;

/// Adjudicates a scenario body (units and orders) under `rules`; returns each order's verdict and
/// the final units as text.
fn adjudicate(
    phase: &str,
    units: &str,
    orders: &str,
    owners: &str,
    rules: &str,
) -> (Vec<(String, Verdict)>, Vec<String>) {
    let text = format!(
        "Scenario(title: \"t\", phase: \"{phase}\", rules: ({rules}), units: {{{units}}}, owners: {{{owners}}}, orders: {{{orders}}})"
    );
    let s = Scenario::from_ron(&text, "inline.ron").unwrap_or_else(|e| panic!("{e}"));
    let r = run(&s, None, false).expect("runs");
    let verdicts = s
        .orders
        .iter()
        .zip(&r.phase().outcomes)
        .map(|(o, out)| (o.text.clone(), out.verdict))
        .collect();
    let mut units: Vec<String> = r
        .phase()
        .final_units
        .iter()
        .map(|u| u.describe_owned(&s.map))
        .collect();
    units.sort();
    (verdicts, units)
}

fn verdicts(v: &(Vec<(String, Verdict)>, Vec<String>)) -> Vec<Verdict> {
    v.0.iter().map(|(_, x)| *x).collect()
}

const CONVOY_UNITS: &str = r#""England": ["A London", "F North Sea", "F English Channel"], "Germany": ["F Denmark", "F Skagerrak"]"#;

fn convoy_orders(army: &str) -> String {
    format!(
        r#""England": ["{army}", "F North Sea Convoys A London - Belgium", "F English Channel Convoys A London - Belgium"], "Germany": ["F Denmark - North Sea", "F Skagerrak Supports F Denmark - North Sea"]"#
    )
}

// 4.A.6: a written path is ignored by default (the army goes round through the Channel); when
// paths are allowed, the written path must hold; when required, an order without one is illegal.
#[test]
fn path_specification() {
    let verdict = |army: &str, rules: &str| {
        adjudicate(
            "Spring 1901 Movement",
            CONVOY_UNITS,
            &convoy_orders(army),
            "",
            rules,
        )
        .0[0]
            .1
    };
    let allowed = "path_specification: Allowed";
    let required = "path_specification: Required";
    assert_eq!(
        verdict("A London - North Sea - Belgium", ""),
        Verdict::Succeeds
    );
    assert_eq!(
        verdict("A London - North Sea - Belgium", allowed),
        Verdict::Fails
    );
    assert_eq!(verdict("A London - Belgium", allowed), Verdict::Succeeds);
    assert_eq!(verdict("A London - Belgium", required), Verdict::Illegal);
    assert_eq!(
        verdict("A London - English Channel - Belgium", required),
        Verdict::Succeeds
    );
    assert_eq!(PathSpecification::default(), PathSpecification::Ignored);
}

// 4.D.3: two different orders to one unit — it holds (default), or the first or last counts.
#[test]
fn multiple_orders() {
    let units = r#""England": ["A Liverpool"]"#;
    let orders = r#""England": ["A Liverpool - Yorkshire", "A Liverpool - Wales"]"#;
    let hold = adjudicate("Spring 1901 Movement", units, orders, "", "");
    assert_eq!(verdicts(&hold), [Verdict::Illegal, Verdict::Illegal]);
    assert_eq!(hold.1, ["English A Liverpool"]);
    let first = adjudicate(
        "Spring 1901 Movement",
        units,
        orders,
        "",
        "multiple_orders: First",
    );
    assert_eq!(verdicts(&first), [Verdict::Succeeds, Verdict::Illegal]);
    assert_eq!(first.1, ["English A Yorkshire"]);
    let last = adjudicate(
        "Spring 1901 Movement",
        units,
        orders,
        "",
        "multiple_orders: Last",
    );
    assert_eq!(verdicts(&last), [Verdict::Illegal, Verdict::Succeeds]);
    assert_eq!(last.1, ["English A Wales"]);
    // The same order twice is one order.
    let twice = adjudicate(
        "Spring 1901 Movement",
        units,
        r#""England": ["A Liverpool - Wales", "A Lvp - Wal"]"#,
        "",
        "",
    );
    assert_eq!(verdicts(&twice), [Verdict::Succeeds, Verdict::Succeeds]);
}

// 4.C.1 / 4.C.2: a missing or wrong unit letter is accepted by default, rejected when invalid.
#[test]
fn unit_designation() {
    let units = r#""England": ["A Liverpool"]"#;
    let missing = r#""England": ["Liverpool - Yorkshire"]"#;
    let wrong = r#""England": ["F Liverpool - Yorkshire"]"#;
    assert_eq!(
        verdicts(&adjudicate("Spring 1901 Movement", units, missing, "", "")),
        [Verdict::Succeeds]
    );
    assert_eq!(
        verdicts(&adjudicate(
            "Spring 1901 Movement",
            units,
            missing,
            "",
            "missing_unit_type: Invalid"
        )),
        [Verdict::Illegal]
    );
    assert_eq!(
        verdicts(&adjudicate("Spring 1901 Movement", units, wrong, "", "")),
        [Verdict::Succeeds]
    );
    assert_eq!(
        verdicts(&adjudicate(
            "Spring 1901 Movement",
            units,
            wrong,
            "",
            "wrong_unit_type: Invalid"
        )),
        [Verdict::Illegal]
    );
    // Valid unless there is another order with the right letter: that one counts.
    let both = r#""England": ["F Liverpool - Wales", "A Liverpool - Yorkshire"]"#;
    let r = adjudicate(
        "Spring 1901 Movement",
        units,
        both,
        "",
        "wrong_unit_type: ValidUnlessOther",
    );
    assert_eq!(verdicts(&r), [Verdict::Illegal, Verdict::Succeeds]);
    assert_eq!(r.1, ["English A Yorkshire"]);
}

// 4.C.5 / 4.C.6: the nationality of a supported foreign unit.
#[test]
fn nationality_in_support() {
    let units = r#""Russia": ["A Rumania"], "Turkey": ["F Constantinople"], "Austria": ["A Bulgaria"], "Italy": ["F Aegean Sea"]"#;
    let run_with = |support: &str, rules: &str| {
        let orders = format!(
            r#""Russia": ["{support}"], "Turkey": ["F Constantinople - Bulgaria(ec)"], "Italy": ["F Aegean Sea Supports A Bulgaria"]"#
        );
        verdicts(&adjudicate(
            "Spring 1901 Movement",
            units,
            &orders,
            "",
            rules,
        ))
    };
    // The support is given (nothing cuts it) unless the rules reject its nationality.
    assert_eq!(
        run_with("A Rumania Supports F Constantinople - Bulgaria(ec)", "")[0],
        Verdict::Succeeds
    );
    assert_eq!(
        run_with(
            "A Rumania Supports F Constantinople - Bulgaria(ec)",
            "missing_nationality: Invalid"
        )[0],
        Verdict::Void
    );
    assert_eq!(
        run_with(
            "A Rumania Supports Turkish F Constantinople - Bulgaria(ec)",
            "missing_nationality: Invalid"
        )[0],
        Verdict::Succeeds
    );
    assert_eq!(
        run_with(
            "A Rumania Supports Austrian F Constantinople - Bulgaria(ec)",
            ""
        )[0],
        Verdict::Succeeds
    );
    assert_eq!(
        run_with(
            "A Rumania Supports Austrian F Constantinople - Bulgaria(ec)",
            "wrong_nationality: Invalid"
        )[0],
        Verdict::Void
    );
}

// 4.E.1: an illegal move is ignored by default, so the unit can be supported in place; under the
// "Fail" choice it stays a failed move and the hold support does not count.
#[test]
fn illegal_orders() {
    let units =
        r#""Germany": ["A Munich"], "Austria": ["A Tyrolia"], "France": ["A Burgundy", "A Ruhr"]"#;
    let orders = r#""Germany": ["A Munich - Moscow"], "Austria": ["A Tyrolia Supports A Munich"], "France": ["A Burgundy - Munich", "A Ruhr Supports A Burgundy - Munich"]"#;
    let ignore = adjudicate("Spring 1901 Movement", units, orders, "", "");
    assert_eq!(
        verdicts(&ignore),
        [
            Verdict::Illegal,
            Verdict::Succeeds,
            Verdict::Fails,
            Verdict::Succeeds
        ]
    );
    assert!(ignore.1.contains(&"German A Munich".to_string()));
    let fail = adjudicate(
        "Spring 1901 Movement",
        units,
        orders,
        "",
        "illegal_orders: Fail",
    );
    assert_eq!(
        verdicts(&fail),
        [
            Verdict::Illegal,
            Verdict::Void,
            Verdict::Succeeds,
            Verdict::Succeeds
        ]
    );
    assert!(fail.1.contains(&"French A Munich".to_string()));
}

// 4.C.3: a build without unit letter — an army inland (default), always failing, or armies only.
#[test]
fn build_missing_type() {
    let units = r#""France": ["A Picardy"]"#;
    let owners = r#""France": ["Paris", "Brest", "Marseilles"]"#;
    let orders = r#""France": ["Build Paris", "Build Brest"]"#;
    let infer = adjudicate("Winter 1901 Adjustment", units, orders, owners, "");
    assert_eq!(verdicts(&infer), [Verdict::Succeeds, Verdict::Illegal]);
    assert!(infer.1.contains(&"French A Paris".to_string()));
    let never = adjudicate(
        "Winter 1901 Adjustment",
        units,
        orders,
        owners,
        "build_missing_type: AlwaysFail",
    );
    assert_eq!(verdicts(&never), [Verdict::Illegal, Verdict::Illegal]);
    let coast = adjudicate(
        "Winter 1901 Adjustment",
        units,
        r#""France": ["Build Brest(nc)"]"#,
        owners,
        "",
    );
    assert_eq!(verdicts(&coast), [Verdict::Succeeds]);
    assert!(coast.1.contains(&"French F Brest".to_string()));
}

// `--rules`: presets and single overrides, with clear errors.
#[test]
fn rules_spec() {
    assert_eq!(Rules::parse_spec("datc").expect("datc"), Rules::default());
    let r = Rules::parse_spec("1971,multi_route_disruption=AllRoutes").expect("spec");
    assert_eq!(r.paradox, dipsandbox_core::model::rules::Paradox::Rule1971);
    assert_eq!(
        r.multi_route_disruption,
        dipsandbox_core::model::rules::MultiRoute::AllRoutes
    );
    assert_eq!(
        Rules::parse_spec("paradox=rule1982")
            .expect("case-insensitive")
            .paradox,
        dipsandbox_core::model::rules::Paradox::Rule1982
    );
    let e = Rules::parse_spec("1983").unwrap_err().to_string();
    assert_eq!(
        e,
        "unknown rules preset \"1983\"; expected one of datc, 2023, 2000, 1982, 1971, dptg, or field=Value"
    );
    let e = Rules::parse_spec("paradox=Maybe").unwrap_err().to_string();
    assert_eq!(
        e,
        "unknown value \"Maybe\" for paradox; expected one of Szykman, Rule1971, Rule1982, Rule2000, AllHold"
    );
    let e = Rules::parse_spec("paradoks=Szykman")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(
            "unknown rule option \"paradoks\" (did you mean \"paradox\"?); expected one of multi_route_disruption, paradox,"
        ),
        "{e}"
    );
    for (name, _) in dipsandbox_core::model::rules::PRESETS {
        assert!(Rules::preset(name).is_some(), "{name}");
    }
}

/// A rule diff of a scenario with itself is empty, and swapping the rule sets swaps the sides.
#[test]
fn rule_diffs_are_empty_on_equal_rules_and_symmetric() {
    use dipsandbox_core::model::rules::{PRESETS, Rules};
    use dipsandbox_core::tools::diff::diff;
    let mut seen = 0;
    for e in std::fs::read_dir("scenarios/datc").expect("datc").flatten() {
        let s = dipsandbox_core::model::scenario::Scenario::load(&e.path()).expect("loads");
        for (p, _) in PRESETS {
            let r = Rules::preset(p).expect("preset");
            assert!(diff(&s, r, r).expect("runs").is_empty());
            let ab = diff(&s, s.rules, r).expect("runs");
            let ba = diff(&s, r, s.rules).expect("runs");
            assert_eq!(ab.len(), ba.len());
            assert_eq!(ab.positions.only_a, ba.positions.only_b);
            for (x, y) in ab.orders.iter().zip(&ba.orders) {
                assert_eq!((x.index, &x.a, &x.b), (y.index, &y.b, &y.a));
            }
            seen += usize::from(!ab.is_empty());
        }
    }
    assert!(seen > 50, "{seen}");
}

/// 4.A.3's fallback takes four values, written `false`, `true` (booleans, as scenario files
/// have always written them), `ExceptSupportAgainstFleet` and `PythonPackage`; each is read
/// from a scenario file and from `--rules`, and a scenario saved with it reads back the same.
/// The scenarios in scenarios/examples show each value changing the result (tests/it/datc.rs
/// checks every scenario file), and the third departs from `true` exactly where the land attack
/// would cut a support against the convoying fleet.
#[test]
fn the_land_fallback_takes_four_values_and_each_round_trips() {
    use dipsandbox_core::model::rules::ConvoyFallback;
    for (written, value) in [
        ("false", ConvoyFallback::No),
        ("true", ConvoyFallback::Yes),
        (
            "ExceptSupportAgainstFleet",
            ConvoyFallback::ExceptSupportAgainstFleet,
        ),
        ("PythonPackage", ConvoyFallback::PythonPackage),
    ] {
        let r = Rules::parse_spec(&format!("adjacent_convoy_fallback={written}")).expect("spec");
        assert_eq!(r.adjacent_convoy_fallback, value);
        let text = format!(
            "Scenario(title: \"t\", phase: \"Spring 1901 Movement\", rules: (adjacent_convoy_fallback: {written}), units: {{}}, orders: {{}})"
        );
        let s = Scenario::from_ron(&text, "inline.ron").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.rules.adjacent_convoy_fallback, value);
        let again = Scenario::from_ron(&s.to_ron(), "again.ron").expect("reads back");
        assert_eq!(again.rules, s.rules, "{}", s.to_ron());
    }
    let bad = "Scenario(title: \"t\", phase: \"Spring 1901 Movement\", rules: (adjacent_convoy_fallback: maybe), units: {}, orders: {})";
    let e = Scenario::from_ron(bad, "bad.ron")
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("maybe") && e.contains("ExceptSupportAgainstFleet"),
        "{e}"
    );
    // The third value: the same as `true` unless the destination supports an attack on a
    // convoying fleet.
    let except = "adjacent_convoy_fallback: ExceptSupportAgainstFleet";
    let units = "\"France\": [\"A Belgium\"], \"England\": [\"F North Sea\", \"A Holland\"]";
    let orders = "\"France\": [\"A Belgium - Holland via convoy\"], \"England\": [\"F North Sea - Helgoland Bight\", \"A Holland - Kiel\"]";
    let moved = |rules: &str| {
        adjudicate("Spring 1901 Movement", units, orders, "", rules)
            .1
            .contains(&"French A Holland".to_string())
    };
    assert!(!moved(""), "no fallback by default (6.G.8)");
    assert!(moved("adjacent_convoy_fallback: true"));
    assert!(moved(except), "no support against a fleet: it falls back");
}

/// `adjacent_convoy_fallback=PythonPackage` (the Python `diplomacy` package's game.py): the
/// fallback follows the orders. An army ordered via convoy to a neighbour with no possible
/// convoy route is illegal; with a route possible but no fleet ordered along it, it moves by
/// land; with a route of ordered convoys it keeps to it, and stays when the convoy is disrupted;
/// an army convoyed by intent (its own fleet, no `via convoy`) falls back when disrupted, unless
/// the land attack would cut a support against the convoying fleet.
#[test]
fn the_python_packages_fallback_follows_the_orders() {
    let python = "adjacent_convoy_fallback: PythonPackage";
    // No fleet at sea between Picardy and Brest: no route is possible.
    let alone = adjudicate(
        "Spring 1901 Movement",
        "\"France\": [\"A Picardy\"]",
        "\"France\": [\"A Picardy - Brest via convoy\"]",
        "",
        python,
    );
    assert_eq!(verdicts(&alone), [Verdict::Illegal]);
    assert_eq!(alone.1, ["French A Picardy"]);
    // The same order is legal under the other values: it fails without fallback and moves by
    // land with it.
    for (rules, verdict) in [
        ("", Verdict::Fails),
        ("adjacent_convoy_fallback: true", Verdict::Succeeds),
    ] {
        let r = adjudicate(
            "Spring 1901 Movement",
            "\"France\": [\"A Picardy\"]",
            "\"France\": [\"A Picardy - Brest via convoy\"]",
            "",
            rules,
        );
        assert_eq!(verdicts(&r), [verdict], "{rules}");
    }
    // A fleet in the Channel that could convoy but is not ordered to: the army goes by land.
    let idle = adjudicate(
        "Spring 1901 Movement",
        "\"France\": [\"A Picardy\"], \"England\": [\"F English Channel\"]",
        "\"France\": [\"A Picardy - Brest via convoy\"]",
        "",
        python,
    );
    assert_eq!(verdicts(&idle), [Verdict::Succeeds]);
    assert!(
        idle.1.contains(&"French A Brest".to_string()),
        "{:?}",
        idle.1
    );
    // The Channel fleet convoys and is dislodged (London, supported from the North Sea).
    let units = "\"France\": [\"A Picardy\", \"F English Channel\"], \"England\": [\"F London\", \"F North Sea\"]";
    let disrupted = |via: &str, rules: &str| {
        adjudicate(
            "Spring 1901 Movement",
            units,
            &format!(
                "\"France\": [\"A Picardy - Brest{via}\", \"F English Channel Convoys A Picardy - Brest\"], \"England\": [\"F London - English Channel\", \"F North Sea Supports F London - English Channel\"]"
            ),
            "",
            rules,
        )
    };
    // Ordered via convoy: it keeps to its convoy and stays (where `true` and
    // `ExceptSupportAgainstFleet` send it by land).
    let via = disrupted(" via convoy", python);
    assert_eq!(via.0[0].1, Verdict::Fails);
    assert!(
        via.1.contains(&"French A Picardy".to_string()),
        "{:?}",
        via.1
    );
    for other in ["true", "ExceptSupportAgainstFleet"] {
        let r = disrupted(" via convoy", &format!("adjacent_convoy_fallback: {other}"));
        assert_eq!(r.0[0].1, Verdict::Succeeds, "{other}");
    }
    // By intent (no `via convoy`): it falls back to the land route.
    let intent = disrupted("", python);
    assert_eq!(intent.0[0].1, Verdict::Succeeds);
    assert!(
        intent.1.contains(&"French A Brest".to_string()),
        "{:?}",
        intent.1
    );
    // By intent, but the destination supports the attack on the convoying fleet: it keeps to
    // the convoy, so that support stands, and stays.
    let against = adjudicate(
        "Spring 1901 Movement",
        "\"France\": [\"A Picardy\", \"F English Channel\"], \"England\": [\"F London\", \"F Belgium\", \"F North Sea\"]",
        "\"France\": [\"A Picardy - Belgium\", \"F English Channel Convoys A Picardy - Belgium\"], \"England\": [\"F London - English Channel\", \"F Belgium Supports F London - English Channel\", \"F North Sea Supports F London - English Channel\"]",
        "",
        python,
    );
    assert_eq!(against.0[0].1, Verdict::Fails);
    assert_eq!(
        against.0[3].1,
        Verdict::Succeeds,
        "the Belgian support stands"
    );
}
