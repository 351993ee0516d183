//! Test scenarios assert everything: a result for every order, the dislodged units and the final
//! positions — for the phase and for the retreats that follow it.

use std::path::Path;

use dipsandbox_core::model::scenario::Scenario;

#[test]
fn every_test_scenario_asserts_everything() {
    let mut missing = Vec::new();
    let mut stack = vec![Path::new("scenarios").to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "ron") {
                continue;
            }
            let s = Scenario::load(&p).expect("loads");
            let e = s.expect.as_ref().expect("expectations");
            if e.results.len() != s.orders.len() {
                missing.push(format!(
                    "{}: {} orders, {} results",
                    p.display(),
                    s.orders.len(),
                    e.results.len()
                ));
            }
            if e.positions.is_none() {
                missing.push(format!("{}: no positions", p.display()));
            }
            if e.dislodged.is_none()
                && s.phase.kind == dipsandbox_core::model::board::PhaseKind::Movement
            {
                missing.push(format!("{}: no dislodged list", p.display()));
            }
            if let Some(r) = &s.retreats {
                let re = r.expect.as_ref().expect("retreat expectations");
                if re.results.len() != r.orders.len() {
                    missing.push(format!(
                        "{}: retreats: {} orders, {} results",
                        p.display(),
                        r.orders.len(),
                        re.results.len()
                    ));
                }
                if re.positions.is_none() {
                    missing.push(format!("{}: retreats: no positions", p.display()));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
