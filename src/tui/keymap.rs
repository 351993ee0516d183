//! The one keymap: it decides what a key does, and feeds the status-bar hints and the help
//! popup, so the three can never disagree. Users patch it from `keys.ron` in the config folder.
//!
//! The file maps action names to key lists, e.g.
//! `{ "step_forward": ["n", "right"], "quit": ["q", "ctrl-c"] }`; an action named there gets
//! exactly those keys in every panel where it is bound.

use std::fmt;
use std::path::Path;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Action;
use crate::scenario::OrderedMap;

/// Where a binding applies: everywhere, or in one panel or popup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Context {
    /// Everywhere (unless a popup takes the keys).
    Global,
    /// The board.
    Board,
    /// The orders panel.
    Orders,
    /// The decisions panel of the stepper.
    Decisions,
    /// The dependency tree of the stepper.
    Tree,
    /// The trace panel of the stepper.
    Trace,
    /// The rules panel.
    Rules,
    /// The scenario browser popup (typing filters).
    Browser,
    /// The help popup.
    Help,
    /// A menu popup (typing filters).
    Menu,
    /// The order editor (typing writes the order).
    OrderEditor,
}

impl Context {
    /// The heading used in the help popup.
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Everywhere",
            Context::Board => "Board",
            Context::Orders => "Orders",
            Context::Decisions => "Decisions",
            Context::Tree => "Dependency tree",
            Context::Trace => "Trace",
            Context::Rules => "Rules",
            Context::Browser => "Open a scenario",
            Context::Help => "Help",
            Context::Menu => "Menu",
            Context::OrderEditor => "Order editor",
        }
    }
}

/// A key with its modifiers, as written in the keymap file: `n`, `N`, `ctrl-c`, `enter`,
/// `space`, `pgdn`, `f1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// The key.
    pub code: KeyCode,
    /// Ctrl and Alt (Shift is part of the character for letters and symbols).
    pub mods: KeyModifiers,
}

impl Key {
    const fn plain(code: KeyCode) -> Key {
        Key {
            code,
            mods: KeyModifiers::NONE,
        }
    }

    const fn ch(c: char) -> Key {
        Key::plain(KeyCode::Char(c))
    }

    /// The key of a terminal key event (Shift folded into characters).
    pub fn of(e: &KeyEvent) -> Key {
        let mut mods = e.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
        let code = match e.code {
            KeyCode::BackTab => KeyCode::BackTab,
            KeyCode::Char(c) => KeyCode::Char(c),
            c => {
                if e.modifiers.contains(KeyModifiers::SHIFT) {
                    mods |= KeyModifiers::SHIFT;
                }
                c
            }
        };
        Key { code, mods }
    }

