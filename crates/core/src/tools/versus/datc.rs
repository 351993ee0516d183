//! The DATC case a position is like: the same orders in the same relations, up to a renaming
//! of provinces and powers.
//!
//! A movement position is read as a graph ([`Shape`]): a node per province that holds a unit
//! or that an order names, labelled with the unit's kind (or none) and its order's kind (a unit
//! without an order holds); an edge per relation an order makes — a move to its destination
//! (plain or convoyed), a support to the supported unit's province (and, for a move, to its
//! destination), a convoy to the army's province and to its destination — and an edge both ways
//! between the provinces of two units of one power. Two positions are alike when their graphs
//! are isomorphic: colour refinement (each node's colour from its label and the multiset of its
//! edges' kinds and neighbours' colours, until it settles) sorts out all but a few candidates,
//! and a search that maps node to node of the same colour decides.
//!
//! The DATC's own cases are compiled in ([`super::datc_cases::CASES`]); [`like`] names those of
//! a position's shape. Rule variants of one case (`6.F.16-1982`) share its orders: the case is
//! named once, by its first name.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::model::board::PhaseKind;
use crate::model::map::{ProvinceId, UnitKind};
use crate::model::orders::OrderKind;
use crate::model::scenario::Scenario;

use super::compare::Kind;

/// A position's orders as a graph (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Per node: its label (unit kind and order kind).
    labels: Vec<u16>,
    /// Directed edges (from, to, kind).
    edges: Vec<(usize, usize, u8)>,
}

const EDGE_MOVE: u8 = 1;
const EDGE_CONVOYED_MOVE: u8 = 2;
const EDGE_SUPPORTED: u8 = 3;
const EDGE_SUPPORTED_TO: u8 = 4;
const EDGE_CONVOYED: u8 = 5;
const EDGE_CONVOYED_TO: u8 = 6;
const EDGE_SAME_POWER: u8 = 7;

/// An order as the graph takes it: its unit's node, its label, its edges (to, kind).
type OrderNode = (usize, u16, Vec<(usize, u8)>);

/// The node of province `p`, made when it is new.
fn node(index: &mut HashMap<ProvinceId, usize>, p: ProvinceId) -> usize {
    let n = index.len();
    *index.entry(p).or_insert(n)
}

