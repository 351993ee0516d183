//! An outside program as an engine on the seam: [`OutsideEngine`]. Every phase (movement,
//! retreat and adjustment) goes to the program; its answer is checked against the phase and
//! turned into the same [`PhaseResult`](crate::engine::outcome::PhaseResult) the built-in
//! engines give.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::base::text::cut;
use crate::engine::departure::{Departure, followed};
use crate::engine::seam::{Adjudication, Engine, EngineError, OptionUse, PhaseInput};

use super::process::{self, Failure, INTERRUPTED, Live, Mode, Program};
use super::protocol::{Answer, answer_to_result, request};

/// How long one phase may take unless the configuration says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// What `--engine` accepts for a command: `cmd:PROGRAM ARGS` (line mode) and
/// `cmd-once:PROGRAM ARGS` (one process per phase).
pub const CMD_PREFIXES: [(&str, Mode); 2] = [("cmd:", Mode::Lines), ("cmd-once:", Mode::Once)];

/// The running process and the request count, behind the engine's lock.
#[derive(Default)]
struct State {
    live: Option<Live>,
    next_id: u64,
    started: u64,
}

/// An outside adjudicator: a program that reads each phase as JSON on its standard input and
/// writes its verdicts on its standard output (the protocol of [`super::protocol`]).
pub struct OutsideEngine {
    name: String,
    title: String,
    program: Program,
    state: Mutex<State>,
    /// Set by [`Engine::interrupt`]: every wait ends, and every later phase fails. (One
    /// request alone is cancelled by its own flag, [`PhaseInput::cancel`].)
    stop: AtomicBool,
    /// Its known departures (from the file its `engines.ron` entry names).
    departures: Vec<Departure>,
    /// The option values they declare it always follows (`field`, `Value`).
    followed: Vec<(String, String)>,
    /// Whether the program reads the request's rules at all (`engines.ron`'s `reads_rules`).
    reads_rules: bool,
}

impl std::fmt::Debug for OutsideEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutsideEngine")
            .field("name", &self.name)
            .field("program", &self.program)
            .finish()
    }
}

/// A command line that cannot be split into words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CommandError(pub String);

/// Splits a command line into words as a shell would, without running one: white space
/// separates words; `'…'` keeps everything literally; `"…"` keeps everything but `\"` and `\\`;
/// a backslash outside quotes keeps the next character.
///
/// ```
/// use dipsandbox_core::engine::outside::engine::split_words;
/// assert_eq!(
///     split_words(r#"python3 'my adapter.py' --rules "a b" x\ y"#).unwrap(),
///     ["python3", "my adapter.py", "--rules", "a b", "x y"]
/// );
/// ```
pub fn split_words(s: &str) -> Result<Vec<String>, CommandError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(CommandError("a ' quote is not closed".into())),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(CommandError("a \" quote is not closed".into())),
                        },
                        Some(c) => word.push(c),
                        None => return Err(CommandError("a \" quote is not closed".into())),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(CommandError("a backslash ends the command".into())),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

impl OutsideEngine {
    /// An engine named `name` that runs `program`.
    pub fn new(name: &str, program: Program) -> OutsideEngine {
        let mode = match program.mode {
            Mode::Lines => "line-delimited",
            Mode::Once => "one-shot",
        };
        OutsideEngine {
            title: format!("the outside program {} ({mode})", cut(&program.program)),
            name: name.to_string(),
            program,
            state: Mutex::new(State::default()),
            stop: AtomicBool::new(false),
            departures: Vec::new(),
            followed: Vec::new(),
            reads_rules: true,
        }
    }

    /// The same engine, declared to read (`true`, the default) or to ignore the rules a request
    /// carries: a program with one rule set of its own. `versus` and `replay` then never run it
    /// again under another rule option ([`Engine::option_use`] is `Never` for every option).
    pub fn with_reads_rules(mut self, reads: bool) -> OutsideEngine {
        self.reads_rules = reads;
        self
    }

    /// The same engine, declaring `departures` as its known ones ([`Engine::departures`]).
    pub fn with_departures(mut self, departures: Vec<Departure>) -> OutsideEngine {
        self.followed = followed(&departures);
        self.departures = departures;
        self
    }

    /// Reads `cmd:PROGRAM ARGS` or `cmd-once:PROGRAM ARGS` (see [`split_words`]); None when
    /// `spec` starts with neither. The engine's name is `spec` itself.
    pub fn from_spec(spec: &str) -> Option<Result<OutsideEngine, CommandError>> {
        let (rest, mode) = CMD_PREFIXES
            .iter()
            .find_map(|(p, m)| Some((spec.strip_prefix(p)?, *m)))?;
        Some(split_words(rest).and_then(|words| {
            let mut words = words.into_iter();
            let program = words.next().ok_or_else(|| {
                CommandError(format!(
                    "{} names no program: give `cmd:PROGRAM ARGS`",
                    cut(spec)
                ))
            })?;
            Ok(OutsideEngine::new(
                spec,
                Program {
                    program,
                    args: words.collect(),
                    mode,
                    timeout: DEFAULT_TIMEOUT,
                },
            ))
        }))
    }

