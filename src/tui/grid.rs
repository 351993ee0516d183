//! The board's cells: the map's art (for a map without art, art generated for it, or if that
//! fails a list layout) and the anchor of every province, built once per map and kept
//! ([`BoardArt`]); the viewport that pans to keep the
//! selection in view; and the board's hit-testing (the province under a click, the neighbour in
//! a direction). Nothing here knows the app.

use std::sync::Arc;

use ratatui::layout::Rect;

use super::layout::{Panes, board_area};
use dipsandbox_core::model::art::MapArt;
use dipsandbox_core::model::map::{Map, ProvinceId};

/// Cells of a list entry's name (a longer name is cut with `…`).
pub const LIST_NAME: usize = 15;
/// The longest abbreviation a list entry shows whole (a longer one is cut with `…`).
pub const LIST_LABEL_MAX: usize = 12;

/// The board's cells: art lines and the anchor of every province.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grid {
    /// Width in cells.
    pub width: u16,
    /// Height in cells.
    pub height: u16,
    /// The background text, one string per row.
    pub lines: Vec<String>,
    /// Per province, the cell of its abbreviation's first letter.
    pub anchors: Vec<(u16, u16)>,
    /// Whether this is art, the map's or generated (else the list layout).
    pub art: bool,
    /// Cells of the label at each anchor, the centre mark right after them: 3 on art (a slot's
    /// letters; a longer abbreviation runs on over the art); on the list, the longest
    /// abbreviation (at most [`LIST_LABEL_MAX`], longer ones cut).
    pub label: u16,
    /// Cells of one entry of the list (0 on art).
    pub entry: u16,
    /// The art with its regions (the map's, or generated for it), if this is art.
    pub model: Option<Arc<MapArt>>,
}

impl Grid {
    /// The art with its regions, if the board shows art.
    pub fn art(&self) -> Option<&MapArt> {
        self.model.as_deref()
    }
}

/// Cuts a string to `width` characters, with `…` when cut.
pub fn fit(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return s.to_string();
    }
    let mut out: String = s.chars().take(width.saturating_sub(1)).collect();
    if width > 0 {
        out.push('…');
    }
    out
}

/// The grid of some art.
fn art_grid(map: &Map, art: MapArt) -> Grid {
    Grid {
        width: art.width(),
        height: art.height(),
        lines: art.lines().to_vec(),
        anchors: map.province_ids().map(|p| art.anchor(p)).collect(),
        art: true,
        label: 3,
        entry: 0,
        model: Some(Arc::new(art)),
    }
}

/// The grid for a map in a board `width` cells wide: its art, else art generated for it, else
/// (should generation fail) a list layout.
pub fn grid(map: &Map, width: u16) -> Grid {
    if let Some(art) = map.art() {
        return art_grid(map, art.clone());
    }
    if let Ok((_, art)) = dipsandbox_core::tools::art_gen::generate_map(map) {
        return art_grid(map, art);
    }
    list_grid(map, width)
}

/// The list layout: columns of `Aabbr* Name`, filled top to bottom, as many as fit in `width`
/// (more, panned to, when a column would be more than 65,535 rows). An entry is as wide as the
/// longest abbreviation needs (it was once 22 cells, room for three letters, and counted in
/// 16 bits, so long abbreviations ran into their names and a map of over 65,535 provinces drew
/// entries over others).
pub fn list_grid(map: &Map, width: u16) -> Grid {
    let n = map.province_count();
    let label = map
        .province_ids()
        .map(|p| map.province(p).abbr.chars().count())
        .max()
        .unwrap_or(1)
        .clamp(1, LIST_LABEL_MAX);
    // The unit's cell, the abbreviation, the centre mark, a space, the name, a space.
    let entry = 1 + label + 1 + 1 + LIST_NAME + 1;
    let cols = (usize::from(width) / entry)
        .max(1)
        .max(n.div_ceil(usize::from(u16::MAX)));
    let rows = n.div_ceil(cols).max(1);
    // (A map has at most 2^26 provinces: at most 1,025 columns of 31 cells, so every cell
    // number below fits in 16 bits; saturated all the same rather than wrapped.)
    let cell = |v: usize| u16::try_from(v).unwrap_or(u16::MAX);
    let mut lines = vec![String::new(); rows];
    // Characters in each line so far (names need not be ASCII).
    let mut filled = vec![0usize; rows];
    let mut anchors = Vec::with_capacity(n);
    for (i, p) in map.province_ids().enumerate() {
        let (c, r) = (i / rows, i % rows);
        let x = c * entry + 1;
        anchors.push((cell(x), cell(r)));
        let (Some(line), Some(len)) = (lines.get_mut(r), filled.get_mut(r)) else {
            continue;
        };
        let start = x + label + 2;
        line.extend(std::iter::repeat_n(' ', start.saturating_sub(*len)));
        let name = fit(&map.province(p).name, LIST_NAME);
        *len = start.max(*len) + name.chars().count();
        line.push_str(&name);
    }
    Grid {
        width: cell(cols * entry),
        height: cell(rows),
        lines,
        anchors,
        art: false,
        label: cell(label),
        entry: cell(entry),
        model: None,
    }
}

