//! The tab bar, the current-event line and the status bar (hints from the keymap, messages,
//! the expectations check).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use dipsandbox_core::model::board::Phase;
use dipsandbox_core::tools::find::How;

use super::model::ViewModel;
use super::parts::{first_fitting, fit};
use crate::tui::layout::TABS;
use crate::tui::session::Session;
use crate::tui::state::Popup;

/// The keys of a prompt, from the keymap: `  enter go · esc cancel`.
fn prompt_keys(vm: &ViewModel) -> String {
    let parts: Vec<String> = vm
        .keymap
        .hints(&vm.contexts)
        .into_iter()
        .map(|(k, w)| format!("{k} {w}"))
        .collect();
    format!("  {}", parts.join(" · "))
}

/// The tab bar with the scenario's title, phase and rules on the right.
pub fn draw_tabs(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let mut spans = Vec::new();
    for (v, label) in TABS {
        let style = if *v == vm.view {
            vm.theme.focus().add_modifier(Modifier::REVERSED)
        } else {
            Style::new()
        };
        spans.push(Span::styled(*label, style));
        spans.push(Span::raw(" "));
    }
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    let s = vm.session;
    let default = s.registry().default_engine().map(|e| e.name());
    let engine = (default != Some(s.engine.name())).then(|| s.engine.name());
    let room = (area.width as usize).saturating_sub(used + 1);
    let right = tab_bar_right(
        if s.is_dirty() { "* " } else { "" },
        &s.scenario().title,
        &s.scenario().phase,
        &Session::rules_name(&s.rules),
        engine,
        room,
    );
    let pad = room.saturating_sub(right.chars().count());
    spans.push(Span::raw(" ".repeat(pad + 1)));
    spans.push(Span::styled(right, vm.theme.dim()));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The right of the tab bar in `room` columns. The phase, the rules and the engine, which
/// every panel's results are under, stay whole while they fit; the title is cut to make room,
/// then the words go (`rules:`, then the phase's long form: `Pandin's paradox · S1901M · datc`),
/// and the title goes last.
fn tab_bar_right(
    dirty: &str,
    title: &str,
    phase: &Phase,
    rules: &str,
    engine: Option<&str>,
    room: usize,
) -> String {
    let engine_words = engine.map_or(String::new(), |e| format!(" · engine: {e}"));
    let engine_short = engine.map_or(String::new(), |e| format!(" · {e}"));
    let tails = [
        format!("{phase} · rules: {rules}{engine_words} "),
        format!("{phase} · {rules}{engine_short} "),
        format!("{} · {rules}{engine_short} ", phase.short()),
    ];
    let fixed = |tail: &str| dirty.chars().count() + 3 + tail.chars().count();
    let title_len = title.chars().count();
    // The title whole, else cut to at least 16 characters, else to at least 8.
    for least in [title_len, 16, 8] {
        for tail in &tails {
            if fixed(tail) + title_len.min(least) <= room {
                let shown = fit(title, room - fixed(tail));
                return format!("{dirty}{shown} · {tail}");
            }
        }
    }
    first_fitting(tails.iter().map(|t| format!("{dirty}{t}")), room)
}

/// The stepper's position and the event at the cursor.
pub fn draw_event(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    if let Some(l) = super::run_state::line(vm, area.width as usize) {
        frame.render_widget(Paragraph::new(l), area);
        return;
    }
    let s = vm.session;
    let line = match s.cursor() {
        Some(_) => {
            let (applied, text, style) = super::steps::at_cursor(vm);
            let play = if vm.playing {
                format!(" ▶ {} ms", vm.speed.as_millis())
            } else {
                String::new()
            };
            let head = format!(
                "{} step {applied}/{}{play} ",
                s.engine.name(),
                s.steps.len()
            );
            // Cut with `…`: the trace panel's detail (or the detail panel) has the step in full.
            let room = (area.width as usize).saturating_sub(head.chars().count());
            Line::from(vec![
                Span::styled(head, vm.theme.focus()),
                Span::styled(fit(&text, room), style),
            ])
        }
        None => {
            // A retreat phase names its dislodged units first (the board draws them
            // beside their attackers).
            let sc = s.scenario();
            let dislodged: Vec<String> = sc
                .dislodged
                .iter()
                .map(|d| {
                    format!(
                        "{} (attacker from {})",
                        d.unit.describe_owned(&sc.map),
                        sc.map.province(d.attacker_from).name
                    )
                })
                .collect();
            let what = if dislodged.is_empty() {
                String::new()
            } else {
                format!("dislodged: {} — ", dislodged.join(", "))
            };
            let text = format!(
                "{}: {what}no decision graph — the stepper view lists each order's outcome",
                sc.phase
            );
            Line::from(Span::styled(
                fit(&text, area.width as usize),
                vm.theme.dim(),
            ))
        }
    };
    frame.render_widget(Paragraph::new(line), area);
}

/// The expectations in a few words: `expectations: all 8 met`.
pub fn expectations(s: &Session) -> Option<(String, bool)> {
    let (bad, n) = s.expectations.as_ref()?;
    // Orders that have no expected result, where the scenario states results per order (an
    // order added since the expectations were written): `e` freezes them.
    let sc = s.scenario();
    let unchecked = sc.expect.as_ref().map_or(0, |e| {
        if e.results.is_empty() {
            0
        } else {
            (0..sc.orders.len())
                .filter(|i| !e.results.iter().any(|(k, _, _)| k == i))
                .count()
        }
    });
    Some(if bad.is_empty() && unchecked > 0 {
        (
            format!(
                "expectations: all {n} met; {} unchecked (e freezes)",
                dipsandbox_core::base::text::count(unchecked, "order")
            ),
            true,
        )
    } else if bad.is_empty() {
        (format!("expectations: all {n} met"), true)
    } else {
        (
            format!(
                "expectations: {} of {n} differ — {}",
                bad.len(),
                bad.first().map_or("", |b| b.as_str())
            ),
            false,
        )
    })
}

/// While the find prompt's text matches several provinces: all of them in a box above the
/// status bar (as many as the screen has rows for, the rest counted), one a row.
fn draw_find_matches(
    frame: &mut Frame,
    vm: &ViewModel,
    status: Rect,
    text: &str,
    found: &dipsandbox_core::tools::find::Found,
) {
    let map = &vm.session.scenario().map;
    if found.unique().is_some() || found.provinces.len() < 2 {
        return;
    }
    let names: Vec<String> = found
        .provinces
        .iter()
        .map(|&p| {
            let p = map.province(p);
            format!("{} ({})", p.name, p.abbr)
        })
        .collect();
    let rows = (status.y.saturating_sub(2) as usize).min(names.len());
    if rows == 0 {
        return;
    }
    let mut lines: Vec<Line> = names
        .iter()
        .take(rows)
        .map(|n| Line::raw(n.clone()))
        .collect();
    if names.len() > rows
        && let Some(last) = lines.last_mut()
    {
        *last = Line::styled(
            format!("{} more: type more", names.len() - rows + 1),
            vm.theme.dim(),
        );
    }
    let title = format!(
        " {} {} {:?} ",
        found.provinces.len(),
        found.how.words(),
        text.trim()
    );
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .chain([title.chars().count()])
        .max()
        .unwrap_or(0)
        .max(24)
        .min(status.width.saturating_sub(2) as usize) as u16
        + 2;
    let height = lines.len() as u16 + 2;
    let area = Rect::new(status.x, status.y.saturating_sub(height), width, height);
    frame.render_widget(ratatui::widgets::Clear, area);
    frame.render_widget(
        Paragraph::new(lines).block(
            ratatui::widgets::Block::bordered()
                .title(fit(&title, width.saturating_sub(2) as usize))
                .border_style(vm.theme.focus()),
        ),
        area,
    );
}

/// An error, or a message to be read whole (where a file went), too long for the status line:
/// whole and wrapped in a box above it (over the rows there, until the next key takes the
/// message away), so that a deep folder's path cuts neither what went wrong nor where. (Other
/// messages say what a key did, which the screen shows too.)
fn draw_whole_message(frame: &mut Frame, vm: &ViewModel, status: Rect, text: &str, error: bool) {
    let width = status.width;
    if width < 12 || status.y < 3 {
        return;
    }
    let line = Line::raw(text.to_string());
    let rows = super::parts::wrapped_rows(std::slice::from_ref(&line), width - 2, true);
    // At most half the rows above the status line, borders included.
    let most = (status.y / 2).max(3);
    let height = (u16::try_from(rows).unwrap_or(u16::MAX).saturating_add(2)).min(most);
    let area = Rect::new(status.x, status.y - height, width, height);
    frame.render_widget(ratatui::widgets::Clear, area);
    frame.render_widget(
        Paragraph::new(line)
            .wrap(ratatui::widgets::Wrap { trim: true })
            .block(
                ratatui::widgets::Block::bordered()
                    .title(if error { " error " } else { " written " })
                    .border_style(if error {
                        vm.theme.error()
                    } else {
                        vm.theme.focus()
                    }),
            ),
        area,
    );
    if usize::from(height) < rows + 2 {
        // Longer still: the last cell says so.
        let (x, y) = (area.right() - 2, area.bottom() - 2);
        if let Some(c) = frame.buffer_mut().cell_mut((x, y)) {
            c.set_symbol("…");
        }
    }
}

/// Hints (or the message, or the prompt) on the left, the expectations on the right.
pub fn draw_status(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let width = area.width as usize;
    // A prompt being typed (find, save as, a field, a question) has the whole line: what it
    // finds or asks is the point; the expectations come back when it closes.
    let prompt = matches!(
        vm.popup,
        Some(Popup::Goto(_) | Popup::SaveAs(_) | Popup::Field(..) | Popup::Confirm(..))
    );
    let right = expectations(vm.session).filter(|_| !prompt);
    let mut right_len = right
        .as_ref()
        .map_or(0, |(t, _)| t.chars().count().min(width / 2));
    // A message (what the user just did, gone at the next key) that does not fit beside the
    // expectations takes their room, down to their short form (`expectations: 1 of 24 differ…`);
    // an error that still does not fit is cut there and shown whole in a box above.
    if let (None, Some(m), Some((t, _))) = (&vm.popup, &vm.message, &right) {
        let short = t.split(" — ").next().unwrap_or(t).chars().count();
        let want = m.text.chars().count() + 1;
        if want + right_len > width {
            right_len = right_len
                .min(width.saturating_sub(want))
                .max((short + 1).min(right_len));
        }
    }
    let left_room = width.saturating_sub(right_len + 1);
    let mut spans: Vec<Span> = Vec::new();
    if let Some(Popup::Goto(text)) = &vm.popup {
        spans.push(Span::styled("find province: ", vm.theme.focus()));
        spans.push(Span::raw(format!("{text}▏")));
        spans.push(Span::styled(prompt_keys(vm), vm.theme.dim()));
        // What the text finds so far: the province enter goes to, or how many match (listed
        // in a box above).
        let map = &vm.session.scenario().map;
        if let Some(found) = dipsandbox_core::tools::find::provinces(map, text) {
            draw_find_matches(frame, vm, area, text, &found);
            let words = if found.unique().is_none() && found.how != How::Fuzzy {
                format!("{} listed above", found.provinces.len())
            } else {
                dipsandbox_core::tools::find::describe(map, text, &found)
            };
            let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
            let room = left_room.saturating_sub(used + 4);
            if room > 1 {
                spans.push(Span::raw(format!("  → {}", fit(&words, room))));
            }
        }
    } else if let Some(Popup::SaveAs(text)) = &vm.popup {
        spans.push(Span::styled("save as: ", vm.theme.focus()));
        spans.push(Span::raw(format!("{text}▏")));
        spans.push(Span::styled(prompt_keys(vm), vm.theme.dim()));
    } else if let Some(Popup::Field(field, text)) = &vm.popup {
        spans.push(Span::styled(
            format!("{}: ", field.label()),
            vm.theme.focus(),
        ));
        spans.push(Span::raw(format!("{text}▏")));
        let keys = prompt_keys(vm);
        let hint = if *field == crate::tui::editor::Field::Phase {
            format!("  e.g. Fall 1901 Retreat · {}", keys.trim_start())
        } else {
            keys
        };
        spans.push(Span::styled(hint, vm.theme.dim()));
        if let Some(m) = vm.message.as_ref().filter(|m| m.error) {
            spans.push(Span::styled(format!("  {}", m.text), vm.theme.error()));
        }
    } else if let Some(Popup::Confirm(q, _)) = &vm.popup {
        spans.push(Span::styled(fit(q, left_room), vm.theme.error()));
    } else if let Some(m) = &vm.message {
        let style = if m.error {
            vm.theme.error()
        } else {
            Style::new()
        };
        spans.push(Span::styled(fit(&m.text, left_room), style));
        if m.whole && m.text.chars().count() > left_room {
            draw_whole_message(frame, vm, area, &m.text, m.error);
        }
    } else {
        let mut used = 0;
        for (key, word) in vm.keymap.hints(&vm.contexts) {
            let piece = key.chars().count() + word.chars().count() + 2;
            if used + piece > left_room {
                break;
            }
            spans.push(Span::styled(key, vm.theme.focus()));
            spans.push(Span::raw(format!(" {word} ")));
            used += piece;
        }
    }
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    if let Some((t, ok)) = right {
        let t = fit(
            &t,
            width
                .saturating_sub(used + 1)
                .min(width / 2)
                .max(right_len.min(width.saturating_sub(used + 1))),
        );
        let pad = width.saturating_sub(used + t.chars().count());
        spans.push(Span::raw(" ".repeat(pad)));
        spans.push(Span::styled(
            t,
            if ok { vm.theme.ok() } else { vm.theme.error() },
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
