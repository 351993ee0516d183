//! dipsandbox, the application: the command line ([`cli`]) and the terminal UI ([`tui`]) over
//! the adjudication library [`dipsandbox_core`]. The binary (`src/main.rs`) runs
//! [`cli::main`] with the built-in engines; [`cli::main_with`] takes an extended registry.
//!
//! # Module map
//! - [`cli`]: the command line — arguments, and one file per sub-command.
//! - [`tui`]: the terminal UI — board, orders, the decision stepper, rules and compare.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

// Short paths into the core for the TUI's modules (`crate::map::Map`), kept while the TUI is
// reworked on its own branch (issue 23 item 4); its imports move to `dipsandbox_core::…` after.
use dipsandbox_core::base::source;
use dipsandbox_core::engine as adjudicator;
use dipsandbox_core::io::report;
use dipsandbox_core::model::{board, error, map, orders, rules, scenario};
use dipsandbox_core::tools::{check, edit, menu, oracle, turn};

pub mod cli;
pub mod tui;
