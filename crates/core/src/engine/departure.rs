//! An engine's documented departures from the DATC, as data ([`Departure`]): what each is
//! called, the DATC cases it shows in, and how a bench that compares two engines knows it when
//! it meets it ([`KnownBy`]). Every engine declares its own ([`super::Engine::departures`]); an
//! outside adjudicator's come from a file its `engines.ron` entry names
//! ([`parse_departures`]).
//!
//! A departure is known by a single rule change: either the engine itself follows the DATC
//! under it (an option that undoes the departure), or the DATC's engine gives this engine's
//! results under it (the departure is a rule variant). `versus` explains each cause of a
//! disagreement by the single changes that make the two engines agree on every position of its
//! class; a class whose explanation is a departure's change is that departure ([`known`]).

use serde::{Deserialize, Serialize};

use crate::base::position::{SourcePos, ron_message_in};
use crate::base::source::Locator;
use crate::base::text::{first_unprintable, quoted};
use crate::model::rules::Rules;

/// How a departure is known when a bench meets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KnownBy {
    /// The engine itself gives the DATC's results under this single rule change
    /// (`field=Value`): an option that undoes the departure (`dpjudge_swap_victim=SwapCount`).
    OwnChange(String),
    /// The DATC's engine gives this engine's results under this single rule change: the
    /// departure is a rule variant (`paradox=Rule1982`).
    OthersChange(String),
    /// No single rule change gives it: documented, but a bench cannot tell it from another
    /// cause that no option explains.
    Unrecognised,
    /// The engine always follows these option values (`field=Value`, comma-separated), whatever
    /// the run's rules: a declaration rather than a departure of its own, which keeps a bench
    /// from explaining a disagreement by another value of them on this engine's side
    /// ([`super::Engine::follows`]). Its cases, if any, are checked as an
    /// [`KnownBy::OthersChange`] of all of them at once.
    Follows(String),
}

/// One documented departure of an engine from the DATC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Departure {
    /// What it is, in a few words: `the DPjudge text's step 6/8`.
    pub name: String,
    /// The DATC cases it shows in, by the names of `scenarios/datc` (`6.E.6`, `6.G.8-Fallback`).
    pub cases: Vec<String>,
    /// The rule changes, on top of a case's own rules, under which it shows (`field=Value`,
    /// comma-separated; empty: under the case's own rules).
    pub under: String,
    /// How a bench knows it.
    pub known_by: KnownBy,
    /// What happens, in a sentence or two.
    pub note: String,
}

impl Departure {
    /// A departure the engine itself undoes under `change`.
    pub fn own(name: &str, cases: &[&str], change: &str, note: &str) -> Departure {
        Departure::new(name, cases, KnownBy::OwnChange(change.into()), note)
    }

    /// A departure the DATC's engine gives under `change`.
    pub fn others(name: &str, cases: &[&str], change: &str, note: &str) -> Departure {
        Departure::new(name, cases, KnownBy::OthersChange(change.into()), note)
    }

    /// A departure no single rule change gives.
    pub fn unrecognised(name: &str, cases: &[&str], note: &str) -> Departure {
        Departure::new(name, cases, KnownBy::Unrecognised, note)
    }

    fn new(name: &str, cases: &[&str], known_by: KnownBy, note: &str) -> Departure {
        Departure {
            name: name.into(),
            cases: cases.iter().map(|c| c.to_string()).collect(),
            under: String::new(),
            known_by,
            note: note.into(),
        }
    }

    /// The same, showing only under the rule changes `under` (`dpjudge_own_victim=AsWritten`).
    pub fn under(mut self, under: &str) -> Departure {
        self.under = under.into();
        self
    }

    /// `the DPjudge text's step 6/8 (DATC 6.E.6)`: the name and its cases, in one line.
    pub fn title(&self) -> String {
        let n = self.cases.len();
        let first =
            |k: usize| -> Vec<&str> { self.cases.iter().take(k).map(String::as_str).collect() };
        match n {
            0 => self.name.clone(),
            1..=3 => format!("{} (DATC {})", self.name, first(3).join(", ")),
            _ => format!("{} (DATC {}, … {n} cases)", self.name, first(2).join(", ")),
        }
    }
}

