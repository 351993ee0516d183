//! The rules panel (every option with its value; the selected one changes with ←/→) and the
//! compare panel (the same scenario under two rule sets, differences highlighted).

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::model::ViewModel;
use super::parts::{fit, panel};
use crate::tui::keymap::Context;
use crate::tui::layout::RULES_HEADER;
use crate::tui::layout::scroll;
use crate::tui::session::Session;
use crate::tui::session::compare::Side;
use dipsandbox_core::base::text::one_line;
use dipsandbox_core::model::board::Unit;
use dipsandbox_core::tools::diff::{OrderDiff, RuleDiff, verdict_word};

/// Draws the rules panel.
pub fn draw(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let s = vm.session;
    // A map's own rules (Chaos builds in any owned centre) follow the options' name.
    let own = s.scenario().map.own_rules();
    let title = if own.is_empty() {
        format!(" Rules: {} ", Session::rules_name(&s.rules))
    } else {
        format!(
            " Rules: {} · map: {} ",
            Session::rules_name(&s.rules),
            own.join("; ")
        )
    };
    frame.render_widget(
        panel(vm, super::parts::title(&title, area), Context::Rules),
        area,
    );
    let inner = area.inner(Margin::new(1, 1));
    let table = s.rules.table();
    let own = s.scenario().rules.table();
    let t = &vm.theme;
    let mut lines = vec![
        Line::from(vec![
            Span::styled("←/→", t.focus()),
            Span::raw(" value  "),
            Span::styled("p", t.focus()),
            Span::raw(" preset  "),
            Span::styled("c", t.focus()),
            Span::raw(" compare  "),
            Span::styled("r", t.focus()),
            Span::raw(" scenario's"),
        ]),
        Line::styled("* differs from the scenario's own rules", t.dim()),
    ];
    let h = inner.height.saturating_sub(RULES_HEADER) as usize;
    let top = scroll(vm.rule_row, table.len(), h);
    let w = inner.width as usize;
    for (i, row) in table.iter().enumerate().skip(top).take(h) {
        let changed = own.get(i).is_some_and(|o| o.value != row.value);
        let mut line = Line::raw(row_text(changed, row.issue, row.field, row.value, w));
        if changed {
            line = line.style(t.differs());
        }
        if i == vm.rule_row {
            line = line.style(t.selected());
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
    // The selected option's question and what each value means (from the rules' own doc
    // comments), at the bottom: at most the lower half, so the selected row stays in view;
    // J/K (shift-↓/↑) scroll it when it is longer.
    if let Some(text) = detail_text(vm) {
        let low = detail_area(inner);
        super::parts::detail_scrolled(
            frame.buffer_mut(),
            low,
            0,
            text,
            t.dim(),
            vm.rule_detail_scroll,
        );
    }
}

/// The lower half of the rules panel's inside, where the selected option's detail goes.
fn detail_area(inner: Rect) -> Rect {
    let half = inner.height / 2;
    Rect::new(inner.x, inner.y + half, inner.width, inner.height - half)
}

/// The selected option's question and what each of its values means: the value in force first
/// (its meaning is never the one cut), then the others in the order ←/→ reaches them.
fn detail_text(vm: &ViewModel) -> Option<Vec<Line<'static>>> {
    let t = &vm.theme;
    let table = vm.session.rules.table();
    let row = table.get(vm.rule_row).filter(|r| !r.question.is_empty())?;
    let mut text = vec![Line::styled(row.question.to_string(), t.focus())];
    let pairs: Vec<(&&str, &&str)> = row.values.iter().zip(&row.meanings).collect();
    let first = pairs
        .iter()
        .position(|(v, _)| **v == row.value)
        .unwrap_or(0);
    for (v, m) in pairs.iter().cycle().skip(first).take(pairs.len()) {
        let mark = if **v == row.value { "▸ " } else { "  " };
        text.push(Line::from(vec![
            Span::styled(format!("{mark}{v}: "), t.focus()),
            Span::raw(m.to_string()),
        ]));
    }
    Some(text)
}

/// The furthest the selected option's detail scrolls in the rules panel at `area`.
pub fn detail_max_scroll(vm: &ViewModel, area: Rect) -> u16 {
    let Some(text) = detail_text(vm) else {
        return 0;
    };
    let low = detail_area(area.inner(Margin::new(1, 1)));
    let mut scratch = ratatui::buffer::Buffer::empty(low);
    super::parts::detail_scrolled(&mut scratch, low, 0, text, vm.theme.dim(), 0)
}

fn describe(s: &Session, units: &[Unit]) -> String {
    let mut v: Vec<String> = units
        .iter()
        .map(|u| u.describe(&s.scenario().map))
        .collect();
    v.sort();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// Draws the comparison of the adjudication in use with the other side: the compare rules,
/// the compare engine, or a replay's recording.
pub fn draw_compare(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    let s = vm.session;
    let (a, b) = s.sides();
    let (an, bn) = (a.label(), b.label());
    let title = match (&s.replay, b.is_recording()) {
        (Some(h), true) => format!(
            " Replay {}: {an} under {} (left) vs {bn} (right) ",
            h.phase,
            Session::rules_name(&s.rules)
        ),
        _ if s.comparing_engines() => format!(
            " Compare engines under {}: {an} (left) vs {bn} (right) ",
            Session::rules_name(&s.rules)
        ),
        _ => format!(" Compare: {an} (left) vs {bn} (right) "),
    };
    // Too long for the panel: shorter forms (the rows below name both sides).
    let shorter = [
        title.replace(" (right)", ""),
        title.replace(" (right)", "").replace(" (left)", ""),
        format!(" {an} vs {bn} "),
        format!(" {} vs {} ", a.name(), b.name()),
    ];
    let fits = |t: &String| t.chars().count() + 2 <= usize::from(area.width);
    let title = if fits(&title) {
        title
    } else {
        shorter
            .iter()
            .find(|t| fits(t))
            .unwrap_or(&shorter[3])
            .clone()
    };
    frame.render_widget(
        ratatui::widgets::Block::bordered().title(super::parts::title(&title, area)),
        area,
    );
    let inner = area.inner(Margin::new(1, 1));
    let lines = compare_lines(vm, (&a, &b));
    // More than fits: PgDn scrolls (clamped to the last line); the last cell says more is below.
    let rows = super::parts::wrapped_rows(&lines, inner.width, false);
    let most = u16::try_from(rows.saturating_sub(usize::from(inner.height))).unwrap_or(u16::MAX);
    let scroll = vm.compare_scroll.min(most);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        inner,
    );
    if scroll < most && inner.width > 0 && inner.height > 0 {
        frame.buffer_mut()[(inner.right() - 1, inner.bottom() - 1)].set_symbol("…");
    }
}

/// The furthest the compare panel scrolls in `area`: its last line at the bottom.
pub fn compare_max_scroll(vm: &ViewModel, area: Rect) -> u16 {
    let (a, b) = vm.session.sides();
    let inner = area.inner(Margin::new(1, 1));
    let rows = super::parts::wrapped_rows(&compare_lines(vm, (&a, &b)), inner.width, false);
    u16::try_from(rows.saturating_sub(usize::from(inner.height))).unwrap_or(u16::MAX)
}

/// Where a side has something: `under datc`, `in the recording`.
fn under(side: &Side) -> String {
    if side.is_recording() {
        "in the recording".into()
    } else {
        format!("under {}", side.name())
    }
}

/// The compare panel's first lines: what is compared (the options that differ, the engines,
/// or the recording and the options that explain it).
fn what_lines(vm: &ViewModel, b: &Side) -> Vec<Line<'static>> {
    let s = vm.session;
    let t = &vm.theme;
    if let (Some(h), true) = (&s.replay, b.is_recording()) {
        let explained = if h.explained_by.is_empty() {
            "no single rule option explains it".to_string()
        } else {
            format!(
                "explained by {} (set it in the rules panel: the two sides agree)",
                h.explained_by.join(", or ")
            )
        };
        return vec![
            Line::styled(
                format!(
                    "left: {} under {}",
                    s.engine.name(),
                    Session::rules_name(&s.rules)
                ),
                t.dim(),
            ),
            Line::styled(format!("right: {}, phase {}", b.label(), h.phase), t.dim()),
            Line::styled(explained, t.focus()),
            Line::styled(
                {
                    let w = |x: &str| dipsandbox_core::base::text::shell_word(&one_line(x));
                    format!(
                        "re-run: dipsandbox replay {} --engine {} --rules {} --all",
                        w(&h.game),
                        w(&h.engine),
                        w(&h.rules)
                    )
                },
                t.dim(),
            ),
        ];
    }
    let diff: Vec<_> = s
        .rules
        .table()
        .into_iter()
        .zip(s.compare_rules.table())
        .filter(|(x, y)| x.value != y.value)
        .map(|(x, y)| format!("{}: {} / {}", x.field, x.value, y.value))
        .collect();
    if s.comparing_engines() {
        // The engines compared, by their titles; a versus file's explanation and known
        // departure below.
        let mut lines = vec![Line::styled(
            format!(
                "{} vs {} (V: compare rules again)",
                s.engine.title(),
                s.compare_engine.title()
            ),
            t.dim(),
        )];
        if s.versus.is_some() {
            for note in &s.versus_notes {
                lines.push(Line::styled(note.clone(), t.focus()));
            }
        }
        return lines;
    }
    vec![Line::styled(
        if diff.is_empty() {
            "the two rule sets are the same".to_string()
        } else {
            format!("options that differ: {}", diff.join(", "))
        },
        t.dim(),
    )]
}