    /// Parses `ctrl-c`, `enter`, `N`, `f5`, `space`.
    pub fn parse(s: &str) -> Result<Key, String> {
        let mut mods = KeyModifiers::NONE;
        let mut rest = s;
        loop {
            let lower = rest.to_ascii_lowercase();
            if let Some(r) = lower.strip_prefix("ctrl-") {
                mods |= KeyModifiers::CONTROL;
                rest = &rest[rest.len() - r.len()..];
            } else if let Some(r) = lower.strip_prefix("alt-") {
                mods |= KeyModifiers::ALT;
                rest = &rest[rest.len() - r.len()..];
            } else if let Some(r) = lower.strip_prefix("shift-") {
                mods |= KeyModifiers::SHIFT;
                rest = &rest[rest.len() - r.len()..];
            } else {
                break;
            }
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => KeyCode::Char(c),
            _ => match rest.to_ascii_lowercase().as_str() {
                "enter" | "return" => KeyCode::Enter,
                "esc" | "escape" => KeyCode::Esc,
                "tab" => KeyCode::Tab,
                "backtab" => KeyCode::BackTab,
                "space" => KeyCode::Char(' '),
                "backspace" => KeyCode::Backspace,
                "up" => KeyCode::Up,
                "down" => KeyCode::Down,
                "left" => KeyCode::Left,
                "right" => KeyCode::Right,
                "home" => KeyCode::Home,
                "end" => KeyCode::End,
                "pgup" | "pageup" => KeyCode::PageUp,
                "pgdn" | "pagedown" => KeyCode::PageDown,
                "delete" | "del" => KeyCode::Delete,
                f if f.starts_with('f') && f[1..].parse::<u8>().is_ok_and(|n| n >= 1) => {
                    KeyCode::F(f[1..].parse().unwrap_or(1))
                }
                _ => {
                    return Err(format!(
                        "unknown key {}; expected a character, ctrl-/alt- plus a key, or one of \
                         enter, esc, tab, backtab, space, backspace, up, down, left, right, home, \
                         end, pgup, pgdn, delete, f1..f12",
                        crate::error::quoted(s)
                    ));
                }
            },
        };
        Ok(Key { code, mods })
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mods.contains(KeyModifiers::CONTROL) {
            f.write_str("ctrl-")?;
        }
        if self.mods.contains(KeyModifiers::ALT) {
            f.write_str("alt-")?;
        }
        if self.mods.contains(KeyModifiers::SHIFT) {
            f.write_str("shift-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Enter => f.write_str("enter"),
            KeyCode::Esc => f.write_str("esc"),
            KeyCode::Tab => f.write_str("tab"),
            KeyCode::BackTab => f.write_str("shift-tab"),
            KeyCode::Backspace => f.write_str("backspace"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::Home => f.write_str("home"),
            KeyCode::End => f.write_str("end"),
            KeyCode::PageUp => f.write_str("pgup"),
            KeyCode::PageDown => f.write_str("pgdn"),
            KeyCode::Delete => f.write_str("delete"),
            KeyCode::F(n) => write!(f, "f{n}"),
            other => write!(f, "{other:?}"),
        }
    }
}

/// One binding: in a context, these keys do this action; `what` is the help text there and
/// `hint`, when not empty, the word shown in the status bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// Where it applies.
    pub context: Context,
    /// What it does.
    pub action: Action,
    /// The keys.
    pub keys: Vec<Key>,
    /// Help text in this context.
    pub what: &'static str,
    /// Status-bar word (empty: not shown there).
    pub hint: &'static str,
}

/// All bindings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keymap {
    bindings: Vec<Binding>,
}

/// The largest `keys.ron` read (one with every action and several keys each is under 4 KB).
pub const MAX_KEYS_BYTES: u64 = 64 * 1024;

/// Byte offsets of the map keys `names` (in file order) in a RON map's text: each is the next
/// `"name"` followed by `:`, after the previous one; the previous offset (or 0) when it is not
/// written verbatim.
fn entry_offsets<'a>(text: &str, names: impl Iterator<Item = &'a str>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut cursor = 0;
    for name in names {
        let quoted = format!("{name:?}");
        let mut from = cursor;
        let found = loop {
            let Some(i) = text.get(from..).and_then(|rest| rest.find(&quoted)) else {
                break None;
            };
            let end = from + i + quoted.len();
            let after = text.get(end..).unwrap_or_default().trim_start();
            if after.starts_with(':') {
                break Some(from + i);
            }
            from = end;
        };
        match found {
            Some(at) => {
                out.push(at);
                cursor = at + quoted.len();
            }
            None => out.push(cursor),
        }
    }
    out
}

/// A keymap file that could not be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{file}:{line}:{col}: {message}")]
pub struct KeymapError {
    /// The file.
    pub file: String,
    /// Line (1-based).
    pub line: usize,
    /// Column (1-based).
    pub col: usize,
    /// What was wrong.
    pub message: String,
}