    /// The program it runs.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// How many processes it has started so far (line mode keeps one alive over many phases).
    pub fn processes_started(&self) -> u64 {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).started
    }

    /// Ends the running process, if any (the next phase starts a new one).
    pub fn stop(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).live = None;
    }

    /// The engine as error messages name it: its name, and the program when the name does
    /// not show it.
    fn label(&self) -> String {
        if CMD_PREFIXES.iter().any(|(p, _)| self.name.starts_with(p)) {
            self.name.clone()
        } else {
            format!("{} ({})", self.name, cut(&self.program.program))
        }
    }

    fn ask(&self, input: &PhaseInput<'_>) -> Result<Adjudication, String> {
        if input
            .units
            .iter()
            .chain(input.dislodged.iter().map(|d| &d.unit))
            .any(|u| u.power.is_neutral())
        {
            return Err(format!(
                "the position has neutral units, which protocol {} cannot send; adjudicate it with a built-in engine",
                super::protocol::PROTOCOL
            ));
        }
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.next_id += 1;
        let id = st.next_id;
        let req = request(input, id);
        let line = serde_json::to_vec(&req).map_err(|e| format!("the request: {e}"))?;
        let failed = |f: Failure| match f {
            Failure::Ended(m) | Failure::Other(m) => m,
            Failure::Interrupted => INTERRUPTED.to_string(),
        };
        // Interrupted, or this request cancelled before its phase began: no process.
        let stop = process::Stop {
            own: &self.stop,
            request: input.cancel,
        };
        if stop.now() {
            return Err(INTERRUPTED.into());
        }
        let text = match self.program.mode {
            Mode::Once => {
                st.started += 1;
                process::once(&self.program, &line, &stop).map_err(failed)?
            }
            Mode::Lines => {
                // A program that answered and then ended (or ends now, before reading this
                // request) is started again, once, for this phase: the documented way for a
                // program to answer one phase and exit.
                let mut tries = 0;
                loop {
                    tries += 1;
                    if st.live.as_mut().is_some_and(|l| l.ended()) {
                        st.live = None;
                    }
                    if st.live.is_none() {
                        st.started += 1;
                        st.live = Some(Live::start(&self.program)?);
                    }
                    let live = st
                        .live
                        .as_mut()
                        .ok_or_else(|| "the process could not be started".to_string())?;
                    let answered_before = live.answered > 0;
                    match live.exchange(&line, self.program.timeout, &stop) {
                        Ok(t) => break t,
                        Err(Failure::Ended(_)) if answered_before && tries == 1 => {
                            st.live = None;
                        }
                        Err(e) => {
                            st.live = None;
                            return Err(failed(e));
                        }
                    }
                }
            }
        };
        let answer: Answer = match serde_json::from_str(&text) {
            Ok(a) => a,
            Err(e) => {
                // A line that is not an answer leaves the conversation out of step.
                st.live = None;
                return Err(format!(
                    "its answer is not protocol JSON ({e}): {}",
                    cut(text.trim())
                ));
            }
        };
        if answer.id != id {
            // An answer to another request: the conversation is out of step.
            st.live = None;
        }
        drop(st);
        let phase = answer_to_result(input, id, answer)?;
        Ok(Adjudication::plain(&self.name, phase))
    }
}

impl Engine for OutsideEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn interrupt(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    fn departures(&self) -> Vec<Departure> {
        self.departures.clone()
    }

    fn follows(&self, field: &str) -> Option<&str> {
        self.followed
            .iter()
            .find(|(f, _)| f == field)
            .map(|(_, v)| v.as_str())
    }

    fn option_use(&self, field: &str) -> OptionUse {
        // An option it declares it always follows one way, or any option of a program that
        // reads no rules, never changes its results.
        if !self.reads_rules || self.follows(field).is_some() {
            OptionUse::Never
        } else {
            OptionUse::Direct
        }
    }

    fn title(&self) -> &str {
        &self.title
    }

    fn movement(&self, input: &PhaseInput<'_>, trace: bool) -> Result<Adjudication, EngineError> {
        self.adjudicate(input, trace)
    }

    fn adjudicate(
        &self,
        input: &PhaseInput<'_>,
        _trace: bool,
    ) -> Result<Adjudication, EngineError> {
        self.ask(input).map_err(|message| EngineError {
            engine: self.label(),
            message: format!("{}: {message}", input.phase),
        })
    }
}
