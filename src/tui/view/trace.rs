//! The trace panel: the resolver's events in order, with the stepper's cursor. Rows above the
//! cursor have happened, rows below have not.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::model::ViewModel;
use super::parts::{self, fit, panel};
use crate::tui::keymap::Context;
use crate::tui::layout::{trace_rows, trace_split};
use dipsandbox_core::engine::decision::trace::{CycleKind, Event};
use dipsandbox_core::engine::value_text;

/// One event in words, with the style that marks its kind.
pub fn describe(vm: &ViewModel, index: usize) -> (String, Style) {
    let s = vm.session;
    let (Some(st), Some(m)) = (s.stepper(), s.run.result.decisions()) else {
        return (String::new(), Style::new());
    };
    let t = &vm.theme;
    let kind = |id: u32| m.graph.nodes.get(id as usize).map(|n| n.kind);
    match st.events().get(index) {
        Some(Event::Tightened { node, from, to, .. }) => {
            let Some(k) = kind(*node) else {
                return (String::new(), Style::new());
            };
            let settled = to.0 == to.1;
            (
                format!(
                    "{}: {} → {}",
                    s.node_subject(*node),
                    value_text(k, from.0, from.1),
                    value_text(k, to.0, to.1)
                ),
                if settled { t.settled() } else { t.open() },
            )
        }
        Some(Event::Resolved { node, value }) => (
            format!(
                "{} settled: {}",
                s.node_subject(*node),
                kind(*node)
                    .map(|k| value_text(k, *value, *value))
                    .unwrap_or_default()
            ),
            t.settled(),
        ),
        Some(Event::Visit { node }) => (format!("evaluate {}", s.node_subject(*node)), t.dim()),
        Some(Event::Start { bounds }) => (
            format!("start: {} decisions, none settled yet", bounds.len()),
            t.dim(),
        ),
        Some(Event::CycleFound {
            members,
            walk,
            kind: ck,
        }) => {
            let what = match ck {
                CycleKind::CircularMovement => "circular movement",
                CycleKind::ConvoyParadox => "convoy paradox",
            };
            let names: Vec<String> = walk.iter().map(|id| s.node_subject(*id)).collect();
            (
                format!(
                    "CYCLE ({what}) of {} decisions: {}",
                    members.len(),
                    names.join(" → ")
                ),
                t.cycle(),
            )
        }
        Some(Event::ConvoysCancelled { fleets }) => {
            let names: Vec<String> = fleets
                .iter()
                .filter_map(|f| s.scenario().units.get(*f))
                .map(|u| format!("{} {}", u.kind.letter(), s.scenario().map.loc_abbr(u.loc)))
                .collect();
            (
                if names.len() == 1 {
                    format!(
                        "Szykman: the convoy of {} is cancelled; the fleet holds",
                        names.join(", ")
                    )
                } else {
                    format!(
                        "Szykman: the convoys of {} are cancelled; the fleets hold",
                        names.join(", ")
                    )
                },
                t.forced(),
            )
        }
        Some(Event::BackupApplied { rule, forced }) => {
            let f: Vec<String> = forced
                .iter()
                .map(|(id, v)| {
                    format!(
                        "{} = {}",
                        s.node_subject(*id),
                        kind(*id).map(|k| value_text(k, *v, *v)).unwrap_or_default()
                    )
                })
                .collect();
            (
                format!(
                    "BACKUP RULE: {}{}",
                    rule.name(),
                    if f.is_empty() {
                        String::new()
                    } else {
                        format!(" — forced {}", f.join(", "))
                    }
                ),
                t.forced(),
            )
        }
        None => (String::new(), Style::new()),
    }
}

/// The decisions of the cycle event at the stepper's cursor, in walk order (the walk's
/// closing repeat of its first decision left out).
pub fn cycle_at_cursor(vm: &ViewModel) -> Option<Vec<String>> {
    let s = vm.session;
    let st = s.stepper()?;
    let applied = s.steps.partition_point(|&i| i < st.cursor());
    let k = *s.steps.get(applied.checked_sub(1)?)?;
    match st.events().get(k)? {
        Event::CycleFound { walk, .. } => {
            let mut w: Vec<u32> = walk.clone();
            if w.len() > 1 && w.first() == w.last() {
                w.pop();
            }
            Some(w.iter().map(|id| s.node_subject(*id)).collect())
        }
        _ => None,
    }
}