impl Default for Keymap {
    fn default() -> Self {
        use Action as A;
        use Context as C;
        use KeyCode as K;
        let c = Key::ch;
        let p = Key::plain;
        let ctrl = |ch| Key {
            code: K::Char(ch),
            mods: KeyModifiers::CONTROL,
        };
        let b = |context, action, keys: Vec<Key>, what, hint| Binding {
            context,
            action,
            keys,
            what,
            hint,
        };
        let mut v = vec![
            b(C::Global, A::Quit, vec![c('q'), ctrl('c')], "quit", "quit"),
            b(
                C::Global,
                A::Help,
                vec![c('?'), p(K::F(1))],
                "show the keys of this view",
                "help",
            ),
            b(C::Global, A::Open, vec![c('o')], "open a scenario", "open"),
            b(
                C::Global,
                A::ViewBoard,
                vec![c('1')],
                "board and orders",
                "",
            ),
            b(
                C::Global,
                A::ViewStepper,
                vec![c('2')],
                "decision stepper",
                "",
            ),
            b(
                C::Global,
                A::ViewRules,
                vec![c('3')],
                "rules and compare",
                "",
            ),
            b(
                C::Global,
                A::FocusNext,
                vec![p(K::Tab)],
                "next panel",
                "panel",
            ),
            b(
                C::Global,
                A::FocusPrev,
                vec![p(K::BackTab)],
                "previous panel",
                "",
            ),
            b(
                C::Global,
                A::StepForward,
                vec![c('n'), c('.')],
                "step forward one event",
                "step",
            ),
            b(
                C::Global,
                A::StepBack,
                vec![c('N'), c(',')],
                "step back one event",
                "back",
            ),
            b(
                C::Global,
                A::NextBackup,
                vec![c(']')],
                "next cycle / backup-rule event",
                "cycle",
            ),
            b(
                C::Global,
                A::PrevBackup,
                vec![c('[')],
                "previous cycle / backup-rule event",
                "",
            ),
            b(
                C::Global,
                A::ToStart,
                vec![c('g'), p(K::Home)],
                "go to the start of the trace",
                "",
            ),
            b(
                C::Global,
                A::ToEnd,
                vec![c('G'), p(K::End)],
                "go to the end of the trace",
                "",
            ),
            b(
                C::Global,
                A::Play,
                vec![c(' ')],
                "play / pause the trace",
                "play",
            ),
            b(
                C::Global,
                A::Faster,
                vec![c('+'), c('=')],
                "play faster",
                "",
            ),
            b(C::Global, A::Slower, vec![c('-')], "play slower", ""),
            b(
                C::Global,
                A::ToggleAfter,
                vec![c('a')],
                "position before / after the phase",
                "after",
            ),
            b(
                C::Global,
                A::Goto,
                vec![c('/')],
                "find a province by name",
                "find",
            ),
            b(
                C::Global,
                A::NextPreset,
                vec![c('p')],
                "rules: next preset",
                "",
            ),
            b(
                C::Global,
                A::PrevPreset,
                vec![c('P')],
                "rules: previous preset",
                "",
            ),
            b(
                C::Global,
                A::NextCompare,
                vec![c('c')],
                "compare with the next preset",
                "",
            ),
            b(
                C::Global,
                A::SwitchEngine,
                vec![c('E')],
                "engine: decision model / DPjudge procedure",
                "engine",
            ),
            b(
                C::Global,
                A::CompareEngines,
                vec![c('V')],
                "compare the two engines (again: compare rules)",
                "",
            ),
            b(
                C::Global,
                A::ResetRules,
                vec![c('r')],
                "the scenario's own rules again",
                "",
            ),
            b(
                C::Global,
                A::Back,
                vec![p(K::Esc)],
                "close / clear the selection",
                "",
            ),
            b(
                C::Global,
                A::Freeze,
                vec![c('e')],
                "make the current result the expectations",
                "expect",
            ),
            b(
                C::Global,
                A::Undo,
                vec![c('u'), ctrl('z')],
                "undo the last edit",
                "",
            ),
            b(C::Global, A::Redo, vec![c('U'), ctrl('y')], "redo", ""),
            b(
                C::Global,
                A::Save,
                vec![ctrl('s')],
                "save (a bundled scenario: save as)",
                "save",
            ),
            b(C::Global, A::SaveAs, vec![c('S')], "save as a new file", ""),
            b(
                C::Global,
                A::Details,
                vec![c('t')],
                "edit title, description, source, phase",
                "",
            ),
            b(
                C::Global,
                A::NewScenario,
                vec![ctrl('n')],
                "new scenario: opening, empty board, copy",
                "",
            ),
            b(
                C::Global,
                A::Advance,
                vec![c('>')],
                "adjudicate and go on to the next phase",
                "next phase",
            ),
        ];
        let arrows = |v: &mut Vec<Binding>,
                      ctx,
                      up,
                      down,
                      left: Option<&'static str>,
                      right: Option<&'static str>| {
            v.push(b(ctx, A::Up, vec![p(K::Up), c('k')], up, ""));
            v.push(b(ctx, A::Down, vec![p(K::Down), c('j')], down, ""));
            if let Some(l) = left {
                v.push(b(ctx, A::Left, vec![p(K::Left), c('h')], l, ""));
            }
            if let Some(r) = right {
                v.push(b(ctx, A::Right, vec![p(K::Right), c('l')], r, ""));
            }
        };
        arrows(
            &mut v,
            C::Board,
            "province above",
            "province below",
            Some("province to the left"),
            Some("province to the right"),
        );
        v.push(b(
            C::Board,
            A::Decisions,
            vec![c('d'), p(K::Enter)],
            "the decisions of the selected unit's order",
            "decisions",
        ));
        v.push(b(
            C::Board,
            A::EditOrder,
            vec![c('i')],
            "order the unit here (menu or any text)",
            "order",
        ));
        v.push(b(
            C::Board,
            A::PlaceArmy,
            vec![c('A')],
            "place an army here",
            "army",
        ));
        v.push(b(
            C::Board,
            A::PlaceFleet,
            vec![c('F')],
            "place a fleet here",
            "fleet",
        ));
        v.push(b(
            C::Board,
            A::RemoveUnit,
            vec![c('x'), p(K::Delete)],
            "remove the unit here",
            "",
        ));
        v.push(b(
            C::Board,
            A::MoveUnit,
            vec![c('m')],
            "move the unit here (m again puts it down)",
            "",
        ));
        v.push(b(
            C::Board,
            A::SetOwner,
            vec![c('O')],
            "set the owner of this supply centre",
            "",
        ));
        v.push(b(
            C::Board,
            A::Dislodge,
            vec![c('D')],
            "retreat phase: mark the unit here dislodged",
            "",
        ));
        v.push(b(
            C::Board,
            A::Contested,
            vec![c('C')],
            "retreat phase: mark this province contested",
            "",
        ));
        arrows(
            &mut v,
            C::Orders,
            "previous order",
            "next order",
            None,
            None,
        );
        v.push(b(C::Orders, A::PageUp, vec![p(K::PageUp)], "page up", ""));
        v.push(b(
            C::Orders,
            A::PageDown,
            vec![p(K::PageDown)],
            "page down",
            "",
        ));
        v.push(b(
            C::Orders,
            A::Decisions,
            vec![c('d'), p(K::Enter)],
            "the decisions that decided this order",
            "decisions",
        ));
        v.push(b(
            C::Orders,
            A::EditOrder,
            vec![c('i')],
            "change this order (menu or any text)",
            "order",
        ));
        v.push(b(
            C::Orders,
            A::DeleteOrder,
            vec![c('x'), p(K::Delete)],
            "delete this order",
            "delete",
        ));
        arrows(
            &mut v,
            C::Decisions,
            "previous decision",
            "next decision",
            None,
            None,
        );
        v.push(b(
            C::Decisions,
            A::PageUp,
            vec![p(K::PageUp)],
            "page up",
            "",
        ));
        v.push(b(
            C::Decisions,
            A::PageDown,
            vec![p(K::PageDown)],
            "page down",
            "",
        ));
        v.push(b(
            C::Decisions,
            A::ToSettled,
            vec![c('s')],
            "go to where this decision got its value",
            "settled",
        ));
        v.push(b(
            C::Decisions,
            A::Select,
            vec![p(K::Enter)],
            "show its dependencies in the tree",
            "tree",
        ));
        arrows(
            &mut v,
            C::Tree,
            "previous row",
            "next row",
            Some("fold"),
            Some("unfold"),
        );
        v.push(b(
            C::Tree,
            A::Select,
            vec![p(K::Enter)],
            "unfold / fold",
            "fold",
        ));
        v.push(b(
            C::Tree,
            A::ToSettled,
            vec![c('s')],
            "go to where this decision got its value",
            "settled",
        ));
        arrows(
            &mut v,
            C::Trace,
            "step back (cursor up)",
            "step forward (cursor down)",
            None,
            None,
        );
        v.push(b(
            C::Trace,
            A::PageUp,
            vec![p(K::PageUp)],
            "back one page",
            "",
        ));
        v.push(b(
            C::Trace,
            A::PageDown,
            vec![p(K::PageDown)],
            "forward one page",
            "",
        ));
        arrows(
            &mut v,
            C::Rules,
            "previous option",
            "next option",
            Some("previous value"),
            Some("next value"),
        );
        v.push(b(
            C::Rules,
            A::AdoptRules,
            vec![c('w')],
            "make these the scenario's own rules",
            "adopt",
        ));
        v.push(b(C::Browser, A::Up, vec![p(K::Up)], "previous file", ""));
        v.push(b(C::Browser, A::Down, vec![p(K::Down)], "next file", ""));
        v.push(b(C::Browser, A::PageUp, vec![p(K::PageUp)], "page up", ""));
        v.push(b(
            C::Browser,
            A::PageDown,
            vec![p(K::PageDown)],
            "page down",
            "",
        ));
        v.push(b(
            C::Browser,
            A::Select,
            vec![p(K::Enter)],
            "open the file",
            "open",
        ));
        v.push(b(C::Browser, A::Back, vec![p(K::Esc)], "close", "close"));
        for ctx in [C::Menu, C::OrderEditor] {
            v.push(b(ctx, A::Up, vec![p(K::Up)], "previous row", ""));
            v.push(b(ctx, A::Down, vec![p(K::Down)], "next row", ""));
            v.push(b(ctx, A::PageUp, vec![p(K::PageUp)], "page up", ""));
            v.push(b(ctx, A::PageDown, vec![p(K::PageDown)], "page down", ""));
            v.push(b(ctx, A::Select, vec![p(K::Enter)], "choose", "choose"));
            v.push(b(ctx, A::Back, vec![p(K::Esc)], "cancel", "cancel"));
        }
        v.push(b(
            C::OrderEditor,
            A::Complete,
            vec![p(K::Tab)],
            "complete a province, unit or power name",
            "complete",
        ));
        v.push(b(C::Help, A::Up, vec![p(K::Up), c('k')], "scroll up", ""));
        v.push(b(
            C::Help,
            A::Down,
            vec![p(K::Down), c('j')],
            "scroll down",
            "",
        ));
        v.push(b(
            C::Help,
            A::Back,
            vec![p(K::Esc), c('?'), c('q')],
            "close",
            "close",
        ));
        Keymap { bindings: v }
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
    pub fn hints(&self, contexts: &[Context]) -> Vec<(String, &'static str)> {
        self.active(contexts)
            .into_iter()
            .filter(|(_, _, b)| !b.hint.is_empty())
            .filter_map(|(_, keys, b)| Some((keys.first()?.to_string(), b.hint)))
            .collect()
    }

