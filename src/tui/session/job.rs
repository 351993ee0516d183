//! An adjudication request and where it runs. [`Job`] is everything one request needs (the
//! scenario as it stands, the two rule sets, the two engines, what the compare panel compares),
//! owned, so that it runs on a worker thread while the UI stays live; [`Job::run`] does all the
//! engine work of a request (the run, the compare run, the diff, which may adjudicate again)
//! and gives a [`Finished`] tagged with the request's id. [`Worker`] is the session's side: it
//! starts jobs (inline, or on a thread), cancels the one in flight when the user asks or a newer
//! request supersedes it, and hands results back by id, so a stale result is never taken.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use dipsandbox_core::engine::outcome::PhaseResult;
use dipsandbox_core::engine::{Adjudication, Engine};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::{Run, adjudicate_scenario_until};
use dipsandbox_core::tools::diff::{RuleDiff, diff, diff_expectations, diff_runs};

/// How long the UI waits for a request before it shows it as pending: the built-in engines
/// finish well within it, so the "adjudicating…" mark never flickers for them.
pub const GRACE: Duration = Duration::from_millis(100);

/// What the compare panel compares the run with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The same engine under other rules (the diff is the library's rule diff).
    Rules,
    /// Another engine under the same rules.
    Engines,
    /// A replay's recording (the scenario's expectations).
    Recording,
}

/// One adjudication request, owned so that it can run on another thread.
pub struct Job {
    /// The request's id: a result is taken only while it is the latest request's.
    pub id: u64,
    scenario: Scenario,
    rules: Rules,
    compare_rules: Rules,
    engine: Arc<dyn Engine>,
    compare_engine: Arc<dyn Engine>,
    side: Side,
    cancelled: Arc<AtomicBool>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("id", &self.id)
            .field("engine", &self.engine.name())
            .field("compare_engine", &self.compare_engine.name())
            .finish()
    }
}

/// What a request came to.
#[derive(Debug)]
pub struct Finished {
    /// The request's id.
    pub id: u64,
    /// The results, or the engine's error in words.
    pub result: Result<Box<Computed>, String>,
}

/// The results of a request.
#[derive(Debug)]
pub struct Computed {
    /// The adjudication under the rules in use, traced.
    pub run: Run,
    /// The compare panel's adjudication.
    pub compare: Run,
    /// What differs between them.
    pub diff: RuleDiff,
}

/// Whether the adjudication the session holds is the scenario's as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunState {
    /// The results are those of the latest request.
    Current,
    /// A request is on its way: no result is shown as current.
    Pending {
        /// The engine it waits for.
        engine: String,
        /// When it was made.
        since: Instant,
    },
    /// The latest request failed: the engine's error, shown where the verdicts would be.
    Failed(String),
    /// The user cancelled the latest request (the engine named).
    Cancelled(String),
}

impl RunState {
    /// Whether a request is on its way.
    pub fn is_pending(&self) -> bool {
        matches!(self, RunState::Pending { .. })
    }
}

