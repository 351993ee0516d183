//! The unit tests of the core's `tools::minimize`.

use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::minimize::hooks::{Dsu, ddmin_halves};
use dipsandbox_core::tools::minimize::*;
use std::time::Duration;

// Stopped after any number of tests, ddmin gives back a set that passes (here: one that
// holds both needles), no larger than the input and shrinking as it is let run longer.
#[test]
fn ddmin_stopped_early_returns_a_passing_set() {
    let needles = [1_234usize, 7_777];
    let mut last = usize::MAX;
    for budget in [0usize, 1, 3, 10, 30, 1_000] {
        let mut tests = 0;
        let got = ddmin_halves(
            10_000,
            |ids| {
                if tests == budget {
                    return None;
                }
                tests += 1;
                Some(needles.iter().all(|n| ids.binary_search(n).is_ok()))
            },
            |_, _| {},
        );
        assert!(needles.iter().all(|n| got.contains(n)), "budget {budget}");
        assert!(got.len() <= last, "budget {budget}");
        last = got.len();
    }
    assert_eq!(last, 2);
}

// Union-find on a chain of a million: no recursion, every node finds the same root.
#[test]
fn dsu_on_a_long_chain() {
    let n = 1_000_000;
    let mut d = Dsu::new(n);
    for i in 1..n {
        d.union(i - 1, i);
    }
    let root = d.find(0);
    assert!((0..n).step_by(9_973).all(|i| d.find(i) == root));
    // Out of range: no panic, no union.
    d.union(0, n + 5);
    assert_eq!(d.find(n + 5), n + 5);
}

#[test]
fn stop_words_say_why() {
    assert_eq!(stop_words(StopReason::Interrupted), "interrupted");
    assert_eq!(stop_words(StopReason::MaxRuns(1)), "after 1 run");
    assert_eq!(stop_words(StopReason::MaxRuns(40)), "after 40 runs");
    assert_eq!(
        stop_words(StopReason::MaxTime(Duration::from_millis(2500))),
        "after 2.5 s"
    );
}

// Pandin's paradox is one region: every order joins the English Channel or London.
#[test]
fn pandin_is_one_region() {
    let s = Scenario::builtin().expect("built-in");
    let r = regions(&s);
    assert_eq!(r.count, 1);
    assert_eq!(r.unit.len(), s.units.len());
    assert_eq!(r.order.len(), s.orders.len());
}
