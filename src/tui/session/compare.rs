//! What the compare panel sets side by side. The left side is always the adjudication in use;
//! the right is the same scenario under the compare rules, by the compare engine, or — for a
//! file `replay` wrote — the result the game recorded (the scenario's expectations). A file says
//! which it is on its first lines: `// dipsandbox versus A B …` or a [`ReplayHeader`].

use std::path::Path;

use dipsandbox_core::base::text::one_line;
use dipsandbox_core::engine::outside::split_words;

use dipsandbox_core::engine::Verdict;
use dipsandbox_core::model::board::Unit;
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::tools::check::Run;
use dipsandbox_core::tools::diff::expected_verdict;
use dipsandbox_core::tools::replay::ReplayHeader;

use super::Session;

/// One side of the comparison: an engine's result, or a recording.
#[derive(Clone, Debug)]
pub enum Side<'a> {
    /// An adjudication (`name`: its rules, or its engine when engines are compared).
    Run {
        /// What the panel calls it.
        name: String,
        /// Its result.
        run: &'a Run,
    },
    /// The result a recorded game gives the phase.
    Recording {
        /// The replay's header: the game, its recorder, the phase.
        replay: &'a ReplayHeader,
        /// The scenario as it stands (its expectations are the recording).
        session: &'a Session,
    },
}

impl Side<'_> {
    /// The side's name in the panel's rows: `datc`, `decisions`, `recorded`.
    pub fn name(&self) -> &str {
        match self {
            Side::Run { name, .. } => name,
            Side::Recording { .. } => "recorded",
        }
    }

    /// The side's name in the panel's title: the name, or for a recording what recorded it:
    /// `recorded: game-2.json (diplomacy package)`.
    pub fn label(&self) -> String {
        match self {
            Side::Run { name, .. } => name.to_string(),
            Side::Recording { replay, .. } => recording_label(replay),
        }
    }

    /// The verdict the side gives order `i` (None: a recording that does not say).
    pub fn verdict(&self, i: usize) -> Option<Verdict> {
        match self {
            Side::Run { run, .. } => run.phase().outcomes.get(i).map(|o| o.verdict),
            Side::Recording { session, .. } => {
                let e = session.scenario().expect.as_ref()?;
                e.results
                    .iter()
                    .find(|(k, _, _)| *k == i)
                    .map(|(_, _, x)| expected_verdict(*x))
            }
        }
    }

    /// The units the side dislodges (None: a recording that does not say).
    pub fn dislodged(&self) -> Option<Vec<Unit>> {
        match self {
            Side::Run { run, .. } => Some(run.phase().dislodged.iter().map(|d| d.unit).collect()),
            Side::Recording { session, .. } => {
                session.scenario().expect.as_ref()?.dislodged.clone()
            }
        }
    }

    /// Whether the side is a recording.
    pub fn is_recording(&self) -> bool {
        matches!(self, Side::Recording { .. })
    }
}

/// `recorded: game-2.json (diplomacy package)`: the game file's name and what recorded it.
pub fn recording_label(h: &ReplayHeader) -> String {
    let file = Path::new(&h.game)
        .file_name()
        .map_or_else(|| h.game.clone(), |f| f.to_string_lossy().to_string());
    if h.recorder.is_empty() {
        format!("recorded: {file}")
    } else {
        format!("recorded: {file} ({})", h.recorder)
    }
}

impl Session {
    /// The two sides the compare panel shows, left and right.
    pub fn sides(&self) -> (Side<'_>, Side<'_>) {
        let (a, b) = self.side_names();
        let left = Side::Run {
            name: a,
            run: &self.run,
        };
        match (&self.replay, self.recording) {
            (Some(replay), true) => (
                left,
                Side::Recording {
                    replay,
                    session: self,
                },
            ),
            _ => (
                left,
                Side::Run {
                    name: b,
                    run: &self.compare,
                },
            ),
        }
    }

    /// Sets the sides by what the file says it compares (its first lines): a `versus` class
    /// file's two engines under the same rules; a phase `replay` wrote, its engine (under the
    /// replay's rules unless `asked` for others) against the recording.
    pub(super) fn open_sides(&mut self, asked: bool) {
        let Some(path) = self.path.clone() else {
            return;
        };
        self.unknown_engines.clear();
        if let Some((a, b)) = versus_pair(&path) {
            match (
                self.registry.get(&a).cloned(),
                self.registry.get(&b).cloned(),
            ) {
                (Some(ea), Some(eb)) => {
                    self.engine = ea;
                    self.compare_engine = eb;
                    self.compare_rules = self.rules;
                    self.versus = Some((a, b));
                    self.versus_notes = versus_notes(&path);
                    self.rerun();
                }
                (ea, eb) => {
                    // A file never starts a program of its own choosing: an outside engine it
                    // names runs only when the user gave it (--engine, or engines.ron).
                    for (e, name) in [(ea, a), (eb, b)] {
                        if e.is_none() {
                            self.unknown_engines.push(name);
                        }
                    }
                }
            }
        }
        if let Some(h) = replay_header(&path) {
            if let Some(e) = self.registry.get(&h.engine).cloned() {
                self.engine = e;
            }
            if let (false, Ok(r)) = (asked, Rules::parse_spec(&h.rules)) {
                self.rules = r;
            }
            self.compare_engine = self.engine.clone();
            self.compare_rules = self.rules;
            self.replay = Some(h);
            self.recording = true;
            self.rerun();
        }
    }

