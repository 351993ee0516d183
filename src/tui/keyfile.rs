//! The keymap file's format, read for the bundled default keys and for a user's `keys.ron`
//! alike: a RON map whose entries are either
//!
//! - `"action": ["key", …]`: the action's keys in every context where it is bound, or
//! - `"context": { "action": ["key", …] | (keys: ["key", …], help: "…", hint: "…"), … }`: its
//!   keys (and optionally its help text and status-bar word) in one context.
//!
//! Every error is located at the name or key it is about (line and column of the first
//! character inside the quotes).

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::action::Action;
use super::key::{Context, Key, KeymapError};

/// One entry of a keymap file, with where its keys are written (byte offsets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// An action's keys in every context where it is bound.
    All {
        /// The action.
        action: Action,
        /// Its keys.
        keys: Vec<Key>,
        /// Where each key is written.
        key_at: Vec<usize>,
    },
    /// An action's binding in one context.
    In {
        /// The context.
        context: Context,
        /// The action.
        action: Action,
        /// Its keys there.
        keys: Vec<Key>,
        /// Where each key is written.
        key_at: Vec<usize>,
        /// The help text there, when given.
        help: Option<String>,
        /// The status-bar word there, when given.
        hint: Option<String>,
    },
}

impl Entry {
    /// The action it binds.
    pub fn action(&self) -> Action {
        match self {
            Entry::All { action, .. } | Entry::In { action, .. } => *action,
        }
    }

    /// The keys it gives.
    pub fn keys(&self) -> &[Key] {
        match self {
            Entry::All { keys, .. } | Entry::In { keys, .. } => keys,
        }
    }

    /// Where each key is written.
    pub fn key_at(&self) -> &[usize] {
        match self {
            Entry::All { key_at, .. } | Entry::In { key_at, .. } => key_at,
        }
    }
}

