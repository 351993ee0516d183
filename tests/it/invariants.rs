//! The invariant checker ([`dipsandbox_core::tools::invariants`]) finds nothing in sound results, and finds
//! each broken invariant in a result tampered with on purpose: a checker that cannot fail would
//! prove nothing.

use dipsandbox_core::engine::decision::trace::BackupRule;
use dipsandbox_core::engine::{MovementResult, PhaseResult, adjudicate_movement};
use dipsandbox_core::model::board::Unit;
use dipsandbox_core::model::map::{Map, PowerId, UnitKind};
use dipsandbox_core::model::orders::Order;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::invariants::{
    Invariant, Violation, check_adjustments, check_advance, check_movement, check_movement_stable,
    check_phase, check_retreats, check_scenario, report,
};
use dipsandbox_core::tools::turn::{adjudicate_phase, advance};

fn scenario(text: &str) -> Scenario {
    Scenario::from_ron(text, "test.ron").unwrap_or_else(|e| panic!("{e}"))
}

fn orders(s: &Scenario) -> Vec<(PowerId, Order)> {
    s.orders
        .iter()
        .map(|e| (e.power, e.order.clone()))
        .collect()
}

fn unit(map: &Map, power: &str, kind: UnitKind, place: &str) -> Unit {
    Unit {
        power: map.find_power(power).expect("power"),
        kind,
        loc: map
            .province(map.find_province(place).expect("province"))
            .main,
    }
}

/// Whether `v` reports `which`, and says `words`.
fn reports(v: &[Violation], which: Invariant, words: &str) -> bool {
    v.iter()
        .any(|x| x.invariant == which && x.message.contains(words))
}

/// Germany dislodges the Russian army in Warsaw from Prussia with support from Silesia; Austria
/// bounces in Galicia against Russia.
const DISLODGE: &str = r#"Scenario(
    title: "dislodgement",
    phase: "Spring 1901 Movement",
    units: {
        "Germany": ["A Prussia", "A Silesia"],
        "Russia": ["A Warsaw", "A Ukraine"],
        "Austria": ["A Budapest"],
    },
    orders: {
        "Germany": ["A Prussia - Warsaw", "A Silesia Supports A Prussia - Warsaw"],
        "Russia": ["A Warsaw Hold", "A Ukraine - Galicia"],
        "Austria": ["A Budapest - Galicia"],
    },
)"#;

fn dislodge() -> (Scenario, Vec<(PowerId, Order)>, MovementResult) {
    let s = scenario(DISLODGE);
    let o = orders(&s);
    let r = adjudicate_movement(&s.map, &s.units, &o, &s.rules);
    (s, o, r)
}

fn movement_violations(s: &Scenario, o: &[(PowerId, Order)], r: &MovementResult) -> Vec<Violation> {
    check_movement(&s.map, &s.units, o, &s.rules, r)
}

#[test]
fn sound_results_have_no_violations() {
    let (s, o, r) = dislodge();
    assert_eq!(r.dislodged.len(), 1);
    assert_eq!(r.contested.len(), 1, "Galicia is a standoff");
    let v = movement_violations(&s, &o, &r);
    assert!(v.is_empty(), "{}", report(&v));
    assert!(check_movement_stable(&s.map, &s.units, &o, &s.rules, 3).is_empty());
    let v = check_scenario(&s, &s.rules, 5);
    assert!(v.is_empty(), "{}", report(&v));
    for file in [
        "scenarios/pandin.ron",
        "scenarios/datc/6.F.14.ron",
        "scenarios/datc/6.H.9.ron",
        "scenarios/datc/6.I.1.ron",
        "scenarios/datc/6.J.1.ron",
    ] {
        let s = Scenario::load(std::path::Path::new(file)).expect(file);
        let v = check_scenario(&s, &s.rules, 11);
        assert!(v.is_empty(), "{file}: {}", report(&v));
    }
}