    /// Whether the compare panel shows the recording of a `replay` file.
    pub fn comparing_recording(&self) -> bool {
        self.recording && self.replay.is_some()
    }

    /// The names of the two adjudications compared: their engines when engines are compared (or
    /// an engine with a recording), else their rules.
    fn side_names(&self) -> (String, String) {
        if self.comparing_engines() || self.comparing_recording() {
            (
                self.engine.name().to_string(),
                self.compare_engine.name().to_string(),
            )
        } else {
            (
                Session::rules_name(&self.rules),
                Session::rules_name(&self.compare_rules),
            )
        }
    }
}

/// The first 16 KiB of a file, as text (a header is at its top).
fn head(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = vec![0u8; 16 * 1024];
    let n = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    head.truncate(n);
    // A cut in the middle of a character: the text up to it.
    Some(match String::from_utf8(head) {
        Ok(s) => s,
        Err(e) => {
            let ok = e.utf8_error().valid_up_to();
            String::from_utf8_lossy(&e.into_bytes()[..ok]).into_owned()
        }
    })
}

/// The engines `A` and `B` of a `versus` class file: its first line is `// dipsandbox versus A B
/// …`, the names written as shell words (`'cmd:python3 adapter.py'`).
fn versus_pair(path: &Path) -> Option<(String, String)> {
    let text = head(path)?;
    let first = text.lines().next()?;
    let rest = first.strip_prefix("// dipsandbox versus ")?;
    // Only the two names are read: what follows (`--seed 0 --mix all: position 7`) may hold
    // anything a shell would not split the same way.
    let words = split_words(rest).ok().or_else(|| {
        let mut w = rest.split_whitespace().map(str::to_string);
        Some(vec![w.next()?, w.next()?])
    })?;
    let mut words = words.into_iter();
    Some((words.next()?, words.next()?))
}

/// What a `versus` class file's header says of its class, one line each (cut to 1,000
/// characters): its `explained:` and `known:` lines as written (or that nothing explains it),
/// the DATC case it is like when it names one, and how to run it again (the file under B;
/// the run that found it, up to its position).
fn versus_notes(path: &Path) -> Vec<String> {
    let Some(text) = head(path) else {
        return Vec::new();
    };
    let header: Vec<&str> = text
        .lines()
        .take_while(|l| l.starts_with("//"))
        .filter_map(|l| l.strip_prefix("// "))
        .collect();
    let cut = |l: &str| dipsandbox_core::base::text::cut_after(&one_line(l), 1_000).into_owned();
    let mut notes: Vec<String> = header
        .iter()
        .filter(|l| l.starts_with("explained: ") || l.starts_with("known: "))
        .map(|l| cut(l))
        .collect();
    if !header.iter().any(|l| l.starts_with("explained: ")) {
        notes.insert(0, "explained: no single rule option explains it".into());
    }
    if let Some(case) = header
        .iter()
        .filter_map(|l| l.strip_prefix("like the DATC case: "))
        .find(|c| !c.starts_with("none"))
    {
        notes.push(cut(&format!("nearest DATC case: {case}")));
    }
    notes.extend(
        rerun_lines(path, header.first().copied())
            .iter()
            .map(|l| cut(l)),
    );
    notes
}

/// How to run a `versus` class file's disagreement again, from its first line (`dipsandbox
/// versus A B --seed 0 --mix paradox: position 133`): the file checked under B (its
/// expectations are the decision engine's result), and the run that found it, cut to the
/// positions up to this one.
fn rerun_lines(path: &Path, first: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    let Some((_, b)) = versus_pair(path) else {
        return out;
    };
    let file = dipsandbox_core::base::text::shell_word(&path.display().to_string());
    out.push(format!(
        "re-run: dipsandbox check --engine {} {file}",
        dipsandbox_core::base::text::shell_word(&b)
    ));
    if let Some((run, position)) = first.and_then(|l| l.rsplit_once(": position ")) {
        let run = run.trim();
        match position.trim().parse::<u64>() {
            Ok(i) if !run.contains("--count") => out.push(format!(
                "found by: {run} --count {} (position {i})",
                i.saturating_add(1)
            )),
            _ => out.push(format!("found by: {run} (position {})", position.trim())),
        }
    }
    out
}

/// The header of a file `replay` wrote.
fn replay_header(path: &Path) -> Option<ReplayHeader> {
    ReplayHeader::parse(&head(path)?)
}

/// The header a `versus` class file or a phase `replay` wrote carries at its top — its first
/// lines, each a `//` comment, as they are — or `None` for any other file. Saving such a file
/// (or saving it as a new one) writes the header back above the scenario, so that it opens on
/// its engines or its recording again.
pub fn kept_header(path: &Path) -> Option<String> {
    let text = head(path)?;
    let first = text.lines().next()?;
    if !first.starts_with("// dipsandbox versus ") && first.trim_end() != ReplayHeader::MAGIC {
        return None;
    }
    // The header ends at the first whole line that is not a comment; when the first 16 KiB
    // hold none, the header may go on past them: then the whole file.
    let ends_in_head = text
        .split_inclusive('\n')
        .any(|l| l.ends_with('\n') && !l.starts_with("//"));
    let text = if ends_in_head {
        text
    } else {
        std::fs::read_to_string(path).ok()?
    };
    let mut out = String::new();
    for line in text.lines().take_while(|l| l.starts_with("//")) {
        out.push_str(line);
        out.push('\n');
    }
    Some(out)
}