/// A RON value as far as a keymap file needs it.
enum Raw {
    Str(String),
    List(Vec<Raw>),
    Map(Vec<(String, Raw)>),
    /// Anything else, by what it is.
    Other(&'static str),
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Raw;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string, a list or a map")
            }
            fn visit_str<E>(self, s: &str) -> Result<Raw, E> {
                Ok(Raw::Str(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Raw, E> {
                Ok(Raw::Str(s))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Raw, E> {
                Ok(Raw::Other("a boolean"))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Raw, E> {
                Ok(Raw::Other("a number"))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Raw, E> {
                Ok(Raw::Other("a number"))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Raw, E> {
                Ok(Raw::Other("a number"))
            }
            fn visit_char<E>(self, c: char) -> Result<Raw, E> {
                Ok(Raw::Str(c.to_string()))
            }
            fn visit_unit<E>(self) -> Result<Raw, E> {
                Ok(Raw::Other("()"))
            }
            fn visit_none<E>(self) -> Result<Raw, E> {
                Ok(Raw::Other("None"))
            }
            fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Raw, D2::Error> {
                Raw::deserialize(d).map(|_| Raw::Other("Some(…)"))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Raw, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = a.next_element()? {
                    v.push(x);
                }
                Ok(Raw::List(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Raw, A::Error> {
                let mut v = Vec::new();
                while let Some((k, x)) = a.next_entry::<String, Raw>()? {
                    v.push((k, x));
                }
                Ok(Raw::Map(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// The top level: a map, read in file order.
struct TopLevel(Vec<(String, Raw)>);

impl<'de> Deserialize<'de> for TopLevel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TopLevel;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map like { \"action\": [\"key\", …] }")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<TopLevel, A::Error> {
                let mut v = Vec::new();
                while let Some((k, x)) = a.next_entry::<String, Raw>()? {
                    v.push((k, x));
                }
                Ok(TopLevel(v))
            }
        }
        d.deserialize_map(V)
    }
}

/// An error at byte `offset` of `text` (the opening quote of a name or key: the position named
/// is the first character inside it).
pub fn error_at(text: &str, file: &str, offset: usize, message: String) -> KeymapError {
    let p = dipsandbox_core::base::source::Locator::new(text, file).pos(offset + 1);
    KeymapError {
        file: file.to_string(),
        line: p.line,
        col: p.col,
        message,
    }
}

/// Walks the text in file order to find where names and keys are written.
struct Cursor<'t> {
    text: &'t str,
    at: usize,
}

impl Cursor<'_> {
    /// The next `"name"` followed by `:` (the current place when it is not written verbatim,
    /// e.g. with escapes).
    fn name(&mut self, name: &str) -> usize {
        let quoted = format!("{name:?}");
        let mut from = self.at;
        while let Some(i) = self.text.get(from..).and_then(|rest| rest.find(&quoted)) {
            let end = from + i + quoted.len();
            let after = self.text.get(end..).unwrap_or_default().trim_start();
            if after.starts_with(':') {
                self.at = end;
                return from + i;
            }
            from = end;
        }
        self.at
    }

    /// The next `"s"` (`fallback` when it is not written verbatim).
    fn string(&mut self, s: &str, fallback: usize) -> usize {
        let quoted = format!("{s:?}");
        match self.text.get(self.at..).and_then(|rest| rest.find(&quoted)) {
            Some(i) => {
                let at = self.at + i;
                self.at = at + quoted.len();
                at
            }
            None => fallback,
        }
    }
}

/// Reads a keymap file.
pub fn parse(text: &str, file: &str) -> Result<Vec<Entry>, KeymapError> {
    let top = match ron::from_str::<TopLevel>(text) {
        Ok(m) => m.0,
        Err(e) => {
            let at = dipsandbox_core::model::error::SourcePos::from_ron(file, text, &e);
            return Err(KeymapError {
                file: file.to_string(),
                line: at.line,
                col: at.col,
                message: format!(
                    "{}; expected {{ \"action\": [\"key\", …] }}",
                    dipsandbox_core::model::error::ron_message_in(&e, text)
                ),
            });
        }
    };
    let err = |offset: usize, message: String| error_at(text, file, offset, message);
    let mut cur = Cursor { text, at: 0 };
    let mut out: Vec<Entry> = Vec::new();
    // Names already seen at the top level, and in each context, with where.
    let mut seen: Vec<(String, usize)> = Vec::new();
    for (name, value) in top {
        let name_at = cur.name(&name);
        if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name) {
            let p = dipsandbox_core::base::source::Locator::new(text, file).pos(first + 1);
            let what = if matches!(value, Raw::Map(_)) {
                "context"
            } else {
                "action"
            };
            return Err(err(
                name_at,
                format!(
                    "{what} {name:?} is named a second time (first at line {}, column {}); expected each {what} once",
                    p.line, p.col
                ),
            ));
        }
        seen.push((name.clone(), name_at));
        match value {
            Raw::Map(bindings) => {
                let Some(context) = Context::from_name(&name) else {
                    let names: Vec<&str> = Context::all().map(Context::name).collect();
                    return Err(err(
                        name_at,
                        format!(
                            "unknown context {}; expected one of {} (or an action with a list of keys)",
                            dipsandbox_core::model::error::quoted(&name),
                            names.join(", ")
                        ),
                    ));
                };
                let mut inner: Vec<(String, usize)> = Vec::new();
                for (aname, b) in bindings {
                    let a_at = cur.name(&aname);
                    let action = action_named(&aname).map_err(|m| err(a_at, m))?;
                    if let Some((_, first)) = inner.iter().find(|(n, _)| *n == aname) {
                        let p =
                            dipsandbox_core::base::source::Locator::new(text, file).pos(first + 1);
                        return Err(err(
                            a_at,
                            format!(
                                "action {aname:?} is named a second time in {name:?} (first at line {}, column {}); expected each action once",
                                p.line, p.col
                            ),
                        ));
                    }
                    inner.push((aname.clone(), a_at));
                    let (list, help, hint) = match b {
                        Raw::List(l) => (l, None, None),
                        Raw::Map(fields) => {
                            let (mut list, mut help, mut hint) = (None, None, None);
                            for (field, v) in fields {
                                match (field.as_str(), v) {
                                    ("keys", Raw::List(l)) => list = Some(l),
                                    ("help", Raw::Str(s)) => help = Some(s),
                                    ("hint", Raw::Str(s)) => hint = Some(s),
                                    (f, _) => {
                                        return Err(err(
                                            a_at,
                                            format!(
                                                "{aname:?} in {name:?}: field {} is not one of keys (a list), help (a string), hint (a string)",
                                                dipsandbox_core::model::error::quoted(f)
                                            ),
                                        ));
                                    }
                                }
                            }
                            (list.unwrap_or_default(), help, hint)
                        }
                        other => {
                            return Err(err(
                                a_at,
                                format!(
                                    "{aname:?} in {name:?} is {}; expected [\"key\", …] or (keys: [\"key\", …], help: \"…\", hint: \"…\")",
                                    kind(&other)
                                ),
                            ));
                        }
                    };
                    let (keys, key_at) = read_keys(&mut cur, &aname, a_at, list, &err)?;
                    out.push(Entry::In {
                        context,
                        action,
                        keys,
                        key_at,
                        help,
                        hint,
                    });
                }
            }
            Raw::List(list) => {
                let action = action_named(&name).map_err(|m| err(name_at, m))?;
                let (keys, key_at) = read_keys(&mut cur, &name, name_at, list, &err)?;
                out.push(Entry::All {
                    action,
                    keys,
                    key_at,
                });
            }
            other => {
                return Err(err(
                    name_at,
                    format!(
                        "{name:?} is {}; expected a list of keys (\"action\": [\"key\", …]) or a context's bindings (\"context\": {{ \"action\": [\"key\", …] }})",
                        kind(&other)
                    ),
                ));
            }
        }
    }
    Ok(out)
}

fn kind(r: &Raw) -> &'static str {
    match r {
        Raw::Str(_) => "a string",
        Raw::List(_) => "a list",
        Raw::Map(_) => "a map",
        Raw::Other(k) => k,
    }
}

fn action_named(name: &str) -> Result<Action, String> {
    Action::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Action::all().map(Action::name).collect();
        // The nearest name first, so the status bar shows what to write before it is cut;
        // the help (?) lists every action's name beside its keys. A token of 200,000
        // characters costs nothing (`near` skips names out of reach by length).
        let near = dipsandbox_core::base::near::closest(name, names.iter().copied(), 3)
            .map(|n| format!(" (did you mean {n:?}?)"))
            .unwrap_or_default();
        format!(
            "unknown action {}{near}; the help (?) lists each key's action name; expected one of {}",
            dipsandbox_core::model::error::quoted(name),
            names.join(", ")
        )
    })
}

/// The keys of one entry, each located; a key listed twice is an error.
fn read_keys(
    cur: &mut Cursor,
    name: &str,
    name_at: usize,
    list: Vec<Raw>,
    err: &dyn Fn(usize, String) -> KeymapError,
) -> Result<(Vec<Key>, Vec<usize>), KeymapError> {
    let mut keys: Vec<Key> = Vec::new();
    let mut at = Vec::new();
    for k in list {
        let Raw::Str(k) = k else {
            return Err(err(
                name_at,
                format!("a key of {name:?} is {}; expected a string", kind(&k)),
            ));
        };
        let k_at = cur.string(&k, name_at);
        let key = Key::parse(&k).map_err(|m| err(k_at, m))?;
        if keys.contains(&key) {
            return Err(err(
                k_at,
                format!("key {key} is listed twice for {name:?}; expected each key once"),
            ));
        }
        keys.push(key);
        at.push(k_at);
    }
    Ok((keys, at))
}
