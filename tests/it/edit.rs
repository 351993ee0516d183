//! Editing scenarios: checked edits, and undo / redo that give back exactly what was there.

use dipsandbox_core::model::board::{Phase, Unit};
use dipsandbox_core::model::map::{Map, PowerId, ProvinceId, UnitKind};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::edit::{Edit, Editor};
use proptest::prelude::*;

fn empty() -> Scenario {
    Scenario::from_ron(
        "Scenario(title: \"empty\", phase: \"Spring 1901 Movement\")",
        "empty.ron",
    )
    .expect("loads")
}

fn unit(map: &Map, power: u8, kind: UnitKind, at: &str) -> Unit {
    let p = map
        .find_province(at.split('/').next().unwrap_or(at))
        .expect("province");
    let prov = map.province(p);
    let loc = match at.split_once('/') {
        Some((_, c)) => prov
            .coasts
            .iter()
            .find(|(k, _)| k.abbr() == c)
            .map(|(_, l)| *l)
            .expect("coast"),
        None => prov.main,
    };
    Unit {
        power: PowerId(power),
        kind,
        loc,
    }
}

#[test]
fn units_go_only_where_they_can_stand() {
    let mut e = Editor::new(empty());
    let map = e.scenario().map.clone();
    let refused = [
        (
            unit(&map, 0, UnitKind::Army, "nth"),
            "an army cannot stand in North Sea",
        ),
        (
            unit(&map, 0, UnitKind::Fleet, "mun"),
            "a fleet cannot stand in Munich",
        ),
        (
            unit(&map, 0, UnitKind::Fleet, "spa"),
            "a fleet in Spain needs a coast: nc or sc",
        ),
        (
            unit(&map, 0, UnitKind::Army, "spa/nc"),
            "an army in Spain stands in no coast",
        ),
    ];
    for (u, why) in refused {
        let err = e.apply(Edit::PlaceUnit(u)).expect_err(why);
        assert!(err.0.contains(why), "{err}");
    }
    assert!(!e.is_dirty(), "refused edits change nothing");
    e.apply(Edit::PlaceUnit(unit(&map, 2, UnitKind::Fleet, "spa/nc")))
        .expect("a coast given");
    e.apply(Edit::PlaceUnit(unit(&map, 2, UnitKind::Army, "spa")))
        .expect("replaces the fleet");
    assert_eq!(e.scenario().units.len(), 1);
    assert_eq!(e.scenario().units[0].kind, UnitKind::Army);
    let err = e
        .apply(Edit::RemoveUnit(map.find_province("par").expect("par")))
        .expect_err("no unit");
    assert!(err.0.contains("no unit in Paris"), "{err}");
}

#[test]
fn orders_are_parsed_with_located_errors_and_owners_only_on_centres() {
    let mut e = Editor::new(empty());
    let map = e.scenario().map.clone();
    let err = e
        .apply(Edit::AddOrder(PowerId(2), "A Parsi - Bur".into()))
        .expect_err("bad name");
    assert!(
        err.0.starts_with("column 3:") && err.0.contains("Paris"),
        "{err}"
    );
    // An order for a unit that is not there is fine: illegal orders are worth testing.
    e.apply(Edit::AddOrder(PowerId(2), "A Par - Bur".into()))
        .expect("parses");
    assert_eq!(e.scenario().orders.len(), 1);
    let err = e
        .apply(Edit::Owner(
            map.find_province("bur").expect("bur"),
            Some(PowerId(2)),
        ))
        .expect_err("not a centre");
    assert!(err.0.contains("not a supply centre"), "{err}");
    e.apply(Edit::Owner(
        map.find_province("bel").expect("bel"),
        Some(PowerId(2)),
    ))
    .expect("centre");
}

fn map_arc(map: &Map) -> std::sync::Arc<Map> {
    std::sync::Arc::new(map.clone())
}

