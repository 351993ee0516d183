//! The command line: arguments, and one file per sub-command.
//!
//! - [`show`]: `show` and the printed form of `dipsandbox [FILE] --print`.
//! - [`check`]: `check` over files and folders.
//! - [`explain`]: `explain`, with `--trace`, `--dot` and `--svg`.
//! - [`advance`]: `advance` to the next phase.
//! - [`render`]: `render`, a position as a picture (SVG or PNG).
//! - [`solve`]: `solve`: the equation oracle's count of solutions, against the resolver.
//! - [`diff`]: `diff`: two rule sets, every preset, the options that decide each case.
//! - [`jdip`]: `import` and `export` of jDip test files.
//! - [`minimize`]: `minimize`, the smallest part of a scenario that keeps some properties.
//! - [`info`]: `maps` and `rules`.
//! - [`versus`]: `versus A B`, the differential bench, and `versus merge`.
//! - [`report`]: `report`, one self-contained HTML page for a scenario or a `versus` or
//!   `replay` output folder.
//! - [`engines`]: the engines `--engine` may name beyond the registry's: `cmd:` command lines
//!   and the names of `engines.ron`.

/// `println!` that returns a [`out::StdoutError`] instead of panicking.
macro_rules! outln {
    () => {
        $crate::cli::out::line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::cli::out::line(format_args!($($arg)*))
    };
}

/// `print!` that returns a [`out::StdoutError`] instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::out::text(format_args!($($arg)*))
    };
}

/// `eprintln!` through [`out::err_line`]: control characters escaped, and no panic when
/// standard error fails.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::out::err_line(format_args!($($arg)*))
    };
}

mod advance;
mod check;
mod diff;
mod engine_check;
pub mod engines;
mod explain;
mod info;
mod input;

pub use input::EngineArg;
mod jdip;
mod map_art;
mod minimize;
mod out;
pub mod render;
mod replay;
mod report;
mod show;
mod signals;
mod solve;
mod versus;

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use color_eyre::eyre::{Result, eyre};

use dipsandbox_core::engine::{Engine, Registry};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::oracle::Limits;
use input::{is_stdin, load, scenario_inputs, target};
use show::EXAMPLES;

