//! `replay`: games recorded by other programs, re-adjudicated phase by phase with any engine.
//! Each phase whose result differs from the recording is written as a scenario (its expectations
//! are the recorded result) with the rule options that explain it; a folder of games runs on
//! every core, one summary line per game.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use color_eyre::eyre::{Result, eyre};
use rayon::prelude::*;
use serde_json::{Value, json};

use dipsandbox_core::base::output::{Batch, FolderLock, Inputs};
use dipsandbox_core::base::text::one_line;
use dipsandbox_core::engine::Engine;
use dipsandbox_core::io::games::{godip, python};
use dipsandbox_core::model::map::{Map, built_in_names};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::tools::replay::{
    PhaseReport, PhaseVerdict, RecordedGame, ReplayHeader, ReplayOptions, replay,
};

/// What `replay` was asked to do.
pub struct Request<'a> {
    /// Game files or folders of them.
    pub paths: &'a [PathBuf],
    /// The engine.
    pub engine: Arc<dyn Engine>,
    /// Rules instead of the defaults.
    pub rules: Option<Rules>,
    /// Go on after the first phase that differs.
    pub all: bool,
    /// Where the scenarios of the phases that differ go.
    pub out: &'a Path,
    /// Replace files that are there already.
    pub force: bool,
    /// The map of godip games (their files do not name it), if not found from the folder.
    pub map: Option<&'a str>,
    /// JSON output.
    pub json: bool,
}

/// One game's replay, or why it could not be read.
struct GameRun {
    file: PathBuf,
    outcome: std::result::Result<(RecordedGame, Vec<PhaseReport>), String>,
}

