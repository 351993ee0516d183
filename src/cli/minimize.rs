//! `minimize`: the smallest part of a scenario that keeps the given properties.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use color_eyre::eyre::{Result, eyre};

use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::tools::minimize::{
    Bounds, Goal, Observer, Pass, Progress, Property, Size, Step, StopReason, minimize_on,
};

use super::input::load;

fn rules(spec: &str) -> Result<Rules> {
    Rules::parse_spec(spec).map_err(|e| eyre!("--rules {spec}: {e}"))
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `26 units, 26 orders`, and how many orders were made holds.
fn size(s: Size) -> String {
    let mut out = format!("{}, {}", count(s.units, "unit"), count(s.orders, "order"));
    match s.simplified {
        0 => {}
        1 => out.push_str(" (1 made a hold)"),
        n => out.push_str(&format!(" ({n} made holds)")),
    }
    out
}

/// One progress line: `units 26 → 13 (orders 26 → 13)`, `orders 13 → 6`, `hold: … → …`.
fn step_line(step: &Step) -> String {
    let (b, a) = (step.before, step.after);
    match &step.pass {
        Pass::Units if a.orders != b.orders => format!(
            "units {} → {} (orders {} → {})",
            b.units, a.units, b.orders, a.orders
        ),
        Pass::Units => format!("units {} → {}", b.units, a.units),
        Pass::Regions => format!(
            "regions: units {} → {} (orders {} → {})",
            b.units, a.units, b.orders, a.orders
        ),
        Pass::Orders => format!("orders {} → {}", b.orders, a.orders),
        Pass::Hold { from, to } => format!("hold: {from} → {to}"),
    }
}

/// How the search is bounded and shown (the command line's `--max-runs`, `--max-time`,
/// `--progress`).
pub struct Search {
    /// Stop after this many adjudications.
    pub max_runs: Option<usize>,
    /// Stop after this long.
    pub max_time: Option<Duration>,
    /// Report progress even when stderr is not a terminal.
    pub progress: bool,
}

/// The exit status of a search stopped before it was done (ctrl-c, `--max-runs`, `--max-time`).
pub const STOPPED: u8 = 3;

/// Reads `--max-time`: a positive number of seconds.
pub fn seconds(s: &str) -> std::result::Result<Duration, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of seconds, e.g. 10 or 0.5; found {s:?}"))?;
    if v.is_nan() || v <= 0.0 {
        return Err(format!(
            "expected a positive number of seconds, e.g. 10 or 0.5; found {s:?}"
        ));
    }
    Duration::try_from_secs_f64(v).map_err(|_| format!("{s:?} seconds is too long to wait"))
}

/// Writes to stderr; a stderr that cannot be written to is not a reason to stop the search.
fn note(text: std::fmt::Arguments) {
    let mut e = std::io::stderr().lock();
    let _ = e.write_fmt(text);
    let _ = e.flush();
}

/// The command line's observer: each step on a line of its own; progress as a status line
/// redrawn in place on a terminal (at most four times a second, from a fifth of a second on),
/// or, with `--progress` elsewhere, as a line a second and one at the start of each pass.
struct Shown {
    tty: bool,
    on: bool,
    started: Instant,
    last: Option<Instant>,
    pass: Option<(dipsandbox_core::tools::minimize::Stage, usize)>,
    drawn: bool,
}

impl Shown {
    /// Removes the status line, if one is drawn.
    fn clear(&mut self) {
        if self.drawn {
            note(format_args!("\r\x1b[K"));
            self.drawn = false;
        }
    }
}

/// `units pass, round 2: 488 units, 488 orders; 1234 runs, 456/s`.
fn status_line(p: &Progress, elapsed: Duration) -> String {
    let pass = match p.round {
        0 => format!("{} pass", p.stage.name()),
        r => format!("{} pass, round {r}", p.stage.name()),
    };
    let mut line = format!(
        "{pass}: {}, {}; {}",
        count(p.best.units, "unit"),
        count(p.best.orders, "order"),
        count(p.runs, "run")
    );
    let secs = elapsed.as_secs_f64();
    if secs >= 0.5 {
        line.push_str(&format!(", {:.0}/s", p.runs as f64 / secs));
    }
    line
}

impl Observer for Shown {
    fn step(&mut self, step: &Step) {
        self.clear();
        // A step names orders from the file: through the escaping writer.
        errln!("{}", step_line(step));
    }

