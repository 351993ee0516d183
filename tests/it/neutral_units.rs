//! Neutral units (variant rules): garrisons of unowned supply centres that hold every
//! turn, may be supported by any power, cannot be ordered, are disbanded when dislodged, are
//! never built or removed and change no centre's owner. Map data (`neutral_units`), scenarios
//! (`"Neutral"` in `units`), every built-in engine, the menus, the turn cycle, the invariants,
//! outside engines (refused) and the TUI's orders panel.

use std::sync::Arc;

use dipsandbox_core::engine::{
    DecisionEngine, DpjudgeEngine, Engine, GuessEngine, PhaseInput, PhaseResult, Verdict,
};
use dipsandbox_core::model::board::Unit;
use dipsandbox_core::model::map::{Map, PowerId};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::{Scenario, fast_reader_agrees};
use dipsandbox_core::tools::invariants::{Invariant, check_adjustments, check_scenario, report};
use dipsandbox_core::tools::menu::{movement_orders, retreat_orders};
use dipsandbox_core::tools::turn::advance;
use dipsandbox_core::tools::versus::{Mix, position};

use crate::common::{app, dipsandbox, run, text};

fn garrisons() -> Arc<Map> {
    Arc::new(Map::load("maps/garrisons.ron").expect("garrisons loads"))
}

/// A scenario on the garrisons map.
fn on_garrisons(phase: &str, units: &str, orders: &str) -> Scenario {
    let text = format!(
        "Scenario(title: \"t\", map: \"maps/garrisons.ron\", phase: \"{phase}\", units: {{ {units} }}, orders: {{ {orders} }})"
    );
    Scenario::from_ron(&text, "t.ron").unwrap_or_else(|e| panic!("{e}"))
}

fn map_error(extra: &str, power_name: &str) -> String {
    let text = std::fs::read_to_string("maps/test7.ron").expect("test7");
    let text = text
        .replace("name: \"North\"", &format!("name: \"{power_name}\""))
        .replace("    provinces: [", &format!("{extra}\n    provinces: ["));
    match Map::from_ron(&text, "m.ron") {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_garrisons_map_opens_with_a_neutral_unit_in_every_unowned_centre() {
    let map = garrisons();
    assert_eq!(map.neutral_units.len(), 12);
    let s = Scenario::opening(map.clone(), "garrisons");
    let neutral: Vec<String> = s
        .units
        .iter()
        .filter(|u| u.power.is_neutral())
        .map(|u| u.describe(&map))
        .collect();
    assert_eq!(neutral.len(), 12);
    assert!(neutral.contains(&"A Serbia".to_string()), "{neutral:?}");
    assert!(neutral.contains(&"F Norway".to_string()), "{neutral:?}");
    // Every neutral unit stands on a supply centre nobody owns.
    let owners = s.owners_or_home();
    for u in s.units.iter().filter(|u| u.power.is_neutral()) {
        let p = map.province_of(u.loc);
        assert!(map.province(p).supply_center);
        assert_eq!(owners[p.0 as usize], None, "{}", u.describe(&map));
    }
    assert!(
        map.own_rules()
            .iter()
            .any(|r| r.contains("12 neutral units"))
    );
    let (code, out, _) = dipsandbox(&["maps"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("garrisons") && out.contains("12 neutral units"),
        "{out}"
    );
}

#[test]
fn a_scenario_with_neutral_units_saves_and_loads_the_same_by_both_readers() {
    let s = Scenario::opening(garrisons(), "maps/garrisons.ron");
    let text = s.to_ron();
    assert!(text.contains("\"Neutral\": [\"A Belgium\""), "{text}");
    assert_eq!(fast_reader_agrees(&text), Ok(true));
    let back = Scenario::from_ron(&text, "s.ron").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.units, s.units);
    assert_eq!(back.to_ron(), text);
    // Dislodged neutral units too (a retreat phase).
    let d = on_garrisons(
        "Spring 1901 Movement",
        "\"Austria\": [\"A bud\", \"A tri\"], \"Neutral\": [\"A ser\"]",
        "\"Austria\": [\"A bud - ser\", \"A tri S A bud - ser\"]",
    );
    let adv = advance(&d, &Rules::default()).expect("advances");
    let next = adv.next;
    assert_eq!(next.dislodged.len(), 1);
    assert!(next.dislodged[0].unit.power.is_neutral());
    let text = next.to_ron();
    assert!(text.contains("\"Neutral\": [\n"), "{text}");
    assert_eq!(fast_reader_agrees(&text), Ok(true));
    let back = Scenario::from_ron(&text, "r.ron").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.dislodged, next.dislodged);
    // Orders written for neutral units (illegal, kept as written) and expected positions.
    let held = Scenario::load(std::path::Path::new(
        "scenarios/variants/garrisons-neutral-held-by-support.ron",
    ))
    .expect("loads");
    let text = held.to_ron();
    assert!(
        text.contains("\"Neutral\": [\n            \"A Serbia - Bulgaria\""),
        "{text}"
    );
    assert_eq!(fast_reader_agrees(&text), Ok(true));
    let back = Scenario::from_ron(&text, "h.ron").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.to_ron(), text);
    assert_eq!(back.orders.len(), 4);
    assert!(back.orders[3].power.is_neutral());
}

