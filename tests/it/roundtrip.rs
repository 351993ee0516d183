//! Saving and loading scenarios: what is saved loads back the same, the layout is stable, and
//! every scenario shipped in scenarios/ survives a round trip.

use std::path::{Path, PathBuf};

use dipsandbox_core::model::board::{Dislodged, Phase, PhaseKind, Season, Unit};
use dipsandbox_core::model::rules::{Paradox, Rules, SupportCoast};
use dipsandbox_core::model::scenario::{Expect, Expected, Scenario};

/// A fresh directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!(
            "dipsandbox-test-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn load(path: &Path) -> Scenario {
    Scenario::load(path).unwrap_or_else(|e| panic!("{} should load: {e}", path.display()))
}

fn sorted(units: &[Unit]) -> Vec<Unit> {
    let mut v = units.to_vec();
    v.sort();
    v
}

fn sorted_dislodged(ds: &[Dislodged]) -> Vec<Dislodged> {
    let mut v = ds.to_vec();
    v.sort_by_key(|d| (d.unit, d.attacker_from, d.by_convoy));
    v
}

/// Expectations with unit lists in a canonical order (the order units are listed in is not
/// meaningful; the order of results is).
fn canonical(e: &Option<Expect>) -> Option<Expect> {
    e.as_ref().map(|e| Expect {
        results: e.results.clone(),
        dislodged: e.dislodged.as_deref().map(sorted),
        positions: e.positions.as_deref().map(sorted),
    })
}

/// Asserts that two scenarios say the same thing. With `exact`, unit lists must also be in the
/// same order.
fn assert_same(a: &Scenario, b: &Scenario, exact: bool, what: &str) {
    assert_eq!(a.title, b.title, "{what}: title");
    assert_eq!(a.description, b.description, "{what}: description");
    assert_eq!(a.source, b.source, "{what}: source");
    assert_eq!(a.map.name, b.map.name, "{what}: map");
    assert_eq!(a.phase, b.phase, "{what}: phase");
    assert_eq!(a.rules, b.rules, "{what}: rules");
    assert_eq!(sorted(&a.units), sorted(&b.units), "{what}: units");
    assert_eq!(
        sorted_dislodged(&a.dislodged),
        sorted_dislodged(&b.dislodged),
        "{what}: dislodged"
    );
    assert_eq!(a.contested, b.contested, "{what}: contested");
    assert_eq!(a.owners, b.owners, "{what}: owners");
    assert_eq!(a.orders, b.orders, "{what}: orders (text and parse)");
    assert_eq!(canonical(&a.expect), canonical(&b.expect), "{what}: expect");
    match (&a.retreats, &b.retreats) {
        (None, None) => {}
        (Some(x), Some(y)) => {
            assert_eq!(x.orders, y.orders, "{what}: retreat orders");
            assert_eq!(
                canonical(&x.expect),
                canonical(&y.expect),
                "{what}: retreat expect"
            );
        }
        _ => panic!("{what}: retreats present in one and not the other"),
    }
    if exact {
        assert_eq!(a.units, b.units, "{what}: units in order");
        assert_eq!(a.dislodged, b.dislodged, "{what}: dislodged in order");
        assert_eq!(a.expect, b.expect, "{what}: expect in order");
        assert_eq!(a.retreats, b.retreats, "{what}: retreats in order");
    }
}

