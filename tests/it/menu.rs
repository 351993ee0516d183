//! The order menu: what it offers, and that everything it offers is a legal order.

use std::path::{Path, PathBuf};

use dipsandbox_core::engine::legality::{OrderStatus, prepare};
use dipsandbox_core::model::board::PhaseKind;
use dipsandbox_core::model::orders::{NameStyle, format_order, parse_order};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::menu::movement_orders;

fn menu_texts(s: &Scenario, at: &str) -> Vec<String> {
    let p = s.map.find_province(at).expect("province");
    let u = s
        .units
        .iter()
        .position(|x| s.map.province_of(x.loc) == p)
        .expect("a unit there");
    movement_orders(&s.map, &s.units, u)
        .iter()
        .map(|o| format_order(&s.map, o, NameStyle::Abbr))
        .collect()
}

fn inline(units: &str) -> Scenario {
    let text =
        format!("Scenario(title: \"menu\", phase: \"Spring 1901 Movement\", units: {{ {units} }})");
    Scenario::from_ron(&text, "inline.ron").expect("loads")
}

#[test]
fn the_1901_menus_offer_what_a_player_expects() {
    let s = inline(
        r#""France": ["A Paris", "A Marseilles", "F Brest"], "England": ["F London", "A Liverpool"], "Italy": ["F Naples"]"#,
    );
    let par = menu_texts(&s, "par");
    for want in [
        "A Par H",
        "A Par - Bur",
        "A Par - Pic",
        "A Par S A Mar - Bur",
        "A Par S F Bre",
    ] {
        assert!(par.iter().any(|t| t == want), "{want} not in {par:?}");
    }
    // A fleet that borders a two-coast province is offered each coast it reaches.
    let bre = menu_texts(&s, "bre");
    assert!(bre.iter().any(|t| t == "F Bre - Mao"), "{bre:?}");
    // No support into the supporter's own province, nor where it cannot go.
    assert!(!par.iter().any(|t| t.ends_with("- Par")), "{par:?}");
    assert!(!par.iter().any(|t| t.contains("S F Lon")), "{par:?}");
}

