//! The `dipsandbox` command line.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use color_eyre::eyre::{Result, WrapErr, eyre};

use dipsandbox::adjudicator::trace::to_dot;
use dipsandbox::check::{compare, run};
use dipsandbox::map::Map;
use dipsandbox::report;
use dipsandbox::rules::{PRESETS, Rules};
use dipsandbox::scenario::Scenario;

/// The built-in scenario: Pandin's paradox (DATC 6.F.16), which shows a decision cycle and the
/// Szykman rule at work.
const BUILTIN: &str = include_str!("../scenarios/pandin.ron");

const EXAMPLES: &str = "\
Examples:
  dipsandbox                                   the built-in scenario (Pandin's paradox), adjudicated
  dipsandbox scenarios/datc/6.F.16.ron         the same for a file
  dipsandbox show scenarios/datc/6.A.1.ron     position and orders
  dipsandbox check scenarios/datc              adjudicate every scenario and compare with its expectations
  dipsandbox explain scenarios/datc/6.F.16.ron --trace --dot pandin.dot
  dipsandbox explain FILE --rules 1982         the same orders under the 1982 paradox rule
  dipsandbox explain FILE --rules datc,multi_route_disruption=AnyRoute
  dipsandbox advance FILE -o NEXT.ron          adjudicate and write the next phase, ready for orders
  dipsandbox maps                              the maps and their summaries";

/// A sandbox for the adjudication rules of Diplomacy: a DATC-compliant adjudicator whose every
/// disputed rule is an option, scenarios as RON files, and a test bench for other adjudicators.
#[derive(Parser, Debug)]
#[command(name = "dipsandbox", version, about, long_about = None, after_help = EXAMPLES)]
struct Cli {
    /// A scenario file to adjudicate and print (default: the built-in Pandin's paradox).
    file: Option<PathBuf>,
    /// Rules: a preset (datc, 2023, 2000, 1982, 1971, dptg) and/or field=Value overrides,
    /// comma-separated; replaces the scenario's own rules. `dipsandbox rules` lists them.
    #[arg(long, global = true)]
    rules: Option<String>,
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
    },
    /// Adjudicate a scenario and explain every outcome; optionally the resolver's trace and the
    /// decision graph.
    Explain {
        /// The scenario file.
        file: PathBuf,
        /// Print the resolver's reasoning step by step.
        #[arg(long)]
        trace: bool,
        /// Write the decision graph as Graphviz DOT to this file.
        #[arg(long, value_name = "OUT.dot")]
        dot: Option<PathBuf>,
    },
    /// Adjudicate a scenario's phase and write the next phase as a scenario with empty orders.
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
    },
    /// List the maps and their summaries.
    Maps,
    /// List the rule options, their values and the presets.
    Rules,
}

