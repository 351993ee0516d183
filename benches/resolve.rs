//! Benchmarks of the movement adjudicator and the equation oracle. Positions and orders are
//! parsed once, outside the timing loop; only `adjudicate_movement` (or its traced twin) and
//! `oracle::solve` are measured.
//!
//! Run with `cargo bench --features bench --bench resolve` (add `-- --warm-up-time 1 --measurement-time 2` for a
//! quick run).

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use dipsandbox_core::engine::adjudicate_movement;
use dipsandbox_core::model::board::Unit;
use dipsandbox_core::model::map::{Map, PowerId, UnitKind};
use dipsandbox_core::model::orders::{Order, parse_order, parse_unit};
use dipsandbox_core::model::rules::Rules;

/// A position: the map, the units and the orders, ready for the adjudicator.
struct Position {
    map: Map,
    units: Vec<Unit>,
    orders: Vec<(PowerId, Order)>,
}

/// Units written `Power: A Paris`, orders written `Power: A Paris - Burgundy`.
fn position(map: Map, units: &[&str], orders: &[&str]) -> Position {
    let split = |line: &str| -> (PowerId, String) {
        let (power, rest) = line.split_once(':').expect("`Power: ...`");
        let p = map
            .find_power(power.trim())
            .unwrap_or_else(|| panic!("unknown power in {line:?}"));
        (p, rest.trim().to_string())
    };
    let units = units
        .iter()
        .map(|line| {
            let (power, text) = split(line);
            let spec = parse_unit(&map, &text).unwrap_or_else(|e| panic!("{line:?}: {e:?}"));
            let prov = map.province(spec.loc.province);
            let loc = match spec.loc.coast {
                Some(c) => prov.coast(c).expect("coast exists"),
                None => prov.main,
            };
            Unit {
                power,
                kind: spec.kind.expect("unit letter"),
                loc,
            }
        })
        .collect();
    let orders = orders
        .iter()
        .map(|line| {
            let (power, text) = split(line);
            let order = parse_order(&map, &text).unwrap_or_else(|e| panic!("{line:?}: {e:?}"));
            (power, order)
        })
        .collect();
    Position { map, units, orders }
}

/// The standard map's 22 starting units with a typical Spring 1901 opening.
fn spring_1901() -> Position {
    let map = Map::standard();
    let units: Vec<Unit> = dipsandbox_core::model::scenario::Scenario::opening(
        std::sync::Arc::new(map.clone()),
        "standard",
    )
    .units;
    assert_eq!(units.len(), 22);
    let orders = [
        "England: F Lon - Nth",
        "England: F Edi - Nwg",
        "England: A Lvp - Yor",
        "France: F Bre - Mao",
        "France: A Par - Bur",
        "France: A Mar S A Par - Bur",
        "Germany: F Kie - Den",
        "Germany: A Ber - Kie",
        "Germany: A Mun - Ruh",
        "Italy: F Nap - Ion",
        "Italy: A Rom - Apu",
        "Italy: A Ven H",
        "Austria: F Tri - Alb",
        "Austria: A Vie - Gal",
        "Austria: A Bud - Ser",
        "Russia: F Stp/sc - Bot",
        "Russia: A Mos - Ukr",
        "Russia: A War - Gal",
        "Russia: F Sev - Bla",
        "Turkey: F Ank - Bla",
        "Turkey: A Con - Bul",
        "Turkey: A Smy - Con",
    ];
    let mut p = position(map, &[], &orders);
    p.units = units;
    p
}

/// DATC 6.F.16, Pandin's paradox.
fn pandin() -> Position {
    position(
        Map::standard(),
        &[
            "England: F London",
            "England: F Wales",
            "France: A Brest",
            "France: F English Channel",
            "Germany: F North Sea",
            "Germany: F Belgium",
        ],
        &[
            "England: F London Supports F Wales - English Channel",
            "England: F Wales - English Channel",
            "France: A Brest - London",
            "France: F English Channel Convoys A Brest - London",
            "Germany: F North Sea Supports F Belgium - English Channel",
            "Germany: F Belgium - English Channel",
        ],
    )
}

