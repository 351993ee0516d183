//! The engines by name: the built-in ones, one line each in [`Registry::builtin`], and any
//! registered at run time. The command line's `--engine NAME` and `diff --engines A,B` and the
//! TUI's engine switch all read the registry they are given; the binary gives them the built-in
//! one.
//!
//! ```
//! use dipsandbox_core::engine::registry::Registry;
//!
//! let r = Registry::builtin();
//! assert_eq!(r.names(), ["decisions", "dpjudge", "guess"]);
//! assert_eq!(r.parse("DPjudge").unwrap().name(), "dpjudge");
//! assert_eq!(
//!     r.parse("oracle").unwrap_err().to_string(),
//!     "unknown engine \"oracle\"; expected decisions or dpjudge or guess"
//! );
//! assert_eq!(
//!     r.parse("dpjudg").unwrap_err().to_string(),
//!     "unknown engine \"dpjudg\" (did you mean \"dpjudge\"?); expected decisions or dpjudge or guess"
//! );
//! ```

use std::sync::Arc;

use super::decision::engine::DecisionEngine;
use super::dpjudge::engine::DpjudgeEngine;
use super::guess::engine::GuessEngine;
use super::seam::Engine;

/// Engines by name, in the order they were registered (the first is the default).
#[derive(Clone, Debug, Default)]
pub struct Registry {
    engines: Vec<Arc<dyn Engine>>,
}

/// A name no engine of the registry has.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine {quoted}{hint}; expected {expected}")]
pub struct UnknownEngine {
    /// The name as given, quoted for printing.
    pub quoted: String,
    /// ` (did you mean "NAME"?)` when a name is close, else empty.
    pub hint: String,
    /// The names there are, joined with "or".
    pub expected: String,
}

impl Registry {
    /// The built-in engines, the default first. One line per engine.
    pub fn builtin() -> Registry {
        let mut r = Registry::default();
        r.register(DecisionEngine);
        r.register(DpjudgeEngine);
        r.register(GuessEngine::default());
        r
    }

    /// Adds an engine (replacing one of the same name, in its place).
    pub fn register(&mut self, engine: impl Engine) -> &mut Registry {
        self.register_arc(Arc::new(engine))
    }

    /// [`Registry::register`] for an engine already shared.
    pub fn register_arc(&mut self, engine: Arc<dyn Engine>) -> &mut Registry {
        match self
            .engines
            .iter_mut()
            .find(|e| e.name().eq_ignore_ascii_case(engine.name()))
        {
            Some(slot) => *slot = engine,
            None => self.engines.push(engine),
        }
        self
    }

    /// The engine of a name (any case).
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Engine>> {
        self.engines
            .iter()
            .find(|e| e.name().eq_ignore_ascii_case(name))
    }

    /// The engine of a name, or an error that lists the names there are (what `--engine NAME`
    /// prints).
    pub fn parse(&self, name: &str) -> Result<Arc<dyn Engine>, UnknownEngine> {
        self.get(name).cloned().ok_or_else(|| UnknownEngine {
            quoted: crate::base::text::quoted(name),
            hint: crate::base::near::did_you_mean(name, self.names()),
            expected: self.names().join(" or "),
        })
    }

    /// The names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.engines.iter().map(|e| e.name()).collect()
    }

    /// The engines, in order.
    pub fn engines(&self) -> &[Arc<dyn Engine>] {
        &self.engines
    }

    /// The default engine: the first registered (the decision engine in the built-in registry);
    /// None for an empty registry.
    pub fn default_engine(&self) -> Option<&Arc<dyn Engine>> {
        self.engines.first()
    }

    /// The engine after the one named (cycling back to the first), for a switch that goes
    /// through them all; the first when the name is unknown.
    pub fn next_after(&self, name: &str) -> Option<&Arc<dyn Engine>> {
        let i = self
            .engines
            .iter()
            .position(|e| e.name().eq_ignore_ascii_case(name));
        match i {
            Some(i) => self.engines.get((i + 1) % self.engines.len()),
            None => self.engines.first(),
        }
    }
}
