//! The search: regions, then `ddmin` over units and orders, then holds, round after round,
//! within the bounds.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): item indices come from
// ranges over the very lists they index (units and orders of the scenario being cut, and subsets
// of those ranges).
#![allow(clippy::indexing_slicing)]

use std::sync::Arc;
use std::time::Instant;

use crate::engine::Engine;

use crate::model::scenario::Scenario;
use crate::tools::check::{freeze_expectations, run};

use super::ddmin::{Start, ddmin_ids};
use super::error::MinimizeError;
use super::holds::rules_name;
use super::judge::{Cand, Judge};
use super::property::Property;
use super::regions::regions;
use super::types::{
    Bounds, Goal, Minimized, Observer, Pass, Progress, Size, Stage, Step, StopReason, Stopped,
};

/// Minimizes a scenario for a goal: removes units and orders, and makes orders holds, while
/// every property of the goal holds (see the module documentation). `progress` hears of each
/// accepted reduction. A property that does not hold on the input is an error, as is one that
/// needs a movement phase on another phase. [`minimize_with`] takes bounds and a fuller
/// observer.
pub fn minimize(
    s: &Scenario,
    goal: &Goal,
    progress: &mut dyn FnMut(&Step),
) -> Result<Minimized, MinimizeError> {
    minimize_with(s, goal, &Bounds::default(), &mut |step: &Step| {
        progress(step)
    })
}

/// The search's side of an [`Observer`]: the pass under way and the best size so far.
struct Watch<'o> {
    observer: &'o mut dyn Observer,
    stage: Stage,
    round: usize,
    best: Size,
}

impl Watch<'_> {
    fn progress(&mut self, runs: usize) {
        self.observer.progress(&Progress {
            stage: self.stage,
            round: self.round,
            best: self.best,
            runs,
        });
    }

    fn begin(&mut self, stage: Stage, round: usize, runs: usize) {
        self.stage = stage;
        self.round = round;
        self.progress(runs);
    }

    /// Adjudicates a candidate of a ddmin pass: None once a bound is reached; a candidate that
    /// passes is an accepted reduction.
    fn test(&mut self, j: &mut Judge, c: &Cand, pass: Pass) -> Option<bool> {
        let ok = j.try_judge(c)?;
        if ok {
            let after = j.size(c);
            self.observer.step(&Step {
                pass,
                before: self.best,
                after,
            });
            self.best = after;
        }
        self.progress(j.runs);
        Some(ok)
    }
}

/// [`minimize`] within bounds (a number of adjudications, a time, a stop flag), telling an
/// [`Observer`] of each step and of its progress. When a bound is reached the search stops and
/// the smallest candidate found so far is the result, with [`Minimized::stopped`] set: it keeps
/// every property, but it may not be 1-minimal.
///
/// The search begins with a pass over whole [`regions`] (ddmin over the regions, a region going
/// with all its units and orders), which brings a large board where one place matters down to
/// that place in a few dozen adjudications of shrinking size; then ddmin over the units, over
/// the orders, and holds, in rounds.
pub fn minimize_with(
    s: &Scenario,
    goal: &Goal,
    bounds: &Bounds,
    observer: &mut dyn Observer,
) -> Result<Minimized, MinimizeError> {
    minimize_on(s, goal, None, bounds, observer)
}

