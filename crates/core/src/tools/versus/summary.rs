//! A run's summary (`summary.versus`): what was run and what was found, the classes of causes
//! and the wording table; reading it back, checking it, merging the summaries of shards, and the
//! output folder the files go to.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::base::output::{FolderLock, LOCK_FILE};
use crate::base::text::one_line;
use crate::engine::departure::Known;
use crate::model::scenario::write_atomic;

/// A class of disagreements, as the summary lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassRow {
    /// The scenario file of the class, in the output folder.
    pub file: String,
    /// The shape of its shrunk position.
    pub shape: String,
    /// The single option changes under which engine A gives engine B's result.
    pub b_as_a: Vec<String>,
    /// The single option changes under which engine B gives engine A's result.
    pub a_as_b: Vec<String>,
    /// The cause, in words: which kinds of order act under which engine only
    /// (`support of a move: acts under dpjudge only`), or on which side the board differs.
    pub way: String,
    /// How many positions fell in the class (a position with two causes is in two classes).
    pub count: u64,
    /// How many of them the explanation was checked on and held (all of them for an explained
    /// class: a position joins a class only when the class's explanation holds on it; none for
    /// an unexplained one).
    #[serde(default)]
    pub explained: u64,
    /// The first position (by index) that fell in it.
    pub first: u64,
    /// The DATC cases whose orders have the shape of the class's example (the same relations, up
    /// to a renaming of provinces and powers; `tools::versus::datc`), if any.
    #[serde(default)]
    pub datc: Vec<String>,
    /// The engines' declared departures that its explanation is
    /// ([`crate::engine::Engine::departures`]): a known cause, not a new one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub known: Vec<Known>,
}

impl ClassRow {
    /// The explaining options in words: `dpjudge = decisions under paradox=Rule1982`, or
    /// `unexplained`.
    pub fn explains(&self, a: &str, b: &str) -> String {
        explains(&self.b_as_a, &self.a_as_b, a, b)
    }
}

/// A run's summary: what was run, what was found. Saved as `summary.versus` in the output folder
/// (which `versus merge` reads) and printed as JSON with `--json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Engine A's name.
    pub a: String,
    /// Engine B's name.
    pub b: String,
    /// The seed.
    pub seed: u64,
    /// The mix's name.
    pub mix: String,
    /// The map's name (`standard` when a summary of before `versus --map` names none).
    #[serde(default = "standard_name")]
    pub map: String,
    /// The rules both engines ran under (`datc` or the options that differ).
    pub rules: String,
    /// The number of positions asked for (`--count`).
    pub count: u64,
    /// The shards this summary covers, as `I/N` each (empty for a whole run).
    pub shards: Vec<String>,
    /// Positions adjudicated.
    pub positions: u64,
    /// Positions where the engines disagreed.
    pub disagreements: u64,
    /// Positions an engine gave no result for.
    pub errors: u64,
    /// The first engine error's message, if any.
    pub first_error: Option<String>,
    /// Whether the run was stopped before its end (ctrl-c).
    pub interrupted: bool,
    /// The classes, the most frequent first.
    pub classes: Vec<ClassRow>,
    /// Positions where the engines differed in wording only (every order acts under both or
    /// under neither, the board the same, some order worded otherwise).
    #[serde(default)]
    pub wording_positions: u64,
    /// The wording table: the word pairs of those positions, the most frequent first.
    #[serde(default)]
    pub wording: Vec<WordingRow>,
}

/// A row of the wording table: one set of word pairs, and an example.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordingRow {
    /// The example's scenario file, in the output folder.
    pub file: String,
    /// The word pairs, in words: `support of a move: decisions fails, python void`.
    pub words: String,
    /// How many positions differed in these words only.
    pub count: u64,
    /// The first position (by index).
    pub first: u64,
    /// The single option changes under which engine A gives B's very verdicts on the row's
    /// first position, each then held to account on every position of the row.
    #[serde(default)]
    pub b_as_a: Vec<String>,
    /// On how many of the row's positions each of `b_as_a` held (empty: on all of them).
    #[serde(default)]
    pub b_as_a_held: Vec<u64>,
    /// The single option changes under which engine B gives A's, likewise.
    #[serde(default)]
    pub a_as_b: Vec<String>,
    /// On how many positions each of `a_as_b` held (empty: on all of them).
    #[serde(default)]
    pub a_as_b_held: Vec<u64>,
    /// The engines' declared departures that one of its explaining options is (each still
    /// among `b_as_a` or `a_as_b`; how many positions it held on is theirs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub known: Vec<Known>,
}