fn main() -> ExitCode {
    if let Err(e) = color_eyre::install() {
        eprintln!("warning: {e}");
    }
    let cli = Cli::parse();
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn rules_arg(spec: &Option<String>) -> Result<Option<Rules>> {
    spec.as_deref()
        .map(|s| Rules::parse_spec(s).map_err(|e| eyre!("--rules: {e}")))
        .transpose()
}

fn dispatch(cli: Cli) -> Result<ExitCode> {
    let rules = rules_arg(&cli.rules)?;
    match cli.command {
        None => {
            let (s, builtin) = match &cli.file {
                Some(f) => (load(f)?, false),
                None => (
                    Scenario::from_ron(BUILTIN, "<built-in scenarios/pandin.ron>")?,
                    true,
                ),
            };
            print!("{}", report::position(&s));
            println!();
            print!("{}", report::orders(&s));
            println!();
            adjudicate_and_print(&s, rules, false, None)?;
            if builtin {
                println!("\n{}", EXAMPLES.replace("Examples:", "Try next:"));
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Show { file }) => {
            let s = load(&file)?;
            print!("{}", report::position(&s));
            println!();
            print!("{}", report::orders(&s));
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Explain { file, trace, dot }) => {
            let s = load(&file)?;
            print!("{}", report::position(&s));
            println!();
            adjudicate_and_print(&s, rules, trace, dot.as_deref())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Check { paths, verbose }) => check(&paths, rules, verbose),
        Some(Command::Advance { file, output }) => {
            let s = load(&file)?;
            let rules = rules.unwrap_or(s.rules);
            let adv = dipsandbox::turn::advance(&s, &rules);
            let summary = |out: &mut dyn std::io::Write| -> std::io::Result<()> {
                write!(
                    out,
                    "{}",
                    report::outcomes(
                        &s.map,
                        &format!("{} results", s.phase),
                        &s.orders,
                        &adv.result,
                        s.phase.kind == dipsandbox::board::PhaseKind::Movement
                    )
                )?;
                writeln!(out, "Next phase: {}", adv.next.phase)?;
                if let Some(w) = adv.winner {
                    writeln!(
                        out,
                        "GAME OVER: {} holds {} or more supply centres.",
                        s.map.power(w).name,
                        dipsandbox::turn::victory_threshold(&s.map)
                    )?;
                }
                Ok(())
            };
            match output {
                Some(path) => {
                    summary(&mut std::io::stdout())?;
                    adv.next.save(&path).map_err(|e| eyre!("{e}"))?;
                    println!("Written to {}", path.display());
                }
                None => {
                    summary(&mut std::io::stderr())?;
                    print!("{}", adv.next.to_ron());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Maps) => {
            let mut maps = vec![Map::standard()];
            if let Ok(dir) = std::fs::read_dir("maps") {
                let mut files: Vec<PathBuf> =
                    dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
                files.sort();
                for f in files {
                    if f.extension().is_some_and(|e| e == "ron")
                        && f.file_stem().is_some_and(|s| s != "standard")
                    {
                        match Map::load(&f.display().to_string()) {
                            Ok(m) => maps.push(m),
                            Err(e) => eprintln!("{e}"),
                        }
                    }
                }
            }
            for m in maps {
                let s = m.summary();
                println!("{:<10} {}", m.name, m.title);
                println!(
                    "           {} provinces ({} sea, {} inland, {} coastal), {} supply centres ({} home), {} powers: {}",
                    s.provinces,
                    s.seas,
                    s.inland,
                    s.coastal,
                    s.supply_centers,
                    s.home_centers,
                    m.powers.len(),
                    m.powers
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Rules) => {
            println!("Presets (--rules NAME):");
            for (n, d) in PRESETS {
                println!("  {n:<6} {d}");
            }
            println!(
                "\nOptions (--rules field=Value, or `rules: (field: Value)` in a scenario); default first:"
            );
            print!("{}", rule_table());
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn rule_table() -> String {
    use dipsandbox::rules::*;
    let mut out = String::new();
    macro_rules! row {
        ($field:literal, $issue:literal, $t:ty) => {{
            let vals: Vec<&str> = <$t>::ALL.iter().map(|v| v.as_str()).collect();
            let d = <$t>::default().as_str();
            let rest: Vec<&str> = vals.into_iter().filter(|v| *v != d).collect();
            out.push_str(&format!(
                "  {:<30} {:<6} {} | {}\n",
                $field,
                $issue,
                d,
                rest.join(" | ")
            ));
        }};
    }
    row!("multi_route_disruption", "4.A.1", MultiRoute);
    row!("paradox", "4.A.2", Paradox);
    row!("paradox_fallback", "4.A.2", ParadoxFallback);
    row!("adjacent_convoy", "4.A.3", AdjacentConvoy);
    out.push_str(&format!(
        "  {:<30} {:<6} false | true\n",
        "adjacent_convoy_fallback", "4.A.3"
    ));
    row!("convoyed_attack_on_supporter", "4.A.4", ConvoyedSelfAttack);
    row!("retreat_after_convoy", "4.A.5", RetreatAfterConvoy);
    row!("path_specification", "4.A.6", PathSpecification);
    row!("dislodged_no_effect", "4.A.7", DislodgedNoEffect);
    row!("one_coast_omitted", "4.B.2", OneCoastOmitted);
    row!("impossible_coast", "4.B.3", ImpossibleCoast);
    row!("support_coast", "4.B.4", SupportCoast);
    row!("wrong_unit_coast", "4.B.5", CoastGarbage);
    row!("irrelevant_coast", "4.B.6", CoastGarbage);
    row!("missing_unit_type", "4.C.1", Designation);
    row!("wrong_unit_type", "4.C.2", Designation);
    row!("build_missing_type", "4.C.3", BuildMissingType);
    row!("fleet_build_on_land", "4.C.4", FleetBuildOnLand);
    row!("missing_nationality", "4.C.5", Designation);
    row!("wrong_nationality", "4.C.6", Designation);
    row!("multiple_orders", "4.D.3", MultipleOrders);
    row!("too_many_builds", "4.D.4", TooManyBuilds);
    row!("same_province_builds", "4.D.5", SameProvinceBuilds);
    row!("too_many_disbands", "4.D.6", TooManyDisbands);
    row!("civil_disorder", "4.D.8", CivilDisorder);
    row!("illegal_orders", "4.E.1", IllegalOrders);
    out
}

fn load(path: &Path) -> Result<Scenario> {
    Scenario::load(path).map_err(|e| eyre!("{e}"))
}

fn adjudicate_and_print(
    s: &Scenario,
    rules: Option<Rules>,
    trace: bool,
    dot: Option<&Path>,
) -> Result<()> {
    let r = run(s, rules, trace).map_err(|e| eyre!("{e}"))?;
    if rules.is_some() {
        let ov = r.rules.overrides();
        let text: Vec<String> = ov.iter().map(|(k, v)| format!("{k}={v}")).collect();
        println!(
            "Rules from the command line: {}\n",
            if text.is_empty() {
                "DATC v3.0 preferences".to_string()
            } else {
                text.join(", ")
            }
        );
    }
    let is_movement = r.movement.is_some();
    print!(
        "{}",
        report::outcomes(&s.map, "Results", &s.orders, &r.phase, is_movement)
    );
    if let (Some(f), Some(rr)) = (&s.retreats, &r.retreats) {
        println!();
        print!(
            "{}",
            report::outcomes(&s.map, "Retreats", &f.orders, rr, false)
        );
    }
    let end = r.retreats.as_ref().unwrap_or(&r.phase);
    println!();
    print!(
        "{}",
        report::units(&s.map, "After the phase", &end.final_units)
    );
    if let Some(m) = &r.movement {
        if trace {
            println!();
            print!("{}", report::trace(s, m, &r.orders));
        }
        if let Some(path) = dot {
            let text = to_dot(&m.graph, &|id| {
                m.node_label(&s.map, &s.units, &r.orders, id)
            });
            std::fs::write(path, text)
                .wrap_err_with(|| format!("cannot write {}", path.display()))?;
            println!(
                "\nDecision graph written to {} (render: dot -Tsvg {} -o graph.svg)",
                path.display(),
                path.display()
            );
        }
    } else if trace || dot.is_some() {
        println!(
            "\n(--trace and --dot describe the movement resolver; this is a {} phase)",
            s.phase
        );
    }
    if s.expect.is_some() {
        let (bad, n) = compare(s, &r);
        if bad.is_empty() {
            println!("\nExpectations: all {n} checks met.");
        } else {
            println!("\nExpectations NOT met:");
            for b in bad {
                println!("  - {b}");
            }
        }
    }
    Ok(())
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort_by_key(|a| natural_key(a));
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "ron") {
                collect(&e, out)?;
            }
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

/// Sorts `6.A.2` before `6.A.10`.
fn natural_key(p: &Path) -> Vec<(String, u64)> {
    let s = p.display().to_string();
    let mut out = Vec::new();
    let mut text = String::new();
    let mut num = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() {
            num.push(c);
        } else {
            if !num.is_empty() {
                out.push((std::mem::take(&mut text), num.parse().unwrap_or(0)));
                num.clear();
            }
            text.push(c);
        }
    }
    out.push((text, num.parse().unwrap_or(0)));
    out
}

fn check(paths: &[PathBuf], rules: Option<Rules>, verbose: bool) -> Result<ExitCode> {
    let mut files = Vec::new();
    let mut unreadable = 0;
    for p in paths {
        if !p.exists() {
            eprintln!("{}: no such file or folder", p.display());
            unreadable += 1;
            continue;
        }
        if let Err(e) = collect(p, &mut files) {
            eprintln!("{}: {e}", p.display());
            unreadable += 1;
        }
    }
    let (mut passed, mut failed) = (0, 0);
    for f in &files {
        let s = match Scenario::load(f) {
            Ok(s) => s,
            Err(e) => {
                println!("ERROR {e}");
                unreadable += 1;
                failed += 1;
                continue;
            }
        };
        let name = f.display();
        match run(&s, rules, false) {
            Err(e) => {
                println!("FAIL  {name}: cannot adjudicate: {e}");
                failed += 1;
            }
            Ok(r) => {
                let (bad, n) = compare(&s, &r);
                if s.expect.is_none() {
                    println!("ok    {name}  (no expectations)");
                    passed += 1;
                } else if bad.is_empty() {
                    println!("ok    {name}  ({n} checks)");
                    passed += 1;
                } else {
                    println!("FAIL  {name}  ({} of {n} checks failed)", bad.len());
                    if verbose {
                        for b in &bad {
                            println!("        - {b}");
                        }
                    } else {
                        println!("        - {}", bad[0]);
                    }
                    failed += 1;
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if unreadable > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
