//! The causes of a disagreement, each with the rule options that explain it, and a minimal
//! example of each.
//!
//! A position where two engines differ in effect may differ for several reasons at once. Each
//! order whose effect differs ([`OrderDiff`]) is explained, on the position itself, by the
//! single rule option changes under which engine A gives it B's effect (`B = A under …`) and
//! those under which B gives it A's (`A = B under …`): every relevant change is run once on the
//! position, for each engine that may read it ([`Engine::option_use`]). Orders with the same
//! (non-empty) explanation are one cause; the orders no change explains are one cause
//! together. A position whose orders agree in effect but whose board differs (an outside
//! engine's dislodgements, say) has one cause, explained by the changes under which the boards
//! agree.
//!
//! So a cause's explanation holds on the position it was found in, by construction, and a class
//! of causes (the same way, the same explanation) holds on every position counted in it.
//!
//! [`Judges::example`] shrinks a position to a minimal one that keeps one cause: its first order
//! still differs in effect the same way, and the explanation still holds (for an unexplained
//! cause: still no change explains it). `ddmin` on the units, then on the orders, then single
//! removals until none is possible: the example is 1-minimal, each unit and each order needed.

use crate::engine::legality;
use crate::engine::outcome::{PhaseResult, Verdict};
use crate::engine::seam::{Engine, OptionUse, PhaseInput};
use crate::model::board::PhaseKind;
use crate::model::map::ProvinceId;
use crate::model::orders::OrderKind;
use crate::model::rules::{Rules, SingleChange};
use crate::model::scenario::{OrderEntry, Scenario};
use crate::tools::minimize::ddmin;

use super::compare::{Comparison, Kind, OrderDiff, Way, acts, compare};

/// The options that only matter with convoys: no convoy order, no change of them changes a
/// result (DATC 4.A.1, 4.A.2, 4.A.4).
const CONVOY_OPTIONS: [&str; 4] = [
    "multi_route_disruption",
    "paradox",
    "paradox_fallback",
    "convoyed_attack_on_supporter",
];

/// One cause of a disagreement in a position: the orders whose effect differs for it, and the
/// changes that explain it there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause {
    /// The orders whose effect differs for this cause (none for a board-only difference).
    pub orders: Vec<OrderDiff>,
    /// The cause abstracted: the kinds of its orders and under which engine each acts; for a
    /// board-only difference, the sides on which the board differs.
    pub way: Way,
    /// The single option changes (`paradox=Rule1982`) under which engine A gives B's effect.
    pub b_as_a: Vec<String>,
    /// The single option changes under which engine B gives A's effect.
    pub a_as_b: Vec<String>,
}

impl Cause {
    /// Whether some change explains it.
    pub fn explained(&self) -> bool {
        !self.b_as_a.is_empty() || !self.a_as_b.is_empty()
    }
}

/// A rule change to try on a position, and on which engines.
struct Try {
    change: SingleChange,
    on_a: bool,
    on_b: bool,
    /// The orders the legality step classes otherwise under the change (a coast read another
    /// way, an order made illegal, a move sent by land): an explanation must give each of them
    /// the other engine's very verdict, so that a change that merely strikes an order out
    /// (`missing_nationality=Invalid` making a support illegal) explains nothing by accident.
    reclassed: Vec<usize>,
}

/// The submitted orders of `s` that `a` and `b` (two classings of its orders) class otherwise:
/// another status, or another effective order for their unit.
fn reclassed(a: &legality::Prepared, b: &legality::Prepared) -> Vec<usize> {
    let effective = |p: &legality::Prepared, st: &legality::OrderStatus| match st {
        legality::OrderStatus::Applied(u) => p.orders.get(*u).cloned(),
        legality::OrderStatus::Illegal(_) => None,
    };
    a.status
        .iter()
        .zip(&b.status)
        .enumerate()
        .filter(|(_, (x, y))| x != y || effective(a, x) != effective(b, y))
        .map(|(i, _)| i)
        .collect()
}

/// Whether `e` may give another result under `c` on `s` (`classed`: the orders' classing under
/// the run's rules).
fn may_read(
    e: &dyn Engine,
    c: &SingleChange,
    s: &Scenario,
    classed: &mut Option<legality::Prepared>,
    rules: &Rules,
) -> bool {
    match e.option_use(c.row.field) {
        OptionUse::Never => false,
        OptionUse::Direct => true,
        OptionUse::Classing => {
            if s.phase.kind != PhaseKind::Movement {
                return true;
            }
            let own = classed
                .get_or_insert_with(|| legality::prepare(&s.map, &s.units, &s.orders, rules));
            *own != legality::prepare(&s.map, &s.units, &s.orders, &c.rules)
        }
    }
}

