//! The engine seam: what every engine takes ([`PhaseInput`]), what it is ([`Engine`]) and what
//! it gives back ([`Adjudication`]), whatever its method. Callers — checking a scenario, the
//! turn cycle, diffs, the command line, the TUI — hold an `&dyn Engine` and one
//! `Adjudication`, and ask the result what it can show ([`Shows`]) and for a cursor over its
//! trace ([`Steps`]); none of them names an engine.
//!
//! Dispatch is dynamic and happens once per phase: inside an engine everything is monomorphic
//! (the decision engine's resolver and its tracer are type parameters, so tracing off compiles
//! every trace statement away).
//!
//! Retreat and adjustment phases do not depend on the engine: [`Engine::adjudicate`] hands them
//! to the shared adjudicators ([`super::retreat`], [`super::adjust`]) unless an engine
//! overrides it (an outside adjudicator may answer every phase itself).

use std::any::Any;
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::model::board::{Dislodged, Phase, PhaseKind, Unit};
use crate::model::map::{Map, PowerId, ProvinceId};
use crate::model::rules::Rules;
use crate::model::scenario::{OrderEntry, Scenario};

use super::adjust::adjudicate_adjustments;
use super::departure::Departure;
use super::legality::Prepared;
use super::outcome::PhaseResult;
use super::retreat::adjudicate_retreats;

/// One phase, as every engine takes it: the map, the phase, the units, the scenario's own order
/// entries, the rules, and what retreat and adjustment phases also need.
#[derive(Clone, Debug)]
pub struct PhaseInput<'a> {
    /// The map.
    pub map: &'a Map,
    /// The phase (its kind decides what is adjudicated).
    pub phase: Phase,
    /// The units on the board (for a retreat phase: the units that were not dislodged).
    pub units: &'a [Unit],
    /// The orders, as the scenario holds them.
    pub orders: &'a [OrderEntry],
    /// The rules.
    pub rules: &'a Rules,
    /// Retreat phases: the dislodged units, with where their attackers came from.
    pub dislodged: &'a [Dislodged],
    /// Retreat phases: the provinces a standoff left empty.
    pub contested: &'a [ProvinceId],
    /// Adjustment phases: the owner of each supply centre, by province.
    pub owners: Cow<'a, [Option<PowerId>]>,
    /// The caller's cancel flag for this request, if it has one: set from another thread, the
    /// phase ends with an error as soon as the engine can (an outside adjudicator's process is
    /// stopped); unlike [`Engine::interrupt`], later requests run as usual. It belongs to this
    /// request alone, so a flag set before the phase begins is never lost and a newer request on
    /// the same engine is never touched. The TUI sets it when the user cancels an adjudication,
    /// or a newer one supersedes it. Engines that finish a phase in milliseconds may ignore it.
    pub cancel: Option<&'a AtomicBool>,
}

impl<'a> PhaseInput<'a> {
    /// A scenario's own phase under `rules`.
    pub fn of(s: &'a Scenario, rules: &'a Rules) -> PhaseInput<'a> {
        let owners = match s.phase.kind {
            PhaseKind::Adjustment => Cow::Owned(s.owners_or_home()),
            PhaseKind::Movement | PhaseKind::Retreat => Cow::Borrowed(&[][..]),
        };
        PhaseInput {
            map: &s.map,
            phase: s.phase,
            units: &s.units,
            orders: &s.orders,
            rules,
            dislodged: &s.dislodged,
            contested: &s.contested,
            owners,
            cancel: None,
        }
    }
}

/// Why an engine gave no result (an outside adjudicator that crashed, hung or answered
/// nonsense; the built-in engines always answer).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("engine {engine}: {message}")]
pub struct EngineError {
    /// The engine's name.
    pub engine: String,
    /// What went wrong, naming the phase.
    pub message: String,
}

