//! The order menu: what it offers, and that everything it offers is a legal order.

use std::path::{Path, PathBuf};

use dipsandbox::adjudicator::legality::{OrderStatus, prepare};
use dipsandbox::board::PhaseKind;
use dipsandbox::menu::movement_orders;
use dipsandbox::orders::{NameStyle, format_order, parse_order};
use dipsandbox::rules::Rules;
use dipsandbox::scenario::Scenario;

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