/// Draws the ring `pic` at the bottom of the first `free` rows of `inner`.
fn draw_ring(frame: &mut Frame, vm: &ViewModel, inner: Rect, free: u16, pic: Vec<String>) {
    let rows = u16::try_from(pic.len() + 1).unwrap_or(u16::MAX).min(free);
    let r = Rect::new(inner.x, inner.y + free - rows, inner.width, rows);
    frame.render_widget(ratatui::widgets::Clear, r);
    let mut text = vec![Line::styled("the cycle, as a ring:", vm.theme.dim())];
    text.extend(pic.into_iter().map(|l| Line::styled(l, vm.theme.cycle())));
    frame.render_widget(Paragraph::new(text), r);
}

/// Draws the panel.
pub fn draw(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let s = vm.session;
    let title = format!(" Trace ({} steps) ", s.steps.len());
    frame.render_widget(panel(vm, parts::title(&title, area), Context::Trace), area);
    let (inner, detail) = trace_split(area);
    let applied = s
        .stepper()
        .as_ref()
        .map_or(0, |st| s.steps.partition_point(|&i| i < st.cursor()));
    let (applied, top) = trace_rows(applied, s.steps.len(), inner);
    let w = inner.width as usize;
    let mut lines = Vec::new();
    for row in top..(top + inner.height as usize).min(s.steps.len() + 1) {
        let (text, style) = if row == 0 {
            ("start: every decision open".to_string(), vm.theme.dim())
        } else {
            describe(vm, s.steps.get(row - 1).copied().unwrap_or(0))
        };
        let num = format!("{row:>4} ");
        let future = row > applied;
        let style = if future { vm.theme.dim() } else { style };
        let mut line = Line::from(vec![
            Span::styled(num, vm.theme.dim()),
            Span::styled(fit(&text, w.saturating_sub(5)), style),
        ]);
        if row == applied {
            line = line.style(vm.theme.cursor());
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
    // A cycle at the cursor as a ring, at the bottom of the list (above the detail, which
    // may grow over the list), where it fits with a few rows of the list left.
    if let Some(names) = cycle_at_cursor(vm) {
        // The detail's rows: its separator and the event's words (as the detail draws them).
        let text = s.stepper().map_or(String::new(), |st| {
            let applied = s.steps.partition_point(|&i| i < st.cursor());
            let k = applied.saturating_sub(1);
            describe(vm, s.steps.get(k).copied().unwrap_or(0)).0
        });
        let need = parts::wrapped_rows(&[Line::raw(text)], inner.width, true) + 1;
        let grown = u16::try_from(need)
            .unwrap_or(u16::MAX)
            .saturating_sub(detail.map_or(0, |d| d.height));
        let free = inner.height.saturating_sub(grown);
        if let Some(pic) = super::ring::picture(
            &names,
            usize::from(inner.width),
            usize::from(free.saturating_sub(4)),
        ) {
            draw_ring(frame, vm, inner, free, pic);
        }
    }
    // The event at the cursor in full at the bottom (a cycle with every member): under the
    // list when there is room, else over its last rows; as many rows as its words take.
    if let Some(st) = s.stepper() {
        let applied = s.steps.partition_point(|&i| i < st.cursor());
        let (text, style) = match applied.checked_sub(1) {
            None => ("start: every decision open".to_string(), vm.theme.dim()),
            Some(k) => describe(vm, s.steps.get(k).copied().unwrap_or(0)),
        };
        let mut all = area.inner(ratatui::layout::Margin::new(1, 1));
        let min = detail.map_or(0, |d| d.height);
        // A long event (a cycle of many decisions) may grow over the tree panel above.
        let need = parts::wrapped_rows(&[Line::raw(text.as_str())], all.width, true) + 1;
        if let Some(t) = vm.panes.tree
            && need + 1 > usize::from(all.height)
            && t.x == area.x
            && t.width == area.width
            && t.bottom() == area.y
        {
            let top = t.y.saturating_add(1);
            all = Rect::new(all.x, top, all.width, all.bottom().saturating_sub(top));
        }
        parts::detail(
            frame.buffer_mut(),
            all,
            min,
            vec![Line::styled(text, style)],
            vm.theme.dim(),
        );
    }
}
