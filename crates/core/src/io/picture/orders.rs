//! An order's shapes, in its verdict's colour: a move (or retreat) as an arrow that ends at the
//! target's edge, a support as a dashed line to the middle of the supported move (or to the
//! supported unit), a convoy as its part of the dotted route through the fleets, a hold as a
//! ring, a disbandment or removal as a cross, a build as a dashed ring.

use crate::engine::PhaseResult;
use crate::model::board::PhaseKind;
use crate::model::map::ProvinceId;
use crate::model::orders::OrderKind;
use crate::model::scenario::Scenario;

use super::layout::{Layout, NODE_R};
use super::svg::{self, verdict_class};
use super::units::beside;

type Pt = (f64, f64);

/// Where the order's unit stood before the phase (a dislodged unit of a retreat phase beside
/// its province).
fn origin(s: &Scenario, lay: &Layout, p: ProvinceId) -> Pt {
    let dislodged_here = s.phase.kind == PhaseKind::Retreat
        && s.dislodged
            .iter()
            .any(|d| s.map.province_of(d.unit.loc) == p);
    if dislodged_here {
        beside(lay.center(p))
    } else {
        lay.center(p)
    }
}

/// The move's curve from `a` to `b`: its start and end pulled back to the nodes' edges
/// (`back` at the end), bent a little to its left so that two units swapping places show two
/// arrows. Returns start, control point, end.
fn curve(a: Pt, b: Pt, back: f64) -> (Pt, Pt, Pt) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    let (ux, uy) = (dx / len, dy / len);
    let start_off = (NODE_R + 2.0).min(len / 3.0);
    let end_off = back.min(len / 3.0);
    let s = (a.0 + ux * start_off, a.1 + uy * start_off);
    let e = (b.0 - ux * end_off, b.1 - uy * end_off);
    let bend = (len * 0.12).min(18.0);
    let m = ((s.0 + e.0) / 2.0 + uy * bend, (s.1 + e.1) / 2.0 - ux * bend);
    (s, m, e)
}

/// The middle of a curve.
fn mid((s, m, e): (Pt, Pt, Pt)) -> Pt {
    (
        0.25 * s.0 + 0.5 * m.0 + 0.25 * e.0,
        0.25 * s.1 + 0.5 * m.1 + 0.25 * e.1,
    )
}

fn path((s, m, e): (Pt, Pt, Pt)) -> String {
    format!(
        "M{:.1} {:.1} Q{:.1} {:.1} {:.1} {:.1}",
        s.0, s.1, m.0, m.1, e.0, e.1
    )
}

/// A straight segment from `a` to `b`, pulled back by `ra` and `rb`.
fn segment(a: Pt, b: Pt, ra: f64, rb: f64) -> (Pt, Pt) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    let (ux, uy) = (dx / len, dy / len);
    let (ra, rb) = (ra.min(len / 3.0), rb.min(len / 3.0));
    (
        (a.0 + ux * ra, a.1 + uy * ra),
        (b.0 - ux * rb, b.1 - uy * rb),
    )
}

/// The fleets convoying the army in `army` to `dest`, in route order from the army: each next
/// fleet the one bordering the last (else the nearest).
fn route(s: &Scenario, lay: &Layout, army: ProvinceId, dest: ProvinceId) -> Vec<ProvinceId> {
    let mut left: Vec<ProvinceId> = s
        .orders
        .iter()
        .filter_map(|o| match &o.order.kind {
            OrderKind::Convoy { army: a, dest: d }
                if a.unit.loc.province == army && d.province == dest =>
            {
                o.order.unit.as_ref().map(|u| u.loc.province)
            }
            _ => None,
        })
        .collect();
    left.sort_unstable();
    left.dedup();
    let mut out = Vec::new();
    let mut at = army;
    while !left.is_empty() {
        let here = lay.center(at);
        let dist = |p: &ProvinceId| {
            let c = lay.center(*p);
            let near = if s.map.provinces_adjacent(at, *p) {
                0.0
            } else {
                1e9
            };
            near + (c.0 - here.0).hypot(c.1 - here.1)
        };
        let Some(k) = (0..left.len()).min_by(|&i, &j| {
            let (a, b) = (left.get(i).map(dist), left.get(j).map(dist));
            a.partial_cmp(&b).unwrap_or(std::cmp::Ordering::Equal)
        }) else {
            break;
        };
        let next = left.remove(k);
        out.push(next);
        at = next;
    }
    out
}

