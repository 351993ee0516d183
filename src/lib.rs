//! dipsandbox: a sandbox for the adjudication rules of Diplomacy.
//!
//! # Module map
//! - [`map`]: maps as data (provinces, coasts, powers, adjacency), loaded from RON and validated;
//!   the standard map is compiled in.
//! - [`art`]: a map's board art — lines of ASCII, an anchor per province, regions by flood fill.
//! - [`menu`]: the orders a unit can be given, generated from the map and the position.
//! - [`orders`]: order notation — a parser that keeps what was written (with a one-pass fast
//!   path for orders written the plain way, `orders/plain.rs`), and a printer.
//! - [`board`]: units, dislodged units, phases.
//! - [`rules`]: every disputed rule of DATC v3.0 chapter 4 as an option, with presets.
//! - [`scenario`]: scenarios as RON files — load with precise errors, save atomically.
//! - [`output`]: the one rule for every file a command writes (never an input, never through a
//!   link, never an existing file unless asked, atomic), and many files written all at once.
//! - [`ron_subset`]: a fast reader for the RON that scenario files use, with the `ron` crate
//!   behind it for everything else and for every error.
//! - [`adjudicator`]: the adjudicator — movement (legality, the DATC chapter 5 decisions, the
//!   partial-information resolver with backup rules, a trace), retreats, adjustments and civil
//!   disorder, with outcomes that give their reasons; and [`adjudicator::dpjudge`], a second,
//!   independent movement engine running the published DPjudge procedure (steps 1–10, marks,
//!   support counts, combat lists) with its own trace and stepper (`docs/dpjudge.md`).
//! - [`turn`]: the turn cycle — retreat and adjustment phases, centre ownership, `advance`.
//! - [`check`]: runs a scenario and compares the result with its expectations.
//! - [`invariants`]: what every result must satisfy, checked after each adjudication (tests, DATC runner, fuzzing).
//! - [`oracle`]: the equation oracle — every solution of a movement phase's DATC 5.B equations,
//!   by exhaustive search independent of the resolver (0, 1 or several: where a backup rule decides).
//! - [`diff`]: rule diffs — two rule sets compared, a table over the presets, deciding options.
//! - [`minimize`]: the minimizer — whole unrelated regions first, then delta debugging (ddmin)
//!   over units and orders, then orders made holds, while properties hold (a backup rule
//!   applied, an order's outcome, a mismatch with the expectations, a difference between two
//!   rule sets); bounded and stoppable, with progress through an observer.
//! - [`jdip`]: the jDip test-file format (jDip, godip and other suites): cases to scenarios.
//! - [`report`]: plain-text rendering of positions, orders and outcomes.
//! - [`edit`]: editing a scenario — checked edits with unlimited undo and redo.
//! - [`synth`]: synthetic ring and grid boards of any size, for measuring scale.
//! - [`error`], [`source`]: errors with file, line and column.
//! - [`text`]: text from files made safe to print (control characters escaped, long text cut).
//! - [`tui`]: the terminal UI: board, orders, decision stepper, rules and compare.
//!
//! Only [`tui`] depends on the terminal-UI crates (a test checks it): the core — map, orders,
//! rules, adjudicator, trace, scenario — can be embedded anywhere.

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

pub mod adjudicator;
pub mod art;
pub mod board;
pub mod check;
pub mod diff;
pub mod edit;
pub mod error;
pub mod invariants;
pub mod jdip;
pub mod map;
pub mod menu;
pub mod minimize;
pub mod oracle;
pub mod orders;
pub mod output;
pub mod report;
pub mod ron_subset;
pub mod rules;
pub mod scenario;
pub mod source;
pub mod synth;
pub mod text;
pub mod tui;
pub mod turn;
