//! The integration tests, as modules of one test crate: `cargo test` compiles and links one
//! binary for all of them instead of one per file. A new test file goes in this folder with a
//! `mod` line below; shared helpers are in `common/`.
//!
//! Run one file's tests with a filter on its module: `cargo test --test it tui::`.

mod art;
mod authoring;
mod board_art;
mod cli;
mod cli_random;
mod common;
mod completeness;
mod convoy_routes;
mod core_units;
mod datc;
mod dpjudge;
mod edit;
mod engines;
mod freeze;
mod fuzz_regressions;
mod fuzz_replay;
mod guess;
mod hostile;
mod import_names;
mod invalid;
mod invariants;
mod jdip;
mod jdip_variant;
mod jdip_variant_datc;
mod large_inputs;
mod layers;
mod limits;
mod map;
mod map_import;
mod menu;
mod minimize;
mod minimize_bounds;
mod neutral_units;
mod options;
mod oracle;
mod orders;
mod outputs;
mod outside;
mod parser_equivalence;
mod properties;
mod pty;
mod reasons;
mod replay;
mod ring;
mod ring_picture;
mod roundtrip;
mod stepper;
mod text_safety;
mod toy_engine;
mod trace;
mod tui;
mod tui_engines;
mod tui_files;
mod tui_random;
mod tui_replay;
mod tui_second_pass_a;
mod tui_second_pass_b;
mod turn;
mod turn_properties;
mod variants;
mod versus;
mod workspace;