/// A sandbox for the adjudication rules of Diplomacy: a DATC-compliant adjudicator whose every
/// disputed rule is an option, scenarios as RON files, a terminal UI that steps through the
/// resolver's decisions, and a test bench for other adjudicators.
#[derive(Parser, Debug)]
#[command(name = "dipsandbox", version, about, long_about = None, after_help = EXAMPLES)]
pub struct Cli {
    /// A scenario file to open (default: the built-in Pandin's paradox).
    file: Option<PathBuf>,
    /// Print the adjudication instead of opening the TUI (the default when stdout is not a
    /// terminal).
    #[arg(long)]
    print: bool,
    /// Rules: a preset (datc, 2023, 2000, 1982, 1971, dptg) and/or field=Value overrides,
    /// comma-separated; replaces the scenario's own rules. `dipsandbox rules` lists them.
    /// Given once, except for `diff` and `minimize --keep differs`, which compare two.
    #[arg(long, global = true, value_name = "RULES")]
    rules: Vec<String>,
    /// Machine-readable output for `check`, `explain`, `solve`, `diff`, `engine-check`, `replay`
    /// and `versus` (schemas in docs/json.md and docs/versus.md).
    #[arg(long, global = true)]
    json: bool,
    /// The engine that adjudicates movement phases: `decisions` (the DATC decision model, the
    /// default), `dpjudge` (the DPjudge procedure) or `guess` (DATC 5.F's guess algorithm;
    /// `guess:K`, `guess:reversed` choose where it starts), for the TUI, `--print`, `explain`,
    /// `check`, `advance`, `minimize` and `replay`; or an outside adjudicator: `cmd:PROGRAM ARGS`
    /// (one process, a JSON line per phase; `cmd-once:` starts one per phase) or a name from
    /// engines.ron in the config folder (docs/engines.md, docs/outside-engines.md).
    #[arg(long, global = true, value_name = "ENGINE", default_value = "decisions", value_parser = builtin_engine)]
    engine: EngineArg,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print a scenario's position and orders.
    Show {
        /// The scenario file.
        file: PathBuf,
    },
    /// Validate scenarios, adjudicate them and compare with their expectations.
    ///
    /// Prints one line per case, then `N passed, M failed`. Exit status: 0 all passed, 1 any
    /// failed, 2 some input could not be read.
    Check {
        /// Scenario files or folders (searched recursively for .ron files).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print every mismatch, not only the case line.
        #[arg(long, short)]
        verbose: bool,
        /// Also write a JUnit XML report (one test case per scenario) to this file.
        #[arg(long, value_name = "REPORT.xml")]
        junit: Option<PathBuf>,
        /// Pair the cases of jDip test files with the rules their expectations assume, from
        /// this file (lines `CASE-NAME RULES`), instead of the `FILE.rules` beside each file.
        #[arg(long, value_name = "FILE.rules")]
        pairing: Option<PathBuf>,
        /// Replace the --junit file if it exists.
        #[arg(long)]
        force: bool,
        /// How expected verdicts are held against the engine's: `strict` (the default) word for
        /// word, naming a mismatch of wording only as such; `lenient` takes any verdict but a
        /// success for an expected `Fails`; `effect` compares only what orders do (whether each
        /// move, build or removal is carried out) and the board.
        #[arg(long, value_enum, default_value_t = WordingArg::Strict)]
        wording: WordingArg,
    },
    /// Adjudicate a scenario and explain every outcome.
    ///
    /// Optionally the engine's trace (`--trace`) and the decision graph (`--dot FILE` for
    /// Graphviz, `--svg FILE` for a picture drawn with no Graphviz).
    Explain {
        /// The scenario file.
        file: PathBuf,
        /// Print the resolver's reasoning step by step.
        #[arg(long)]
        trace: bool,
        /// Write the decision graph as Graphviz DOT to this file.
        #[arg(long, value_name = "OUT.dot")]
        dot: Option<PathBuf>,
        /// Draw the decision graph as an SVG picture to this file, with no Graphviz: cycles
        /// coloured by kind, forced values bold, a legend (at most 300 decisions). `-` prints
        /// only the picture, to standard output.
        #[arg(long, value_name = "OUT.svg")]
        svg: Option<PathBuf>,
        /// Replace the --dot or --svg file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Draw a scenario's position as a picture: SVG or PNG.
    ///
    /// The provinces, the units and the orders (moves as arrows, supports as dashed lines,
    /// convoys as the route through the fleets, holds as rings), each coloured by its verdict,
    /// with dislodged units and standoffs marked and a legend; before the phase, or after it
    /// with --after. Without -o the SVG is printed.
    Render(render::RenderArgs),
    /// Adjudicate a phase and write the next phase as a scenario, ready for orders.
    ///
    /// Spring movement → retreat (if anyone was dislodged) → Fall movement → retreat → Winter
    /// adjustment (if anyone must adjust) → Spring of the next year. Supply centres change hands
    /// after the Fall phases.
    Advance {
        /// The scenario file.
        file: PathBuf,
        /// Where to write the next phase (default: print it).
        #[arg(short, long, value_name = "NEXT.ron")]
        output: Option<PathBuf>,
        /// Replace the output file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Count the solutions of the DATC 5.B equations and check the resolver against them.
    ///
    /// The equations of a movement phase are searched exhaustively (no backup rule), and the
    /// decisions on which the solutions differ are shown. One solution must be taken as it is;
    /// none or several need a backup rule.
    ///
    /// Exit status: 0 the resolver does what DATC 5.B.9 asks, 1 it does not, 2 an input could not
    /// be read (or is not a movement phase), 3 too large to search within --limit.
    Solve {
        /// The scenario file.
        file: PathBuf,
        /// The most guesses the search may make before it gives up.
        #[arg(long, value_name = "GUESSES", default_value_t = Limits::default().steps)]
        limit: u64,
    },
    /// Compare results under two rule sets, every preset, or each single option.
    ///
    /// Two rule sets: `--rules A --rules B`, or the scenario's own and `--rules B`. Every preset:
    /// `--all-presets`. With no rules given, the single options that change each case (a
    /// folder: summarized by option). Between engines: `--engines`.
    ///
    /// Exit status: 0 nothing differs, 1 something does, 2 an input could not be read.
    Diff {
        /// Scenario files or folders. `--rules` (at most twice) gives the rule sets.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// A table of every order's verdict under every preset.
        #[arg(long)]
        all_presets: bool,
        /// Compare two engines (by default the decision model and the DPjudge procedure;
        /// `--engines=A,B` names them) under the rules in use: the orders, dislodgements and
        /// positions on which they disagree.
        #[arg(
            long,
            conflicts_with = "all_presets",
            value_name = "A,B",
            num_args = 0..=1,
            require_equals = true,
            default_missing_value = "decisions,dpjudge"
        )]
        engines: Option<String>,
    },
    /// Replay games recorded by other programs and show where an engine differs.
    ///
    /// Phase by phase, with any engine (`--engine`): the Python `diplomacy` package's saved
    /// games (JSON) and godip's game files. Each phase whose result differs from the recording
    /// is written to --out as a scenario whose expectations are the recorded result, with the
    /// rule options that explain it. A folder of games runs on every core, one summary line per
    /// game.
    ///
    /// Exit status: 0 every replayed phase agrees, 1 one differs, 2 a game or one of its phases
    /// could not be read.
    Replay {
        /// Game files, or folders of them (`.json`, `.txt`).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Go on after the first phase that differs.
        #[arg(long)]
        all: bool,
        /// The folder for the scenarios of the phases that differ.
        #[arg(short, long, value_name = "DIR", default_value = "replay-out")]
        out: PathBuf,
        /// The map of the games: a map's name or a map file (default: the map a game names, which
        /// must be built in; for godip games the NAME of the variants/NAME/games folder they are
        /// in, else standard).
        #[arg(long, value_name = "MAP")]
        map: Option<String>,
        /// Replace files that are in the folder already (none is written otherwise).
        #[arg(long)]
        force: bool,
    },
    /// Run an outside adjudicator through a folder of cases and check its answers.
    ///
    /// The engine is `cmd:PROGRAM ARGS` or a name from engines.ron; the cases default to
    /// scenarios/datc. Every answer is checked against the protocol (docs/json.md), and each
    /// case is compared with its expectations and with the decision engine.
    ///
    /// Exit status: 0 every answer valid, 1 some phase got no valid answer, 2 an input could
    /// not be read.
    EngineCheck {
        /// The engine: `cmd:PROGRAM ARGS`, `cmd-once:PROGRAM ARGS`, a name from engines.ron in
        /// the config folder, or a built-in engine's name.
        #[arg(value_name = "ENGINE")]
        adjudicator: String,
        /// Scenario files or folders (default: scenarios/datc).
        paths: Vec<PathBuf>,
    },
    /// Import a jDip test file: one scenario per case (positions-only expectations).
    ///
    /// The files are written all at once: when one cannot be written, none is. Exit status: 0,
    /// or 1 when some line or case could not be imported (reported with its line; the others
    /// are written), 2 when nothing was written.
    Import {
        /// The jDip test file (`-`: standard input).
        file: PathBuf,
        /// The folder to write the scenarios to.
        #[arg(long, value_name = "DIR")]
        to: PathBuf,
        /// Pair cases with rules from this file (lines `CASE-NAME RULES`) instead of the
        /// `FILE.rules` beside the file.
        #[arg(long, value_name = "FILE.rules")]
        pairing: Option<PathBuf>,
        /// Replace scenario files that already exist in the folder.
        #[arg(long)]
        force: bool,
        /// The map of the file's variant (`VARIANT_ALL`): a map file, a NAME in maps/ (e.g.
        /// one written by `map import variants.xml --variant DATC_Chaos`) or a built-in map's
        /// name (`dipsandbox maps`); default standard.
        #[arg(long, value_name = "MAP")]
        map: Option<String>,
    },
    /// Export scenarios as a jDip test file, for other adjudicators to run.
    ///
    /// A scenario is exported when its own rules meet its expectations (or it has none); the
    /// expected position is the adjudicated one.
    Export {
        /// The format.
        #[arg(long, default_value = "jdip")]
        format: String,
        /// Scenario files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Where to write (default: print).
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Replace the output file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Shrink a scenario while every `--keep` property still holds.
    ///
    /// Removes units and orders (delta debugging), then makes orders holds, and writes the
    /// smallest scenario with its expectations re-derived under the rules in use (which it
    /// carries).
    ///
    /// Properties: `backup` (a backup rule is applied; or `backup:circular`, `backup:szykman`,
    /// `backup:all-hold`, `backup:all-fail`); `outcome:ORDER=VERDICT` (the order, matched by its
    /// parse, succeeds, fails, is illegal or void: `outcome:F Wales - English Channel=fails`);
    /// `mismatch` (a mismatch with the scenario's expectations stays, with the same verdict and
    /// kind of cause); `differs` (verdicts, dislodgements or positions differ between the rules
    /// in use and the other rule set: `--rules B` against the scenario's own, or `--rules A
    /// --rules B`); `solutions:N` (the DATC 5.B equations have exactly N solutions, as `solve`
    /// counts them: `solutions:0` keeps a paradox with no resolution). `backup` and `solutions`
    /// need a movement phase. Each accepted reduction is reported on stderr; on a terminal a
    /// status line shows the pass, the size left, the adjudications run and their rate.
    ///
    /// Ctrl-c (or `--max-runs`, `--max-time`) stops the search: the smallest scenario found so
    /// far, which keeps every property, is written as usual and the exit status is 3.
    Minimize {
        /// The scenario file.
        file: PathBuf,
        /// A property to keep (repeatable: all must hold).
        #[arg(long, required = true, value_name = "PROPERTY")]
        keep: Vec<String>,
        /// Where to write the minimized scenario (default: print it).
        #[arg(short, long, value_name = "SMALL.ron")]
        output: Option<PathBuf>,
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
        /// Stop after N adjudications (the input's check included), keeping the smallest
        /// scenario found so far (exit status 3).
        #[arg(long, value_name = "N")]
        max_runs: Option<usize>,
        /// Stop after SECS seconds of search (e.g. 10 or 0.5), keeping the smallest scenario
        /// found so far (exit status 3).
        #[arg(long, value_name = "SECS", value_parser = minimize::seconds)]
        max_time: Option<std::time::Duration>,
        /// Report progress on stderr even when it is not a terminal (a line a second, and one
        /// at the start of each pass).
        #[arg(long)]
        progress: bool,
    },
    /// The differential bench: two engines on random positions, disagreements classed.
    ///
    /// Random legal positions (seeded: `--seed`, `--count`), each adjudicated by engines A and
    /// B; every disagreement shrunk to a minimal position that disagrees the same way, classed
    /// by its shape and by the single rule options that explain it, and written as one scenario
    /// file per class (both engines' results as comments, the
    /// DATC rules' results as expectations) in `-o DIR`, with `summary.versus`; a table of the
    /// classes at the end. Runs on every core; ctrl-c stops with the classes so far written
    /// (exit status 3). Exit status 0 when the engines agreed on every position, 1 when not.
    ///
    /// `versus merge DIR… -o DIR` unions the output folders of `--shard` runs.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Versus {
        /// The two engines (`decisions`, `dpjudge`, or any the registry has).
        #[arg(value_name = "ENGINE", num_args = 0..=2)]
        engines: Vec<String>,
        /// Positions to run (each shard takes its part of them).
        #[arg(long, default_value_t = 10_000)]
        count: u64,
        /// The seed: position i depends only on the seed, i and the mix.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The kind of positions: paradox (convoys next to supported attacks), circular,
        /// head (head-to-head), retreat, adjust (adjustments with civil disorder), all.
        #[arg(long, default_value = "all")]
        mix: String,
        /// The map the positions are made on: a built-in map's name (`maps` lists them) or a
        /// map file.
        #[arg(long, value_name = "MAP", default_value = "standard")]
        map: String,
        /// The output folder.
        #[arg(short, long, value_name = "DIR", default_value = "versus-out")]
        output: PathBuf,
        /// Run only positions i with i mod N = I (`--shard 2/8`); `versus merge` unions the
        /// folders.
        #[arg(long, value_name = "I/N")]
        shard: Option<String>,
        /// Write into a folder that holds a run already.
        #[arg(long)]
        force: bool,
        /// Report progress on stderr even when it is not a terminal (a line a second).
        #[arg(long)]
        progress: bool,
        /// Worker threads (default: one per core; at most 256).
        #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
        jobs: usize,
        #[command(subcommand)]
        merge: Option<VersusCommand>,
    },
    /// A self-contained HTML page of a scenario, or of a `versus` or `replay` folder.
    ///
    /// For a scenario: its picture, the orders with verdicts and reasons, the rule options in
    /// force, the expectations met or missed, and a stepper through the engine's trace
    /// (forward, back, jump to the next cycle or backup rule; ←/→ and ]) that highlights on the
    /// picture what each step decides. For a folder: a card per class (or per differing
    /// phase) with its picture under each engine, the explanation, the count and the file to
    /// open in the TUI. No network, no external file: the page opens anywhere.
    Report(report::Args),
    /// Print a shell completion script.
    ///
    /// `dipsandbox completions bash > ~/.local/share/bash-completion/completions/dipsandbox`.
    Completions {
        /// The shell (bash, zsh, fish, elvish, powershell).
        shell: clap_complete::Shell,
    },
    /// List the maps and their summaries: the built-in ones and each file in maps/.
    Maps,
    /// Map files: import another adjudicator's map, board art, an opening position.
    Map {
        #[command(subcommand)]
        action: MapCommand,
    },
    /// List the rule options, their values and the presets.
    Rules,
}