/// The shape of a movement phase; `None` for another phase.
pub fn shape(s: &Scenario) -> Option<Shape> {
    if s.phase.kind != PhaseKind::Movement {
        return None;
    }
    let mut index: HashMap<ProvinceId, usize> = HashMap::new();
    let unit_node: Vec<usize> = s
        .units
        .iter()
        .map(|u| node(&mut index, s.map.province_of(u.loc)))
        .collect();
    // Each order: its unit's node, its label, its edges.
    let mut orders: Vec<OrderNode> = Vec::new();
    for e in &s.orders {
        let Some(u) = e.order.unit else { continue };
        let from = node(&mut index, u.loc.province);
        let kind = Kind::of(&s.map, &e.order);
        let label: u16 = match kind {
            Kind::Hold => 1,
            Kind::Move => 2,
            Kind::ConvoyedMove => 3,
            Kind::SupportHold => 4,
            Kind::SupportMove => 5,
            Kind::Convoy => 6,
            _ => 7,
        };
        let mut out = Vec::new();
        match &e.order.kind {
            OrderKind::Move { dest, .. } => {
                let k = if kind == Kind::ConvoyedMove {
                    EDGE_CONVOYED_MOVE
                } else {
                    EDGE_MOVE
                };
                out.push((node(&mut index, dest.province), k));
            }
            OrderKind::Support { target, dest, .. } => {
                out.push((node(&mut index, target.unit.loc.province), EDGE_SUPPORTED));
                if let Some(d) = dest {
                    out.push((node(&mut index, d.province), EDGE_SUPPORTED_TO));
                }
            }
            OrderKind::Convoy { army, dest, .. } => {
                out.push((node(&mut index, army.unit.loc.province), EDGE_CONVOYED));
                out.push((node(&mut index, dest.province), EDGE_CONVOYED_TO));
            }
            _ => {}
        }
        orders.push((from, label, out));
    }
    let mut labels = vec![0u16; index.len()];
    for (u, &n) in s.units.iter().zip(&unit_node) {
        if let Some(l) = labels.get_mut(n) {
            *l = match u.kind {
                UnitKind::Army => 1,
                UnitKind::Fleet => 2,
            };
        }
    }
    let mut ordered = vec![false; labels.len()];
    let mut edges = Vec::new();
    for (from, label, out) in orders {
        // Several orders to one unit: their kinds added up, so they still tell apart.
        if let Some(l) = labels.get_mut(from) {
            *l = l.saturating_add(label * 16);
        }
        if let Some(o) = ordered.get_mut(from) {
            *o = true;
        }
        edges.extend(out.into_iter().map(|(to, k)| (from, to, k)));
    }
    // A unit without an order holds.
    for &n in &unit_node {
        if !ordered.get(n).copied().unwrap_or(true)
            && let Some(l) = labels.get_mut(n)
        {
            *l = l.saturating_add(16);
        }
    }
    // The same power: both ways between every two of its units.
    for (i, a) in s.units.iter().enumerate() {
        for (j, b) in s.units.iter().enumerate() {
            if i != j
                && a.power == b.power
                && let (Some(&x), Some(&y)) = (unit_node.get(i), unit_node.get(j))
            {
                edges.push((x, y, EDGE_SAME_POWER));
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    Some(Shape { labels, edges })
}

/// FNV-1a over numbers: a stable mix for colours.
fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0100_0000_01b3)
}

/// The settled colours of colour refinement.
fn colours(s: &Shape) -> Vec<u64> {
    let n = s.labels.len();
    let mut c: Vec<u64> = s.labels.iter().map(|&l| u64::from(l)).collect();
    for _ in 0..n.max(1) {
        let mut next: Vec<Vec<u64>> = vec![Vec::new(); n];
        for &(a, b, k) in &s.edges {
            let (ca, cb) = (
                c.get(a).copied().unwrap_or(0),
                c.get(b).copied().unwrap_or(0),
            );
            if let Some(v) = next.get_mut(a) {
                v.push(mix(mix(0xcbf2_9ce4_8422_2325, u64::from(k)), cb));
            }
            if let Some(v) = next.get_mut(b) {
                v.push(mix(mix(0x1234_5678, u64::from(k)), ca));
            }
        }
        let refined: Vec<u64> = next
            .into_iter()
            .zip(&c)
            .map(|(mut v, &own)| {
                v.sort_unstable();
                v.iter().fold(mix(0x9e37_79b9, own), |h, &x| mix(h, x))
            })
            .collect();
        let classes = |v: &[u64]| {
            let mut w = v.to_vec();
            w.sort_unstable();
            w.dedup();
            w.len()
        };
        let settled = classes(&refined) == classes(&c);
        c = refined;
        if settled {
            break;
        }
    }
    c
}

/// A shape with its colours and its colour histogram (sorted), ready to compare.
struct Coloured {
    shape: Shape,
    colours: Vec<u64>,
    histogram: Vec<u64>,
}

impl Coloured {
    fn new(shape: Shape) -> Coloured {
        let colours = colours(&shape);
        let mut histogram = colours.clone();
        histogram.sort_unstable();
        Coloured {
            shape,
            colours,
            histogram,
        }
    }
}

/// Whether two coloured shapes are isomorphic: a node-to-node map of equal colours that carries
/// every edge to an edge of the same kind, found by search (an explicit stack, no recursion;
/// given up, as not alike, past 200,000 steps).
fn isomorphic(a: &Coloured, b: &Coloured) -> bool {
    if a.histogram != b.histogram || a.shape.edges.len() != b.shape.edges.len() {
        return false;
    }
    let n = a.shape.labels.len();
    let edge_set: std::collections::HashSet<(usize, usize, u8)> =
        b.shape.edges.iter().copied().collect();
    // The nodes of `a`, those of the rarest colour first.
    let count = |c: Option<&u64>| a.colours.iter().filter(|x| Some(*x) == c).count();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| count(a.colours.get(i)));
    let mut map: Vec<Option<usize>> = vec![None; n];
    let mut used = vec![false; n];
    // (position in `order`, the next candidate in `b` to try there)
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    let mut steps = 0u32;
    while let Some(&(k, from)) = stack.last() {
        steps += 1;
        if steps > 200_000 {
            return false;
        }
        let Some(&i) = order.get(k) else {
            return true;
        };
        // Undo this position's last choice before trying the next candidate.
        if let Some(prev) = map.get_mut(i).and_then(Option::take)
            && let Some(u) = used.get_mut(prev)
        {
            *u = false;
        }
        let image = |v: usize, j: usize, map: &[Option<usize>]| {
            if v == i {
                Some(j)
            } else {
                map.get(v).copied().flatten()
            }
        };
        let chosen = (from..n).find(|&j| {
            !used.get(j).copied().unwrap_or(true)
                && a.colours.get(i) == b.colours.get(j)
                && a.shape.edges.iter().all(|&(x, y, t)| {
                    if x != i && y != i {
                        return true;
                    }
                    match (image(x, j, &map), image(y, j, &map)) {
                        (Some(px), Some(py)) => edge_set.contains(&(px, py, t)),
                        _ => true,
                    }
                })
        });
        match chosen {
            Some(j) => {
                if let Some(m) = map.get_mut(i) {
                    *m = Some(j);
                }
                if let Some(u) = used.get_mut(j) {
                    *u = true;
                }
                if let Some(top) = stack.last_mut() {
                    top.1 = j + 1;
                }
                stack.push((k + 1, 0));
            }
            None => {
                stack.pop();
            }
        }
    }
    false
}

/// The DATC's movement cases as coloured shapes, one per distinct case (rule variants of a case
/// that share its orders left out), made once.
fn datc() -> &'static [(&'static str, Coloured)] {
    static CASES: OnceLock<Vec<(&'static str, Coloured)>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut out: Vec<(&'static str, Coloured)> = Vec::new();
        for (name, text) in super::datc_cases::CASES {
            let Ok(s) = Scenario::from_ron(text, name) else {
                continue;
            };
            let Some(sh) = shape(&s) else { continue };
            let base = name.split('-').next().unwrap_or(name);
            if *name != base && out.iter().any(|(n, c)| *n == base && c.shape == sh) {
                continue;
            }
            out.push((name, Coloured::new(sh)));
        }
        out
    })
}

/// The DATC cases with the shape of `s` (its orders in the same relations, up to a renaming of
/// provinces and powers), in the DATC's order; none when no case has it, or `s` is not a
/// movement phase.
pub fn like(s: &Scenario) -> Vec<&'static str> {
    let Some(sh) = shape(s) else {
        return Vec::new();
    };
    let mine = Coloured::new(sh);
    datc()
        .iter()
        .filter(|(_, c)| isomorphic(&mine, c))
        .map(|(n, _)| *n)
        .collect()
}
