//! Any outside adjudicator as an engine: a program that reads each phase as JSON on its
//! standard input and writes its verdicts as JSON on its standard output.
//!
//! - [`protocol`]: the request and the answer (versioned; published in `docs/json.md`), and
//!   the checks that turn an answer into a [`crate::engine::outcome::PhaseResult`];
//! - [`process`]: running the program, line-delimited (one process for many phases) or one-shot,
//!   with a deadline per phase;
//! - [`engine`]: [`OutsideEngine`], the program on the engine seam (`--engine 'cmd:PROGRAM
//!   ARGS'`).

pub mod engine;
pub mod process;
pub mod protocol;

pub use engine::{CommandError, OutsideEngine, split_words};
pub use process::{Mode, Program};
