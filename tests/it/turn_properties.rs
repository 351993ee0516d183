//! Property tests of the turn cycle: random games from the 1901 start, with random movement
//! (including organised, supported attacks so that dislodgements and retreats happen),
//! retreat and adjustment orders, advanced phase by phase for two years.
//!
//! After every phase: no two units share a province, every order has an outcome, dislodged units
//! come only from movement phases, supply centres change hands only after Fall, and after an
//! adjustment each power has as many units as centres when it had to remove, and no more units
//! than centres when it could build; and the library's invariant checker
//! ([`dipsandbox_core::tools::invariants::check_advance`], listing-order stability) finds nothing.

use dipsandbox_core::base::random::SplitMix64;
use dipsandbox_core::engine::adjust::adjustments_due;
use dipsandbox_core::model::board::{PhaseKind, Season};
use dipsandbox_core::model::map::{Map, ProvinceKind, UnitKind};
use dipsandbox_core::model::orders::parse_order;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::{OrderEntry, Scenario};
use dipsandbox_core::tools::invariants::{check_advance, check_phase_stable, report};
use dipsandbox_core::tools::turn::advance;
use proptest::prelude::*;

const START: &str = r#"Scenario(
    title: "random game",
    phase: "Spring 1901 Movement",
    units: {
        "Austria": ["A Budapest", "F Trieste", "A Vienna"],
        "England": ["F Edinburgh", "F London", "A Liverpool"],
        "France": ["F Brest", "A Marseilles", "A Paris"],
        "Germany": ["A Berlin", "F Kiel", "A Munich"],
        "Italy": ["F Naples", "A Rome", "A Venice"],
        "Russia": ["A Moscow", "F Sevastopol", "F St Petersburg(sc)", "A Warsaw"],
        "Turkey": ["F Ankara", "A Constantinople", "A Smyrna"],
    },
)"#;