/// The compare panel's text: what is compared, the count, what differs, every verdict (those
/// that differ first, marked).
fn compare_lines(vm: &ViewModel, (a, b): (&Side, &Side)) -> Vec<Line<'static>> {
    let s = vm.session;
    let t = &vm.theme;
    let mut lines = what_lines(vm, b);
    let d = &s.diff;
    lines.push(Line::styled(
        summary(d),
        if d.is_empty() { t.ok() } else { t.error() },
    ));
    // What differs first, in the words `dipsandbox diff` uses: each order with both verdicts
    // and reasons, then the dislodgements, the positions and the retreats.
    let names = (a.name(), b.name());
    for o in &d.orders {
        push_order(&mut lines, vm, o, names);
    }
    for (what, u) in [("dislodged", &d.dislodged), ("positions", &d.positions)] {
        for (side, list) in [(a, &u.only_a), (b, &u.only_b)] {
            if !list.is_empty() {
                lines.push(Line::styled(
                    format!("{what} only {}: {}", under(side), list.join(", ")),
                    t.differs(),
                ));
            }
        }
    }
    if !d.retreats.is_empty() {
        lines.push(Line::styled("retreats:", t.differs()));
        for o in &d.retreats {
            push_order(&mut lines, vm, o, names);
        }
    }
    // Then every order's verdict on both sides, those that differ first, marked.
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        format!(
            "the verdicts, {} then {} (≠: the results differ)",
            a.name(),
            b.name()
        ),
        t.dim(),
    ));
    let differs = |i: usize| d.orders.iter().any(|o| o.index == i);
    let n = s.scenario().orders.len();
    let order = (0..n)
        .filter(|&i| differs(i))
        .chain((0..n).filter(|&i| !differs(i)));
    for i in order {
        let Some(x) = a.verdict(i) else {
            continue;
        };
        let y = b.verdict(i);
        if y.is_none() && !b.is_recording() {
            continue;
        }
        let (ga, sa) = t.verdict(Some(x));
        let (gb, sb) = t.verdict(y);
        let mut line = Line::from(vec![
            Span::styled(ga, sa),
            Span::raw(if differs(i) { "≠" } else { " " }),
            Span::styled(gb, sb),
            Span::raw(format!(" {}", s.order_short(i))),
        ]);
        if differs(i) {
            line = line.style(t.differs());
        }
        lines.push(line);
    }
    if b.is_recording() && (0..n).any(|i| b.verdict(i).is_none()) {
        lines.push(Line::styled(
            format!("{} the recording gives no verdict", t.verdict(None).0),
            t.dim(),
        ));
    }
    let da = a.dislodged().unwrap_or_default();
    match b.dislodged() {
        None => lines.push(Line::styled(
            format!(
                "dislodged {}: {}; the recording does not say",
                under(a),
                describe(s, &da)
            ),
            t.dim(),
        )),
        Some(_) if d.dislodged.is_empty() => lines.push(Line::styled(
            format!("dislodged (both): {}", describe(s, &da)),
            t.dim(),
        )),
        Some(_) => {}
    }
    if b.is_recording()
        && s.scenario()
            .expect
            .as_ref()
            .is_none_or(|e| e.positions.is_none())
    {
        lines.push(Line::styled(
            "positions: the recording does not say",
            t.dim(),
        ));
    }
    if !b.is_recording() {
        push_expectations(&mut lines, vm);
    }
    lines
}

