//! The board: the map's art (or, for a map without art, a list layout), each province's slot
//! (unit letter, abbreviation, supply-centre mark) at its anchor, the selection with its order's
//! target and supported / convoyed unit, and the results as of the stepper's cursor.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{Panes, fit, panel};
use crate::board::Unit;
use crate::map::{Map, PowerId, ProvinceId, ProvinceKind};
use crate::tui::app::App;
use crate::tui::keymap::Context;

/// Width of one entry of the list layout.
const LIST_COL: u16 = 22;
/// Rows under the board for the selection and the legend.
const FOOTER: u16 = 4;

/// The board's cells: art lines and the anchor of every province.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Width in cells.
    pub width: u16,
    /// Height in cells.
    pub height: u16,
    /// The background text, one string per row.
    pub lines: Vec<String>,
    /// Per province, the cell of its abbreviation's first letter.
    pub anchors: Vec<(u16, u16)>,
    /// Whether this is the map's art (else the list layout).
    pub art: bool,
}

/// The grid for a map in a board `width` cells wide.
pub fn grid(map: &Map, width: u16) -> Grid {
    if let Some(art) = map.art() {
        return Grid {
            width: art.width(),
            height: art.height(),
            lines: art.lines().to_vec(),
            anchors: map.province_ids().map(|p| art.anchor(p)).collect(),
            art: true,
        };
    }
    // List layout: columns of `Aabc* Name`, filled top to bottom.
    let n = map.province_count() as u16;
    let cols = (width / LIST_COL).max(1);
    let rows = n.div_ceil(cols).max(1);
    let mut lines = vec![String::new(); rows as usize];
    let mut anchors = Vec::with_capacity(n as usize);
    for (i, p) in map.province_ids().enumerate() {
        let (c, r) = (i as u16 / rows, i as u16 % rows);
        let x = c * LIST_COL + 1;
        anchors.push((x, r));
        let Some(line) = lines.get_mut(r as usize) else {
            continue;
        };
        let start = (x + 5) as usize;
        while line.chars().count() < start {
            line.push(' ');
        }
        line.push_str(&fit(&map.province(p).name, (LIST_COL - 7) as usize));
    }
    Grid {
        width: cols * LIST_COL,
        height: rows,
        lines,
        anchors,
        art: false,
    }
}

fn board_area(area: Rect) -> (Rect, Rect) {
    let inner = area.inner(Margin::new(1, 1));
    let footer = FOOTER.min(inner.height.saturating_sub(1));
    let map = Rect::new(inner.x, inner.y, inner.width, inner.height - footer);
    let foot = Rect::new(inner.x, inner.y + map.height, inner.width, footer);
    (map, foot)
}

/// The grid cell shown at the top-left of the board area (the board pans to keep the selected
/// province in view when the grid does not fit).
pub fn viewport(app: &App, g: &Grid, view: Rect) -> (u16, u16) {
    let center = app
        .province
        .and_then(|p| g.anchors.get(p.0 as usize).copied())
        .unwrap_or((0, 0));
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

/// Which units to show: before the phase (as of the cursor) or after it.
fn shown_units(app: &App) -> Vec<(Unit, Option<usize>)> {
    let s = &app.session;
    if app.after {
        let end = s.run.retreats.as_ref().unwrap_or(s.run.phase());
        end.final_units.iter().map(|u| (*u, None)).collect()
    } else {
        s.scenario()
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| (*u, Some(i)))
            .collect()
    }
}

fn put(buf: &mut Buffer, area: Rect, x: i32, y: i32, text: &str, style: Style) {
    for (k, ch) in text.chars().enumerate() {
        let cx = x + k as i32;
        if cx < area.x as i32 || y < area.y as i32 {
            continue;
        }
        let (cx, cy) = (cx as u16, y as u16);
        if cx >= area.right() || cy >= area.bottom() {
            continue;
        }
        if let Some(cell) = buf.cell_mut((cx, cy)) {
            cell.set_char(ch).set_style(style);
        }
    }
}