fn entry(s: &Scenario, power: dipsandbox_core::model::map::PowerId, text: String) -> OrderEntry {
    let order = parse_order(&s.map, &text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    OrderEntry { power, text, order }
}

fn neighbours(map: &Map, u: &dipsandbox_core::model::board::Unit) -> Vec<String> {
    match u.kind {
        UnitKind::Army => map
            .army_neighbours(map.province_of(u.loc))
            .iter()
            .map(|p| map.province(*p).name.clone())
            .collect(),
        UnitKind::Fleet => map
            .fleet_neighbours(u.loc)
            .iter()
            .map(|l| map.loc_name(*l))
            .collect(),
    }
}

fn random_orders(s: &Scenario, rng: &mut SplitMix64) -> Vec<OrderEntry> {
    let map = &*s.map;
    let mut out = Vec::new();
    match s.phase.kind {
        PhaseKind::Movement => {
            // Most units move or hold at random; a few attacks are organised with supports so
            // that dislodgements (and retreat phases) happen.
            let mut texts: Vec<Option<String>> = vec![None; s.units.len()];
            for _ in 0..2 + rng.below(6) {
                let v = rng.below(s.units.len());
                let target = map.province_of(s.units[v].loc);
                let can: Vec<usize> = (0..s.units.len())
                    .filter(|&i| i != v && texts[i].is_none())
                    .filter(|&i| map.can_reach(s.units[i].kind, s.units[i].loc, target))
                    .collect();
                if can.is_empty() {
                    continue;
                }
                let a = can[rng.below(can.len())];
                let attacker = s.units[a].describe(map);
                let dest = map.province(target).name.clone();
                let dest_text = match s.units[a].kind {
                    UnitKind::Fleet => map
                        .fleet_neighbours(s.units[a].loc)
                        .iter()
                        .find(|l| map.province_of(**l) == target)
                        .map(|l| map.loc_name(*l))
                        .unwrap_or(dest.clone()),
                    UnitKind::Army => dest.clone(),
                };
                texts[a] = Some(format!("{attacker} - {dest_text}"));
                for &i in &can {
                    let ally = s.units[i].power == s.units[a].power || rng.below(2) == 0;
                    if i != a && ally && texts[i].is_none() {
                        texts[i] = Some(format!(
                            "{} Supports {attacker} - {dest}",
                            s.units[i].describe(map)
                        ));
                    }
                }
            }
            for (i, u) in s.units.iter().enumerate() {
                let me = u.describe(map);
                let text = texts[i].take().unwrap_or_else(|| match rng.below(3) {
                    0 => format!("{me} Hold"),
                    _ => {
                        let n = neighbours(map, u);
                        format!("{me} - {}", n[rng.below(n.len())])
                    }
                });
                out.push(entry(s, u.power, text));
            }
        }
        PhaseKind::Retreat => {
            for d in &s.dislodged {
                let me = d.unit.describe(map);
                let n = neighbours(map, &d.unit);
                let text = if rng.below(4) == 0 {
                    format!("{me} Disband")
                } else {
                    format!("{me} - {}", n[rng.below(n.len())])
                };
                out.push(entry(s, d.unit.power, text));
            }
        }
        PhaseKind::Adjustment => {
            let owners = s.owners_or_home();
            let due = adjustments_due(map, &s.units, &owners);
            for p in map.power_ids() {
                let d = due[p.0 as usize];
                if d > 0 {
                    for _ in 0..rng.below(d as usize + 2) {
                        let home = &map.power(p).home;
                        let prov = map.province(home[rng.below(home.len())]);
                        let text = match (prov.kind, rng.below(3)) {
                            (ProvinceKind::Land, _) | (_, 0) => format!("Build A {}", prov.name),
                            _ if prov.is_multi_coast() => {
                                let c = prov.coasts[rng.below(prov.coasts.len())].0;
                                format!("Build F {}({})", prov.name, c.abbr())
                            }
                            _ => format!("Build F {}", prov.name),
                        };
                        out.push(entry(s, p, text));
                    }
                } else if d < 0 {
                    let mine: Vec<_> = s.units.iter().filter(|u| u.power == p).collect();
                    for _ in 0..rng.below((-d) as usize + 2) {
                        let u = mine[rng.below(mine.len())];
                        out.push(entry(s, p, format!("Remove {}", u.describe(map))));
                    }
                }
            }
        }
    }
    out
}

fn play(seed: u64) -> Result<(), TestCaseError> {
    let mut rng = SplitMix64::new(seed);
    let mut s = Scenario::from_ron(START, "start.ron").expect("start position");
    let rules = Rules::default();
    let map = s.map.clone();
    for _ in 0..12 {
        if s.phase.year > 1902 {
            break;
        }
        s.orders = random_orders(&s, &mut rng);
        let before_units = s.units.clone();
        let before_owners = s.owners_or_home();
        let adv = advance(&s, &rules).expect("advances");
        // The library's checker: the phase's invariants, listing order, and the step of the
        // turn cycle.
        let v: Vec<_> = check_advance(&s, &rules, &adv)
            .into_iter()
            .chain(check_phase_stable(
                &s,
                &s.orders,
                &rules,
                seed ^ s.phase.year as u64,
            ))
            .collect();
        prop_assert!(v.is_empty(), "{}: {}", s.phase, report(&v));
        let r = &adv.result;
        prop_assert_eq!(
            r.outcomes.len(),
            s.orders.len(),
            "{}: one outcome per order",
            s.phase
        );
        let mut provinces: Vec<_> = r
            .final_units
            .iter()
            .map(|u| map.province_of(u.loc))
            .collect();
        provinces.sort();
        let n = provinces.len();
        provinces.dedup();
        prop_assert_eq!(provinces.len(), n, "{}: two units in one province", s.phase);
        if s.phase.kind != PhaseKind::Movement {
            prop_assert!(r.dislodged.is_empty());
        }
        let after_owners = adv.next.owners_or_home();
        if s.phase.season == Season::Spring {
            prop_assert_eq!(
                &after_owners,
                &before_owners,
                "centres change hands only after Fall"
            );
        }
        if s.phase.kind == PhaseKind::Retreat {
            // Each dislodged unit comes back at most once; nobody else moves.
            prop_assert!(r.final_units.len() <= before_units.len() + s.dislodged.len());
            for u in &before_units {
                prop_assert!(
                    r.final_units.contains(u),
                    "{}: a unit that was not dislodged moved",
                    s.phase
                );
            }
        }
        if s.phase.kind == PhaseKind::Adjustment {
            let due = adjustments_due(&map, &before_units, &before_owners);
            for p in map.power_ids() {
                let centres = before_owners.iter().filter(|o| **o == Some(p)).count();
                let had = before_units.iter().filter(|u| u.power == p).count();
                let has = r.final_units.iter().filter(|u| u.power == p).count();
                match due[p.0 as usize] {
                    d if d < 0 => prop_assert_eq!(
                        has,
                        centres,
                        "{} must end with one unit per centre",
                        map.power(p).name
                    ),
                    d if d > 0 => prop_assert!(has >= had && has <= centres),
                    _ => prop_assert_eq!(has, had),
                }
            }
        }
        if s.phase.season == Season::Fall && adv.next.phase.kind != PhaseKind::Retreat {
            for u in &adv.next.units {
                let p = map.province_of(u.loc);
                if map.province(p).supply_center {
                    prop_assert_eq!(
                        after_owners[p.0 as usize],
                        Some(u.power),
                        "an occupied centre belongs to its occupant"
                    );
                }
            }
        }
        s = adv.next;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random two-year games keep every invariant of the turn cycle.
    #[test]
    fn random_games_keep_the_turn_invariants(seed in any::<u64>()) {
        play(seed)?;
    }
}
