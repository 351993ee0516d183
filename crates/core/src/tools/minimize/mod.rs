//! The minimizer: the smallest part of a scenario that still shows what it is kept for.
//!
//! Given a scenario and one or more [`Property`]s that hold on it (a backup rule is applied, an
//! order has a given outcome, the result misses the expectations, two rule sets disagree), the
//! minimizer first removes whole [`regions`] at once — groups of units and orders that cannot
//! affect one another: the regions where the properties were seen alone, then `ddmin` over the
//! regions — then removes units and orders by delta debugging — Zeller's `ddmin` ([`ddmin`])
//! over the units (a unit goes with its orders), then over the orders — then tries each
//! remaining order as a plain hold, and repeats until a whole round changes nothing, keeping
//! every step after which all the properties still hold. The result is 1-minimal: no single unit
//! or order can be removed, and no single order be made a hold, without losing a property.
//!
//! Every candidate is adjudicated, the regions pass's too, so what the regions say can only make
//! the search faster, never lose a property. On a large board where one place matters the
//! regions pass brings it down to that place in a few adjudications; where everything matters
//! (a ring of N armies all moving round) the proof of 1-minimality still takes an adjudication
//! of the board per unit and per order: a pass over items that were all seen taking part in the
//! properties leaves them out singly from the start, without ddmin's coarser tests, which would
//! all fail; a hold that is the same adjudication as its order's removal, already tried, is not
//! tried again; and a candidate without a cycle in its decisions is turned down for a backup
//! property before they are resolved. So [`minimize_with`] takes [`Bounds`] — a number of
//! adjudications, a time, a stop flag that a SIGINT handler sets — and then gives back the
//! smallest candidate found so far, and an [`Observer`] that hears of each step and of the
//! search's progress (the library prints nothing).
//!
//! ```
//! use dipsandbox_core::tools::minimize::{Goal, Property, minimize};
//! use dipsandbox_core::model::rules::Rules;
//! use dipsandbox_core::model::scenario::Scenario;
//!
//! let s = Scenario::builtin().unwrap(); // Pandin's paradox, six units
//! let goal = Goal {
//!     keep: vec![Property::parse(&s.map, "backup:szykman").unwrap()],
//!     rules: Rules::default(),
//!     other: None,
//! };
//! let small = minimize(&s, &goal, &mut |_| {}).unwrap();
//! // The simple convoy paradox (DATC 6.F.14) is inside it: four units.
//! assert_eq!(small.after.units, 4);
//! ```
//!
//! Candidates are built from the parsed scenario by index (nothing is parsed again), and the
//! search is iterative: its depth does not grow with the input.
//!
//! The files, bottom up: `error` (why a scenario cannot be minimized), `property` (what to keep,
//! and its syntax), `types` (the goal, bounds, progress and result), `holds` (whether a run
//! shows a property), `ddmin`, `regions`, `judge` (a candidate built by index, adjudicated and
//! judged), `expect` (the input's mismatches with its expectations) and `search` (the passes and
//! rounds).

mod ddmin;
mod error;
mod expect;
mod holds;
mod judge;
mod property;
mod regions;
mod search;
mod types;

pub use ddmin::ddmin;
pub use error::{MinimizeError, SYNTAX};
pub use holds::rules_name;
pub use property::Property;
pub use regions::{Regions, regions};
pub use search::{minimize, minimize_on, minimize_with, stop_words};
pub use types::{
    Bounds, Goal, Minimized, Observer, Pass, Progress, Size, Stage, Step, StopReason, Stopped,
};

/// Test hooks for the fuzz targets and the integration tests (the `test-hooks` feature): items
/// no normal build exposes.
#[cfg(feature = "test-hooks")]
pub mod hooks {
    /// The stoppable ddmin over `0..len`, starting with halves.
    pub fn ddmin_halves(
        len: usize,
        test: impl FnMut(&[usize]) -> Option<bool>,
        reduced: impl FnMut(usize, usize),
    ) -> Vec<usize> {
        super::ddmin::ddmin_ids(len, super::ddmin::Start::Halves, test, reduced)
    }

    /// The union-find of the region split.
    pub struct Dsu(super::regions::Dsu);

    impl Dsu {
        /// `n` singletons.
        pub fn new(n: usize) -> Dsu {
            Dsu(super::regions::Dsu::new(n))
        }

        /// The root of `x`'s set.
        pub fn find(&mut self, x: usize) -> usize {
            self.0.find(x)
        }

        /// Joins the sets of `a` and `b`.
        pub fn union(&mut self, a: usize, b: usize) {
            self.0.union(a, b)
        }
    }
}
