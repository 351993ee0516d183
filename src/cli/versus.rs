//! `versus A B`: the differential bench (the work is `dipsandbox_core::tools::versus`), run on
//! every core with rayon, a progress line on a terminal, ctrl-c keeping the classes so far;
//! and `versus merge`, which unions the output folders of shards.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use color_eyre::eyre::{Result, eyre};
use rayon::prelude::*;
use serde_json::json;

use dipsandbox_core::base::text::one_line;
use dipsandbox_core::engine::departure::Known;
use dipsandbox_core::engine::{Engine, Registry};
use dipsandbox_core::model::map::Map;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::tools::versus::{
    BATCH, ClassRow, Mix, Parallel, Progress, Shard, Summary, Versus, known_words, merge,
    open_output,
};

/// The most worker threads `-j` gives (each holds a position and, for an outside adjudicator,
/// a program's turn).
pub const MAX_JOBS: usize = 256;

use super::input::EngineArg;

/// The work items of a batch spread over rayon's pool (every core).
struct Rayon;

impl Parallel for Rayon {
    fn map<T: Send, R: Send>(&self, items: Vec<T>, f: &(dyn Fn(T) -> R + Sync)) -> Vec<R> {
        items.into_par_iter().map(f).collect()
    }
}

/// What `versus A B` was asked.
pub struct Args {
    /// The two engines' names (or outside adjudicators, as `--engine` takes them).
    pub engines: Vec<String>,
    /// Positions to run.
    pub count: u64,
    /// The seed.
    pub seed: u64,
    /// The mix's name.
    pub mix: String,
    /// The map: a built-in map's name or a map file.
    pub map: String,
    /// The output folder.
    pub output: PathBuf,
    /// `I/N`.
    pub shard: Option<String>,
    /// Write into a folder that already holds a run.
    pub force: bool,
    /// Progress lines even when stderr is not a terminal.
    pub progress: bool,
    /// Worker threads (0: one per core).
    pub jobs: usize,
}

fn note(text: std::fmt::Arguments) {
    let mut e = std::io::stderr().lock();
    let _ = e.write_fmt(text);
    let _ = e.flush();
}

/// `1:05` or `12 s`.
fn duration_words(secs: f64) -> String {
    if !secs.is_finite() {
        return "?".into();
    }
    let s = secs.round() as u64;
    if s >= 60 {
        format!("{}:{:02}", s / 60, s % 60)
    } else {
        format!("{s} s")
    }
}

/// `positions 40960/100000 (41%), 52000/s, ETA 1 s; 12 disagreements, 2 classes`.
fn status_line(p: &Progress, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        p.done as f64 / secs
    } else {
        0.0
    };
    let eta = if rate > 0.0 {
        duration_words((p.total - p.done) as f64 / rate)
    } else {
        "?".into()
    };
    format!(
        "positions {}/{} ({}%), {:.0}/s, ETA {eta}; {} disagreements, {} classes",
        p.done,
        p.total,
        p.done
            .saturating_mul(100)
            .checked_div(p.total)
            .unwrap_or(100),
        rate,
        p.disagreements,
        p.classes
    )
}

