//! Where each province is drawn: the map's positions (or, for a map without them, points
//! derived from its board art or a layout of its borders), scaled to the picture's width and
//! pushed apart until no two provinces' footprints (node and label) overlap.

use crate::model::map::{Map, ProvinceId};
use crate::tools::art_gen::layout::layout;

/// Radius of a province's node, in picture units.
pub const NODE_R: f64 = 11.0;
/// Height of a label box (font size 9 plus a little).
pub const LABEL_H: f64 = 11.0;
/// Width of one label character (a sans-serif 9 px font's lower-case letters are narrower).
pub const CHAR_W: f64 = 5.6;
/// Gap between a node and its label.
const LABEL_GAP: f64 = 2.0;
/// Room left around footprints when they are pushed apart.
const PAD: f64 = 3.0;
/// Margin around the map.
pub const MARGIN: f64 = 16.0;

/// One art cell is this many picture units across and down (a terminal cell is about twice as
/// tall as it is wide).
const ART_CELL: (f64, f64) = (10.0, 21.0);
/// A layout's neighbours end up about one unit apart: this many picture units.
const LAYOUT_UNIT: f64 = 60.0;

/// The distance between neighbouring provinces at which a map is drawn no further apart.
const SPARSE: f64 = 95.0;

/// The median over the points of the distance to the nearest other point (0 for fewer than
/// two).
fn median_nearest(pts: &[(f64, f64)]) -> f64 {
    let mut d: Vec<f64> = pts
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            pts.iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, b)| (a.0 - b.0).hypot(a.1 - b.1))
                .filter(|x| *x > 0.0)
                .min_by(f64::total_cmp)
        })
        .collect();
    d.sort_by(f64::total_cmp);
    d.get(d.len() / 2).copied().unwrap_or(0.0)
}

/// An axis-aligned box: left, top, right, bottom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x0: f64,
    /// Top edge.
    pub y0: f64,
    /// Right edge.
    pub x1: f64,
    /// Bottom edge.
    pub y1: f64,
}

impl Rect {
    /// Whether two boxes share any area (touching edges do not count).
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// The smallest box holding both.
    pub fn union(&self, o: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }
}

/// The provinces placed for drawing.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Per province (by id), the centre of its node.
    pub centers: Vec<(f64, f64)>,
    /// Per province, the longest label it may show (its abbreviation, or with a coast: `spa/sc`),
    /// in characters.
    label_len: Vec<usize>,
    /// The box around every footprint, with the margin.
    pub bounds: Rect,
}

impl Layout {
    /// The centre of a province's node ((0, 0) for an unknown id).
    pub fn center(&self, p: ProvinceId) -> (f64, f64) {
        self.centers
            .get(p.0 as usize)
            .copied()
            .unwrap_or((0.0, 0.0))
    }

    /// The box of a province's label, centred under its node.
    pub fn label_box(&self, p: ProvinceId) -> Rect {
        let (x, y) = self.center(p);
        let len = self.label_len.get(p.0 as usize).copied().unwrap_or(3);
        label_rect(x, y, len)
    }

    /// The box of a province's node and label together.
    pub fn footprint(&self, p: ProvinceId) -> Rect {
        let (x, y) = self.center(p);
        let len = self.label_len.get(p.0 as usize).copied().unwrap_or(3);
        footprint_rect(x, y, len)
    }
}

fn label_rect(x: f64, y: f64, len: usize) -> Rect {
    let w = len as f64 * CHAR_W + 2.0;
    let top = y + NODE_R + LABEL_GAP;
    Rect {
        x0: x - w / 2.0,
        y0: top,
        x1: x + w / 2.0,
        y1: top + LABEL_H,
    }
}

fn footprint_rect(x: f64, y: f64, len: usize) -> Rect {
    let node = Rect {
        x0: x - NODE_R - 4.0,
        y0: y - NODE_R - 4.0,
        x1: x + NODE_R + 4.0,
        y1: y + NODE_R,
    };
    node.union(&label_rect(x, y, len))
}

