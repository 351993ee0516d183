//! The loaded scenario and everything computed from it: the adjudication under the current
//! rules by the engine in use (traced, with a cursor over the engine's trace), the same under
//! the compare rules or by the compare engine, and the expectations check. The engines come
//! from the session's [`Registry`] (the switch cycles through them). Nothing here draws; the
//! views read it, and ask the result what it can show.

pub mod compare;
mod query;

use std::path::PathBuf;
use std::sync::Arc;

use dipsandbox_core::engine::decision::stepper::Stepper;
use dipsandbox_core::engine::decision::trace::Event;
use dipsandbox_core::engine::dpjudge::DpStepper;
use dipsandbox_core::engine::legality::Prepared;
use dipsandbox_core::engine::{Engine, PhaseInput, Registry, Steps};
use dipsandbox_core::model::rules::{PRESETS, Rules};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::{Run, RunError, adjudicate_scenario, compare};
use dipsandbox_core::tools::diff::{RuleDiff, diff, diff_engines, diff_expectations};
use dipsandbox_core::tools::edit::{Edit, EditError, Editor};
use dipsandbox_core::tools::oracle::{Limits, solve};
use dipsandbox_core::tools::replay::ReplayHeader;

/// A scenario with its adjudication.
#[derive(Debug)]
pub struct Session {
    /// The scenario with its edit history.
    editor: Editor,
    /// Where it came from, or was last saved (None: the built-in scenario).
    pub path: Option<PathBuf>,
    /// The file as it was on disk when it was opened or saved (None: unknown, or there was
    /// no file).
    disk: Option<DiskStamp>,
    /// The rules in use (the scenario's own until the user changes them).
    pub rules: Rules,
    /// The adjudication under `rules` by `engine`, traced.
    pub run: Run,
    /// A cursor over the engine's trace (movement phases of engines that trace), at its end
    /// until the user steps.
    cursor: Option<Box<dyn Steps>>,
    /// Indices of the decision engine's trace events worth a step (everything but bare visits).
    pub steps: Vec<usize>,
    /// The rules compared against.
    pub compare_rules: Rules,
    /// The adjudication under `compare_rules`.
    pub compare: Run,
    /// What differs between `run` and `compare`, worked out by the library's diff (the one
    /// `dipsandbox diff` prints), so the compare panel and the CLI tell the same story.
    pub diff: RuleDiff,
    /// Mismatches with the scenario's expectations and the number of checks, if it has any.
    pub expectations: Option<(Vec<String>, usize)>,
    /// What the equation oracle says of the phase under `rules` (movement phases only).
    pub equations: Option<Equations>,
    /// The engines there are; the engine switch cycles through them.
    registry: Registry,
    /// The engine that adjudicates movement phases.
    pub engine: Arc<dyn Engine>,
    /// The engine the compare panel runs (the same, unless engines are compared).
    pub compare_engine: Arc<dyn Engine>,
    /// The two engines a `versus` class file names on its first line (`// dipsandbox versus A
    /// B …`), when the file was opened so: the engine adjudicates as A, the compare panel shows
    /// B under the same rules.
    pub versus: Option<(String, String)>,
    /// What a `versus` class file's header says of its class: its `explained:` and `known:`
    /// lines, as written (shown in the compare panel).
    pub versus_notes: Vec<String>,
    /// Engines the opened file names (a `versus` or `replay` header) that this session does
    /// not have: an outside program runs only when the user gives it (`--engine`, engines.ron).
    pub unknown_engines: Vec<String>,
    /// What a file `replay` wrote says of itself (the game, its recorder, the phase, the
    /// engine, the explaining options), when the file was opened so.
    pub replay: Option<ReplayHeader>,
    /// The compare panel shows the replay's recording (the scenario's expectations) instead of
    /// an adjudication.
    recording: bool,
    /// Counts changes to the scenario or its saved state (the recovery file follows it).
    pub generation: u64,
}

/// The equation oracle's answer for the loaded movement phase, shown beside the stepper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Equations {
    /// The number of solutions of the DATC 5.B equations, and whether the resolver did what
    /// DATC 5.B.9 asks (took a lone solution; applied a backup rule otherwise).
    Solutions {
        /// How many (saturating).
        count: u128,
        /// Whether the resolver agrees with the equations.
        agrees: bool,
    },
    /// Too many guesses for the interactive limit.
    TooLarge,
}