#[test]
fn convoys_and_moves_by_convoy_are_offered_where_a_chain_of_fleets_exists() {
    let s = inline(r#""England": ["A London", "F North Sea"]"#);
    let lon = menu_texts(&s, "lon");
    assert!(lon.iter().any(|t| t == "A Lon - Nwy"), "{lon:?}");
    // Adjacent by land and by convoy: offered with "via Convoy".
    assert!(
        lon.iter()
            .any(|t| t.starts_with("A Lon - Yor") && t.contains("via")),
        "{lon:?}"
    );
    let nth = menu_texts(&s, "nth");
    assert!(nth.iter().any(|t| t == "F Nth C A Lon - Nwy"), "{nth:?}");
    // It cannot both carry that move and support it (DATC 6.D.31), but may support a land move.
    assert!(!nth.iter().any(|t| t == "F Nth S A Lon - Nwy"), "{nth:?}");
    assert!(nth.iter().any(|t| t == "F Nth S A Lon - Yor"), "{nth:?}");
}

fn scenarios() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir("scenarios/datc")
        .expect("datc")
        .flatten()
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

// Everything on a menu reads back as the same order, and is legal in its position (a support or
// convoy that nobody matches is void, not illegal).
#[test]
fn every_menu_order_parses_back_and_is_legal_in_every_datc_position() {
    let rules = Rules::default();
    let mut offered = 0;
    for f in scenarios() {
        let s = Scenario::load(Path::new(&f)).expect("loads");
        if s.phase.kind != PhaseKind::Movement {
            continue;
        }
        for (u, unit) in s.units.iter().enumerate() {
            for o in movement_orders(&s.map, &s.units, u) {
                offered += 1;
                let text = format_order(&s.map, &o, NameStyle::Abbr);
                let back = parse_order(&s.map, &text).expect("the menu's text parses");
                assert_eq!(back, o, "{}: {text}", f.display());
                let p = prepare(&s.map, &s.units, &[(unit.power, o)], &rules);
                assert!(
                    matches!(p.status[0], OrderStatus::Applied(_)),
                    "{}: {text} is {:?}",
                    f.display(),
                    p.status[0]
                );
            }
        }
    }
    assert!(offered > 10_000, "{offered}");
}

#[test]
fn no_unit_no_menu() {
    let s = inline(r#""France": ["A Paris"]"#);
    assert!(movement_orders(&s.map, &s.units, 5).is_empty());
}

/// Every retreat the menu offers succeeds when it is the only order, and every place the unit
/// could legally retreat to is offered: checked on the retreat phase that follows each DATC
/// movement case that dislodges a unit, and on the bundled retreat phases.
#[test]
fn retreat_menus_offer_exactly_the_retreats_that_succeed() {
    use dipsandbox_core::engine::Verdict;
    use dipsandbox_core::model::orders::{Order, OrderKind};
    use dipsandbox_core::tools::menu::retreat_orders;
    use dipsandbox_core::tools::turn::{adjudicate_phase, advance};
    let mut phases = Vec::new();
    for f in scenarios()
        .into_iter()
        .chain([PathBuf::from("scenarios/year-1901/3-fall-1901-retreat.ron")])
    {
        let s = Scenario::load(&f).expect("loads");
        match s.phase.kind {
            PhaseKind::Movement => {
                let next = advance(&s, &s.rules).expect("advances").next;
                if next.phase.kind == PhaseKind::Retreat {
                    phases.push((f, next));
                }
            }
            PhaseKind::Retreat => phases.push((f, s)),
            PhaseKind::Adjustment => {}
        }
    }
    assert!(phases.len() >= 10, "{}", phases.len());
    let mut offered = 0;
    for (f, s) in &phases {
        for (d, dis) in s.dislodged.iter().enumerate() {
            let menu = retreat_orders(s, d);
            assert!(
                matches!(menu.last().map(|o| &o.kind), Some(OrderKind::Disband)),
                "{}: disband is always offered",
                f.display()
            );
            let power = dis.unit.power;
            for o in &menu {
                offered += 1;
                let text = format_order(&s.map, o, NameStyle::Abbr);
                let r = adjudicate_phase(s, &[(power, o.clone())], &s.rules);
                assert_eq!(
                    r.outcomes[0].verdict,
                    Verdict::Succeeds,
                    "{}: {text}",
                    f.display()
                );
            }
            // Nothing left out: a retreat to any other neighbour fails or is illegal.
            let here = s.map.province_of(dis.unit.loc);
            for q in s.map.province_ids() {
                let offered_q = menu
                    .iter()
                    .any(|o| matches!(&o.kind, OrderKind::Move { dest, .. } if dest.province == q));
                if offered_q || q == here || !s.map.can_reach(dis.unit.kind, dis.unit.loc, q) {
                    continue;
                }
                let text = format!(
                    "{} {} - {}",
                    dis.unit.kind.letter(),
                    s.map.loc_abbr(dis.unit.loc),
                    s.map.province(q).abbr
                );
                let Ok(o) = parse_order(&s.map, &text) else {
                    continue;
                };
                let o: Order = o;
                let r = adjudicate_phase(s, &[(power, o)], &s.rules);
                assert_ne!(
                    r.outcomes[0].verdict,
                    Verdict::Succeeds,
                    "{}: {text} left out",
                    f.display()
                );
            }
        }
    }
    assert!(offered > 20, "{offered}");
}

/// Every build, removal and waive the adjustment menu offers succeeds on its own, and a power
/// due nothing is offered nothing.
#[test]
fn adjustment_menus_offer_builds_removals_and_waive_that_succeed() {
    use dipsandbox_core::engine::Verdict;
    use dipsandbox_core::engine::adjust::adjustments_due;
    use dipsandbox_core::tools::menu::adjustment_orders;
    use dipsandbox_core::tools::turn::adjudicate_phase;
    let files: Vec<PathBuf> = scenarios()
        .into_iter()
        .chain([PathBuf::from(
            "scenarios/year-1901/4-winter-1901-adjustment.ron",
        )])
        .collect();
    let mut offered = 0;
    for f in files {
        let s = Scenario::load(&f).expect("loads");
        if s.phase.kind != PhaseKind::Adjustment {
            continue;
        }
        let due = adjustments_due(&s.map, &s.units, &s.owners_or_home());
        let menu = adjustment_orders(&s);
        for p in s.map.power_ids() {
            let mine = menu.iter().filter(|(w, _)| *w == p).count();
            assert_eq!(
                mine == 0,
                due[p.0 as usize] == 0,
                "{}: {}",
                f.display(),
                s.map.power(p).name
            );
        }
        for (p, o) in &menu {
            offered += 1;
            let text = format_order(&s.map, o, NameStyle::Abbr);
            let r = adjudicate_phase(&s, &[(*p, o.clone())], &s.rules);
            assert_eq!(
                r.outcomes[0].verdict,
                Verdict::Succeeds,
                "{}: {text}",
                f.display()
            );
        }
    }
    assert!(offered > 10, "{offered}");
}