#[test]
fn map_files_with_bad_neutral_units_are_located_errors() {
    assert_eq!(map_error("    neutral_units: [\"A dun\"],", "North"), "");
    let e = map_error("    neutral_units: [\"A gry\"],", "North");
    assert!(
        e.starts_with("m.ron:") && e.contains("neutral unit \"A gry\": an army cannot stand in"),
        "{e}"
    );
    let e = map_error("    neutral_units: [\"A bor\"],", "North");
    assert!(e.contains("another starting unit is already in"), "{e}");
    let e = map_error("    neutral_units: [\"Q dun\"],", "North");
    assert!(e.contains("expected a unit like"), "{e}");
    // A power may be called Neutral (the Python package's known_world_901 has one): then
    // `Neutral` names it, and the map can have no neutral units.
    assert_eq!(map_error("", "Neutral"), "");
    let e = map_error("    neutral_units: [\"A dun\"],", "Neutral");
    assert!(
        e.starts_with("m.ron:") && e.contains("a power of this map is called \"Neutral\""),
        "{e}"
    );
}

/// The three hand-checked scenarios pass in every built-in engine.
#[test]
fn the_hand_checked_scenarios_pass_in_every_engine() {
    for file in [
        "scenarios/variants/garrisons-neutral-held-by-support.ron",
        "scenarios/variants/garrisons-neutral-dislodged-disbanded.ron",
        "scenarios/variants/garrisons-convoy-past-a-neutral-fleet.ron",
    ] {
        for engine in ["decisions", "dpjudge", "guess"] {
            let (code, out, err) = dipsandbox(&["check", "--engine", engine, file]);
            assert_eq!(code, 0, "{file} {engine}: {out}{err}");
            assert!(out.starts_with("ok "), "{out}");
        }
    }
}

#[test]
fn a_neutral_unit_holds_with_any_powers_support_in_every_engine() {
    let s = on_garrisons(
        "Spring 1901 Movement",
        "\"Austria\": [\"A bud\", \"A tri\"], \"Turkey\": [\"A alb\"], \"Italy\": [\"A ven\"], \"Neutral\": [\"A ser\"]",
        "\"Austria\": [\"A bud - ser\", \"A tri S A bud - ser\"], \"Turkey\": [\"A alb S A ser\"], \"Neutral\": [\"A ser - bul\"]",
    );
    let rules = Rules::default();
    let input = PhaseInput::of(&s, &rules);
    let engines: [&dyn Engine; 3] = [&DecisionEngine, &DpjudgeEngine, &GuessEngine::default()];
    for e in engines {
        let r = e.verdicts(&input).expect("adjudicates");
        let v: Vec<Verdict> = r.outcomes.iter().map(|o| o.verdict).collect();
        assert_eq!(
            v,
            [
                Verdict::Fails,
                Verdict::Succeeds,
                Verdict::Succeeds,
                Verdict::Illegal
            ],
            "{}",
            e.name()
        );
        assert!(r.dislodged.is_empty());
        assert!(
            r.final_units.contains(&s.units[4]),
            "the neutral army stays"
        );
    }
}