impl WordingRow {
    /// The explaining options in words, as [`ClassRow::explains`] gives them, each that did
    /// not hold on every position of the row with how many it held on: `dpjudge = decisions
    /// under paradox=Rule1982 (8340 of 8341)`.
    pub fn explains(&self, a: &str, b: &str) -> String {
        let with = |specs: &[String], held: &[u64]| -> Vec<String> {
            specs
                .iter()
                .enumerate()
                .map(|(i, o)| match held.get(i) {
                    Some(&k) if k < self.count => format!("{o} ({k} of {})", self.count),
                    _ => o.clone(),
                })
                .collect()
        };
        explains(
            &with(&self.b_as_a, &self.b_as_a_held),
            &with(&self.a_as_b, &self.a_as_b_held),
            a,
            b,
        )
    }

    /// On how many of the row's positions the change of the known departure `k` held.
    pub fn known_held(&self, k: &Known) -> u64 {
        let (specs, held) = if k.on_a {
            (&self.b_as_a, &self.b_as_a_held)
        } else {
            (&self.a_as_b, &self.a_as_b_held)
        };
        match specs.iter().position(|o| *o == k.change) {
            Some(i) => held.get(i).copied().unwrap_or(self.count),
            None => 0,
        }
    }

    /// The known departures in words, each that did not hold on every position of the row with
    /// how many it held on.
    pub fn known_words(&self) -> String {
        self.known
            .iter()
            .map(|k| match self.known_held(k) {
                n if n < self.count => format!("{} ({n} of {})", k.words(), self.count),
                _ => k.words(),
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The options that held on every position of the row.
    pub fn holding(&self) -> (Vec<String>, Vec<String>) {
        let all = |specs: &[String], held: &[u64]| -> Vec<String> {
            specs
                .iter()
                .enumerate()
                .filter(|(i, _)| held.get(*i).is_none_or(|&k| k >= self.count))
                .map(|(_, o)| o.clone())
                .collect()
        };
        (
            all(&self.b_as_a, &self.b_as_a_held),
            all(&self.a_as_b, &self.a_as_b_held),
        )
    }
}

fn standard_name() -> String {
    "standard".into()
}

/// Why a run or a merge could not go on.
#[derive(Debug, thiserror::Error)]
pub enum VersusError {
    /// Writing the output folder failed.
    #[error("{path}: {message}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A summary file could not be read.
    #[error("{path}: not a versus summary: {message}")]
    Summary {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

pub(super) fn io_err(path: &Path, e: impl std::fmt::Display) -> VersusError {
    VersusError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Makes `out` ready for a run (`what`: `versus decisions dpjudge`) and holds it: locked against
/// a second run ([`FolderLock`]), and holding no earlier run's files unless `force` is given,
/// in which case the earlier run's `summary.versus` and class files (the `.ron` files that
/// begin with this bench's header) are removed; other files are left alone.
pub fn open_output(out: &Path, what: &str, force: bool) -> Result<FolderLock, VersusError> {
    let lock = FolderLock::take(out, what).map_err(|e| VersusError::Io {
        path: out.to_path_buf(),
        message: e.reason(),
    })?;
    let entries = std::fs::read_dir(out).map_err(|e| io_err(out, e))?;
    let mut ours = Vec::new();
    let mut others = 0usize;
    for e in entries {
        let e = e.map_err(|e| io_err(out, e))?;
        let name = e.file_name();
        let Some(name) = name.to_str() else {
            others += 1;
            continue;
        };
        if name == LOCK_FILE {
            continue;
        }
        let path = e.path();
        let is_file = e.file_type().is_ok_and(|t| t.is_file());
        let from_a_run = is_file
            && (name == SUMMARY_FILE
                || (name.ends_with(".ron")
                    && crate::base::source::read_head(&path, 64)
                        .is_ok_and(|h| h.text.starts_with(CLASS_HEADER))));
        if from_a_run {
            ours.push(path);
        } else {
            others += 1;
        }
    }
    if !ours.is_empty() && !force {
        return Err(VersusError::Io {
            path: out.to_path_buf(),
            message: format!(
                "holds a versus run already ({}); give --force to replace its files, or another -o DIR",
                crate::base::text::count(ours.len(), "file")
            ),
        });
    }
    if others > 0 && !force {
        return Err(VersusError::Io {
            path: out.to_path_buf(),
            message: format!(
                "holds other files ({}); give --force to write into it anyway (they are left alone), or another -o DIR",
                others
            ),
        });
    }
    for p in ours {
        std::fs::remove_file(&p).map_err(|e| io_err(&p, e))?;
    }
    Ok(lock)
}

/// How a class file of this bench begins: the header [`super::Versus::case`] writes.
pub const CLASS_HEADER: &str = "// dipsandbox versus ";

/// The most frequent class first, then by file name.
pub(super) fn sorted_rows(mut v: Vec<ClassRow>) -> Vec<ClassRow> {
    v.sort_by(|x, y| y.count.cmp(&x.count).then_with(|| x.file.cmp(&y.file)));
    v
}

/// The summary file of an output folder.
pub const SUMMARY_FILE: &str = "summary.versus";

/// Writes `summary.versus` into `out`.
pub fn save_summary(out: &Path, s: &Summary) -> Result<(), VersusError> {
    let path = out.join(SUMMARY_FILE);
    let text = ron::ser::to_string_pretty(s, ron::ser::PrettyConfig::default())
        .map_err(|e| io_err(&path, e))?;
    write_atomic(&path, &format!("{text}\n")).map_err(|e| io_err(&path, e))
}

/// Reads `summary.versus` from a folder (a regular file of at most the file limit, in the folder
/// itself: a link that leads out of it is refused).
pub fn load_summary(dir: &Path) -> Result<Summary, VersusError> {
    let path = dir.join(SUMMARY_FILE);
    // In the folder itself: never through a link that leads out of it.
    let inside = crate::base::source::inside(dir, SUMMARY_FILE, "the summary")
        .map_err(|e| io_err(&path, e))?;
    let text = crate::base::source::read_text(&inside).map_err(|e| io_err(&path, e))?;
    summary_from_ron(&text).map_err(|message| VersusError::Summary { path, message })
}

/// A summary from its text (what `summary.versus` holds); the error is the reader's, cut.
pub fn summary_from_ron(text: &str) -> Result<Summary, String> {
    ron::from_str(text).map_err(|e| crate::base::text::bounded(&e.to_string(), 1000).into_owned())
}

/// The shards a summary covers, read back; an error names what is wrong.
fn shards_of(s: &Summary) -> Result<Vec<Shard>, String> {
    s.shards
        .iter()
        .map(|t| {
            Shard::parse(t).ok_or_else(|| {
                format!(
                    "shard {}: expected I/N with 0 ≤ I < N",
                    crate::base::text::quoted(t)
                )
            })
        })
        .collect()
}

/// Whether `name` can be a class file of an output folder: one plain file name ending in `.ron`
/// (no folder, no `..`, nothing unprintable), as [`Versus::case`] makes them.
fn class_file_ok(name: &str) -> bool {
    use std::path::Component;
    let mut parts = Path::new(name).components();
    matches!(parts.next(), Some(Component::Normal(_)))
        && parts.next().is_none()
        && name.ends_with(".ron")
        && !name.contains(['/', '\\'])
        && crate::base::text::first_unprintable(name).is_none()
}

/// Checks what a summary says of itself: its shards readable and of one N, its counts
/// possible (no more positions than its shards hold, no more disagreements and errors than
/// positions, no more in its classes than disagreements), its class files plain names.
pub fn check_summary(s: &Summary) -> Result<Vec<Shard>, String> {
    let shards = shards_of(s)?;
    if let Some(first) = shards.first()
        && let Some(other) = shards.iter().find(|x| x.of != first.of)
    {
        return Err(format!(
            "shards {}/{} and {}/{} are of different runs",
            first.index, first.of, other.index, other.of
        ));
    }
    let room = if shards.is_empty() {
        s.count
    } else {
        shards
            .iter()
            .try_fold(0u64, |t, x| t.checked_add(x.len(s.count)))
            .ok_or("its shards hold more positions than can be counted")?
    };
    if s.positions > room {
        return Err(format!(
            "{} positions, but its {} of a run of {} hold {room}",
            s.positions,
            if shards.is_empty() {
                "whole run".to_string()
            } else {
                crate::base::text::count(shards.len(), "shard")
            },
            s.count
        ));
    }
    let bad = s
        .disagreements
        .checked_add(s.errors)
        .and_then(|n| n.checked_add(s.wording_positions))
        .is_none_or(|n| n > s.positions);
    if bad {
        return Err(format!(
            "{} disagreements, {} differing in wording only and {} errors in {} positions",
            s.disagreements, s.wording_positions, s.errors, s.positions
        ));
    }
    // A position with two causes is in two classes: each class counts at most every
    // disagreement, and its explained positions are among its own.
    if let Some(c) = s
        .classes
        .iter()
        .find(|c| c.count > s.disagreements || c.explained > c.count)
    {
        return Err(format!(
            "class {} counts {} positions ({} explained) of {} disagreements",
            crate::base::text::quoted(&c.file),
            c.count,
            c.explained,
            s.disagreements
        ));
    }
    let worded = s
        .wording
        .iter()
        .try_fold(0u64, |t, w| t.checked_add(w.count));
    if worded != Some(s.wording_positions) {
        return Err(format!(
            "its wording table does not count its {} positions that differ in wording only",
            s.wording_positions
        ));
    }
    // A known departure is one of its row's explanations.
    let rows = s
        .classes
        .iter()
        .map(|c| (&c.file, &c.known, &c.b_as_a, &c.a_as_b))
        .chain(
            s.wording
                .iter()
                .map(|w| (&w.file, &w.known, &w.b_as_a, &w.a_as_b)),
        );
    for (file, known, b_as_a, a_as_b) in rows {
        if let Some(k) = known
            .iter()
            .find(|k| !(if k.on_a { b_as_a } else { a_as_b }).contains(&k.change))
        {
            return Err(format!(
                "row {}: known departure {} by {}, which is not among the row's explanations",
                crate::base::text::quoted(file),
                crate::base::text::quoted(&k.title),
                crate::base::text::quoted(&k.change)
            ));
        }
    }
    let files = s
        .classes
        .iter()
        .map(|c| &c.file)
        .chain(s.wording.iter().map(|w| &w.file));
    // Each row has its own example file: a file named twice would be one example for two
    // rows, and a merge that sums rows by file would count one class's positions twice.
    let mut seen = std::collections::HashSet::with_capacity(s.classes.len() + s.wording.len());
    for f in files {
        if !class_file_ok(f) {
            return Err(format!(
                "class file {}: expected a file name ending in .ron, in the folder itself",
                crate::base::text::quoted(f)
            ));
        }
        if !seen.insert(f.as_str()) {
            return Err(format!(
                "class file {} is named by two rows: expected one file per class and per wording row",
                crate::base::text::quoted(f)
            ));
        }
    }
    Ok(shards)
}

/// The run a summary is of, in words: `versus decisions dpjudge --seed 0 --mix all --count 300
/// (rules datc)`.
fn run_words(s: &Summary) -> String {
    format!(
        "versus {} {} --map {} --seed {} --mix {} --count {} (rules {})",
        one_line(&s.a),
        one_line(&s.b),
        one_line(&s.map),
        s.seed,
        one_line(&s.mix),
        s.count,
        one_line(&s.rules)
    )
}

/// The summaries of the shards of one run merged, without touching a file: counts summed per
/// class file, positions, disagreements and errors summed, the shards listed in order. The
/// parts must be of one run (the same engines, rules, seed, mix and count), each shard once,
/// each summary possible ([`check_summary`]); every sum is checked for overflow. Besides the
/// merged summary, for each of its classes and then each of its wording rows (in their order)
/// the part whose file is kept (the first that has it). An error names the part (its index) and what is wrong with it.
pub fn merge_summaries(parts: &[Summary]) -> Result<(Summary, Vec<usize>), (usize, String)> {
    let mut checked: Vec<Vec<Shard>> = Vec::with_capacity(parts.len());
    for (i, s) in parts.iter().enumerate() {
        checked.push(check_summary(s).map_err(|m| (i, m))?);
    }
    let Some(first) = parts.first() else {
        return Err((0, "no summary to merge".into()));
    };
    let mut taken: HashMap<u64, usize> = HashMap::new();
    let mut of: Option<u64> = None;
    for (i, (s, shards)) in parts.iter().zip(&checked).enumerate() {
        if run_words(s) != run_words(first) {
            return Err((
                i,
                format!(
                    "a run of `{}`, not of `{}` as the first is; only the shards of one run merge",
                    run_words(s),
                    run_words(first)
                ),
            ));
        }
        if shards.is_empty() && parts.len() > 1 {
            return Err((
                i,
                "a whole run (no --shard): it holds every position already, and merges with no other"
                    .into(),
            ));
        }
        for x in shards {
            if let Some(n) = of
                && n != x.of
            {
                return Err((
                    i,
                    format!(
                        "shard {}/{} is of a run cut in {} shards, the others in {n}",
                        x.index, x.of, x.of
                    ),
                ));
            }
            of = Some(x.of);
            if let Some(other) = taken.insert(x.index, i) {
                return Err((
                    i,
                    format!(
                        "shard {}/{} is in summary {} too; each shard is merged once",
                        x.index,
                        x.of,
                        other + 1
                    ),
                ));
            }
        }
    }
    let overflow = |i: usize| (i, "counts too large to add up (past 2^64)".to_string());
    let mut t = first.clone();
    let mut rows: BTreeMap<&str, (ClassRow, usize)> = BTreeMap::new();
    let mut words: BTreeMap<&str, (WordingRow, usize)> = BTreeMap::new();
    for (i, s) in parts.iter().enumerate() {
        for r in &s.classes {
            match rows.get_mut(r.file.as_str()) {
                Some((have, _)) => {
                    have.count = have.count.checked_add(r.count).ok_or_else(|| overflow(i))?;
                    have.explained = have
                        .explained
                        .checked_add(r.explained)
                        .ok_or_else(|| overflow(i))?;
                    have.first = have.first.min(r.first);
                }
                None => {
                    rows.insert(&r.file, (r.clone(), i));
                }
            }
        }
        for w in &s.wording {
            match words.get_mut(w.file.as_str()) {
                Some((have, _)) => {
                    // An option of the row is known in a part only if it held on the part's
                    // first position: kept where every part knows it, its counts summed.
                    let sum = |specs: &mut Vec<String>,
                               held: &mut Vec<u64>,
                               other: &[String],
                               other_held: &[u64],
                               mine: u64,
                               theirs: u64| {
                        let mut keep = Vec::new();
                        let mut counts = Vec::new();
                        for (k, o) in specs.iter().enumerate() {
                            if let Some(j) = other.iter().position(|x| x == o) {
                                let x = held.get(k).copied().unwrap_or(mine);
                                let y = other_held.get(j).copied().unwrap_or(theirs);
                                keep.push(o.clone());
                                counts.push(x.saturating_add(y));
                            }
                        }
                        *specs = keep;
                        *held = counts;
                    };
                    let (mine, theirs) = (have.count, w.count);
                    sum(
                        &mut have.b_as_a,
                        &mut have.b_as_a_held,
                        &w.b_as_a,
                        &w.b_as_a_held,
                        mine,
                        theirs,
                    );
                    sum(
                        &mut have.a_as_b,
                        &mut have.a_as_b_held,
                        &w.a_as_b,
                        &w.a_as_b_held,
                        mine,
                        theirs,
                    );
                    have.count = have.count.checked_add(w.count).ok_or_else(|| overflow(i))?;
                    have.first = have.first.min(w.first);
                    // A known departure stays only while its change does.
                    let (b_as_a, a_as_b) = (have.b_as_a.clone(), have.a_as_b.clone());
                    have.known
                        .retain(|k| if k.on_a { &b_as_a } else { &a_as_b }.contains(&k.change));
                }
                None => {
                    words.insert(&w.file, (w.clone(), i));
                }
            }
        }
        if i > 0 {
            let add = |x: u64, y: u64| x.checked_add(y).ok_or_else(|| overflow(i));
            t.positions = add(t.positions, s.positions)?;
            t.disagreements = add(t.disagreements, s.disagreements)?;
            t.errors = add(t.errors, s.errors)?;
            t.wording_positions = add(t.wording_positions, s.wording_positions)?;
            if t.first_error.is_none() {
                t.first_error.clone_from(&s.first_error);
            }
            t.interrupted |= s.interrupted;
        }
    }
    // A shard that left positions out (stopped early, killed) makes the merge incomplete.
    t.interrupted |= parts.iter().zip(&checked).any(|(s, shards)| {
        let room = if shards.is_empty() {
            s.count
        } else {
            shards.iter().map(|x| x.len(s.count)).sum()
        };
        s.positions < room
    });
    let mut shards: Vec<Shard> = checked.into_iter().flatten().collect();
    shards.sort_by_key(|x| x.index);
    t.shards = shards
        .iter()
        .map(|x| format!("{}/{}", x.index, x.of))
        .collect();
    let mut kept: Vec<(ClassRow, usize)> = rows.into_values().collect();
    kept.sort_by(|(x, _), (y, _)| y.count.cmp(&x.count).then_with(|| x.file.cmp(&y.file)));
    let mut worded: Vec<(WordingRow, usize)> = words.into_values().collect();
    worded.sort_by(|(x, _), (y, _)| y.count.cmp(&x.count).then_with(|| x.file.cmp(&y.file)));
    let from = kept
        .iter()
        .map(|(_, i)| *i)
        .chain(worded.iter().map(|(_, i)| *i))
        .collect();
    t.classes = kept.into_iter().map(|(r, _)| r).collect();
    t.wording = worded.into_iter().map(|(r, _)| r).collect();
    Ok((t, from))
}

/// `versus merge`: the output folders of the shards of one run merged into `out` (made ready by
/// [`open_output`] with `force`, and locked while it is written): their summaries by
/// [`merge_summaries`], each class file copied from the first folder that has it. The folders
/// must be distinct (by their real paths) and none the output; a class file is read only
/// inside its own folder.
pub fn merge(dirs: &[PathBuf], out: &Path, force: bool) -> Result<Summary, VersusError> {
    let out_real = out.canonicalize().ok();
    let mut real: HashMap<PathBuf, &PathBuf> = HashMap::new();
    for d in dirs {
        let r = d.canonicalize().map_err(|e| io_err(d, e))?;
        if out_real.as_ref() == Some(&r) {
            return Err(io_err(
                d,
                "it is the output folder too; merge into another -o DIR",
            ));
        }
        if let Some(other) = real.insert(r, d) {
            return Err(io_err(
                d,
                format!(
                    "given twice (also as {}); each shard is merged once",
                    other.display()
                ),
            ));
        }
    }
    let parts = dirs
        .iter()
        .map(|d| load_summary(d))
        .collect::<Result<Vec<_>, _>>()?;
    let (t, from) = merge_summaries(&parts).map_err(|(i, message)| VersusError::Summary {
        path: dirs
            .get(i)
            .map_or_else(PathBuf::new, |d| d.join(SUMMARY_FILE)),
        message,
    })?;
    let _lock = open_output(out, "versus merge", force)?;
    let files = t
        .classes
        .iter()
        .map(|c| &c.file)
        .chain(t.wording.iter().map(|w| &w.file));
    for (file, i) in files.zip(from) {
        let Some(d) = dirs.get(i) else { continue };
        let from =
            crate::base::source::inside(d, file, "file").map_err(|e| VersusError::Summary {
                path: d.join(SUMMARY_FILE),
                message: e.to_string(),
            })?;
        let to = out.join(file);
        let text = crate::base::source::read_text(&from).map_err(|e| io_err(&from, e))?;
        // Only this bench's own files are copied (a hard link to another file passes the
        // folder check: its content does not).
        if !text.starts_with(CLASS_HEADER) {
            return Err(VersusError::Summary {
                path: d.join(SUMMARY_FILE),
                message: format!(
                    "{}: not a class file of versus (it does not begin with `{}`)",
                    crate::base::text::cut(file),
                    CLASS_HEADER.trim()
                ),
            });
        }
        write_atomic(&to, &text).map_err(|e| io_err(&to, e))?;
    }
    save_summary(out, &t)?;
    Ok(t)
}

/// Which positions of `0..count` a shard takes: `i ≡ index (mod of)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..of`.
    pub index: u64,
    /// The number of shards.
    pub of: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, of: 1 };

    /// Reads `I/N` (`0 ≤ I < N`).
    pub fn parse(s: &str) -> Option<Shard> {
        let (i, n) = s.split_once('/')?;
        let (index, of): (u64, u64) = (i.trim().parse().ok()?, n.trim().parse().ok()?);
        (of >= 1 && index < of).then_some(Shard { index, of })
    }

    /// How many of `0..count` it takes.
    pub fn len(self, count: u64) -> u64 {
        count.saturating_sub(self.index).div_ceil(self.of.max(1))
    }

    /// Its `k`-th position.
    pub fn nth(self, k: u64) -> u64 {
        self.index + k * self.of.max(1)
    }
}

/// The explaining options in words: `dpjudge = decisions under paradox=Rule1982`, or
/// `unexplained`.
pub fn explains(b_as_a: &[String], a_as_b: &[String], a: &str, b: &str) -> String {
    let mut parts = Vec::new();
    if !b_as_a.is_empty() {
        parts.push(format!("{b} = {a} under {}", b_as_a.join(" or ")));
    }
    if !a_as_b.is_empty() {
        parts.push(format!("{a} = {b} under {}", a_as_b.join(" or ")));
    }
    if parts.is_empty() {
        "unexplained".into()
    } else {
        parts.join("; ")
    }
}
