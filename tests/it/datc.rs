//! Every scenario under `scenarios/` is adjudicated and compared with all of its expectations:
//! each order's result, each dislodgement, the final positions (and the retreats that follow).
//! Every result is also checked against the invariants of [`dipsandbox_core::tools::invariants`], and
//! re-adjudicated with units and orders listed in another order and traced.

use crate::common;

use common::ron_files;

use std::path::Path;

use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::{compare, run};
use dipsandbox_core::tools::invariants::{check_phase_stable, check_run};

fn check_dir(dir: &str) -> usize {
    let mut files = Vec::new();
    ron_files(Path::new(dir), &mut files);
    let mut failures = Vec::new();
    for (k, f) in files.iter().enumerate() {
        let s = match Scenario::load(f) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{e}"));
                continue;
            }
        };
        assert!(
            s.expect.is_some(),
            "{}: a test scenario must state its expectations",
            f.display()
        );
        let r = run(&s, None, false).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        // Every result satisfies the invariants, and does not depend on listing order or tracing.
        let seed = k as u64;
        let violations: Vec<_> = check_run(&s, &r)
            .into_iter()
            .chain(check_phase_stable(&s, &s.orders, &r.rules, seed))
            .collect();
        for v in violations {
            failures.push(format!("{}: {v}", f.display()));
        }
        let (bad, checks) = compare(&s, &r);
        assert!(checks > 0, "{}: no checks", f.display());
        for b in bad {
            failures.push(format!("{}: {b}", f.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    files.len()
}

/// All DATC v3.0 cases 6.A–6.J (and their rule variants) pass.
#[test]
fn datc_cases_pass() {
    let n = check_dir("scenarios/datc");
    assert!(n >= 164, "only {n} DATC files");
}

/// Every one of the 164 DATC v3.0 case ids has a scenario file.
#[test]
fn every_datc_case_is_present() {
    let text = std::fs::read_to_string("../shared/reference/datc-v3.0.txt").ok();
    let counts: &[(char, usize)] = &[
        ('A', 12),
        ('B', 15),
        ('C', 9),
        ('D', 34),
        ('E', 15),
        ('F', 25),
        ('G', 20),
        ('H', 16),
        ('I', 7),
        ('J', 11),
    ];
    assert_eq!(counts.iter().map(|c| c.1).sum::<usize>(), 164);
    for (section, n) in counts {
        for i in 1..=*n {
            let path = format!("scenarios/datc/6.{section}.{i}.ron");
            assert!(Path::new(&path).is_file(), "missing {path}");
        }
    }
    if let Some(t) = text {
        // The reference text agrees about the counts where it is available.
        for (section, n) in counts {
            assert!(
                t.contains(&format!("6.{section}.{n}")),
                "6.{section}.{n} not in the DATC text"
            );
            assert!(!t.contains(&format!("6.{section}.{}. TEST CASE", n + 1)));
        }
    }
}

/// The worked examples of DATC chapter 5 and Kruijswijk's "Math of Adjudication" figures pass.
#[test]
fn examples_pass() {
    check_dir("scenarios/examples");
}

/// The built-in scenario and the year 1901 example pass.
#[test]
fn showcase_and_year_pass() {
    check_dir("scenarios/year-1901");
    let s = Scenario::load(Path::new("scenarios/pandin.ron")).expect("built-in scenario");
    let r = run(&s, None, false).expect("runs");
    assert!(compare(&s, &r).0.is_empty());
    let v: Vec<_> = check_run(&s, &r)
        .into_iter()
        .chain(check_phase_stable(&s, &s.orders, &r.rules, 1))
        .collect();
    assert!(
        v.is_empty(),
        "{}",
        dipsandbox_core::tools::invariants::report(&v)
    );
}