/// `versus A B`.
pub fn run(
    args: Args,
    registry: &Registry,
    rules: Option<Rules>,
    json_out: bool,
) -> Result<ExitCode> {
    let [a, b] = &args.engines[..] else {
        return Err(eyre!(
            "versus takes two engines: dipsandbox versus A B (the engines are {}), or versus merge DIR… -o DIR",
            registry.names().join(", ")
        ));
    };
    let engine = |n: &str| -> Result<Arc<dyn Engine>> {
        EngineArg::parse(registry, n)
            .map(|e| e.engine)
            .map_err(|e| eyre!("versus: {e}"))
    };
    let (ea, eb) = (engine(a)?, engine(b)?);
    let mix = Mix::parse(&args.mix).ok_or_else(|| {
        let names: Vec<&str> = Mix::ALL.iter().map(|m| m.name()).collect();
        eyre!(
            "--mix {}: unknown mix; expected one of {}",
            args.mix,
            names.join(", ")
        )
    })?;
    let shard = match &args.shard {
        None => Shard::WHOLE,
        Some(s) => Shard::parse(s)
            .ok_or_else(|| eyre!("--shard {s}: expected I/N with 0 ≤ I < N, e.g. --shard 0/4"))?,
    };
    if args.jobs > MAX_JOBS {
        return Err(eyre!(
            "-j {}: at most {MAX_JOBS} worker threads (0, the default, is one per core)",
            args.jobs
        ));
    }
    // Held until the run ends: a second run into the folder is refused and told who holds it.
    let _lock = open_output(&args.output, &format!("versus {a} {b}"), args.force)
        .map_err(|e| eyre!("versus: {e}"))?;
    let map = if args.map == "standard" {
        Map::standard_arc()
    } else {
        Arc::new(Map::load(&args.map).map_err(|e| eyre!("versus --map: {e}"))?)
    };
    let v = Versus {
        map,
        a: &*ea,
        b: &*eb,
        rules: rules.unwrap_or_default(),
        mix,
        seed: args.seed,
        batch: BATCH,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs)
        .build()
        .map_err(|e| eyre!("versus: cannot start the worker threads: {e}"))?;
    // ctrl-c or SIGTERM: the batch in flight is dropped, its engines interrupted (an outside
    // adjudicator that hangs is killed at once), the summary written; a second one ends at once.
    let stop = super::signals::graceful(vec![ea.clone(), eb.clone()]);
    let tty = std::io::stderr().is_terminal();
    let shown = tty || args.progress;
    let started = Instant::now();
    let mut last: Option<Instant> = None;
    let mut drawn = false;
    let mut on_progress = |p: &Progress| {
        if !shown {
            return;
        }
        let now = Instant::now();
        let every = if tty {
            Duration::from_millis(250)
        } else {
            Duration::from_secs(1)
        };
        if last.is_some_and(|t| now.duration_since(t) < every) && p.done < p.total {
            return;
        }
        last = Some(now);
        let line = status_line(p, now.duration_since(started));
        if tty {
            note(format_args!("\r\x1b[K{line}"));
            drawn = true;
        } else {
            note(format_args!("progress: {line}\n"));
        }
    };
    let summary = pool.install(|| {
        v.run(
            args.count,
            shard,
            &args.output,
            &Rayon,
            Some(&stop),
            &mut on_progress,
        )
    });
    if drawn {
        note(format_args!("\r\x1b[K"));
    }
    let summary = summary.map_err(|e| eyre!("versus: {e}"))?;
    let elapsed = started.elapsed();
    if json_out {
        super::out::json(&summary_json(&summary, &args.output, Some(elapsed)))?;
    } else {
        print_summary(&summary, &args.output, Some(elapsed))?;
    }
    if summary.interrupted || stop.load(Ordering::Relaxed) {
        note(format_args!(
            "interrupted after {} positions (the batch in flight was dropped): the classes so far are written\n",
            summary.positions
        ));
        return Ok(ExitCode::from(super::minimize::STOPPED));
    }
    Ok(exit_status(&summary))
}