    /// The first key bound to an action anywhere, for messages ("press o to open").
    pub fn key_for(&self, action: Action) -> Option<Key> {
        self.bindings
            .iter()
            .find(|b| b.action == action)
            .and_then(|b| b.keys.first().copied())
    }

    /// Applies a patch: for each action named, its keys become the listed ones in every
    /// context where it is bound.
    pub fn patch(&mut self, entries: &[(Action, Vec<Key>)]) {
        for (action, keys) in entries {
            for b in self.bindings.iter_mut().filter(|b| b.action == *action) {
                b.keys = keys.clone();
            }
        }
    }

    /// Reads a patch from RON text: `{ "action_name": ["key", …], … }`.
    pub fn parse_patch(text: &str, file: &str) -> Result<Vec<(Action, Vec<Key>)>, KeymapError> {
        let err = |line: usize, col: usize, message: String| KeymapError {
            file: file.to_string(),
            line,
            col,
            message,
        };
        let map: Vec<(String, Vec<String>)> = match ron::from_str::<OrderedMap<Vec<String>>>(text) {
            Ok(m) => m.0,
            Err(e) => {
                let at = crate::error::SourcePos::from_ron(file, text, &e);
                return Err(err(
                    at.line,
                    at.col,
                    format!(
                        "{}; expected {{ \"action\": [\"key\", …] }}",
                        crate::error::ron_message_in(&e, text)
                    ),
                ));
            }
        };
        let locator = crate::source::Locator::new(text, file);
        // Positions name the first character inside the quotes.
        let at = |offset: usize| {
            let p = locator.pos(offset + 1);
            (p.line, p.col)
        };
        // Where each entry's action name is written (in file order), and where each of its keys
        // is (after it); the start of the file when it cannot be found (written with escapes).
        let names = entry_offsets(text, map.iter().map(|(n, _)| n.as_str()));
        let mut out: Vec<(Action, Vec<Key>)> = Vec::new();
        let mut key_at: Vec<Vec<usize>> = Vec::new();
        for ((name, keys), &name_at) in map.iter().zip(&names) {
            let Some(action) = Action::from_name(name) else {
                let (l, c) = at(name_at);
                let names: Vec<String> = Action::ALL.iter().map(|a| a.name()).collect();
                return Err(err(
                    l,
                    c,
                    format!(
                        "unknown action {}; expected one of {}",
                        crate::error::quoted(name),
                        names.join(", ")
                    ),
                ));
            };
            if let Some(first) = out.iter().position(|(a, _)| *a == action) {
                let (l, c) = at(name_at);
                let (fl, fc) = names.get(first).map_or((1, 1), |&o| at(o));
                return Err(err(
                    l,
                    c,
                    format!(
                        "action {name:?} is named a second time (first at line {fl}, column {fc}); expected each action once"
                    ),
                ));
            }
            let mut parsed: Vec<Key> = Vec::new();
            let mut offsets = Vec::new();
            let mut cursor = name_at;
            for k in keys {
                let quoted = format!("{k:?}");
                let k_at = match text.get(cursor..).and_then(|rest| rest.find(&quoted)) {
                    Some(i) => {
                        cursor += i + quoted.len();
                        cursor - quoted.len()
                    }
                    None => name_at,
                };
                let (l, c) = at(k_at);
                let key = Key::parse(k).map_err(|m| err(l, c, m))?;
                if parsed.contains(&key) {
                    return Err(err(
                        l,
                        c,
                        format!("key {key} is listed twice for {name:?}; expected each key once"),
                    ));
                }
                parsed.push(key);
                offsets.push(k_at);
            }
            out.push((action, parsed));
            key_at.push(offsets);
        }
        // A key given to an action must not do another action in the same panel: only one of
        // the two would ever happen.
        let mut km = Keymap::default();
        km.patch(&out);
        for ((action, keys), offsets) in out.iter().zip(&key_at) {
            for (key, &k_at) in keys.iter().zip(offsets) {
                let clash = km.bindings.iter().find(|b| {
                    b.action != *action
                        && b.keys.contains(key)
                        && km
                            .bindings
                            .iter()
                            .any(|o| o.action == *action && o.context == b.context)
                });
                if let Some(b) = clash {
                    let (l, c) = at(k_at);
                    return Err(err(
                        l,
                        c,
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
        Ok(out)
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
        let text = match crate::source::read_text_limited(&path, MAX_KEYS_BYTES) {
            Ok(t) => t,
            Err(e) => return (km, Some(format!("{e} (default keys in use)"))),
        };
        match Keymap::parse_patch(&text, &path.display().to_string()) {
            Ok(p) => {
                km.patch(&p);
                (km, None)
            }
            Err(e) => (km, Some(format!("{e} (default keys in use)"))),
        }
    }
}