/// The grid of the map on the board, kept between frames: rebuilt only when the map changes
/// (or, for the list layout, the terminal's size).
#[derive(Clone, Debug, Default)]
pub struct BoardArt {
    /// The map it was built for.
    map: Option<Arc<Map>>,
    /// The terminal size it was built for (matters only for the list layout).
    size: (u16, u16),
    /// The grid.
    pub grid: Grid,
}

impl BoardArt {
    /// Brings the grid up to date with `map` in a terminal of `size`, the board being
    /// `board_width(size)` cells wide. Cheap when nothing changed: a pointer comparison (and the
    /// width is worked out only when it matters).
    pub fn refresh(&mut self, map: &Arc<Map>, size: (u16, u16), board_width: impl FnOnce() -> u16) {
        let same_map = self.map.as_ref().is_some_and(|m| Arc::ptr_eq(m, map));
        if same_map && (self.grid.art || self.size == size) {
            return;
        }
        self.grid = grid(map, 0);
        if !self.grid.art {
            self.grid = list_grid(map, board_width());
        }
        self.map = Some(map.clone());
        self.size = size;
    }
}

/// The grid cell shown at the top-left of the board area (the board pans to keep the selected
/// province in view when the grid does not fit, moved by `pan` cells).
pub fn viewport(g: &Grid, selected: Option<ProvinceId>, pan: (i32, i32), view: Rect) -> (u16, u16) {
    let (ax, ay) = selected
        .and_then(|p| g.anchors.get(p.0 as usize).copied())
        .unwrap_or((0, 0));
    let shift = |a: u16, d: i32, size: u16| (i32::from(a) + d).clamp(0, i32::from(size)) as u16;
    let center = (shift(ax, pan.0, g.width), shift(ay, pan.1, g.height));
    let off = |c: u16, size: u16, view: u16| -> u16 {
        if size <= view {
            0
        } else {
            c.saturating_sub(view / 2).min(size - view)
        }
    };
    (
        off(center.0, g.width, view.width),
        off(center.1, g.height, view.height),
    )
}

/// The width of the board's map area in `panes` (80 when the board is not shown).
pub fn board_width(panes: &Panes) -> u16 {
    panes.board.map_or(80, |r| board_area(r).0.width)
}

/// The province in a direction from the selected one (the first one when none is selected).
pub fn neighbour(
    map: &Map,
    g: &Grid,
    selected: Option<ProvinceId>,
    dx: i8,
    dy: i8,
) -> Option<ProvinceId> {
    let Some(from) = selected else {
        return map.province_ids().next();
    };
    if let Some(art) = g.art() {
        return art.nearest_in_direction(from, dx, dy);
    }
    // List layout: down/up walk the list, left/right jump a column.
    let n = map.province_count() as isize;
    let rows = g.height as isize;
    let i = from.0 as isize;
    let j = i + dy as isize + dx as isize * rows;
    (0..n).contains(&j).then_some(ProvinceId(j as u32))
}

/// The province under a click at (x, y).
pub fn province_at(
    map: &Map,
    g: &Grid,
    selected: Option<ProvinceId>,
    pan: (i32, i32),
    panes: &Panes,
    x: u16,
    y: u16,
) -> Option<ProvinceId> {
    let (view, _) = board_area(panes.board?);
    if !view.contains((x, y).into()) {
        return None;
    }
    let (ox, oy) = viewport(g, selected, pan, view);
    let gx = x - view.x + ox;
    let gy = y - view.y + oy;
    if let Some(p) = g.art().and_then(|art| art.province_at(gx, gy)) {
        return Some(p);
    }
    // On a slot (or a list entry): the province whose anchor row and columns contain it.
    map.province_ids().find(|p| {
        let Some(&(ax, ay)) = g.anchors.get(p.0 as usize) else {
            return false;
        };
        let right = if g.art {
            ax + 4
        } else {
            ax.saturating_add(g.entry).saturating_sub(1)
        };
        ay == gy && gx + 1 >= ax && gx < right
    })
}
