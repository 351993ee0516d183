//! A map's board art: lines of ASCII text and, per province, an anchor where its label and unit
//! are drawn. A province's region — the cells a UI highlights and maps mouse clicks to — is the
//! 4-connected flood fill over blank cells from its anchor; every other character is a border.
//! Regions are computed once, when the map is loaded, without recursion.
//!
//! The slot at an anchor `(x, y)` is five cells of row `y`: `x-1` (the unit letter), `x..=x+2`
//! (the abbreviation) and `x+3` (the supply-centre mark). They must be blank.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): cells are indexed by (x, y)
// inside the art's width and height, which are measured from the lines the art is made of before
// the cell table is allocated.
#![allow(clippy::indexing_slicing)]

use crate::model::ids::ProvinceId;

const NONE: u16 = u16::MAX;

/// The largest art accepted, in either direction.
pub const MAX_ART_SIDE: usize = 1000;

/// Why art could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArtError {
    /// The province concerned, if any (index into the map's provinces).
    pub province: Option<usize>,
    /// The art line concerned, if any (0-based).
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// A map's board art with its regions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapArt {
    lines: Vec<String>,
    width: u16,
    height: u16,
    anchors: Vec<(u16, u16)>,
    /// Per cell (row-major), the province whose region holds it, or NONE.
    cell: Vec<u16>,
}

impl MapArt {
    /// Builds the art from its lines and one anchor per province (`names` for messages).
    pub fn new(
        lines: Vec<String>,
        anchors: &[Option<(u16, u16)>],
        names: &[&str],
    ) -> Result<MapArt, ArtError> {
        let err = |province: Option<usize>, line: Option<usize>, message: String| ArtError {
            province,
            line,
            message,
        };
        if let Some((i, l)) = lines.iter().enumerate().find(|(_, l)| !l.is_ascii()) {
            let (at, c) = l
                .chars()
                .enumerate()
                .find(|(_, c)| !c.is_ascii())
                .unwrap_or((0, '?'));
            return Err(err(
                None,
                Some(i),
                format!(
                    "art row {i} has the non-ASCII character {c:?} at column {at}; the art is plain ASCII, one character a cell"
                ),
            ));
        }
        let width = lines.iter().map(|l| l.len()).max().unwrap_or(0);
        let height = lines.len();
        if width > MAX_ART_SIDE || height > MAX_ART_SIDE {
            return Err(err(
                None,
                None,
                format!(
                    "art is {width}×{height}; at most {MAX_ART_SIDE}×{MAX_ART_SIDE} is accepted"
                ),
            ));
        }
        // Cells hold a province index in 16 bits (NONE is the border): checked before any
        // index is stored, so a bigger map is refused rather than wrapped.
        if anchors.len() >= NONE as usize {
            return Err(err(
                None,
                None,
                format!(
                    "a map with art has at most {} provinces; this one has {}",
                    NONE - 1,
                    anchors.len()
                ),
            ));
        }
        let lines: Vec<String> = lines.into_iter().map(|l| format!("{l:<width$}")).collect();
        let blank = |x: usize, y: usize| lines[y].as_bytes()[x] == b' ';
        let mut cell = vec![NONE; width * height];
        let mut out_anchors = Vec::with_capacity(anchors.len());
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for (i, a) in anchors.iter().enumerate() {
            let name = names.get(i).copied().unwrap_or("?");
            let Some((x, y)) = *a else {
                return Err(err(
                    Some(i),
                    None,
                    format!(
                        "province {} has no anchor; with art, every province needs `anchor: (x, y)`",
                        crate::model::error::quoted(name)
                    ),
                ));
            };
            let (x, y) = (x as usize, y as usize);
            if x < 1 || x + 3 >= width || y >= height {
                return Err(err(
                    Some(i),
                    None,
                    format!(
                        "the anchor ({x}, {y}) of {} puts its slot (columns {}..={}, row {y}) outside the {width}×{height} art",
                        crate::model::error::quoted(name),
                        x as isize - 1,
                        x + 3
                    ),
                ));
            }
            if let Some(bad) = (x - 1..=x + 3).find(|&c| !blank(c, y)) {
                return Err(err(
                    Some(i),
                    Some(y),
                    format!(
                        "the slot of {} at ({x}, {y}) is not blank: {:?} at column {bad}; columns {}..={} of row {y} must be spaces",
                        crate::model::error::quoted(name),
                        lines[y].as_bytes()[bad] as char,
                        x - 1,
                        x + 3
                    ),
                ));
            }
            let here = cell[y * width + x];
            if here != NONE {
                let other = names.get(here as usize).copied().unwrap_or("?");
                return Err(err(
                    Some(i),
                    Some(y),
                    format!(
                        "the anchor of {} lies in the region of {}: their regions meet; close the border between them",
                        crate::model::error::quoted(name),
                        crate::model::error::quoted(other)
                    ),
                ));
            }
            // Flood fill the region.
            stack.clear();
            stack.push((x, y));
            cell[y * width + x] = i as u16;
            while let Some((cx, cy)) = stack.pop() {
                // A fill covers its whole component, so a later anchor in it is reported
                // above: reaching another region here cannot happen.
                let mut visit = |nx: usize, ny: usize| {
                    let k = ny * width + nx;
                    if blank(nx, ny) && cell[k] == NONE {
                        cell[k] = i as u16;
                        stack.push((nx, ny));
                    }
                };
                if cx > 0 {
                    visit(cx - 1, cy);
                }
                if cx + 1 < width {
                    visit(cx + 1, cy);
                }
                if cy > 0 {
                    visit(cx, cy - 1);
                }
                if cy + 1 < height {
                    visit(cx, cy + 1);
                }
            }
            out_anchors.push((x as u16, y as u16));
        }
        Ok(MapArt {
            lines,
            width: width as u16,
            height: height as u16,
            anchors: out_anchors,
            cell,
        })
    }

