//! Every shipped map: random positions of every kind (movement with convoys and
//! paradoxes, circular movement, head-to-head, retreats, adjustments) on each map in `maps/`,
//! through the decision, DPjudge and guess engines and the invariants; and each map's opening
//! plays Spring, Fall and Winter.

use std::sync::Arc;

use dipsandbox_core::engine::{DecisionEngine, DpjudgeEngine, Engine, GuessEngine, PhaseInput};
use dipsandbox_core::model::map::Map;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::invariants::{check_scenario, report};
use dipsandbox_core::tools::versus::{Mix, position};

/// The maps of `maps/`, by file.
fn shipped() -> Vec<(String, Arc<Map>)> {
    let mut files: Vec<_> = std::fs::read_dir("maps")
        .expect("maps/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let m = Map::load(&f.display().to_string()).unwrap_or_else(|e| panic!("{e}"));
            (f.display().to_string(), Arc::new(m))
        })
        .collect()
}

/// Slow tier: 60 positions a map; `random_positions_on_every_shipped_map_…_on_a_sample` runs
/// the first 20 of them.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn random_positions_on_every_shipped_map_keep_the_invariants_in_every_engine() {
    random_positions_on_every_shipped_map(60);
}

#[test]
fn random_positions_on_every_shipped_map_keep_the_invariants_in_every_engine_on_a_sample() {
    random_positions_on_every_shipped_map(20);
}

/// `count` positions a map (of every mix in turn), each with more than one unit on average.
fn random_positions_on_every_shipped_map(count: u64) {
    let maps = shipped();
    assert!(maps.len() >= 6, "{} maps", maps.len());
    let rules = Rules::default();
    for (file, map) in &maps {
        let mut units = 0;
        for i in 0..count {
            let mix = Mix::ALL[(i as usize) % Mix::ALL.len()];
            let s: Scenario = position(map, 27, i, mix);
            units += s.units.len();
            let v = check_scenario(&s, &rules, i);
            assert!(
                v.is_empty(),
                "{file} position {i} ({mix:?}):\n{}",
                report(&v)
            );
            let input = PhaseInput::of(&s, &rules);
            let d = DecisionEngine.verdicts(&input).expect("decisions");
            let g = GuessEngine::default().verdicts(&input).expect("guess");
            DpjudgeEngine.verdicts(&input).expect("dpjudge");
            // The guess engine resolves the same equations: the same results (the one known
            // departure is under the All Hold rule, not these rules).
            assert_eq!(
                (&d.final_units, &d.dislodged),
                (&g.final_units, &g.dislodged),
                "{file} position {i}"
            );
            let verdicts = |r: &dipsandbox_core::engine::PhaseResult| {
                r.outcomes.iter().map(|o| o.verdict).collect::<Vec<_>>()
            };
            assert_eq!(verdicts(&d), verdicts(&g), "{file} position {i}");
        }
        // Not a test of empty boards.
        assert!(
            units > count as usize,
            "{file}: {units} units in {count} positions"
        );
    }
}

#[test]
fn every_shipped_maps_opening_plays_a_year() {
    for (file, map) in shipped() {
        let mut s = Scenario::opening(map.clone(), "m");
        let rules = Rules::default();
        for _ in 0..3 {
            let adv = dipsandbox_core::tools::turn::advance(&s, &rules)
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            s = adv.next;
        }
        assert_eq!(
            s.phase.year,
            map.start_year + 1,
            "{file}: after Spring, Fall and Winter"
        );
    }
}

/// Modern Diplomacy builds in any owned centre (`build_sites: Owned`, the DPjudge's
/// `RULE BUILD_ANY`): Britain, owning Paris, builds there; on the standard map the same build
/// in a centre that is not a home centre is illegal.
#[test]
fn a_map_that_builds_in_any_owned_centre() {
    use dipsandbox_core::engine::Verdict;
    use dipsandbox_core::tools::check::run;
    let text = |map: &str, year: i32, paris: &str| {
        format!(
            "Scenario(title: \"t\", map: \"{map}\", phase: \"Winter {year} Adjustment\", units: {{\"{paris}\": [\"A Marseilles\"]}}, owners: {{\"{paris}\": [\"par\", \"mar\"]}}, orders: {{\"{paris}\": [\"Build A Paris\"]}})"
        )
    };
    let modern = Scenario::from_ron(&text("modern", 1994, "Britain"), "m.ron").expect("loads");
    assert_eq!(
        modern.map.build_sites,
        dipsandbox_core::model::map::BuildSites::Owned
    );
    let r = run(&modern, None, false).expect("runs");
    assert_eq!(
        r.phase().outcomes[0].verdict,
        Verdict::Succeeds,
        "{:?}",
        r.phase().outcomes
    );
    let standard = Scenario::from_ron(&text("standard", 1901, "England"), "s.ron").expect("loads");
    let r = run(&standard, None, false).expect("runs");
    assert_eq!(r.phase().outcomes[0].verdict, Verdict::Illegal);
    assert!(
        r.phase().outcomes[0]
            .reason
            .contains("not a home supply centre"),
        "{}",
        r.phase().outcomes[0].reason
    );
}