/// Found by the property tests: two armies bounce in Piedmont and both are dislodged where
/// they stand. Piedmont is still a standoff (a dislodged unit's failed move contests its
/// target); the checker took only units that stayed as having tried, and reported a sound
/// result as a violation.
#[test]
fn a_standoff_between_dislodged_units_is_sound() {
    let s = scenario(
        r#"Scenario(
    title: "Piedmont contested by two dislodged armies",
    map: "standard",
    phase: "Spring 1901 Movement",
    units: {
        "France": ["A Rome"],
        "Austria": ["A Marseilles", "A Venice"],
        "England": ["F Adriatic Sea", "F Gulf of Lyon", "F Spain(sc)"],
    },
    orders: {
        "France": ["Rom S English Adr - Ven"],
        "Austria": ["Mar - Pie", "Ven - Pie"],
        "England": ["Adr - Ven", "Lyo S English Spa - Mar", "Spa - Mar"],
    },
)"#,
    );
    let o = orders(&s);
    let r = adjudicate_movement(&s.map, &s.units, &o, &s.rules);
    assert_eq!(r.dislodged.len(), 2);
    let pie = s.map.find_province("Piedmont").expect("Piedmont");
    assert_eq!(r.contested, vec![pie]);
    let v = movement_violations(&s, &o, &r);
    assert!(v.is_empty(), "{}", report(&v));
}

#[test]
fn a_missing_outcome_is_caught() {
    let (s, o, mut r) = dislodge();
    r.outcomes.pop();
    let v = movement_violations(&s, &o, &r);
    assert!(
        reports(&v, Invariant::OneOutcome, "5 orders but 4 outcomes"),
        "{}",
        report(&v)
    );
}

#[test]
fn a_unit_both_ending_and_dislodged_is_caught() {
    let (s, o, mut r) = dislodge();
    let war = s
        .units
        .iter()
        .position(|u| u.loc == unit(&s.map, "Russia", UnitKind::Army, "war").loc)
        .unwrap();
    r.units[war].ends = Some(s.units[war]);
    let v = movement_violations(&s, &o, &r);
    assert!(
        reports(&v, Invariant::OneOutcome, "Russian A Warsaw ends at"),
        "{}",
        report(&v)
    );
}

#[test]
fn two_units_in_one_province_are_caught() {
    let (s, o, mut r) = dislodge();
    // The army in Silesia is said to end in Warsaw too.
    let sil = 1;
    let war = r.units[0].ends.unwrap();
    r.units[sil].ends = Some(Unit {
        loc: war.loc,
        ..s.units[sil]
    });
    r.final_units = r.units.iter().filter_map(|u| u.ends).collect();
    let v = movement_violations(&s, &o, &r);
    assert!(
        reports(&v, Invariant::OneUnitPerProvince, "both end in Warsaw"),
        "{}",
        report(&v)
    );
    assert!(
        reports(
            &v,
            Invariant::MovesAsOrdered,
            "German A Silesia moved to Warsaw on Germany: A Sil S A Pru - War, which is not a move"
        ),
        "{}",
        report(&v)
    );
}

#[test]
fn a_unit_moving_without_a_move_order_is_caught() {
    let (s, o, mut r) = dislodge();
    let map = &s.map;
    let bud = s
        .units
        .iter()
        .position(|u| map.province_of(u.loc) == map.find_province("bud").unwrap())
        .unwrap();
    // The Austrian move bounced; say it went to Galicia anyway, and the Russian army to Moscow.
    r.units[bud].ends = Some(unit(map, "Austria", UnitKind::Army, "gal"));
    let ukr = s
        .units
        .iter()
        .position(|u| map.province_of(u.loc) == map.find_province("ukr").unwrap())
        .unwrap();
    r.units[ukr].ends = Some(unit(map, "Russia", UnitKind::Army, "mos"));
    r.final_units = r.units.iter().filter_map(|u| u.ends).collect();
    let v = movement_violations(&s, &o, &r);
    assert!(
        reports(
            &v,
            Invariant::MovesAsOrdered,
            "Austrian A Budapest moved to Galicia but Austria: A Bud - Gal is Fails"
        ),
        "{}",
        report(&v)
    );
    assert!(
        reports(
            &v,
            Invariant::MovesAsOrdered,
            "Russian A Ukraine ended in Moscow on Russia: A Ukr - Gal"
        ),
        "{}",
        report(&v)
    );
    assert!(
        reports(
            &v,
            Invariant::Consistency,
            "Galicia is contested (a standoff) but occupied"
        ),
        "{}",
        report(&v)
    );
}

