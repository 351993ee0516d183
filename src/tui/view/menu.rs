//! The menu popup (units to place, owners, attackers, new scenarios, details) and the order
//! editor: the typed order with its live parse, completions, and the menu of legal orders.

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::model::ViewModel;
use super::parts::fit;
use crate::tui::editor::{Choice, Menu, OrderEditor, Parsed, Row};
use crate::tui::layout::scroll;

/// A popup rectangle `w`×`h` centred in `area`, shrunk to fit.
fn popup_rect(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// Draws a popup's key hint on the last row of its inner area.
fn draw_hint(frame: &mut Frame, vm: &ViewModel, inner: Rect, text: &str) {
    let row = Rect::new(
        inner.x,
        inner.y + inner.height.saturating_sub(1),
        inner.width,
        1,
    );
    frame.render_widget(
        Paragraph::new(Line::styled(
            fit(text, inner.width as usize),
            vm.theme.dim(),
        )),
        row,
    );
}

/// Draws a menu popup.
pub fn draw_menu(frame: &mut Frame, vm: &ViewModel, m: &Menu) {
    let t = &vm.theme;
    let visible = m.visible();
    let full = frame.area();
    let area = popup_rect(
        full,
        64,
        visible.len().max(m.items.len().min(14)) as u16 + 5,
    );
    frame.render_widget(Clear, area);
    frame.render_widget(
        Block::bordered()
            .title(fit(&format!(" {} ", m.title), area.width as usize - 2))
            .border_style(t.focus()),
        area,
    );
    let inner = area.inner(Margin::new(1, 1));
    let w = inner.width as usize;
    let mut lines = vec![Line::from(vec![
        Span::styled("filter: ", t.focus()),
        Span::raw(format!("{}▏", m.filter)),
    ])];
    let h = inner.height.saturating_sub(2) as usize;
    let top = scroll(m.row, visible.len(), h);
    for (i, item) in visible.iter().enumerate().skip(top).take(h) {
        let mark = if i == m.row { "▶ " } else { "  " };
        let mut line = match &item.choice {
            Choice::Refused(why) => {
                Line::styled(fit(&format!("{mark}{} — {why}", item.label), w), t.dim())
            }
            _ => Line::raw(fit(&format!("{mark}{}", item.label), w)),
        };
        if i == m.row {
            line = line.style(t.selected());
        }
        lines.push(line);
    }
    if visible.is_empty() {
        lines.push(Line::styled("(nothing matches the filter)", t.dim()));
    }
    frame.render_widget(Paragraph::new(lines), inner);
    draw_hint(
        frame,
        vm,
        inner,
        "type to filter · ↑↓ · enter chooses · esc cancels",
    );
}

/// Draws the order editor.
pub fn draw_order(frame: &mut Frame, vm: &ViewModel, e: &OrderEditor) {
    let t = &vm.theme;
    let full = frame.area();
    let rows = e.rows();
    let area = popup_rect(
        full,
        (full.width * 9 / 10).clamp(20, 96),
        (rows.len() as u16 + 8).clamp(10, (full.height * 8 / 10).max(10)),
    );
    frame.render_widget(Clear, area);
    frame.render_widget(
        Block::bordered()
            .title(fit(
                &format!(" Order — {} ", e.heading),
                area.width as usize - 2,
            ))
            .border_style(t.focus()),
        area,
    );
    let inner = area.inner(Margin::new(1, 1));
    let w = inner.width as usize;
    let mut lines = vec![Line::from(vec![
        Span::styled("order: ", t.focus()),
        if e.prefilled {
            Span::styled(e.text.clone(), t.selected())
        } else {
            Span::raw(e.text.clone())
        },
        Span::raw("▏"),
        Span::styled(
            if e.prefilled {
                "  (typing replaces it; backspace edits it)"
            } else {
                ""
            },
            t.dim(),
        ),
    ])];
    match &e.parsed {
        Parsed::Empty => lines.push(Line::styled(
            fit(
                "type an order or part of one to filter the menu; tab completes names",
                w,
            ),
            t.dim(),
        )),
        Parsed::Valid(full, power) => {
            let whose = power.map_or(
                " — whose? start with the power (England: …)".into(),
                |p| format!(" ({})", vm.session.scenario().map.power(p).name),
            );
            lines.push(Line::styled(
                fit(&format!("✓ reads: {full}{whose}"), w),
                t.ok(),
            ));
        }
        // Text that is not an order but matches rows of the menu is a filter, not a mistake.
        Parsed::Invalid(_) if rows.iter().any(|r| matches!(r, Row::Offer(_))) => {
            lines.push(Line::styled(
                fit(
                    "filtering the menu (not a whole order yet); enter takes the highlighted row",
                    w,
                ),
                t.dim(),
            ));
        }
        Parsed::Invalid(err) => {
            // A caret under the column the parser stopped at ("order: " is 7 wide).
            let caret = " ".repeat(7 + err.col.saturating_sub(1));
            lines.push(Line::styled(fit(&format!("{caret}^"), w), t.error()));
            lines.push(Line::styled(
                fit(&format!("✗ column {}: {}", err.col, err.message), w),
                t.error(),
            ));
        }
    }
    if let Some(c) = &e.completion
        && c.candidates.len() > 1
    {
        let list: Vec<String> = c
            .candidates
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if i == c.index {
                    format!("[{s}]")
                } else {
                    s.clone()
                }
            })
            .collect();
        lines.push(Line::styled(
            fit(&format!("tab: {}", list.join(" ")), w),
            t.dim(),
        ));
    }
    lines.push(Line::styled(
        fit(
            &format!(
                "{} of {} legal orders match{}",
                rows.iter().filter(|r| matches!(r, Row::Offer(_))).count(),
                e.offers.len(),
                if e.offers.is_empty() {
                    " (no menu here: any order can be typed)"
                } else {
                    ""
                }
            ),
            w,
        ),
        t.dim(),
    ));
    let head = lines.len();
    let h = (inner.height as usize).saturating_sub(head + 1);
    let top = scroll(e.row, rows.len(), h);
    let left = (w / 2).clamp(12, 32);
    for (i, r) in rows.iter().enumerate().skip(top).take(h) {
        let mark = if i == e.row { "▶ " } else { "  " };
        let text = match r {
            Row::Typed => format!("{mark}as typed: {}", e.text.trim()),
            Row::Offer(o) => {
                let short = format!("{mark}{}", o.text);
                let pad = left.saturating_sub(short.chars().count()).max(1);
                format!("{short}{}{}", " ".repeat(pad), o.full)
            }
        };
        let mut line = Line::raw(fit(&text, w));
        if i == e.row {
            line = line.style(t.selected());
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
    draw_hint(
        frame,
        vm,
        inner,
        "↑↓ choose · enter writes the order · tab completes · ctrl-u clears · esc cancels",
    );
}

/// Draws a yes / no question as a box in the middle of the screen, wrapped to fit.
pub fn draw_confirm(frame: &mut Frame, vm: &ViewModel, question: &str) {
    let full = frame.area();
    let w = full.width.min(72);
    let lines = dipsandbox_core::io::report::wrap(question, w.saturating_sub(4) as usize);
    let area = popup_rect(full, w, lines.len() as u16 + 2);
    frame.render_widget(Clear, area);
    let text: Vec<Line> = lines.into_iter().map(Line::raw).collect();
    frame.render_widget(
        Paragraph::new(text).block(
            Block::bordered()
                .title(" Confirm ")
                .border_style(vm.theme.error())
                .padding(ratatui::widgets::Padding::horizontal(1)),
        ),
        area,
    );
}
