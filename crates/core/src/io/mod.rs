//! Other formats. The top layer: imports every layer below (the jDip importer compares an
//! imported case with its expectations through [`crate::tools::check`]).
//!
//! - [`jdip`]: the jDip test-file format (jDip, godip and other suites): cases to scenarios and
//!   back.
//! - [`report`]: plain-text rendering of positions, orders and outcomes.
//! - [`dpjudge_map`]: DPjudge-style `.map` files (the DPjudge, the Python `diplomacy` package)
//!   read into dipsandbox maps.
//! - [`jdip_variant`]: jDip variants (`variants.xml` and its adjacency file) read into
//!   dipsandbox maps.
//! - [`svg_positions`]: province positions (the unit points) read from a jDip-style SVG map.
//! - [`picture`]: a position as an SVG picture (provinces, units, the orders drawn as arrows and
//!   lines coloured by their verdicts, dislodged units, standoffs, a legend).
//! - [`page`]: self-contained HTML pages for sharing (`dipsandbox report`): a case with its
//!   picture and a stepper through the engine's trace; a `versus` or `replay` output folder.
//! - [`games`]: games recorded by other programs (the Python `diplomacy` package's saved games,
//!   godip's game files), read into scenarios for [`crate::tools::replay`].

pub mod dpjudge_map;
pub mod games;
pub mod jdip;
pub mod jdip_variant;
pub mod page;
pub mod picture;
pub mod report;
pub mod svg_positions;
