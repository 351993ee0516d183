//! Regressions found by the fuzz targets in `fuzz/` (see docs/fuzzing.md): each crash's input,
//! cut down, and what must happen instead.

use dipsandbox_core::io::jdip;
use dipsandbox_core::model::map::Map;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::invariants::{check_scenario, report};

/// Imports one jDip text; returns the imported cases' scenarios and the problems' messages.
fn import(text: &str) -> (Vec<Scenario>, Vec<String>) {
    let f = jdip::parse(text, "fuzz.txt", Map::standard_arc());
    (
        f.cases.into_iter().map(|c| c.scenario).collect(),
        f.problems
            .into_iter()
            .map(|p| format!("line {}: {}", p.line, p.message))
            .collect(),
    )
}

/// Found by `jdip_import`: an expected position (POSTSTATE) listing two units in one province
/// was imported, and the scenario written from it did not load again ("two units in Berlin").
/// The importer now refuses such a position where it is, as the scenario loader does.
#[test]
fn jdip_position_with_two_units_in_one_province_is_a_problem() {
    let text = "VARIANT_ALL Standard
CASE 6many: F kie-ber
PRESTATE
\tGermany: A ber
\tGermany: F kie
\tRussia: A war
ORDERS
\tGermany: A ber-pru
\tGermany: F kie-ber
\tRussia: A war-pru
POSTSTATE
\tGermany: A ber
\tGermany: F kie
\tGermany: A ber
END
";
    let (cases, problems) = import(text);
    assert!(
        cases.is_empty(),
        "imported: {:?}",
        cases.first().map(|s| s.to_ron())
    );
    assert_eq!(
        problems,
        vec![
            "line 14: \"Germany: A ber\": two units in Berlin: German A Berlin and German A Berlin; a province holds one unit"
                .to_string()
        ]
    );
}

/// The same check for the position before the orders, and the places a unit cannot stand: the
/// adjudicator is only defined on positions the scenario loader accepts, and an imported case
/// is one.
#[test]
fn jdip_positions_are_checked_like_scenario_positions() {
    let case = |prestate: &str| {
        format!("VARIANT_ALL Standard\nCASE c\nPRESTATE\n{prestate}\nORDERS\nPOSTSTATE_SAME\nEND\n")
    };
    for (prestate, message) in [
        (
            "Russia: A war\nGermany: F war",
            "line 5: \"Germany: F war\": a fleet cannot stand in Warsaw, an inland province",
        ),
        (
            "England: A nth",
            "line 4: \"England: A nth\": an army cannot stand in North Sea, a sea",
        ),
        (
            "Russia: F stp",
            "line 4: \"Russia: F stp\": a fleet in St Petersburg must name its coast: stp/nc or stp/sc",
        ),
        (
            "Russia: F stp/nc\nRussia: F stp/sc",
            "line 5: \"Russia: F stp/sc\": two units in St Petersburg: Russian F St Petersburg(nc) and Russian F St Petersburg(sc); a province holds one unit",
        ),
    ] {
        let (cases, problems) = import(&case(prestate));
        assert!(cases.is_empty(), "{prestate:?} imported");
        assert_eq!(problems, vec![message.to_string()], "{prestate:?}");
    }
    // A sound case still imports, adjudicates cleanly and saves and loads.
    let (cases, problems) = import(&case("Russia: F stp/nc\nGermany: A ber"));
    assert!(problems.is_empty(), "{problems:?}");
    let s = &cases[0];
    let v = check_scenario(s, &s.rules, 1);
    assert!(v.is_empty(), "{}", report(&v));
    let back = Scenario::from_ron(&s.to_ron(), "back.ron").expect("loads again");
    let sorted = |mut v: Vec<dipsandbox_core::model::board::Unit>| {
        v.sort();
        v
    };
    assert_eq!(sorted(back.units), sorted(s.units.clone()));
}

