//! The board: the map's art (or art generated for a map without any), each province's slot
//! (unit letter, abbreviation, supply-centre mark) at its anchor, the selection with its order's
//! target and supported / convoyed unit, and the results as of the stepper's cursor.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::model::ViewModel;
use super::parts::panel;
use crate::tui::action::Action;
use crate::tui::grid::{fit, viewport};
use crate::tui::keymap::Context;
use crate::tui::layout::board_area;
use crate::tui::session::Session;
use dipsandbox_core::model::board::Unit;
use dipsandbox_core::model::map::{PowerId, ProvinceId, ProvinceKind};

/// Whether the stepper's cursor is at the end of the trace (or there is no trace to step).
fn at_end(s: &Session) -> bool {
    s.cursor().is_none_or(|c| c.cursor() >= c.len())
}

/// Which units to show, each with its index among the scenario's units when it is one of them:
/// before the phase, or after it — as of the cursor (a unit whose move has succeeded so far
/// stands at its destination), and at the end of the trace the phase's final position.
fn shown_units(vm: &ViewModel) -> Vec<(Unit, Option<usize>)> {
    let s = vm.session;
    if vm.after && at_end(s) {
        let end = s.run.retreats.as_ref().unwrap_or(s.run.phase());
        return end.final_units.iter().map(|u| (*u, None)).collect();
    }
    let map = &s.scenario().map;
    s.scenario()
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let mut u = *u;
            if vm.after && s.moved_now(i) == Some(true) {
                let to = match s.dp() {
                    Some(dp) => dp.location(i),
                    None => s
                        .unit_order(i)
                        .and_then(|o| s.order_target(o))
                        .map(|p| map.province(p).main),
                };
                if let Some(l) = to {
                    u.loc = l;
                }
            }
            (u, Some(i))
        })
        .collect()
}