/// RON text of a ring of `n` inland provinces `p0`..`p{n-1}`, each bordering its two neighbours.
fn ring_ron(n: usize) -> String {
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
    s
}

/// A ring of `n` armies, each moving one step on: circular movement.
fn ring(n: usize) -> Position {
    let map = Map::from_ron(&ring_ron(n), "ring.ron").expect("ring map is valid");
    let units: Vec<String> = (0..n).map(|i| format!("Ring: A p{i}")).collect();
    let orders: Vec<String> = (0..n)
        .map(|i| format!("Ring: A p{i} - p{}", (i + 1) % n))
        .collect();
    let units: Vec<&str> = units.iter().map(String::as_str).collect();
    let orders: Vec<&str> = orders.iter().map(String::as_str).collect();
    position(map, &units, &orders)
}

fn bench_resolve(c: &mut Criterion) {
    let rules = Rules::default();

    let opening = spring_1901();
    // Sanity: the opening adjudicates as expected before it is timed.
    let r = adjudicate_movement(&opening.map, &opening.units, &opening.orders, &rules);
    assert_eq!(r.final_units.len(), 22);
    c.bench_function("spring_1901_full_board", |b| {
        b.iter(|| {
            adjudicate_movement(
                black_box(&opening.map),
                black_box(&opening.units),
                black_box(&opening.orders),
                black_box(&rules),
            )
        })
    });
    c.bench_function("spring_1901_traced", |b| {
        b.iter(|| {
            dipsandbox_core::engine::decision::adjudicate(
                black_box(&opening.map),
                black_box(&opening.units),
                black_box(&opening.orders),
                black_box(&rules),
                true,
            )
        })
    });

    let paradox = pandin();
    let r = adjudicate_movement(&paradox.map, &paradox.units, &paradox.orders, &rules);
    assert!(
        r.dislodged.is_empty(),
        "Pandin's paradox: nobody is dislodged"
    );
    c.bench_function("pandin_paradox", |b| {
        b.iter(|| {
            adjudicate_movement(
                black_box(&paradox.map),
                black_box(&paradox.units),
                black_box(&paradox.orders),
                black_box(&rules),
            )
        })
    });

    let circle = ring(1000);
    let r = adjudicate_movement(&circle.map, &circle.units, &circle.orders, &rules);
    assert!(
        r.units
            .iter()
            .zip(&circle.units)
            .all(|(res, u)| res.ends.is_some_and(|e| e.loc != u.loc)),
        "every army of the ring moves"
    );
    assert!(circle.units.iter().all(|u| u.kind == UnitKind::Army));
    c.bench_function("ring_1000", |b| {
        b.iter(|| {
            adjudicate_movement(
                black_box(&circle.map),
                black_box(&circle.units),
                black_box(&circle.orders),
                black_box(&rules),
            )
        })
    });
}

/// The equation oracle (`dipsandbox solve`) on the same positions: 22 units with no cycle, the
/// six of Pandin's paradox (no solution), and rings of 20 and 200 armies (two solutions each).
fn bench_oracle(c: &mut Criterion) {
    use dipsandbox_core::tools::oracle::{Limits, solve};
    let rules = Rules::default();
    let cases = [
        ("oracle_spring_1901", spring_1901(), 1u128),
        ("oracle_pandin", pandin(), 0),
        ("oracle_ring_20", ring(20), 2),
        ("oracle_ring_200", ring(200), 2),
    ];
    for (name, p, count) in &cases {
        let o = solve(&p.map, &p.units, &p.orders, &rules, Limits::default()).expect("solved");
        assert_eq!(o.count, *count, "{name}");
        c.bench_function(name, |b| {
            b.iter(|| {
                solve(
                    black_box(&p.map),
                    black_box(&p.units),
                    black_box(&p.orders),
                    black_box(&rules),
                    Limits::default(),
                )
            })
        });
    }
}

criterion_group!(benches, bench_resolve, bench_oracle);
criterion_main!(benches);
