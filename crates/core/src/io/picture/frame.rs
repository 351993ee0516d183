//! The frame of a cropped picture ([`super::Crop::Action`]): the part of the laid-out map that
//! the position's orders and units are about, with one ring of neighbours around it.
//!
//! The provinces in play are those of every unit (on the board or dislodged), every order's
//! unit and target (a move's destination and path, a supported unit and the move it supports, a
//! convoyed army and its destination, a build's province), the result's dislodged units and the
//! provinces their attackers came from, and the standoffs. The frame is the box of their
//! footprints (node, label, the marks drawn beside a node), widened to take in the node of each
//! province bordering one of them, but never by more than one typical border length (the median
//! distance between neighbouring nodes) on a side, so that a distant neighbour such as the
//! mid-Atlantic shows its near edge only. The frame is then made at most 5/4 as tall as it is
//! wide and at least 2/5 of the map's width (no more than 2.5 times enlarged), and kept inside
//! the map. When it would still be wider than 4/5 of the map (enlarging the drawing less than
//! 1.25 times), or nothing is in play, there is no frame: the whole map is drawn.

use crate::engine::PhaseResult;
use crate::model::map::ProvinceId;
use crate::model::orders::OrderKind;
use crate::model::scenario::Scenario;

use super::layout::{self, Layout, MARGIN, Rect};

/// The most a crop enlarges the drawing (the frame is at least this fraction of the map wide).
const MAX_ZOOM: f64 = 2.5;
/// A frame wider than this fraction of the map is not worth cropping to.
const MOST: f64 = 0.8;
/// The tallest frame, as a multiple of its width.
const TALLEST: f64 = 1.25;
/// Room around a footprint for what is drawn beside a node (a dislodged unit, a standoff's star,
/// a hold's ring).
const BESIDE: f64 = 6.0;

/// The provinces the position is about (see the module's doc), as a flag per province.
pub(super) fn in_play(s: &Scenario, result: Option<&PhaseResult>) -> Vec<bool> {
    let map = &s.map;
    let mut on = vec![false; map.province_count()];
    let mut mark = |p: ProvinceId| {
        if let Some(f) = on.get_mut(p.0 as usize) {
            *f = true;
        }
    };
    for u in &s.units {
        mark(map.province_of(u.loc));
    }
    for d in &s.dislodged {
        mark(map.province_of(d.unit.loc));
        mark(d.attacker_from);
    }
    for p in &s.contested {
        mark(*p);
    }
    for o in &s.orders {
        if let Some(u) = &o.order.unit {
            mark(u.loc.province);
        }
        match &o.order.kind {
            OrderKind::Move { dest, path, .. } => {
                mark(dest.province);
                path.iter().for_each(|p| mark(*p));
            }
            OrderKind::Support { target, dest } => {
                mark(target.unit.loc.province);
                if let Some(d) = dest {
                    mark(d.province);
                }
            }
            OrderKind::Convoy { army, dest } => {
                mark(army.unit.loc.province);
                mark(dest.province);
            }
            _ => {}
        }
    }
    if let Some(r) = result {
        for d in &r.dislodged {
            mark(map.province_of(d.unit.loc));
            mark(d.attacker_from);
        }
        for p in &r.contested {
            mark(*p);
        }
    }
    on
}

/// The median distance between the nodes of neighbouring provinces (0 for a map without
/// borders).
fn border_length(s: &Scenario, lay: &Layout) -> f64 {
    let mut d: Vec<f64> = Vec::new();
    for p in s.map.province_ids() {
        let a = lay.center(p);
        for q in layout::neighbours(&s.map, p) {
            if q > p {
                let b = lay.center(q);
                d.push((a.0 - b.0).hypot(a.1 - b.1));
            }
        }
    }
    d.sort_by(f64::total_cmp);
    d.get(d.len() / 2).copied().unwrap_or(0.0)
}

fn grow(r: Rect, by: f64) -> Rect {
    Rect {
        x0: r.x0 - by,
        y0: r.y0 - by,
        x1: r.x1 + by,
        y1: r.y1 + by,
    }
}

fn take_in(r: Rect, (x, y): (f64, f64), pad: f64) -> Rect {
    Rect {
        x0: r.x0.min(x - pad),
        y0: r.y0.min(y - pad),
        x1: r.x1.max(x + pad),
        y1: r.y1.max(y + pad),
    }
}

/// `r`'s extent along one axis widened to at least `len` about its middle, then moved (not
/// shrunk) to lie inside `lo..hi` where it fits; cut to `lo..hi` where it does not.
fn fit(a: f64, b: f64, len: f64, lo: f64, hi: f64) -> (f64, f64) {
    let (mut a, mut b) = if b - a < len {
        let m = (a + b) / 2.0;
        (m - len / 2.0, m + len / 2.0)
    } else {
        (a, b)
    };
    if b - a >= hi - lo {
        return (lo, hi);
    }
    if a < lo {
        (a, b) = (lo, lo + (b - a));
    }
    if b > hi {
        (a, b) = (hi - (b - a), hi);
    }
    (a, b)
}

/// The frame of the position's action in the layout's units, or `None` for the whole map (see
/// the module's doc for the rule).
pub(super) fn action(s: &Scenario, result: Option<&PhaseResult>, lay: &Layout) -> Option<Rect> {
    let on = in_play(s, result);
    let mut core: Option<Rect> = None;
    for p in s.map.province_ids() {
        if on.get(p.0 as usize) == Some(&true) {
            let f = grow(lay.footprint(p), BESIDE);
            core = Some(core.map_or(f, |c| c.union(&f)));
        }
    }
    let core = grow(core?, MARGIN / 2.0);
    let reach = grow(core, border_length(s, lay));
    let mut frame = core;
    for p in s
        .map
        .province_ids()
        .filter(|p| on.get(p.0 as usize) == Some(&true))
    {
        for q in layout::neighbours(&s.map, p) {
            let (x, y) = lay.center(q);
            let near = (x.clamp(reach.x0, reach.x1), y.clamp(reach.y0, reach.y1));
            frame = take_in(frame, near, layout::NODE_R + 2.0);
        }
    }
    let map = lay.bounds;
    let map_w = map.x1 - map.x0;
    let wide = (frame.x1 - frame.x0)
        .max((frame.y1 - frame.y0) / TALLEST)
        .max(map_w / MAX_ZOOM);
    let (x0, x1) = fit(frame.x0, frame.x1, wide, map.x0, map.x1);
    let (y0, y1) = fit(frame.y0, frame.y1, 0.0, map.y0, map.y1);
    if x1 - x0 > MOST * map_w {
        return None;
    }
    Some(Rect { x0, y0, x1, y1 })
}
