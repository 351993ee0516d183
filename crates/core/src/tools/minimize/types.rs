//! The minimizer's goal, bounds, progress and result.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::model::rules::Rules;
use crate::model::scenario::Scenario;

use super::property::Property;

/// What to minimize for.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// The properties; all of them must hold after every accepted step.
    pub keep: Vec<Property>,
    /// The rules in use: every property is judged under them, and the minimized scenario
    /// carries them (with its expectations frozen under them).
    pub rules: Rules,
    /// The second rule set, for [`Property::Differs`].
    pub other: Option<Rules>,
}

/// How big a scenario is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Units (on the board, and dislodged ones in a retreat phase).
    pub units: usize,
    /// Orders (the phase's and the follow-up retreats').
    pub orders: usize,
    /// Orders made plain holds by the minimizer.
    pub simplified: usize,
}

/// The minimizer's passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Whole regions removed at once: units and orders that cannot affect the rest (see
    /// [`regions`](super::regions())).
    Regions,
    /// Units removed, with their orders.
    Units,
    /// Orders removed.
    Orders,
    /// One order made a hold: its text before and after.
    Hold {
        /// The order as it was.
        from: String,
        /// The hold that replaced it.
        to: String,
    },
}

/// One accepted reduction, for progress reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Which pass made it.
    pub pass: Pass,
    /// The size before.
    pub before: Size,
    /// The size after.
    pub after: Size,
}

/// The stages of the search, for progress reports: the regions pass once, then rounds of the
/// units, orders and holds passes until a round changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Whole regions removed at once ([`Pass::Regions`]).
    Regions,
    /// ddmin over the units ([`Pass::Units`]).
    Units,
    /// ddmin over the orders ([`Pass::Orders`]).
    Orders,
    /// Each order tried as a hold ([`Pass::Hold`]).
    Holds,
}

impl Stage {
    /// `regions`, `units`, `orders` or `holds`.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Regions => "regions",
            Stage::Units => "units",
            Stage::Orders => "orders",
            Stage::Holds => "holds",
        }
    }
}

/// Where the search is: sent at the start of each pass and after each adjudicated candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The pass under way.
    pub stage: Stage,
    /// The round of the units, orders and holds passes (1 for the first; 0 in the regions
    /// pass).
    pub round: usize,
    /// The smallest candidate found so far that keeps every property.
    pub best: Size,
    /// Candidates adjudicated so far, the input's check included.
    pub runs: usize,
}

/// What hears of the minimizer's work. The library prints nothing: a caller that wants to show
/// progress implements this. Both methods do nothing by default; any `FnMut(&Step)` is an
/// observer of the steps alone.
pub trait Observer {
    /// An accepted reduction.
    fn step(&mut self, _step: &Step) {}
    /// At the start of each pass and after each adjudicated candidate: cheap, so a caller that
    /// draws should limit how often it does.
    fn progress(&mut self, _progress: &Progress) {}
}

impl<F: FnMut(&Step)> Observer for F {
    fn step(&mut self, step: &Step) {
        self(step)
    }
}

/// When to stop before the search is done. Each bound is checked before each candidate is
/// adjudicated (so a bound is overshot by at most one adjudication); the result is then the
/// smallest candidate found so far, which keeps every property but may not be 1-minimal
/// ([`Minimized::stopped`] says so).
#[derive(Clone, Debug, Default)]
pub struct Bounds {
    /// Stop once this many candidates have been adjudicated (the input's check included).
    pub max_runs: Option<usize>,
    /// Stop once this much time has passed since the search began.
    pub max_time: Option<Duration>,
    /// Stop as soon as this flag is set (e.g. by a SIGINT handler).
    pub stop: Option<Arc<AtomicBool>>,
}

/// Why a search stopped before it was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The stop flag of [`Bounds::stop`] was set.
    Interrupted,
    /// [`Bounds::max_runs`] candidates were adjudicated.
    MaxRuns(usize),
    /// [`Bounds::max_time`] passed.
    MaxTime(Duration),
}

/// A search that stopped before it was done: why, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// Why.
    pub reason: StopReason,
    /// The pass it was in.
    pub stage: Stage,
    /// The round ([`Progress::round`]).
    pub round: usize,
}

/// The minimizer's result.
#[derive(Clone, Debug)]
pub struct Minimized {
    /// The minimized scenario: the rules in use, expectations frozen from its own result under
    /// them, title marked `(minimized)`, and the kept properties in its description.
    pub scenario: Scenario,
    /// The input's size.
    pub before: Size,
    /// The result's size.
    pub after: Size,
    /// How many candidates were adjudicated, the input's check included.
    pub runs: usize,
    /// Why each property holds on the result, one line each
    /// (`Szykman rule applied: A Bre - Lon, F Eng C A Bre - Lon`).
    pub witness: Vec<String>,
    /// How many regions the input falls into ([`regions`](super::regions())).
    pub regions: usize,
    /// Set when the search stopped before it was done ([`Bounds`]): the result keeps every
    /// property, but a smaller scenario may too.
    pub stopped: Option<Stopped>,
}