/// Draws the board panel.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let s = &app.session;
    let map = &s.scenario().map;
    let title = format!(
        " Board — {} — {} ",
        s.scenario().phase,
        if app.after { "after" } else { "before" }
    );
    frame.render_widget(panel(app, title, Context::Board), area);
    let (view, foot) = board_area(area);
    if view.width == 0 || view.height == 0 {
        return;
    }
    let g = grid(map, view.width);
    let (ox, oy) = viewport(app, &g, view);
    let t = &app.theme;
    let buf = frame.buffer_mut();
    // Background art.
    for (row, line) in g
        .lines
        .iter()
        .enumerate()
        .skip(oy as usize)
        .take(view.height as usize)
    {
        let y = view.y as i32 + row as i32 - oy as i32;
        let text: String = line
            .chars()
            .skip(ox as usize)
            .take(view.width as usize)
            .collect();
        put(buf, view, view.x as i32, y, &text, t.land());
    }
    let at = |p: ProvinceId| -> (i32, i32) {
        let (x, y) = g.anchors.get(p.0 as usize).copied().unwrap_or((0, 0));
        (
            view.x as i32 + x as i32 - ox as i32,
            view.y as i32 + y as i32 - oy as i32,
        )
    };
    // Seas tinted, and the selected province's region.
    if let Some(art) = map.art() {
        for vy in 0..view.height {
            for vx in 0..view.width {
                let Some(p) = art.province_at(vx + ox, vy + oy) else {
                    continue;
                };
                let style = if Some(p) == app.province {
                    t.region()
                } else if map.province(p).kind == ProvinceKind::Sea {
                    t.sea_region()
                } else {
                    continue;
                };
                if let Some(cell) = buf.cell_mut((view.x + vx, view.y + vy)) {
                    cell.set_style(style);
                }
            }
        }
    }
    let owners = s.scenario().owners_or_home();
    let contested: Vec<ProvinceId> =
        if app.after || s.stepper().is_none_or(|st| st.cursor() == st.len()) {
            s.run.phase().contested.clone()
        } else {
            Vec::new()
        };
    let target = s.order_target(app.order);
    let helped = s.order_helped(app.order);
    let causes = s.order_cause_provinces(app.order);
    // Labels and centre marks.
    for p in map.province_ids() {
        let (x, y) = at(p);
        let prov = map.province(p);
        let mut label = prov.abbr.clone();
        let mut style = if prov.kind == ProvinceKind::Sea {
            t.sea()
        } else {
            Style::new()
        };
        if contested.contains(&p) {
            label = label.to_uppercase();
            style = t.standoff();
        }
        if Some(p) == helped {
            style = t.helped();
        }
        if causes.contains(&p) {
            style = t.cause();
        }
        if Some(p) == target {
            style = t.target();
        }
        if Some(p) == app.province {
            style = style.patch(t.selected());
        }
        put(buf, view, x, y, &label, style);
        if prov.supply_center {
            let st = match owners.get(p.0 as usize).copied().flatten() {
                Some(PowerId(o)) => t.power(o as usize),
                None => t.neutral(),
            };
            put(buf, view, x + 3, y, "*", st);
        }
    }
    // Units, with their results as of the cursor.
    for (u, idx) in shown_units(app) {
        let p = map.province_of(u.loc);
        let (x, y) = at(p);
        let dislodged = idx.is_some_and(|i| s.dislodged_now(i));
        let letter = u.kind.letter();
        let letter = if dislodged {
            letter.to_ascii_lowercase()
        } else {
            letter
        };
        let mut style = t
            .power(u.power.0 as usize)
            .add_modifier(ratatui::style::Modifier::BOLD);
        if dislodged {
            style = style.add_modifier(ratatui::style::Modifier::REVERSED);
        }
        put(buf, view, x - 1, y, &letter.to_string(), style);
        if let Some(i) = idx
            && let Some(moved) = s.moved_now(i)
            && Some(p) != app.province
        {
            let label = &map.province(p).abbr;
            let st = if moved { t.moved() } else { t.failed() };
            put(buf, view, x, y, label, st);
        }
    }
    draw_footer(frame, app, foot);
}

