//! Board art generated for a map that has none: a Voronoi-style partition of a character grid.
//!
//! 1. Each province gets a point: its position when the map gives one (scaled to the grid),
//!    else a drawing of the adjacency graph ([`layout`]).
//! 2. Each province's slot (the five cells of [`MapArt`]: unit letter, abbreviation, centre mark)
//!    is placed as near its point as the slots already placed allow, the provinces nearest the
//!    middle first; slots keep a cell between them so a border fits. If a map is so crowded
//!    that a slot finds no room, all slots go on a regular lattice instead (which always has room,
//!    as the grid is sized for it). Then two provinces swap slots wherever that brings
//!    neighbours nearer (the sum of the distances between neighbours' slots shrinks).
//! 3. Every other cell goes to the nearest slot it can reach: regions grow from the slots in
//!    order of distance (rows count double, as a terminal cell is about twice as tall as wide),
//!    so each region is connected.
//! 4. A cell whose right or lower neighbour belongs to another province becomes a border, as do
//!    the frame and any blank cell cut off from its province's slot. Border glyphs follow the
//!    border's direction (`-`, `|`, `+`, `/`, `\`); a border with sea on every side is `~`.
//!
//! [`write`](mod@write) puts the generated art into a map file (`dipsandbox map art`).
//!
//! The result is checked by [`MapArt::new`] exactly like hand-made art. Deterministic, no
//! recursion; a few milliseconds for 80 provinces.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): the grids are `w` × `h`
// tables indexed by cells inside them (loops over 0..w and 0..h, or neighbours checked against
// the bounds first), and the per-province tables by province numbers below the input's count.
#![allow(clippy::indexing_slicing)]

pub mod layout;
pub mod write;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::model::art::{ArtError, MAX_ART_SIDE, MapArt};
use crate::model::map::{Map, ProvinceId, ProvinceKind};

/// The board's map area at 120×40 (the standard map's art is this size): generated art for up
/// to [`COMFORT`] provinces has this size, so the whole board shows without panning.
pub const BASE_SIZE: (usize, usize) = (73, 31);

/// The most provinces generated art fits in [`BASE_SIZE`]; larger maps get larger art (which
/// the board pans over).
pub const COMFORT: usize = 80;

const NONE: u32 = u32::MAX;

/// What the generator needs to know of a map.
#[derive(Clone, Debug, Default)]
pub struct ArtInput<'a> {
    /// Each province's abbreviation (for messages).
    pub names: Vec<&'a str>,
    /// Whether each province is a sea.
    pub sea: Vec<bool>,
    /// Pairs of neighbouring provinces (indices into `names`; out-of-range pairs are ignored).
    pub edges: Vec<(usize, usize)>,
    /// Each province's position, if known: x to the right, y downwards, in any unit.
    pub positions: Vec<Option<(f64, f64)>>,
}

impl<'a> ArtInput<'a> {
    /// The input for a map: its abbreviations, seas, army and fleet borders and positions.
    pub fn from_map(map: &'a Map) -> ArtInput<'a> {
        let mut edges = Vec::new();
        for p in map.province_ids() {
            for q in map.army_neighbours(p) {
                edges.push((p.0 as usize, q.0 as usize));
            }
            for l in map.locations_of(p) {
                for m in map.fleet_neighbours(l) {
                    edges.push((p.0 as usize, map.province_of(*m).0 as usize));
                }
            }
        }
        ArtInput {
            names: map
                .province_ids()
                .map(|p| map.province(p).abbr.as_str())
                .collect(),
            sea: map
                .province_ids()
                .map(|p| map.province(p).kind == ProvinceKind::Sea)
                .collect(),
            edges,
            positions: map
                .province_ids()
                .map(|p| map.position(p).map(|(x, y)| (f64::from(x), f64::from(y))))
                .collect(),
        }
    }
}

/// Generated art: lines of text and each province's anchor, in the form a map file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The art's lines, all of one width.
    pub lines: Vec<String>,
    /// Per province, the cell of its abbreviation's first letter.
    pub anchors: Vec<(u16, u16)>,
}