#[test]
fn menus_offer_no_orders_for_neutral_units_but_supports_of_them() {
    let s = on_garrisons(
        "Spring 1901 Movement",
        "\"Turkey\": [\"A alb\"], \"Neutral\": [\"A ser\", \"F nth\"], \"England\": [\"A edi\", \"F eng\", \"A lon\"]",
        "",
    );
    let map = &*s.map;
    let at = |name: &str| {
        s.units
            .iter()
            .position(|u| u.describe(map) == name)
            .unwrap_or_else(|| panic!("{name}"))
    };
    assert!(movement_orders(map, &s.units, at("A Serbia")).is_empty());
    assert!(movement_orders(map, &s.units, at("F North Sea")).is_empty());
    let texts = |u: usize| -> Vec<String> {
        movement_orders(map, &s.units, u)
            .iter()
            .map(|o| {
                dipsandbox_core::model::orders::format_order(
                    map,
                    o,
                    dipsandbox_core::model::orders::NameStyle::Abbr,
                )
            })
            .collect()
    };
    let alb = texts(at("A Albania"));
    assert!(alb.contains(&"A Alb S A Ser".to_string()), "{alb:?}");
    // No support of a move by the neutral army: it never moves.
    assert!(!alb.iter().any(|t| t.contains("Ser -")), "{alb:?}");
    // No convoy through the neutral fleet: Edinburgh is offered no move to Holland or
    // Belgium, London still reaches Picardy and Brest by the English Channel.
    let edi = texts(at("A Edinburgh"));
    assert!(!edi.iter().any(|t| t.contains("- Hol")), "{edi:?}");
    let lon = texts(at("A London"));
    assert!(lon.iter().any(|t| t.contains("- Pic")), "{lon:?}");
}

#[test]
fn a_dislodged_neutral_unit_has_no_retreat_and_is_disbanded() {
    let s = on_garrisons(
        "Spring 1901 Movement",
        "\"Austria\": [\"A bud\", \"A tri\"], \"Neutral\": [\"A ser\"]",
        "\"Austria\": [\"A bud - ser\", \"A tri S A bud - ser\"]",
    );
    let rules = Rules::default();
    let retreat = advance(&s, &rules).expect("advances").next;
    assert_eq!(retreat.dislodged.len(), 1);
    assert!(retreat_orders(&retreat, 0).is_empty());
    // With no order, and with one written for it: disbanded either way.
    for orders in ["", "\"Neutral\": [\"A ser - bul\"]"] {
        let text = retreat
            .to_ron()
            .replace("orders: {}", &format!("orders: {{ {orders} }}"));
        let r = Scenario::from_ron(&text, "r.ron").unwrap_or_else(|e| panic!("{e}"));
        let adv = advance(&r, &rules).expect("advances");
        assert!(!adv.result.final_units.iter().any(|u| u.power.is_neutral()));
        if !orders.is_empty() {
            assert_eq!(adv.result.outcomes[0].verdict, Verdict::Illegal);
            assert!(adv.result.outcomes[0].reason.contains("neutral"));
        }
    }
}

