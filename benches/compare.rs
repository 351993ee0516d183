//! dipsandbox against the fastest other open adjudicator we know, the `diplomacy` crate 0.2.0
//! (a dev-dependency used only here), side by side in one process on the same positions:
//!
//! - the Spring 1901 opening, adjudicated from built positions and orders, and end to end from
//!   order text (each program parsing its own notation);
//! - 50 random 34-unit mid-game positions (orders drawn from every order a unit can be given,
//!   kept only where both programs find them legal: the crate's map lacks some real borders);
//! - the DATC movement cases of `scenarios/datc` that both can express (the same positions and
//!   orders in each program's notation).
//!
//! After the timings, the ratios (the crate's time over ours) are printed. Run with
//! `cargo bench --features bench --bench compare` (add `-- --warm-up-time 1 --measurement-time 3` for a quick
//! run).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use diplomacy::UnitPosition;
use diplomacy::geo::{RegionKey, standard_map};
use diplomacy::judge::{MappedMainOrder, Rulebook, Submission};
use dipsandbox_core::base::random::SplitMix64;
use dipsandbox_core::engine::trace::{NoTrace, Recorder};
use dipsandbox_core::engine::{Adjudicator, adjudicate_movement};
use dipsandbox_core::model::board::{PhaseKind, Unit};
use dipsandbox_core::model::map::{Map, PowerId, UnitKind};
use dipsandbox_core::model::orders::{LocSpec, Order, OrderKind, parse_order};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::menu::movement_orders;

/// One position in both programs' terms.
struct Case {
    units: Vec<Unit>,
    orders: Vec<(PowerId, Order)>,
    /// Our orders as text (`A Par - Bur`).
    text: Vec<(PowerId, String)>,
    /// The crate's units and orders.
    their_units: Vec<UnitPosition<'static, RegionKey>>,
    their_orders: Vec<MappedMainOrder>,
    /// The crate's orders as text (`FRA: A par -> bur`).
    their_text: Vec<String>,
}

fn nation(map: &Map, p: PowerId) -> String {
    map.power(p)
        .name
        .chars()
        .take(3)
        .collect::<String>()
        .to_uppercase()
}

fn place(map: &Map, l: &LocSpec) -> String {
    let mut s = map.province(l.province).abbr.to_lowercase();
    if let Some(c) = l.coast {
        s.push_str(&format!("({})", c.abbr()));
    }
    s
}

fn unit_text(map: &Map, u: &Unit) -> String {
    let loc = map.location(u.loc);
    let spec = LocSpec {
        province: loc.province,
        coast: loc.coast,
    };
    format!("{} {}", u.kind.letter(), place(map, &spec))
}

/// An order of ours in the crate's notation, for the unit it orders.
fn their_order(map: &Map, units: &[Unit], power: PowerId, o: &Order) -> Option<String> {
    let spec = o.unit.as_ref()?;
    let unit = units
        .iter()
        .find(|u| map.province_of(u.loc) == spec.loc.province)?;
    let who = |r: &dipsandbox_core::model::orders::UnitRef| {
        units
            .iter()
            .find(|u| map.province_of(u.loc) == r.unit.loc.province)
            .map(|u| unit_text(map, u))
    };
    let head = format!("{}: {}", nation(map, power), unit_text(map, unit));
    Some(match &o.kind {
        OrderKind::Hold => format!("{head} holds"),
        OrderKind::Move { dest, .. } => format!("{head} -> {}", place(map, dest)),
        OrderKind::Support { target, dest } => match dest {
            Some(d) => format!("{head} supports {} -> {}", who(target)?, place(map, d)),
            None => format!("{head} supports {}", who(target)?),
        },
        OrderKind::Convoy { army, dest } => {
            format!("{head} convoys {} -> {}", who(army)?, place(map, dest))
        }
        _ => return None,
    })
}