fn draw_footer(frame: &mut Frame, app: &App, foot: Rect) {
    if foot.height == 0 {
        return;
    }
    let s = &app.session;
    let map = &s.scenario().map;
    let t = &app.theme;
    let mut lines = Vec::new();
    // The selection.
    let sel = match app.province {
        Some(p) => {
            let prov = map.province(p);
            let mut spans = vec![Span::styled(
                format!("{} {}", prov.abbr, prov.name),
                t.focus(),
            )];
            if prov.supply_center {
                let owner = s
                    .scenario()
                    .owners_or_home()
                    .get(p.0 as usize)
                    .copied()
                    .flatten();
                spans.push(Span::raw(match owner {
                    Some(o) => format!(" (centre of {})", map.power(o).name),
                    None => " (neutral centre)".into(),
                }));
            }
            if let Some(i) = s.order_at(p) {
                let (g, st) = t.verdict(s.verdict_now(i));
                spans.push(Span::raw(" · "));
                spans.push(Span::styled(g, st));
                if let Some(o) = s.scenario().orders.get(i) {
                    spans.push(Span::raw(format!(" {}", o.text)));
                }
            }
            Line::from(spans)
        }
        None => Line::styled(
            "arrows / hjkl select a province, / finds one by name",
            t.dim(),
        ),
    };
    lines.push(sel);
    // The legend: power colours, then the marks.
    let mut legend = Vec::new();
    for (i, p) in map.powers.iter().enumerate() {
        legend.push(Span::styled(
            p.name.chars().take(3).collect::<String>(),
            t.power(i),
        ));
        legend.push(Span::raw(" "));
    }
    lines.push(Line::from(legend));
    lines.push(Line::from(vec![
        Span::raw("A/F army/fleet  * centre  "),
        Span::styled(
            "a",
            t.power(0).add_modifier(ratatui::style::Modifier::REVERSED),
        ),
        Span::raw(" dislodged  "),
        Span::styled("BUR", t.standoff()),
        Span::raw(" standoff"),
    ]));
    lines.push(Line::from(vec![
        Span::styled("mov", t.moved()),
        Span::raw(" moved  "),
        Span::styled("bnc", t.failed()),
        Span::raw(" failed  "),
        Span::styled("tgt", t.target()),
        Span::raw(" target  "),
        Span::styled("sup", t.helped()),
        Span::raw(" supported  "),
        Span::styled("why", t.cause()),
        Span::raw(" cause"),
    ]));
    frame.render_widget(Paragraph::new(lines), foot);
}

/// The province in a direction from the selected one (the first one when none is selected).
pub fn neighbour(app: &App, dx: i8, dy: i8) -> Option<ProvinceId> {
    let map = &app.session.scenario().map;
    let Some(from) = app.province else {
        return map.province_ids().next();
    };
    if let Some(art) = map.art() {
        return art.nearest_in_direction(from, dx, dy);
    }
    // List layout: down/up walk the list, left/right jump a column.
    let panes = app.panes();
    let width = panes.board.map_or(80, |r| board_area(r).0.width);
    let g = grid(map, width);
    let n = map.province_count() as isize;
    let rows = g.height as isize;
    let i = from.0 as isize;
    let j = i + dy as isize + dx as isize * rows;
    (0..n).contains(&j).then_some(ProvinceId(j as u32))
}

/// The province under a click at (x, y).
pub fn province_at(app: &App, panes: &Panes, x: u16, y: u16) -> Option<ProvinceId> {
    let area = panes.board?;
    let (view, _) = board_area(area);
    if !view.contains((x, y).into()) {
        return None;
    }
    let map = &app.session.scenario().map;
    let g = grid(map, view.width);
    let (ox, oy) = viewport(app, &g, view);
    let gx = x - view.x + ox;
    let gy = y - view.y + oy;
    if let Some(p) = map.art().and_then(|art| art.province_at(gx, gy)) {
        return Some(p);
    }
    // On a slot (or a list entry): the province whose anchor row and columns contain it.
    map.province_ids().find(|p| {
        let Some(&(ax, ay)) = g.anchors.get(p.0 as usize) else {
            return false;
        };
        let right = if g.art { ax + 4 } else { ax + LIST_COL - 1 };
        ay == gy && gx + 1 >= ax && gx < right
    })
}
