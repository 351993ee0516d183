//! Plain-text rendering of positions, orders and outcomes.

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): the trace renderers
// index a result's decision graph by the ids its own trace names, and the scenario's units by
// the unit indices of that result, which was adjudicated from this scenario; the adjustment
// summary indexes per-power tables sized to the map's power count.
#![allow(clippy::indexing_slicing)]

use std::fmt::Write as _;

use crate::engine::decision::trace::{CycleKind, Event};
use crate::engine::{MovementResult, PhaseResult, Verdict, value_text};
use crate::model::map::Map;
use crate::model::scenario::OrderEntry;
use crate::model::scenario::Scenario;

/// A rule set in words: `DATC v3.0 preferences`, `the 1982 preset`, or its overrides of the
/// DATC preferences (`paradox=Rule1982, multi_route_disruption=AnyRoute`).
pub fn rules_text(r: &crate::model::rules::Rules) -> String {
    match r.preset_name() {
        Some("datc") => "DATC v3.0 preferences".into(),
        Some(p) => format!("the {p} preset"),
        None => r.name(", "),
    }
}

/// The scenario's header and position: title, source, phase, rules, units per power.
pub fn position(s: &Scenario) -> String {
    position_under(s, None)
}

/// [`position`], under the rules given on the command line when there are any: the header
/// names the rules in use, and the scenario's own when they differ.
pub fn position_under(s: &Scenario, rules: Option<crate::model::rules::Rules>) -> String {
    let map = &*s.map;
    let mut out = String::new();
    // The title and the source are one line each: a line end in them is shown escaped.
    let _ = writeln!(out, "{}", crate::base::text::one_line(&s.title));
    if !s.source.is_empty() {
        let _ = writeln!(out, "  source: {}", crate::base::text::one_line(&s.source));
    }
    let _ = writeln!(
        out,
        "  map: {}   phase: {}",
        crate::base::text::one_line(&map.name),
        s.phase
    );
    match rules {
        Some(r) if r != s.rules => {
            let _ = writeln!(
                out,
                "  rules: {} (from --rules; the scenario's own: {})",
                rules_text(&r),
                rules_text(&s.rules)
            );
        }
        _ => {
            let _ = writeln!(out, "  rules: {}", rules_text(&s.rules));
        }
    }
    if !s.description.is_empty() {
        out.push('\n');
        for line in wrap(&s.description, 96) {
            let _ = writeln!(out, "  {line}");
        }
    }
    out.push('\n');
    out.push_str(&units(map, "Position", &s.units));
    if !s.dislodged.is_empty() {
        out.push_str("Dislodged:\n");
        for line in retreat_options(s) {
            let _ = writeln!(out, "  {line}");
        }
    }
    out
}

/// Units per power (neutral units last, as `Neutral`).
pub fn units(map: &Map, heading: &str, units: &[crate::model::board::Unit]) -> String {
    let mut out = format!("{heading}:\n");
    for p in map.unit_owners() {
        let us: Vec<String> = units
            .iter()
            .filter(|u| u.power == p)
            .map(|u| u.describe(map))
            .collect();
        if !us.is_empty() {
            let _ = writeln!(out, "  {:<8} {}", map.power(p).name, us.join(", "));
        }
    }
    out
}

/// The orders per power, as written.
pub fn orders(s: &Scenario) -> String {
    let map = &*s.map;
    let mut out = String::from("Orders:\n");
    if s.orders.is_empty() {
        out.push_str("  (none)\n");
    }
    let mut last = None;
    for o in &s.orders {
        if last != Some(o.power) {
            let _ = writeln!(out, "  {}:", map.power(o.power).name);
            last = Some(o.power);
        }
        let _ = writeln!(out, "    {}", crate::base::text::one_line(&o.text));
    }
    out
}

