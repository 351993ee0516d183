//! The page of one case: its picture, the orders with verdicts and reasons, the rule options in
//! force, the expectations met or missed, and a stepper through the engine's trace that
//! highlights on the picture what each step decides.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::error::PageError;
use super::html::{document, esc, script_json};
use crate::engine::{Engine, Landmark, PhaseInput, PhaseResult, Tone};
use crate::io::picture::{Crop, PictureOptions, position_svg};
use crate::model::rules::Rules;
use crate::model::scenario::OrderEntry;
use crate::model::scenario::Scenario;
use crate::tools::check::{Run, adjudicate_scenario, compare, retreat_phase};
use crate::tools::diff::verdict_word;

/// What a case page holds beyond the scenario.
#[derive(Clone, Debug)]
pub struct CaseOptions {
    /// The picture's width in pixels.
    pub width: u32,
    /// The most trace steps the page carries (a trace longer than this is cut, and the page
    /// says so).
    pub max_steps: usize,
    /// The most lines of the engine's state (its sections at each step) the page carries in
    /// all: a long trace over many decisions would otherwise make a page of hundreds of
    /// megabytes. The steps past it show their words and highlights, and say that their state
    /// is in the TUI.
    pub max_state_lines: usize,
    /// Where the scenario file is, as the page names it (the TUI command that opens it).
    pub file: Option<String>,
    /// How much of the map the picture shows (default: the part the orders are about, since a
    /// case is about a few units).
    pub crop: Crop,
}

impl Default for CaseOptions {
    fn default() -> CaseOptions {
        CaseOptions {
            width: 800,
            max_steps: 5_000,
            max_state_lines: 200_000,
            file: None,
            crop: Crop::Action,
        }
    }
}

/// The page of `s` adjudicated by `engine` under `rules` (default: the scenario's own), with
/// the engine's trace: one self-contained HTML document.
pub fn case_page(
    s: &Scenario,
    rules: Option<Rules>,
    engine: &dyn Engine,
    opts: &CaseOptions,
) -> Result<String, PageError> {
    let run = adjudicate_scenario(s, rules, engine, true)?;
    case_page_of(s, &run, engine, opts)
}

/// [`case_page`] of a run already made by `engine` (traced, for the stepper): what the TUI
/// writes from the result it shows, with no second adjudication.
pub fn case_page_of(
    s: &Scenario,
    run: &Run,
    engine: &dyn Engine,
    opts: &CaseOptions,
) -> Result<String, PageError> {
    let svg = position_svg(
        s,
        Some(run.phase()),
        &PictureOptions {
            width: opts.width,
            legend: true,
            crop: opts.crop,
            ..PictureOptions::default()
        },
    )?;
    let (steps, cut) = steps_data(s, run, opts.max_steps, opts.max_state_lines);
    let title = if s.title.trim().is_empty() {
        "(untitled scenario)"
    } else {
        s.title.as_str()
    };
    let mut body = String::with_capacity(svg.len() + 16_384);
    let _ = writeln!(body, "<h1 id=\"title\">{}</h1>", esc(title));
    let _ = writeln!(
        body,
        "<p class=\"meta\">{} · map {} · engine <b>{}</b> ({}) · rules {}</p>",
        esc(&s.phase.to_string()),
        esc(&s.map_ref),
        esc(&run.result.engine),
        esc(engine.title()),
        esc(&run.rules.name(", ")),
    );
    if let Some(f) = &opts.file {
        let _ = writeln!(
            body,
            "<p class=\"meta\">File: <code>{}</code> — open it in the terminal UI: <code>dipsandbox {}</code></p>",
            esc(f),
            esc(f)
        );
    }
    if !s.description.trim().is_empty() {
        let _ = writeln!(body, "<p>{}</p>", esc(&s.description));
    }
    body.push_str("<pre id=\"page-errors\" class=\"error\" hidden></pre>\n");
    body.push_str("<div class=\"columns\">\n<div class=\"picture\" id=\"picture\">\n");
    body.push_str(&svg);
    body.push_str("\n</div>\n<div class=\"stepper-box\">\n");
    stepper_html(&mut body, &steps, cut);
    body.push_str("</div>\n</div>\n");
    outcomes_html(&mut body, s, "Orders", &s.orders, run.phase());
    if let (Some(f), Some(r)) = (&s.retreats, &run.retreats) {
        outcomes_html(&mut body, s, "Retreats", &f.orders, r);
        retreat_picture(&mut body, s, run, r, opts)?;
    }
    board_html(&mut body, s, run.phase());
    expectations_html(&mut body, s, run);
    rules_html(&mut body, &run.rules, &s.rules);
    body.push_str("<pre id=\"selftest-result\" hidden></pre>\n");
    let _ = writeln!(
        body,
        "<script id=\"steps-data\" type=\"application/json\">{}</script>",
        script_json(&json!({ "steps": steps }))
    );
    Ok(document(title, CASE_STYLE, &body, Some(STEPPER_JS)))
}