/// Builds a case; None when some order has no counterpart in the crate's notation.
fn case(map: &Map, units: Vec<Unit>, orders: Vec<(PowerId, Order)>) -> Option<Case> {
    let their_text: Vec<String> = orders
        .iter()
        .map(|(p, o)| their_order(map, &units, *p, o))
        .collect::<Option<_>>()?;
    let their_orders: Vec<MappedMainOrder> = their_text
        .iter()
        .map(|t| t.parse().ok())
        .collect::<Option<_>>()?;
    let their_units: Vec<UnitPosition<'static, RegionKey>> = units
        .iter()
        .map(|u| {
            format!("{}: {}", nation(map, u.power), unit_text(map, u))
                .parse()
                .ok()
        })
        .collect::<Option<_>>()?;
    let text = orders
        .iter()
        .map(|(p, o)| {
            let mut o = o.clone();
            o.power = None;
            (
                *p,
                dipsandbox_core::model::orders::format_order(
                    map,
                    &o,
                    dipsandbox_core::model::orders::NameStyle::Abbr,
                ),
            )
        })
        .collect();
    Some(Case {
        units,
        orders,
        text,
        their_units,
        their_orders,
        their_text,
    })
}

fn opening(map: &Map) -> Case {
    let units: Vec<Unit> = dipsandbox_core::model::scenario::Scenario::opening(
        std::sync::Arc::new(map.clone()),
        "standard",
    )
    .units;
    let text = [
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
    let orders = text
        .iter()
        .map(|(p, t)| {
            (
                map.find_power(p).expect("power"),
                parse_order(map, t).expect("order"),
            )
        })
        .collect();
    case(map, units, orders).expect("the opening is expressible")
}

/// A random mid-game position of 34 units with an order each, drawn from every order the unit
/// can be given; an order the crate's map cannot express (a border it lacks) becomes a hold.
fn midgame(map: &Map, seed: u64) -> Option<Case> {
    // splitmix64, so that the positions are the same on every run.
    let mut rng = SplitMix64::new(seed);
    let mut provinces: Vec<_> = map.province_ids().collect();
    let mut units = Vec::new();
    while units.len() < 34 && !provinces.is_empty() {
        let i = (rng.next_u64() % provinces.len() as u64) as usize;
        let p = provinces.swap_remove(i);
        let prov = map.province(p);
        let fleet = match prov.kind {
            dipsandbox_core::model::map::ProvinceKind::Sea => true,
            dipsandbox_core::model::map::ProvinceKind::Land => false,
            dipsandbox_core::model::map::ProvinceKind::Coast => rng.next_u64().is_multiple_of(2),
        };
        let loc = if fleet && prov.is_multi_coast() {
            prov.coasts[(rng.next_u64() % prov.coasts.len() as u64) as usize].1
        } else {
            prov.main
        };
        units.push(Unit {
            power: PowerId((rng.next_u64() % map.powers.len() as u64) as u8),
            kind: if fleet {
                UnitKind::Fleet
            } else {
                UnitKind::Army
            },
            loc,
        });
    }
    let their_map = standard_map();
    let rules = Rules::default();
    let mut orders = Vec::new();
    for u in 0..units.len() {
        let menu = movement_orders(map, &units, u);
        let mut o = menu[(rng.next_u64() % menu.len() as u64) as usize].clone();
        // Legal for us and for the crate, or a hold.
        let ours_legal = {
            let r = dipsandbox_core::engine::legality::prepare(
                map,
                &units,
                &[(units[u].power, o.clone())],
                &rules,
            );
            matches!(
                r.status[0],
                dipsandbox_core::engine::legality::OrderStatus::Applied(_)
            )
        };
        let theirs_legal = their_order(map, &units, units[u].power, &o)
            .and_then(|t| t.parse::<MappedMainOrder>().ok())
            .is_some_and(|t| {
                let c = case(map, units.clone(), Vec::new()).map(|c| c.their_units);
                c.is_some_and(|pos| {
                    Submission::new(their_map, &pos, vec![t.clone()])
                        .adjudicate(Rulebook::default())
                        .get(&t)
                        .is_some_and(|oc| !matches!(oc, diplomacy::judge::OrderOutcome::Illegal(_)))
                })
            });
        if !(ours_legal && theirs_legal) {
            o.kind = OrderKind::Hold;
        }
        orders.push((units[u].power, o));
    }
    case(map, units, orders)
}

/// The DATC movement scenario files both programs can express: each file's text and its case.
fn datc_files(map: &Map) -> Vec<(String, Case)> {
    let mut files: Vec<_> = std::fs::read_dir("scenarios/datc")
        .expect("scenarios/datc")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(f).ok()?;
            let s = Scenario::from_ron(&text, &f.display().to_string()).ok()?;
            if s.phase.kind != PhaseKind::Movement || s.map.name != "standard" {
                return None;
            }
            let orders = s
                .orders
                .iter()
                .map(|e| (e.power, e.order.clone()))
                .collect();
            Some((text, case(map, s.units.clone(), orders)?))
        })
        .collect()
}

