//! The equation oracle against the resolver.
//!
//! DATC 5.B.9: where the equations of a movement phase have exactly one solution, that solution
//! must be taken and no backup rule applies; where they have none or several, a backup rule
//! decides. The oracle enumerates the solutions without any backup rule; the resolver works by
//! partial information and cycle detection. Here they are held against each other: on the named
//! paradoxes of the DATC, on every DATC scenario under its own rules and under every preset, and
//! on random dense positions under every preset and the options that add dependencies.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use dipsandbox::adjudicator::resolver::NodeKind;
use dipsandbox::adjudicator::{MovementResult, adjudicate_movement};
use dipsandbox::board::{PhaseKind, Unit};
use dipsandbox::map::{Map, PowerId};
use dipsandbox::oracle::{Limits, Oracle, UnitValues, solve};
use dipsandbox::orders::Order;
use dipsandbox::rules::Rules;
use dipsandbox::scenario::Scenario;

fn load(path: &str) -> Scenario {
    Scenario::load(Path::new(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn orders_of(s: &Scenario) -> Vec<(PowerId, Order)> {
    s.orders.iter().map(|e| (e.power, e.order.clone())).collect()
}

fn oracle_of(s: &Scenario, rules: &Rules) -> Oracle {
    solve(&s.map, &s.units, &orders_of(s), rules, Limits::default())
        .unwrap_or_else(|e| panic!("{}: {e}", s.title))
}

fn count(path: &str) -> u128 {
    let s = load(path);
    oracle_of(&s, &s.rules).count
}

/// The solution counts the DATC names: two for the simple paradoxes, none for the paradox that
/// has no resolution, one for an ordinary position.
#[test]
fn datc_paradoxes_have_the_counts_the_datc_gives() {
    // 6.F.14: simple convoy paradox — the convoy succeeds (and the support is cut) or not.
    assert_eq!(count("scenarios/datc/6.F.14.ron"), 2);
    // 6.F.22: second order paradox with two resolutions.
    assert_eq!(count("scenarios/datc/6.F.22.ron"), 2);
    // 6.F.24: second order paradox with no resolution.
    assert_eq!(count("scenarios/datc/6.F.24.ron"), 0);
    // 6.A.1 and a plain bounce.
    assert_eq!(count("scenarios/datc/6.A.1.ron"), 1);
    assert_eq!(count("scenarios/datc/6.A.11.ron"), 1);
    // Pandin's paradox (6.F.16) without a paradox rule: none (a convoy that succeeds is
    // disrupted, one that is disrupted succeeds); under the 1982 rule the support of London is
    // not cut by the convoyed army, and the equations decide.
    let pandin = load("scenarios/datc/6.F.16.ron");
    assert_eq!(oracle_of(&pandin, &Rules::default()).count, 0);
    let r1982 = Rules::preset("1982").expect("preset");
    assert_eq!(oracle_of(&pandin, &r1982).count, 1);
    // Circular movement (6.C.1): all move, or none.
    assert_eq!(count("scenarios/datc/6.C.1.ron"), 2);
    // A circular movement broken by a bounce from outside (6.C.2 is supported; 6.C.3 bounced).
    assert_eq!(count("scenarios/datc/6.C.3.ron"), 1);
}

/// The decisions on which two solutions differ are the paradox's own: in 6.F.14 the convoy's
/// PATH, the army's MOVE and the support it may cut.
#[test]
fn the_differing_decisions_of_a_paradox_are_named() {
    let s = load("scenarios/datc/6.F.14.ron");
    let o = oracle_of(&s, &s.rules);
    let undecided: Vec<_> = o.undecided().collect();
    assert_eq!(undecided.len(), 1);
    let g = undecided[0];
    assert_eq!(g.solutions.len(), 2);
    let differing: Vec<NodeKind> = g
        .decisions
        .iter()
        .enumerate()
        .filter(|(k, _)| g.solutions[0][*k] != g.solutions[1][*k])
        .map(|(_, &d)| o.decisions[d as usize].kind)
        .collect();
    assert!(differing.contains(&NodeKind::Path), "{differing:?}");
    assert!(differing.contains(&NodeKind::Support), "{differing:?}");
}

/// The resolver's value of a decision of unit `u`, if it has that decision.
fn resolver_value(r: &MovementResult, u: usize, kind: NodeKind) -> Option<i32> {
    r.graph.node_of(u, kind).map(|id| r.graph.value(id))
}

/// Every decision of the oracle's only solution against the resolver's, in words.
fn disagreements(
    map: &Map,
    units: &[Unit],
    orders: &[(PowerId, Order)],
    r: &MovementResult,
    values: &[UnitValues],
) -> Vec<String> {
    let mut out = Vec::new();
    for (u, v) in values.iter().enumerate() {
        let b = |x: bool| i32::from(x);
        let pairs = [
            (NodeKind::Move, v.moves.map(b)),
            (NodeKind::Support, v.support.map(b)),
            (NodeKind::Path, v.path.map(b)),
            (NodeKind::Dislodge, Some(b(v.dislodged))),
            (NodeKind::Attack, v.attack),
            (NodeKind::Hold, Some(v.hold)),
            (NodeKind::Prevent, v.prevent),
            (NodeKind::Defend, v.defend),
        ];
        for (kind, ours) in pairs {
            let theirs = resolver_value(r, u, kind);
            if ours != theirs {
                out.push(format!(
                    "{} [{}]: oracle {ours:?}, resolver {theirs:?}",
                    kind.name(),
                    r.unit_label(map, units, orders, u)
                ));
            }
        }
    }
    out
}

/// The oracle and the resolver on one position: `None` when they agree, else what differs.
fn compare(
    map: &Map,
    units: &[Unit],
    orders: &[(PowerId, Order)],
    rules: &Rules,
) -> Option<String> {
    let o = solve(map, units, orders, rules, Limits::default()).expect("small enough");
    let r = adjudicate_movement(map, units, orders, rules);
    match o.unique() {
        Some(values) => {
            let mut bad = disagreements(map, units, orders, &r, &values);
            if r.backup_applied() {
                bad.push("one solution, but the resolver applied a backup rule".into());
            }
            (!bad.is_empty()).then(|| bad.join("\n"))
        }
        None if !r.backup_applied() => Some(format!(
            "{} solutions, but the resolver applied no backup rule",
            o.count
        )),
        None => None,
    }
}

fn ron_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            ron_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "ron") {
            out.push(p);
        }
    }
}