/// [`minimize_with`], with candidates judged by `engine` (None: the decision engine) — an
/// outside adjudicator, say, to find the smallest position where it misses an expectation
/// (`--keep mismatch`). A candidate the engine gives no result for does not keep the
/// properties. The minimized scenario's expectations are frozen with the decision engine, so
/// that checking it with `engine` shows the mismatch kept.
pub fn minimize_on(
    s: &Scenario,
    goal: &Goal,
    engine: Option<Arc<dyn Engine>>,
    bounds: &Bounds,
    observer: &mut dyn Observer,
) -> Result<Minimized, MinimizeError> {
    let mut j = Judge::new(s, goal, engine)?;
    j.bounds = bounds.clone();
    j.started = Instant::now();
    let mut cand = j.full();
    let before = j.size(&cand);
    // The input must show every property; words only to say why not.
    j.record_backup = true;
    let holds = j.judge(&cand, None);
    j.record_backup = false;
    let mut why = Vec::new();
    if !holds && !j.judge(&cand, Some(&mut why)) {
        let (p, (_, line)) = goal
            .keep
            .iter()
            .zip(&why)
            .find(|(_, (ok, _))| !ok)
            .ok_or_else(|| MinimizeError::Run("the input could not be adjudicated".into()))?;
        return Err(MinimizeError::DoesNotHold {
            spec: p.spec(),
            why: line.clone(),
        });
    }
    let mut w = Watch {
        observer,
        stage: Stage::Regions,
        round: 0,
        best: before,
    };
    // Whole regions.
    let regions = regions(s);
    w.begin(Stage::Regions, 0, j.runs);
    let mut present: Vec<usize> = cand.units.iter().map(|&u| regions.unit[u]).collect();
    present.extend(cand.orders.iter().map(|&o| regions.order[o]));
    present.sort_unstable();
    present.dedup();
    // First the regions where the properties were seen, alone: on a large board where one
    // place matters, one adjudication of that place.
    if let Some(hint) = j.hint_regions(&regions)
        && hint.len() < present.len()
    {
        let c = j.with_regions(&cand, &regions, &hint);
        if w.test(&mut j, &c, Pass::Regions) == Some(true) {
            cand = c;
            present = hint;
        }
    }
    if present.len() > 1 {
        let base = cand.clone();
        let kept = ddmin_ids(
            present.len(),
            Start::Halves,
            |ids| {
                let keep: Vec<usize> = ids.iter().map(|&i| present[i]).collect();
                let c = j.with_regions(&base, &regions, &keep);
                w.test(&mut j, &c, Pass::Regions)
            },
            |_, _| {},
        );
        let keep: Vec<usize> = kept.iter().map(|&i| present[i]).collect();
        cand = j.with_regions(&base, &regions, &keep);
    }
    let (seen_units, seen_orders) = j.witnesses();
    let start = |ids: &[usize], seen: &[bool]| {
        if !ids.is_empty() && ids.iter().all(|&i| seen.get(i) == Some(&true)) {
            Start::Singles
        } else {
            Start::Halves
        }
    };
    let mut round = 0;
    while !j.stopping() {
        round += 1;
        let mut changed = false;
        // Units, each with its orders.
        w.begin(Stage::Units, round, j.runs);
        let base = cand.clone();
        let kept = ddmin_ids(
            base.units.len(),
            start(&base.units, &seen_units),
            |ids| {
                let keep: Vec<usize> = ids.iter().map(|&i| base.units[i]).collect();
                let c = j.with_units(&base, &keep);
                w.test(&mut j, &c, Pass::Units)
            },
            |_, _| {},
        );
        if kept.len() < base.units.len() {
            let keep: Vec<usize> = kept.iter().map(|&i| base.units[i]).collect();
            cand = j.with_units(&base, &keep);
            changed = true;
        }
        if j.stopping() {
            break;
        }
        // Orders.
        w.begin(Stage::Orders, round, j.runs);
        let base = cand.clone();
        let kept = ddmin_ids(
            base.orders.len(),
            start(&base.orders, &seen_orders),
            |ids| {
                let c = Cand {
                    orders: ids.iter().map(|&i| base.orders[i]).collect(),
                    ..base.clone()
                };
                w.test(&mut j, &c, Pass::Orders)
            },
            |_, _| {},
        );
        if kept.len() < base.orders.len() {
            cand.orders = kept.iter().map(|&i| base.orders[i]).collect();
            changed = true;
        }
        if j.stopping() {
            break;
        }
        // Each remaining order as a hold.
        w.begin(Stage::Holds, round, j.runs);
        for &i in &cand.orders.clone() {
            let Some(to) = j
                .hold
                .get(i)
                .and_then(|h| h.as_ref())
                .map(|h| h.text.clone())
            else {
                continue;
            };
            if cand.held[i] {
                continue;
            }
            let mut c = cand.clone();
            c.held[i] = true;
            let pass = Pass::Hold {
                from: s.orders[i].text.clone(),
                to,
            };
            match w.test(&mut j, &c, pass) {
                None => break,
                Some(true) => {
                    cand = c;
                    changed = true;
                }
                Some(false) => {}
            }
        }
        if !changed {
            break;
        }
    }
    let stopped = j.stopped.map(|reason| Stopped {
        reason,
        stage: w.stage,
        round: w.round,
    });
    let after = j.size(&cand);
    let runs = j.runs;
    let mut why = Vec::new();
    j.judge(&cand, Some(&mut why));
    let witness: Vec<String> = why.into_iter().map(|(_, line)| line).collect();
    let mut out = j.build(&cand).scenario;
    out.title = format!("{} (minimized)", s.title);
    out.description = description(goal, before, &witness, stopped);
    let r = run(&out, None, false).map_err(|e| MinimizeError::Run(e.to_string()))?;
    freeze_expectations(&mut out, &r);
    Ok(Minimized {
        scenario: out,
        before,
        after,
        runs,
        witness,
        regions: regions.count,
        stopped,
    })
}

/// The minimized scenario's description: what it was minimized from, keeping which
/// properties (against which rules), what shows them, and whether the search stopped early.
fn description(goal: &Goal, before: Size, witness: &[String], stopped: Option<Stopped>) -> String {
    let specs: Vec<String> = goal.keep.iter().map(Property::spec).collect();
    let count = |n: usize, what: &str| match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    };
    let mut description = format!(
        "Minimized by dipsandbox minimize from {} and {}, keeping {}",
        count(before.units, "unit"),
        count(before.orders, "order"),
        specs.join(" and ")
    );
    if let (Some(o), true) = (goal.other, goal.keep.contains(&Property::Differs)) {
        description.push_str(&format!(" (against {})", rules_name(&o)));
    }
    description.push_str(&format!(": {}.", witness.join("; ")));
    if let Some(st) = stopped {
        description.push_str(&format!(
            " The search was stopped early ({}), in the {} pass: a smaller scenario may keep the same properties.",
            stop_words(st.reason),
            st.stage.name()
        ));
    }
    description
}

/// Why a search stopped, in a few words: `interrupted`, `after 100 runs`, `after
/// 2.5 s`.
pub fn stop_words(r: StopReason) -> String {
    match r {
        StopReason::Interrupted => "interrupted".into(),
        StopReason::MaxRuns(1) => "after 1 run".into(),
        StopReason::MaxRuns(n) => format!("after {n} runs"),
        StopReason::MaxTime(t) => format!("after {} s", t.as_secs_f64()),
    }
}