#[test]
fn a_dislodger_that_did_not_move_in_is_caught() {
    let (s, o, mut r) = dislodge();
    let war = r
        .units
        .iter()
        .position(|u| u.dislodged_by.is_some())
        .unwrap();
    // Blame the supporter in Silesia, which stayed put.
    r.units[war].dislodged_by = Some(1);
    let v = movement_violations(&s, &o, &r);
    assert!(
        reports(
            &v,
            Invariant::Dislodgement,
            "Russian A Warsaw is dislodged by German A Silesia, which ends in Silesia"
        ),
        "{}",
        report(&v)
    );
    let (s, o, mut r) = dislodge();
    r.dislodged[0].attacker_from = s.map.find_province("sil").unwrap();
    let v = movement_violations(&s, &o, &r);
    assert!(
        reports(
            &v,
            Invariant::Dislodgement,
            "its attacker is said to come from Silesia"
        ),
        "{}",
        report(&v)
    );
}

#[test]
fn unresolved_decisions_are_caught() {
    let (s, o, mut r) = dislodge();
    r.graph.hi[0] = r.graph.lo[0] + 1;
    let v = movement_violations(&s, &o, &r);
    assert!(
        reports(&v, Invariant::Resolved, "is unresolved"),
        "{}",
        report(&v)
    );
}

#[test]
fn an_unreported_backup_rule_is_caught() {
    let s = Scenario::load(std::path::Path::new("scenarios/datc/6.F.16.ron")).unwrap();
    let o = orders(&s);
    let r = adjudicate_movement(&s.map, &s.units, &o, &s.rules);
    assert!(r.backup_applied());
    assert!(movement_violations(&s, &o, &r).is_empty());
    // The outcomes say nothing of the Szykman rule.
    let mut quiet = r.clone();
    for out in &mut quiet.outcomes {
        out.backup = None;
    }
    let v = movement_violations(&s, &o, &quiet);
    assert!(
        reports(&v, Invariant::BackupReported, "no order's outcome names it"),
        "{}",
        report(&v)
    );
    assert!(
        reports(
            &v,
            Invariant::BackupReported,
            "the Szykman rule cancelled the convoy of French F English Channel"
        ),
        "{}",
        report(&v)
    );
    // A cycle handed to a backup rule, but nothing applied.
    let mut hidden = r.clone();
    hidden.cancelled_convoys.clear();
    hidden.forced_hold.clear();
    hidden.graph.forced.iter_mut().for_each(|f| *f = false);
    let v = movement_violations(&s, &o, &hidden);
    assert!(
        reports(
            &v,
            Invariant::BackupReported,
            "no backup rule is reported as applied"
        ),
        "{}",
        report(&v)
    );
    // A backup named where none was applied.
    let (s, o, mut r) = dislodge();
    r.outcomes[0].backup = Some(BackupRule::CircularMovement);
    let v = movement_violations(&s, &o, &r);
    assert!(
        reports(
            &v,
            Invariant::BackupReported,
            "Germany: A Pru - War names the circular movement rule though no backup rule was applied"
        ),
        "{}",
        report(&v)
    );
}

/// The retreat phase after [`DISLODGE`]: the Russian army may go to Livonia, Moscow or Ukraine
/// (now empty) — not Prussia (the attacker's origin), Galicia (a standoff), Silesia (occupied).
const RETREAT: &str = r#"Scenario(
    title: "retreat",
    phase: "Spring 1901 Retreat",
    units: {
        "Germany": ["A Warsaw", "A Silesia"],
        "Russia": ["A Ukraine"],
        "Austria": ["A Budapest"],
    },
    dislodged: {
        "Russia": [Dislodged(unit: "A Warsaw", from: "Prussia")],
    },
    contested: ["Galicia"],
    orders: {
        "Russia": ["A Warsaw - Livonia"],
    },
)"#;

