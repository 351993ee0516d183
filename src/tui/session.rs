//! The loaded scenario and everything computed from it: the adjudication under the current
//! rules by the engine in use (traced, with a cursor over the engine's trace), the same under
//! the compare rules or by the compare engine, and the expectations check. The engines come
//! from the session's [`Registry`] (the switch cycles through them). Nothing here draws; the
//! views read it, and ask the result what it can show.

pub mod compare;
pub mod job;
mod query;

use std::path::PathBuf;
use std::sync::Arc;

use super::adapter::{self, Family};
use dipsandbox_core::engine::decision::stepper::Stepper;
use dipsandbox_core::engine::dpjudge::DpStepper;
use dipsandbox_core::engine::legality::Prepared;
use dipsandbox_core::engine::{Engine, PhaseInput, Registry, Steps};
use dipsandbox_core::model::rules::{PRESETS, Rules};
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::{Run, compare};
use dipsandbox_core::tools::diff::RuleDiff;
use dipsandbox_core::tools::edit::{Edit, EditError, Editor};
use dipsandbox_core::tools::oracle::{Limits, solve};
use dipsandbox_core::tools::replay::ReplayHeader;

pub use job::{Finished, RunState};
use job::{Job, Side, Worker, blank_run};

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
    /// The adjudication under `rules` by `engine`, traced — when [`Session::state`] is
    /// `Current`; otherwise a result with no outcomes (no view shows an old verdict as
    /// current).
    pub run: Run,
    /// Whether `run` and `compare` are the latest request's results, or it is pending, failed
    /// or was cancelled.
    pub state: RunState,
    /// Where requests run (inline, or on a worker thread) and the one in flight.
    worker: Worker,
    /// A cursor over the engine's trace (movement phases of engines that trace), at its end
    /// until the user steps.
    cursor: Option<Box<dyn Steps>>,
    /// Indices of the trace's events worth a step: every event the engine does not mark minor.
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
        Session::with_engines(scenario, path, rules, (registry, None), None)
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
            (self.registry.clone(), Some(self.engine.clone())),
            self.worker.grace(),
        )
    }

    /// [`Session::with_registry`] adjudicating with `engine` (default: the registry's first),
    /// its requests run as `grace` says (see [`Session::run_on_worker`]).
    fn with_engines(
        scenario: Scenario,
        path: Option<PathBuf>,
        rules: Option<Rules>,
        (registry, engine): (Registry, Option<Arc<dyn Engine>>),
        grace: Option<std::time::Duration>,
    ) -> Result<Session, OpenError> {
        let engine = engine
            .or_else(|| registry.default_engine().cloned())
            .ok_or_else(|| "no engine is registered".to_string())?;
        let asked = rules.is_some();
        let rules = rules.unwrap_or(scenario.rules);
        let compare_rules = next_preset(&rules, 1);
        let mut s = Session {
            editor: Editor::new(scenario),
            disk: path.as_deref().and_then(DiskStamp::of),
            path,
            rules,
            run: blank_run(&*engine, rules),
            state: RunState::Current,
            worker: Worker::new(grace),
            cursor: None,
            steps: Vec::new(),
            compare_rules,
            compare: blank_run(&*engine, compare_rules),
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
        if grace.is_none() {
            // Inline (tests, the command line): a scenario the engine cannot adjudicate is an
            // error, as it always was.
            let done = s.job().run();
            if let Err(e) = &done.result {
                return Err(e.clone());
            }
            s.accept(done);
        } else {
            s.rerun();
        }
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
        if self.state != RunState::Current {
            return Err(EditError(
                "there is no current result to make the expectations (the adjudication has not finished)"
                    .into(),
            ));
        }
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

    /// Runs the session's requests on worker threads from now on, waiting at most `grace` for
    /// each before showing it as pending (the main loop of the terminal); without this they run
    /// inline, the caller waiting (scripted tests, the command line).
    pub fn run_on_worker(&mut self, grace: Option<std::time::Duration>) {
        self.worker = Worker::new(grace);
    }

    /// The latest request's id (unique in the process).
    pub fn request_id(&self) -> u64 {
        self.worker.latest()
    }

    /// A request for the scenario as it stands, with a new id (superseding any in flight).
    fn job(&mut self) -> Job {
        let side = if self.comparing_recording() {
            Side::Recording
        } else if self.comparing_engines() {
            Side::Engines
        } else {
            Side::Rules
        };
        Job::new(
            self.worker.next_id(),
            self.scenario(),
            (self.rules, self.compare_rules),
            (self.engine.clone(), self.compare_engine.clone()),
            side,
        )
    }

    /// Adjudicates the scenario as it stands again: inline, or on a worker, waiting at most the
    /// grace before the request shows as pending (its result then comes to [`Session::accept`]
    /// through the main loop).
    fn rerun(&mut self) {
        let job = self.job();
        if self.worker.grace().is_none() {
            let done = job.run();
            self.accept(done);
            return;
        }
        self.state = RunState::Pending {
            engine: self.engine.name().to_string(),
            since: std::time::Instant::now(),
        };
        self.blank();
        self.worker.start(job);
        let grace = self.worker.grace();
        if let Some(done) = self.worker.wait(grace) {
            self.accept(done);
        }
    }

    /// Takes a request's result when it is the latest one and still wanted (not cancelled);
    /// true when it was taken. A failed request leaves no result: its error is the state.
    pub fn accept(&mut self, done: Finished) -> bool {
        let wanted = done.id == self.worker.latest()
            && (self.state.is_pending() || self.worker.grace().is_none());
        if !wanted {
            return false;
        }
        match done.result {
            Ok(c) => {
                let c = *c;
                self.run = c.run;
                self.compare = c.compare;
                self.diff = c.diff;
                self.state = RunState::Current;
                self.refresh();
            }
            Err(e) => {
                self.state = RunState::Failed(e);
                self.blank();
            }
        }
        true
    }

    /// The result of the request on its way, waiting at most `wait` (None: as long as it
    /// takes); None when none is pending or it has not come.
    pub fn wait_for_result(&mut self, wait: Option<std::time::Duration>) -> Option<Finished> {
        if !self.state.is_pending() {
            return None;
        }
        self.worker.wait(wait)
    }

    /// Cancels the request on its way (an outside engine's program is stopped); false when
    /// none is.
    pub fn cancel(&mut self) -> bool {
        let RunState::Pending { engine, .. } = &self.state else {
            return false;
        };
        self.state = RunState::Cancelled(engine.clone());
        self.worker.cancel();
        true
    }

    /// No result: what the views show while a request is pending or after it failed.
    fn blank(&mut self) {
        self.run = blank_run(&*self.engine, self.rules);
        self.compare = blank_run(&*self.compare_engine, self.compare_rules);
        self.cursor = None;
        self.steps.clear();
        self.diff = RuleDiff::default();
        self.expectations = None;
        self.equations = None;
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
        adapter::decision::stepper(self.cursor())
    }

    /// The cursor over the DPjudge procedure's trace, when that engine adjudicated.
    pub fn dp(&self) -> Option<&DpStepper> {
        adapter::procedure::stepper(self.cursor())
    }

    /// Which panels show the result: the decision graph's, the procedure's, any engine's trace,
    /// or the outcomes.
    pub fn family(&self) -> Family {
        adapter::family(&self.run.result, self.cursor())
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
        // The steps: every event but the engine's bookkeeping (the decision engine's visits).
        self.steps = match &self.cursor {
            Some(c) => (0..c.len()).filter(|&i| !c.mark(i).minor).collect(),
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
    }

    /// Re-adjudicates under other rules (the stepper starts at the end again).
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        if self.comparing_engines() || self.comparing_recording() {
            // Engines are compared under the rules in use.
            self.compare_rules = rules;
        }
        self.rerun();
    }

    /// Re-adjudicates under `rules`, compared with the engine in use under `compare`: one
    /// request for both.
    pub fn set_rules_compared(&mut self, rules: Rules, compare: Rules) {
        self.rules = rules;
        self.compare_rules = compare;
        self.compare_engine = self.engine.clone();
        self.recording = false;
        self.rerun();
    }

    /// Compares against other rules (with the engine in use). The diff ([`Session::diff`]) is
    /// the library's rule diff (the decision engine under the two rule sets, as `dipsandbox
    /// diff --rules` runs it), or, when engines are compared, its engine diff under the rules
    /// in use, or, against a replay's recording, what of the recorded result the adjudication
    /// does not give; the request works it out with the adjudications.
    pub fn set_compare(&mut self, rules: Rules) {
        self.compare_rules = rules;
        self.compare_engine = self.engine.clone();
        self.recording = false;
        self.rerun();
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
        rules.name(",")
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