/// `check --wording`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum WordingArg {
    /// Word for word: an expected `Fails` wants `fails`.
    Strict,
    /// An expected `Fails` takes any verdict but a success.
    Lenient,
    /// Only effect: whether each move, build or removal is carried out, and the board.
    Effect,
}

/// `map …`.
#[derive(Subcommand, Debug)]
enum MapCommand {
    /// Import another adjudicator's map into a dipsandbox map file.
    ///
    /// A DPjudge-style `.map` file (the DPjudge, the Python `diplomacy` package) or a jDip
    /// `variants.xml` (with the adjacency file it names); what it reads but does not support is
    /// listed on stderr.
    Import {
        /// The map file (the files it includes are read from its folder), or a jDip
        /// variants.xml.
        file: PathBuf,
        /// Where to write the map (default: maps/NAME.ron).
        #[arg(long, short = 'o', value_name = "FILE")]
        out: Option<PathBuf>,
        /// The map's name (default: the file's name without its extension; for jDip, the
        /// variant's name).
        #[arg(long)]
        name: Option<String>,
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
        /// jDip: the variant to read, by name or alias (needed when the file holds several).
        #[arg(long, value_name = "NAME")]
        variant: Option<String>,
        /// jDip: the adjacency file (default: the one the variant's `<MAP adjacencyURI>` names,
        /// beside the variants.xml).
        #[arg(long, value_name = "FILE")]
        adjacency: Option<PathBuf>,
        /// Read each province's position (its unit's point) from this SVG map of the same
        /// variant (jDip-style, as the Python package ships), for the generated board art.
        #[arg(long, value_name = "FILE.svg")]
        svg: Option<PathBuf>,
    },
    /// Write generated board art into a map file, for its author to touch up.
    ///
    /// An `anchor` per province and the `art` list; a map with art of its own is left alone
    /// without --force.
    Art {
        /// The map file.
        file: PathBuf,
        /// Where to write the map with its art (default: over FILE).
        #[arg(long, short = 'o', value_name = "FILE")]
        out: Option<PathBuf>,
        /// Replace the map's own art (and an existing -o file).
        #[arg(long)]
        force: bool,
    },
    /// Write a position for every province of a map file that has none, for pictures.
    ///
    /// From the neighbours' positions; for a map with none at all, from its board art, else
    /// from a layout of its borders. A map whose provinces all have one is left as it is.
    Positions {
        /// The map file.
        file: PathBuf,
        /// Where to write the map with its positions (default: over FILE).
        #[arg(long, short = 'o', value_name = "FILE")]
        out: Option<PathBuf>,
        /// Replace an existing -o file.
        #[arg(long)]
        force: bool,
    },
    /// Write a map's opening position as a scenario.
    ///
    /// Each power's starting units, Spring of the map's first year: to FILE with -o, else to
    /// stdout.
    Opening {
        /// The map: a built-in map's name (`dipsandbox maps`), a name in maps/, or a path to a
        /// map file.
        map: String,
        /// Where to write the scenario (refuses to overwrite).
        #[arg(long, short = 'o', value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// `versus merge`.
#[derive(Subcommand, Debug)]
enum VersusCommand {
    /// Union the output folders of shards: counts summed, one file per class kept.
    Merge {
        /// The shards' output folders.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// The merged folder.
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
        /// Replace the files of a run the merged folder holds already.
        #[arg(long)]
        force: bool,
    },
}

/// The most characters an error message is printed with (far more than any needs: the
/// program's own messages quote user text cut short).
const ERROR_CHARS: usize = 10_000;

impl Cli {
    /// The engine `--engine` named (the registry's default when it is not given).
    pub fn engine(&self) -> &EngineArg {
        &self.engine
    }
}

/// `--engine NAME` as clap's derive sees it (the built-in engines); [`parse_args`] replaces it
/// with a parser over the registry it is given.
fn builtin_engine(s: &str) -> std::result::Result<EngineArg, String> {
    EngineArg::parse(&Registry::builtin(), s)
}

/// Reads the command line's arguments (the program name first), with `--engine` and
/// `diff --engines` looked up in `registry`. Errors are clap's, ready to print.
pub fn parse_args<I, T>(registry: &Registry, args: I) -> std::result::Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let reg = registry.clone();
    // `diff … --engines A,B` (a space, as people write it) means `--engines=A,B` when what
    // follows names two engines (a comma) and is no file or folder; `--engines` alone keeps
    // its default pair.
    let mut args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let mut i = 0;
    while i + 1 < args.len() {
        if args[i] == "--engines"
            && let Some(next) = args[i + 1].to_str()
            && next.contains(',')
            && !next.starts_with('-')
            && !std::path::Path::new(next).exists()
        {
            let joined = format!("--engines={next}");
            args.splice(i..i + 2, [OsString::from(joined)]);
        }
        i += 1;
    }
    let mut matches = Cli::command()
        .mut_arg("engine", move |a| {
            a.value_parser(move |s: &str| EngineArg::parse(&reg, s))
        })
        .try_get_matches_from(args)?;
    Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut Cli::command()))
}

