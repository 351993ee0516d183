//! Circular movement on synthetic ring maps: N inland provinces p0..p(N-1), each bordering its two
//! neighbours, with an army in every province moving one step round the ring.
//!
//! A closed ring all moves (the circular movement rule); a ring with one outside unit bouncing on
//! p0 is broken and nothing moves. The resolver must handle rings of a thousand units without
//! recursion or quadratic blow-up (time is measured by `benches/resolve.rs`, not asserted here).

use std::fmt::Write as _;

use dipsandbox_core::engine::decision::trace::Event;
use dipsandbox_core::engine::{MovementResult, Verdict, adjudicate_movement};
use dipsandbox_core::model::board::Unit;
use dipsandbox_core::model::map::{Map, PowerId, UnitKind};
use dipsandbox_core::model::orders::{Order, parse_order};
use dipsandbox_core::model::rules::Rules;

/// RON text of a ring of `n` inland provinces `p0`..`p{n-1}`; with `outside`, one more inland
/// province `x` bordering only `p0`. Two powers: Ring and Outside.
fn ring_ron(n: usize, outside: bool) -> String {
    let mut s = String::new();
    s.push_str("Map(\n    name: \"ring\",\n    title: \"Ring test map\",\n    powers: [\n");
    for (name, adj) in [("Ring", "Ringish"), ("Outside", "Outsider")] {
        let _ = writeln!(
            s,
            "        Power(name: \"{name}\", adjective: \"{adj}\", home: [], start: []),"
        );
    }
    s.push_str("    ],\n    provinces: [\n");
    for i in 0..n {
        let mut army = vec![format!("\"p{}\"", (i + n - 1) % n)];
        let next = format!("\"p{}\"", (i + 1) % n);
        if !army.contains(&next) {
            army.push(next);
        }
        if outside && i == 0 {
            army.push("\"x\"".into());
        }
        let _ = writeln!(
            s,
            "        Province(abbr: \"p{i}\", name: \"Ring {i}\", kind: Land, supply_center: false, army: [{}]),",
            army.join(", ")
        );
    }
    if outside {
        s.push_str(
            "        Province(abbr: \"x\", name: \"Outside\", kind: Land, supply_center: false, army: [\"p0\"]),\n",
        );
    }
    s.push_str("    ],\n)\n");
    s
}

struct Ring {
    map: Map,
    units: Vec<Unit>,
    orders: Vec<(PowerId, Order)>,
}

/// The ring map with an army on every ring province ordered one step on (`A p_i - p_{i+1}`), and
/// with `outside`, an army of the second power in `x` ordered to p0.
fn ring(n: usize, outside: bool) -> Ring {
    let map = Map::from_ron(&ring_ron(n, outside), "ring.ron").expect("ring map is valid");
    let ring_power = map.find_power("Ring").unwrap();
    let out_power = map.find_power("Outside").unwrap();
    let mut units = Vec::with_capacity(n + 1);
    let mut orders = Vec::with_capacity(n + 1);
    for i in 0..n {
        let p = map.find_province(&format!("p{i}")).unwrap();
        units.push(Unit {
            power: ring_power,
            kind: UnitKind::Army,
            loc: map.province(p).main,
        });
        let text = format!("A p{i} - p{}", (i + 1) % n);
        orders.push((
            ring_power,
            parse_order(&map, &text).expect("ring order parses"),
        ));
    }
    if outside {
        let x = map.find_province("x").unwrap();
        units.push(Unit {
            power: out_power,
            kind: UnitKind::Army,
            loc: map.province(x).main,
        });
        orders.push((out_power, parse_order(&map, "A x - p0").unwrap()));
    }
    Ring { map, units, orders }
}

fn adjudicate(r: &Ring) -> MovementResult {
    adjudicate_movement(&r.map, &r.units, &r.orders, &Rules::default())
}

fn loc_of(map: &Map, name: &str) -> dipsandbox_core::model::map::LocId {
    map.province(map.find_province(name).unwrap()).main
}

/// Every army moves one step on; nobody is dislodged.
fn assert_circular_movement(n: usize) {
    let r = ring(n, false);
    let res = adjudicate(&r);
    assert_eq!(res.outcomes.len(), n);
    for (i, o) in res.outcomes.iter().enumerate() {
        assert_eq!(o.verdict, Verdict::Succeeds, "A p{i}: {}", o.reason);
    }
    for (i, u) in res.units.iter().enumerate() {
        let to = loc_of(&r.map, &format!("p{}", (i + 1) % n));
        assert_eq!(
            u.ends,
            Some(Unit {
                loc: to,
                ..r.units[i]
            }),
            "A p{i} should end in p{}",
            (i + 1) % n
        );
        assert_eq!(u.dislodged_by, None, "A p{i}");
    }
    assert!(res.dislodged.is_empty());
    assert_eq!(res.final_units.len(), n);
}

/// The outside army bounces with p{n-1}'s army on p0, so the ring is broken: every move fails
/// and every unit stays where it is.
fn assert_broken_ring(n: usize) {
    let r = ring(n, true);
    let res = adjudicate(&r);
    assert_eq!(res.outcomes.len(), n + 1);
    for (i, o) in res.outcomes.iter().enumerate() {
        let who = if i < n {
            format!("A p{i}")
        } else {
            "A x".into()
        };
        assert_eq!(o.verdict, Verdict::Fails, "{who}: {}", o.reason);
    }
    for (i, u) in res.units.iter().enumerate() {
        assert_eq!(u.ends, Some(r.units[i]), "unit {i} should stay");
    }
    assert!(res.dislodged.is_empty());
}

