//! Two results of one phase compared, with **effect** and **wording** apart.
//!
//! An order's verdict is a word (`succeeds`, `fails`, `void`, `illegal`). Some orders have an
//! effect of their own: a move (or a retreat) is made or not, a build is built, a removal or a
//! disbandment carried out — the verdict `succeeds` — or not (any other word). The others — a
//! hold, a support, a convoy — have none of their own: what they do shows in other orders'
//! results and on the board (a support that is cut changes the supported move's result, or the
//! dislodgement it would have made; one that helps nobody changes nothing).
//!
//! Two results differ in **effect** when an order with an effect of its own is carried out
//! under one and not under the other, or when the board differs: a unit dislodged under one
//! only, a unit at the end under one only, a standoff under one only. Otherwise they differ in
//! **wording** when some verdict differs: a move `illegal` under one and `fails` under the
//! other, a support `void` under one and `fails` under the other, or a support `succeeds` under
//! one and `void` under the other where the move it supports is made (or not) under both.
//! A support or convoy that changes another order's result differs in effect through that
//! order, never by its own word.
//!
//! [`compare`] gives both, order by order ([`Comparison`]); [`Way`] is the effect abstracted
//! over the orders (which kinds of order act under which engine, and on which side the board
//! differs), [`Wording`] the word pairs.

use crate::engine::outcome::{PhaseResult, Verdict};
use crate::model::board::Unit;
use crate::model::map::{Map, ProvinceId, UnitKind};
use crate::model::orders::{Order, OrderKind};
use crate::model::scenario::Scenario;
use crate::tools::diff::verdict_word;

/// What an order is, for telling disagreements apart: its kind, with moves split into plain
/// and convoyed, supports into hold and move supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Hold.
    Hold,
    /// A move (or retreat) over land or along a coast.
    Move,
    /// An army's move to a province it does not border, or with `via convoy`.
    ConvoyedMove,
    /// Support of a unit holding.
    SupportHold,
    /// Support of a move.
    SupportMove,
    /// Convoy.
    Convoy,
    /// Disband (retreats).
    Disband,
    /// Build.
    Build,
    /// Remove.
    Remove,
    /// Waive.
    Waive,
}

impl Kind {
    /// The kind of an order on `map`.
    pub fn of(map: &Map, o: &Order) -> Kind {
        match &o.kind {
            OrderKind::Hold => Kind::Hold,
            OrderKind::Move {
                dest, via_convoy, ..
            } => {
                let army = o.unit.is_some_and(|u| u.kind == Some(UnitKind::Army));
                let far = o
                    .unit
                    .is_some_and(|u| !map.army_adjacent(u.loc.province, dest.province));
                if *via_convoy || (army && far) {
                    Kind::ConvoyedMove
                } else {
                    Kind::Move
                }
            }
            OrderKind::Support { dest: None, .. } => Kind::SupportHold,
            OrderKind::Support { dest: Some(_), .. } => Kind::SupportMove,
            OrderKind::Convoy { .. } => Kind::Convoy,
            OrderKind::Disband => Kind::Disband,
            OrderKind::Build => Kind::Build,
            OrderKind::Remove => Kind::Remove,
            OrderKind::Waive => Kind::Waive,
        }
    }

    /// In words: `convoyed move`, `support of a move`.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Hold => "hold",
            Kind::Move => "move",
            Kind::ConvoyedMove => "convoyed move",
            Kind::SupportHold => "support of a hold",
            Kind::SupportMove => "support of a move",
            Kind::Convoy => "convoy",
            Kind::Disband => "disband",
            Kind::Build => "build",
            Kind::Remove => "remove",
            Kind::Waive => "waive",
        }
    }
}

/// Whether an order with this verdict is carried out (`succeeds`). Every other verdict is a way
/// of saying it is not.
pub fn acts(v: Verdict) -> bool {
    v == Verdict::Succeeds
}

/// A verdict as a small number (for keys and file names).
pub fn verdict_code(v: Verdict) -> u8 {
    match v {
        Verdict::Succeeds => 0,
        Verdict::Fails => 1,
        Verdict::Illegal => 2,
        Verdict::Void => 3,
    }
}

/// The verdict of [`verdict_code`].
pub fn code_verdict(c: u8) -> Verdict {
    match c {
        0 => Verdict::Succeeds,
        1 => Verdict::Fails,
        2 => Verdict::Illegal,
        _ => Verdict::Void,
    }
}

/// How two results differ in effect, with the orders and units abstracted away: which kinds of
/// order with an effect of their own are carried out under one engine only, and on which side
/// the dislodgements, the final positions and the standoffs differ. Two disagreements of one
/// `Way` differ alike in effect, whatever their words.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Way {
    /// Per kind of order whose effect differs: (kind, whether it is carried out under A; under B
    /// it is the other way), sorted, no repeats.
    pub orders: Vec<(Kind, bool)>,
    /// Units dislodged only under A, only under B.
    pub dislodged: (bool, bool),
    /// Units at the end only under A, only under B.
    pub positions: (bool, bool),
    /// Standoffs that differ.
    pub contested: bool,
}

impl Way {
    /// Whether the results agree in effect.
    pub fn is_empty(&self) -> bool {
        *self == Way::default()
    }