/// The board's "before / after" word: after the phase, or as far as the cursor has got.
fn when(vm: &ViewModel) -> &'static str {
    match (vm.after, at_end(vm.session)) {
        (false, _) => "before",
        (true, true) => "after",
        (true, false) => "after, as of the cursor",
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
pub fn draw(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let s = vm.session;
    let map = &s.scenario().map;
    let title = format!(" Board — {} — {} ", s.scenario().phase, when(vm));
    frame.render_widget(panel(vm, title, Context::Board), area);
    let (view, foot) = board_area(area);
    if view.width == 0 || view.height == 0 {
        return;
    }
    let g = vm.grid;
    let (ox, oy) = viewport(g, vm.province, vm.pan, view);
    let t = &vm.theme;
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
    if let Some(art) = g.art() {
        for vy in 0..view.height {
            for vx in 0..view.width {
                let Some(p) = art.province_at(vx + ox, vy + oy) else {
                    continue;
                };
                let style = if Some(p) == vm.province {
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
    let contested: Vec<ProvinceId> = if vm.after || at_end(s) {
        s.run.phase().contested.clone()
    } else {
        Vec::new()
    };
    let target = s.order_target(vm.order);
    let helped = s.order_helped(vm.order);
    let causes = s.order_cause_provinces(vm.order);
    // A province's label: its abbreviation, whole on art; on the list cut to the list's label
    // cells, so that it stays inside its entry.
    let label_of = |p: ProvinceId| {
        let abbr = &map.province(p).abbr;
        if g.art {
            abbr.clone()
        } else {
            fit(abbr, usize::from(g.label))
        }
    };
    // Labels and centre marks (right after the label cells).
    for p in map.province_ids() {
        let (x, y) = at(p);
        let prov = map.province(p);
        let mut label = label_of(p);
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
        if Some(p) == vm.province {
            style = style.patch(t.selected());
        }
        put(buf, view, x, y, &label, style);
        if prov.supply_center {
            let st = match owners.get(p.0 as usize).copied().flatten() {
                Some(PowerId(o)) => t.power(o as usize),
                None => t.neutral(),
            };
            put(buf, view, x + i32::from(g.label), y, "*", st);
        }
    }
    // Units, with their results as of the cursor. A dislodged unit shares its province with
    // the unit that dislodged it: it is drawn one cell further left, lower case, reversed.
    // Where a second unit in a province goes: a blank cell of the art left of the unit, else
    // right of the label (and centre mark), else over the label's first letter.
    let spare = |p: ProvinceId| -> i32 {
        let (gx, gy) = g.anchors.get(p.0 as usize).copied().unwrap_or((0, 0));
        let line = g.lines.get(gy as usize);
        let blank = |dx: i32| {
            let x = gx as i32 + dx;
            x >= 0 && line.and_then(|l| l.chars().nth(x as usize)) == Some(' ')
        };
        let right = i32::from(g.label) + i32::from(map.province(p).supply_center);
        [-2, right].into_iter().find(|dx| blank(*dx)).unwrap_or(0)
    };
    let shown = shown_units(vm);
    let mut count = vec![0u8; map.provinces.len()];
    for (u, _) in &shown {
        if let Some(c) = count.get_mut(map.province_of(u.loc).0 as usize) {
            *c = c.saturating_add(1);
        }
    }
    let mut second = Vec::new();
    for (u, idx) in shown {
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
        // Two units in one province (as of the cursor, a move has come in): the one that
        // stood there goes to a spare cell.
        let stayed = idx.is_some_and(|i| s.scenario().units.get(i).is_some_and(|o| o.loc == u.loc));
        let shared = stayed && count.get(p.0 as usize).is_some_and(|c| *c > 1);
        if shared {
            second.push((x + spare(p), y, letter, style));
        } else {
            put(buf, view, x - 1, y, &letter.to_string(), style);
        }
        if let Some(i) = idx
            && let Some(moved) = s.moved_now(i)
            && Some(p) != vm.province
        {
            let label = label_of(p);
            let st = if moved { t.moved() } else { t.failed() };
            put(buf, view, x, y, &label, st);
        }
    }
    // Before a retreat phase (and after it, until the retreats are decided), the dislodged
    // units stand where they were dislodged.
    if !(vm.after && at_end(s)) {
        for d in &s.scenario().dislodged {
            let p = map.province_of(d.unit.loc);
            let (x, y) = at(p);
            let x = x + spare(p);
            let style = t
                .power(d.unit.power.0 as usize)
                .add_modifier(ratatui::style::Modifier::BOLD | ratatui::style::Modifier::REVERSED);
            second.push((x, y, d.unit.kind.letter().to_ascii_lowercase(), style));
        }
    }
    // Second units last: over the label when there is no blank cell for them.
    for (x, y, letter, style) in second {
        put(buf, view, x, y, &letter.to_string(), style);
    }
    draw_footer(
        frame,
        vm,
        foot,
        g.width > view.width || g.height > view.height,
    );
}

/// The selection line and the legend; `pans`: the board is larger than its panel.
fn draw_footer(frame: &mut Frame, vm: &ViewModel, foot: Rect, pans: bool) {
    if foot.height == 0 {
        return;
    }
    let s = vm.session;
    let map = &s.scenario().map;
    let t = &vm.theme;
    let mut lines = Vec::new();
    // The selection.
    let sel = match vm.province {
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
            // A unit dislodged here (a retreat phase), as the board draws it.
            let here: Vec<_> = s
                .scenario()
                .dislodged
                .iter()
                .filter(|d| map.province_of(d.unit.loc) == p)
                .collect();
            if !here.is_empty() {
                // The centre's owner makes room for it.
                spans.truncate(1);
            }
            for d in here {
                let power: String = map.power(d.unit.power).name.chars().take(3).collect();
                spans.push(Span::raw(" · "));
                spans.push(Span::styled(
                    format!(
                        "{power} {} {} dislodged, attacker from {}{}",
                        d.unit.kind.letter().to_ascii_lowercase(),
                        map.loc_abbr(d.unit.loc),
                        map.loc_abbr(map.province(d.attacker_from).main),
                        if d.by_convoy { " by convoy" } else { "" }
                    ),
                    t.power(d.unit.power.0 as usize)
                        .add_modifier(ratatui::style::Modifier::REVERSED),
                ));
            }
            if let Some(i) = s.order_at(p) {
                let (g, st) = t.verdict(s.verdict_now(i));
                spans.push(Span::raw(" · "));
                spans.push(Span::styled(g, st));
                if let Some(o) = s.scenario().orders.get(i) {
                    spans.push(Span::raw(format!(" {}", o.text)));
                }
            }
            Line::from(fit_spans(spans, foot.width as usize))
        }
        // How to select (and, on a board larger than its panel, to see the rest), with the
        // keys the keymap binds (a user's keys.ron may move them).
        None => Line::styled(board_hint(vm, pans, foot.width as usize), t.dim()),
    };
    lines.push(sel);
    // The legend: power colours, then the marks, in the rows left under the selection line.
    let mut powers: Vec<Key> = map
        .powers
        .iter()
        .enumerate()
        .map(|(i, p)| Key::new(p.name.chars().take(3).collect::<String>(), t.power(i), ""))
        .collect();
    // Neutral units (white, underlined: readable without colour) where the map or the
    // position has any.
    if !map.neutral_units.is_empty() || s.scenario().units.iter().any(|u| u.power.is_neutral()) {
        powers.push(Key::new("Neu", t.neutral_unit(), ""));
    }
    let units = vec![
        Key::new("A/F", Style::new(), " army/fleet"),
        Key::new("*", Style::new(), " centre"),
        Key::new(
            "a",
            t.power(0).add_modifier(ratatui::style::Modifier::REVERSED),
            " dislodged",
        ),
        Key::new("BUR", t.standoff(), " standoff"),
    ];
    let results = vec![
        Key::new("mov", t.moved(), " moved"),
        Key::new("bnc", t.failed(), " failed"),
        Key::new("tgt", t.target(), " target"),
        Key::new("sup", t.helped(), " helped"),
        Key::new("why", t.cause(), " cause"),
    ];
    let rows = (foot.height as usize).saturating_sub(1);
    lines.extend(legend_lines(
        &[(" ", powers), ("  ", units), ("  ", results)],
        foot.width as usize,
        rows,
    ));
    frame.render_widget(Paragraph::new(lines), foot);
}

/// One legend entry: a sample drawn as the board draws it, and what it means (in fewer letters
/// where a narrow panel needs it).
struct Key {
    sample: Span<'static>,
    meaning: &'static str,
    short: &'static str,
}

impl Key {
    fn new(
        sample: impl Into<std::borrow::Cow<'static, str>>,
        style: Style,
        meaning: &'static str,
    ) -> Key {
        Key {
            sample: Span::styled(sample, style),
            meaning,
            short: meaning,
        }
    }

    fn spans(&self, short: bool) -> [Span<'static>; 2] {
        let meaning = if short { self.short } else { self.meaning };
        [self.sample.clone(), Span::raw(meaning)]
    }
}

/// The legend's groups (each with the gap between its entries) in at most `rows` lines of
/// `width` cells, in the first of these forms that fits: a line per group; the entries flowing
/// from line to line, never split, two spaces between groups and marks; the same with the
/// shorter meanings; then one space apart. What still does not fit is cut with `…` on the last
/// line.
fn legend_lines(
    groups: &[(&'static str, Vec<Key>)],
    width: usize,
    rows: usize,
) -> Vec<Line<'static>> {
    if rows == 0 {
        return Vec::new();
    }
    let span_width = |e: &[Span]| e.iter().map(Span::width).sum::<usize>();
    // The entries in order: a new line for each group (`own_lines`) or where the next entry
    // does not fit, while `limit` allows.
    let flow = |own_lines: bool, wide: bool, short: bool, limit: usize| {
        let mut lines: Vec<Vec<Span<'static>>> = vec![Vec::new()];
        let mut used = 0;
        for (gi, (gap, keys)) in groups.iter().enumerate() {
            for (k, key) in keys.iter().enumerate() {
                let e = key.spans(short);
                let gap = match (wide, k) {
                    (false, _) => " ",
                    (true, 0) if gi > 0 => "  ",
                    (true, _) => *gap,
                };
                let w = span_width(&e);
                let new_group = own_lines && k == 0 && gi > 0;
                if used > 0 && (new_group || used + gap.len() + w > width) && lines.len() < limit {
                    lines.push(Vec::new());
                    used = 0;
                }
                if let Some(line) = lines.last_mut() {
                    if used > 0 {
                        line.push(Span::raw(gap));
                        used += gap.len();
                    }
                    line.extend(e);
                    used += w;
                }
            }
        }
        lines
    };
    let fits = |lines: &[Vec<Span<'static>>]| lines.iter().all(|l| span_width(l) <= width);
    for (own_lines, wide, short) in [
        (true, true, false),
        (false, true, false),
        (false, true, true),
        (false, false, true),
    ] {
        let lines = flow(own_lines, wide, short, usize::MAX);
        if lines.len() <= rows && fits(&lines) {
            return lines.into_iter().map(Line::from).collect();
        }
    }
    // Too little room: the last line takes the rest and is cut.
    flow(false, false, true, rows)
        .into_iter()
        .map(|l| Line::from(fit_spans(l, width)))
        .collect()
}

/// Spans cut to `width` characters, the last one kept ending in "…" when anything is cut.
fn fit_spans(spans: Vec<Span<'static>>, width: usize) -> Vec<Span<'static>> {
    let total: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    if total <= width {
        return spans;
    }
    let mut out = Vec::new();
    let mut room = width;
    for sp in spans {
        let n = sp.content.chars().count();
        if n < room {
            room -= n;
            out.push(sp);
        } else {
            let text = super::parts::fit(&sp.content, room);
            out.push(Span::styled(
                if text.ends_with('…') {
                    text
                } else {
                    let mut t: String = text.chars().take(room.saturating_sub(1)).collect();
                    t.push('…');
                    t
                },
                sp.style,
            ));
            break;
        }
    }
    out
}

/// The line under the board before a province is selected: the keys that select one (each
/// alternative: `←↓↑→ / hjkl`), the one that finds one by name, and the pan keys when the board
/// is larger than its panel — in words when they fit in `width`, else shorter.
fn board_hint(vm: &ViewModel, pans: bool, width: usize) -> String {
    let board_keys = |a: Action| -> Vec<String> {
        vm.keymap
            .bindings()
            .iter()
            .find(|b| b.context == Context::Board && b.action == a)
            .map(|b| b.keys.iter().map(ToString::to_string).collect())
            .unwrap_or_default()
    };
    // Single-character keys read as one word (`hjkl`); longer ones are spaced.
    let join = |keys: Vec<&String>| {
        let sep = if keys.iter().all(|k| k.chars().count() == 1) {
            ""
        } else {
            " "
        };
        keys.into_iter().cloned().collect::<Vec<_>>().join(sep)
    };
    let moves = [Action::Left, Action::Down, Action::Up, Action::Right].map(board_keys);
    let alternatives: Vec<String> = (0..moves.iter().map(Vec::len).max().unwrap_or(0))
        .map(|i| join(moves.iter().filter_map(|m| m.get(i)).collect()))
        .collect();
    let find = vm
        .keymap
        .key_for(Action::Goto)
        .map(|k| k.to_string())
        .unwrap_or_default();
    let pan_keys = [
        Action::PanLeft,
        Action::PanDown,
        Action::PanUp,
        Action::PanRight,
    ]
    .map(|a| vm.keymap.key_for(a).map(|k| k.to_string()));
    let pan_keys: Vec<&String> = pan_keys.iter().flatten().collect();
    let pan = (pans && !pan_keys.is_empty()).then(|| join(pan_keys));
    let select = alternatives.join(" / ");
    let first = alternatives.first().cloned().unwrap_or_default();
    let (pan_words, pan_short) = pan.map_or_else(Default::default, |p| {
        (format!(", {p} pan"), format!(" · {p} pan"))
    });
    let forms = [
        format!("{select} select a province, {find} finds one by name{pan_words}"),
        format!("{select} select · {find} find{pan_short}"),
        format!("{first} select · {find} find{pan_short}"),
    ];
    super::parts::first_fitting(forms, width)
}