/// The scenario's expectations against the result in use, each mismatch in full (the status
/// bar has room for the first only).
fn push_expectations(lines: &mut Vec<Line<'static>>, vm: &ViewModel) {
    let t = &vm.theme;
    let Some((bad, n)) = &vm.session.expectations else {
        return;
    };
    lines.push(Line::raw(""));
    if bad.is_empty() {
        lines.push(Line::styled(
            format!("expectations: all {n} met (left)"),
            t.ok(),
        ));
        return;
    }
    lines.push(Line::styled(
        format!("expectations: {} of {n} differ (left):", bad.len()),
        t.error(),
    ));
    for b in bad {
        lines.push(Line::styled(format!("  {b}"), t.error()));
    }
}

/// The count line: `4 differences: 3 orders, 1 dislodgement` (the count is
/// [`RuleDiff::len`], the one `dipsandbox diff` prints).
pub fn summary(d: &RuleDiff) -> String {
    if d.is_empty() {
        return "the same result: no verdict, reason, dislodgement or position differs".into();
    }
    let mut parts = Vec::new();
    let mut part = |n: usize, what: &str, note: &str| {
        if n > 0 {
            parts.push(format!(
                "{}{note}",
                dipsandbox_core::base::text::count(n, what)
            ));
        }
    };
    part(d.orders.len(), "order", " (verdict or reason)");
    part(
        d.dislodged.only_a.len() + d.dislodged.only_b.len(),
        "dislodgement",
        "",
    );
    part(
        d.positions.only_a.len() + d.positions.only_b.len(),
        "position",
        "",
    );
    part(d.retreats.len(), "retreat", "");
    format!(
        "{}: {}",
        dipsandbox_core::base::text::count(d.len(), "difference"),
        parts.join(", ")
    )
}

