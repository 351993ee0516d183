//! The scenario browser popup: the file list filtered as the user types, and a preview.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::model::ViewModel;
use super::parts::fit;
use crate::tui::browser::{Browser, Preview};
use crate::tui::layout::scroll;

/// A centred rectangle taking `pct` percent of `area` (at least 20×6 when it fits).
pub fn centered(area: Rect, pct: u16) -> Rect {
    let w = (area.width * pct / 100).max(20.min(area.width));
    let h = (area.height * pct / 100).max(6.min(area.height));
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// Draws the browser.
pub fn draw(frame: &mut Frame, vm: &ViewModel, b: &Browser) {
    let area = centered(frame.area(), 90);
    frame.render_widget(Clear, area);
    let t = &vm.theme;
    let visible = b.hits();
    let title = format!(
        " Open a scenario — {} of {} — type to search names, titles, descriptions; enter opens, esc closes ",
        visible.len(),
        b.entries.len()
    );
    frame.render_widget(
        Block::bordered()
            .title(fit(&title, (area.width as usize).saturating_sub(2)))
            .border_style(t.focus()),
        area,
    );
    let inner = area.inner(Margin::new(1, 1));
    let wide = inner.width >= 60;
    let (list, preview) = if wide {
        let [l, p] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(inner);
        (l, Some(p))
    } else {
        (inner, None)
    };
    let mut lines = vec![Line::from(vec![
        Span::styled("filter: ", t.focus()),
        Span::raw(format!("{}▏", b.filter)),
    ])];
    if let Some(note) = &b.note {
        lines.push(Line::styled(fit(note, list.width as usize), t.error()));
    }
    let h = list.height.saturating_sub(lines.len() as u16) as usize;
    let top = scroll(b.row, visible.len(), h);
    let width = list.width as usize;
    for (i, (e, hit)) in visible.iter().enumerate().skip(top).take(h) {
        let label = fit(&e.label, width);
        let room = width.saturating_sub(label.chars().count() + 2);
        let mut spans = vec![Span::raw(label)];
        // Why a file is listed when its name does not say: where the word was found.
        if let Some(why) = hit.why.as_ref().filter(|_| room > 0) {
            spans.push(Span::styled(format!("  {}", why.fit(room)), t.dim()));
        }
        let mut line = Line::from(spans);
        if i == b.row {
            line = line.style(t.selected());
        }
        lines.push(line);
    }
    if visible.is_empty() {
        lines.push(Line::styled("(no file matches)", t.dim()));
    }
    frame.render_widget(Paragraph::new(lines), list);
    if let Some(p) = preview {
        let mut lines = Vec::new();
        match &b.preview {
            Some((
                path,
                Preview::Ok {
                    title,
                    source,
                    phase,
                    description,
                    orders,
                },
            )) => {
                lines.push(Line::styled(title.clone(), t.focus()));
                lines.push(Line::raw(format!("source: {source}")));
                lines.push(Line::raw(format!("phase:  {phase}")));
                lines.push(Line::raw(format!("orders: {orders}")));
                lines.push(Line::styled(path.display().to_string(), t.dim()));
                lines.push(Line::raw(""));
                lines.push(Line::raw(description.clone()));
            }
            Some((path, Preview::Error(e))) => {
                lines.push(Line::styled("This file does not load:", t.error()));
                lines.push(Line::raw(e.clone()));
                lines.push(Line::styled(path.display().to_string(), t.dim()));
            }
            Some((path, Preview::Head { size, lines: head })) => {
                lines.push(Line::styled(
                    format!(
                        "Too large to preview: {size} bytes (a preview reads {} KiB); its first lines:",
                        crate::tui::browser::PREVIEW_BYTES / 1024
                    ),
                    t.dim(),
                ));
                lines.push(Line::styled(path.display().to_string(), t.dim()));
                lines.push(Line::raw(""));
                lines.extend(head.iter().map(|l| Line::raw(l.clone())));
            }
            None => {}
        }
        frame.render_widget(
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .block(Block::new().borders(ratatui::widgets::Borders::LEFT)),
            p,
        );
    }
}