impl Equations {
    /// The guesses the TUI allows the oracle on each change (a tenth of the command line's).
    pub const STEPS: u64 = 100_000;

    /// In words, for the stepper: `2 solutions: the backup rule decides`.
    pub fn text(self) -> String {
        match self {
            Equations::Solutions { count, agrees } => {
                let what = match count {
                    0 => "0 solutions: the backup rule decides".to_string(),
                    1 => "1 solution: the equations decide".to_string(),
                    n => format!("{n} solutions: the backup rule decides"),
                };
                if agrees {
                    what
                } else {
                    format!("{what} — the resolver DISAGREES (dipsandbox solve)")
                }
            }
            Equations::TooLarge => "too large to count the solutions".into(),
        }
    }
}

/// Why a scenario could not be opened.
pub type OpenError = String;

impl Session {
    /// Adjudicates a scenario under `rules` (default: its own), compared with the next preset,
    /// with the built-in engines.
    pub fn new(
        scenario: Scenario,
        path: Option<PathBuf>,
        rules: Option<Rules>,
    ) -> Result<Session, OpenError> {
        Session::with_registry(scenario, path, rules, Registry::builtin())
    }

    /// [`Session::new`] with the engines of `registry` (its first engine adjudicates).
    pub fn with_registry(
        scenario: Scenario,
        path: Option<PathBuf>,
        rules: Option<Rules>,
        registry: Registry,
    ) -> Result<Session, OpenError> {
        Session::with_engines(scenario, path, rules, registry, None)
    }

    /// A session on another scenario that keeps this one's engines: its registry (engines
    /// registered at run time and outside ones included) and the engine in use — unless the
    /// file names its own (a `versus` or `replay` file). What opening a file and restoring kept
    /// edits build.
    pub fn reopen(
        &self,
        scenario: Scenario,
        path: Option<PathBuf>,
        rules: Option<Rules>,
    ) -> Result<Session, OpenError> {
        Session::with_engines(
            scenario,
            path,
            rules,
            self.registry.clone(),
            Some(self.engine.clone()),
        )
    }

    /// [`Session::with_registry`] adjudicating with `engine` (default: the registry's first).
    fn with_engines(
        scenario: Scenario,
        path: Option<PathBuf>,
        rules: Option<Rules>,
        registry: Registry,
        engine: Option<Arc<dyn Engine>>,
    ) -> Result<Session, OpenError> {
        let engine = engine
            .or_else(|| registry.default_engine().cloned())
            .ok_or_else(|| "no engine is registered".to_string())?;
        let asked = rules.is_some();
        let rules = rules.unwrap_or(scenario.rules);
        let compare_rules = next_preset(&rules, 1);
        let r = adjudicate_scenario(&scenario, Some(rules), &*engine, true)
            .map_err(|e| e.to_string())?;
        let c = adjudicate_scenario(&scenario, Some(compare_rules), &*engine, false)
            .map_err(|e| e.to_string())?;
        let mut s = Session {
            editor: Editor::new(scenario),
            disk: path.as_deref().and_then(DiskStamp::of),
            path,
            rules,
            run: r,
            cursor: None,
            steps: Vec::new(),
            compare_rules,
            compare: c,
            diff: RuleDiff::default(),
            expectations: None,
            equations: None,
            registry,
            compare_engine: engine.clone(),
            engine,
            generation: 0,
            versus: None,
            versus_notes: Vec::new(),
            unknown_engines: Vec::new(),
            replay: None,
            recording: false,
        };
        s.refresh();
        // A `versus` class file or a phase `replay` wrote opens on what it compares.
        s.open_sides(asked);
        Ok(s)
    }

    /// The scenario as it stands (with any edits).
    pub fn scenario(&self) -> &Scenario {
        self.editor.scenario()
    }

    /// Whether the scenario has edits that are not saved.
    pub fn is_dirty(&self) -> bool {
        self.editor.is_dirty()
    }

