//! A toy engine that adjudicates as the decision engine but words differently: every support
//! or convoy that does not act is `void`, never `fails` or `illegal` (as the Python `diplomacy`
//! package answers). It differs from the decision engine in wording only, never in effect.

use dipsandbox_core::engine::{
    Adjudication, DecisionEngine, Engine, EngineError, PhaseInput, Verdict,
};
use dipsandbox_core::model::orders::OrderKind;

/// The decision engine, worded as a support or convoy that does nothing is `void`.
#[derive(Clone, Copy, Debug, Default)]
pub struct WordedEngine;

impl Engine for WordedEngine {
    fn name(&self) -> &str {
        "worded"
    }

    fn title(&self) -> &str {
        "the decision engine, its idle supports and convoys worded void"
    }

    fn movement(&self, input: &PhaseInput<'_>, trace: bool) -> Result<Adjudication, EngineError> {
        let mut a = DecisionEngine.movement(input, trace)?;
        a.engine = self.name().to_string();
        for (o, e) in a.phase.outcomes.iter_mut().zip(input.orders) {
            let idle = o.verdict != Verdict::Succeeds;
            let helps = matches!(
                e.order.kind,
                OrderKind::Support { .. } | OrderKind::Convoy { .. }
            );
            if idle && helps {
                o.verdict = Verdict::Void;
            }
        }
        Ok(a)
    }
}
