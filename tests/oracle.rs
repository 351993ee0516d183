//! The equation oracle against the resolver.
//!
//! DATC 5.B.9: where the equations of a movement phase have exactly one solution, that solution
//! must be taken and no backup rule applies; where they have none or several, a backup rule
//! decides. The oracle enumerates the solutions without any backup rule; the resolver works by
//! partial information and cycle detection. Here they are held against each other: on the named
//! paradoxes of the DATC, on every DATC scenario under its own rules and under every preset, and
//! on random dense positions under every preset and the options that add dependencies.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use dipsandbox::adjudicator::adjudicate_movement;
use dipsandbox::adjudicator::resolver::NodeKind;
use dipsandbox::board::{PhaseKind, Unit};
use dipsandbox::map::{Map, PowerId};
use dipsandbox::oracle::{Agreement, Limits, Oracle, solve};
use dipsandbox::orders::Order;
use dipsandbox::rules::Rules;
use dipsandbox::scenario::Scenario;

use common::dipsandbox;

fn load(path: &str) -> Scenario {
    Scenario::load(Path::new(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn orders_of(s: &Scenario) -> Vec<(PowerId, Order)> {
    s.orders
        .iter()
        .map(|e| (e.power, e.order.clone()))
        .collect()
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
    let g = undecided[0].1;
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

/// The oracle and the resolver on one position: `None` when they agree, else what differs.
fn compare(
    map: &Map,
    units: &[Unit],
    orders: &[(PowerId, Order)],
    rules: &Rules,
) -> Option<String> {
    let o = solve(map, units, orders, rules, Limits::default()).expect("small enough");
    let r = adjudicate_movement(map, units, orders, rules);
    match o.judge(&r) {
        a if a.is_agreement() => None,
        Agreement::Differs(diffs) => Some(
            diffs
                .iter()
                .map(|d| {
                    format!(
                        "{} [{}]: oracle {:?}, resolver {:?}",
                        d.kind.name(),
                        r.unit_label(map, units, orders, d.unit),
                        d.oracle,
                        d.resolver
                    )
                })
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        Agreement::NeedlessBackup => {
            Some("one solution, but the resolver applied a backup rule".into())
        }
        _ => Some(format!(
            "{} solutions, but the resolver applied no backup rule",
            o.count
        )),
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

// ---------------------------------------------------------------------------------------------
// Random dense positions.
// ---------------------------------------------------------------------------------------------

/// A small deterministic generator (xorshift64*), so that a failing seed reproduces.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        // splitmix64 of the seed: neighbouring seeds give unrelated streams.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> Option<&'a T> {
        (!v.is_empty()).then(|| &v[self.below(v.len())])
    }
}

fn standard() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    MAP.get_or_init(Map::standard)
}

/// A dense position on a small connected region of the standard map (often around a sea, so
/// that convoys and their paradoxes are common), with orders that mostly interact: moves into
/// the region, supports of the moves and holds actually ordered, convoys of the convoyed moves
/// actually ordered, now and then an unmatched support or convoy.
fn random_position(seed: u64) -> (Vec<Unit>, Vec<(PowerId, Order)>) {
    use dipsandbox::map::{ProvinceKind, UnitKind};
    use dipsandbox::menu::movement_orders;
    use dipsandbox::orders::OrderKind;
    let map = standard();
    let mut rng = Rng::new(seed);
    let all: Vec<_> = map.province_ids().collect();
    let seas: Vec<_> = all
        .iter()
        .copied()
        .filter(|p| map.province(*p).kind == ProvinceKind::Sea)
        .collect();
    let start = if rng.chance(70) {
        *rng.pick(&seas).expect("seas")
    } else {
        *rng.pick(&all).expect("provinces")
    };
    // A breadth-first region of 6 to 13 provinces.
    let size = 7 + rng.below(8);
    let mut region = vec![start];
    let mut k = 0;
    while region.len() < size && k < region.len() {
        let p = region[k];
        k += 1;
        let mut ns: Vec<_> = all
            .iter()
            .copied()
            .filter(|&q| q != p && map.provinces_adjacent(p, q) && !region.contains(&q))
            .collect();
        while !ns.is_empty() && region.len() < size {
            let q = ns.swap_remove(rng.below(ns.len()));
            region.push(q);
        }
    }
    let powers = 2 + rng.below(2);
    let mut units = Vec::new();
    for &p in &region {
        if !rng.chance(85) {
            continue;
        }
        let prov = map.province(p);
        let kind = match prov.kind {
            ProvinceKind::Sea => UnitKind::Fleet,
            ProvinceKind::Land => UnitKind::Army,
            ProvinceKind::Coast if rng.chance(50) => UnitKind::Fleet,
            ProvinceKind::Coast => UnitKind::Army,
        };
        let loc = if kind == UnitKind::Fleet && prov.is_multi_coast() {
            prov.coasts[rng.below(prov.coasts.len())].1
        } else {
            prov.main
        };
        units.push(Unit {
            power: PowerId(rng.below(powers) as u8),
            kind,
            loc,
        });
    }
    let menus: Vec<Vec<Order>> = (0..units.len())
        .map(|u| movement_orders(map, &units, u))
        .collect();
    let here = |u: usize| map.province_of(units[u].loc);
    let unit_at = |p| (0..units.len()).find(|&u| here(u) == p);
    // Pass 1: holds and moves (into occupied provinces more often than not).
    let mut plan: Vec<Option<Order>> = vec![None; units.len()];
    for (u, menu) in menus.iter().enumerate() {
        let r = rng.below(100);
        if r < 10 {
            plan[u] = menu.iter().find(|o| o.kind == OrderKind::Hold).cloned();
        } else if r < 62 {
            let moves: Vec<&Order> = menu
                .iter()
                .filter(|o| matches!(o.kind, OrderKind::Move { .. }))
                .collect();
            let dest_of = |o: &Order| match &o.kind {
                OrderKind::Move { dest, .. } => Some(dest.province),
                _ => None,
            };
            let occupied: Vec<&Order> = moves
                .iter()
                .copied()
                .filter(|o| dest_of(o).and_then(unit_at).is_some())
                .collect();
            // The ingredients of paradoxes: attacks on fleets at sea, and moves by convoy.
            let on_fleets: Vec<&Order> = occupied
                .iter()
                .copied()
                .filter(|o| dest_of(o).is_some_and(|d| map.province(d).kind == ProvinceKind::Sea))
                .collect();
            let convoyed: Vec<&Order> = moves
                .iter()
                .copied()
                .filter(|o| {
                    units[u].kind == UnitKind::Army
                        && dest_of(o).is_some_and(|d| !map.army_adjacent(here(u), d))
                })
                .collect();
            let from = if !convoyed.is_empty() && rng.chance(60) {
                &convoyed
            } else if !on_fleets.is_empty() && rng.chance(50) {
                &on_fleets
            } else if !occupied.is_empty() && rng.chance(75) {
                &occupied
            } else {
                &moves
            };
            plan[u] = rng.pick(from).map(|o| (*o).clone());
        }
    }
    // Now and then a ring: three units each moving to the next one's province.
    if units.len() >= 3 && rng.chance(30) {
        let move_to = |u: usize, v: usize| {
            menus[u]
                .iter()
                .find(|o| matches!(&o.kind, OrderKind::Move { dest, via_convoy: false, .. } if dest.province == here(v)))
                .cloned()
        };
        'ring: for _ in 0..20 {
            let a = rng.below(units.len());
            let b = rng.below(units.len());
            let c = rng.below(units.len());
            if a == b || b == c || a == c {
                continue;
            }
            if let (Some(x), Some(y), Some(z)) = (move_to(a, b), move_to(b, c), move_to(c, a)) {
                plan[a] = Some(x);
                plan[b] = Some(y);
                plan[c] = Some(z);
                break 'ring;
            }
        }
    }
    // Units a motif has given their orders to (later motifs leave them alone).
    let mut taken = vec![false; units.len()];
    // Now and then the core of a convoy paradox: an army convoyed onto a unit that supports an
    // attack on the convoying fleet (DATC 6.F.14).
    if units.len() >= 4 && rng.chance(75) {
        let find = |u: usize, pred: &dyn Fn(&OrderKind) -> bool| {
            menus[u].iter().find(|o| pred(&o.kind)).cloned()
        };
        'core: for _ in 0..200 {
            let (f, a, x) = (
                rng.below(units.len()),
                rng.below(units.len()),
                rng.below(units.len()),
            );
            if f == a || f == x || a == x || units[a].kind != UnitKind::Army {
                continue;
            }
            let sea = here(f);
            // A convoy by `f` of `a` to a province holding another unit.
            let Some(convoy) = find(f, &|k| {
                matches!(k, OrderKind::Convoy { army, dest }
                    if army.unit.loc.province == here(a)
                        && unit_at(dest.province).is_some_and(|s| s != x && s != f))
            }) else {
                continue;
            };
            let OrderKind::Convoy { dest, .. } = &convoy.kind else {
                continue;
            };
            let d = dest.province;
            let Some(sup) = unit_at(d) else { continue };
            let Some(mv) = find(
                a,
                &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == d),
            ) else {
                continue;
            };
            let Some(attack) = find(
                x,
                &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == sea),
            ) else {
                continue;
            };
            let Some(support) = find(sup, &|k| {
                matches!(k, OrderKind::Support { target, dest: Some(dd) }
                    if target.unit.loc.province == here(x) && dd.province == sea)
            }) else {
                continue;
            };
            plan[f] = Some(convoy);
            plan[a] = Some(mv);
            plan[x] = Some(attack);
            plan[sup] = Some(support);
            for u in [f, a, x, sup] {
                taken[u] = true;
            }
            break 'core;
        }
    }
    // Now and then a convoy to a neighbouring province (DATC 6.G): the unit there moves the
    // other way, or supports an attack on the army's own province (4.A.3, 4.A.4, 4.A.7).
    if units.len() >= 3 && rng.chance(35) {
        let find = |u: usize, pred: &dyn Fn(&OrderKind) -> bool| {
            menus[u].iter().find(|o| pred(&o.kind)).cloned()
        };
        'swap: for _ in 0..200 {
            let (f, a) = (rng.below(units.len()), rng.below(units.len()));
            if f == a || units[a].kind != UnitKind::Army || taken[f] || taken[a] {
                continue;
            }
            let Some(convoy) = find(f, &|k| {
                matches!(k, OrderKind::Convoy { army, dest }
                    if army.unit.loc.province == here(a)
                        && map.army_adjacent(here(a), dest.province)
                        && unit_at(dest.province).is_some())
            }) else {
                continue;
            };
            let OrderKind::Convoy { dest, .. } = &convoy.kind else {
                continue;
            };
            let d = dest.province;
            let Some(other) = unit_at(d).filter(|&o| !taken[o]) else {
                continue;
            };
            let Some(mut mv) = find(
                a,
                &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == d),
            ) else {
                continue;
            };
            if let OrderKind::Move { via_convoy, .. } = &mut mv.kind {
                *via_convoy = rng.chance(70);
            }
            let back = if rng.chance(50) {
                find(
                    other,
                    &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == here(a)),
                )
            } else {
                find(
                    other,
                    &|k| matches!(k, OrderKind::Support { dest: Some(dd), .. } if dd.province == here(a)),
                )
            };
            let Some(back) = back else { continue };
            if let OrderKind::Support { target, .. } = &back.kind
                && let Some(x) = unit_at(target.unit.loc.province).filter(|&x| !taken[x])
                && let Some(attack) = find(
                    x,
                    &|k| matches!(k, OrderKind::Move { dest, .. } if dest.province == here(a)),
                )
            {
                plan[x] = Some(attack);
            }
            plan[f] = Some(convoy);
            plan[a] = Some(mv);
            plan[other] = Some(back);
            break 'swap;
        }
    }
    // Pass 2: supports and convoys, mostly of what was actually ordered.
    let matches = |o: &Order, plan: &[Option<Order>]| -> bool {
        match &o.kind {
            OrderKind::Support { target, dest } => {
                let Some(t) = unit_at(target.unit.loc.province) else {
                    return false;
                };
                match (dest, plan[t].as_ref().map(|p| &p.kind)) {
                    (None, Some(OrderKind::Move { .. })) => false,
                    (None, _) => true,
                    (Some(d), Some(OrderKind::Move { dest: td, .. })) => d.province == td.province,
                    _ => false,
                }
            }
            OrderKind::Convoy { army, dest } => {
                let Some(t) = unit_at(army.unit.loc.province) else {
                    return false;
                };
                matches!(plan[t].as_ref().map(|p| &p.kind),
                    Some(OrderKind::Move { dest: td, .. }) if td.province == dest.province)
            }
            _ => false,
        }
    };
    let snapshot = plan.clone();
    for (u, menu) in menus.iter().enumerate() {
        if plan[u].is_some() {
            continue;
        }
        let helping: Vec<&Order> = menu
            .iter()
            .filter(|o| matches!(o.kind, OrderKind::Support { .. } | OrderKind::Convoy { .. }))
            .collect();
        let matching: Vec<&Order> = helping
            .iter()
            .copied()
            .filter(|o| matches(o, &snapshot))
            .collect();
        let from = if !matching.is_empty() && rng.chance(90) {
            &matching
        } else {
            &helping
        };
        plan[u] = rng.pick(from).map(|o| (*o).clone());
    }
    // `via convoy` on a move to a neighbour now and then (4.A.3).
    for (u, o) in plan.iter_mut().enumerate() {
        if let Some(OrderKind::Move { via_convoy, .. }) = o.as_mut().map(|o| &mut o.kind)
            && units[u].kind == UnitKind::Army
            && rng.chance(15)
        {
            *via_convoy = true;
        }
    }
    let orders = plan
        .into_iter()
        .enumerate()
        .filter_map(|(u, o)| o.map(|o| (units[u].power, o)))
        .collect();
    (units, orders)
}

