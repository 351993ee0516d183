//! The reusable [`Adjudicator`] against [`adjudicate_movement`]: on every movement scenario
//! under `scenarios/` and on synthetic boards, one workspace used again and again gives the same
//! typed outcomes, words, unit fates, dislodgements and standoffs as a fresh call. Plus maps
//! beyond 16-bit ids, and the synthetic patterns' expected results.

use crate::common;

use common::ron_files;

use std::path::Path;

use dipsandbox_core::engine::{Adjudicator, Verdict, adjudicate_movement};
use dipsandbox_core::model::board::PhaseKind;
use dipsandbox_core::model::map::{Map, PowerId};
use dipsandbox_core::model::orders::Order;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::synth::{Pattern, position, ring_map};

/// Everything the two entry points report, compared.
fn same(
    adj: &mut Adjudicator,
    map: &Map,
    units: &[dipsandbox_core::model::board::Unit],
    orders: &[(PowerId, Order)],
    rules: &Rules,
    what: &str,
) {
    let fresh = adjudicate_movement(map, units, orders, rules);
    let typed = adj.adjudicate(map, units, orders, rules).to_vec();
    assert_eq!(typed.len(), fresh.outcomes.len(), "{what}");
    for (i, (t, f)) in typed.iter().zip(&fresh.outcomes).enumerate() {
        assert_eq!(t.verdict, f.verdict, "{what}: order {i}");
        assert_eq!(t.reason, f.cause, "{what}: order {i}");
        assert_eq!(t.backup, f.backup, "{what}: order {i}");
        assert_eq!(
            adj.reason_text(map, units, orders, i).as_deref(),
            Some(f.reason.as_str()),
            "{what}: order {i}"
        );
    }
    assert_eq!(adj.reason_text(map, units, orders, typed.len()), None);
    assert_eq!(adj.units(), &fresh.units[..], "{what}");
    assert_eq!(adj.final_units(), &fresh.final_units[..], "{what}");
    assert_eq!(adj.dislodged(), &fresh.dislodged[..], "{what}");
    assert_eq!(adj.contested(), &fresh.contested[..], "{what}");
    assert_eq!(adj.backup_applied(), fresh.backup_applied(), "{what}");
    assert_eq!(adj.prepared().status, fresh.prepared.status, "{what}");
}

#[test]
fn one_workspace_agrees_with_fresh_calls_on_every_movement_scenario() {
    let mut files = Vec::new();
    ron_files(Path::new("scenarios"), &mut files);
    // Each file read once.
    let scenarios: Vec<_> = files
        .iter()
        .filter_map(|f| Some((f, Scenario::load(f).ok()?)))
        .filter(|(_, s)| s.phase.kind == PhaseKind::Movement)
        .collect();
    let mut adj = Adjudicator::new();
    let mut count = 0;
    // Twice over, so that every scenario also runs in buffers sized by the others.
    for round in 0..2 {
        for (f, s) in &scenarios {
            let orders: Vec<(PowerId, Order)> = s
                .orders
                .iter()
                .map(|e| (e.power, e.order.clone()))
                .collect();
            let what = format!("{} (round {round})", f.display());
            same(&mut adj, &s.map, &s.units, &orders, &s.rules, &what);
            count += 1;
        }
    }
    assert!(count > 200, "{count} movement scenarios");
}

#[test]
fn one_workspace_agrees_on_synthetic_boards_of_every_pattern() {
    let mut adj = Adjudicator::new();
    let rules = Rules::default();
    for n in [3, 4, 50, 400, 7] {
        for pattern in Pattern::ALL {
            for seed in 0..3 {
                let s = position(pattern, n, seed).expect("synthetic map");
                let what = format!("{} n={n} seed={seed}", pattern.name());
                same(&mut adj, &s.map, &s.units, &s.orders, &rules, &what);
            }
        }
    }
}

#[test]
fn synthetic_patterns_have_their_expected_results() {
    let rules = Rules::default();
    let mut adj = Adjudicator::new();
    for n in [3, 10, 1000] {
        let ring = position(Pattern::Ring, n, 0).unwrap();
        let out = adj.adjudicate(&ring.map, &ring.units, &ring.orders, &rules);
        assert!(
            out.iter().all(|o| o.verdict == Verdict::Succeeds),
            "ring {n}"
        );
        assert!(adj.backup_applied(), "the ring is circular movement");

        let chain = position(Pattern::ChainBounce, n, 0).unwrap();
        let out = adj.adjudicate(&chain.map, &chain.units, &chain.orders, &rules);
        assert!(out.iter().all(|o| o.verdict == Verdict::Fails), "chain {n}");
        assert_eq!(adj.contested().len(), 1, "chain {n}");
        assert!(adj.dislodged().is_empty());

        let hold = position(Pattern::SupportHold, n, 0).unwrap();
        let out = adj.adjudicate(&hold.map, &hold.units, &hold.orders, &rules);
        assert!(
            out.iter().all(|o| o.verdict == Verdict::Succeeds),
            "hold {n}"
        );
    }
}

/// 70,000 provinces: beyond 16-bit ids, which used to wrap and give a false one-sided border.
/// Slow tier (the size is what it guards: no smaller map has such ids); the same calls on small
/// rings are in `synthetic_patterns_have_their_expected_results` and `ring.rs`.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn a_map_beyond_16_bit_ids_loads_and_adjudicates() {
    let map = ring_map(70_000).expect("a ring of 70,000 provinces is valid");
    assert_eq!(map.province_count(), 70_000);
    let last = map.find_province("p69999").unwrap();
    let first = map.find_province("p0").unwrap();
    assert!(map.army_adjacent(last, first));
    assert!(map.army_adjacent(first, last));
    let s = position(Pattern::ChainBounce, 70_000, 0).unwrap();
    let r = adjudicate_movement(&s.map, &s.units, &s.orders, &Rules::default());
    assert_eq!(r.contested.len(), 1);
    assert!(r.outcomes.iter().all(|o| o.verdict == Verdict::Fails));
}

/// The same ring from RON text loads too (the 16-bit wrap used to be hit here).
/// Slow tier (the size is what it guards); small ring maps from RON text load in `ring.rs` and
/// `large_inputs.rs`.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn a_ron_map_beyond_16_bit_ids_loads() {
    use std::fmt::Write as _;
    let n = 66_000;
    let mut s = String::from(
        "Map(name: \"ring\", title: \"Ring\", powers: [Power(name: \"Ring\", adjective: \"Ringish\", home: [], start: [])], provinces: [\n",
    );
    for i in 0..n {
        let _ = writeln!(
            s,
            "Province(abbr: \"p{i}\", name: \"Ring {i}\", kind: Land, supply_center: false, army: [\"p{}\", \"p{}\"]),",
            (i + n - 1) % n,
            (i + 1) % n
        );
    }
    s.push_str("])\n");
    let map = Map::from_ron(&s, "ring.ron").expect("valid");
    assert_eq!(map.province_count(), n);
}
