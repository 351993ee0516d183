//! The game's data: what a position, an order, a rule set and a scenario are. Imports only
//! [`crate::base`].
//!
//! - [`ids`]: the dense ids (province, power) that every table is indexed by.
//! - [`map`]: maps as data (provinces, coasts, powers, adjacency), loaded from RON and
//!   validated; the standard map is compiled in.
//! - [`art`]: a map's board art — lines of ASCII, an anchor per province, regions by flood fill.
//! - [`board`]: units, dislodged units, phases.
//! - [`orders`]: order notation — a parser that keeps what was written (with a one-pass fast
//!   path for orders written the plain way, `orders/plain.rs`), and a printer.
//! - [`rules`]: every disputed rule of DATC v3.0 chapter 4 as an option, with presets.
//! - [`scenario`]: scenarios as RON files — load with precise errors, save atomically.
//! - [`error`]: the located errors of maps, orders and scenarios.

pub mod art;
pub mod board;
pub mod error;
pub mod ids;
pub mod map;
pub mod orders;
pub mod rules;
pub mod scenario;