    /// How many edits the undo history holds (the scenario's place in its history).
    pub fn history_depth(&self) -> usize {
        self.editor.depth()
    }

    /// Applies an edit and re-adjudicates at once.
    pub fn edit(&mut self, e: Edit) -> Result<(), EditError> {
        self.editor.apply(e)?;
        self.generation += 1;
        self.rerun();
        Ok(())
    }

    /// Undoes the last edit; false when there is none.
    pub fn undo(&mut self) -> bool {
        let done = self.editor.undo();
        if done {
            self.generation += 1;
            self.rerun();
        }
        done
    }

    /// Redoes the last undone edit; false when there is none.
    pub fn redo(&mut self) -> bool {
        let done = self.editor.redo();
        if done {
            self.generation += 1;
            self.rerun();
        }
        done
    }

    /// Makes the current result (under the rules in use) the scenario's expectations; when those
    /// rules are not the scenario's own, they become its own too, so that `check` agrees.
    pub fn freeze(&mut self) -> Result<(), EditError> {
        let (phase, retreats) =
            dipsandbox_core::tools::check::expectations_of(self.scenario(), &self.run);
        if self.rules != self.scenario().rules {
            self.editor.apply(Edit::Rules(self.rules))?;
            self.generation += 1;
        }
        // The expectations are no longer the recording: rule sets are compared again.
        if self.replay.take().is_some() {
            self.recording = false;
            self.compare_rules = next_preset(&self.rules, 1);
        }
        self.edit(Edit::Expectations(phase, retreats))
    }

    /// Writes the rules in use into the scenario's own rules.
    pub fn adopt_rules(&mut self) -> Result<(), EditError> {
        self.edit(Edit::Rules(self.rules))
    }

    /// Records that the scenario was saved to `path`, which is now on disk as `disk` (the main
    /// loop looked, when it saved).
    pub fn saved_as(&mut self, path: PathBuf, disk: Option<DiskStamp>) {
        self.editor.mark_saved();
        self.generation += 1;
        self.disk = disk;
        self.path = Some(path);
    }

    /// The file as it was on disk when it was opened or saved.
    pub fn disk_stamp(&self) -> Option<DiskStamp> {
        self.disk
    }

    /// Records how the file was on disk when the edits began: for edits restored from a
    /// recovery file, what it says (None when it says nothing: then any file there counts as
    /// changed, and saving asks first).
    pub fn assume_disk_stamp(&mut self, stamp: Option<DiskStamp>) {
        self.disk = stamp;
    }

    /// Records that the scenario has edits its file does not (restored from a recovery file).
    pub fn mark_unsaved(&mut self) {
        self.editor.mark_unsaved();
        self.generation += 1;
    }

    /// Whether the scenario's file changed on disk since it was opened or saved (its time of
    /// modification or its size differ).
    pub fn changed_on_disk(&self) -> bool {
        match &self.path {
            Some(p) => DiskStamp::of(p) != self.disk,
            None => false,
        }
    }

    /// Adjudicates the scenario as it stands with `engine` under `rules`.
    fn adjudicate(&self, rules: Rules, engine: &dyn Engine, trace: bool) -> Result<Run, RunError> {
        adjudicate_scenario(self.scenario(), Some(rules), engine, trace)
    }

    fn rerun(&mut self) {
        if let Ok(r) = self.adjudicate(self.rules, &*self.engine, true) {
            self.run = r;
        }
        if let Ok(c) = self.adjudicate(self.compare_rules, &*self.compare_engine, false) {
            self.compare = c;
        }
        self.refresh();
    }

    /// The engines the session can switch between.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Uses the engines of `registry` from now on (the engine in use stays when the registry
    /// has one of its name; otherwise its first engine takes over).
    pub fn set_registry(&mut self, registry: Registry) {
        self.registry = registry;
        let keep = self.registry.get(self.engine.name()).cloned();
        match keep.or_else(|| self.registry.default_engine().cloned()) {
            Some(e) => self.set_engine(e),
            None => self.rerun(),
        }
    }

    /// The engine after the one in use, in the registry's order (cycling back to the first).
    pub fn next_engine(&self) -> Arc<dyn Engine> {
        self.registry
            .next_after(self.engine.name())
            .cloned()
            .unwrap_or_else(|| self.engine.clone())
    }

