//! The adjudication's state where the verdicts would be: while a request is on its way, the
//! "adjudicating…" mark with the key that cancels it (from the keymap); after it failed, the
//! engine's error; after the user cancelled it, that. Nothing while the results are current.

use ratatui::style::Style;
use ratatui::text::Line;

use super::model::ViewModel;
use super::parts::fit;
use crate::tui::action::Action;
use crate::tui::keymap::Context;
use crate::tui::session::RunState;

/// The state in words with its style, None while the results are current.
pub fn words(vm: &ViewModel) -> Option<(String, Style)> {
    match &vm.session.state {
        RunState::Current => None,
        RunState::Pending { engine, .. } => {
            let cancel = vm
                .keymap
                .bindings()
                .iter()
                .find(|b| b.context == Context::Adjudicating && b.action == Action::Cancel)
                .and_then(|b| b.keys.first())
                .map_or(String::new(), |k| format!(" ({k} cancels)"));
            Some((
                format!("adjudicating… by {engine}{cancel}: no verdict yet"),
                vm.theme.focus(),
            ))
        }
        RunState::Failed(e) => Some((format!("no result: {e}"), vm.theme.error())),
        RunState::Cancelled(engine) => Some((
            format!("no result: the adjudication by {engine} was cancelled"),
            vm.theme.error(),
        )),
    }
}

/// [`words`] as one line cut to `width` (the orders panel's first line, the event line).
pub fn line(vm: &ViewModel, width: usize) -> Option<Line<'static>> {
    let (text, style) = words(vm)?;
    Some(Line::styled(fit(&text, width), style))
}

/// [`words`] as a line that wraps (the outcomes panel, which has room for a whole error).
pub fn full_line(vm: &ViewModel) -> Option<Line<'static>> {
    let (text, style) = words(vm)?;
    Some(Line::styled(text, style))
}