/// The engines of `diff --engines=A,B`, looked up in `registry` (or outside programs:
/// [`EngineArg::parse`]).
pub fn engines_arg(registry: &Registry, spec: &str) -> Result<(Arc<dyn Engine>, Arc<dyn Engine>)> {
    // An outside command (`cmd:PROGRAM ARGS`) given second keeps any commas of its own.
    let names: Vec<&str> = match spec.split_once(',') {
        Some((a, b))
            if dipsandbox_core::engine::outside::engine::CMD_PREFIXES
                .iter()
                .any(|(p, _)| b.trim_start().starts_with(p)) =>
        {
            vec![a.trim(), b.trim()]
        }
        _ => spec.split(',').map(str::trim).collect(),
    };
    let [a, b] = names[..] else {
        return Err(eyre!(
            "--engines names two engines: --engines=A,B (the engines are {})",
            registry.names().join(", ")
        ));
    };
    let get = |n: &str| {
        EngineArg::parse(registry, n)
            .map(|a| a.engine)
            .map_err(|e| eyre!("--engines: {e}"))
    };
    Ok((get(a)?, get(b)?))
}

/// `registry` with `engine` added when it is not one of them (an outside engine named on the
/// command line), so that the TUI's engine switch and compare reach it.
fn with_engine(registry: &Registry, engine: &Arc<dyn Engine>) -> Registry {
    let mut r = registry.clone();
    if r.get(engine.name()).is_none() {
        r.register_arc(engine.clone());
    }
    r
}

