//! The one keymap: it decides what a key does, and feeds the status-bar hints and the help
//! popup, so the three can never disagree.
//!
//! The default keys are data: the bundled [`BUNDLED`] file (`src/tui/keys.ron`, read at compile
//! time and parsed once). Users patch them from `keys.ron` in the config folder, in the same
//! format (read by [`super::keyfile`]): `{ "step_forward": ["n", "right"] }` gives an action
//! exactly those keys in every context where it is bound; `{ "board": { "decisions": ["d"] } }`
//! in one context.

use std::path::Path;

use ratatui::crossterm::event::KeyEvent;

use super::action::Action;
pub use super::key::{Context, Key, KeymapError};
use super::keyfile::{self, Entry};

/// The default keys, in the keymap file's format.
pub const BUNDLED: &str = include_str!("keys.ron");

/// One binding: in a context, these keys do this action; `what` is the help text there and
/// `hint`, when not empty, the word shown in the status bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// Where it applies.
    pub context: Context,
    /// What it does.
    pub action: Action,
    /// The keys (none: unbound there).
    pub keys: Vec<Key>,
    /// Help text in this context.
    pub what: String,
    /// Status-bar word (empty: not shown there).
    pub hint: String,
}

/// All bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keymap {
    bindings: Vec<Binding>,
}

/// The largest `keys.ron` read (one with every action and several keys each is under 4 KB).
pub const MAX_KEYS_BYTES: u64 = 64 * 1024;

/// The bundled keys, parsed once.
static DEFAULT: std::sync::LazyLock<Keymap> = std::sync::LazyLock::new(|| {
    // The bundled file is tested to parse; were it not to, no keys beats a panic.
    let mut km = Keymap::empty();
    if let Ok(entries) = keyfile::parse(BUNDLED, "keys.ron (bundled)") {
        km.apply(&entries);
    }
    km
});

impl Default for Keymap {
    /// The bundled keys ([`BUNDLED`]).
    fn default() -> Self {
        DEFAULT.clone()
    }
}

impl Keymap {
    /// Every binding.
    pub fn bindings(&self) -> &[Binding] {
        &self.bindings
    }

    /// The action a key does, looking in `contexts` in order (the focused panel first).
    pub fn action(&self, contexts: &[Context], key: &KeyEvent) -> Option<Action> {
        let k = Key::of(key);
        contexts.iter().find_map(|ctx| {
            self.bindings
                .iter()
                .find(|b| b.context == *ctx && b.keys.contains(&k))
                .map(|b| b.action)
        })
    }

    /// The bindings that apply in `contexts`, a key shadowed by an earlier context left out.
    pub fn active(&self, contexts: &[Context]) -> Vec<(Context, Vec<Key>, &Binding)> {
        let mut out: Vec<(Context, Vec<Key>, &Binding)> = Vec::new();
        let mut seen: Vec<Key> = Vec::new();
        for ctx in contexts {
            for b in self.bindings.iter().filter(|b| b.context == *ctx) {
                let keys: Vec<Key> = b
                    .keys
                    .iter()
                    .copied()
                    .filter(|k| !seen.contains(k))
                    .collect();
                if !keys.is_empty() {
                    out.push((*ctx, keys, b));
                }
            }
            for b in self.bindings.iter().filter(|b| b.context == *ctx) {
                seen.extend(b.keys.iter().copied());
            }
        }
        out
    }

    /// Status-bar hints for `contexts`: `(keys, word)`.
    pub fn hints(&self, contexts: &[Context]) -> Vec<(String, &str)> {
        self.active(contexts)
            .into_iter()
            .filter(|(_, _, b)| !b.hint.is_empty())
            .filter_map(|(_, keys, b)| Some((keys.first()?.to_string(), b.hint.as_str())))
            .collect()
    }

    /// The first key bound to an action anywhere, for messages ("press o to open").
    pub fn key_for(&self, action: Action) -> Option<Key> {
        self.bindings
            .iter()
            .find(|b| b.action == action)
            .and_then(|b| b.keys.first().copied())
    }

    /// A keymap without a binding.
    pub fn empty() -> Keymap {
        Keymap {
            bindings: Vec::new(),
        }
    }