/// The DATC movement scenarios both programs can express.
#[allow(dead_code)]
fn datc(map: &Map) -> Vec<Case> {
    let mut files: Vec<_> = std::fs::read_dir("scenarios/datc")
        .expect("scenarios/datc")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|f| Scenario::load(f).ok())
        .filter(|s| s.phase.kind == PhaseKind::Movement && s.map.name == "standard")
        .filter_map(|s| {
            let orders = s
                .orders
                .iter()
                .map(|e| (e.power, e.order.clone()))
                .collect();
            case(map, s.units.clone(), orders)
        })
        .collect()
}

fn ours(map: &Map, c: &Case, rules: &Rules) -> usize {
    adjudicate_movement(map, &c.units, &c.orders, rules)
        .outcomes
        .len()
}

/// The reusable workspace: typed outcomes, no words.
fn ws(adj: &mut Adjudicator, map: &Map, c: &Case, rules: &Rules) -> usize {
    adj.adjudicate(map, &c.units, &c.orders, rules).len()
}

/// The workspace, traced.
fn ws_traced(adj: &mut Adjudicator, map: &Map, c: &Case, rules: &Rules) -> usize {
    adj.adjudicate_with(map, &c.units, &c.orders, rules, Recorder::default())
        .events
        .len()
}

/// Order text parsed, then the workspace.
fn ws_from_text(
    adj: &mut Adjudicator,
    map: &Map,
    c: &Case,
    rules: &Rules,
    buf: &mut Vec<(PowerId, Order)>,
) -> usize {
    buf.clear();
    buf.extend(
        c.text
            .iter()
            .filter_map(|(p, t)| parse_order(map, t).ok().map(|o| (*p, o))),
    );
    adj.adjudicate(map, &c.units, buf, rules).len()
}

/// The scenario file's text loaded (parsed, names looked up, validated), then the workspace.
fn ws_from_scenario(adj: &mut Adjudicator, text: &str) -> usize {
    let s = Scenario::from_ron(text, "case.ron").expect("loads");
    let orders: Vec<(PowerId, Order)> = s
        .orders
        .iter()
        .map(|e| (e.power, e.order.clone()))
        .collect();
    adj.adjudicate(&s.map, &s.units, &orders, &s.rules).len()
}

fn ours_from_text(map: &Map, c: &Case, rules: &Rules) -> usize {
    let orders: Vec<(PowerId, Order)> = c
        .text
        .iter()
        .filter_map(|(p, t)| parse_order(map, t).ok().map(|o| (*p, o)))
        .collect();
    adjudicate_movement(map, &c.units, &orders, rules)
        .outcomes
        .len()
}