/// Runs the command line with the built-in engines.
pub fn main() -> ExitCode {
    main_with(Registry::builtin())
}

/// Runs the command line with the engines of `registry` (the built-in ones plus any registered
/// at run time).
pub fn main_with(registry: Registry) -> ExitCode {
    install_hooks();
    let cli = match parse_args(&registry, std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => return argument_error(e),
    };
    // The headless commands end outside adjudicators on ctrl-c, SIGTERM and SIGHUP; the TUI
    // handles its signals itself.
    if !opens_the_tui(&cli) {
        signals::watch();
    }
    let result =
        run(cli, &registry).and_then(|code| out::flush().map(|()| code).map_err(Into::into));
    // No outside program outlives the command (nor anything it started).
    dipsandbox_core::engine::outside::process::end_all();
    match result {
        Ok(code) => code,
        Err(e) => match e.downcast_ref::<out::StdoutError>() {
            // The reader went away: end quietly, as a process killed by SIGPIPE would.
            Some(o) if o.is_closed_pipe() => ExitCode::from(141),
            _ => {
                // Every quoted token is cut where it is quoted; this is the last guard, for a
                // message that quotes text no function of the program cut.
                let message = format!("{e:#}");
                errln!(
                    "error: {}",
                    dipsandbox_core::base::text::bounded(&message, ERROR_CHARS)
                );
                ExitCode::from(2)
            }
        },
    }
}