/// 0 when the engines agreed everywhere (in effect and in words), 1 when they did not.
fn exit_status(s: &Summary) -> ExitCode {
    if s.disagreements == 0 && s.wording_positions == 0 && s.errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `versus merge DIR… -o DIR`.
pub fn run_merge(dirs: &[PathBuf], output: &Path, force: bool, json_out: bool) -> Result<ExitCode> {
    if dirs.is_empty() {
        return Err(eyre!(
            "versus merge takes the output folders of shards: versus merge DIR… -o DIR"
        ));
    }
    let summary = merge(dirs, output, force).map_err(|e| eyre!("versus merge: {e}"))?;
    if json_out {
        super::out::json(&summary_json(&summary, output, None))?;
    } else {
        print_summary(&summary, output, None)?;
    }
    Ok(exit_status(&summary))
}

/// The summary as JSON (`dipsandbox.versus/1`, docs/versus.md).
fn summary_json(s: &Summary, out: &Path, elapsed: Option<Duration>) -> serde_json::Value {
    let classes: Vec<serde_json::Value> = s
        .classes
        .iter()
        .map(|c| {
            json!({
                "file": out.join(&c.file).display().to_string(),
                "count": c.count,
                "positions": c.count,
                "explained_positions": c.explained,
                "shape": c.shape,
                "explained": c.explains(&s.a, &s.b),
                "b_as_a": c.b_as_a,
                "a_as_b": c.a_as_b,
                "cause": c.way,
                "way": c.way,
                "first": c.first,
                "datc": c.datc,
                "known": known_json(&c.known, |_| c.count),
            })
        })
        .collect();
    let wording: Vec<serde_json::Value> = s
        .wording
        .iter()
        .map(|w| {
            json!({
                "file": out.join(&w.file).display().to_string(),
                "words": w.words,
                "explained": w.explains(&s.a, &s.b),
                "b_as_a": w.b_as_a,
                "b_as_a_held": w.b_as_a_held,
                "a_as_b": w.a_as_b,
                "a_as_b_held": w.a_as_b_held,
                "count": w.count,
                "first": w.first,
                "known": known_json(&w.known, |k| w.known_held(k)),
            })
        })
        .collect();
    json!({
        "schema": "dipsandbox.versus/1",
        "a": s.a,
        "b": s.b,
        "seed": s.seed,
        "mix": s.mix,
        "map": s.map,
        "rules": s.rules,
        "count": s.count,
        "shards": s.shards,
        "positions": s.positions,
        "disagreements": s.disagreements,
        "errors": s.errors,
        "first_error": s.first_error,
        "interrupted": s.interrupted,
        "seconds": elapsed.map(|e| e.as_secs_f64()),
        "output": out.display().to_string(),
        "classes": classes,
        "wording_positions": s.wording_positions,
        "wording": wording,
    })
}

/// The known departures of a row as JSON, each with the positions of the row it held on.
fn known_json(known: &[Known], held: impl Fn(&Known) -> u64) -> Vec<serde_json::Value> {
    known
        .iter()
        .map(|k| {
            json!({
                "engine": k.engine,
                "departure": k.title,
                "change": k.change,
                "on": if k.on_a { "a" } else { "b" },
                "words": k.words(),
                "positions": held(k),
            })
        })
        .collect()
}

/// The summary table.
fn print_summary(s: &Summary, out: &Path, elapsed: Option<Duration>) -> Result<()> {
    let rate = elapsed
        .filter(|e| e.as_secs_f64() > 0.0)
        .map(|e| {
            format!(
                "; {:.1} s, {:.0} positions/s",
                e.as_secs_f64(),
                s.positions as f64 / e.as_secs_f64()
            )
        })
        .unwrap_or_default();
    let shards = if s.shards.is_empty() {
        String::new()
    } else {
        format!(", shards {}", one_line(&s.shards.join(" ")))
    };
    let (a, b) = (one_line(&s.a), one_line(&s.b));
    let stopped = if s.interrupted {
        " — interrupted: not every position was run"
    } else {
        ""
    };
    let on_map = if s.map == "standard" {
        String::new()
    } else {
        format!(", map {}", one_line(&s.map))
    };
    outln!(
        "versus {a} {b}: {} positions (mix {}{on_map}, seed {}, rules {}{shards}){rate}{stopped}",
        s.positions,
        one_line(&s.mix),
        s.seed,
        one_line(&s.rules)
    )?;
    let known: Vec<&ClassRow> = s.classes.iter().filter(|c| !c.known.is_empty()).collect();
    outln!(
        "{} disagreements in effect, in {} class{} of causes{}{}",
        s.disagreements,
        s.classes.len(),
        if s.classes.len() == 1 { "" } else { "es" },
        match known.len() {
            0 => String::new(),
            k => format!(
                " ({k} of them known departures of the engines, {} positions)",
                known.iter().map(|c| c.count).sum::<u64>()
            ),
        },
        match s.errors {
            0 => String::new(),
            n => format!(
                "; {n} positions without a result ({})",
                one_line(s.first_error.as_deref().unwrap_or(""))
            ),
        }
    )?;
    if !s.classes.is_empty() {
        let w = s
            .classes
            .iter()
            .map(|c| one_line(&c.shape).chars().count())
            .max()
            .unwrap_or(5)
            .max(5);
        let (known, new): (Vec<&ClassRow>, Vec<&ClassRow>) =
            s.classes.iter().partition(|c| !c.known.is_empty());
        let row = |c: &ClassRow| -> Result<()> {
            outln!(
                "{:>8}  {:<w$}  {}",
                c.count,
                one_line(&c.shape),
                one_line(&c.explains(&s.a, &s.b))
            )?;
            if !c.known.is_empty() {
                outln!(
                    "{:>8}  {:<w$}  {}",
                    "",
                    "",
                    one_line(&known_words(&c.known))
                )?;
            }
            outln!("{:>8}  {:<w$}  {}", "", "", one_line(&c.way))?;
            if !c.datc.is_empty() {
                outln!(
                    "{:>8}  {:<w$}  like DATC {}",
                    "",
                    "",
                    one_line(&c.datc.join(", "))
                )?;
            }
            outln!(
                "{:>8}  {:<w$}  {}",
                "",
                "",
                one_line(&out.join(&c.file).display().to_string())
            )?;
            Ok(())
        };
        outln!(
            "{:>8}  {:<w$}  explained by (checked on every position)",
            "count",
            "shape"
        )?;
        for c in &new {
            row(c)?;
        }
        if !known.is_empty() {
            let n: u64 = known.iter().map(|c| c.count).sum();
            let k = known.len();
            outln!(
                "known departures (declared by the engines; {n} position{} in {k} class{}):",
                if n == 1 { "" } else { "s" },
                if k == 1 { "" } else { "es" }
            )?;
            for c in &known {
                row(c)?;
            }
        }
    }
    if s.wording_positions > 0 {
        outln!(
            "{} positions differ in wording only (every move made alike, the same dislodgements, positions and standoffs):",
            s.wording_positions
        )?;
        for w in &s.wording {
            outln!("{:>8}  {}", w.count, one_line(&w.words))?;
            outln!("{:>8}  {}", "", one_line(&w.explains(&s.a, &s.b)))?;
            if !w.known.is_empty() {
                outln!("{:>8}  {}", "", one_line(&w.known_words()))?;
            }
            outln!(
                "{:>8}  {}",
                "",
                one_line(&out.join(&w.file).display().to_string())
            )?;
        }
    }
    outln!("written to {}", one_line(&out.display().to_string()))?;
    Ok(())
}