#[test]
fn bad_retreats_are_caught() {
    let s = scenario(RETREAT);
    let o = orders(&s);
    let r = adjudicate_phase(&s, &o, &s.rules);
    let check = |r: &PhaseResult| {
        check_retreats(
            &s.map,
            &s.units,
            &s.dislodged,
            &s.contested,
            &o,
            &s.rules,
            r,
        )
    };
    assert!(check(&r).is_empty(), "{}", report(&check(&r)));
    assert!(check_phase(&s, &o, &s.rules, &r).is_empty());
    let lvn = unit(&s.map, "Russia", UnitKind::Army, "lvn");
    assert!(r.final_units.contains(&lvn));
    for (place, words) in [
        (
            "pru",
            "retreated to Prussia, which is not among its options (Livonia, Moscow)",
        ),
        (
            "gal",
            "retreated to Galicia, which is not among its options",
        ),
        ("mos", "no dislodged unit was ordered there with success"),
    ] {
        let mut bad = r.clone();
        bad.final_units.retain(|u| *u != lvn);
        bad.final_units
            .push(unit(&s.map, "Russia", UnitKind::Army, place));
        let mut o2 = o.clone();
        o2[0].1 =
            dipsandbox_core::model::orders::parse_order(&s.map, &format!("A Warsaw - {place}"))
                .unwrap();
        let v = if place == "mos" {
            check(&bad)
        } else {
            check_retreats(
                &s.map,
                &s.units,
                &s.dislodged,
                &s.contested,
                &o2,
                &s.rules,
                &bad,
            )
        };
        assert!(
            reports(&v, Invariant::Retreat, words),
            "{place}: {}",
            report(&v)
        );
    }
    // A unit that was not dislodged is gone.
    let mut bad = r.clone();
    bad.final_units.remove(0);
    let v = check(&bad);
    assert!(
        reports(
            &v,
            Invariant::Retreat,
            "German A Warsaw was not dislodged but is not there after the retreats"
        ),
        "{}",
        report(&v)
    );
    // A successful retreat that was not made.
    let mut bad = r.clone();
    bad.final_units.retain(|u| *u != lvn);
    let v = check(&bad);
    assert!(
        reports(
            &v,
            Invariant::Retreat,
            "Russia: A War - Lvn succeeds, but no Russian unit from Warsaw is in Livonia afterwards"
        ),
        "{}",
        report(&v)
    );
}

/// Germany has one unit and its three home centres: two builds due.
const BUILDS: &str = r#"Scenario(
    title: "builds",
    phase: "Winter 1901 Adjustment",
    units: {
        "Germany": ["A Berlin"],
        "France": ["A Paris", "A Picardy", "A Burgundy", "A Gascony"],
    },
    orders: {
        "Germany": ["Build A Kiel"],
        "France": ["Remove A Picardy"],
    },
)"#;