/// The outcome of every order with its reason, then dislodgements and standoffs.
pub fn outcomes(
    map: &Map,
    heading: &str,
    orders: &[OrderEntry],
    r: &PhaseResult,
    movement: bool,
) -> String {
    let mut out = format!("{heading}:\n");
    if orders.is_empty() {
        out.push_str("  (no orders)\n");
    }
    let width = orders
        .iter()
        .map(|o| o.text.chars().count())
        .max()
        .unwrap_or(0);
    let mut last = None;
    for (o, res) in orders.iter().zip(&r.outcomes) {
        if last != Some(o.power) {
            let _ = writeln!(out, "  {}:", map.power(o.power).name);
            last = Some(o.power);
        }
        let tag = match res.verdict {
            Verdict::Succeeds => "ok  ",
            Verdict::Fails => "FAIL",
            Verdict::Illegal => "ILL ",
            Verdict::Void => "VOID",
        };
        let backup = res
            .backup
            .map(|b| format!("  [{}]", b.name()))
            .unwrap_or_default();
        let text = crate::base::text::one_line(&o.text);
        let _ = writeln!(out, "    {tag} {text:<width$}  {}{backup}", res.reason);
    }
    for note in &r.notes {
        let _ = writeln!(out, "  {note}");
    }
    if !movement {
        return out;
    }
    if r.dislodged.is_empty() {
        out.push_str("Dislodged: none\n");
    } else {
        out.push_str("Dislodged:\n");
        for d in &r.dislodged {
            let _ = writeln!(
                out,
                "  {} (by the unit from {}{})",
                d.unit.describe_owned(map),
                map.province(d.attacker_from).name,
                if d.by_convoy { ", by convoy" } else { "" }
            );
        }
    }
    if !r.contested.is_empty() {
        let names: Vec<&str> = r
            .contested
            .iter()
            .map(|p| map.province(*p).name.as_str())
            .collect();
        let _ = writeln!(out, "Standoffs (no retreat there): {}", names.join(", "));
    }
    out
}

/// The DPjudge engine's procedure, step by step, from a traced DPjudge result: each step
/// entered (with "repeat" and "return to"), and under it every mark, support count, no help list
/// and combat list change, each move and each possible-retreat list.
pub fn dpjudge_trace(s: &Scenario, r: &crate::engine::dpjudge::DpjudgeResult) -> String {
    use crate::engine::dpjudge::{DpEvent, DpStepper};
    let mut out = String::from("DPjudge procedure:\n");
    let Some(st) = DpStepper::new(r, &s.units) else {
        out.push_str("  (not recorded)\n");
        return out;
    };
    let mut k = 0;
    for (i, e) in st.events().iter().enumerate() {
        let line = st.describe(&s.map, &s.units, i);
        if line.is_empty() {
            continue;
        }
        if matches!(e, DpEvent::Step { .. }) {
            let _ = writeln!(out, "  {line}");
        } else {
            k += 1;
            let _ = writeln!(out, "    {k:>3}. {line}");
        }
    }
    out
}