impl Generated {
    /// The art with its regions, checked like hand-made art (`names` for messages).
    pub fn art(&self, names: &[&str]) -> Result<MapArt, ArtError> {
        let anchors: Vec<Option<(u16, u16)>> = self.anchors.iter().map(|a| Some(*a)).collect();
        MapArt::new(self.lines.clone(), &anchors, names)
    }
}

/// Columns of a block: two inner cells and the border column on its left.
const BLOCK_W: usize = 3;
/// Rows of a block: one inner row and the border row above it.
const BLOCK_H: usize = 2;

/// How many slots (pairs of blocks side by side) the fallback lattice of `bw` × `bh` blocks has.
fn lattice_capacity(bw: usize, bh: usize) -> usize {
    (bw / 2) * bh
}

/// The size of the art generated for `n` provinces, in blocks ([`BLOCK_W`] × [`BLOCK_H`]
/// cells each, with one more cell for the closing border): [`BASE_SIZE`] up to [`COMFORT`]
/// provinces, then the same shape grown with the number of provinces.
fn blocks_for(n: usize) -> (usize, usize) {
    let base = ((BASE_SIZE.0 - 1) / BLOCK_W, (BASE_SIZE.1 - 1) / BLOCK_H);
    let (mut bw, mut bh) = base;
    if n > COMFORT {
        let s = (n as f64 / COMFORT as f64).sqrt();
        bw = (base.0 as f64 * s).ceil() as usize;
        bh = (base.1 as f64 * s).ceil() as usize;
    }
    // Room for every slot on the lattice, and some to spare for shapes.
    while lattice_capacity(bw, bh) < n.saturating_mul(2) && bw <= MAX_ART_SIDE {
        bw += 2;
        bh += 1;
    }
    (bw, bh)
}

