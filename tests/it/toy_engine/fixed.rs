//! A toy engine that is the decision engine under one rule option of its own, whatever the
//! phase's rules say of it: an engine that departs from the DATC rules by one documented option,
//! which `versus` should find, and explain by that option on every position it counts.

use dipsandbox_core::engine::{
    Adjudication, DecisionEngine, Engine, EngineError, OptionUse, PhaseInput,
};
use dipsandbox_core::model::rules::Rules;

/// The decision engine with `field` always `value`.
#[derive(Clone, Copy, Debug)]
pub struct FixedEngine {
    /// Its name.
    pub name: &'static str,
    /// The option it fixes.
    pub field: &'static str,
    /// The value it fixes it to.
    pub value: &'static str,
    /// Whether it declares that it always follows that value ([`Engine::follows`]).
    pub declares: bool,
}

impl FixedEngine {
    fn rules(&self, r: &Rules) -> Rules {
        let mut r = *r;
        let _ = r.set(self.field, self.value);
        r
    }
}

impl Engine for FixedEngine {
    fn name(&self) -> &str {
        self.name
    }

    fn title(&self) -> &str {
        "the decision engine with one option fixed"
    }

    fn follows(&self, field: &str) -> Option<&str> {
        (self.declares && field == self.field).then_some(self.value)
    }

    fn option_use(&self, field: &str) -> OptionUse {
        if field == self.field {
            OptionUse::Never
        } else {
            DecisionEngine.option_use(field)
        }
    }

    fn movement(&self, input: &PhaseInput<'_>, trace: bool) -> Result<Adjudication, EngineError> {
        let rules = self.rules(input.rules);
        let fixed = PhaseInput {
            rules: &rules,
            ..input.clone()
        };
        let mut a = DecisionEngine.movement(&fixed, trace)?;
        a.engine = self.name.to_string();
        Ok(a)
    }
}
