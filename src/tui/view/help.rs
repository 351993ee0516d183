//! The help popup: every binding of the current view and of the prompts and questions, from
//! the keymap itself.

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::browser::centered;
use super::model::ViewModel;
use crate::tui::keymap::Context;

/// The help text's lines for the current view: the focused panel first, then the view's other
/// panels, then the keys that work everywhere (a key listed once, where it applies first); then
/// each prompt and question, on its own (their keys are theirs alone).
pub fn lines(vm: &ViewModel) -> Vec<(Option<Context>, String, String)> {
    let mut out = Vec::new();
    let groups = std::iter::once(vm.help_contexts.clone())
        .chain(Context::PROMPTS.into_iter().map(|c| vec![c]));
    for contexts in groups {
        let mut last = None;
        for (ctx, keys, b) in vm.keymap.active(&contexts) {
            if last != Some(ctx) {
                out.push((Some(ctx), String::new(), String::new()));
                last = Some(ctx);
            }
            let k: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
            out.push((None, k.join(" "), b.what.to_string()));
        }
    }
    out
}

/// Draws the popup.
pub fn draw(frame: &mut Frame, vm: &ViewModel, scroll: u16) {
    let area = centered(frame.area(), 80);
    frame.render_widget(Clear, area);
    let t = &vm.theme;
    let mut text = Vec::new();
    for (ctx, keys, what) in lines(vm) {
        match ctx {
            Some(c) => text.push(Line::styled(c.title().to_string(), t.focus())),
            None => text.push(Line::from(vec![
                Span::styled(format!("  {keys:<16}"), t.focus()),
                Span::raw(what),
            ])),
        }
    }
    text.push(Line::raw(""));
    text.push(Line::styled(
        "Keys can be changed in keys.ron in the config folder ($DIPSANDBOX_CONFIG_DIR).",
        t.dim(),
    ));
    frame.render_widget(
        Paragraph::new(text).scroll((scroll, 0)).block(
            Block::bordered()
                .title(" Keys — esc closes, ↑/↓ scroll ")
                .border_style(t.focus()),
        ),
        area,
    );
}