fn theirs(c: &Case, orders: Vec<MappedMainOrder>) -> usize {
    let sub = Submission::new(standard_map(), &c.their_units, orders);
    let out = sub.adjudicate(Rulebook::default());
    out.all_orders_with_outcomes().count()
}

fn theirs_from_text(c: &Case) -> usize {
    let orders: Vec<MappedMainOrder> = c.their_text.iter().filter_map(|t| t.parse().ok()).collect();
    theirs(c, orders)
}

/// Mean time of one call of `f`, by a simple timed loop (for the printed ratios; criterion's
/// own figures are above them).
fn mean(mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut n = 0u32;
    while start.elapsed() < Duration::from_millis(400) || n < 10 {
        f();
        n += 1;
    }
    start.elapsed() / n
}

fn bench(c: &mut Criterion) {
    let map = Map::standard();
    let rules = Rules::default();
    let open = opening(&map);
    let mids: Vec<Case> = (0..50).filter_map(|s| midgame(&map, s)).collect();
    let files = datc_files(&map);
    let cases: Vec<Case> = files
        .iter()
        .map(|(_, c)| Case {
            units: c.units.clone(),
            orders: c.orders.clone(),
            text: c.text.clone(),
            their_units: c.their_units.clone(),
            their_orders: c.their_orders.clone(),
            their_text: c.their_text.clone(),
        })
        .collect();
    let mut adj = Adjudicator::new();
    let mut buf: Vec<(PowerId, Order)> = Vec::new();
    assert!(mids.len() >= 40, "{} mid-game positions", mids.len());
    assert!(cases.len() >= 100, "{} DATC cases", cases.len());

    let mut g = c.benchmark_group("opening");
    g.bench_function("dipsandbox", |b| {
        b.iter(|| ours(black_box(&map), black_box(&open), &rules))
    });
    g.bench_function("diplomacy", |b| {
        b.iter_batched(
            || open.their_orders.clone(),
            |o| theirs(black_box(&open), o),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("dipsandbox_from_text", |b| {
        b.iter(|| ours_from_text(black_box(&map), black_box(&open), &rules))
    });
    g.bench_function("dipsandbox_workspace", |b| {
        b.iter(|| ws(&mut adj, black_box(&map), black_box(&open), &rules))
    });
    g.bench_function("dipsandbox_workspace_from_text", |b| {
        b.iter(|| {
            ws_from_text(
                &mut adj,
                black_box(&map),
                black_box(&open),
                &rules,
                &mut buf,
            )
        })
    });
    g.bench_function("diplomacy_from_text", |b| {
        b.iter(|| theirs_from_text(black_box(&open)))
    });
    g.finish();

    let mut g = c.benchmark_group("midgame_34_units_x50");
    g.bench_function("dipsandbox", |b| {
        b.iter(|| mids.iter().map(|m| ours(&map, m, &rules)).sum::<usize>())
    });
    g.bench_function("diplomacy", |b| {
        b.iter_batched(
            || {
                mids.iter()
                    .map(|m| m.their_orders.clone())
                    .collect::<Vec<_>>()
            },
            |os| {
                mids.iter()
                    .zip(os)
                    .map(|(m, o)| theirs(m, o))
                    .sum::<usize>()
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();

    let mut g = c.benchmark_group("datc_movement_cases");
    g.bench_function("dipsandbox", |b| {
        b.iter(|| cases.iter().map(|m| ours(&map, m, &rules)).sum::<usize>())
    });
    g.bench_function("dipsandbox_workspace", |b| {
        b.iter(|| {
            cases
                .iter()
                .map(|m| ws(&mut adj, &map, m, &rules))
                .sum::<usize>()
        })
    });
    g.bench_function("dipsandbox_workspace_traced", |b| {
        b.iter(|| {
            cases
                .iter()
                .map(|m| ws_traced(&mut adj, &map, m, &rules))
                .sum::<usize>()
        })
    });
    g.bench_function("dipsandbox_scenario_load", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|(t, _)| Scenario::from_ron(t, "case.ron").map_or(0, |s| s.units.len()))
                .sum::<usize>()
        })
    });
    g.bench_function("diplomacy", |b| {
        b.iter_batched(
            || {
                cases
                    .iter()
                    .map(|m| m.their_orders.clone())
                    .collect::<Vec<_>>()
            },
            |os| {
                cases
                    .iter()
                    .zip(os)
                    .map(|(m, o)| theirs(m, o))
                    .sum::<usize>()
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();

    // The ratios, each measured the same way for both programs (orders cloned for the crate
    // outside its timing: its submission takes them by value).
    let clone_open = mean(|| {
        black_box(open.their_orders.clone());
    });
    let clone_cases = mean(|| {
        black_box(
            cases
                .iter()
                .map(|m| m.their_orders.clone())
                .collect::<Vec<_>>(),
        );
    }) / cases.len() as u32;
    let clone_mids = mean(|| {
        black_box(
            mids.iter()
                .map(|m| m.their_orders.clone())
                .collect::<Vec<_>>(),
        );
    }) / mids.len() as u32;
    let k = cases.len() as u32;
    let theirs_open = mean(|| {
        black_box(theirs(&open, open.their_orders.clone()));
    })
    .saturating_sub(clone_open);
    let theirs_open_text = mean(|| {
        black_box(theirs_from_text(&open));
    });
    let theirs_mid = (mean(|| {
        black_box(
            mids.iter()
                .map(|m| theirs(m, m.their_orders.clone()))
                .sum::<usize>(),
        );
    }) / mids.len() as u32)
        .saturating_sub(clone_mids);
    let theirs_case = (mean(|| {
        black_box(
            cases
                .iter()
                .map(|m| theirs(m, m.their_orders.clone()))
                .sum::<usize>(),
        );
    }) / k)
        .saturating_sub(clone_cases);
    let theirs_case_text = mean(|| {
        black_box(cases.iter().map(theirs_from_text).sum::<usize>());
    }) / k;
    // The same DATC cases as scenarios, for the path `check` runs (adjudicate the scenario,
    // compare it with its expectations).
    let scenarios: Vec<Scenario> = files
        .iter()
        .filter_map(|(t, _)| Scenario::from_ron(t, "case.ron").ok())
        .collect();
    let rows = [
        (
            "opening: adjudicate (workspace, typed)",
            mean(|| {
                black_box(ws(&mut adj, &map, &open, &rules));
            }),
            theirs_open,
        ),
        (
            "opening: adjudicate (function, words)",
            mean(|| {
                black_box(ours(&map, &open, &rules));
            }),
            theirs_open,
        ),
        (
            "opening: end to end from text (workspace)",
            mean(|| {
                black_box(ws_from_text(&mut adj, &map, &open, &rules, &mut buf));
            }),
            theirs_open_text,
        ),
        (
            "opening: end to end from text (function)",
            mean(|| {
                black_box(ours_from_text(&map, &open, &rules));
            }),
            theirs_open_text,
        ),
        (
            "34-unit mid-game (workspace, per position)",
            mean(|| {
                black_box(
                    mids.iter()
                        .map(|m| ws(&mut adj, &map, m, &rules))
                        .sum::<usize>(),
                );
            }) / mids.len() as u32,
            theirs_mid,
        ),
        (
            "DATC case (workspace, per case)",
            mean(|| {
                black_box(
                    cases
                        .iter()
                        .map(|m| ws(&mut adj, &map, m, &rules))
                        .sum::<usize>(),
                );
            }) / k,
            theirs_case,
        ),
        (
            "DATC case (function, words, per case)",
            mean(|| {
                black_box(cases.iter().map(|m| ours(&map, m, &rules)).sum::<usize>());
            }) / k,
            theirs_case,
        ),
        (
            "DATC case from text (workspace)",
            mean(|| {
                black_box(
                    cases
                        .iter()
                        .map(|m| ws_from_text(&mut adj, &map, m, &rules, &mut buf))
                        .sum::<usize>(),
                );
            }) / k,
            theirs_case_text,
        ),
        (
            "DATC case through check's path (loaded)",
            mean(|| {
                black_box(
                    scenarios
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
                        .sum::<usize>(),
                );
            }) / k,
            theirs_case,
        ),
        (
            "DATC case from its scenario file",
            mean(|| {
                black_box(
                    files
                        .iter()
                        .map(|(t, _)| ws_from_scenario(&mut adj, t))
                        .sum::<usize>(),
                );
            }) / k,
            theirs_case_text,
        ),
    ];
    println!(
        "\ndipsandbox vs diplomacy 0.2.0 (same process, same positions; ratio = theirs / ours):"
    );
    println!(
        "  {:<44} {:>11} {:>11} {:>8}",
        "", "dipsandbox", "diplomacy", "ratio"
    );
    for (name, a, b) in rows {
        println!(
            "  {name:<44} {:>9.2}µs {:>9.2}µs {:>7.1}×",
            a.as_secs_f64() * 1e6,
            b.as_secs_f64() * 1e6,
            b.as_secs_f64() / a.as_secs_f64().max(1e-12)
        );
    }
    println!(
        "  ({} mid-game positions, {} DATC movement cases)",
        mids.len(),
        cases.len()
    );

    // dipsandbox alone: loading a scenario against adjudicating it, tracing on against off.
    let load = mean(|| {
        black_box(
            files
                .iter()
                .map(|(t, _)| Scenario::from_ron(t, "case.ron").map_or(0, |s| s.units.len()))
                .sum::<usize>(),
        );
    }) / k;
    let adjudicate_ws = mean(|| {
        black_box(
            cases
                .iter()
                .map(|m| ws(&mut adj, &map, m, &rules))
                .sum::<usize>(),
        );
    }) / k;
    let adjudicate_fn = mean(|| {
        black_box(cases.iter().map(|m| ours(&map, m, &rules)).sum::<usize>());
    }) / k;
    let traced_ws = mean(|| {
        black_box(
            cases
                .iter()
                .map(|m| ws_traced(&mut adj, &map, m, &rules))
                .sum::<usize>(),
        );
    }) / k;
    let untraced_ws = mean(|| {
        black_box(
            cases
                .iter()
                .map(|m| {
                    adj.adjudicate_with(&map, &m.units, &m.orders, &rules, NoTrace);
                    adj.outcomes().len()
                })
                .sum::<usize>(),
        );
    }) / k;
    let traced_fn = mean(|| {
        black_box(
            cases
                .iter()
                .map(|m| {
                    dipsandbox_core::engine::decision::adjudicate(
                        &map, &m.units, &m.orders, &rules, true,
                    )
                    .outcomes
                    .len()
                })
                .sum::<usize>(),
        );
    }) / k;
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64().max(1e-12);
    println!("\ndipsandbox alone, per DATC movement case:");
    println!(
        "  load the scenario file (text in memory)     {:>9.2}µs",
        us(load)
    );
    println!(
        "  adjudicate (workspace, typed)               {:>9.2}µs   load / adjudicate {:>5.2}× (target ≤ 1)",
        us(adjudicate_ws),
        ratio(load, adjudicate_ws)
    );
    println!(
        "  adjudicate (function, words, graph)         {:>9.2}µs   load / adjudicate {:>5.2}×",
        us(adjudicate_fn),
        ratio(load, adjudicate_fn)
    );
    println!(
        "  traced (workspace)                          {:>9.2}µs   on / off {:>5.2}× (target ≤ 2)",
        us(traced_ws),
        ratio(traced_ws, untraced_ws)
    );
    println!(
        "  traced (function)                           {:>9.2}µs   on / off {:>5.2}×",
        us(traced_fn),
        ratio(traced_fn, adjudicate_fn)
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