    /// In words, naming the engines: `move: carried out under dpjudge only; units dislodged only
    /// under decisions`.
    pub fn words(&self, a: &str, b: &str) -> String {
        let mut parts: Vec<String> = self
            .orders
            .iter()
            .map(|(k, under_a)| {
                format!(
                    "{}: carried out under {} only",
                    k.word(),
                    if *under_a { a } else { b }
                )
            })
            .collect();
        let side = |what: &str, (x, y): (bool, bool)| match (x, y) {
            (true, true) => Some(format!("{what} differ")),
            (true, false) => Some(format!("{what} only under {a}")),
            (false, true) => Some(format!("{what} only under {b}")),
            (false, false) => None,
        };
        parts.extend(side("units dislodged", self.dislodged));
        parts.extend(side("units at the end", self.positions));
        if self.contested {
            parts.push("standoffs differ".into());
        }
        parts.join("; ")
    }
}

/// How two results differ in words: per kind of order, the verdict words of the orders whose
/// verdicts differ without a difference of their own effect (a support, a convoy or a hold
/// under any words; an order with an effect, carried out under both or neither), (kind, A's
/// verdict code, B's), sorted, no repeats.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Wording {
    /// (kind, A's verdict code, B's verdict code).
    pub orders: Vec<(Kind, u8, u8)>,
}

impl Wording {
    /// Whether no words differ.
    pub fn is_empty(&self) -> bool {
        self.orders.is_empty()
    }

    /// In words: `support of a move: decisions fails, python void`.
    pub fn words(&self, a: &str, b: &str) -> String {
        self.orders
            .iter()
            .map(|(k, x, y)| {
                format!(
                    "{}: {a} {}, {b} {}",
                    k.word(),
                    verdict_word(code_verdict(*x)),
                    verdict_word(code_verdict(*y))
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// An order whose verdicts differ: its index in the phase's orders and both verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OrderDiff {
    /// The order's index.
    pub index: usize,
    /// Engine A's verdict.
    pub a: Verdict,
    /// Engine B's verdict.
    pub b: Verdict,
}

/// Two results compared: effect and wording apart, order by order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// The effect abstracted over the orders.
    pub way: Way,
    /// The wording abstracted over the orders.
    pub wording: Wording,
    /// The orders with an effect of their own carried out under one engine only, in order.
    pub effect: Vec<OrderDiff>,
    /// The other orders whose verdicts differ, in order.
    pub worded: Vec<OrderDiff>,
}

impl Comparison {
    /// Whether the results agree in effect and words.
    pub fn agree(&self) -> bool {
        self.way.is_empty() && self.wording.is_empty()
    }
}

fn sorted_units(v: impl Iterator<Item = Unit>) -> Vec<Unit> {
    let mut v: Vec<Unit> = v.collect();
    v.sort_unstable();
    v
}

/// Whether sorted `a` has a unit that sorted `b` lacks.
fn has_extra(a: &[Unit], b: &[Unit]) -> bool {
    a.iter().any(|u| b.binary_search(u).is_err())
}

/// The results `ra` (engine A's) and `rb` (B's) of the scenario `s` compared.
pub fn compare(s: &Scenario, ra: &PhaseResult, rb: &PhaseResult) -> Comparison {
    let kind = |i: usize| {
        s.orders
            .get(i)
            .map_or(Kind::Hold, |e| Kind::of(&s.map, &e.order))
    };
    let mut effect = Vec::new();
    let mut worded = Vec::new();
    for (index, (x, y)) in ra.outcomes.iter().zip(&rb.outcomes).enumerate() {
        if x.verdict == y.verdict {
            continue;
        }
        let d = OrderDiff {
            index,
            a: x.verdict,
            b: y.verdict,
        };
        let own = s
            .orders
            .get(index)
            .is_some_and(|e| e.order.kind.has_own_effect());
        if own && acts(x.verdict) != acts(y.verdict) {
            effect.push(d);
        } else {
            worded.push(d);
        }
    }
    let mut orders: Vec<(Kind, bool)> = effect.iter().map(|d| (kind(d.index), acts(d.a))).collect();
    orders.sort_unstable();
    orders.dedup();
    let mut words: Vec<(Kind, u8, u8)> = worded
        .iter()
        .map(|d| (kind(d.index), verdict_code(d.a), verdict_code(d.b)))
        .collect();
    words.sort_unstable();
    words.dedup();
    let da = sorted_units(ra.dislodged.iter().map(|d| d.unit));
    let db = sorted_units(rb.dislodged.iter().map(|d| d.unit));
    let fa = sorted_units(ra.final_units.iter().copied());
    let fb = sorted_units(rb.final_units.iter().copied());
    let mut ca: Vec<ProvinceId> = ra.contested.clone();
    let mut cb: Vec<ProvinceId> = rb.contested.clone();
    ca.sort_unstable();
    cb.sort_unstable();
    ca.dedup();
    cb.dedup();
    Comparison {
        way: Way {
            orders,
            dislodged: (has_extra(&da, &db), has_extra(&db, &da)),
            positions: (has_extra(&fa, &fb), has_extra(&fb, &fa)),
            contested: ca != cb,
        },
        wording: Wording { orders: words },
        effect,
        worded,
    }
}

/// How the results `ra` and `rb` of the scenario `s` differ in effect ([`compare`]'s way).
pub fn way(s: &Scenario, ra: &PhaseResult, rb: &PhaseResult) -> Way {
    compare(s, ra, rb).way
}