/// `replay`: exit 0 when every phase agrees, 1 when one differs, 2 when a game or a phase cannot
/// be read.
pub fn run(req: &Request<'_>) -> Result<ExitCode> {
    let mut files = Vec::new();
    for p in req.paths {
        if p.is_dir() {
            // The folder's games: regular files, or links to files inside the folder (a link
            // that leads out of it is not read: the user named the folder).
            let real = std::fs::canonicalize(p).map_err(|e| eyre!("{}: {e}", p.display()))?;
            let mut inside: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| eyre!("{}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "json" || x == "txt"))
                .filter(|f| {
                    let ok = std::fs::canonicalize(f).is_ok_and(|r| r.starts_with(&real));
                    if !ok {
                        errln!(
                            "{}: skipped: a link to a file outside {}; name it on the command line to replay it",
                            f.display(),
                            p.display()
                        );
                    }
                    ok
                })
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(p.clone());
        }
    }
    if files.is_empty() {
        return Err(eyre!(
            "no game files (.json saved games of the Python diplomacy package, .txt godip games) in {}",
            req.paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let options = ReplayOptions {
        all: req.all,
        rules: req.rules,
        explain: true,
    };
    // Every core (rayon keeps the files' order).
    let runs: Vec<GameRun> = files
        .par_iter()
        .map(|f| GameRun {
            file: f.clone(),
            outcome: read_game(f, req.map).and_then(|g| {
                replay(&g, req.engine.as_ref(), options)
                    .map(|r| (g, r))
                    .map_err(|e| e.to_string())
            }),
        })
        .collect();
    let mut bad_input = false;
    // The phases that differ, each with the file it is written to: every name made first, so
    // that two games of one name (a/game.json, b/game.json) and two phases never share a file.
    let mut to_write: Vec<(&GameRun, &RecordedGame, &PhaseReport, &[String])> = Vec::new();
    for r in &runs {
        match &r.outcome {
            Err(_) => bad_input = true,
            Ok((game, reports)) => {
                bad_input |= reports
                    .iter()
                    .any(|p| matches!(p.verdict, PhaseVerdict::Unreadable(_)));
                for rep in reports {
                    if let PhaseVerdict::Differs { explained_by, .. } = &rep.verdict {
                        to_write.push((r, game, rep, explained_by));
                    }
                }
            }
        }
    }
    let differs = !to_write.is_empty();
    let stems = game_stems(runs.iter().map(|r| r.file.as_path()));
    let mut names: Vec<String> = Vec::with_capacity(to_write.len());
    let mut taken: HashSet<String> = HashSet::new();
    for (r, _, rep, _) in &to_write {
        let stem = stems.get(r.file.as_path()).map_or("game", String::as_str);
        names.push(unique_name(&format!("{stem}-{}", rep.name), &mut taken));
    }
    let mut written = Vec::new();
    if differs {
        let out = req.out;
        let made = !out.exists();
        // Held while the files are written: a second replay into the folder is refused.
        let lock = FolderLock::take(out, "replay").map_err(|e| eyre!("replay: {e}"))?;
        let mut inputs = Inputs::new();
        inputs.add_all(files.iter().map(PathBuf::as_path));
        // A map file named with --map is read too: never replaced by a phase.
        if let Some(m) = req.map.and_then(Map::locate) {
            inputs.add(&m);
        }
        // All or nothing: every name checked first (an existing file only with --force),
        // then the files written together.
        let wrote = (|| -> Result<()> {
            let mut batch = Batch::begin(
                out,
                names.clone(),
                &inputs,
                req.force,
                "give --force to replace the files; no file was written",
            )
            .map_err(|e| eyre!("replay: {e}"))?;
            for (k, (r, game, rep, explained_by)) in to_write.iter().enumerate() {
                let text = phase_text(req, &r.file, game, rep, explained_by, &batch.path(k))?;
                batch.add(&text).map_err(|e| eyre!("replay: {e}"))?;
            }
            batch.commit().map_err(|e| eyre!("replay: {e}"))
        })();
        drop(lock);
        if let Err(e) = wrote {
            if made {
                // The folder this run made, empty again.
                let _ = std::fs::remove_dir(out);
            }
            return Err(e);
        }
        for ((r, _, rep, _), name) in to_write.iter().zip(&names) {
            written.push((r.file.clone(), rep.name.clone(), out.join(name)));
        }
    }
    if req.json {
        let games: Vec<Value> = runs
            .iter()
            .map(|r| game_json(r, req.engine.name(), &written))
            .collect();
        let out = json!({
            "schema": "dipsandbox.replay/1",
            "engine": req.engine.name(),
            "games": games,
        });
        super::out::json(&out)?;
    } else {
        for r in &runs {
            print_game(r, &written)?;
        }
        let has = |r: &GameRun, f: &dyn Fn(&PhaseVerdict) -> bool| {
            r.outcome
                .as_ref()
                .is_ok_and(|(_, reps)| reps.iter().any(|p| f(&p.verdict)))
        };
        let differ = |v: &PhaseVerdict| matches!(v, PhaseVerdict::Differs { .. });
        let unreadable = |v: &PhaseVerdict| matches!(v, PhaseVerdict::Unreadable(_));
        if runs.len() > 1 {
            let agree = runs
                .iter()
                .filter(|r| r.outcome.is_ok() && !has(r, &differ) && !has(r, &unreadable))
                .count();
            outln!(
                "{} games: {agree} agree with {} in every phase, {} differ, {} have phases that could not be read, {} could not be read",
                runs.len(),
                req.engine.name(),
                runs.iter().filter(|r| has(r, &differ)).count(),
                runs.iter().filter(|r| has(r, &unreadable)).count(),
                runs.iter().filter(|r| r.outcome.is_err()).count()
            )?;
        }
    }
    Ok(if bad_input {
        ExitCode::from(2)
    } else if differs {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Reads a game file of either format.
fn read_game(f: &Path, map: Option<&str>) -> std::result::Result<RecordedGame, String> {
    let name = f.display().to_string();
    let text = dipsandbox_core::base::source::read_text(f).map_err(|e| e.to_string())?;
    // The map the user named with --map may be a file; a map a game names (or its godip
    // folder's name) is only ever a built-in map's name: a game file never opens a file.
    let map_for = |m: &str| -> std::result::Result<Arc<Map>, String> {
        match map {
            Some(user) => Map::load(user)
                .map(Arc::new)
                .map_err(|e| format!("{e} (`maps` lists the known ones)")),
            None => Map::load_built_in(m).map(Arc::new).map_err(|_| {
                format!(
                    "not a built-in map{}: a recorded game's map is one of the built-in maps ({}); give --map NAME_OR_FILE for another",
                    dipsandbox_core::base::near::did_you_mean(m, built_in_names()),
                    built_in_names().collect::<Vec<_>>().join(", ")
                )
            }),
        }
    };
    if python::looks_like(&text) {
        return python::read(&text, &name, &map_for).map_err(|e| e.to_string());
    }
    if godip::looks_like(&text) {
        // godip keeps games in variants/NAME/games/: the map is NAME unless --map says.
        let from_folder = f
            .parent()
            .filter(|d| d.file_name().is_some_and(|n| n == "games"))
            .and_then(Path::parent)
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().to_string());
        let map_name = map
            .map(str::to_string)
            .or(from_folder)
            .unwrap_or_else(|| "standard".into());
        let m = map_for(&map_name).map_err(|e| {
            format!(
                "{}: map {}: {e}",
                one_line(&name),
                dipsandbox_core::base::text::quoted(&map_name)
            )
        })?;
        return godip::read(&text, &name, m, &map_name).map_err(|e| e.to_string());
    }
    Err(format!(
        "{name}: not a recorded game: expected a saved game of the Python diplomacy package (JSON with \"phases\") or a godip game file (PHASE, POSITIONS, ORDERS)"
    ))
}

/// Each game file's stem for the names of its phases' files: the file's name without its
/// extension, with its folder's name in front where two games share a name
/// (`a/game.json`, `b/game.json` → `a-game`, `b-game`).
fn game_stems<'p>(files: impl Iterator<Item = &'p Path>) -> HashMap<&'p Path, String> {
    let files: Vec<&Path> = files.collect();
    let stem = |f: &Path| {
        f.file_stem()
            .map_or_else(|| "game".to_string(), |s| s.to_string_lossy().to_string())
    };
    let mut count: HashMap<String, usize> = HashMap::new();
    for f in &files {
        *count.entry(stem(f)).or_default() += 1;
    }
    files
        .into_iter()
        .map(|f| {
            let s = stem(f);
            let named = if count.get(&s).copied().unwrap_or(0) > 1 {
                let folder = f
                    .parent()
                    .and_then(Path::file_name)
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_default();
                format!("{folder}-{s}")
            } else {
                s
            };
            (f, named)
        })
        .collect()
}

/// A file name from `base`: letters, digits, `-` and `_` kept (anything else becomes `-`), cut
/// to 100 bytes, `.ron` added; `-2`, `-3`… where a name is taken already.
fn unique_name(base: &str, taken: &mut HashSet<String>) -> String {
    let mut safe = String::new();
    for c in base.chars() {
        let c = if c.is_alphanumeric() || c == '-' || c == '_' {
            c
        } else {
            '-'
        };
        if safe.len() + c.len_utf8() > 100 {
            break;
        }
        safe.push(c);
    }
    let mut name = format!("{safe}.ron");
    let mut k = 2;
    while !taken.insert(name.clone()) {
        name = format!("{safe}-{k}.ron");
        k += 1;
    }
    name
}

/// The scenario of a phase that differs, written to `path`: its expectations are the recorded
/// result, with what differs and what explains it in its description, after a [`ReplayHeader`]
/// (the game, its recorder, the engine, the explaining options) that the TUI opens it by.
fn phase_text(
    req: &Request<'_>,
    file: &Path,
    game: &RecordedGame,
    rep: &PhaseReport,
    explained_by: &[String],
    path: &Path,
) -> Result<String> {
    let Some(phase) = game.phases.get(rep.index) else {
        return Err(eyre!("phase {} is not in the game", rep.index));
    };
    let mut s = phase.scenario.clone();
    let why = if explained_by.is_empty() {
        "no single rule option explains it".to_string()
    } else {
        format!("explained by {}", explained_by.join(", or "))
    };
    let mut header = ReplayHeader {
        game: file.display().to_string(),
        recorder: game.recorder.clone(),
        phase: rep.name.clone(),
        engine: req.engine.name().to_string(),
        rules: req.rules.unwrap_or(s.rules).name(","),
        explained_by: explained_by.to_vec(),
        differences: Vec::new(),
    };
    if let PhaseVerdict::Differs { differences, .. } = &rep.verdict {
        s.description = format!(
            "Phase {} of {}: the expectations are the recorded result, which dipsandbox's default rules do not give ({why}). {}",
            rep.name,
            one_line(&file.display().to_string()),
            differences.join("; ")
        );
        header.differences.clone_from(differences);
    }
    Ok(format!(
        "{}{}",
        header.to_comment(),
        s.placed_at(path).to_ron()
    ))
}

fn print_game(r: &GameRun, written: &[(PathBuf, String, PathBuf)]) -> Result<()> {
    let name = r.file.display();
    match &r.outcome {
        Err(e) => outln!("ERROR {}", one_line(e))?,
        Ok((game, reports)) => {
            let agree = reports
                .iter()
                .filter(|p| matches!(p.verdict, PhaseVerdict::Agrees { .. }))
                .count();
            let unreadable: Vec<&PhaseReport> = reports
                .iter()
                .filter(|p| matches!(p.verdict, PhaseVerdict::Unreadable(_)))
                .collect();
            let differ: Vec<&PhaseReport> = reports
                .iter()
                .filter(|p| matches!(p.verdict, PhaseVerdict::Differs { .. }))
                .collect();
            let stopped = reports.len() < game.phases.len();
            let mut line = format!(
                "{name}: {} phases, {} replayed: {agree} agree",
                game.phases.len(),
                reports.len()
            );
            if !differ.is_empty() {
                line.push_str(&format!(", {} differ", differ.len()));
            }
            if !unreadable.is_empty() {
                line.push_str(&format!(", {} unreadable", unreadable.len()));
            }
            // A phase the recording gives no result for (a game's last): named, not lost.
            let unrecorded: Vec<&str> = reports
                .iter()
                .filter(|p| matches!(p.verdict, PhaseVerdict::Unrecorded))
                .map(|p| p.name.as_str())
                .collect();
            if !unrecorded.is_empty() {
                line.push_str(&format!(
                    ", {} not compared: the recording gives no result for {}",
                    unrecorded.len(),
                    unrecorded.join(", ")
                ));
            }
            if stopped {
                line.push_str(" (stopped at the first that differs; --all goes on)");
            }
            outln!("{}", one_line(&line))?;
            for p in differ {
                if let PhaseVerdict::Differs {
                    differences,
                    explained_by,
                    wording_only,
                } = &p.verdict
                {
                    let why = if *wording_only {
                        "in wording only: every order acts as recorded".to_string()
                    } else if explained_by.is_empty() {
                        "no single rule option explains it".to_string()
                    } else {
                        format!("explained by {}", explained_by.join(", or "))
                    };
                    let file = written
                        .iter()
                        .find(|(f, n, _)| f == &r.file && n == &p.name)
                        .map(|(_, _, w)| format!(" -> {}", w.display()))
                        .unwrap_or_default();
                    outln!("  DIFFERS {} ({why}){file}", p.name)?;
                    for d in differences {
                        outln!("    - {}", one_line(d))?;
                    }
                }
            }
            for p in unreadable {
                if let PhaseVerdict::Unreadable(why) = &p.verdict {
                    outln!("  UNREADABLE {}: {}", p.name, one_line(why))?;
                }
            }
            for p in reports {
                if p.verdict == PhaseVerdict::Unrecorded {
                    outln!(
                        "  UNRECORDED {}: the game records no result for it (its last phase), so it is not compared",
                        p.name
                    )?;
                }
            }
        }
    }
    Ok(())
}

fn game_json(r: &GameRun, engine: &str, written: &[(PathBuf, String, PathBuf)]) -> Value {
    match &r.outcome {
        Err(e) => json!({ "file": r.file.display().to_string(), "error": e }),
        Ok((game, reports)) => {
            let phases: Vec<Value> = reports
                .iter()
                .map(|p| {
                    let (status, extra) = match &p.verdict {
                        PhaseVerdict::Agrees { checks } => ("agrees", json!({ "checks": checks })),
                        PhaseVerdict::Differs {
                            differences,
                            explained_by,
                            wording_only,
                        } => (
                            "differs",
                            json!({
                                "differences": differences,
                                "explained_by": explained_by,
                                "wording_only": wording_only,
                                "scenario": written.iter()
                                    .find(|(f, n, _)| f == &r.file && n == &p.name)
                                    .map(|(_, _, w)| w.display().to_string()),
                            }),
                        ),
                        PhaseVerdict::Unrecorded => ("unrecorded", json!({})),
                        PhaseVerdict::Unreadable(why) => ("unreadable", json!({ "why": why })),
                    };
                    let mut v = json!({ "phase": p.name, "status": status });
                    if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
                        o.extend(e.clone());
                    }
                    v
                })
                .collect();
            json!({
                "file": r.file.display().to_string(),
                "map": game.map,
                "engine": engine,
                "phases_in_game": game.phases.len(),
                "phases": phases,
            })
        }
    }
}
