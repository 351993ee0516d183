//! dipsandbox, the application: the command line ([`cli`]) and the terminal UI ([`tui`]) over
//! the adjudication library [`dipsandbox_core`]. The binary (`src/main.rs`) runs
//! [`cli::main`] with the built-in engines; [`cli::main_with`] takes an extended registry.
//!
//! # Module map
//! - [`cli`]: the command line — arguments, and one file per sub-command.
//! - [`png`]: pictures as PNG (an SVG rasterised by resvg), for `render` and the TUI.
//! - [`tui`]: the terminal UI — board, orders, the stepper over each engine's reasoning, rules and compare.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// The module maps of this crate link its private modules: they are for maintainers, and
// `cargo doc --document-private-items` renders them.
#![allow(rustdoc::private_intra_doc_links)]

pub mod cli;
pub mod png;
pub mod tui;
