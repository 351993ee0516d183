//! The guess engine: DATC 5.F's guess algorithm, which resolves *orders* (success or failure),
//! not the decision graph.
//!
//! - [`conditions`]: `adjudicate(order)`, the conditions of 5.B for MOVE, SUPPORT and CONVOY
//!   (with PATH and the strengths), reading other orders only through `resolve`, honouring the
//!   rule options the decision engine honours.
//! - [`resolver`]: `resolve(order)` of 5.F's final listing — visited / resolved flags, the
//!   stored resolution, the global cycle list, the first guess (failure) for an order met again
//!   deeper, the second guess, "same result both ways", `recursion_hits` and `guess_based`,
//!   and 5.B.9's backup rules on the cycle — on an explicit stack (suspend and replay), and the
//!   top-level call order ([`resolver::StartOrder`]).
//! - [`trace`]: its events, free when off; [`stepper`]: the events as a
//!   [`crate::engine::cursor::Replay`], stepped by the generic cursor.
//! - [`engine`]: [`engine::GuessEngine`] on the seam. The outcomes (reasons, dislodged units,
//!   standoffs) are derived from the orders' results by the decision engine's report, so the
//!   two engines' results read alike and differ only where the resolutions do.
//!
//! See `docs/guess.md` for where it departs from the decision engine and why.

pub mod conditions;
pub mod engine;
pub mod resolver;
pub mod stepper;
pub mod trace;

pub use engine::{GuessEngine, GuessResult, adjudicate};
pub use resolver::StartOrder;
pub use stepper::{GuessReplay, GuessStepper, Status};