/// A point per province in the map's own units: its `position` where the map file gives one;
/// a province without one is placed among its neighbours that have one. A map with no
/// positions at all takes its board art's anchors, or else a layout of its borders (the one
/// `dipsandbox map art` uses).
pub fn province_points(map: &Map) -> Vec<(f64, f64)> {
    let n = map.province_count();
    let given: Vec<Option<(f64, f64)>> = map
        .province_ids()
        .map(|p| map.position(p).map(|(x, y)| (f64::from(x), f64::from(y))))
        .collect();
    if given.iter().all(Option::is_none) {
        if let Some(art) = map.art() {
            return map
                .province_ids()
                .map(|p| {
                    let (c, r) = art.anchor(p);
                    let len = map.province(p).abbr.len() as f64;
                    (
                        (f64::from(c) + len / 2.0) * ART_CELL.0,
                        (f64::from(r) + 0.5) * ART_CELL.1,
                    )
                })
                .collect();
        }
        let adj: Vec<Vec<usize>> = map
            .province_ids()
            .map(|p| {
                neighbours(map, p)
                    .into_iter()
                    .map(|q| q.0 as usize)
                    .collect()
            })
            .collect();
        return layout(n, &adj)
            .into_iter()
            .map(|(x, y)| (x * LAYOUT_UNIT, y * LAYOUT_UNIT))
            .collect();
    }
    fill_missing(map, given)
}

/// Every province bordering `p` (by army or fleet), each once.
pub fn neighbours(map: &Map, p: ProvinceId) -> Vec<ProvinceId> {
    let mut out: Vec<ProvinceId> = map.army_neighbours(p).to_vec();
    for l in map.locations_of(p) {
        out.extend(map.fleet_neighbours(l).iter().map(|m| map.province_of(*m)));
    }
    out.sort_unstable();
    out.dedup();
    out.retain(|q| *q != p);
    out
}

/// Places the provinces without a position at the mean of their placed neighbours (nudged so
/// two never coincide), repeating while that places more; any left go below the map.
fn fill_missing(map: &Map, mut pts: Vec<Option<(f64, f64)>>) -> Vec<(f64, f64)> {
    loop {
        let mut placed = false;
        for p in map.province_ids() {
            if pts.get(p.0 as usize).copied().flatten().is_some() {
                continue;
            }
            let near: Vec<(f64, f64)> = neighbours(map, p)
                .iter()
                .filter_map(|q| pts.get(q.0 as usize).copied().flatten())
                .collect();
            if near.is_empty() {
                continue;
            }
            let k = near.len() as f64;
            let (sx, sy) = near
                .iter()
                .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
            let nudge = f64::from(p.0 % 7) * 3.0 + 5.0;
            if let Some(slot) = pts.get_mut(p.0 as usize) {
                *slot = Some((sx / k + nudge, sy / k + nudge));
                placed = true;
            }
        }
        if !placed {
            break;
        }
    }
    let bottom = pts.iter().flatten().map(|p| p.1).fold(0.0_f64, f64::max);
    let mut spare = 0.0;
    pts.into_iter()
        .map(|p| {
            p.unwrap_or_else(|| {
                spare += 40.0;
                (spare, bottom + 40.0)
            })
        })
        .collect()
}