/// Found by `jdip_import` in the long run: `France: Italy: F gol hold` (and a misspelled power
/// read as Italy before `Turkey: F bla-con`) gave an order prefixed by one power under another;
/// the scenario written from it did not load again. Now a problem with its line.
#[test]
fn jdip_order_prefixed_by_another_power_is_a_problem() {
    let text = "VARIANT_ALL Standard
CASE 6.B.5
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tFrance: F spa/nc
\tFrance: F mar
\tItaly: F gol
ORDERS
\tFrance: F spa/nc supports F mar-gol
\tFrance: Italy: F gol hold
POSTSTATE_SAME
END
";
    let (cases, problems) = import(text);
    assert!(cases.is_empty());
    assert_eq!(
        problems,
        vec![
            "line 10: \"France: Italy: F gol hold\": the order is prefixed Italy but given by France"
                .to_string()
        ]
    );
    // The order given by the power it names is fine.
    let (cases, problems) =
        import(&text.replace("France: Italy: F gol hold", "Italy: Italy: F gol hold"));
    assert!(problems.is_empty(), "{problems:?}");
    let s = &cases[0];
    assert!(check_scenario(s, &s.rules, 3).is_empty());
    assert!(Scenario::from_ron(&s.to_ron(), "back.ron").is_ok());
}

/// Found by `adjudicate` (the long run): under `multiple_orders: Hold`, a unit given an
/// imperfectly designated order twice (an army's letter for a fleet, `wrong_unit_type:
/// ValidUnlessOther`) and two distinct perfect orders. The imperfect order yields to the
/// perfect ones, which conflict, so the unit holds; but only the imperfect order's first copy
/// was marked "another order counts" and the second "several orders", so which copy said what
/// depended on the order the orders were listed in. Every copy now says the unit has several
/// orders and holds, in every listing.
#[test]
fn copies_of_an_imperfect_order_share_their_reason_in_any_listing() {
    let text = r#"Scenario(
    title: "Several orders, two of them imperfect copies",
    map: "standard",
    phase: "Spring 1901 Movement",
    rules: (multiple_orders: Hold, wrong_unit_type: ValidUnlessOther),
    units: { "Austria": ["F Trieste"] },
    orders: {
        "Austria": ["A Tri - Adr", "F Tri - Adr", "A Tri - Adr", "F Tri H"],
    },
)"#;
    let s = Scenario::from_ron(text, "regression.ron").expect("loads");
    let run = dipsandbox_core::tools::check::run(&s, None, false).expect("runs");
    let reasons: Vec<String> = run
        .result
        .decisions()
        .cloned()
        .expect("a movement phase")
        .outcomes
        .iter()
        .map(|o| o.reason.clone())
        .collect();
    assert_eq!(reasons.len(), 4);
    for r in &reasons {
        assert_eq!(
            r, "illegal: the unit has several orders (4.D.3): it holds",
            "{reasons:?}"
        );
    }
    for seed in 0..16 {
        let v = check_scenario(&s, &s.rules, seed);
        assert!(v.is_empty(), "seed {seed}: {}", report(&v));
    }
}

/// Found by `scenario_loader` (fuzz/run.sh 900, after 1.48 million executions): a power whose
/// orders are listed twice in `orders` had them grouped by saving, so an expected result keyed
/// by a text two powers share ("Build A Berlin") named another power's order after a save.
/// Loading now takes a power's lists together at its first one, as saving writes them.
#[test]
fn a_power_listed_twice_keeps_its_results_through_a_save() {
    let text = r#"Scenario(
    title: "split lists",
    phase: "Winter 1901 Adjustment",
    orders: {
        "England": ["Build F London"],
        "Germany": ["Build A Berlin"],
        "England": ["Build A Berlin"],
    },
    expect: (results: [
        ("Build A Berlin", Succeeds),
        ("Build A Berlin", Fails),
        ("Build F London", Succeeds),
    ]),
)"#;
    let results =
        |s: &Scenario| -> Vec<(String, String, dipsandbox_core::model::scenario::Expected)> {
            s.expect
                .iter()
                .flat_map(|e| e.results.iter())
                .map(|(i, key, r)| {
                    let o = &s.orders[*i];
                    (
                        s.map.power(o.power).name.clone(),
                        format!("{} {key}", o.text),
                        *r,
                    )
                })
                .collect()
        };
    let loaded = Scenario::from_ron(text, "split.ron").expect("loads");
    let powers: Vec<&str> = loaded
        .orders
        .iter()
        .map(|o| loaded.map.power(o.power).name.as_str())
        .collect();
    assert_eq!(powers, ["England", "England", "Germany"]);
    let saved = loaded.to_ron();
    let again = Scenario::from_ron(&saved, "split.ron").expect("loads again");
    assert_eq!(results(&loaded), results(&again), "{saved}");
    assert_eq!(
        results(&loaded)
            .iter()
            .map(|(p, _, r)| (p.as_str(), *r))
            .collect::<Vec<_>>(),
        [
            (
                "England",
                dipsandbox_core::model::scenario::Expected::Succeeds
            ),
            ("Germany", dipsandbox_core::model::scenario::Expected::Fails),
            (
                "England",
                dipsandbox_core::model::scenario::Expected::Succeeds
            ),
        ]
    );
}

