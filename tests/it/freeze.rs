//! Making a result the expectations: every scenario frozen under its own rules meets them, keeps
//! meeting them after a save and a load, and a rule switch that changes an outcome is reported.

use std::path::{Path, PathBuf};

use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::{compare, freeze_expectations, run};

fn all_scenarios() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::from("scenarios")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ron") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_scenario_frozen_meets_its_expectations_before_and_after_saving() {
    let files = all_scenarios();
    assert!(files.len() > 200);
    for f in files {
        let mut s = Scenario::load(&f).expect("loads");
        let r = run(&s, None, false).expect("runs");
        freeze_expectations(&mut s, &r);
        let (bad, n) = compare(&s, &r);
        assert!(bad.is_empty(), "{}: {bad:?}", f.display());
        // Every order's verdict, positions, and for movement the dislodged units.
        assert!(n > s.orders.len(), "{}", f.display());
        let text = s.to_ron();
        let back = Scenario::from_ron(&text, &f.display().to_string())
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let r2 = run(&back, None, false).expect("runs");
        let (bad, n2) = compare(&back, &r2);
        assert!(bad.is_empty(), "{} after a save: {bad:?}", f.display());
        assert_eq!(n, n2, "{}", f.display());
    }
}

#[test]
fn a_rule_switch_that_changes_outcomes_is_reported() {
    let mut s = Scenario::load(Path::new("scenarios/datc/6.F.16.ron")).expect("loads");
    s.expect = None;
    let r = run(&s, None, false).expect("runs");
    freeze_expectations(&mut s, &r);
    let other = Rules::parse_spec("paradox=Rule1982").expect("rules");
    let r82 = run(&s, Some(other), false).expect("runs");
    let (bad, _) = compare(&s, &r82);
    assert!(
        bad.iter()
            .any(|b| b.contains("F English Channel Convoys A Brest - London")),
        "{bad:?}"
    );
}