/// The provinces of `map` laid out for a picture `width` units wide: the points scaled to fit
/// the width inside the margins, then pushed apart until no two footprints overlap.
pub fn layout_map(map: &Map, width: u32) -> Layout {
    let pts = province_points(map);
    let label_len: Vec<usize> = map
        .provinces
        .iter()
        .map(|p| {
            let coast = if p.is_multi_coast() { 3 } else { 0 };
            p.abbr.chars().count() + coast
        })
        .collect();
    let (minx, maxx) = pts
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.0), b.max(p.0))
        });
    let miny = pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let span = (maxx - minx).max(1.0);
    let inner = (f64::from(width.max(100)) - 2.0 * MARGIN - 2.0 * NODE_R).max(50.0);
    // A sparse map (a few provinces) is not spread over the whole width: its provinces stay
    // about `SPARSE` apart, and the picture's viewBox shrinks around them, so that at the asked
    // width it is drawn larger rather than as small nodes far apart.
    let nn = median_nearest(&pts);
    let scale = if nn > 0.0 {
        (inner / span).min(SPARSE / nn)
    } else {
        inner / span
    };
    let mut centers: Vec<(f64, f64)> = pts
        .iter()
        .map(|(x, y)| {
            (
                MARGIN + NODE_R + (x - minx) * scale,
                MARGIN + NODE_R + 4.0 + (y - miny) * scale,
            )
        })
        .collect();
    separate(&mut centers, &label_len);
    let mut bounds: Option<Rect> = None;
    for (i, c) in centers.iter().enumerate() {
        let r = footprint_rect(c.0, c.1, label_len.get(i).copied().unwrap_or(3));
        bounds = Some(bounds.map_or(r, |b| b.union(&r)));
    }
    let b = bounds.unwrap_or(Rect {
        x0: 0.0,
        y0: 0.0,
        x1: 100.0,
        y1: 100.0,
    });
    Layout {
        centers,
        label_len,
        bounds: Rect {
            x0: b.x0.min(0.0) - MARGIN,
            y0: b.y0.min(0.0) - MARGIN,
            // At least three fifths of the width: a small map is drawn larger, not huge.
            x1: (b.x1 + MARGIN).max(b.x0.min(0.0) - MARGIN + 0.6 * f64::from(width)),
            y1: b.y1 + MARGIN,
        },
    }
}

/// Pushes overlapping footprints apart along the axis where they overlap least, half each way,
/// until none overlap; when rounds of that leave some (a crowded map in a narrow picture), the
/// whole layout is spread out a fifth and pushed again. Spreading always ends it: far enough
/// apart, no two footprints meet.
fn separate(centers: &mut [(f64, f64)], label_len: &[usize]) {
    for _spread in 0..40 {
        for _round in 0..200 {
            if !push_apart(centers, label_len) {
                return;
            }
        }
        let n = centers.len().max(1) as f64;
        let (cx, cy) = centers
            .iter()
            .fold((0.0, 0.0), |(a, b), c| (a + c.0 / n, b + c.1 / n));
        for c in centers.iter_mut() {
            *c = (cx + (c.0 - cx) * 1.2, cy + (c.1 - cy) * 1.2);
        }
    }
}

/// One round of pushing every overlapping pair apart; whether anything moved.
fn push_apart(centers: &mut [(f64, f64)], label_len: &[usize]) -> bool {
    let n = centers.len();
    let mut moved = false;
    for i in 0..n {
        for j in (i + 1)..n {
            let (Some(&a), Some(&b)) = (centers.get(i), centers.get(j)) else {
                continue;
            };
            let ra = pad(footprint_rect(
                a.0,
                a.1,
                label_len.get(i).copied().unwrap_or(3),
            ));
            let rb = pad(footprint_rect(
                b.0,
                b.1,
                label_len.get(j).copied().unwrap_or(3),
            ));
            if !ra.overlaps(&rb) {
                continue;
            }
            let dx = (ra.x1.min(rb.x1) - ra.x0.max(rb.x0)) / 2.0 + 0.01;
            let dy = (ra.y1.min(rb.y1) - ra.y0.max(rb.y0)) / 2.0 + 0.01;
            // Ties (the same point) are split by index so the result is deterministic.
            let sx = if b.0 > a.0 || (b.0 == a.0 && j > i) {
                1.0
            } else {
                -1.0
            };
            let sy = if b.1 > a.1 || (b.1 == a.1 && j > i) {
                1.0
            } else {
                -1.0
            };
            let (mx, my) = if dx <= dy {
                (dx * sx, 0.0)
            } else {
                (0.0, dy * sy)
            };
            if let Some(c) = centers.get_mut(i) {
                *c = (c.0 - mx, c.1 - my);
            }
            if let Some(c) = centers.get_mut(j) {
                *c = (c.0 + mx, c.1 + my);
            }
            moved = true;
        }
    }
    moved
}

fn pad(r: Rect) -> Rect {
    Rect {
        x0: r.x0 - PAD / 2.0,
        y0: r.y0 - PAD / 2.0,
        x1: r.x1 + PAD / 2.0,
        y1: r.y1 + PAD / 2.0,
    }
}