// A user checks that the hand-written scenario loads as written: rule overrides, units with
// coasts, owners, order texts exactly as typed, results matched to orders, retreats.
#[test]
fn hand_written_scenario_loads_as_written() {
    let s = load(Path::new("tests/data/hand.ron"));
    let map = &*s.map;
    assert_eq!(s.title, "Hand-written: convoy into Belgium");
    assert!(
        s.description
            .contains("Quotes \"inside\" and a dash – survive")
    );
    assert_eq!(
        s.phase,
        Phase {
            season: Season::Fall,
            year: 1902,
            kind: PhaseKind::Movement,
        }
    );
    assert_eq!(
        s.rules,
        Rules {
            paradox: Paradox::Rule1982,
            support_coast: SupportCoast::Required,
            adjacent_convoy_fallback: dipsandbox_core::model::rules::ConvoyFallback::Yes,
            ..Rules::default()
        }
    );
    let units: Vec<String> = s.units.iter().map(|u| u.describe_owned(map)).collect();
    assert_eq!(
        units,
        [
            "English F North Sea",
            "English A Yorkshire",
            "English F English Channel",
            "English F Norway",
            "French A Belgium",
            "French A Burgundy",
            "French F Spain(sc)",
            "Russian F St Petersburg(nc)",
        ]
    );
    let owners = s.owners.as_ref().expect("owners were given");
    let owner = |name: &str| owners[map.find_province(name).unwrap().0 as usize];
    assert_eq!(owner("Belgium"), map.find_power("France"));
    assert_eq!(owner("Norway"), map.find_power("England"));
    // Not listed: unowned, even a home centre.
    assert_eq!(owner("Holland"), None);
    assert_eq!(owner("Berlin"), None);
    let texts: Vec<&str> = s.orders.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "F North Sea Convoys A Yorkshire - Belgium",
            "a yor -> bel",
            "F Eng S A Yor - Bel",
            "England: F Nwy H",
            "A Belgium Hold",
            "A Burgundy - Ruhr",
            "F spa/sc - wes",
            "F StP(nc) - Barents Sea",
        ]
    );
    // Each result key found its order, in order, whatever notation either was written in.
    let e = s.expect.as_ref().unwrap();
    let idx: Vec<usize> = e.results.iter().map(|(i, _, _)| *i).collect();
    assert_eq!(idx, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(e.results[4].2, Expected::Fails);
    assert_eq!(e.results[5].1, "France: A Burgundy - Ruhr");
    assert_eq!(e.dislodged.as_ref().unwrap().len(), 1);
    assert_eq!(e.positions.as_ref().unwrap().len(), 7);
    let r = s.retreats.as_ref().expect("retreats");
    assert_eq!(r.orders.len(), 1);
    assert_eq!(r.orders[0].text, "A Belgium - Picardy");
    assert_eq!(
        r.expect.as_ref().unwrap().positions.as_ref().unwrap().len(),
        8
    );
}

/// Saves `path`'s scenario to a temp dir, loads it back, and checks everything is kept and the
/// layout is stable. With `exact`, unit lists keep their order too (true when the file lists
/// powers in map order; saving lists them in map order).
fn save_load_save(path: &str, tag: &str, exact: bool) {
    let dir = TempDir::new(tag);
    let original = load(Path::new(path));

    let first = dir.join("first.ron");
    original.save(&first).expect("save");
    let reloaded = load(&first);
    assert_same(&original, &reloaded, exact, path);

    // Saving twice gives byte-identical files, and saving the reloaded scenario gives the same
    // bytes again: the layout is stable.
    let second = dir.join("second.ron");
    original.save(&second).expect("save again");
    let third = dir.join("third.ron");
    reloaded.save(&third).expect("save reloaded");
    let bytes = std::fs::read(&first).unwrap();
    assert_eq!(
        bytes,
        std::fs::read(&second).unwrap(),
        "{path}: saved twice"
    );
    assert_eq!(
        bytes,
        std::fs::read(&third).unwrap(),
        "{path}: saved after reload"
    );
    assert_eq!(
        String::from_utf8(bytes).unwrap(),
        original.to_ron(),
        "{path}: save writes to_ron()"
    );
    // The atomic save leaves no temporary file behind.
    assert_eq!(dir.files(), ["first.ron", "second.ron", "third.ron"]);
    // Overwriting an existing file works too.
    reloaded.save(&first).expect("overwrite");
    assert_eq!(dir.files(), ["first.ron", "second.ron", "third.ron"]);
}

// A user saves the hand-written movement scenario and loads it again: title, phase, rules,
// units, orders (text and parse), owners, expectations and retreats are all kept, and saving is
// byte-stable.
#[test]
fn hand_written_scenario_round_trips_through_a_file() {
    save_load_save("tests/data/hand.ron", "hand", true);
}