/// The result of `e` on `s` under `rules`, or None when it gives none.
fn result(e: &dyn Engine, s: &Scenario, rules: &Rules) -> Option<PhaseResult> {
    e.verdicts(&PhaseInput::of(s, rules)).ok()
}

/// The order of `s` that is `d`'s order of `from` (the same power's same order), if it is still
/// there.
fn find(s: &Scenario, e: &OrderEntry) -> Option<usize> {
    s.orders
        .iter()
        .position(|x| x.power == e.power && x.order == e.order)
}

fn verdict(r: &PhaseResult, i: usize) -> Option<Verdict> {
    r.outcomes.get(i).map(|o| o.verdict)
}

/// The two engines of a run and the rules it compares them under: what finds, explains and
/// shrinks the causes of their disagreements.
#[derive(Clone, Copy)]
pub struct Judges<'e> {
    /// Engine A.
    pub a: &'e dyn Engine,
    /// Engine B.
    pub b: &'e dyn Engine,
    /// The rules of the run.
    pub rules: Rules,
}

impl Judges<'_> {
    /// The changes worth trying on `s`: every single change of the run's rules that some engine
    /// may read there. Adjustment options only in adjustment phases, convoy options only where
    /// an order convoys; an engine that reads an option only through the classing of the
    /// orders tries it only when the classing changes.
    fn tries(&self, s: &Scenario) -> Vec<Try> {
        let convoys = s
            .orders
            .iter()
            .any(|e| matches!(e.order.kind, OrderKind::Convoy { .. }));
        let adjustment = s.phase.kind == PhaseKind::Adjustment;
        let movement = s.phase.kind == PhaseKind::Movement;
        let mut classed = None;
        let mut out = Vec::new();
        for c in self.rules.single_changes() {
            let field = c.row.field;
            if !adjustment && crate::tools::diff::ADJUSTMENT_OPTIONS.contains(&field) {
                continue;
            }
            if !convoys && CONVOY_OPTIONS.contains(&field) {
                continue;
            }
            // An engine that declares it always follows one value of the option is never
            // given the other engine's results by another value of it.
            let declared = |e: &dyn Engine| e.follows(field).is_some_and(|v| v != c.value);
            let on_a = !declared(self.b) && may_read(self.a, &c, s, &mut classed, &self.rules);
            let on_b = !declared(self.a) && may_read(self.b, &c, s, &mut classed, &self.rules);
            if on_a || on_b {
                let reclassed = if movement && legality::CLASSING_OPTIONS.contains(&field) {
                    let own = classed.get_or_insert_with(|| {
                        legality::prepare(&s.map, &s.units, &s.orders, &self.rules)
                    });
                    reclassed(
                        own,
                        &legality::prepare(&s.map, &s.units, &s.orders, &c.rules),
                    )
                } else {
                    Vec::new()
                };
                out.push(Try {
                    change: c,
                    on_a,
                    on_b,
                    reclassed,
                });
            }
        }
        out
    }

    /// The causes of the disagreement `cmp` on `s` (the results `ra` of A and `rb` of B), in
    /// the order of their first orders; a board-only difference is one cause.
    pub fn causes(
        &self,
        s: &Scenario,
        ra: &PhaseResult,
        rb: &PhaseResult,
        cmp: &Comparison,
    ) -> Vec<Cause> {
        if cmp.way.is_empty() {
            return Vec::new();
        }
        let tries = self.tries(s);
        let n = cmp.effect.len();
        // Per differing order (or, board-only, one slot): the changes that explain it.
        let slots = n.max(1);
        let mut b_as_a: Vec<Vec<String>> = vec![Vec::new(); slots];
        let mut a_as_b: Vec<Vec<String>> = vec![Vec::new(); slots];
        for t in &tries {
            let spec = t.change.spec();
            if n == 0 {
                if t.on_a
                    && self.explains(s, t, true, ra, rb, None)
                    && let Some(x) = b_as_a.first_mut()
                {
                    x.push(spec.clone());
                }
                if t.on_b
                    && self.explains(s, t, false, ra, rb, None)
                    && let Some(x) = a_as_b.first_mut()
                {
                    x.push(spec.clone());
                }
                continue;
            }
            // One run per engine, then every differing order read off it.
            for on_a in [true, false] {
                let (go, engine, other) = if on_a {
                    (t.on_a, self.a, rb)
                } else {
                    (t.on_b, self.b, ra)
                };
                if !go {
                    continue;
                }
                let Some(r2) = result(engine, s, &t.change.rules) else {
                    continue;
                };
                let same_words = t
                    .reclassed
                    .iter()
                    .all(|&i| verdict(&r2, i).is_some() && verdict(&r2, i) == verdict(other, i));
                if !same_words {
                    continue;
                }
                for (k, d) in cmp.effect.iter().enumerate() {
                    let want = if on_a { d.b } else { d.a };
                    let list = if on_a { &mut b_as_a } else { &mut a_as_b };
                    if verdict(&r2, d.index).is_some_and(|v| acts(v) == acts(want))
                        && let Some(x) = list.get_mut(k)
                    {
                        x.push(spec.clone());
                    }
                }
            }
        }
        if n == 0 {
            let way = Way {
                orders: Vec::new(),
                ..cmp.way.clone()
            };
            return vec![Cause {
                orders: Vec::new(),
                way,
                b_as_a: b_as_a.into_iter().next().unwrap_or_default(),
                a_as_b: a_as_b.into_iter().next().unwrap_or_default(),
            }];
        }
        // Orders with one explanation are one cause; the unexplained ones one cause together.
        let mut out: Vec<Cause> = Vec::new();
        for ((d, x), y) in cmp.effect.iter().zip(&b_as_a).zip(&a_as_b) {
            match out.iter_mut().find(|c| c.b_as_a == *x && c.a_as_b == *y) {
                Some(c) => c.orders.push(*d),
                None => out.push(Cause {
                    orders: vec![*d],
                    way: Way::default(),
                    b_as_a: x.clone(),
                    a_as_b: y.clone(),
                }),
            }
        }
        for c in &mut out {
            let mut orders: Vec<(Kind, bool)> = c
                .orders
                .iter()
                .filter_map(|d| {
                    let e = s.orders.get(d.index)?;
                    Some((Kind::of(&s.map, &e.order), acts(d.a)))
                })
                .collect();
            orders.sort_unstable();
            orders.dedup();
            c.way = Way {
                orders,
                ..Way::default()
            };
        }
        out
    }

    /// Whether `q` (a part of `s`) keeps `cause`: its first order is still there and still acts
    /// under one engine only, as in `s`; every change of the explanation still explains it (by
    /// the rule of [`Judges::causes`]); an unexplained cause is still explained by no change. A
    /// board-only cause: the board still differs on the same sides, the orders agree in effect,
    /// and the explanation holds.
    pub fn keeps(&self, s: &Scenario, cause: &Cause, q: &Scenario) -> bool {
        let (Some(ra), Some(rb)) = (
            result(self.a, q, &self.rules),
            result(self.b, q, &self.rules),
        ) else {
            return false;
        };
        let target = match cause.orders.first() {
            None => {
                if compare(q, &ra, &rb).way != cause.way {
                    return false;
                }
                None
            }
            Some(first) => {
                let Some(e) = s.orders.get(first.index) else {
                    return false;
                };
                let Some(i) = find(q, e) else {
                    return false;
                };
                let (Some(va), Some(vb)) = (verdict(&ra, i), verdict(&rb, i)) else {
                    return false;
                };
                if acts(va) != acts(first.a) || acts(vb) != acts(first.b) {
                    return false;
                }
                Some(i)
            }
        };
        if cause.explained() {
            let tries = self.tries(q);
            let holds = |spec: &String, on_a: bool| {
                tries
                    .iter()
                    .find(|t| t.change.spec() == *spec)
                    .is_some_and(|t| self.explains(q, t, on_a, &ra, &rb, target))
            };
            cause.b_as_a.iter().all(|x| holds(x, true))
                && cause.a_as_b.iter().all(|x| holds(x, false))
        } else {
            // Still no change explains it.
            !self.tries(q).iter().any(|t| {
                (t.on_a && self.explains(q, t, true, &ra, &rb, target))
                    || (t.on_b && self.explains(q, t, false, &ra, &rb, target))
            })
        }
    }

    /// Whether the change `t` makes engine A (`on_a`) or B give, on `q`, the other engine's
    /// effect on the order `target` (None: the board agrees), every order that `t` classes
    /// otherwise taking the other engine's very verdict.
    fn explains(
        &self,
        q: &Scenario,
        t: &Try,
        on_a: bool,
        ra: &PhaseResult,
        rb: &PhaseResult,
        target: Option<usize>,
    ) -> bool {
        let (engine, other) = if on_a { (self.a, rb) } else { (self.b, ra) };
        let Some(r2) = result(engine, q, &t.change.rules) else {
            return false;
        };
        let same_words = t
            .reclassed
            .iter()
            .all(|&i| verdict(&r2, i).is_some() && verdict(&r2, i) == verdict(other, i));
        same_words
            && match target {
                Some(i) => match (verdict(&r2, i), verdict(other, i)) {
                    (Some(x), Some(y)) => acts(x) == acts(y),
                    _ => false,
                },
                None => {
                    let (x, y) = if on_a { (&r2, rb) } else { (ra, &r2) };
                    compare(q, x, y).way.is_empty()
                }
            }
    }

    /// The single changes that explain a difference of wording only on `s` (the comparison
    /// `cmp` of `ra` and `rb`): under one, engine A (`b_as_a`) or B (`a_as_b`) gives every
    /// worded order the other engine's very verdict, and the results still agree in effect.
    pub fn word_explanations(
        &self,
        s: &Scenario,
        ra: &PhaseResult,
        rb: &PhaseResult,
        cmp: &Comparison,
    ) -> (Vec<String>, Vec<String>) {
        let mut out = (Vec::new(), Vec::new());
        for t in self.tries(s) {
            if t.on_a && self.words_agree(s, &t.change.rules, true, ra, rb, cmp) {
                out.0.push(t.change.spec());
            }
            if t.on_b && self.words_agree(s, &t.change.rules, false, ra, rb, cmp) {
                out.1.push(t.change.spec());
            }
        }
        out
    }

    /// Whether, under the rules `r`, engine A (`on_a`) or B gives every order of `cmp.worded`
    /// the other engine's very verdict, the two still agreeing in effect.
    pub fn words_agree(
        &self,
        s: &Scenario,
        r: &Rules,
        on_a: bool,
        ra: &PhaseResult,
        rb: &PhaseResult,
        cmp: &Comparison,
    ) -> bool {
        let (engine, other) = if on_a { (self.a, rb) } else { (self.b, ra) };
        let Some(r2) = result(engine, s, r) else {
            return false;
        };
        // As for a cause: every order the change classes otherwise takes the other engine's
        // very verdict too (so that `path_specification=Required` making convoyed moves illegal
        // does not pass for an explanation of a support's words).
        let moved = if s.phase.kind == PhaseKind::Movement {
            reclassed(
                &legality::prepare(&s.map, &s.units, &s.orders, &self.rules),
                &legality::prepare(&s.map, &s.units, &s.orders, r),
            )
        } else {
            Vec::new()
        };
        let words = cmp
            .worded
            .iter()
            .map(|d| d.index)
            .chain(moved)
            .all(|i| verdict(&r2, i).is_some() && verdict(&r2, i) == verdict(other, i));
        let (x, y) = if on_a { (&r2, rb) } else { (ra, &r2) };
        words && compare(s, x, y).way.is_empty()
    }

    /// A minimal example of `cause` from the position `s`: units, then orders, left out by
    /// `ddmin` while [`Judges::keeps`] holds, then single units and orders left out until none
    /// can be: every unit and every order of the result is needed (1-minimal). `s` itself when
    /// nothing can go.
    pub fn example(&self, s: &Scenario, cause: &Cause) -> Scenario {
        let holds = |q: &Scenario| self.keeps(s, cause, q);
        let mut best = s.clone();
        loop {
            let before = (best.units.len(), best.orders.len());
            if best.phase.kind == PhaseKind::Movement {
                let ids: Vec<usize> = (0..best.units.len()).collect();
                let base = best.clone();
                let kept = ddmin(&ids, |keep| holds(&without_units(&base, keep)), |_, _| {});
                best = without_units(&base, &kept);
            }
            let ids: Vec<usize> = (0..best.orders.len()).collect();
            let base = best.clone();
            let kept = ddmin(&ids, |keep| holds(&only_orders(&base, keep)), |_, _| {});
            best = only_orders(&base, &kept);
            // The last pass: one unit or one order at a time, until none can go.
            if best.phase.kind == PhaseKind::Movement {
                let mut u = 0;
                while u < best.units.len() {
                    let keep: Vec<usize> = (0..best.units.len()).filter(|&k| k != u).collect();
                    let q = without_units(&best, &keep);
                    if holds(&q) {
                        best = q;
                    } else {
                        u += 1;
                    }
                }
            }
            let mut o = 0;
            while o < best.orders.len() {
                let keep: Vec<usize> = (0..best.orders.len()).filter(|&k| k != o).collect();
                let q = only_orders(&best, &keep);
                if holds(&q) {
                    best = q;
                } else {
                    o += 1;
                }
            }
            if (best.units.len(), best.orders.len()) == before {
                break;
            }
        }
        if holds(&best) { best } else { s.clone() }
    }
}

/// `s` with only the units `keep` (indices) and the orders of those units.
pub(super) fn without_units(s: &Scenario, keep: &[usize]) -> Scenario {
    let mut q = s.clone();
    q.units = keep
        .iter()
        .filter_map(|&u| s.units.get(u).copied())
        .collect();
    let provs: Vec<ProvinceId> = q.units.iter().map(|u| s.map.province_of(u.loc)).collect();
    q.orders.retain(|e| {
        e.order
            .unit
            .is_some_and(|u| provs.contains(&u.loc.province))
    });
    q
}

/// `s` with only the orders `keep` (indices).
pub(super) fn only_orders(s: &Scenario, keep: &[usize]) -> Scenario {
    let mut q = s.clone();
    q.orders = keep
        .iter()
        .filter_map(|&k| s.orders.get(k).cloned())
        .collect();
    q
}