/// The follow-up retreats drawn as a phase of their own (the dislodged units beside their
/// provinces, their retreat orders coloured by verdict), as an image: the page's main picture
/// keeps the element ids the stepper highlights.
fn retreat_picture(
    body: &mut String,
    s: &Scenario,
    run: &Run,
    result: &PhaseResult,
    opts: &CaseOptions,
) -> Result<(), PageError> {
    let Some(next) = retreat_phase(s, run) else {
        return Ok(());
    };
    let svg = position_svg(
        &next,
        Some(result),
        &PictureOptions {
            width: opts.width,
            legend: false,
            crop: opts.crop,
            ..PictureOptions::default()
        },
    )?;
    let _ = writeln!(
        body,
        "<figure id=\"retreat-picture\"><img alt=\"the retreats\" src=\"data:image/svg+xml;base64,{}\"><figcaption>The retreats: {}</figcaption></figure>",
        super::html::base64(svg.as_bytes()),
        esc(&next.phase.to_string()),
    );
    Ok(())
}

/// The stepper's script (hand-written; `stepper.js` beside this file).
const STEPPER_JS: &str = include_str!("stepper.js");

/// The case page's own style: the picture beside the stepper, the highlighted step.
const CASE_STYLE: &str = r#"
.columns { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
.columns .picture { flex: 3 1 30em; }
.stepper-box { flex: 2 1 22em; min-width: 18em; }
#retreat-picture { margin: .5em 0; } #retreat-picture img { max-width: 100%; height: auto; }
.controls button { font-size: 1em; margin: 0 .15em .3em 0; padding: .2em .5em; }
#step-count { font-weight: bold; }
#step-text { min-height: 3em; padding: .4em; background: #f6f8fa; border-left: 4px solid #999; }
#step-text.tone-settled { border-color: #1a7f37; } #step-text.tone-open { border-color: #bf8700; }
#step-text.tone-cycle { border-color: #8250df; } #step-text.tone-forced { border-color: #b3261e; }
#step-state pre { margin: .2em 0 .6em; white-space: pre-wrap; font-size: .85em; }
#step-state h4 { margin: .4em 0 0; font-size: .9em; }
#step-list { position: relative; max-height: 22em; overflow-y: auto; font-size: .85em; padding-left: 3.2em; margin: .5em 0; }
#step-list li { cursor: pointer; }
#step-list li.landmark { font-weight: bold; }
#step-list li.current { background: #fff3b0; }
"#;

/// Fills the stepper's controls and the list of its steps.
fn stepper_html(body: &mut String, steps: &[Value], cut: Option<usize>) {
    body.push_str("<h2>Trace</h2>\n");
    if steps.is_empty() {
        body.push_str(
            "<p id=\"step-count\">The engine kept no trace of this phase (a retreat or \
             adjustment phase, or an engine without one).</p>\n",
        );
        return;
    }
    body.push_str(
        "<div class=\"controls\">\
         <button id=\"step-start\" title=\"Home\">&#124;◀ start</button>\
         <button id=\"step-back\" title=\"←\">◀ back</button>\
         <button id=\"step-fwd\" title=\"→\">forward ▶</button>\
         <button id=\"step-end\" title=\"End\">end ▶&#124;</button><br>\
         <button id=\"step-prev-mark\" title=\"[\">[ previous landmark</button>\
         <button id=\"step-next-mark\" title=\"]\">next landmark (cycle, backup) ]</button>\
         </div>\n<div id=\"step-count\"></div>\n<p id=\"step-text\"></p>\n<div id=\"step-state\"></div>\n",
    );
    if let Some(total) = cut {
        let _ = writeln!(
            body,
            "<p class=\"meta\">The trace has {total} steps; the page carries the first {}.</p>",
            steps.len()
        );
    }
    body.push_str("<ol id=\"step-list\">\n");
    for (k, step) in steps.iter().enumerate() {
        let text = step.get("text").and_then(Value::as_str).unwrap_or("");
        let landmark = step.get("landmark").is_some_and(|l| !l.is_null());
        let _ = writeln!(
            body,
            "<li data-k=\"{}\"{}>{}</li>",
            k + 1,
            if landmark { " class=\"landmark\"" } else { "" },
            esc(text)
        );
    }
    body.push_str("</ol>\n");
}

/// Every step the stepper shows (the engine's events that are not bookkeeping, as the TUI skips
/// them): its words, landmark, tone, the units and orders it is about and the engine's state
/// after it (while the budget of `max_lines` state lines lasts). With the number of steps in all
/// when there were more than `max`.
fn steps_data(
    s: &Scenario,
    run: &Run,
    max: usize,
    max_lines: usize,
) -> (Vec<Value>, Option<usize>) {
    let input = PhaseInput::of(s, &run.rules);
    let Some(mut st) = run.result.steps(&input) else {
        return (Vec::new(), None);
    };
    let shown: Vec<usize> = (0..st.len()).filter(|&i| !st.mark(i).minor).collect();
    let cut = (shown.len() > max).then_some(shown.len());
    let mut out = Vec::with_capacity(shown.len().min(max));
    let mut budget = max_lines;
    for &i in shown.iter().take(max) {
        let mark = st.mark(i);
        let units = st.units(i);
        let orders = orders_of_units(s, &units);
        let text = st.describe(&input, i);
        st.seek(i + 1);
        // Past the budget the state is not carried: it is not worked out either.
        let state = if budget > 0 {
            st.sections(&input)
        } else {
            Vec::new()
        };
        let lines: usize = state.iter().map(|sec| sec.lines.len() + 1).sum();
        let sections: Vec<Value> = if budget > 0 && lines <= budget {
            budget -= lines;
            state
                .into_iter()
                .map(|sec| json!({ "title": sec.title, "lines": sec.lines }))
                .collect()
        } else {
            budget = 0;
            vec![json!({
                "title": "state",
                "lines": ["(not carried: the page holds the engine's state up to here; the TUI shows it at every step)"],
            })]
        };
        out.push(json!({
            "event": i,
            "text": text,
            "landmark": mark.landmark.map(landmark_name),
            "tone": tone_name(mark.tone),
            "units": units,
            "orders": orders,
            "sections": sections,
        }));
    }
    (out, cut)
}

/// The indices of the orders given to the units `units` (indices into `s.units`).
fn orders_of_units(s: &Scenario, units: &[usize]) -> Vec<usize> {
    let provinces: Vec<_> = units
        .iter()
        .filter_map(|&u| s.units.get(u))
        .map(|u| s.map.province_of(u.loc))
        .collect();
    s.orders
        .iter()
        .enumerate()
        .filter(|(_, o)| {
            o.order
                .unit
                .is_some_and(|spec| provinces.contains(&spec.loc.province))
        })
        .map(|(i, _)| i)
        .collect()
}

fn landmark_name(l: Landmark) -> &'static str {
    match l {
        Landmark::Cycle => "cycle",
        Landmark::Backup => "backup rule",
        Landmark::Step => "procedure step",
    }
}

