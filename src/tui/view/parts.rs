//! Pieces every view draws with: a panel with its focus border, text cut to a width. A leaf
//! module, so that the views need not import the view module that draws them.

use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Block;

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