/// A random edit, drawn from raw choices interpreted against `map`. A whole new scenario is
/// on `map` (its opening or an empty board), or now and then the standard opening: another
/// map than the one edited.
fn edit_from(map: &Map, raw: (u8, u16, u16, u8)) -> Edit {
    let (kind, a, b, c) = raw;
    let n = map.province_count() as u16;
    let other = ProvinceId(u32::from(b % n));
    let p = ProvinceId(u32::from(a % n));
    let prov = map.province(p);
    let loc = if prov.coasts.is_empty() {
        prov.main
    } else {
        prov.coasts[b as usize % prov.coasts.len()].1
    };
    let power = PowerId(c % map.powers.len() as u8);
    match kind % 14 {
        0 => Edit::Title(format!("title {a}")),
        1 => Edit::Description(format!("about {b}")),
        2 => Edit::PlaceUnit(Unit {
            power,
            kind: UnitKind::Army,
            loc: prov.main,
        }),
        3 => Edit::PlaceUnit(Unit {
            power,
            kind: UnitKind::Fleet,
            loc,
        }),
        4 => Edit::RemoveUnit(p),
        5 => Edit::Owner(p, (b % 2 == 0).then_some(power)),
        6 => Edit::AddOrder(
            power,
            format!("A {} - {}", prov.abbr, map.province(other).abbr),
        ),
        7 => Edit::RemoveOrder(b as usize % 4),
        8 => Edit::MoveUnit(other, loc),
        9 => Edit::Dislodge(p, (b % 3 != 0).then_some((other, b % 2 == 0))),
        10 => Edit::Contested(p, b % 2 == 0),
        11 => Edit::Replace(Box::new(match b % 5 {
            0 | 1 => Scenario::opening(map_arc(map), &map.name),
            2 | 3 => Scenario::empty(map_arc(map), &map.name),
            _ => Scenario::opening(Map::standard_arc(), "standard"),
        })),
        12 => Edit::Phase(
            Phase::parse(if b % 2 == 0 {
                "Fall 1901 Retreat"
            } else {
                "Winter 1901 Adjustment"
            })
            .expect("phase"),
        ),
        _ => Edit::Phase(
            Phase::parse(if b % 2 == 0 {
                "Fall 1902 Movement"
            } else {
                "Spring 1901 Movement"
            })
            .expect("phase"),
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any sequence of edits undone gives back the original, redone gives back the result, and
    /// the result saves and loads as itself (its text, its orders and their expectations).
    #[test]
    fn undo_all_gives_back_the_original(raws in proptest::collection::vec(any::<(u8, u16, u16, u8)>(), 0..40)) {
        let start = Scenario::load(std::path::Path::new("scenarios/datc/6.F.16.ron")).expect("loads");
        edits_keep_their_history_and_reload(start, raws)?;
    }
}

/// Applies random edits to `start`: undone, they give back `start`; redone, the result; the
/// result saves and loads as itself (its text, and not only the text: its orders in the order
/// the edits left them, an added order going where the file lists it, and their expectations).
fn edits_keep_their_history_and_reload(
    start: Scenario,
    raws: Vec<(u8, u16, u16, u8)>,
) -> Result<(), TestCaseError> {
    let original = start.to_ron();
    let map = start.map.clone();
    let mut e = Editor::new(start);
    let mut applied = 0;
    for raw in raws {
        if e.apply(edit_from(&map, raw)).is_ok() {
            applied += 1;
        }
    }
    let after = e.scenario().to_ron();
    let reloaded = Scenario::from_ron(&after, "after.ron");
    prop_assert!(
        reloaded.is_ok(),
        "{:?}\n{}",
        reloaded.err().map(|x| x.to_string()),
        after
    );
    let reloaded = reloaded.expect("loads");
    prop_assert_eq!(reloaded.to_ron(), after.clone());
    prop_assert_eq!(&reloaded.orders, &e.scenario().orders);
    prop_assert_eq!(
        reloaded.expect.as_ref().map(|x| &x.results),
        e.scenario().expect.as_ref().map(|x| &x.results)
    );
    for _ in 0..applied {
        prop_assert!(e.undo());
    }
    prop_assert!(!e.undo());
    prop_assert_eq!(e.scenario().to_ron(), original);
    for _ in 0..applied {
        prop_assert!(e.redo());
    }
    prop_assert_eq!(e.scenario().to_ron(), after);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    /// The same on every built-in map's opening (two-coast provinces, islands, neutral units,
    /// 34 powers, 170 provinces), with whole new scenarios on the standard map among the edits.
    #[test]
    fn edits_on_every_built_in_map_undo_redo_and_reload(
        which in any::<prop::sample::Index>(),
        raws in proptest::collection::vec(any::<(u8, u16, u16, u8)>(), 0..40),
    ) {
        let names: Vec<&str> = dipsandbox_core::model::map::built_in_names().collect();
        let name = names[which.index(names.len())];
        let map = std::sync::Arc::new(Map::load(name).expect("a built-in map loads"));
        edits_keep_their_history_and_reload(Scenario::opening(map, name), raws)?;
    }
}

/// Found by the edits on every map: after a new scenario on the standard map replaced one on
/// the world map, an edit naming a world province (an id past the standard map's 75) made the
/// editor panic. Every edit that names a province, a place or a power not on the scenario's map
/// is refused, and changes nothing.
#[test]
fn ids_from_another_map_are_refused() {
    let world = std::sync::Arc::new(Map::load("world").expect("world"));
    let far = ProvinceId(world.province_count() as u32 - 1);
    let far_loc = world.province(far).main;
    let mut e = Editor::new(Scenario::opening(Map::standard_arc(), "standard"));
    let before = e.scenario().to_ron();
    let army = |power: u8, loc| Unit {
        power: PowerId(power),
        kind: UnitKind::Army,
        loc,
    };
    let par = e.scenario().map.find_province("par").expect("par");
    let par_loc = e.scenario().map.province(par).main;
    for edit in [
        Edit::RemoveUnit(far),
        Edit::Contested(far, true),
        Edit::Owner(far, None),
        Edit::Owner(par, Some(PowerId(30))),
        Edit::PlaceUnit(army(0, far_loc)),
        Edit::PlaceUnit(army(30, par_loc)),
        Edit::MoveUnit(far, par_loc),
        Edit::MoveUnit(par, far_loc),
        Edit::Dislodge(far, None),
        Edit::Dislodge(par, Some((far, false))),
        Edit::Expectations(
            Some(dipsandbox_core::model::scenario::Expect {
                results: Vec::new(),
                dislodged: None,
                positions: Some(vec![army(0, far_loc)]),
            }),
            None,
        ),
    ] {
        let what = format!("{edit:?}");
        let refused = e.apply(edit).expect_err(&what);
        assert!(refused.0.contains("no such"), "{what}: {refused}");
        assert_eq!(e.scenario().to_ron(), before, "{what} changed the scenario");
    }
}