/// The orders, each a group `order-{i}` with its verdict's class.
pub(super) fn draw(s: &Scenario, result: Option<&PhaseResult>, lay: &Layout) -> String {
    let mut out = String::from("<g class=\"orders\" fill=\"none\">\n");
    for (i, o) in s.orders.iter().enumerate() {
        let outcome = result.and_then(|r| r.outcomes.get(i));
        let class = verdict_class(outcome.map(|x| x.verdict));
        let colour = svg::verdict_colour(class);
        let reason = outcome
            .map(|x| format!(": {} ({})", class, x.reason))
            .unwrap_or_default();
        out.push_str(&format!(
            "<g id=\"order-{i}\" class=\"order verdict-{class}\" stroke=\"{colour}\"><title>{}: {}{}</title>",
            svg::esc(&s.map.power(o.power).name),
            svg::esc(&o.text),
            svg::esc(&reason)
        ));
        if let Some(spec) = &o.order.unit {
            out.push_str(&shape(s, lay, spec.loc.province, &o.order.kind, class));
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
    out
}

/// The shapes of one order given to the unit in `from`.
fn shape(s: &Scenario, lay: &Layout, from: ProvinceId, kind: &OrderKind, class: &str) -> String {
    let a = origin(s, lay, from);
    let arrow = format!("url(#arrow-{class})");
    match kind {
        OrderKind::Hold => format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" stroke-width=\"2.2\"/>",
            a.0,
            a.1,
            NODE_R + 4.0
        ),
        OrderKind::Move { dest, .. } => {
            let c = curve(a, lay.center(dest.province), NODE_R + 3.0);
            format!(
                "<path d=\"{}\" stroke-width=\"2.4\" marker-end=\"{arrow}\"/>",
                path(c)
            )
        }
        OrderKind::Support { target, dest } => {
            let t = lay.center(target.unit.loc.province);
            let end = match dest {
                Some(d) => mid(curve(t, lay.center(d.province), NODE_R + 3.0)),
                None => t,
            };
            let rb = if dest.is_some() { 2.0 } else { NODE_R + 4.0 };
            let (p, q) = segment(a, end, NODE_R + 2.0, rb);
            format!(
                "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke-width=\"1.8\" stroke-dasharray=\"5 3\"/><circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.2\" stroke-width=\"1.5\"/>",
                p.0, p.1, q.0, q.1, q.0, q.1
            )
        }
        OrderKind::Convoy { army, dest } => {
            let (ap, dp) = (army.unit.loc.province, dest.province);
            let chain = route(s, lay, ap, dp);
            let k = chain.iter().position(|p| *p == from);
            let prev = k
                .and_then(|k| k.checked_sub(1))
                .and_then(|j| chain.get(j).copied())
                .unwrap_or(ap);
            let next = k.and_then(|k| chain.get(k + 1).copied()).unwrap_or(dp);
            let (p1, q1) = segment(lay.center(prev), a, NODE_R + 1.0, NODE_R + 1.0);
            let (p2, q2) = segment(a, lay.center(next), NODE_R + 1.0, NODE_R + 3.0);
            let end = if next == dp {
                format!(" marker-end=\"{arrow}\"")
            } else {
                String::new()
            };
            format!(
                "<path d=\"M{:.1} {:.1} L{:.1} {:.1} M{:.1} {:.1} L{:.1} {:.1}\" stroke-width=\"2\" stroke-dasharray=\"1.5 3\" stroke-linecap=\"round\"{end}/>",
                p1.0, p1.1, q1.0, q1.1, p2.0, p2.1, q2.0, q2.1
            )
        }
        OrderKind::Disband | OrderKind::Remove => {
            let r = if s.phase.kind == PhaseKind::Retreat {
                6.5
            } else {
                9.5
            };
            format!(
                "<path d=\"M{:.1} {:.1} L{:.1} {:.1} M{:.1} {:.1} L{:.1} {:.1}\" stroke-width=\"2.6\"/>",
                a.0 - r,
                a.1 - r,
                a.0 + r,
                a.1 + r,
                a.0 - r,
                a.1 + r,
                a.0 + r,
                a.1 - r
            )
        }
        OrderKind::Build => format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" stroke-width=\"2.2\" stroke-dasharray=\"4 2\"/>",
            a.0,
            a.1,
            NODE_R + 4.0
        ),
        OrderKind::Waive => String::new(),
    }
}