/// An argument clap cannot read (or `--help`, `--version`): printed by clap, in colour on a
/// terminal, unless an argument holds a control character (a file name from a folder listing,
/// say), which clap would then print raw: the message is then printed plain (without clap's
/// colours), with what remains of such characters escaped.
fn argument_error(e: clap::Error) -> ExitCode {
    let hostile = std::env::args_os().any(|a| a.to_string_lossy().chars().any(char::is_control));
    if !hostile {
        e.exit();
    }
    let plain = e.render().to_string();
    let plain = plain.trim_end();
    if e.use_stderr() {
        errln!("{plain}");
    } else {
        let _ = outln!("{plain}");
    }
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

/// Installs color-eyre's panic report (a panic is a bug: its report says where, with a
/// backtrace when `RUST_BACKTRACE` asks for one) and, for errors, a handler that captures
/// nothing. An error is about the input (a file that does not load, an argument) and is printed
/// as one message; color-eyre's own error handler would capture a backtrace for each one when
/// `RUST_BACKTRACE=1`, as many developers' shells set it, which cost 0.15 s and 77 MB an
/// error exit.
fn install_hooks() {
    match color_eyre::config::HookBuilder::default().try_into_hooks() {
        Ok((panic_hook, _)) => panic_hook.install(),
        Err(e) => errln!("warning: {e}"),
    }
    if let Err(e) = color_eyre::eyre::set_hook(Box::new(|_| Box::new(InputError))) {
        errln!("warning: {e}");
    }
}

/// The handler of every error: no backtrace, no span trace; the message and its causes.
struct InputError;

impl color_eyre::eyre::EyreHandler for InputError {
    fn debug(
        &self,
        error: &(dyn std::error::Error + 'static),
        f: &mut std::fmt::Formatter<'_>,
    ) -> std::fmt::Result {
        write!(f, "{error}")?;
        let mut cause = error.source();
        while let Some(c) = cause {
            write!(f, ": {c}")?;
            cause = c.source();
        }
        Ok(())
    }
}

fn rules_arg(specs: &[String]) -> Result<Option<Rules>> {
    match specs {
        [] => Ok(None),
        [s] => Rules::parse_spec(s)
            .map(Some)
            .map_err(|e| eyre!("--rules: {e}")),
        _ => Err(eyre!(
            "--rules is given once (only `diff` and `minimize --keep differs` compare two rule sets)"
        )),
    }
}

/// Whether the command line opens the TUI: no command, no `--print`, and a terminal on both
/// standard input and output.
fn opens_the_tui(cli: &Cli) -> bool {
    cli.command.is_none()
        && !cli.print
        && std::io::stdout().is_terminal()
        && std::io::stdin().is_terminal()
}

/// Carries out a parsed command line, with the engines of `registry`.
pub fn run(mut cli: Cli, registry: &Registry) -> Result<ExitCode> {
    // `diff` and `minimize` take up to two rule sets; every other command one.
    let rules = match cli.command {
        Some(Command::Diff { .. } | Command::Minimize { .. }) => None,
        _ => rules_arg(&cli.rules)?,
    };
    let json_ok = matches!(
        cli.command,
        Some(
            Command::Check { .. }
                | Command::Explain { .. }
                | Command::Solve { .. }
                | Command::Diff { .. }
                | Command::Replay { .. }
                | Command::EngineCheck { .. }
                | Command::Versus { .. }
        )
    );
    if cli.json && !json_ok {
        return Err(eyre!(
            "--json is for check, explain, solve and diff (and engine-check, replay, versus)"
        ));
    }
    if cli.command.is_none()
        && let Some(f) = &cli.file
    {
        not_a_command(f)?;
    }
    let Some(command) = cli.command.take() else {
        return run_default(&cli, registry, rules);
    };
    match command {
        Command::Show { file } => show::show(&load(&file)?, rules),
        Command::Explain { file, .. } if cli.json => {
            explain::explain_json(&load(&file)?, rules, &cli.engine)
        }
        Command::Explain {
            file,
            trace,
            dot,
            svg,
            force,
        } => explain_command(&file, trace, [dot, svg], force, &cli, rules),
        Command::Check {
            paths,
            verbose,
            junit,
            pairing,
            force,
            wording,
        } => check::check(
            &paths,
            rules,
            &cli.engine,
            &check::How {
                verbose,
                json: cli.json,
                junit: junit.as_deref().map(|j| (j, force)),
                pairing: pairing.as_deref(),
                wording: match wording {
                    WordingArg::Strict => dipsandbox_core::tools::check::Wording::Strict,
                    WordingArg::Lenient => dipsandbox_core::tools::check::Wording::Lenient,
                    WordingArg::Effect => dipsandbox_core::tools::check::Wording::Effect,
                },
            },
        ),
        Command::Advance {
            file,
            output,
            force,
        } => {
            let s = load(&file)?;
            let output = output
                .map(|o| target(&o, scenario_inputs(&file, &s), force))
                .transpose()?;
            advance::advance(&s, rules, &cli.engine, output.as_ref())
        }
        Command::Render(args) => render::run(&args, rules, &cli.engine),
        Command::Solve { file, limit } if cli.json => {
            solve::solve_json(&load(&file)?, rules, limit)
        }
        Command::Solve { file, limit } => solve::solve_text(&load(&file)?, rules, limit),
        Command::Diff {
            paths,
            all_presets,
            engines,
        } => {
            let engines = engines
                .map(|spec| engines_arg(registry, &spec))
                .transpose()?;
            diff::run(&paths, &cli.rules, all_presets, engines, cli.json)
        }
        Command::Replay {
            paths,
            all,
            out,
            map,
            force,
        } => replay::run(&replay::Request {
            paths: &paths,
            engine: cli.engine.engine.clone(),
            rules,
            all,
            out: &out,
            force,
            map: map.as_deref(),
            json: cli.json,
        }),
        Command::EngineCheck { adjudicator, paths } => {
            let engine = EngineArg::parse(registry, &adjudicator).map_err(|e| eyre!("{e}"))?;
            engine_check::run(&engine, &paths, rules, cli.json)
        }
        Command::Import {
            file,
            to,
            pairing,
            force,
            map,
        } => jdip::import(&file, &to, pairing.as_deref(), force, map.as_deref()),
        Command::Export {
            format,
            paths,
            output,
            force,
        } => jdip::export(&format, &paths, output.as_deref(), force),
        Command::Minimize {
            file,
            keep,
            output,
            force,
            max_runs,
            max_time,
            progress,
        } => minimize::run(
            &file,
            &keep,
            &cli.rules,
            output.as_deref(),
            force,
            minimize::Search {
                max_runs,
                max_time,
                progress,
            },
            &cli.engine,
        ),
        Command::Versus {
            merge:
                Some(VersusCommand::Merge {
                    dirs,
                    output,
                    force,
                }),
            ..
        } => versus::run_merge(&dirs, &output, force, cli.json),
        Command::Versus {
            engines,
            count,
            seed,
            mix,
            map,
            output,
            shard,
            force,
            progress,
            jobs,
            merge: None,
        } => versus::run(
            versus::Args {
                engines,
                count,
                seed,
                mix,
                map,
                output,
                shard,
                force,
                progress,
                jobs,
            },
            registry,
            rules,
            cli.json,
        ),
        Command::Report(args) => report::run(&args, &cli.engine, registry, rules),
        Command::Completions { shell } => completions(shell),
        Command::Maps => info::maps(),
        Command::Map { action } => map_command(action),
        Command::Rules => info::rules(),
    }
}

/// No command: the TUI when it opens ([`opens_the_tui`]), else the adjudication of the file
/// (or of the built-in scenario) printed.
fn run_default(cli: &Cli, registry: &Registry, rules: Option<Rules>) -> Result<ExitCode> {
    if opens_the_tui(cli) {
        // The engines the user has: the registry's, --engine's and engines.ron's (a
        // file the TUI opens may name any of them; it starts no other program).
        let mut known = with_engine(registry, &cli.engine.engine);
        for e in engines::configured() {
            if known.get(e.name()).is_none() {
                known.register_arc(e);
            }
        }
        crate::tui::run(cli.file.as_deref(), rules, cli.engine.engine.clone(), known)?;
        return Ok(ExitCode::SUCCESS);
    }
    let (s, builtin) = match &cli.file {
        Some(f) => (load(f)?, false),
        None => (Scenario::builtin()?, true),
    };
    show::print_default(&s, rules, &cli.engine, builtin)
}

/// `explain`: a scenario's adjudication step by step, with its decision graph written to the
/// `[dot, svg]` files (`--svg -`: the picture alone, to standard output).
fn explain_command(
    file: &Path,
    trace: bool,
    [dot, svg]: [Option<PathBuf>; 2],
    force: bool,
    cli: &Cli,
    rules: Option<Rules>,
) -> Result<ExitCode> {
    let s = load(file)?;
    if let Some(p) = &svg
        && is_stdin(p)
    {
        if trace || dot.is_some() {
            return Err(eyre!(
                "--svg - prints only the picture; write it to a file to have --trace or --dot too"
            ));
        }
        return explain::svg_to_stdout(&s, rules, &cli.engine);
    }
    // Checked first when a graph will be drawn (a movement phase under the decision
    // model); else only a note says why there is none.
    let draws = s.phase.kind == dipsandbox_core::model::board::PhaseKind::Movement
        && cli.engine.engine.name() == dipsandbox_core::engine::DecisionEngine.name();
    let out = |d: PathBuf| {
        let inputs = scenario_inputs(file, &s);
        if draws {
            target(&d, inputs, force)
        } else {
            Ok(dipsandbox_core::base::output::Target::new(
                &d, inputs, force,
            ))
        }
    };
    let dot = dot.map(out).transpose()?;
    let svg = svg.map(out).transpose()?;
    explain::explain(
        &s,
        rules,
        &cli.engine,
        trace,
        explain::Graphs {
            dot: dot.as_ref(),
            svg: svg.as_ref(),
        },
    )
}

/// `completions`: the shell's completion script, printed.
fn completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "dipsandbox", &mut buf);
    out!("{}", String::from_utf8_lossy(&buf))?;
    Ok(ExitCode::SUCCESS)
}