/// The position as a scenario file, to keep as a regression case.
fn as_scenario(units: &[Unit], orders: &[(PowerId, Order)], rules: &Rules) -> String {
    use dipsandbox::orders::{NameStyle, format_order};
    use dipsandbox::scenario::OrderEntry;
    let mut s = Scenario::empty(std::sync::Arc::new(Map::standard()), "standard");
    s.title = "Oracle disagreement".into();
    s.units = units.to_vec();
    s.rules = *rules;
    s.orders = orders
        .iter()
        .map(|(p, o)| OrderEntry {
            power: *p,
            text: format_order(standard(), o, NameStyle::Abbr),
            order: o.clone(),
        })
        .collect();
    s.to_ron()
}

/// How many random positions: 300 by default (each under 14 rule sets, a few seconds);
/// `ORACLE_CASES=n` for a longer hunt.
fn random_cases() -> u64 {
    std::env::var("ORACLE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

/// On random dense positions, under every preset and the options that add dependencies: one
/// solution means the resolver returns it without a backup rule; none or several mean it
/// applies one. A disagreement prints the position as a scenario file.
#[test]
fn random_positions_agree_with_the_resolver() {
    let map = standard();
    let mut failures = Vec::new();
    let (mut paradoxes, mut convoy_paradoxes, mut unique) = (0, 0, 0);
    for seed in 0..random_cases() {
        let (units, orders) = random_position(seed);
        for (name, rules) in rule_sets() {
            let o = solve(map, &units, &orders, rules, Limits::default()).expect("small enough");
            if o.count == 1 {
                unique += 1;
            } else {
                paradoxes += 1;
                let convoy = o.undecided().any(|(_, g)| {
                    g.cyclic
                        .iter()
                        .any(|&d| o.decisions[d as usize].kind == NodeKind::Path)
                });
                if convoy {
                    convoy_paradoxes += 1;
                }
            }
            if let Some(d) = compare(map, &units, &orders, rules) {
                failures.push(format!(
                    "seed {seed}, rules {name}:\n{d}\n{}",
                    as_scenario(&units, &orders, rules)
                ));
            }
        }
    }
    println!(
        "{unique} positions with one solution, {paradoxes} with none or several \
         ({convoy_paradoxes} of them with a PATH on the cycle)"
    );
    // The generator must reach cycles, or the property says little.
    assert!(paradoxes > 50, "only {paradoxes} positions with a cycle");
    assert!(
        convoy_paradoxes > 20,
        "only {convoy_paradoxes} positions with a convoy on a cycle"
    );
    assert!(unique > 1000, "{unique}");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

// ---------------------------------------------------------------------------------------------
// The command line.
// ---------------------------------------------------------------------------------------------

/// The count line of `dipsandbox solve`, as printed.
fn solve_count(file: &str, rules: Option<&str>) -> String {
    let mut args = vec!["solve", file];
    if let Some(r) = rules {
        args.extend(["--rules", r]);
    }
    let (code, out, err) = dipsandbox(&args);
    assert_eq!(code, 0, "{file}: {out}{err}");
    out.lines()
        .find(|l| l.starts_with(|c: char| c.is_ascii_digit()) && l.contains(" solution"))
        .unwrap_or_else(|| panic!("{file}: no count in {out}"))
        .to_string()
}

/// The examples: two solutions for 6.F.14 and 6.F.22, none for 6.F.24, one for 6.A.1;
/// the resolver's answer is judged against them.
#[test]
fn solve_prints_the_count_and_judges_the_resolver() {
    assert!(solve_count("scenarios/datc/6.F.14.ron", None).starts_with("2 solutions:"));
    assert!(solve_count("scenarios/datc/6.F.22.ron", None).starts_with("2 solutions:"));
    assert!(solve_count("scenarios/datc/6.F.24.ron", None).starts_with("0 solutions:"));
    assert!(solve_count("scenarios/datc/6.A.1.ron", None).starts_with("1 solution:"));
    // 6.F.22 has one solution under the 1982 rule.
    assert!(solve_count("scenarios/datc/6.F.22.ron", Some("1982")).starts_with("1 solution:"));

    let (_, out, _) = dipsandbox(&["solve", "scenarios/datc/6.F.14.ron"]);
    // The decisions that tell the two solutions apart, side by side, and the backup rule.
    let path = out
        .lines()
        .find(|l| l.trim_start().starts_with("PATH") && l.contains("A Bre - Lon"))
        .unwrap_or_else(|| panic!("no PATH row in\n{out}"));
    assert!(path.contains("no path") && path.contains(" path"), "{path}");
    assert!(
        out.contains("Resolver: the backup rule decides (Szykman rule)"),
        "{out}"
    );
    let (_, out, _) = dipsandbox(&["solve", "scenarios/datc/6.F.24.ron"]);
    assert!(out.contains("No solution for these"), "{out}");
    let (_, out, _) = dipsandbox(&["solve", "scenarios/datc/6.A.11.ron"]);
    assert!(out.contains("Resolver: takes this solution"), "{out}");
}

/// Every field docs/json.md lists for `dipsandbox.solve/1`.
#[test]
fn solve_json_has_the_documented_fields() {
    let (code, out, err) = dipsandbox(&["solve", "--json", "scenarios/datc/6.F.14.ron"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["schema"], "dipsandbox.solve/1");
    assert_eq!(v["solutions"], 2);
    for field in ["title", "source", "phase", "decisions", "guesses"] {
        assert!(!v[field].is_null(), "{field}");
    }
    assert_eq!(v["rules"]["preset"], "datc");
    assert!(v["solution"].is_null());
    let group = &v["groups"][0];
    assert_eq!(group["count"], 2);
    assert_eq!(group["kept"], 2);
    assert!(group["cycle"].as_array().is_some_and(|c| !c.is_empty()));
    let path = group["differing"]
        .as_array()
        .expect("differing")
        .iter()
        .find(|r| r["decision"] == "PATH")
        .expect("PATH differs");
    assert_eq!(path["unit"], "A Bre - Lon");
    assert_eq!(path["values"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["resolver"]["agreement"], "backup_decides");
    assert_eq!(v["resolver"]["backup_rules"][0], "Szykman rule");
    assert!(
        v["resolver"]["disagreements"]
            .as_array()
            .is_some_and(Vec::is_empty)
    );

    let (_, out, _) = dipsandbox(&["solve", "--json", "scenarios/datc/6.A.11.ron"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["solutions"], 1);
    let rows = v["solution"].as_array().expect("solution");
    assert!(
        rows.iter()
            .any(|r| r["decision"] == "MOVE" && r["values"][0] == "fails")
    );
    assert_eq!(v["resolver"]["agreement"], "takes_the_solution");
}

/// Bad input: a missing file, a phase that is not movement, bad rules, and a search limit too
/// small for the position, each with its message and exit status.
#[test]
fn solve_refuses_what_it_cannot_solve() {
    let (code, _, err) = dipsandbox(&["solve", "no/such/file.ron"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.ron"), "{err}");
    let (code, _, err) = dipsandbox(&["solve", "scenarios/datc/6.J.1.ron"]);
    assert_eq!(code, 2);
    assert!(err.contains("solve works on movement phases"), "{err}");
    let (code, _, err) = dipsandbox(&["solve", "scenarios/datc/6.A.1.ron", "--rules", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("--rules"), "{err}");
    let (code, out, err) = dipsandbox(&["solve", "scenarios/datc/6.F.24.ron", "--limit", "1"]);
    assert_eq!(code, 3, "{out}");
    assert!(err.contains("too large for exhaustive search"), "{err}");
    let (code, out, _) = dipsandbox(&[
        "solve",
        "--json",
        "scenarios/datc/6.F.24.ron",
        "--limit",
        "1",
    ]);
    assert_eq!(code, 3);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert!(v["too_large"].is_string());
}

/// A ring of twenty armies moving round (twenty decisions on one cycle) is solved with a handful
/// of guesses: two solutions, all move or none. (Speed is measured in `benches/resolve.rs`.)
#[test]
fn a_ring_of_twenty_needs_few_guesses() {
    use dipsandbox::map::UnitKind;
    let n = 20;
    let mut text = String::from(
        "(name: \"ring\", title: \"Ring\", powers: [(name: \"Ringland\", adjective: \"Ring\", home: [], start: [])], provinces: [",
    );
    for i in 0..n {
        text.push_str(&format!(
            "(abbr: \"p{i}\", name: \"P{i}\", kind: Land, supply_center: false, army: [\"p{}\", \"p{}\"]),",
            (i + 1) % n,
            (i + n - 1) % n
        ));
    }
    text.push_str("])");
    let map = Map::from_ron(&text, "ring.ron").unwrap_or_else(|e| panic!("{e}"));
    let units: Vec<Unit> = (0..n)
        .map(|i| Unit {
            power: PowerId(0),
            kind: UnitKind::Army,
            loc: map
                .province(map.find_province(&format!("p{i}")).expect("p"))
                .main,
        })
        .collect();
    let orders: Vec<(PowerId, Order)> = (0..n)
        .map(|i| {
            let text = format!("A p{i} - p{}", (i + 1) % n);
            let o = dipsandbox::orders::parse_order(&map, &text).expect("order");
            (PowerId(0), o)
        })
        .collect();
    let o = solve(&map, &units, &orders, &Rules::default(), Limits::default()).expect("solved");
    assert_eq!(o.count, 2);
    assert_eq!(o.groups.len(), 1);
    assert_eq!(o.groups[0].cyclic.len(), n);
    assert!(o.steps <= 4, "{} guesses", o.steps);
}