    /// Applies a keymap file's entries: an action's keys in every context where it is bound,
    /// or one context's binding (added when the context had none for the action, with the
    /// action's own doc comment as help unless the entry gives one).
    pub fn apply(&mut self, entries: &[Entry]) {
        for e in entries {
            match e {
                Entry::All { action, keys, .. } => {
                    for b in self.bindings.iter_mut().filter(|b| b.action == *action) {
                        b.keys = keys.clone();
                    }
                }
                Entry::In {
                    context,
                    action,
                    keys,
                    help,
                    hint,
                    ..
                } => {
                    let at = self
                        .bindings
                        .iter()
                        .position(|b| b.context == *context && b.action == *action);
                    let b = match at.and_then(|i| self.bindings.get_mut(i)) {
                        Some(b) => b,
                        None => {
                            self.bindings.push(Binding {
                                context: *context,
                                action: *action,
                                keys: Vec::new(),
                                what: action.help().to_string(),
                                hint: String::new(),
                            });
                            let Some(b) = self.bindings.last_mut() else {
                                continue;
                            };
                            b
                        }
                    };
                    b.keys = keys.clone();
                    if let Some(h) = help {
                        b.what = h.clone();
                    }
                    if let Some(h) = hint {
                        b.hint = h.clone();
                    }
                }
            }
        }
    }

    /// Reads a patch (the format of [`BUNDLED`]) and checks it against the default keys: a key
    /// given to an action must not do another action in the same context, or only one of the
    /// two would ever happen.
    pub fn parse_patch(text: &str, file: &str) -> Result<Vec<Entry>, KeymapError> {
        let entries = keyfile::parse(text, file)?;
        let mut km = Keymap::default();
        km.apply(&entries);
        for e in &entries {
            let (action, keys, key_at) = (e.action(), e.keys(), e.key_at());
            for (key, at) in keys.iter().zip(key_at) {
                let clash = km.bindings.iter().find(|b| {
                    b.action != action
                        && b.keys.contains(key)
                        && match e {
                            Entry::All { .. } => km
                                .bindings
                                .iter()
                                .any(|o| o.action == action && o.context == b.context),
                            Entry::In { context, .. } => b.context == *context,
                        }
                });
                // A panel's own binding hides a key the whole app has: where the panel has the
                // focus the key does one thing, everywhere else another.
                let hidden = match e {
                    Entry::In { context, .. } if context.is_panel() => km
                        .bindings
                        .iter()
                        .find(|b| {
                            b.context == Context::Global
                                && b.action != action
                                && b.keys.contains(key)
                        })
                        .filter(|_| clash.is_none()),
                    _ => None,
                };
                if let (Some(b), Entry::In { context, .. }) = (hidden, e) {
                    return Err(keyfile::error_at(
                        text,
                        file,
                        *at,
                        format!(
                            "key {key} of {:?} in the {} panel already does {:?} everywhere else; expected a key that does one thing (or give {:?} other keys too)",
                            action.name(),
                            context.title(),
                            b.action.name(),
                            b.action.name()
                        ),
                    ));
                }
                if let Some(b) = clash {
                    return Err(keyfile::error_at(
                        text,
                        file,
                        *at,
                        format!(
                            "key {key} of {:?} already does {:?} in the {} panel; expected a key that does nothing else there (or give {:?} other keys too)",
                            action.name(),
                            b.action.name(),
                            b.context.title(),
                            b.action.name()
                        ),
                    ));
                }
            }
        }
        Ok(entries)
    }

    /// The default keymap patched from `keys.ron` in `dir`, if there is one. A bad file leaves
    /// the defaults and returns the error to show.
    pub fn load(dir: Option<&Path>) -> (Keymap, Option<String>) {
        let mut km = Keymap::default();
        let Some(dir) = dir else {
            return (km, None);
        };
        let path = dir.join("keys.ron");
        if std::fs::symlink_metadata(&path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
        {
            return (km, None);
        }
        // A FIFO or a device is refused before it is opened, and a large file before it is read.
        let text = match dipsandbox_core::base::source::read_text_limited(&path, MAX_KEYS_BYTES) {
            Ok(t) => t,
            Err(e) => return (km, Some(format!("{e} (default keys in use)"))),
        };
        match Keymap::parse_patch(&text, &path.display().to_string()) {
            Ok(p) => {
                km.apply(&p);
                (km, None)
            }
            Err(e) => (km, Some(format!("{e} (default keys in use)"))),
        }
    }
}