fn tone_name(t: Tone) -> &'static str {
    match t {
        Tone::Plain => "plain",
        Tone::Open => "open",
        Tone::Settled => "settled",
        Tone::Cycle => "cycle",
        Tone::Forced => "forced",
    }
}

/// The table of orders with verdicts and reasons.
fn outcomes_html(
    body: &mut String,
    s: &Scenario,
    heading: &str,
    orders: &[OrderEntry],
    r: &PhaseResult,
) {
    let _ = writeln!(body, "<h2>{}</h2>", esc(heading));
    if orders.is_empty() {
        body.push_str("<p>(no orders)</p>\n");
        return;
    }
    body.push_str(
        "<table class=\"orders\">\n<tr><th>#</th><th>power</th><th>order</th><th>verdict</th><th>why</th></tr>\n",
    );
    for (i, o) in orders.iter().enumerate() {
        let (word, reason, backup) = match r.outcomes.get(i) {
            Some(out) => (
                verdict_word(out.verdict),
                out.reason.as_str(),
                out.backup.map(|b| b.name()),
            ),
            None => ("pending", "", None),
        };
        let backup = backup
            .map(|b| format!(" <i>[{}]</i>", esc(b)))
            .unwrap_or_default();
        let _ = writeln!(
            body,
            "<tr id=\"row-{heading}-{i}\"><td>{}</td><td>{}</td><td class=\"mono\">{}</td><td class=\"v-{word}\">{word}</td><td>{}{backup}</td></tr>",
            i + 1,
            esc(&s.map.power(o.power).name),
            esc(&o.text),
            esc(reason),
            heading = esc(&heading.to_lowercase()),
        );
    }
    body.push_str("</table>\n");
    for note in &r.notes {
        let _ = writeln!(body, "<p class=\"meta\">{}</p>", esc(note));
    }
}

