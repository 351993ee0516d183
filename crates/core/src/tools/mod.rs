//! What is built on the engines. Imports [`crate::base`], [`crate::model`], [`crate::engine`].
//!
//! - [`turn`]: the turn cycle — retreat and adjustment phases, centre ownership, `advance`.
//! - [`art_gen`]: board art generated for a map without any — a Voronoi-style partition of a
//!   character grid around each province's position or a drawing of its adjacency graph.
//! - [`check`]: adjudicates a scenario and compares the result with its expectations.
//! - [`find`]: finding a province by what a person types (exact, initials, prefix, word,
//!   spelling).
//! - [`departures`]: an engine's declared departures from the DATC held to the cases they name.
//! - [`invariants`]: what every result must satisfy, checked after each adjudication.
//! - [`oracle`]: the equation oracle — every solution of a movement phase's DATC 5.B
//!   equations, by exhaustive search independent of the resolver.
//! - [`diff`]: rule diffs — two rule sets compared, a table over the presets, deciding options.
//! - [`minimize`]: the minimizer — unrelated regions first, then delta debugging over units
//!   and orders, then orders made holds, while properties hold; bounded and stoppable.
//! - [`synth`]: synthetic ring and grid boards of any size, for measuring scale.
//! - [`edit`]: editing a scenario — checked edits with unlimited undo and redo.
//! - [`menu`]: the orders a unit can be given, generated from the map and the position.
//! - [`replay`]: a recorded game replayed phase by phase; the phases whose result differs, each
//!   with the rule options that explain it.
//! - [`versus`]: the differential bench — random positions through two engines, disagreements
//!   shrunk, classed by shape and explaining rule option, written one scenario per class.

pub mod art_gen;
pub mod check;
pub mod departures;
pub mod diff;
pub mod edit;
pub mod find;
pub mod invariants;
pub mod menu;
pub mod minimize;
pub mod oracle;
pub mod replay;
pub mod synth;
pub mod turn;
pub mod versus;