impl Job {
    /// A request for `scenario` (cloned) under `rules` by `engine`, compared as `side` says.
    pub fn new(
        id: u64,
        scenario: &Scenario,
        (rules, compare_rules): (Rules, Rules),
        (engine, compare_engine): (Arc<dyn Engine>, Arc<dyn Engine>),
        side: Side,
    ) -> Job {
        Job {
            id,
            scenario: scenario.clone(),
            rules,
            compare_rules,
            engine,
            compare_engine,
            side,
            cancelled: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Does the request's engine work: the run (traced), the compare panel's run, the diff.
    /// A cancelled request stops before each adjudication, and its flag ends the one in
    /// progress (an outside engine watches it).
    pub fn run(&self) -> Finished {
        let result = self.compute();
        Finished {
            id: self.id,
            result: result.map(Box::new),
        }
    }

    fn compute(&self) -> Result<Computed, String> {
        let s = &self.scenario;
        let stopped = || {
            if self.cancelled.load(Ordering::SeqCst) {
                Err("cancelled".to_string())
            } else {
                Ok(())
            }
        };
        // Each adjudication carries the request's own flag: a cancel never races with an
        // engine's clearing of its own (set before a phase begins, it ends it at once).
        let flag = Some(&*self.cancelled);
        stopped()?;
        let run = adjudicate_scenario_until(s, Some(self.rules), &*self.engine, true, flag)
            .map_err(|e| e.to_string())?;
        stopped()?;
        let compare = adjudicate_scenario_until(
            s,
            Some(self.compare_rules),
            &*self.compare_engine,
            false,
            flag,
        )
        .map_err(|e| format!("the compare panel's {e}"))?;
        stopped()?;
        let d = match self.side {
            Side::Recording => Ok(diff_expectations(s, &run)),
            // The two runs above are the two engines' (under the same rules: the session keeps
            // them so while it compares engines), compared as the panels show them: an outside
            // engine is not asked a third and fourth time.
            Side::Engines => Ok(diff_runs(s, &run, &compare)),
            Side::Rules => diff(s, self.rules, self.compare_rules),
        };
        Ok(Computed {
            run,
            compare,
            diff: d.unwrap_or_default(),
        })
    }
}

/// A result with nothing in it, shown while a request is pending or after it failed: no view
/// finds an outcome in it, so none shows an old verdict as current.
pub fn blank_run(engine: &dyn Engine, rules: Rules) -> Run {
    Run {
        rules,
        result: Adjudication::plain(engine.name(), PhaseResult::default()),
        retreats: None,
    }
}

/// The request in flight on a worker: its id and its own cancel flag, which stops it between
/// adjudications and ends an outside engine's phase in progress (the flag is the request's
/// alone, so a newer request on the same engines is never touched).
struct InFlight {
    id: u64,
    cancelled: Arc<AtomicBool>,
}

impl InFlight {
    /// Stops the request.
    fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }
}

/// Where a session's requests run: inline (None: the caller waits, as the tests' scripted
/// sessions and the command line do), or on worker threads, waiting at most a grace for each.
pub struct Worker {
    grace: Option<Duration>,
    next_id: u64,
    tx: Sender<Finished>,
    rx: Receiver<Finished>,
    in_flight: Option<InFlight>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("grace", &self.grace)
            .field("next_id", &self.next_id)
            .field("in_flight", &self.in_flight.as_ref().map(|i| i.id))
            .finish()
    }
}

impl Worker {
    /// A worker of mode `grace` (None: inline).
    pub fn new(grace: Option<Duration>) -> Worker {
        let (tx, rx) = channel();
        Worker {
            grace,
            next_id: 0,
            tx,
            rx,
            in_flight: None,
        }
    }

    /// Its mode: None inline, else the grace.
    pub fn grace(&self) -> Option<Duration> {
        self.grace
    }

    /// The next request's id, unique in the process (so that no two sessions' requests share
    /// one); the request in flight, if any, is superseded (cancelled).
    pub fn next_id(&mut self) -> u64 {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        self.cancel();
        self.next_id = NEXT.fetch_add(1, Ordering::Relaxed);
        self.next_id
    }

    /// The latest request's id.
    pub fn latest(&self) -> u64 {
        self.next_id
    }

    /// Cancels the request in flight, if any.
    pub fn cancel(&mut self) {
        if let Some(f) = self.in_flight.take() {
            f.cancel();
        }
    }

    /// Starts `job` on a thread of its own.
    pub fn start(&mut self, job: Job) {
        self.in_flight = Some(InFlight {
            id: job.id,
            cancelled: job.cancelled.clone(),
        });
        let tx = self.tx.clone();
        std::thread::spawn(move || {
            // The session may be gone (another file opened): then nobody wants the result.
            let _ = tx.send(job.run());
        });
    }

    /// The latest request's result, waiting at most `wait` (None: as long as it takes);
    /// results of older requests are dropped on the way.
    pub fn wait(&mut self, wait: Option<Duration>) -> Option<Finished> {
        let deadline = wait.map(|w| Instant::now() + w);
        loop {
            let got = match deadline {
                Some(d) => self
                    .rx
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
                None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match got {
                Ok(f) if f.id == self.next_id => {
                    self.in_flight = None;
                    return Some(f);
                }
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // A session replaced (another file opened) stops what it asked for.
        self.cancel();
    }
}
