//! The words of the keymap: where a binding applies ([`Context`]), a key as written in the
//! keymap file ([`Key`]), and what is wrong with a keymap file ([`KeymapError`]). Below both the
//! keymap and its file reader.

use std::fmt;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Where a binding applies: everywhere, or in one panel, popup, prompt or question. Its name in
/// `keys.ron` is the variant's in snake case (`order_editor`).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    strum::EnumIter,
    strum::IntoStaticStr,
    strum::EnumString,
)]
#[strum(serialize_all = "snake_case")]
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
    /// The step at the cursor in full and the engine's state at that step (an engine with no
    /// panels of its own).
    Detail,
    /// The DPjudge procedure's units with their marks and support counts.
    Units,
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
    /// The prompt that finds a province by name (typing writes the name).
    Find,
    /// The prompt for the file to save to (typing writes the path).
    SaveAs,
    /// The prompt for a field of the scenario: title, description, source, phase.
    Field,
    /// A yes / no question before something that loses or overwrites work.
    Confirm,
    /// The question at start whether to restore the edits kept in a recovery file.
    Restore,
    /// While an adjudication is on its way (no popup open): its keys come first.
    Adjudicating,
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
            Context::Detail => "Step and engine state",
            Context::Units => "Units (DPjudge procedure)",
            Context::Rules => "Rules",
            Context::Browser => "Open a scenario",
            Context::Help => "Help",
            Context::Menu => "Menu",
            Context::OrderEditor => "Order editor",
            Context::Find => "Find a province",
            Context::SaveAs => "Save as",
            Context::Field => "Scenario field",
            Context::Confirm => "Question",
            Context::Restore => "Restore kept edits",
            Context::Adjudicating => "While adjudicating",
        }
    }

    /// The name used in the keymap file (`order_editor`).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Parses a keymap-file name.
    pub fn from_name(name: &str) -> Option<Context> {
        name.parse().ok()
    }

    /// Every context, in the order of the enum.
    pub fn all() -> impl Iterator<Item = Context> {
        <Context as strum::IntoEnumIterator>::iter()
    }

    /// Whether this is a one-line prompt or a question (where a quick esc then a key, which
    /// arrives as alt+key, is not taken as both).
    pub fn is_prompt(self) -> bool {
        matches!(
            self,
            Context::Find | Context::SaveAs | Context::Field | Context::Confirm | Context::Restore
        )
    }

    /// Whether a plain character is typed here (into a filter, an order, a prompt's text)
    /// rather than looked up in the keymap.
    pub fn takes_text(self) -> bool {
        matches!(
            self,
            Context::Browser
                | Context::Menu
                | Context::OrderEditor
                | Context::Find
                | Context::SaveAs
                | Context::Field
        )
    }

    /// Whether this is one of the views' panels (where the keys of [`Context::Global`] work
    /// too, unless the panel binds them itself).
    pub fn is_panel(self) -> bool {
        matches!(
            self,
            Context::Board
                | Context::Orders
                | Context::Decisions
                | Context::Tree
                | Context::Trace
                | Context::Detail
                | Context::Units
                | Context::Rules
        )
    }

    /// The popups, prompts and questions, listed after the view's panels in the help popup
    /// (every key a dialog names is there).
    pub const PROMPTS: [Context; 8] = [
        Context::Browser,
        Context::Menu,
        Context::OrderEditor,
        Context::Find,
        Context::SaveAs,
        Context::Field,
        Context::Confirm,
        Context::Restore,
    ];
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
    /// The key of a terminal key event (Shift folded into characters).
    pub fn of(e: &KeyEvent) -> Key {
        let mut mods = e.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
        let code = match e.code {
            KeyCode::BackTab => KeyCode::BackTab,
            // A terminal sends ctrl-\ ctrl-] ctrl-^ ctrl-_ as the control bytes 0x1c-0x1f,
            // which crossterm reads as ctrl-4 to ctrl-7: they are named as typed.
            KeyCode::Char(c @ '4'..='7') if mods.contains(KeyModifiers::CONTROL) => {
                KeyCode::Char(match c {
                    '4' => '\\',
                    '5' => ']',
                    '6' => '^',
                    _ => '_',
                })
            }
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
                        dipsandbox_core::model::error::quoted(s)
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
