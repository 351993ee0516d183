//! An engine's declared departures ([`Departure`]) held to the DATC cases they name: each case
//! must depart from its expectations in effect under the departure's rules, and the
//! departure's change must account for it — the engine meets the case under its own change
//! ([`KnownBy::OwnChange`]), or the reference engine (the decision model) gives the engine's
//! effect under the other ([`KnownBy::OthersChange`]). `engine-check` runs it on an outside
//! engine's file; the tests run it on every built-in engine's list.

use crate::engine::departure::{Departure, KnownBy, apply_changes};
use crate::engine::seam::{Engine, PhaseInput};
use crate::model::scenario::Scenario;

use super::check::{Wording, verify_with};
use super::versus::compare::compare;
use super::versus::datc_cases::CASES;

/// One departure checked on its cases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepartureCheck {
    /// The departure's title ([`Departure::title`]).
    pub title: String,
    /// How many of its cases were checked.
    pub cases: usize,
    /// What did not hold, one line per case (empty: the departure holds on every case).
    pub problems: Vec<String>,
}

impl DepartureCheck {
    /// Whether it holds on every case.
    pub fn holds(&self) -> bool {
        self.problems.is_empty()
    }
}

/// The compiled-in DATC case `name` (`6.E.6`, `6.G.8-Fallback`), read.
fn datc_case(name: &str) -> Option<Scenario> {
    CASES
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(n, text)| Scenario::from_ron(text, n).ok())
}

/// Whether `name` is a DATC case of `scenarios/datc`.
pub fn is_datc_case(name: &str) -> bool {
    CASES.iter().any(|(n, _)| *n == name)
}

/// Checks `engine`'s departures `list` on their DATC cases, with `reference` as the engine that
/// follows the DATC (the decision engine): one entry per departure, in order. A case departs
/// when the engine misses any of its expectations, words included (6.F.16's departure is a
/// convoy order's verdict); `w` says how the change's account of it is compared:
/// [`Wording::Strict`] word for word (the built-in engines' tests), [`Wording::Effect`] in
/// effect only (`engine-check`: an outside engine's words for orders that do not act are its
/// own) — but a case the engine departs from in words only is then compared word for word,
/// since in effect any change would account for it.
pub fn check_departures(
    engine: &dyn Engine,
    reference: &dyn Engine,
    list: &[Departure],
    w: Wording,
) -> Vec<DepartureCheck> {
    list.iter()
        .map(|d| DepartureCheck {
            title: d.title(),
            cases: d.cases.len(),
            problems: d
                .cases
                .iter()
                .filter_map(|c| problem(engine, reference, d, c, w))
                .collect(),
        })
        .collect()
}

/// What does not hold of `d` on case `name`, if anything.
fn problem(
    engine: &dyn Engine,
    reference: &dyn Engine,
    d: &Departure,
    name: &str,
    w: Wording,
) -> Option<String> {
    let Some(s) = datc_case(name) else {
        return Some(format!("{name}: no such DATC case (scenarios/datc)"));
    };
    let rules = match apply_changes(&s.rules, &d.under) {
        Ok(r) => r,
        Err(m) => return Some(format!("{name}: under: {m}")),
    };
    // A departure shows as any mismatch, words included (6.F.16's is a convoy order's word);
    // what accounts for it is compared as `w` says.
    let misses = |rules, w| verify_with(&s, Some(rules), engine, w);
    match misses(rules, Wording::Strict) {
        Err(e) => return Some(format!("{name}: {} gives no result: {e}", engine.name())),
        Ok((bad, _)) if bad.is_empty() => {
            return Some(format!(
                "{name}: {} meets the case's expectations: no departure here",
                engine.name()
            ));
        }
        Ok(_) => {}
    }
    // A departure in words only is accounted for word for word: in effect, any change would.
    let w = match w {
        Wording::Effect if misses(rules, Wording::Effect).is_ok_and(|(bad, _)| bad.is_empty()) => {
            Wording::Strict
        }
        w => w,
    };
    match &d.known_by {
        KnownBy::Unrecognised => None,
        KnownBy::OwnChange(c) => {
            let changed = match apply_changes(&rules, c) {
                Ok(r) => r,
                Err(m) => return Some(format!("{name}: {m}")),
            };
            match misses(changed, w) {
                Ok((bad, _)) if bad.is_empty() => None,
                Ok((bad, _)) => Some(format!(
                    "{name}: under {c}, {} still misses: {}",
                    engine.name(),
                    bad.join("; ")
                )),
                Err(e) => Some(format!("{name}: under {c}, {e}")),
            }
        }
        KnownBy::OthersChange(c) | KnownBy::Follows(c) => {
            let changed = match apply_changes(&rules, c) {
                Ok(r) => r,
                Err(m) => return Some(format!("{name}: {m}")),
            };
            let theirs = engine.verdicts(&PhaseInput::of(&s, &rules));
            let ours = reference.verdicts(&PhaseInput::of(&s, &changed));
            match (theirs, ours) {
                (Ok(t), Ok(o)) => {
                    let cmp = compare(&s, &o, &t);
                    let (rn, en) = (reference.name(), engine.name());
                    if !cmp.way.is_empty() {
                        Some(format!(
                            "{name}: {rn} under {c} still differs: {}",
                            cmp.way.words(rn, en)
                        ))
                    } else if w == Wording::Strict && !cmp.wording.is_empty() {
                        Some(format!(
                            "{name}: {rn} under {c} still differs in words: {}",
                            cmp.wording.words(rn, en)
                        ))
                    } else {
                        None
                    }
                }
                (Err(e), _) | (_, Err(e)) => Some(format!("{name}: {e}")),
            }
        }
    }
}