#[test]
fn bad_adjustments_are_caught() {
    let s = scenario(BUILDS);
    let o = orders(&s);
    let owners = s.owners_or_home();
    let r = adjudicate_phase(&s, &o, &s.rules);
    let check = |r: &PhaseResult| check_adjustments(&s.map, &s.units, &owners, &o, &s.rules, r);
    assert!(check(&r).is_empty(), "{}", report(&check(&r)));
    // France had to remove one unit: Picardy by order.
    assert_eq!(r.final_units.len(), 5);
    for (power, place, words) in [
        (
            "Germany",
            "war",
            "German A Warsaw is built in Warsaw: not a home centre of Germany",
        ),
        ("Germany", "ber", "occupied"),
        ("France", "bre", "built though France is due no builds"),
    ] {
        let mut bad = r.clone();
        bad.final_units
            .push(unit(&s.map, power, UnitKind::Army, place));
        let v = check(&bad);
        assert!(
            reports(&v, Invariant::Adjustment, words),
            "{place}: {}",
            report(&v)
        );
    }
    // A home centre Germany does not own.
    let mut unowned = owners.clone();
    unowned[s.map.find_province("mun").unwrap().0 as usize] = None;
    unowned[s.map.find_province("hol").unwrap().0 as usize] = s.map.find_power("Germany");
    let mut bad = r.clone();
    bad.final_units
        .push(unit(&s.map, "Germany", UnitKind::Army, "mun"));
    let v = check_adjustments(&s.map, &s.units, &unowned, &o, &s.rules, &bad);
    assert!(
        reports(
            &v,
            Invariant::Adjustment,
            "a home centre Germany does not own"
        ),
        "{}",
        report(&v)
    );
    // A French unit kept that should have gone; a German unit removed.
    let mut bad = r.clone();
    bad.final_units
        .push(unit(&s.map, "France", UnitKind::Army, "pic"));
    bad.final_units
        .retain(|u| *u != unit(&s.map, "Germany", UnitKind::Army, "ber"));
    let v = check(&bad);
    assert!(
        reports(
            &v,
            Invariant::Adjustment,
            "France must remove 1 but 0 of its units are gone"
        ),
        "{}",
        report(&v)
    );
    assert!(
        reports(
            &v,
            Invariant::Adjustment,
            "German A Berlin is removed, but Germany is due 2"
        ),
        "{}",
        report(&v)
    );
}

#[test]
fn a_bad_turn_step_is_caught() {
    // Fall: Germany takes Warsaw; the next phase must give it the centre.
    let mut s = scenario(DISLODGE);
    s.phase = dipsandbox_core::model::board::Phase::parse("Fall 1901 Movement").unwrap();
    let adv = advance(&s, &s.rules).expect("advances");
    assert!(check_advance(&s, &s.rules, &adv).is_empty());
    // Dislodged: a retreat phase follows, centres unchanged until it is done.
    assert_eq!(adv.next.phase.to_string(), "Fall 1901 Retreat");
    let mut bad = adv.clone();
    let mut owners = bad.next.owners_or_home();
    owners[s.map.find_province("war").unwrap().0 as usize] = s.map.find_power("Germany");
    bad.next.owners = Some(owners);
    let v = check_advance(&s, &s.rules, &bad);
    assert!(
        reports(
            &v,
            Invariant::Turn,
            "Warsaw after Fall 1901 Movement: owned by Some(\"Germany\"), expected Some(\"Russia\")"
        ),
        "{}",
        report(&v)
    );
    let mut bad = adv.clone();
    bad.next.dislodged.clear();
    let v = check_advance(&s, &s.rules, &bad);
    assert!(
        reports(&v, Invariant::Turn, "does not carry the dislodged units"),
        "{}",
        report(&v)
    );
    // After the retreat, Germany owns Warsaw.
    let mut next = adv.next.clone();
    next.orders = scenario(RETREAT).orders;
    let adv2 = advance(&next, &next.rules).expect("advances");
    let v = check_advance(&next, &next.rules, &adv2);
    assert!(v.is_empty(), "{}", report(&v));
    let war = s.map.find_province("war").unwrap().0 as usize;
    assert_eq!(adv2.next.owners_or_home()[war], s.map.find_power("Germany"));
}

#[test]
fn a_position_with_two_units_in_one_province_is_refused_as_input() {
    let (s, o, r) = dislodge();
    let mut units = s.units.clone();
    units.push(unit(&s.map, "France", UnitKind::Army, "war"));
    let v = check_movement(&s.map, &units, &o, &s.rules, &r);
    assert_eq!(v.len(), 1, "{}", report(&v));
    assert!(
        reports(
            &v,
            Invariant::Input,
            "two units in Warsaw: Russian A Warsaw and French A Warsaw"
        ),
        "{}",
        report(&v)
    );
}
