//! Pieces every view draws with: a panel with its focus border, text cut to a width. A leaf
//! module, so that the views need not import the view module that draws them.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use super::model::ViewModel;
use crate::tui::keymap::Context;

/// A bordered panel, its border highlighted when it has the focus.
pub fn panel<'a>(vm: &ViewModel, title: impl Into<Line<'a>>, focus: Context) -> Block<'a> {
    let b = Block::bordered().title(title);
    if vm.focus == focus && vm.popup.is_none() {
        b.border_style(vm.theme.focus())
    } else {
        b.border_style(Style::new())
    }
}

/// Cuts a string to `width` characters, with `…` when cut.
pub fn fit(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return s.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut out: String = s.chars().take(width - 1).collect();
    out.push('…');
    out
}

/// The first of `forms` (longest first) that fits in `width`, else the last cut to it with `…`.
pub fn first_fitting(forms: impl IntoIterator<Item = String>, width: usize) -> String {
    let mut last = String::new();
    for f in forms {
        if f.chars().count() <= width {
            return f;
        }
        last = f;
    }
    fit(&last, width)
}

/// A panel's title cut to the panel's width (its corners left), with `…` when cut.
pub fn title(s: &str, area: Rect) -> String {
    fit(s, usize::from(area.width.saturating_sub(2)))
}

/// How many rows `lines` take word-wrapped at `width` (`trim`: as [`Wrap`] takes it), as a
/// wrapping paragraph draws them: a line wider than `width` is drawn into a scratch buffer
/// tall enough and counted to its last row with text.
pub fn wrapped_rows(lines: &[Line], width: u16, trim: bool) -> usize {
    let width = width.max(1);
    // A line no wider than the column takes one row; only the others are laid out (each on its
    // own: a paragraph wraps its lines independently), in a buffer just tall enough — word
    // wrapping fills any two rows in a row with more than the width, so a line of w columns
    // takes at most 2·⌈w / width⌉ + 1 rows.
    let mut rows = 0;
    for l in lines {
        let w = l.width();
        if w <= usize::from(width) {
            rows += 1;
            continue;
        }
        let most = 2 * w.div_ceil(usize::from(width)) + 1;
        let area = Rect::new(
            0,
            0,
            width,
            u16::try_from(most).unwrap_or(4000).clamp(1, 4000),
        );
        let mut buf = Buffer::empty(area);
        Paragraph::new(l.clone())
            .wrap(Wrap { trim })
            .render(area, &mut buf);
        rows += (0..area.height)
            .rev()
            .find(|&y| (0..width).any(|x| buf[(x, y)].symbol() != " "))
            .map_or(1, |y| usize::from(y) + 1);
    }
    rows
}

/// Draws `lines` (a separator first) at the bottom of `inner`, over what is there, in as many
/// rows as they take wrapped (at least `min` rows, at most all but the top row of `inner`);
/// text that still does not fit ends in `…`. For the detail of a list's selected row.
pub fn detail(buf: &mut Buffer, inner: Rect, min: u16, lines: Vec<Line<'static>>, dim: Style) {
    detail_scrolled(buf, inner, min, lines, dim, 0);
}

/// [`detail`] scrolled by `scroll` rows (at most to its last line, under the separator).
/// Returns how far it scrolls: 0 when it fits.
pub fn detail_scrolled(
    buf: &mut Buffer,
    inner: Rect,
    min: u16,
    lines: Vec<Line<'static>>,
    dim: Style,
    scroll: u16,
) -> u16 {
    if inner.height < 3 || inner.width == 0 {
        return 0;
    }
    let need = u16::try_from(wrapped_rows(&lines, inner.width, true) + 1).unwrap_or(u16::MAX);
    let rows = need.max(min).min(inner.height - 1);
    let area = Rect::new(inner.x, inner.bottom() - rows, inner.width, rows);
    Clear.render(area, buf);
    Paragraph::new(Line::styled("─".repeat(usize::from(inner.width)), dim))
        .render(Rect::new(area.x, area.y, area.width, 1), buf);
    let text = Rect::new(area.x, area.y + 1, area.width, rows - 1);
    let most = need.saturating_sub(rows);
    let scroll = scroll.min(most);
    Paragraph::new(lines)
        .wrap(Wrap { trim: true })
        .scroll((scroll, 0))
        .render(text, buf);
    if scroll < most {
        // Cut: mark the last cell.
        let (x, y) = (area.right() - 1, area.bottom() - 1);
        buf[(x, y)].set_symbol("…");
    }
    most
}