/// An adjudication engine. The built-in ones are listed in [`super::registry::Registry`]; more
/// can be registered at run time.
pub trait Engine: Send + Sync + 'static {
    /// The name used on the command line (`--engine dpjudge`): lower case, no spaces for the
    /// built-in engines; an outside adjudicator's is its `cmd:PROGRAM ARGS` or its configured
    /// name ([`super::outside`]).
    fn name(&self) -> &str;

    /// A longer description: `the DPjudge procedure (steps 1–10)`.
    fn title(&self) -> &str;

    /// Adjudicates a movement phase; `trace` records the engine's own events.
    fn movement(&self, input: &PhaseInput<'_>, trace: bool) -> Result<Adjudication, EngineError>;

    /// Adjudicates any phase: movement phases with [`Engine::movement`], retreats and
    /// adjustments with the shared, engine-independent adjudicators.
    fn adjudicate(&self, input: &PhaseInput<'_>, trace: bool) -> Result<Adjudication, EngineError> {
        match input.phase.kind {
            PhaseKind::Movement => self.movement(input, trace),
            PhaseKind::Retreat => Ok(Adjudication::plain(
                self.name(),
                adjudicate_retreats(
                    input.map,
                    input.units,
                    input.dislodged,
                    input.contested,
                    input.orders,
                    input.rules,
                ),
            )),
            PhaseKind::Adjustment => Ok(Adjudication::plain(
                self.name(),
                adjudicate_adjustments(
                    input.map,
                    input.units,
                    &input.owners,
                    input.orders,
                    input.rules,
                ),
            )),
        }
    }

    /// A movement phase's result alone, for the paths that compare results rather than show
    /// them (`check`, `versus`, `replay`): no detail, and each outcome's words
    /// ([`super::OrderOutcome::reason`]) may be left empty — its `cause` still says why. The
    /// default is [`Engine::movement`]'s phase; an engine that can do it for less (the decision
    /// engine: no words, no graph) overrides it.
    fn movement_verdicts(&self, input: &PhaseInput<'_>) -> Result<PhaseResult, EngineError> {
        self.movement(input, false).map(|a| a.phase)
    }

    /// How a change of the rule option `field` can reach this engine's results: what `versus`
    /// and `replay` run again when they look for the options that explain a disagreement. The
    /// default, [`OptionUse::Direct`], claims nothing; an engine that claims less is held to it
    /// by a property test over random positions (`tests/it/engines.rs`).
    fn option_use(&self, _field: &str) -> OptionUse {
        OptionUse::Direct
    }

    /// Asks the engine, from any thread, to stop as soon as it can: the phase in progress and
    /// every later one end with an error that says so. A program run outside (an outside
    /// adjudicator) is killed at once, with everything it started; the built-in engines, which
    /// finish a phase in milliseconds, do nothing (the default). `ctrl-c` and SIGTERM call it in
    /// `versus`, so that a hanging adjudicator does not keep the run waiting.
    fn interrupt(&self) {}

    /// The engine's documented departures from the DATC, as data: the cases each shows in and
    /// the rule change a bench knows it by (`versus` names a class that is one of them). The
    /// default is none.
    fn departures(&self) -> Vec<Departure> {
        Vec::new()
    }

    /// The value of the rule option `field` the engine always follows, whatever the run's
    /// rules say, when it declares one (an outside program with one rule where the DATC has
    /// options: `missing_nationality` → `Valid` for a program whose orders carry no
    /// nationality). `versus` and `replay` then never explain a disagreement by another value
    /// of it on this engine's side, and never run the engine under a change of it. The default
    /// declares none.
    fn follows(&self, _field: &str) -> Option<&str> {
        None
    }

    /// Any phase's result alone ([`Engine::movement_verdicts`] for movement phases; retreats and
    /// adjustments as [`Engine::adjudicate`] gives them).
    fn verdicts(&self, input: &PhaseInput<'_>) -> Result<PhaseResult, EngineError> {
        match input.phase.kind {
            PhaseKind::Movement => self.movement_verdicts(input),
            PhaseKind::Retreat | PhaseKind::Adjustment => {
                self.adjudicate(input, false).map(|a| a.phase)
            }
        }
    }
}

/// How a rule option reaches an engine's results ([`Engine::option_use`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionUse {
    /// The engine may read it anywhere: a change of it may change any result.
    Direct,
    /// Only through the legality step's classing of the orders
    /// ([`crate::engine::legality::prepare`]): a change that classes the orders alike changes
    /// nothing.
    Classing,
    /// Never: no change of it changes the engine's results.
    Never,
}

impl fmt::Debug for dyn Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Engine({})", self.name())
    }
}

/// What a result can show beyond its outcomes: the panels a front end may offer for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shows {
    /// The decision graph with its values (the decision engine).
    pub decisions: bool,
    /// The procedure's state: marks, counts and lists (the DPjudge procedure).
    pub procedure: bool,
    /// A trace of the engine's own events, which [`Adjudication::steps`] steps through.
    pub trace: bool,
}

/// What an engine found beyond the phase result: its own data (the decision graph, the
/// procedure's marks, …) and its trace. Each engine's result type implements it; callers that
/// know the engine downcast with [`Adjudication::detail`].
pub trait Detail: Any + fmt::Debug + Send + Sync {
    /// Itself, for downcasting.
    fn as_any(&self) -> &dyn Any;

    /// What it can show.
    fn shows(&self) -> Shows;