/// `map …`: import a map, draw its art, or print its opening.
fn map_command(action: MapCommand) -> Result<ExitCode> {
    match action {
        MapCommand::Import {
            file,
            out,
            name,
            force,
            variant,
            adjacency,
            svg,
        } => info::map_import(
            &file,
            out.as_deref(),
            name.as_deref(),
            force,
            &info::JdipChoice {
                variant: variant.as_deref(),
                adjacency: adjacency.as_deref(),
            },
            svg.as_deref(),
        ),
        MapCommand::Art { file, out, force } => info::map_art(&file, out.as_deref(), force),
        MapCommand::Positions { file, out, force } => {
            map_art::map_positions(&file, out.as_deref(), force)
        }
        MapCommand::Opening { map, out } => info::map_opening(&map, out.as_deref()),
    }
}

/// `dipsandbox new`: a word that is neither a file nor a command is not read as a file; the
/// error lists the commands (and the one it is closest to).
fn not_a_command(f: &Path) -> Result<()> {
    let word = f.to_string_lossy();
    let plain = !word.contains(['/', '\\', '.']) && !is_stdin(f);
    if f.exists() || !plain {
        return Ok(());
    }
    let names: Vec<String> = Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|n| n != "help")
        .collect();
    // Within two edits; an argument of any length costs nothing (`near` skips names out of
    // reach by length).
    let close = dipsandbox_core::base::near::closest(&word, names.iter().map(String::as_str), 2);
    let hint = close.map_or(String::new(), |n| {
        format!(" (did you mean `dipsandbox {n}`?)")
    });
    Err(eyre!(
        "{word}: no such file, and not a command{hint}; the commands are: {}. \
         `dipsandbox --help` says more",
        names.join(", ")
    ))
}