/// The trace as readable text, one event a line.
pub fn trace<O: crate::model::orders::Submitted>(
    s: &Scenario,
    r: &MovementResult,
    orders: &[O],
) -> String {
    let map: &Map = &s.map;
    let label = |id: u32| {
        let full = r.node_label(map, &s.units, orders, id);
        // Drop the final value: the trace shows values as they change.
        let cut = full.rfind(" = ").unwrap_or(full.len());
        full[..cut].to_string()
    };
    let mut out = String::from("Trace:\n");
    let Some(events) = &r.trace else {
        out.push_str("  (not recorded)\n");
        return out;
    };
    let mut step = 0;
    // The fleets whose convoys the Szykman rule has cancelled so far.
    let mut cancelled: Vec<usize> = Vec::new();
    for e in events {
        match e {
            Event::Visit { .. } | Event::Start { .. } => continue,
            Event::Tightened {
                node,
                from,
                to,
                inputs,
            } => {
                step += 1;
                let kind = r.graph.nodes[*node as usize].kind;
                let ins: Vec<String> = inputs
                    .iter()
                    .map(|(d, lo, hi)| {
                        let k = r.graph.nodes[*d as usize].kind;
                        format!("{}={}", short(&label(*d)), value_text(k, *lo, *hi))
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "  {step:>4}. {}: {} -> {}{}",
                    label(*node),
                    value_text(kind, from.0, from.1),
                    value_text(kind, to.0, to.1),
                    if ins.is_empty() {
                        String::new()
                    } else {
                        format!("   from {}", ins.join(", "))
                    }
                );
            }
            Event::Resolved { .. } => {}
            Event::CycleFound {
                members,
                walk,
                kind,
            } => {
                step += 1;
                let what = match kind {
                    CycleKind::CircularMovement => "circular movement",
                    CycleKind::ConvoyParadox => "convoy paradox",
                };
                let _ = writeln!(
                    out,
                    "  {step:>4}. CYCLE ({what}) of {} open decisions, in order (each reads the next):",
                    members.len()
                );
                for (i, m) in walk.iter().enumerate() {
                    let _ = writeln!(
                        out,
                        "        {} {}",
                        if i == 0 { " " } else { "→" },
                        label(*m)
                    );
                }
            }
            Event::ConvoysCancelled { fleets } => {
                cancelled.extend_from_slice(fleets);
                let names: Vec<String> = fleets.iter().map(|f| s.units[*f].describe(map)).collect();
                let _ = if names.len() == 1 {
                    writeln!(
                        out,
                        "        Szykman: the convoy of {} is cancelled; the fleet holds",
                        names.join(", ")
                    )
                } else {
                    writeln!(
                        out,
                        "        Szykman: the convoys of {} are cancelled; the fleets hold",
                        names.join(", ")
                    )
                };
            }
            Event::BackupApplied { rule, forced } => {
                step += 1;
                let _ = writeln!(out, "  {step:>4}. BACKUP RULE: {}", rule.name());
                for (id, v) in forced {
                    let k = r.graph.nodes[*id as usize].kind;
                    // A PATH the cancellation decided cites the cancelled convoys it relied on.
                    let why = if k == crate::engine::decision::resolver::NodeKind::Path && *v == 0 {
                        let gone: Vec<String> = r.graph.deps[*id as usize]
                            .iter()
                            .map(|d| r.graph.nodes[*d as usize].unit)
                            .filter(|f| cancelled.contains(f))
                            .map(|f| s.units[f].describe(map))
                            .collect();
                        match gone.len() {
                            0 => String::new(),
                            1 => format!("   (the convoy of {} is cancelled)", gone.join(", ")),
                            _ => format!("   (the convoys of {} are cancelled)", gone.join(", ")),
                        }
                    } else {
                        String::new()
                    };
                    let _ = writeln!(
                        out,
                        "          forced {} = {}{why}",
                        label(*id),
                        value_text(k, *v, *v)
                    );
                }
            }
        }
    }
    out
}

fn short(label: &str) -> String {
    label
        .replace("STRENGTH ", "")
        .replace("ATTACK", "ATT")
        .replace("PREVENT", "PRV")
        .replace("DEFEND", "DEF")
        .replace("DISLODGE", "DIS")
        .replace("SUPPORT", "SUP")
}

/// Word-wraps text to a width.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        for w in para.split_whitespace() {
            if !line.is_empty() && line.chars().count() + 1 + w.chars().count() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(w);
        }
        lines.push(line);
    }
    lines
}

/// For a retreat phase, one line per dislodged unit: where it was attacked from and where it may
/// retreat.
pub fn retreat_options(s: &Scenario) -> Vec<String> {
    let map = &*s.map;
    let occupied = crate::engine::retreat::occupied(map, &s.units);
    let standoff = crate::engine::retreat::standoffs(map, &s.contested);
    s.dislodged
        .iter()
        .map(|d| {
            let options = crate::engine::retreat::retreat_options_marked(
                map, d, &occupied, &standoff, &s.rules,
            );
            let names: Vec<String> = options.iter().map(|l| map.loc_name(*l)).collect();
            format!(
                "{} (attacked from {}{}): {}",
                d.unit.describe_owned(map),
                map.province(d.attacker_from).name,
                if d.by_convoy { ", by convoy" } else { "" },
                if names.is_empty() {
                    "no retreat possible".to_string()
                } else {
                    format!("may retreat to {}", names.join(", "))
                }
            )
        })
        .collect()
}

/// For an adjustment phase, one line per power: centres, units, and the builds or removals due.
pub fn adjustments(s: &Scenario) -> Vec<String> {
    let map = &*s.map;
    let owners = s.owners_or_home();
    let centres = crate::engine::adjust::centre_counts(map, &owners);
    let due = crate::engine::adjust::adjustments_due(map, &s.units, &owners);
    map.power_ids()
        .map(|p| {
            let i = p.0 as usize;
            let units = s.units.iter().filter(|u| u.power == p).count();
            let what = match due[i] {
                0 => "no adjustment".to_string(),
                n if n > 0 => format!("may build {n}"),
                n => format!("must remove {}", -n),
            };
            format!(
                "{}: {}, {}: {what}",
                map.power(p).name,
                crate::base::text::count(centres[i], "centre"),
                crate::base::text::count(units, "unit")
            )
        })
        .collect()
}