    /// Adjudicates with another engine (the compare panel follows, unless it compares engines).
    pub fn set_engine(&mut self, engine: Arc<dyn Engine>) {
        let comparing_engines = self.comparing_engines();
        self.engine = engine;
        self.compare_engine = if comparing_engines {
            self.next_engine()
        } else {
            self.engine.clone()
        };
        self.rerun();
    }

    /// Compares the next engine under the same rules (or, when it already does, goes back to
    /// comparing rule sets with the next preset).
    pub fn toggle_compare_engines(&mut self) {
        if self.comparing_recording() {
            // From a replay's recording to rule sets (then engines, then the recording).
            self.recording = false;
            self.compare_engine = self.engine.clone();
            self.compare_rules = next_preset(&self.rules, 1);
        } else if self.comparing_engines() && self.replay.is_some() {
            self.recording = true;
            self.compare_engine = self.engine.clone();
            self.compare_rules = self.rules;
        } else if !self.comparing_engines() {
            self.compare_engine = self.next_engine();
            self.compare_rules = self.rules;
        } else {
            self.compare_engine = self.engine.clone();
            self.compare_rules = next_preset(&self.rules, 1);
        }
        self.rerun();
    }

    /// Whether the compare panel compares two engines.
    pub fn comparing_engines(&self) -> bool {
        self.compare_engine.name() != self.engine.name()
    }

    /// The cursor over the engine's trace, whatever the engine.
    pub fn cursor(&self) -> Option<&dyn Steps> {
        self.cursor.as_deref()
    }

    /// The cursor over the engine's trace, to move it.
    pub fn cursor_mut(&mut self) -> Option<&mut (dyn Steps + 'static)> {
        self.cursor.as_deref_mut()
    }

    /// The cursor over the decision engine's trace, when that engine adjudicated.
    pub fn stepper(&self) -> Option<&Stepper> {
        self.cursor.as_deref()?.as_any().downcast_ref()
    }

    /// [`Session::stepper`], to move it.
    pub fn stepper_mut(&mut self) -> Option<&mut Stepper> {
        self.cursor.as_deref_mut()?.as_any_mut().downcast_mut()
    }

    /// The cursor over the DPjudge procedure's trace, when that engine adjudicated.
    pub fn dp(&self) -> Option<&DpStepper> {
        self.cursor.as_deref()?.as_any().downcast_ref()
    }

    /// The orders as the engine classed them (movement phases of engines that class them).
    fn prepared(&self) -> Option<&Prepared> {
        self.run.result.prepared()
    }

    fn refresh(&mut self) {
        let cursor = {
            let s = self.scenario();
            self.run.result.steps(&PhaseInput::of(s, &self.rules))
        };
        self.cursor = cursor;
        self.steps = match self.stepper() {
            Some(st) => st
                .events()
                .iter()
                .enumerate()
                .filter(|(_, e)| {
                    !matches!(
                        e,
                        Event::Visit { .. } | Event::Resolved { .. } | Event::Start { .. }
                    )
                })
                .map(|(i, _)| i)
                .collect(),
            None => Vec::new(),
        };
        if let Some(c) = &mut self.cursor {
            let n = c.len();
            c.seek(n);
        }
        self.expectations = self
            .scenario()
            .expect
            .as_ref()
            .map(|_| compare(self.scenario(), &self.run));
        self.equations = self.run.result.decisions().map(|m| {
            let s = self.scenario();
            let limits = Limits {
                steps: Equations::STEPS,
                ..Limits::default()
            };
            match solve(&s.map, &s.units, &s.orders, &self.rules, limits) {
                Ok(o) => Equations::Solutions {
                    count: o.count,
                    agrees: o.judge(m).is_agreement(),
                },
                Err(_) => Equations::TooLarge,
            }
        });
        self.rediff();
    }