/// Dislodgements and standoffs.
fn board_html(body: &mut String, s: &Scenario, r: &PhaseResult) {
    body.push_str("<h2>After the phase</h2>\n<ul>\n");
    if r.dislodged.is_empty() {
        body.push_str("<li>Dislodged: none</li>\n");
    }
    for d in &r.dislodged {
        let _ = writeln!(
            body,
            "<li>Dislodged: {} (by the unit from {}{})</li>",
            esc(&d.unit.describe_owned(&s.map)),
            esc(&s.map.province(d.attacker_from).name),
            if d.by_convoy { ", by convoy" } else { "" }
        );
    }
    if !r.contested.is_empty() {
        let names: Vec<String> = r
            .contested
            .iter()
            .map(|p| esc(&s.map.province(*p).name))
            .collect();
        let _ = writeln!(
            body,
            "<li>Standoffs (no retreat there): {}</li>",
            names.join(", ")
        );
    }
    body.push_str("</ul>\n");
}

/// The expectations, met or missed, as `check` words them.
fn expectations_html(body: &mut String, s: &Scenario, run: &Run) {
    body.push_str("<h2>Expectations</h2>\n");
    if s.expect.is_none() {
        body.push_str("<p id=\"expectations\">The scenario states none.</p>\n");
        return;
    }
    let (bad, n) = compare(s, run);
    if bad.is_empty() {
        let _ = writeln!(
            body,
            "<p id=\"expectations\" class=\"met\">✓ all {n} checks met.</p>"
        );
        return;
    }
    let _ = writeln!(
        body,
        "<p id=\"expectations\" class=\"missed\">✗ {} of {n} checks missed:</p>\n<ul>",
        bad.len()
    );
    for b in &bad {
        let _ = writeln!(body, "<li class=\"missed\">{}</li>", esc(b));
    }
    body.push_str("</ul>\n");
}

/// Every rule option in force; those that differ from the scenario's own rules marked.
fn rules_html(body: &mut String, rules: &Rules, own: &Rules) {
    let _ = writeln!(
        body,
        "<h2>Rules in force: {}</h2>\n<p class=\"meta\">Bold: differs from the scenario's own rules.</p>\n<table class=\"rules\">\n<tr><th>DATC</th><th>option</th><th>value</th><th>question</th></tr>",
        esc(&rules.name(", "))
    );
    let own = own.table();
    for (i, row) in rules.table().iter().enumerate() {
        let changed = own.get(i).is_some_and(|o| o.value != row.value);
        let _ = writeln!(
            body,
            "<tr{}><td>{}</td><td class=\"mono\">{}</td><td class=\"mono\">{}</td><td>{}</td></tr>",
            if changed { " class=\"changed\"" } else { "" },
            esc(row.issue),
            esc(row.field),
            esc(row.value),
            esc(row.question)
        );
    }
    body.push_str("</table>\n");
}
