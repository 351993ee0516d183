//! The decision engine: legality (4.E.1), the decision graph of DATC chapter 5, its
//! resolver with backup rules, and outcomes that name their cause.
//!
//! - [`adjudicator`]: the decision graph of a phase and its result (the entry points).
//! - [`resolver`]: the partial-information resolver and the backup rules.
//! - [`reasons`]: each outcome's cause, as data and in words.
//! - [`trace`] and [`stepper`]: the resolver's events, and the cursor over them.
//! - [`graphviz`]: the decision graph as a Graphviz `dot` file (`explain --dot`).
//! - [`svg`]: the decision graph as an SVG picture, laid out with no Graphviz (`explain --svg`).
//! - [`engine`]: the engine on the seam.
//!
//! ```
//! use dipsandbox_core::engine::{adjudicate_movement, Verdict};
//! use dipsandbox_core::model::board::Unit;
//! use dipsandbox_core::model::map::{Map, UnitKind};
//! use dipsandbox_core::model::orders::parse_order;
//! use dipsandbox_core::model::rules::Rules;
//!
//! let map = Map::standard();
//! let ger = map.find_power("Germany").unwrap();
//! let rus = map.find_power("Russia").unwrap();
//! let unit = |p, k, name: &str| Unit { power: p, kind: k, loc: map.province(map.find_province(name).unwrap()).main };
//! let units = vec![unit(ger, UnitKind::Army, "ber"), unit(rus, UnitKind::Army, "war")];
//! let orders = vec![
//!     (ger, parse_order(&map, "A Ber - Sil").unwrap()),
//!     (rus, parse_order(&map, "A War - Sil").unwrap()),
//! ];
//! let result = adjudicate_movement(&map, &units, &orders, &Rules::default());
//! assert_eq!(result.outcomes[0].verdict, Verdict::Fails);
//! assert_eq!(result.outcomes[0].reason, "attack 1 does not beat prevent 1 of A War - Sil");
//! ```

pub mod adjudicator;
pub mod engine;
pub mod graphviz;
pub mod reasons;
pub mod resolver;
pub mod stepper;
pub mod svg;
pub mod trace;

pub use adjudicator::{
    Adjudicator, MovementResult, Outcome, adjudicate, adjudicate_movement, adjudicate_verdicts,
    value_text,
};
pub use engine::DecisionEngine;
pub use reasons::reason_decisions;
pub use stepper::{DecisionReplay, Stepper};
