//! The orders panel: every order with its verdict glyph (as of the stepper's cursor) and its
//! reason; the selected order in full below.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::model::ViewModel;
use super::parts::{self, fit, panel};
use crate::tui::keymap::Context;
use crate::tui::layout::orders_split;
use crate::tui::layout::scroll;
use dipsandbox_core::engine::Verdict;

/// The words for a verdict.
pub fn verdict_word(v: Option<Verdict>) -> &'static str {
    match v {
        Some(Verdict::Succeeds) => "succeeds",
        Some(Verdict::Fails) => "fails",
        Some(Verdict::Illegal) => "illegal",
        Some(Verdict::Void) => "void",
        None => "not decided yet",
    }
}

/// Draws the panel.
pub fn draw(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let s = vm.session;
    let title = format!(" Orders ({}) ", s.scenario().orders.len());
    frame.render_widget(panel(vm, parts::title(&title, area), Context::Orders), area);
    let (list, detail) = orders_split(area);
    let n = s.scenario().orders.len();
    let h = list.height as usize;
    let top = scroll(vm.order, n, h);
    let width = list.width as usize;
    let mut lines = Vec::new();
    if let Some(l) = super::run_state::line(vm, width) {
        lines.push(l);
    }
    if n == 0 {
        lines.push(Line::styled("(no orders)", vm.theme.dim()));
    }
    for i in top..(top + h).min(n) {
        let Some(o) = s.scenario().orders.get(i) else {
            break;
        };
        let v = s.verdict_now(i);
        let (glyph, gstyle) = vm.theme.verdict(v);
        let power = &s.scenario().map.power(o.power).name;
        let pw: String = power.chars().take(3).collect();
        let reason = if v.is_some() {
            s.run
                .phase()
                .outcomes
                .get(i)
                .map(|r| r.reason.as_str())
                .unwrap_or("")
        } else {
            "…"
        };
        let text_w = width.saturating_sub(6);
        let short = s.order_short(i);
        // Room for at least " …" after the order when there is a reason to point to.
        let order_room = if !reason.is_empty() && short.chars().count() + 2 > text_w {
            text_w.saturating_sub(2)
        } else {
            text_w
        };
        let short = fit(&short, order_room);
        let order_w = short.chars().count();
        let reason_room = text_w.saturating_sub(order_w + 2);
        let mut spans = vec![
            Span::styled(glyph, gstyle),
            Span::raw(" "),
            Span::styled(pw, vm.theme.power(o.power.0 as usize)),
            Span::raw(" "),
            Span::raw(short),
        ];
        if reason_room > 3 {
            spans.push(Span::raw("  "));
            spans.push(Span::styled(fit(reason, reason_room), vm.theme.dim()));
        } else if !reason.is_empty() && text_w.saturating_sub(order_w) >= 2 {
            // No room for words: the mark says there is a reason (the detail has it).
            spans.push(Span::styled(" …", vm.theme.dim()));
        }
        let mut line = Line::from(spans);
        if i == vm.order {
            line = line.style(vm.theme.selected());
        }
        lines.push(line);
    }
    // Neutral units hold, unordered: listed below the orders in a movement phase (as many as
    // there is room for), each in the neutral style the board draws it in.
    if s.scenario().phase.kind == dipsandbox_core::model::board::PhaseKind::Movement {
        let map = &s.scenario().map;
        for u in s.scenario().units.iter().filter(|u| u.power.is_neutral()) {
            if lines.len() >= h {
                break;
            }
            lines.push(Line::from(vec![
                Span::styled("·", vm.theme.dim()),
                Span::raw(" "),
                Span::styled("Neu", vm.theme.power(u.power.0 as usize)),
                Span::raw(" "),
                Span::raw(fit(
                    &format!(
                        "{} {} H  (neutral: holds)",
                        u.kind.letter(),
                        map.loc_abbr(u.loc)
                    ),
                    width.saturating_sub(6),
                )),
            ]));
        }
    }
    // The retreats that follow (DATC 6.H style scenarios), below the orders when there is room.
    if let (Some(f), Some(rr)) = (&s.scenario().retreats, &s.run.retreats)
        && lines.len() + 1 < h
    {
        lines.push(Line::styled("Retreats after the phase:", vm.theme.focus()));
        for (o, out) in f.orders.iter().zip(&rr.outcomes) {
            let (glyph, gstyle) = vm.theme.verdict(Some(out.verdict));
            let pw: String = s
                .scenario()
                .map
                .power(o.power)
                .name
                .chars()
                .take(3)
                .collect();
            lines.push(Line::from(vec![
                Span::styled(glyph, gstyle),
                Span::raw(" "),
                Span::styled(pw, vm.theme.power(o.power.0 as usize)),
                Span::raw(" "),
                Span::raw(fit(
                    &format!("{}  {}", o.text, out.reason),
                    width.saturating_sub(6),
                )),
            ]));
        }
    }
    frame.render_widget(Paragraph::new(lines), list);
    // The selected order in full at the bottom: under the list when there is room, else over
    // its last rows; as many rows as its words take, so no reason is ever cut.
    if let Some(o) = s.scenario().orders.get(vm.order) {
        let v = s.verdict_now(vm.order);
        let (glyph, gstyle) = vm.theme.verdict(v);
        let out = s.run.phase().outcomes.get(vm.order);
        let mut lines = vec![Line::from(vec![
            Span::styled(format!("{glyph} {}", verdict_word(v)), gstyle),
            Span::raw(": "),
            Span::raw(o.text.clone()),
        ])];
        if let (Some(out), Some(_)) = (out, v) {
            let mut text = out.reason.clone();
            if let Some(b) = out.backup {
                text.push_str(&format!(" [{}]", b.name()));
            }
            lines.push(Line::raw(text));
        }
        // The expectation this order misses, in full (the status bar has only the first).
        let power = &s.scenario().map.power(o.power).name;
        let key = format!("{power}: {}: ", o.text);
        for bad in s.expectations.iter().flat_map(|(b, _)| b) {
            if let Some(rest) = bad.strip_prefix(&key) {
                lines.push(Line::styled(
                    format!("expectation: {rest}"),
                    vm.theme.error(),
                ));
            }
        }
        // And those no order owns (dislodgements, positions, the retreats' own), whichever
        // order is selected: the status bar has room for the first words only.
        let keys: Vec<String> = s
            .scenario()
            .orders
            .iter()
            .map(|o| format!("{}: {}: ", s.scenario().map.power(o.power).name, o.text))
            .collect();
        for bad in s.expectations.iter().flat_map(|(b, _)| b) {
            if !keys.iter().any(|k| bad.starts_with(k.as_str())) {
                lines.push(Line::styled(
                    format!("expectation: {bad}"),
                    vm.theme.error(),
                ));
            }
        }
        let inner = area.inner(ratatui::layout::Margin::new(1, 1));
        let min = detail.map_or(0, |d| d.height);
        parts::detail(frame.buffer_mut(), inner, min, lines, vm.theme.dim());
    }
}
