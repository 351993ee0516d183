//! The help popup: every binding of the current view and of the prompts and questions, from
//! the keymap itself.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::browser::centered;
use super::model::ViewModel;
use super::parts::{fit, wrapped_rows};
use crate::tui::keymap::Context;

/// The help text's lines for the current view: the focused panel first, then the view's other
/// panels, then the keys that work everywhere (a key listed once, where it applies first); then
/// each prompt and question, on its own (their keys are theirs alone).
pub fn lines(vm: &ViewModel) -> Vec<(Option<Context>, String, String)> {
    lines_with_actions(vm)
        .into_iter()
        .map(|(c, k, w, _)| (c, k, w))
        .collect()
}

/// [`lines`] with each binding's action name, as a keymap file spells it.
pub fn lines_with_actions(vm: &ViewModel) -> Vec<(Option<Context>, String, String, &'static str)> {
    let mut out = Vec::new();
    let groups = std::iter::once(vm.help_contexts.clone())
        .chain(Context::PROMPTS.into_iter().map(|c| vec![c]));
    for contexts in groups {
        let mut last = None;
        for (ctx, keys, b) in vm.keymap.active(&contexts) {
            if last != Some(ctx) {
                out.push((Some(ctx), String::new(), String::new(), ""));
                last = Some(ctx);
            }
            let k: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
            out.push((None, k.join(" "), b.what.to_string(), b.action.name()));
        }
    }
    out
}

/// Where the popup goes on a screen of `area`.
pub fn area(screen: Rect) -> Rect {
    centered(screen, 80)
}

/// The popup's text: each panel's keys with what they do and, dim, the action's name in a
/// keymap file; then the marks the views use and where the keys are changed.
pub fn text(vm: &ViewModel) -> Vec<Line<'static>> {
    let t = &vm.theme;
    let mut text = Vec::new();
    for (ctx, keys, what, action) in lines_with_actions(vm) {
        match ctx {
            Some(c) => text.push(Line::from(vec![
                Span::styled(c.title().to_string(), t.focus()),
                Span::styled(format!("  (\"{}\" in keys.ron)", c.name()), t.dim()),
            ])),
            None => text.push(Line::from(vec![
                Span::styled(format!("  {keys:<14}"), t.focus()),
                Span::styled(format!("{action:<16} "), t.dim()),
                Span::raw(what),
            ])),
        }
    }
    text.push(Line::raw(""));
    text.push(Line::styled("Marks", t.focus()));
    for (mark, what) in MARKS {
        text.push(Line::from(vec![
            Span::styled(format!("  {mark:<31}"), t.focus()),
            Span::raw(*what),
        ]));
    }
    text.push(Line::raw(""));
    text.push(Line::styled(
        "Keys can be changed in keys.ron in the config folder ($DIPSANDBOX_CONFIG_DIR): \
         the dim name after each key is the action's name there, \
         e.g. { \"step_forward\": [\"v\", \"right\"] }.",
        t.dim(),
    ));
    text
}

/// The marks of the views, explained at the end of the help.
const MARKS: &[(&str, &str)] = &[
    (
        "✓ ✗ ! ∅ ·",
        "orders: succeeds, fails, illegal, void, not decided yet",
    ),
    (
        "↺ ! ?",
        "decisions (stepper): in a cycle, forced by a backup rule (not \"illegal\" here), still open; blank: settled",
    ),
    (
        "▶",
        "stepper: what the current event touched (a decision, or a unit of the procedure)",
    ),
    ("•", "decisions: one that decided the selected order"),
    ("≠", "compare: the two sides' verdicts differ"),
    ("*", "rules: differs from the scenario's own rules"),
    (
        "…",
        "text cut here: select its row (↑/↓) and the detail under the list shows it whole",
    ),
];

/// The furthest the popup scrolls on a screen of `screen`: its last line at the bottom.
pub fn max_scroll(vm: &ViewModel, screen: Rect) -> u16 {
    let inner = area(screen).height.saturating_sub(2) as usize;
    let n = wrapped_rows(&text(vm), area(screen).width.saturating_sub(2), false);
    u16::try_from(n.saturating_sub(inner)).unwrap_or(u16::MAX)
}

/// Draws the popup, scrolled `scroll` rows (clamped to the text).
pub fn draw(frame: &mut Frame, vm: &ViewModel, scroll: u16) {
    let screen = frame.area();
    let area = area(screen);
    frame.render_widget(Clear, area);
    let t = &vm.theme;
    let scroll = scroll.min(max_scroll(vm, screen));
    frame.render_widget(
        Paragraph::new(text(vm))
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0))
            .block(
                Block::bordered()
                    .title(fit(
                        " Keys — esc closes, ↑/↓ PgUp/PgDn Home/End scroll ",
                        usize::from(area.width.saturating_sub(2)),
                    ))
                    .border_style(t.focus()),
            ),
        area,
    );
}
