//! The input's mismatches with its expectations (the `mismatch` property): found once, then
//! looked for in each candidate.

use std::collections::HashSet;
use std::mem::discriminant;

use crate::engine::{Adjudicator, OrderOutcome};
use crate::model::board::Unit;
use crate::model::map::{LocId, PowerId, ProvinceId, UnitKind};
use crate::model::scenario::OrderEntry;
use crate::tools::check::Run;

use super::error::MinimizeError;
use super::holds::rules_name;
use super::judge::{Built, Judge, Seen};
use super::property::Property;

impl Judge<'_> {
    /// The input's mismatches, as [`Seen`] items.
    pub(super) fn mismatches(&self) -> Result<Vec<Seen>, MinimizeError> {
        let s = self.s;
        let map = &*s.map;
        let has_expect =
            s.expect.is_some() || s.retreats.as_ref().is_some_and(|f| f.expect.is_some());
        if !has_expect {
            return Err(MinimizeError::DoesNotHold {
                spec: Property::Mismatch.spec(),
                why: "the scenario has no expectations".into(),
            });
        }
        let mut seen = Vec::new();
        // A movement phase without follow-up retreats: typed outcomes, in words only where an
        // expectation is missed (a large board's reasons cost more than its adjudication).
        if self.fast {
            let mut adj = Adjudicator::new();
            adj.adjudicate(map, &s.units, &s.orders, &self.goal.rules);
            for (i, _, want) in s.expect.iter().flat_map(|e| &e.results) {
                let (Some(out), Some(entry)) = (adj.outcomes().get(*i), s.orders.get(*i)) else {
                    continue;
                };
                if !crate::tools::check::meets(*want, out.verdict) {
                    let reason = adj
                        .reason_text(map, &s.units, &s.orders, *i)
                        .unwrap_or_default();
                    seen.push(Seen::Order {
                        pool: *i,
                        verdict: out.verdict,
                        cause: discriminant(&out.reason),
                        line: format!(
                            "{}: expected {want:?}, got {:?} ({reason})",
                            entry.text, out.verdict
                        ),
                    });
                }
            }
            let ends: Vec<Option<Unit>> = adj.units().iter().map(|u| u.ends).collect();
            self.unit_mismatches(&ends, &mut seen);
            if !seen.is_empty() {
                return Ok(seen);
            }
        }
        let r = self
            .run(s, self.goal.rules, false)
            .map_err(|e| MinimizeError::Run(e.to_string()))?;
        if !self.fast {
            self.phase_mismatches(&r, &mut seen);
        }
        if seen.is_empty() {
            let (bad, _) = crate::tools::check::compare(s, &r);
            let why = if bad.is_empty() {
                format!(
                    "the result meets every expectation under {}",
                    rules_name(&self.goal.rules)
                )
            } else {
                format!(
                    "its only mismatches are positions no unit of the scenario can reach: {}",
                    bad.join("; ")
                )
            };
            return Err(MinimizeError::DoesNotHold {
                spec: Property::Mismatch.spec(),
                why,
            });
        }
        Ok(seen)
    }

    /// The mismatches of a run: its orders' (the phase's and the follow-up retreats'), and its
    /// units' fates.
    pub(super) fn phase_mismatches(&self, r: &Run, seen: &mut Vec<Seen>) {
        let s = self.s;
        let mut orders = |expect: &Option<crate::model::scenario::Expect>,
                          entries: &[OrderEntry],
                          outcomes: &[OrderOutcome],
                          base: usize,
                          prefix: &str| {
            let Some(e) = expect else { return };
            for (i, _, want) in &e.results {
                let (Some(out), Some(entry)) = (outcomes.get(*i), entries.get(*i)) else {
                    continue;
                };
                if !crate::tools::check::meets(*want, out.verdict) {
                    seen.push(Seen::Order {
                        pool: base + i,
                        verdict: out.verdict,
                        cause: discriminant(&out.cause),
                        line: format!(
                            "{prefix}{}: expected {want:?}, got {:?} ({})",
                            crate::base::text::cut(&entry.text),
                            out.verdict,
                            out.reason
                        ),
                    });
                }
            }
        };
        orders(&s.expect, &s.orders, &r.phase().outcomes, 0, "");
        if let (Some(f), Some(rr)) = (&s.retreats, &r.retreats) {
            orders(
                &f.expect,
                &f.orders,
                &rr.outcomes,
                self.phase_orders,
                "retreats: ",
            );
        }
        if let Some(m) = r.result.decisions() {
            let ends: Vec<Option<Unit>> = m.units.iter().map(|u| u.ends).collect();
            self.unit_mismatches(&ends, seen);
        }
    }

    /// The units whose fate (`ends`, per board unit: where it ends, None when dislodged) the
    /// expected dislodged units or positions of a movement phase do not say.
    pub(super) fn unit_mismatches(&self, ends: &[Option<Unit>], seen: &mut Vec<Seen>) {
        let s = self.s;
        let map = &*s.map;
        if let Some(e) = &s.expect {
            // Expected positions that some unit's actual end accounts for; sets, so that a
            // board of any size is compared in linear time.
            let ended: HashSet<Unit> = ends.iter().flatten().copied().collect();
            let positions: Option<HashSet<Unit>> =
                e.positions.as_ref().map(|p| p.iter().copied().collect());
            let dislodged: Option<HashSet<(UnitKind, LocId)>> = e
                .dislodged
                .as_ref()
                .map(|d| d.iter().map(|x| (x.kind, x.loc)).collect());
            // Unmatched expected positions, by (power, kind): the provinces they name.
            let mut unmatched: HashSet<(PowerId, UnitKind, ProvinceId)> = HashSet::new();
            for p in e.positions.iter().flatten() {
                if !ended.contains(p) {
                    unmatched.insert((p.power, p.kind, map.province_of(p.loc)));
                }
            }
            for (i, (unit, end)) in s.units.iter().zip(ends).enumerate() {
                let listed = dislodged
                    .as_ref()
                    .map(|d| d.contains(&(unit.kind, unit.loc)));
                let wrong = match end {
                    Some(at) => {
                        listed == Some(true) || positions.as_ref().is_some_and(|p| !p.contains(at))
                    }
                    None => {
                        listed == Some(false)
                            || (listed.is_none()
                                && self
                                    .reachable(i)
                                    .any(|p| unmatched.contains(&(unit.power, unit.kind, p))))
                    }
                };
                if wrong {
                    let fate = match end {
                        Some(at) if at.loc == unit.loc => "stays".to_string(),
                        Some(at) => format!("ends in {}", map.loc_name(at.loc)),
                        None => "is dislodged".to_string(),
                    };
                    seen.push(Seen::Unit {
                        pool: i,
                        ends: *end,
                        line: format!(
                            "{} {fate}, which the expected {} do not say",
                            unit.describe_owned(map),
                            if end.is_none() || listed == Some(true) {
                                "dislodged units or positions"
                            } else {
                                "positions"
                            }
                        ),
                    });
                }
            }
        }
    }

    pub(super) fn mismatch_holds(&self, b: &Built, r: &Run) -> (bool, String) {
        for item in &self.seen {
            match item {
                Seen::Order {
                    pool,
                    verdict,
                    cause,
                    line,
                } => {
                    if let Some(o) = self.outcome(b, r, *pool)
                        && o.verdict == *verdict
                        && discriminant(&o.cause) == *cause
                    {
                        return (true, line.clone());
                    }
                }
                Seen::Unit { pool, ends, line } => {
                    let now = b.unit_at.get(*pool).copied().flatten().and_then(|j| {
                        r.result
                            .decisions()
                            .and_then(|m| m.units.get(j))
                            .map(|u| u.ends)
                    });
                    if now == Some(*ends) {
                        return (true, line.clone());
                    }
                }
            }
        }
        (false, "no mismatch of the input is left".into())
    }
}