/// One differing order: the order, then each side's verdict and reason.
fn push_order(lines: &mut Vec<Line<'static>>, vm: &ViewModel, o: &OrderDiff, names: (&str, &str)) {
    let t = &vm.theme;
    lines.push(Line::styled(o.order.clone(), t.differs()));
    for (name, (v, why)) in [(names.0, &o.a), (names.1, &o.b)] {
        lines.push(Line::from(vec![
            Span::styled(format!("  {name}: "), t.dim()),
            Span::styled(format!("{} ", verdict_word(*v)), t.verdict(Some(*v)).1),
            Span::raw(why.clone()),
        ]));
    }
}

/// One option's row in `w` columns: the value always whole (the row says which rule is on);
/// the field name gives way first (cut with `…`), then the DATC section.
pub fn row_text(changed: bool, issue: &str, field: &str, value: &str, w: usize) -> String {
    let mark = if changed { "*" } else { " " };
    let value_w = value.chars().count();
    let with_issue = format!("{mark} {issue:<5} ");
    let head = if w >= with_issue.chars().count() + value_w + 6 {
        with_issue
    } else {
        format!("{mark} ")
    };
    let room = w.saturating_sub(head.chars().count() + value_w + 1);
    if room == 0 {
        return fit(&format!("{mark}{value}"), w);
    }
    let field = fit(field, room);
    let pad = room.min(28).max(field.chars().count());
    fit(&format!("{head}{field:<pad$} {value}"), w)
}
