//! The core library's unit tests, one file per core module (`model_map.rs` for
//! `model::map`): the core is not compiled a second time as its own test harness. What they
//! need that the core does not export is behind its `test-hooks` feature.

mod base_near;
mod base_output;
mod base_random;
mod base_ron_subset;
mod base_text;
mod engine_outside_protocol;
mod io_svg_positions;
mod model_board;
mod model_error;
mod model_map;
mod model_orders;
mod model_orders_plain;
mod model_scenario;
mod tools_art_gen;
mod tools_art_gen_layout;
mod tools_check;
mod tools_diff;
mod tools_menu;
mod tools_minimize;
mod tools_replay;
mod tools_versus_positions;