/// The case left open by the fix above: two powers' orders interleaved in memory, while saving
/// writes each power's orders together. A result keyed by a text another power's order shares
/// ("Build A Berlin") then named that other order after a save and reload. Saving now prefixes
/// such a key with its order's power, and only such a key. (The editor used to interleave
/// orders by appending an added one; it now puts it after its power's last order, so the
/// interleaving is made here by hand, as a program holding a `Scenario` can.)
#[test]
fn results_keep_their_orders_when_edited_orders_interleave() {
    use dipsandbox_core::model::orders::parse_order;
    use dipsandbox_core::model::scenario::{Expect, Expected, OrderEntry};
    use dipsandbox_core::tools::edit::{Edit, Editor};
    let text = r#"Scenario(
    title: "interleaved",
    phase: "Winter 1901 Adjustment",
    orders: {
        "England": ["Build F London"],
        "Germany": ["Build A Berlin"],
    },
)"#;
    let mut s = Scenario::from_ron(text, "interleaved.ron").expect("loads");
    let england = s.map.find_power("England").expect("England");
    let order = parse_order(&s.map, "Build A Berlin").expect("parses");
    s.orders.push(OrderEntry {
        power: england,
        text: "Build A Berlin".into(),
        order,
    });
    let mut ed = Editor::new(s);
    // In memory: England, Germany, England. Germany's order is expected to fail, England's
    // Build A Berlin to succeed.
    let expect = Expect {
        results: vec![
            (1, "Build A Berlin".into(), Expected::Fails),
            (2, "Build A Berlin".into(), Expected::Succeeds),
            (0, "Build F London".into(), Expected::Succeeds),
        ],
        dislodged: None,
        positions: None,
    };
    ed.apply(Edit::Expectations(Some(expect), None))
        .expect("sets expectations");
    let by_power = |s: &Scenario| -> Vec<(String, String, String)> {
        let mut v: Vec<_> = s
            .expect
            .iter()
            .flat_map(|e| e.results.iter())
            .map(|(i, _, r)| {
                let o = &s.orders[*i];
                (
                    s.map.power(o.power).name.clone(),
                    o.text.clone(),
                    format!("{r:?}"),
                )
            })
            .collect();
        v.sort();
        v
    };
    let before = by_power(ed.scenario());
    let saved = ed.scenario().to_ron();
    let again = Scenario::from_ron(&saved, "interleaved.ron").expect("loads again");
    assert_eq!(by_power(&again), before, "{saved}");
    // Only the key that needed it carries a power.
    assert!(
        saved.contains("(\"Germany: Build A Berlin\", Fails)"),
        "{saved}"
    );
    assert!(saved.contains("(\"Build A Berlin\", Succeeds)"), "{saved}");
    assert!(saved.contains("(\"Build F London\", Succeeds)"), "{saved}");
    // Saving what was loaded changes nothing.
    assert_eq!(again.to_ron(), saved);
}

/// Found by `scenario_loader` (fuzz/run.sh 600, after 3.7 million executions): a scenario in
/// which no centre is owned (`owners: { "Russia": [] }`) was saved as `owners: {}`, which reads
/// back as the default, every power owning its home centres. Saving now writes a power with an
/// empty list in that case.
#[test]
fn no_centre_owned_stays_so_through_a_save() {
    let text = r#"Scenario(
    title: "nobody owns anything",
    phase: "Winter 1901 Adjustment",
    units: { "Russia": ["A Warsaw"] },
    owners: { "Russia": [] },
)"#;
    let loaded = Scenario::from_ron(text, "owners.ron").expect("loads");
    let owners = loaded.owners.clone().expect("owners stated");
    assert!(owners.iter().all(Option::is_none));
    let saved = loaded.to_ron();
    let again = Scenario::from_ron(&saved, "owners.ron").expect("loads again");
    assert_eq!(again.owners, Some(owners), "{saved}");
    assert_eq!(again.to_ron(), saved);
}