#[test]
fn neutral_units_count_for_nobody_and_change_no_owner() {
    let rules = Rules::default();
    // Fall: Austria takes Serbia from its garrison and owns it; the neutral army on Bulgaria,
    // a centre Turkey owned, leaves it Turkish.
    let s = on_garrisons(
        "Fall 1901 Movement",
        "\"Austria\": [\"A bud\", \"A tri\", \"A vie\"], \"Turkey\": [\"A con\", \"F ank\", \"A smy\"], \"Neutral\": [\"A ser\", \"A bul\", \"A gre\"]",
        "\"Austria\": [\"A bud - ser\", \"A tri S A bud - ser\"]",
    );
    let text = s.to_ron().replace(
        "orders:",
        "owners: { \"Austria\": [\"bud\", \"tri\", \"vie\"], \"Turkey\": [\"con\", \"ank\", \"smy\", \"bul\"] }, orders:",
    );
    let s = Scenario::from_ron(&text, "f.ron").unwrap_or_else(|e| panic!("{e}"));
    let mut next = advance(&s, &rules).expect("advances").next;
    if next.phase.kind == dipsandbox_core::model::board::PhaseKind::Retreat {
        next = advance(&next, &rules).expect("advances").next;
    }
    let map = &*next.map;
    let owner = |abbr: &str| {
        let p = map
            .province_ids()
            .find(|&p| map.province(p).abbr == abbr)
            .expect(abbr);
        next.owners_or_home()[p.0 as usize].map(|w| map.power(w).name.clone())
    };
    assert_eq!(owner("ser").as_deref(), Some("Austria"));
    assert_eq!(owner("bul").as_deref(), Some("Turkey"));
    assert_eq!(owner("gre"), None);
    // Winter: Austria (4 centres, 3 units) builds one, Turkey (4 centres, 3 units) builds
    // one; the two remaining neutral units count for nobody, and an order for one is illegal.
    assert_eq!(
        next.phase.kind,
        dipsandbox_core::model::board::PhaseKind::Adjustment
    );
    let due =
        dipsandbox_core::engine::adjust::adjustments_due(map, &next.units, &next.owners_or_home());
    assert_eq!(&due[..], &[1, 0, 0, 0, 0, 0, 1]);
    let text = next
        .to_ron()
        .replace("orders: {}", "orders: { \"Neutral\": [\"Build A ser\"] }");
    let w = Scenario::from_ron(&text, "w.ron").unwrap_or_else(|e| panic!("{e}"));
    let adv = advance(&w, &rules).expect("advances");
    assert_eq!(adv.result.outcomes[0].verdict, Verdict::Illegal);
    assert!(
        adv.result.outcomes[0]
            .reason
            .contains("neutral units are never built")
    );
    let neutral_after = adv
        .next
        .units
        .iter()
        .filter(|u| u.power.is_neutral())
        .count();
    assert_eq!(neutral_after, 2, "never rebuilt, never removed");
}

#[test]
fn the_invariants_catch_a_neutral_unit_removed_or_built() {
    let map = garrisons();
    let s = Scenario::opening(map.clone(), "garrisons");
    let owners = s.owners_or_home();
    let none: &[dipsandbox_core::model::scenario::OrderEntry] = &[];
    let mut after: Vec<Unit> = s.units.clone();
    after.retain(|u| !(u.power.is_neutral() && map.loc_name(u.loc) == "Serbia"));
    let removed = PhaseResult {
        final_units: after,
        ..Default::default()
    };
    let v = check_adjustments(&map, &s.units, &owners, none, &Rules::default(), &removed);
    assert!(
        v.iter().any(|x| x.invariant == Invariant::Neutral
            && x.message.contains("Neutral A Serbia is removed")),
        "{}",
        report(&v)
    );
    let mut units: Vec<Unit> = s.units.clone();
    units.retain(|u| !(u.power.is_neutral() && map.loc_name(u.loc) == "Serbia"));
    let built = PhaseResult {
        final_units: s.units.clone(),
        ..Default::default()
    };
    let v = check_adjustments(&map, &units, &owners, none, &Rules::default(), &built);
    assert!(
        v.iter()
            .any(|x| x.invariant == Invariant::Neutral && x.message.contains("is built")),
        "{}",
        report(&v)
    );
}