    fn progress(&mut self, p: &Progress) {
        if !self.on {
            return;
        }
        let now = Instant::now();
        let elapsed = now.duration_since(self.started);
        let pass = Some((p.stage, p.round));
        let (every, from) = if self.tty {
            (Duration::from_millis(250), Duration::from_millis(200))
        } else {
            (Duration::from_secs(1), Duration::ZERO)
        };
        let due = self.pass != pass || self.last.is_none_or(|t| now.duration_since(t) >= every);
        if !due || elapsed < from {
            return;
        }
        self.pass = pass;
        self.last = Some(now);
        let line = status_line(p, elapsed);
        if self.tty {
            note(format_args!("\r\x1b[K{line}"));
            self.drawn = true;
        } else {
            note(format_args!("progress: {line}\n"));
        }
    }
}

/// `minimize`: steps and progress on stderr, then what was kept, the sizes and where the result
/// went (stdout; stderr when the scenario itself goes to stdout). A search that a bound or
/// ctrl-c stopped still writes its result, says so on stderr, and ends with [`STOPPED`].
pub fn run(
    file: &Path,
    keep: &[String],
    specs: &[String],
    output: Option<&Path>,
    force: bool,
    search: Search,
    engine: &super::input::EngineArg,
) -> Result<ExitCode> {
    let s = load(file)?;
    let output = output
        .map(|o| {
            super::input::target_with_hint(
                o,
                super::input::scenario_inputs(file, &s),
                force,
                "give --force to overwrite it",
            )
        })
        .transpose()?;
    let keep: Vec<Property> = keep
        .iter()
        .map(|k| Property::parse(&s.map, k))
        .collect::<Result<_, _>>()
        .map_err(|e| eyre!("--keep {e}"))?;
    let differs = keep.contains(&Property::Differs);
    let (rules_in_use, other) = match (specs, differs) {
        ([], _) => (s.rules, None),
        ([b], true) => (s.rules, Some(rules(b)?)),
        ([a], false) => (rules(a)?, None),
        ([a, b], true) => (rules(a)?, Some(rules(b)?)),
        ([_, _], false) => {
            return Err(eyre!(
                "--rules is given twice only with --keep differs (the two rule sets it compares)"
            ));
        }
        _ => return Err(eyre!("--rules is given at most twice")),
    };
    let goal = Goal {
        keep,
        rules: rules_in_use,
        other,
    };
    let bounds = Bounds {
        max_runs: search.max_runs,
        max_time: search.max_time,
        // ctrl-c or SIGTERM: the search stops and writes the smallest scenario so far; an
        // outside engine judging a candidate is interrupted at once.
        stop: Some(super::signals::graceful(vec![engine.engine.clone()])),
    };
    let tty = std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut shown = Shown {
        tty,
        on: tty || search.progress,
        started,
        last: None,
        pass: None,
        drawn: false,
    };
    // The default engine takes the minimizer's fast paths; another (an outside adjudicator)
    // judges every candidate.
    let judge = (!engine.default).then(|| engine.engine.clone());
    let result = minimize_on(&s, &goal, judge, &bounds, &mut shown);
    shown.clear();
    let mut m = result.map_err(|e| eyre!("{}: {e}", file.display()))?;
    m.scenario.description = format!("From {}. {}", file.display(), m.scenario.description);
    let mut summary = String::new();
    for w in &m.witness {
        summary.push_str(&format!("kept: {w}\n"));
    }
    summary.push_str(&format!(
        "minimized: {} → {} ({} runs, {} ms)",
        size(m.before),
        size(m.after),
        m.runs,
        started.elapsed().as_millis()
    ));
    match output {
        Some(target) => {
            let text = m.scenario.placed_at(&target.path).to_ron();
            target.write(&text).map_err(|e| eyre!("{e}"))?;
            outln!("{summary}")?;
            outln!("written to {}", target.path.display())?;
        }
        None => {
            errln!("{summary}");
            out!("{}", m.scenario.to_ron())?;
        }
    }
    let Some(st) = m.stopped else {
        return Ok(ExitCode::SUCCESS);
    };
    let pass = match st.round {
        0 => format!("the {} pass", st.stage.name()),
        r => format!("the {} pass of round {r}", st.stage.name()),
    };
    let runs = count(m.runs, "run");
    let head = match st.reason {
        StopReason::Interrupted => format!("interrupted (ctrl-c) in {pass} after {runs}"),
        StopReason::MaxRuns(n) => format!("stopped at --max-runs {n} in {pass}"),
        StopReason::MaxTime(t) => format!(
            "stopped at --max-time {} in {pass} after {runs}",
            t.as_secs_f64()
        ),
    };
    note(format_args!(
        "{head}: the result is the smallest scenario found so far that keeps every property; a smaller one may too\n"
    ));
    Ok(ExitCode::from(STOPPED))
}
