//! The scenario browser popup: the file list filtered as the user types, and a preview.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::model::ViewModel;
use super::parts::fit;
use crate::tui::browser::{Browser, Preview};
use crate::tui::layout::scroll;
use crate::tui::theme::Theme;

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

/// The inner width from which the list and the preview stand side by side (below it the
/// preview is under the list).
const SIDE_BY_SIDE: u16 = 120;

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
    let (list, preview, border) = areas(area);
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
        // Why a file is listed when its name does not say (where the word was found), else its
        // title: the rows tell the files apart by name, and say what each is.
        if room > 0 {
            let title = e.words.as_ref().map(|w| w.title.as_str()).unwrap_or("");
            let after = match &hit.why {
                Some(why) => why.fit(room),
                None => fit(
                    &title.split_whitespace().collect::<Vec<_>>().join(" "),
                    room,
                ),
            };
            if !after.is_empty() {
                spans.push(Span::styled(format!("  {after}"), t.dim()));
            }
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
    let lines = preview_lines(t, b);
    // The whole text, scrolled (shift-↓/↑); a … in the last cell when more is below.
    let block = Block::new().borders(border);
    let inside = block.inner(preview);
    let most = most_scroll(&lines, inside);
    let scroll = b.preview_scroll.min(most);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0))
            .block(block),
        preview,
    );
    if scroll < most && inside.width > 0 && inside.height > 0 {
        frame.buffer_mut()[(inside.right() - 1, inside.bottom() - 1)].set_symbol("…");
    }
}

/// The browser's list and preview in the popup's `area`, and the preview's border: side by
/// side when each half leaves a row its name and title, else the preview under the list (which
/// keeps the whole width).
fn areas(area: Rect) -> (Rect, Rect, Borders) {
    let inner = area.inner(Margin::new(1, 1));
    if inner.width >= SIDE_BY_SIDE {
        let [l, p] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(inner);
        (l, p, Borders::LEFT)
    } else {
        let [l, p] =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(inner);
        (l, p, Borders::TOP)
    }
}

/// How far text of `lines` scrolls in `area`: its last line at the bottom.
fn most_scroll(lines: &[Line], area: Rect) -> u16 {
    let rows = super::parts::wrapped_rows(lines, area.width, false);
    u16::try_from(rows.saturating_sub(usize::from(area.height))).unwrap_or(u16::MAX)
}

/// The furthest the browser's preview scrolls on a `screen`.
pub fn preview_max_scroll(screen: Rect, theme: &Theme, b: &Browser) -> u16 {
    let (_, preview, border) = areas(centered(screen, 90));
    most_scroll(
        &preview_lines(theme, b),
        Block::new().borders(border).inner(preview),
    )
}

/// The preview's text: the highlighted file's title, source, phase, orders, path and
/// description, or why it does not load, or its first lines.
fn preview_lines(t: &Theme, b: &Browser) -> Vec<Line<'static>> {
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
            lines.push(Line::raw(format!(
                "phase:  {phase} · {}",
                dipsandbox_core::base::text::count(*orders, "order")
            )));
            lines.push(Line::styled(path.display().to_string(), t.dim()));
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
    lines
}