/// A departure met in a disagreement: whose, which, and on which engine its change was run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Known {
    /// The engine that declares it.
    pub engine: String,
    /// Its title ([`Departure::title`]).
    pub title: String,
    /// Its change, as the explanation has it (`paradox=Rule1982`).
    pub change: String,
    /// Whether the change is run on engine A (the explanation is one of A's, "B = A under …")
    /// or on B.
    pub on_a: bool,
}

impl Known {
    /// `dpjudge's known departure: the DPjudge text's step 6/8 (DATC 6.E.6)`.
    pub fn words(&self) -> String {
        format!("{}'s known departure: {}", self.engine, self.title)
    }
}

/// The departures of engine A (`a`: its name and list) and B that an explanation found under
/// `rules` is. An [`KnownBy::OwnChange`] of A's is met when A under it gives B's results (it
/// is in `b_as_a`), an [`KnownBy::OthersChange`] of A's when B under it gives A's (in
/// `a_as_b`); B's the other way round. A departure that shows only `under` some rule changes is
/// met only when `rules` already have them.
pub fn known(
    a: (&str, &[Departure]),
    b: (&str, &[Departure]),
    rules: &Rules,
    b_as_a: &[String],
    a_as_b: &[String],
) -> Vec<Known> {
    let mut out = Vec::new();
    for (who, list, is_a) in [(a.0, a.1, true), (b.0, b.1, false)] {
        for d in list {
            if apply_changes(rules, &d.under).ok().as_ref() != Some(rules) {
                continue;
            }
            // A change of the engine's own undoes it on that engine; a change of the DATC's
            // engine makes the other one give this engine's results.
            let (change, on_a) = match &d.known_by {
                KnownBy::OwnChange(c) => (c, is_a),
                KnownBy::OthersChange(c) => (c, !is_a),
                KnownBy::Unrecognised | KnownBy::Follows(_) => continue,
            };
            let list = if on_a { b_as_a } else { a_as_b };
            if list.iter().any(|x| x == change) {
                out.push(Known {
                    engine: who.to_string(),
                    title: d.title(),
                    change: change.clone(),
                    on_a,
                });
            }
        }
    }
    out
}

/// The option values a list of departures declares the engine always follows
/// ([`KnownBy::Follows`]), as `(field, Value)` pairs.
pub fn followed(list: &[Departure]) -> Vec<(String, String)> {
    list.iter()
        .filter_map(|d| match &d.known_by {
            KnownBy::Follows(all) => Some(all),
            _ => None,
        })
        .flat_map(|all| all.split(", "))
        .filter_map(|c| {
            let (f, v) = c.split_once('=')?;
            Some((f.to_string(), v.to_string()))
        })
        .collect()
}

/// `field=Value` as the rules print it (the value's own spelling), or what is wrong with it.
pub fn canonical_change(spec: &str) -> Result<String, String> {
    let Some((field, value)) = spec.split_once('=') else {
        return Err(format!(
            "{}: expected one rule change, field=Value (as --rules takes it)",
            quoted(spec)
        ));
    };
    let (field, value) = (field.trim(), value.trim());
    let mut r = Rules::default();
    r.set(field, value).map_err(|e| e.to_string())?;
    let row = r
        .table()
        .into_iter()
        .find(|row| row.field == field)
        .ok_or_else(|| format!("{}: no such rule option", quoted(field)))?;
    Ok(format!("{field}={}", row.value))
}

/// The rule changes `spec` (`field=Value`, comma-separated) applied to `rules`.
pub fn apply_changes(rules: &Rules, spec: &str) -> Result<Rules, String> {
    let mut r = *rules;
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (f, v) = part.split_once('=').ok_or_else(|| {
            format!(
                "{}: expected field=Value (as --rules takes it)",
                quoted(part)
            )
        })?;
        r.set(f.trim(), v.trim()).map_err(|e| e.to_string())?;
    }
    Ok(r)
}

/// At most this many departures in a file.
pub const MAX_DEPARTURES: usize = 1000;

/// At most this many characters in a departure's name, a case's name or its `under`.
pub const MAX_NAME_CHARS: usize = 200;

/// At most this many characters in a departure's note.
pub const MAX_NOTE_CHARS: usize = 2000;

/// A departures file's entry, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    #[serde(default)]
    cases: Vec<String>,
    #[serde(default)]
    under: Option<String>,
    #[serde(default)]
    follows_datc_under: Option<String>,
    #[serde(default)]
    others_agree_under: Option<String>,
    #[serde(default)]
    follows: Option<String>,
    #[serde(default)]
    note: String,
}

