//! The turn cycle: `advance` walks the year-1901 example from Spring 1901 to Spring 1902, and
//! each generated phase equals the next file of the example (positions, dislodged units,
//! standoffs, centre owners, phase).

use std::path::Path;

use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::turn::{advance, winner};

fn load(name: &str) -> Scenario {
    Scenario::load(&Path::new("scenarios/year-1901").join(name)).expect("example loads")
}

fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut v = v.to_vec();
    v.sort();
    v
}

#[test]
fn advance_walks_the_year() {
    let files = [
        "1-spring-1901-movement.ron",
        "2-fall-1901-movement.ron",
        "3-fall-1901-retreat.ron",
        "4-winter-1901-adjustment.ron",
        "5-spring-1902-movement.ron",
    ];
    for pair in files.windows(2) {
        let here = load(pair[0]);
        let next = load(pair[1]);
        let adv = advance(&here, &Rules::default()).expect("advances");
        assert_eq!(adv.next.phase, next.phase, "{} → phase", pair[0]);
        assert_eq!(
            sorted(&adv.next.units),
            sorted(&next.units),
            "{} → units",
            pair[0]
        );
        let key =
            |d: &dipsandbox_core::model::board::Dislodged| (d.unit, d.attacker_from, d.by_convoy);
        let a: Vec<_> = adv.next.dislodged.iter().map(key).collect();
        let b: Vec<_> = next.dislodged.iter().map(key).collect();
        assert_eq!(sorted(&a), sorted(&b), "{} → dislodged", pair[0]);
        assert_eq!(
            adv.next.contested, next.contested,
            "{} → standoffs",
            pair[0]
        );
        assert_eq!(
            adv.next.owners_or_home(),
            next.owners_or_home(),
            "{} → owners",
            pair[0]
        );
        assert!(adv.winner.is_none());
    }
}

#[test]
fn centres_change_hands_only_after_fall() {
    // After Spring nothing changes hands even though Trieste is Italian-occupied.
    let spring = load("1-spring-1901-movement.ron");
    let adv = advance(&spring, &Rules::default()).expect("advances");
    assert_eq!(adv.next.owners_or_home(), spring.owners_or_home());
    // After the Fall retreat, Norway is English and Sweden Russian.
    let retreat = load("3-fall-1901-retreat.ron");
    let adv = advance(&retreat, &Rules::default()).expect("advances");
    let map = &*retreat.map;
    let owners = adv.next.owners_or_home();
    let owner_of = |name: &str| owners[map.find_province(name).expect("province").0 as usize];
    assert_eq!(owner_of("Norway"), map.find_power("England"));
    assert_eq!(owner_of("Sweden"), map.find_power("Russia"));
    assert_eq!(owner_of("Trieste"), map.find_power("Austria"));
}

#[test]
fn eighteen_centres_win() {
    let s = load("1-spring-1901-movement.ron");
    let map = &*s.map;
    let france = map.find_power("France").expect("France");
    let mut owners = vec![None; map.provinces.len()];
    let mut given = 0;
    for (i, o) in owners.iter_mut().enumerate() {
        if map.provinces[i].supply_center && given < 18 {
            *o = Some(france);
            given += 1;
        }
    }
    assert_eq!(winner(map, &owners), Some(france));
    owners[map
        .provinces
        .iter()
        .position(|p| p.supply_center)
        .expect("a centre")] = None;
    assert_eq!(winner(map, &owners), None);
}

// What happens without an order is reported too: civil disorder and unordered dislodged units.
#[test]
fn phase_notes_explain_orderless_events() {
    let s = Scenario::load(Path::new("scenarios/datc/6.J.7.ron")).expect("loads");
    let r = dipsandbox_core::tools::check::run(&s, None, false).expect("runs");
    assert_eq!(
        r.phase().notes,
        ["Russia: civil disorder removes F North Sea (2 from the nearest owned centre)"]
    );
    let s = Scenario::load(Path::new("scenarios/datc/6.H.15.ron")).expect("loads");
    let r = dipsandbox_core::tools::check::run(&s, None, false).expect("runs");
    assert_eq!(
        r.retreats.expect("retreat phase").notes,
        ["England: F Portugal has no valid retreat order and is disbanded"]
    );
}

// The legal retreats of each dislodged unit: not the attacker's origin, not a standoff province
// (both coasts of Spain in 6.H.16), not an occupied one; coasts matter (6.H.15).
#[test]
fn retreat_options_follow_the_rules() {
    use dipsandbox_core::engine::retreat::retreat_options;
    let options = |file: &str| {
        let s = Scenario::load(Path::new(file)).expect("loads");
        let r = dipsandbox_core::tools::check::run(&s, None, false).expect("runs");
        let map = &*s.map;
        let mut occupied = vec![false; map.province_count()];
        for u in &r.phase().final_units {
            occupied[map.province_of(u.loc).0 as usize] = true;
        }
        r.phase()
            .dislodged
            .iter()
            .map(|d| {
                let mut v: Vec<String> =
                    retreat_options(map, d, &occupied, &r.phase().contested, &s.rules)
                        .iter()
                        .map(|l| map.loc_name(*l))
                        .collect();
                v.sort();
                (d.unit.describe(map), v)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        options("scenarios/datc/6.H.16.ron"),
        [(
            "F Western Mediterranean".to_string(),
            vec!["Gulf of Lyon".to_string(), "North Africa".to_string()]
        )]
    );
    assert_eq!(
        options("scenarios/datc/6.H.15.ron"),
        [("F Portugal".to_string(), Vec::<String>::new())]
    );
}