const PRESETS: [&str; 6] = ["datc", "1971", "1982", "2000", "2023", "dptg"];

/// Rule sets for the sweeps: every preset, and the single options that add dependencies.
fn rule_sets() -> &'static [(String, Rules)] {
    static SETS: OnceLock<Vec<(String, Rules)>> = OnceLock::new();
    SETS.get_or_init(|| {
        let mut v: Vec<(String, Rules)> = PRESETS
            .iter()
            .map(|p| (p.to_string(), Rules::preset(p).expect("preset")))
            .collect();
        for spec in [
            "dislodged_no_effect=Always",
            "adjacent_convoy_fallback=true",
            "adjacent_convoy=Rule1971",
            "paradox=Rule1971",
            "paradox=AllHold",
            "convoyed_attack_on_supporter=Cut",
            "multi_route_disruption=AnyRoute",
        ] {
            v.push((spec.to_string(), Rules::parse_spec(spec).expect("spec")));
        }
        v
    })
}

/// Every DATC movement scenario, under its own rules and under every rule set: where the
/// equations have one solution the resolver returns it without a backup rule; where they have
/// none or several, the resolver applies one.
#[test]
fn every_datc_position_agrees_with_the_resolver() {
    let mut files = Vec::new();
    ron_files(Path::new("scenarios/datc"), &mut files);
    let mut failures = Vec::new();
    let mut positions = 0;
    for f in &files {
        let s = Scenario::load(f).unwrap_or_else(|e| panic!("{e}"));
        if s.phase.kind != PhaseKind::Movement {
            continue;
        }
        let orders = orders_of(&s);
        let own = [("own rules".to_string(), s.rules)];
        for (name, rules) in own.iter().chain(rule_sets()) {
            positions += 1;
            if let Some(d) = compare(&s.map, &s.units, &orders, rules) {
                failures.push(format!("{} under {name}:\n{d}", f.display()));
            }
        }
    }
    assert!(positions > 1500, "{positions}");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
