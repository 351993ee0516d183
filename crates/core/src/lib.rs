//! dipsandbox-core: the adjudication rules of Diplomacy as a library — the model, the engines
//! and the tools — with no terminal, command-line or report dependency. The `dipsandbox`
//! application (CLI and TUI) is built on it.
//!
//! # Adjudicating with four imports
//! ```
//! use dipsandbox_core::engine::Verdict;
//! use dipsandbox_core::model::scenario::Scenario;
//! use dipsandbox_core::tools::check;
//!
//! let text = r#"Scenario(
//!     title: "Two armies bounce",
//!     phase: "Spring 1901 Movement",
//!     units: { "Germany": ["A Berlin"], "Russia": ["A Warsaw"] },
//!     orders: { "Germany": ["A Berlin - Silesia"], "Russia": ["A Warsaw - Silesia"] },
//! )"#;
//! let scenario = Scenario::from_ron(text, "bounce.ron").unwrap();
//! let run = check::run(&scenario, None, false).unwrap();
//! assert!(run.phase().outcomes.iter().all(|o| o.verdict == Verdict::Fails));
//! ```
//!
//! # Module map (layers, bottom up; a module imports only from its own layer or those below)
//! - [`base`]: text, files and positions — reading files with limits ([`base::source`]),
//!   writing them safely ([`base::output`]), text made safe to print ([`base::text`]), the fast
//!   RON subset reader ([`base::ron_subset`]), the edit distance of "did you mean" ([`base::near`]).
//! - [`model`]: the game's data — maps and their board art, units and phases, order notation,
//!   the DATC rule options, scenarios as RON files, and their located errors.
//! - [`engine`]: the adjudicators — movement (legality, the DATC chapter 5 decisions, the
//!   partial-information resolver with backup rules, a trace and its stepper), the DPjudge
//!   procedure and DATC 5.F's guess algorithm as further movement engines, retreats,
//!   adjustments and civil disorder; one tracer for every engine's events, free when off.
//! - [`tools`]: what is built on the engines — the turn cycle, checking a scenario against its
//!   expectations, the invariant checker, the equation oracle, rule diffs, the minimizer,
//!   synthetic boards, checked edits with undo, and order menus.
//! - [`io`]: other formats — the jDip test-file format (import and export), plain-text
//!   reports, and positions as SVG pictures.
//!
//! # Panics
//! The library does not panic on any input. Outside tests, `unwrap`, `expect`, `panic!` and
//! unchecked indexing are denied by the lints below; the modules whose dense tables are indexed
//! by ids the library made itself (a province id below the map's province count, a unit index
//! below the unit count, a decision id below the decision count) allow indexing at the top of the
//! file, each with a comment saying what is indexed and why it is in bounds (`docs/limits.md`,
//! "Panics"). The fuzz targets and the invariant checker test that claim.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

pub mod base;
pub mod engine;
pub mod io;
pub mod model;
pub mod tools;
