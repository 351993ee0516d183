//! Why a scenario cannot be minimized, and the property syntax its messages quote.

/// The property syntax, for error messages and help.
pub const SYNTAX: &str = "backup, backup:circular, backup:szykman, backup:all-hold, \
backup:all-fail, outcome:ORDER=succeeds|fails|illegal|void, mismatch, differs, solutions:N";

/// Why a scenario cannot be minimized.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MinimizeError {
    /// A property that cannot be read.
    #[error("property {}: {why}", crate::model::error::quoted(.spec))]
    Syntax {
        /// The property as written.
        spec: String,
        /// What is wrong, with the expected syntax.
        why: String,
    },
    /// A property that does not hold on the scenario as given.
    #[error("property `{spec}` does not hold on the input: {why}")]
    DoesNotHold {
        /// The property.
        spec: String,
        /// Why not.
        why: String,
    },
    /// A property that needs a movement phase, on another phase.
    #[error("property `{spec}` needs a movement phase; this scenario is a {phase}")]
    NeedsMovement {
        /// The property.
        spec: String,
        /// The scenario's phase.
        phase: String,
    },
    /// `differs` without a second rule set.
    #[error(
        "property `differs` compares two rule sets: give a second one (on the command line: --rules B to compare with the scenario's own rules, or --rules A --rules B)"
    )]
    NoOtherRules,
    /// No property at all.
    #[error("nothing to keep: give at least one property ({SYNTAX})")]
    NoProperty,
    /// The scenario cannot be run.
    #[error("cannot adjudicate: {0}")]
    Run(String),
}
