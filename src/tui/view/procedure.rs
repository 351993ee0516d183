//! The stepper when the DPjudge engine adjudicates: the procedure instead of the decision graph.
//! Two panels in the places of the decisions and the tree — every unit with its order, marks and
//! support count as of the cursor, and the combat lists of the spaces that have one — beside the
//! procedure's events (steps entered, marks set and removed, counts and lists changed), drawn
//! as any engine's trace ([`super::steps`]). The board shows the marks as of the cursor too (moves made,
//! bounces, dislodgements), through the session's `verdict_now` / `moved_now` /
//! `dislodged_now`.

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::model::ViewModel;
use super::parts::{fit, panel};
use crate::tui::keymap::Context;
use crate::tui::layout::scroll;
use dipsandbox_core::engine::dpjudge::{Entry, step_title};

/// The units panel (in the decisions' place).
pub fn draw_units(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let s = vm.session;
    let Some(dp) = s.dp() else { return };
    let units = &s.scenario().units;
    let title = match dp.step() {
        0 => " DPjudge: nothing done yet (step 1 comes first) ".to_string(),
        n => format!(" DPjudge: step {n} — {} ", step_title(n)),
    };
    frame.render_widget(panel(vm, title, Context::Units), area);
    let inner = area.inner(Margin::new(1, 1));
    let h = inner.height as usize;
    let top = scroll(vm.decision, units.len(), h);
    let touched = dp
        .cursor()
        .checked_sub(1)
        .map(|i| dipsandbox_core::engine::Steps::units(dp, i))
        .unwrap_or_default();
    let w = inner.width as usize;
    let t = &vm.theme;
    let mut lines = Vec::new();
    for u in top..(top + h).min(units.len()) {
        let here = if touched.contains(&u) { "▶" } else { " " };
        let marks = dp.marks(u);
        let order = match s.unit_order(u) {
            Some(i) => s.order_short(i),
            None => s.unit_text(u),
        };
        let state = if marks.is_empty() {
            format!("count {}", dp.support_count(u))
        } else {
            format!("count {} · {marks}", dp.support_count(u))
        };
        let room = w.saturating_sub(state.chars().count() + 2);
        let style = if marks.is_empty() {
            t.settled()
        } else {
            t.cycle()
        };
        let mut line = Line::from(vec![
            Span::styled(here, t.focus()),
            Span::raw(format!("{:<room$}", fit(&order, room))),
            Span::raw(" "),
            Span::styled(state, style),
        ]);
        if u == vm.decision {
            line = line.style(t.selected());
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The combat lists panel (in the tree's place): every space with a combat list, its entries
/// with their support counts, the selected unit's space first.
pub fn draw_combat(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let s = vm.session;
    let Some(dp) = s.dp() else { return };
    let sc = s.scenario();
    let map = &sc.map;
    frame.render_widget(
        panel(vm, " Combat lists (support counts) ", Context::Tree),
        area,
    );
    let inner = area.inner(Margin::new(1, 1));
    let t = &vm.theme;
    let label = |u: usize| match s.unit_order(u) {
        Some(i) => s.order_short(i),
        None => s.unit_text(u),
    };
    let selected_space = sc.units.get(vm.decision).map(|u| map.province_of(u.loc));
    let mut spaces: Vec<_> = map
        .province_ids()
        .filter(|p| !dp.combat(*p).is_empty())
        .collect();
    if let Some(p) = selected_space
        && let Some(i) = spaces.iter().position(|q| *q == p)
    {
        let p = spaces.remove(i);
        spaces.insert(0, p);
    }
    let mut lines = Vec::new();
    for p in spaces {
        let entries = dp.combat(p);
        let parts: Vec<String> = entries
            .iter()
            .map(|e| {
                let what = match e.entry {
                    Entry::Order => label(e.unit),
                    Entry::Bounced => format!("{} (bounced back)", s.unit_text(e.unit)),
                };
                format!("{what} {}", dp.entry_count(*e))
            })
            .collect();
        let style = if Some(p) == selected_space {
            t.focus()
        } else {
            Style::new()
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{}: ", map.province(p).abbr), style),
            Span::raw(parts.join(" · ")),
        ]));
    }
    if lines.is_empty() {
        lines.push(Line::styled(
            "no combat lists yet (step 3 makes them)",
            t.dim(),
        ));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}