    /// A cursor at the start of its trace; None when it was made without one. `input` is the
    /// phase it was made from.
    fn steps(&self, input: &PhaseInput<'_>) -> Option<Box<dyn Steps>>;

    /// The orders as the engine classed them (which submitted order applies to which unit), if
    /// it classes them.
    fn prepared(&self) -> Option<&Prepared> {
        None
    }
}

/// A cursor over an engine's trace, whatever the engine: forward, back and seek are exact. The
/// generic [`super::cursor::Cursor`] implements it for every engine's trace state; front ends
/// that know the engine downcast it for the engine's own view of the state.
pub trait Steps: Any + fmt::Debug + Send {
    /// The number of events.
    fn len(&self) -> usize;
    /// Whether there is no event.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// How many events are applied: 0 (the start) to `len()` (the end).
    fn cursor(&self) -> usize;
    /// Applies the next event; false (and no change) at the end.
    fn forward(&mut self) -> bool;
    /// Undoes the last applied event exactly; false (and no change) at the start.
    fn back(&mut self) -> bool;
    /// Moves the cursor to `k` (clamped to `len()`).
    fn seek(&mut self, k: usize);
    /// Event `i` in one line (empty beyond the end), with the phase it was made from.
    fn describe(&self, input: &PhaseInput<'_>, i: usize) -> String;
    /// The engine's state as of the cursor in one line (empty when the engine tells none), for
    /// a front end that draws any engine's trace.
    fn summary(&self, input: &PhaseInput<'_>) -> String {
        let _ = input;
        String::new()
    }
    /// How event `i` stands out: whether stepping skips it, whether it is a landmark the
    /// cycle keys jump to, and its tone ([`Mark::default`] beyond the end).
    fn mark(&self, i: usize) -> Mark {
        let _ = i;
        Mark::default()
    }
    /// The units event `i` is about (its order's unit, a cycle's units, the fleets a rule
    /// cancelled), for a front end to highlight; empty when it names none or is beyond the end.
    fn units(&self, i: usize) -> Vec<usize> {
        let _ = i;
        Vec::new()
    }
    /// The engine's state as of the cursor, in named sections (what is settled, guessed, on the
    /// stack or in the cycle; the procedure's lists and counts), for a front end to draw beside
    /// the trace. By default one section with [`Steps::summary`], when it says anything.
    fn sections(&self, input: &PhaseInput<'_>) -> Vec<Section> {
        Section::of_summary(self.summary(input))
    }
    /// Itself, for downcasting.
    fn as_any(&self) -> &dyn Any;
    /// Itself, for downcasting.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// How one event of a trace stands out, for a front end that draws any engine's trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mark {
    /// Bookkeeping that stepping passes over (the decision engine's visits; still listed
    /// nowhere, still applied by the cursor).
    pub minor: bool,
    /// A landmark the "next / previous cycle" keys jump to.
    pub landmark: Option<Landmark>,
    /// What kind of news the event is.
    pub tone: Tone,
}

/// The landmarks of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landmark {
    /// A cycle was found (or met again).
    Cycle,
    /// A backup rule decided (Szykman, circular movement, All Hold, …).
    Backup,
    /// A step of a procedure begins (the DPjudge procedure's steps).
    Step,
}

/// What kind of news an event is, for its colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tone {
    /// Nothing decided (a visit, a start, a step begun).
    #[default]
    Plain,
    /// Something narrowed but not yet decided.
    Open,
    /// Something decided for good.
    Settled,
    /// A cycle.
    Cycle,
    /// A backup rule or what it forced.
    Forced,
}

/// A named part of an engine's state as of the cursor: its title and lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Section {
    /// What the lines are ("stack", "cycle", "orders").
    pub title: String,
    /// One line each, whole (a front end wraps them).
    pub lines: Vec<String>,
}

impl Section {
    /// A section of `lines` titled `title`.
    pub fn new(title: &str, lines: Vec<String>) -> Section {
        Section {
            title: title.to_string(),
            lines,
        }
    }

    /// The sections of an engine that tells its state in one line: that line as "state", or
    /// none when it is empty.
    pub fn of_summary(summary: String) -> Vec<Section> {
        if summary.is_empty() {
            Vec::new()
        } else {
            vec![Section::new("state", vec![summary])]
        }
    }
}

/// One engine's result for one phase: the phase result (outcomes, final units, dislodged units,
/// standoffs) and, for engines that have any, their own detail.
#[derive(Clone, Debug)]
pub struct Adjudication {
    /// The name of the engine that made it.
    pub engine: String,
    /// Outcomes, final units, dislodged units, standoffs.
    pub phase: PhaseResult,
    /// The engine's own data and trace, if any.
    pub detail: Option<Arc<dyn Detail>>,
}

impl Adjudication {
    /// A result with no detail (retreats, adjustments, engines that keep nothing else).
    pub fn plain(engine: &str, phase: PhaseResult) -> Adjudication {
        Adjudication {
            engine: engine.to_string(),
            phase,
            detail: None,
        }
    }

    /// A result with the engine's detail.
    pub fn with_detail(engine: &str, phase: PhaseResult, detail: Arc<dyn Detail>) -> Adjudication {
        Adjudication {
            engine: engine.to_string(),
            phase,
            detail: Some(detail),
        }
    }

    /// The engine's own result, if it is of type `T`.
    pub fn detail<T: Detail>(&self) -> Option<&T> {
        self.detail.as_deref()?.as_any().downcast_ref::<T>()
    }

    /// What the result can show beyond its outcomes.
    pub fn shows(&self) -> Shows {
        self.detail
            .as_deref()
            .map(|d| d.shows())
            .unwrap_or_default()
    }

    /// A cursor at the start of the engine's trace; None without one.
    pub fn steps(&self, input: &PhaseInput<'_>) -> Option<Box<dyn Steps>> {
        self.detail.as_deref()?.steps(input)
    }

    /// The orders as the engine classed them, if it classes them.
    pub fn prepared(&self) -> Option<&Prepared> {
        self.detail.as_deref()?.prepared()
    }
}