    /// The art's lines (all padded to the width).
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// Width in cells.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// A province's anchor: the cell of its abbreviation's first letter. (0, 0) for an unknown
    /// province.
    pub fn anchor(&self, p: ProvinceId) -> (u16, u16) {
        self.anchors.get(p.0 as usize).copied().unwrap_or((0, 0))
    }

    /// The province whose region holds a cell; None on a border or outside the art.
    pub fn province_at(&self, x: u16, y: u16) -> Option<ProvinceId> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let c = self.cell[y as usize * self.width as usize + x as usize];
        (c != NONE).then_some(ProvinceId(u32::from(c)))
    }

    /// The cells of a province's region.
    pub fn cells(&self, p: ProvinceId) -> impl Iterator<Item = (u16, u16)> + '_ {
        let w = self.width as usize;
        self.cell
            .iter()
            .enumerate()
            .filter(move |(_, c)| u32::from(**c) == p.0)
            .map(move |(k, _)| ((k % w) as u16, (k / w) as u16))
    }

    /// The nearest province in a direction (`dx`, `dy` in -1..=1) from `p`'s label: among the
    /// labels within 60° of the direction (rows count double, as terminal cells are about twice
    /// as tall as wide), the one closest along it, a step aside costing twice a step ahead.
    pub fn nearest_in_direction(&self, p: ProvinceId, dx: i8, dy: i8) -> Option<ProvinceId> {
        if (dx, dy) == (0, 0) {
            return None;
        }
        let (px, py) = self.anchors.get(p.0 as usize).copied()?;
        let (px, py) = (px as i32 + 1, py as i32 * 2);
        let (dx, dy) = (dx as i32, dy as i32);
        let mut best: Option<(i32, usize)> = None;
        for (i, &(x, y)) in self.anchors.iter().enumerate() {
            if i == p.0 as usize {
                continue;
            }
            let (vx, vy) = (x as i32 + 1 - px, y as i32 * 2 - py);
            // Along the direction and across it (directions are axis-aligned or diagonal).
            let along = vx * dx + vy * dy;
            let across = (vx * dy - vy * dx).abs();
            if along <= 0 || across * 10 > along * 17 {
                continue;
            }
            let score = along + 2 * across;
            if best.is_none_or(|(s, _)| score < s) {
                best = Some((score, i));
            }
        }
        best.map(|(_, i)| ProvinceId(i as u32))
    }
}