/// Every province's point: its position, or where its positioned neighbours are, or (when the
/// map gives none, or some province is cut off from every position) the graph layout.
fn points(input: &ArtInput, adj: &[Vec<usize>]) -> Vec<(f64, f64)> {
    let n = input.names.len();
    let mut p: Vec<Option<(f64, f64)>> = (0..n)
        .map(|i| input.positions.get(i).copied().flatten())
        .map(|o| o.filter(|(x, y)| x.is_finite() && y.is_finite()))
        .collect();
    if p.iter().any(Option::is_some) {
        // Unplaced provinces at the mean of their placed neighbours, wave by wave.
        for _ in 0..n {
            let mut changed = false;
            for i in 0..n {
                if p[i].is_some() {
                    continue;
                }
                let known: Vec<(f64, f64)> = adj[i].iter().filter_map(|&j| p[j]).collect();
                if !known.is_empty() {
                    let k = known.len() as f64;
                    let (sx, sy) = known
                        .iter()
                        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
                    // A small fixed offset keeps it off a lone neighbour's point.
                    p[i] = Some((sx / k + 1.0 + i as f64 * 1e-3, sy / k + 1.0));
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        if p.iter().all(Option::is_some) {
            return p.into_iter().map(|o| o.unwrap_or((0.0, 0.0))).collect();
        }
    }
    layout::layout(n, adj)
}

/// Generates art for `input`.
pub fn generate(input: &ArtInput) -> Result<Generated, ArtError> {
    let n = input.names.len();
    let (bw, bh) = blocks_for(n);
    let (w, h) = (bw * BLOCK_W + 1, bh * BLOCK_H + 1);
    if w > MAX_ART_SIDE || h > MAX_ART_SIDE || n >= NONE as usize {
        return Err(ArtError {
            province: None,
            line: None,
            message: format!(
                "{n} provinces need art of {w}×{h}; at most {MAX_ART_SIDE}×{MAX_ART_SIDE} is accepted"
            ),
        });
    }
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in &input.edges {
        if a < n && b < n && a != b {
            adj[a].push(b);
            adj[b].push(a);
        }
    }
    for l in adj.iter_mut() {
        l.sort_unstable();
        l.dedup();
    }
    let pts = points(input, &adj);
    // Scale the points into the range of slot centres (in blocks: a slot's left block plus
    // one half), a little inside.
    let (x_lo, x_hi) = (1.5, bw as f64 - 1.5);
    let (y_lo, y_hi) = (0.5, bh as f64 - 0.5);
    let fit = |v: f64, lo: f64, hi: f64, a: f64, b: f64| -> f64 {
        if b - a < 1e-9 {
            (lo + hi) / 2.0
        } else {
            lo + (v - a) / (b - a) * (hi - lo)
        }
    };
    let min_max = |f: fn(&(f64, f64)) -> f64| {
        pts.iter()
            .map(f)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            })
    };
    let (ax, bx) = min_max(|p| p.0);
    let (ay, by) = min_max(|p| p.1);
    let targets: Vec<(f64, f64)> = pts
        .iter()
        .map(|&(x, y)| (fit(x, x_lo, x_hi, ax, bx), fit(y, y_lo, y_hi, ay, by)))
        .collect();
    let mut slots = place(&targets, bw, bh)
        .or_else(|| place_lattice(&targets, bw, bh))
        .ok_or_else(|| ArtError {
            province: None,
            line: None,
            message: format!("no room for {n} slots in {w}×{h} art"),
        })?;
    swap_closer(&mut slots, &adj);
    let owner = grow(&slots, bw, bh);
    let lines = draw(&owner, &input.sea, bw, bh);
    Ok(Generated {
        lines,
        anchors: slots
            .iter()
            .map(|&(i, j)| ((i * BLOCK_W + 2) as u16, (j * BLOCK_H + 1) as u16))
            .collect(),
    })
}

/// The squared distance (in cells, rows doubled) from a slot whose left block is `(i, j)` to a
/// target slot centre given in blocks.
fn cost(i: usize, j: usize, t: (f64, f64)) -> f64 {
    let dx = (i as f64 + 1.0 - t.0) * BLOCK_W as f64;
    let dy = (j as f64 + 0.5 - t.1) * (2 * BLOCK_H) as f64;
    dx * dx + dy * dy
}

/// The provinces in the order their slots are placed: nearest the middle of the grid first.
fn order(targets: &[(f64, f64)], bw: usize, bh: usize) -> Vec<usize> {
    let mid = (bw as f64 / 2.0, bh as f64 / 2.0);
    let d = |t: (f64, f64)| {
        let (dx, dy) = ((t.0 - mid.0) * BLOCK_W as f64, (t.1 - mid.1) * 4.0);
        dx * dx + dy * dy
    };
    let mut order: Vec<usize> = (0..targets.len()).collect();
    order.sort_by(|&a, &b| d(targets[a]).total_cmp(&d(targets[b])).then(a.cmp(&b)));
    order
}

/// Each slot (a pair of free blocks side by side) as near its target as the slots already
/// placed allow; None if one finds no room.
fn place(targets: &[(f64, f64)], bw: usize, bh: usize) -> Option<Vec<(usize, usize)>> {
    let mut taken = vec![false; bw * bh];
    let mut slots = vec![(0, 0); targets.len()];
    for k in order(targets, bw, bh) {
        let t = targets[k];
        let mut best: Option<(f64, usize, usize)> = None;
        for j in 0..bh {
            for i in 0..bw.saturating_sub(1) {
                let c = cost(i, j, t);
                if best.is_some_and(|(b, _, _)| c >= b)
                    || taken[j * bw + i]
                    || taken[j * bw + i + 1]
                {
                    continue;
                }
                best = Some((c, i, j));
            }
        }
        let (_, i, j) = best?;
        taken[j * bw + i] = true;
        taken[j * bw + i + 1] = true;
        slots[k] = (i, j);
    }
    Some(slots)
}

/// Rounds of [`swap_closer`] at most.
const SWAP_ROUNDS: usize = 8;

/// Swaps the slots of two provinces wherever that shortens the borders: the sum over each
/// province's neighbours of the distance between their slots (rows doubled). Neighbours drawn
/// nearer touch more often. A few rounds over all pairs, each swap kept only if it helps.
fn swap_closer(slots: &mut [(usize, usize)], adj: &[Vec<usize>]) {
    let n = slots.len();
    let dist = |a: (usize, usize), b: (usize, usize)| -> f64 {
        let dx = (a.0 as f64 - b.0 as f64) * BLOCK_W as f64;
        let dy = (a.1 as f64 - b.1 as f64) * (2 * BLOCK_H) as f64;
        (dx * dx + dy * dy).sqrt()
    };
    // The length of `k`'s borders were it at `at`, with `other` (if given) at `other_at`.
    let length =
        |slots: &[(usize, usize)], k: usize, at: (usize, usize), swap: (usize, (usize, usize))| {
            adj[k]
                .iter()
                .map(|&m| {
                    let there = if m == swap.0 { swap.1 } else { slots[m] };
                    dist(at, there)
                })
                .sum::<f64>()
        };
    for _ in 0..SWAP_ROUNDS {
        let mut improved = false;
        for i in 0..n {
            for j in i + 1..n {
                let (si, sj) = (slots[i], slots[j]);
                let before = length(slots, i, si, (j, sj)) + length(slots, j, sj, (i, si));
                let after = length(slots, i, sj, (j, si)) + length(slots, j, si, (i, sj));
                if after + 1e-9 < before {
                    slots.swap(i, j);
                    improved = true;
                }
            }
        }
        if !improved {
            break;
        }
    }
}

/// Each slot on the nearest free point of a regular lattice (every other block of each row).
fn place_lattice(targets: &[(f64, f64)], bw: usize, bh: usize) -> Option<Vec<(usize, usize)>> {
    let mut free: Vec<(usize, usize)> = (0..bh)
        .flat_map(|j| (0..bw / 2).map(move |i| (2 * i, j)))
        .collect();
    let mut slots = vec![(0, 0); targets.len()];
    for k in order(targets, bw, bh) {
        let at = (0..free.len()).min_by(|&a, &b| {
            let (ca, cb) = (
                cost(free[a].0, free[a].1, targets[k]),
                cost(free[b].0, free[b].1, targets[k]),
            );
            ca.total_cmp(&cb).then(a.cmp(&b))
        })?;
        slots[k] = free.swap_remove(at);
    }
    Some(slots)
}

/// The province of every block: each slot's two blocks, then the others grown from them in
/// order of distance to the slot's centre, so every province's blocks are connected.
fn grow(slots: &[(usize, usize)], bw: usize, bh: usize) -> Vec<u32> {
    let mut owner = vec![NONE; bw * bh];
    let mut heap = BinaryHeap::new();
    let key = |i: usize, j: usize, k: usize| -> u64 {
        let (si, sj) = slots[k];
        // Twice the distance in columns from the slot's centre (between its two blocks).
        let dx = ((2 * i + 1) as i64 - (2 * si + 2) as i64).unsigned_abs() * BLOCK_W as u64;
        let dy = j.abs_diff(sj) as u64 * (4 * BLOCK_H) as u64;
        dx * dx + dy * dy
    };
    let push_around =
        |heap: &mut BinaryHeap<Reverse<(u64, usize, u32)>>, owner: &[u32], b: usize, k: u32| {
            let (i, j) = (b % bw, b / bw);
            let mut near = [None; 4];
            if i > 0 {
                near[0] = Some(b - 1);
            }
            if i + 1 < bw {
                near[1] = Some(b + 1);
            }
            if j > 0 {
                near[2] = Some(b - bw);
            }
            if j + 1 < bh {
                near[3] = Some(b + bw);
            }
            for m in near.into_iter().flatten() {
                if owner[m] == NONE {
                    heap.push(Reverse((key(m % bw, m / bw, k as usize), m, k)));
                }
            }
        };
    for (k, &(i, j)) in slots.iter().enumerate() {
        owner[j * bw + i] = k as u32;
        owner[j * bw + i + 1] = k as u32;
    }
    for b in 0..bw * bh {
        if owner[b] != NONE {
            push_around(&mut heap, &owner, b, owner[b]);
        }
    }
    while let Some(Reverse((_, b, k))) = heap.pop() {
        if owner[b] != NONE {
            continue;
        }
        owner[b] = k;
        push_around(&mut heap, &owner, b, k);
    }
    owner
}

/// The art's lines for blocks owned as `owner` says: borders on the block lines where the
/// owners differ, and the frame.
fn draw(owner: &[u32], sea: &[bool], bw: usize, bh: usize) -> Vec<String> {
    let (w, h) = (bw * BLOCK_W + 1, bh * BLOCK_H + 1);
    // The owner of block (i, j), NONE outside.
    let at = |i: isize, j: isize| -> u32 {
        if i < 0 || j < 0 || i as usize >= bw || j as usize >= bh {
            NONE
        } else {
            owner[j as usize * bw + i as usize]
        }
    };
    let is_sea = |o: u32| o != NONE && sea.get(o as usize).copied().unwrap_or(false);
    let mut grid = vec![b' '; w * h];
    // Vertical segments: the border column left of block (i, j), between it and (i-1, j).
    for j in 0..bh as isize {
        for i in 0..=bw as isize {
            let (a, b) = (at(i - 1, j), at(i, j));
            if a != b || a == NONE {
                let c = if is_sea(a) && is_sea(b) { b':' } else { b'|' };
                grid[(2 * j as usize + 1) * w + 3 * i as usize] = c;
            }
        }
    }
    // Horizontal segments: the border row above block (i, j), between it and (i, j-1).
    for j in 0..=bh as isize {
        for i in 0..bw as isize {
            let (a, b) = (at(i, j - 1), at(i, j));
            if a != b || a == NONE {
                let c = if is_sea(a) && is_sea(b) { b'~' } else { b'-' };
                let row = 2 * j as usize * w;
                grid[row + 3 * i as usize + 1] = c;
                grid[row + 3 * i as usize + 2] = c;
            }
        }
    }
    // Corners: where segments meet; a straight run goes through.
    for j in 0..=bh {
        for i in 0..=bw {
            let (x, y) = (3 * i, 2 * j);
            let left = x > 0 && grid[y * w + x - 1] != b' ';
            let right = x + 1 < w && grid[y * w + x + 1] != b' ';
            let up = y > 0 && grid[(y - 1) * w + x] != b' ';
            let down = y + 1 < h && grid[(y + 1) * w + x] != b' ';
            grid[y * w + x] = match (left || right, up || down) {
                (false, false) => b' ',
                (true, false) if left && right => grid[y * w + x - 1],
                (false, true) if up && down => grid[(y - 1) * w + x],
                _ => b'+',
            };
        }
    }
    grid.chunks(w)
        .map(|row| row.iter().map(|&b| char::from(b)).collect())
        .collect()
}

/// Generated art for `map` with its regions (whether or not the map has art of its own).
pub fn generate_map(map: &Map) -> Result<(Generated, MapArt), ArtError> {
    let input = ArtInput::from_map(map);
    let g = generate(&input)?;
    let art = g.art(&input.names)?;
    Ok((g, art))
}

/// The pairs of provinces whose regions touch on the art: both appear around one border cell
/// (its eight neighbours). Sorted, each pair once, lower id first.
pub fn touching(art: &MapArt) -> Vec<(ProvinceId, ProvinceId)> {
    let mut pairs = Vec::new();
    let mut around: Vec<ProvinceId> = Vec::with_capacity(8);
    for y in 0..art.height() {
        for x in 0..art.width() {
            if art.province_at(x, y).is_some() {
                continue;
            }
            around.clear();
            for ny in y.saturating_sub(1)..=y.saturating_add(1) {
                for nx in x.saturating_sub(1)..=x.saturating_add(1) {
                    if let Some(p) = art.province_at(nx, ny)
                        && !around.contains(&p)
                    {
                        around.push(p);
                    }
                }
            }
            for (i, a) in around.iter().enumerate() {
                for b in around.iter().skip(i + 1) {
                    pairs.push(if a.0 < b.0 { (*a, *b) } else { (*b, *a) });
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// How many of the map's borders (pairs of neighbouring provinces) touch on `art`, of how many.
pub fn borders_touching(map: &Map, art: &MapArt) -> (usize, usize) {
    let touch = touching(art);
    let mut edges: Vec<(u32, u32)> = ArtInput::from_map(map)
        .edges
        .iter()
        .map(|&(a, b)| (a.min(b) as u32, a.max(b) as u32))
        .filter(|(a, b)| a != b)
        .collect();
    edges.sort_unstable();
    edges.dedup();
    let hit = edges
        .iter()
        .filter(|(a, b)| {
            touch
                .binary_search(&(ProvinceId(*a), ProvinceId(*b)))
                .is_ok()
        })
        .count();
    (hit, edges.len())
}