    /// Re-adjudicates under other rules (the stepper starts at the end again).
    pub fn set_rules(&mut self, rules: Rules) {
        if let Ok(r) = self.adjudicate(rules, &*self.engine, true) {
            self.rules = rules;
            self.run = r;
            if self.comparing_engines() || self.comparing_recording() {
                // Engines are compared under the rules in use.
                self.compare_rules = rules;
                if let Ok(c) = self.adjudicate(rules, &*self.compare_engine, false) {
                    self.compare = c;
                }
            }
            self.refresh();
        }
    }

    /// Compares against other rules (with the engine in use).
    pub fn set_compare(&mut self, rules: Rules) {
        if let Ok(c) = self.adjudicate(rules, &*self.engine, false) {
            self.compare_rules = rules;
            self.compare_engine = self.engine.clone();
            self.compare = c;
            self.recording = false;
        }
        self.rediff();
    }

    /// Works out [`Session::diff`] again: the library's rule diff (the decision engine under
    /// the two rule sets, as `dipsandbox diff --rules` runs it), or, when engines are compared,
    /// its engine diff under the rules in use, or, against a replay's recording, what of the
    /// recorded result the adjudication does not give.
    fn rediff(&mut self) {
        let s = self.scenario();
        let d = if self.comparing_recording() {
            Ok(diff_expectations(s, &self.run))
        } else if self.comparing_engines() {
            diff_engines(s, Some(self.rules), &*self.engine, &*self.compare_engine)
        } else {
            diff(s, self.rules, self.compare_rules)
        };
        self.diff = d.unwrap_or_default();
    }

    /// A short name for where the scenario came from.
    pub fn source_name(&self) -> String {
        match &self.path {
            Some(p) => p.display().to_string(),
            None => "built-in".into(),
        }
    }

    /// The name of the preset the rules equal, or the options that differ from the DATC
    /// defaults: `paradox=Rule1982`.
    pub fn rules_name(rules: &Rules) -> String {
        match rules.preset_name() {
            Some(p) => p.to_string(),
            None => rules
                .overrides()
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}

/// How a file is on disk: its time of modification and its size, to tell that it changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiskStamp {
    /// Time of modification since the Unix epoch, in nanoseconds (None: the system gives none).
    pub modified_ns: Option<u128>,
    /// Size in bytes.
    pub len: u64,
}

impl DiskStamp {
    /// The stamp of the file at `p` now (None: nothing there).
    pub fn of(p: &std::path::Path) -> Option<DiskStamp> {
        let meta = std::fs::metadata(p).ok()?;
        let modified_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos());
        Some(DiskStamp {
            modified_ns,
            len: meta.len(),
        })
    }

    /// As written in a recovery file: `1712345678.123456789 s, 2345 bytes` (`- s` when the
    /// time is unknown).
    pub fn to_text(self) -> String {
        let time = self.modified_ns.map_or("-".to_string(), |ns| {
            format!("{}.{:09}", ns / 1_000_000_000, ns % 1_000_000_000)
        });
        format!("{time} s, {} bytes", self.len)
    }

    /// Reads [`DiskStamp::to_text`]'s form back (None: not that form).
    pub fn from_text(text: &str) -> Option<DiskStamp> {
        let (time, len) = text.trim().split_once(" s, ")?;
        let len = len.strip_suffix(" bytes")?.parse::<u64>().ok()?;
        let modified_ns = if time == "-" {
            None
        } else {
            let (secs, nanos) = time.split_once('.')?;
            if nanos.len() != 9 {
                return None;
            }
            let secs = secs.parse::<u128>().ok()?;
            let nanos = nanos.parse::<u128>().ok()?;
            Some(secs.checked_mul(1_000_000_000)?.checked_add(nanos)?)
        };
        Some(DiskStamp { modified_ns, len })
    }
}

/// The preset `step` places after (or before) the one `rules` equal; from custom rules, the
/// first (or last) preset.
pub fn next_preset(rules: &Rules, step: isize) -> Rules {
    let n = PRESETS.len() as isize;
    let here = PRESETS
        .iter()
        .position(|(p, _)| Rules::preset(p).as_ref() == Some(rules));
    let i = match here {
        Some(i) => (i as isize + step).rem_euclid(n),
        None if step >= 0 => 0,
        None => n - 1,
    };
    PRESETS
        .get(i as usize)
        .and_then(|p| Rules::preset(p.0))
        .unwrap_or_default()
}