#[test]
fn ring_map_is_valid() {
    let r = ring(5, true);
    assert_eq!(r.map.province_count(), 6);
    let p = |s: &str| r.map.find_province(s).unwrap();
    assert!(r.map.army_adjacent(p("p0"), p("p1")));
    assert!(r.map.army_adjacent(p("p0"), p("p4")));
    assert!(r.map.army_adjacent(p("p0"), p("x")));
    assert!(!r.map.army_adjacent(p("p0"), p("p2")));
    assert!(!r.map.army_adjacent(p("p1"), p("x")));
}

#[test]
fn ring_of_3_moves() {
    assert_circular_movement(3);
}

#[test]
fn ring_of_4_moves() {
    assert_circular_movement(4);
}

#[test]
fn ring_of_1000_moves() {
    assert_circular_movement(1000);
}

#[test]
fn broken_ring_of_3_stands() {
    assert_broken_ring(3);
}

#[test]
fn broken_ring_of_4_stands() {
    assert_broken_ring(4);
}

#[test]
fn broken_ring_of_1000_stands() {
    assert_broken_ring(1000);
}

/// A ring listed backwards (units and orders in reverse) moves the same way.
#[test]
fn ring_of_1000_listed_backwards_moves() {
    let mut r = ring(1000, false);
    r.units.reverse();
    r.orders.reverse();
    let res = adjudicate(&r);
    assert!(res.outcomes.iter().all(|o| o.verdict == Verdict::Succeeds));
    assert!(res.dislodged.is_empty());
    for (k, u) in res.units.iter().enumerate() {
        let i = 999 - k;
        assert_eq!(
            u.ends.map(|e| e.loc),
            Some(loc_of(&r.map, &format!("p{}", (i + 1) % 1000)))
        );
    }
}

/// The cycle a traced ring reports, checked: its walk starts and ends on the same decision, each
/// step follows a dependency edge (a decision → one its equation reads), and it visits exactly
/// the cycle's members. Returns (members, walk length).
fn check_ring_walk(n: usize) -> (usize, usize) {
    let r = ring(n, false);
    let res = dipsandbox_core::engine::decision::adjudicate(
        &r.map,
        &r.units,
        &r.orders,
        &Rules::default(),
        true,
    );
    let events = res.trace.as_ref().expect("traced");
    let mut cycles = events.iter().filter_map(|e| match e {
        Event::CycleFound { members, walk, .. } => Some((members, walk)),
        _ => None,
    });
    let (members, walk) = cycles.next().expect("the ring is one cycle");
    assert!(cycles.next().is_none(), "one cycle only");
    assert!(walk.len() > members.len(), "closed: {walk:?}");
    assert_eq!(walk.first(), walk.last());
    for pair in walk.windows(2) {
        assert!(
            res.graph.deps[pair[0] as usize].contains(&pair[1]),
            "{} does not read {}",
            pair[0],
            pair[1]
        );
    }
    let mut seen = walk.clone();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(&seen, members);
    (members.len(), walk.len())
}

#[test]
fn ring_of_5_cycle_is_walked_along_its_edges() {
    let (members, walk) = check_ring_walk(5);
    // MOVE, ATTACK and HOLD of every army.
    assert_eq!(members, 15);
    assert!(walk <= 2 * members + 1, "{walk}");
}

/// A big ring: the walk is still a walk (no fallback to a sorted list) and stays short.
#[test]
fn ring_of_1000_cycle_is_walked_along_its_edges() {
    let (members, walk) = check_ring_walk(1000);
    assert_eq!(members, 3000);
    assert!(walk <= 2 * members + 1, "{walk}");
}

/// The guess engine (DATC 5.F) on rings of 20,000 armies, whole and broken: its recursion is as
/// deep as the ring, on a stack of its own (the test thread's 2 MB would not hold 20,000 nested
/// calls), and it agrees with the decision engine — the whole ring moves by the circular
/// movement rule, the broken one stands.
/// Slow tier (the depth is what it guards); `guess_engine_on_rings_of_1000` runs the same on
/// 1,000.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn guess_engine_on_rings_of_20000() {
    guess_engine_on_rings(20_000);
}

#[test]
fn guess_engine_on_rings_of_1000() {
    guess_engine_on_rings(1_000);
}

fn guess_engine_on_rings(n: usize) {
    use dipsandbox_core::engine::guess::{StartOrder, adjudicate as guess};
    for outside in [false, true] {
        let r = ring(n, outside);
        let g = guess(
            &r.map,
            &r.units,
            &r.orders,
            &Rules::default(),
            StartOrder::Written,
            false,
        );
        let d = adjudicate(&r);
        let verdicts = |o: &[dipsandbox_core::engine::OrderOutcome]| {
            o.iter().map(|o| o.verdict).collect::<Vec<_>>()
        };
        assert_eq!(verdicts(&g.movement.outcomes), verdicts(&d.outcomes));
        assert_eq!(g.movement.final_units, d.final_units);
        assert!(g.unresolved.is_empty());
        let moved = g
            .movement
            .outcomes
            .iter()
            .all(|o| o.verdict == Verdict::Succeeds);
        assert_eq!(moved, !outside);
    }
}
