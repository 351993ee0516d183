//! A loop to profile under `valgrind --tool=callgrind` or `perf record --call-graph dwarf`:
//! `cargo build --release --example profile`, then
//! `valgrind --tool=callgrind target/release/examples/profile opening 2000`.
//!
//! Workloads: `opening` (the Spring 1901 opening in a reused [`Adjudicator`]), `opening_fn`
//! (`adjudicate_movement`, words and graph), `parse` (the opening's 22 orders parsed), `datc`
//! (every DATC movement case in a reused workspace), `load` (every DATC scenario file's text
//! loaded), `traced` (the DATC cases traced), `check` (the DATC cases through `check`'s path:
//! `tools::check::verify`, as `check` runs it); `opening_text` (the opening's orders parsed, then
//! the workspace); and the `diplomacy` crate 0.2.0 (a dev-dependency) on the same opening:
//! `theirs_opening` (its orders cloned, then adjudicated) and `theirs_opening_text` (parsed,
//! then adjudicated), for instruction counts that compare the two whatever the load.

use dipsandbox_core::engine::trace::Recorder;
use dipsandbox_core::engine::{Adjudicator, adjudicate_movement};
use dipsandbox_core::model::board::{PhaseKind, Unit};
use dipsandbox_core::model::map::{Map, PowerId};
use dipsandbox_core::model::orders::{Order, parse_order};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;

const OPENING: [(&str, &str); 22] = [
    ("England", "F Lon - Nth"),
    ("England", "F Edi - Nwg"),
    ("England", "A Lvp - Yor"),
    ("France", "F Bre - Mao"),
    ("France", "A Par - Bur"),
    ("France", "A Mar S A Par - Bur"),
    ("Germany", "F Kie - Den"),
    ("Germany", "A Ber - Kie"),
    ("Germany", "A Mun - Ruh"),
    ("Italy", "F Nap - Ion"),
    ("Italy", "A Rom - Apu"),
    ("Italy", "A Ven H"),
    ("Austria", "F Tri - Alb"),
    ("Austria", "A Vie - Gal"),
    ("Austria", "A Bud - Ser"),
    ("Russia", "F Stp/sc - Bot"),
    ("Russia", "A Mos - Ukr"),
    ("Russia", "A War - Gal"),
    ("Russia", "F Sev - Bla"),
    ("Turkey", "F Ank - Bla"),
    ("Turkey", "A Con - Bul"),
    ("Turkey", "A Smy - Con"),
];

fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_else(|| "opening".into());
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    // `ring N`, `chain_bounce N`, `support_hold N`, `grid N`: one synthetic board of N units
    // adjudicated once (built first); `map_ring N`, `map_grid N`: the map built once.
    if let Some(pattern) = dipsandbox_core::tools::synth::Pattern::ALL
        .into_iter()
        .find(|p| p.name() == what)
    {
        let s = dipsandbox_core::tools::synth::position(pattern, n, 7).expect("synthetic");
        let mut adj = Adjudicator::new();
        let out = adj.adjudicate(&s.map, &s.units, &s.orders, &Rules::default());
        println!("{what} {n}: {} outcomes", out.len());
        return;
    }
    if what == "map_ring" || what == "map_grid" {
        // The lists first, then the map loaded from them (`Map::from_lists`, to profile alone).
        let specs = if what == "map_ring" {
            dipsandbox_core::tools::synth::ring_provinces(n)
        } else {
            let w = (n as f64).sqrt().ceil() as usize;
            dipsandbox_core::tools::synth::grid_provinces(w, n.div_ceil(w))
        };
        let m = Map::from_lists(&what, &what, &dipsandbox_core::tools::synth::POWERS, specs);
        println!("{what} {n}: {:?}", m.map(|m| m.province_count()));
        return;
    }
    let map = Map::standard();
    let rules = Rules::default();
    let units: Vec<Unit> = dipsandbox_core::model::scenario::Scenario::opening(
        std::sync::Arc::new(map.clone()),
        "standard",
    )
    .units;
    let powers: Vec<PowerId> = OPENING
        .iter()
        .map(|(p, _)| map.find_power(p).expect("power"))
        .collect();
    let orders: Vec<(PowerId, Order)> = OPENING
        .iter()
        .zip(&powers)
        .map(|((_, t), p)| (*p, parse_order(&map, t).expect("order")))
        .collect();
    let needs_files = matches!(what.as_str(), "datc" | "traced" | "load" | "check");
    let texts: Vec<String> = std::fs::read_dir(if needs_files {
        "scenarios/datc"
    } else {
        "/nonexistent"
    })
    .map(|d| {
        let mut v: Vec<_> = d.filter_map(|e| e.ok().map(|e| e.path())).collect();
        v.sort();
        v.iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .collect()
    })
    .unwrap_or_default();
    let cases: Vec<Scenario> = texts
        .iter()
        .filter_map(|t| Scenario::from_ron(t, "case.ron").ok())
        .filter(|s| s.phase.kind == PhaseKind::Movement)
        .collect();
    let case_orders: Vec<Vec<(PowerId, Order)>> = cases
        .iter()
        .map(|s| {
            s.orders
                .iter()
                .map(|e| (e.power, e.order.clone()))
                .collect()
        })
        .collect();
    let their_units: Vec<String> = units
        .iter()
        .map(|u| {
            let loc = map.location(u.loc);
            let mut place = map.province(loc.province).abbr.clone();
            if let Some(c) = loc.coast {
                place.push_str(&format!("({})", c.abbr()));
            }
            let nation: String = map.power(u.power).name.chars().take(3).collect();
            format!("{}: {} {place}", nation.to_uppercase(), u.kind.letter())
        })
        .collect();
    // The same orders in the crate's notation (as benches/compare.rs writes them).
    let their_text: Vec<String> = OPENING
        .iter()
        .map(|(p, t)| {
            let nation: String = p.chars().take(3).collect();
            let mut words: Vec<String> = Vec::new();
            for w in t.split(' ') {
                words.push(match w {
                    "A" | "F" => w.to_string(),
                    "-" => "->".to_string(),
                    "S" => "supports".to_string(),
                    "H" => "holds".to_string(),
                    "Stp/sc" => "stp(sc)".to_string(),
                    w => w.to_lowercase(),
                });
            }
            format!("{}: {}", nation.to_uppercase(), words.join(" "))
        })
        .collect();
    let their_positions: Vec<diplomacy::UnitPosition<'static, diplomacy::geo::RegionKey>> =
        their_units
            .iter()
            .map(|u| u.parse().expect("unit"))
            .collect();
    let their_orders: Vec<diplomacy::judge::MappedMainOrder> = their_text
        .iter()
        .map(|t| t.parse().expect("order"))
        .collect();
    let theirs = |orders: Vec<diplomacy::judge::MappedMainOrder>| {
        diplomacy::judge::Submission::new(diplomacy::geo::standard_map(), &their_positions, orders)
            .adjudicate(diplomacy::judge::Rulebook::default())
            .all_orders_with_outcomes()
            .count()
    };
    let mut adj = Adjudicator::new();
    let mut buf: Vec<(PowerId, Order)> = Vec::new();
    let mut total = 0usize;
    for _ in 0..n {
        total += match what.as_str() {
            "opening" => adj.adjudicate(&map, &units, &orders, &rules).len(),
            "opening_text" => {
                buf.clear();
                buf.extend(
                    OPENING
                        .iter()
                        .zip(&powers)
                        .filter_map(|((_, t), p)| parse_order(&map, t).ok().map(|o| (*p, o))),
                );
                adj.adjudicate(&map, &units, &buf, &rules).len()
            }
            "theirs_opening" => theirs(their_orders.clone()),
            "theirs_opening_text" => {
                theirs(their_text.iter().filter_map(|t| t.parse().ok()).collect())
            }
            "opening_fn" => adjudicate_movement(&map, &units, &orders, &rules)
                .outcomes
                .len(),
            "parse" => OPENING
                .iter()
                .filter_map(|(_, t)| parse_order(&map, t).ok())
                .count(),
            "datc" => cases
                .iter()
                .zip(&case_orders)
                .map(|(s, o)| adj.adjudicate(&s.map, &s.units, o, &s.rules).len())
                .sum(),
            "traced" => cases
                .iter()
                .zip(&case_orders)
                .map(|(s, o)| {
                    adj.adjudicate_with(&s.map, &s.units, o, &s.rules, Recorder::default())
                        .events
                        .len()
                })
                .sum(),
            "check" => cases
                .iter()
                .map(|s| {
                    dipsandbox_core::tools::check::verify(
                        s,
                        None,
                        &dipsandbox_core::engine::DecisionEngine,
                    )
                    .expect("runs")
                    .1
                })
                .sum(),
            "load" => texts
                .iter()
                .filter_map(|t| Scenario::from_ron(t, "case.ron").ok())
                .count(),
            other => {
                eprintln!("unknown workload {other:?}");
                std::process::exit(2);
            }
        };
    }
    println!("{what} x{n}: {total}");
}