/// The random positions on the garrisons map have neutral units, some of them dislodged, and
/// keep every invariant.
#[test]
fn random_positions_with_neutral_units_keep_the_invariants() {
    let map = garrisons();
    let rules = Rules::default();
    let (mut neutral, mut dislodged) = (0, 0);
    for i in 0..80u64 {
        let s = position(&map, 31, i, Mix::ALL[(i as usize) % Mix::ALL.len()]);
        neutral += s
            .units
            .iter()
            .filter(|u| u.power == PowerId::NEUTRAL)
            .count();
        dislodged += s
            .dislodged
            .iter()
            .filter(|d| d.unit.power.is_neutral())
            .count();
        let v = check_scenario(&s, &rules, i);
        assert!(v.is_empty(), "position {i}:\n{}", report(&v));
    }
    assert!(neutral > 20, "{neutral} neutral units");
    assert!(dislodged > 0, "no neutral unit dislodged");
}

#[test]
fn outside_engines_refuse_positions_with_neutral_units() {
    let (code, out, err) = dipsandbox(&[
        "check",
        "--engine",
        "cmd:/bin/false",
        "scenarios/variants/garrisons-neutral-held-by-support.ron",
    ]);
    assert_ne!(code, 0);
    let all = format!("{out}{err}");
    assert!(
        all.contains("the position has neutral units, which protocol 1 cannot send"),
        "{all}"
    );
}

#[test]
fn the_orders_panel_lists_neutral_units_as_holding() {
    let mut a = app(
        Some("scenarios/variants/garrisons-neutral-dislodged-disbanded.ron"),
        "neutral-panel",
    );
    let screen = text(&run(&mut a, 120, 40, ""));
    assert!(screen.contains("Neu A Ser H  (neutral: holds)"), "{screen}");
}

/// Placing a unit in the editor offers a neutral one on a map with neutral units (last, after
/// the powers), and none on the standard map.
#[test]
fn the_place_menu_offers_neutral_units_on_maps_that_have_them() {
    use dipsandbox::tui::menu::place_menu;
    use dipsandbox_core::model::map::UnitKind;
    let g = Scenario::empty(garrisons(), "garrisons");
    let gal = g
        .map
        .province_ids()
        .find(|&p| g.map.province(p).abbr == "gal")
        .expect("gal");
    let labels: Vec<String> = place_menu(&g, gal, UnitKind::Army)
        .items
        .iter()
        .map(|i| i.label.clone())
        .collect();
    assert_eq!(
        labels.last().map(String::as_str),
        Some("Neutral A Gal"),
        "{labels:?}"
    );
    let std = Scenario::empty(Map::standard_arc(), "standard");
    let labels: Vec<String> = place_menu(&std, gal, UnitKind::Army)
        .items
        .iter()
        .map(|i| i.label.clone())
        .collect();
    assert!(
        !labels.iter().any(|l| l.starts_with("Neutral")),
        "{labels:?}"
    );
}

/// A scenario on the standard map may hold neutral units too (a test position); the jDip
/// export, whose format has no neutral units, skips it with the reason instead of dropping them.
#[test]
fn the_jdip_export_refuses_neutral_units() {
    let dir = crate::common::temp_dir("neutral-jdip");
    let file = dir.join("n.ron");
    std::fs::write(
        &file,
        "Scenario(title: \"t\", phase: \"Spring 1901 Movement\", units: { \"Austria\": [\"A Budapest\"], \"Neutral\": [\"A Serbia\"] }, orders: { \"Austria\": [\"A Budapest - Serbia\"] })",
    )
    .expect("writes");
    let f = file.display().to_string();
    let (code, _, _) = dipsandbox(&["check", &f]);
    assert_eq!(code, 0);
    let (code, out, err) = dipsandbox(&["export", "--format", "jdip", &f]);
    assert_eq!(code, 1);
    assert!(!out.contains("CASE"), "{out}");
    assert!(
        err.contains("skipped: it has neutral units, which a jDip test file has no way to write"),
        "{err}"
    );
}
