//! Which engine adjudicates movement phases.

/// Which engine adjudicates movement phases: the decision model of DATC chapter 5 (the
/// default), or the DPjudge procedure ([`dpjudge`]). Retreats and adjustments are the same for
/// both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Kruijswijk's decisions and the partial-information resolver with backup rules.
    #[default]
    Decisions,
    /// The DPjudge algorithm, steps 1–10.
    Dpjudge,
}

impl Engine {
    /// Both engines, the default first.
    pub const ALL: [Engine; 2] = [Engine::Decisions, Engine::Dpjudge];

    /// The name used on the command line (`--engine dpjudge`).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Decisions => "decisions",
            Engine::Dpjudge => "dpjudge",
        }
    }

    /// A longer description.
    pub fn title(self) -> &'static str {
        match self {
            Engine::Decisions => "the decision model (DATC chapter 5)",
            Engine::Dpjudge => "the DPjudge procedure (steps 1–10)",
        }
    }

    /// The engine of a name (`decisions`, `dpjudge`; any case).
    pub fn parse(s: &str) -> Option<Engine> {
        Engine::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s))
    }

    /// The other engine.
    pub fn other(self) -> Engine {
        match self {
            Engine::Decisions => Engine::Dpjudge,
            Engine::Dpjudge => Engine::Decisions,
        }
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