/// What a departures file must look like, for error messages.
pub const FILE_FORMAT: &str = "expected a list of (name: \"…\", cases: [\"6.G.8\", …], \
     others_agree_under: \"field=Value\" or follows_datc_under: \"field=Value\" or follows: \
     \"field=Value, …\", under: \"field=Value\", note: \"…\")";

/// An error in a departures file, located.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{at}: {message}")]
pub struct DepartureError {
    /// Where.
    pub at: SourcePos,
    /// What is wrong, and what was expected.
    pub message: String,
}

/// Reads a departures file (`file` names it in messages): a RON list of entries, each with a
/// `name`, the DATC `cases` it shows in, at most one of `follows_datc_under` (the engine gives
/// the DATC's results under this change), `others_agree_under` (the DATC's engine gives this
/// engine's results under it) and `follows` (option values the engine always follows), the
/// rules it shows `under` and a `note`. Changes are checked as
/// `--rules` checks them and written back in the rules' own spelling; names are one line. The
/// case names are not checked here ([`crate::tools`] knows the DATC cases).
pub fn parse_departures(text: &str, file: &str) -> Result<Vec<Departure>, DepartureError> {
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let entries: Vec<Entry> = options.from_str(text).map_err(|e| DepartureError {
        at: SourcePos::from_ron(file, text, &e),
        message: format!("{}; {FILE_FORMAT}", ron_message_in(&e, text)),
    })?;
    let loc = Locator::new(text, file);
    let at = |name: &str| {
        let quoted_name = format!("\"{name}\"");
        loc.pos(text.find(&quoted_name).unwrap_or(0))
    };
    if entries.len() > MAX_DEPARTURES {
        return Err(DepartureError {
            at: SourcePos::start(file),
            message: format!(
                "{} departures: at most {MAX_DEPARTURES} in a file",
                entries.len()
            ),
        });
    }
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        let fail = |message: String| DepartureError {
            at: at(&e.name),
            message: format!("departure {}: {message}", quoted(&e.name)),
        };
        let words: Vec<(&str, &str, usize)> =
            std::iter::once(("name", e.name.as_str(), MAX_NAME_CHARS))
                .chain(e.cases.iter().map(|c| ("case", c.as_str(), MAX_NAME_CHARS)))
                .chain(
                    e.under
                        .iter()
                        .map(|u| ("under", u.as_str(), MAX_NAME_CHARS)),
                )
                .chain(std::iter::once(("note", e.note.as_str(), MAX_NOTE_CHARS)))
                .collect();
        for (what, w, max) in words {
            if let Some((_, c)) = first_unprintable(w) {
                return Err(fail(format!(
                    "its {what} holds the character {c:?}; expected one line of printable text"
                )));
            }
            if w.chars().count() > max {
                return Err(fail(format!("its {what} is longer than {max} characters")));
            }
        }
        if e.name.trim().is_empty() {
            return Err(fail("the name is empty".into()));
        }
        let known_by = match (&e.follows_datc_under, &e.others_agree_under, &e.follows) {
            (Some(c), None, None) => KnownBy::OwnChange(canonical_change(c).map_err(fail)?),
            (None, Some(c), None) => KnownBy::OthersChange(canonical_change(c).map_err(fail)?),
            (None, None, Some(list)) => {
                let mut all = Vec::new();
                for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    all.push(canonical_change(part).map_err(fail)?);
                }
                if all.is_empty() {
                    return Err(fail(
                        "follows names no option: expected field=Value, …".into(),
                    ));
                }
                KnownBy::Follows(all.join(", "))
            }
            (None, None, None) => KnownBy::Unrecognised,
            _ => {
                return Err(fail(
                    "give one of follows_datc_under, others_agree_under and follows, not two"
                        .into(),
                ));
            }
        };
        let under = match &e.under {
            Some(u) => {
                apply_changes(&Rules::default(), u).map_err(|m| fail(format!("under: {m}")))?;
                u.trim().to_string()
            }
            None => String::new(),
        };
        out.push(Departure {
            name: e.name.trim().to_string(),
            cases: e.cases.iter().map(|c| c.trim().to_string()).collect(),
            under,
            known_by,
            note: e.note.trim().to_string(),
        });
    }
    Ok(out)
}