// The same for a hand-written retreat-phase scenario with dislodged units and contested
// provinces, whose units list Germany before France (saving lists powers in map order).
#[test]
fn hand_written_retreat_scenario_round_trips_through_a_file() {
    save_load_save("tests/data/hand_retreat.ron", "retreat", false);
    let s = load(Path::new("tests/data/hand_retreat.ron"));
    assert_eq!(s.dislodged.len(), 3);
    assert!(s.dislodged[2].by_convoy);
    assert_eq!(s.contested.len(), 2);
    assert_eq!(s.owners, None);
    assert_eq!(s.phase.kind, PhaseKind::Retreat);
}

// A user reads a saved file: order texts are kept exactly as typed, not normalised.
#[test]
fn saved_file_keeps_order_text_as_written() {
    let s = load(Path::new("tests/data/hand.ron"));
    let text = s.to_ron();
    for t in [
        "\"a yor -> bel\"",
        "\"F Eng S A Yor - Bel\"",
        "\"England: F Nwy H\"",
        "\"F StP(nc) - Barents Sea\"",
        "(\"France: A Burgundy - Ruhr\", Succeeds)",
    ] {
        assert!(text.contains(t), "{t} missing from:\n{text}");
    }
    assert!(
        text.contains(
            "rules: (paradox: Rule1982, adjacent_convoy_fallback: true, support_coast: Required),"
        ),
        "{text}"
    );
}

// A user saving into a folder that does not exist is told which file could not be written.
#[test]
fn save_into_missing_folder_fails_cleanly() {
    let dir = TempDir::new("missing");
    let s = load(Path::new("tests/data/hand.ron"));
    let target = dir.join("no/such/folder/x.ron");
    let e = s.save(&target).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!("{}: cannot write: ", target.display())),
        "{e}"
    );
}

fn ron_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            ron_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "ron") {
            out.push(path);
        }
    }
}

// Every scenario shipped in scenarios/ loads, and its saved form loads back with the same units,
// orders and expectations; saving that again gives the same text.
#[test]
fn every_shipped_scenario_round_trips() {
    let mut files = Vec::new();
    ron_files(Path::new("scenarios"), &mut files);
    files.sort();
    assert!(files.len() > 200, "found only {} scenarios", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let name = path.display().to_string();
        let result = std::panic::catch_unwind(|| {
            let s = load(path);
            let text = s.to_ron();
            let back = Scenario::from_ron(&text, &name)
                .unwrap_or_else(|e| panic!("saved form does not load: {e}\n{text}"));
            assert_same(&s, &back, false, &name);
            assert_eq!(back.to_ron(), text, "{name}: second save differs");
        });
        if let Err(p) = result {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("{name}: {msg}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

// A user keeps a custom map next to a scenario that names it by file name: the scenario loads,
// with the map's own powers and provinces.
#[test]
fn scenario_on_a_custom_map_loads() {
    let s = load(Path::new("tests/data/tiny_scenario.ron"));
    assert_eq!(s.map.name, "tiny");
    assert_eq!(s.map.summary().provinces, 4);
    let units: Vec<String> = s.units.iter().map(|u| u.describe_owned(&s.map)).collect();
    assert_eq!(units, ["Reddish A Alpha", "Bluish F Charlie"]);
    assert_eq!(s.expect.as_ref().unwrap().results.len(), 2);
}

// The user saves that scenario under a new name in the same folder (next to the map) and loads
// the saved file: it must still find its map.
#[test]
fn scenario_on_a_custom_map_round_trips_through_a_file() {
    let original = load(Path::new("tests/data/tiny_scenario.ron"));
    let copy = PathBuf::from(format!("tests/data/.saved-tiny-{}.ron", std::process::id()));
    original.save(&copy).expect("save");
    let reloaded = Scenario::load(&copy);
    let _ = std::fs::remove_file(&copy);
    let reloaded = reloaded.unwrap_or_else(|e| panic!("saved copy should load: {e}"));
    assert_same(&original, &reloaded, true, "tiny_scenario.ron");
}
