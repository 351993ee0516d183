//! Where input comes from: the real terminal, or a script (for tests). The main loop is generic
//! over this, so whole sessions run in tests against ratatui's `TestBackend`.

use std::collections::VecDeque;

use super::action::Msg;
use std::time::Duration;

use ratatui::crossterm::event::{
    self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent,
    MouseEventKind,
};

/// One input the app reacts to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A key press.
    Key(KeyEvent),
    /// A mouse click at (column, row).
    Click(u16, u16),
    /// The mouse wheel: -1 up, +1 down, at (column, row).
    Scroll(i8, u16, u16),
    /// The terminal was resized.
    Resize(u16, u16),
    /// Time passed with no input (drives autoplay).
    Tick,
    /// A tick at a given time: a script's clock (the terminal gives [`Input::Tick`], which is
    /// now).
    Clock(std::time::Instant),
}

/// A source of input.
pub trait EventSource {
    /// The next input, waiting at most `timeout` (then [`Input::Tick`]); `None` when the source
    /// is finished (a script ran out).
    fn next(&mut self, timeout: Duration) -> std::io::Result<Option<Input>>;

    /// Whether the main loop waits for an adjudication on its way before it asks for the next
    /// input: a script does, so a scripted session is the same whatever the engines' speed;
    /// the terminal does not (the UI stays live while an engine works).
    fn waits_for_engines(&self) -> bool {
        false
    }
}

/// The terminal, through crossterm.
#[derive(Debug, Default)]
pub struct TerminalEvents;

impl EventSource for TerminalEvents {
    fn next(&mut self, timeout: Duration) -> std::io::Result<Option<Input>> {
        // A signal (SIGTERM, SIGHUP) can interrupt the wait: that is a tick, and the main
        // loop looks at the stop flag.
        let interrupted = |e: &std::io::Error| e.kind() == std::io::ErrorKind::Interrupted;
        match event::poll(timeout) {
            Ok(false) => return Ok(Some(Input::Tick)),
            Ok(true) => {}
            Err(e) if interrupted(&e) => return Ok(Some(Input::Tick)),
            Err(e) => return Err(e),
        }
        let ev = match event::read() {
            Ok(ev) => ev,
            Err(e) if interrupted(&e) => return Ok(Some(Input::Tick)),
            Err(e) => return Err(e),
        };
        Ok(Some(match ev {
            Event::Key(k) if k.kind != KeyEventKind::Release => Input::Key(k),
            Event::Mouse(MouseEvent {
                kind, column, row, ..
            }) => match kind {
                MouseEventKind::Down(MouseButton::Left) => Input::Click(column, row),
                MouseEventKind::ScrollUp => Input::Scroll(-1, column, row),
                MouseEventKind::ScrollDown => Input::Scroll(1, column, row),
                _ => Input::Tick,
            },
            Event::Resize(w, h) => Input::Resize(w, h),
            _ => Input::Tick,
        }))
    }
}

/// A scripted session: inputs in order, then the end.
#[derive(Clone, Debug, Default)]
pub struct Script {
    queue: VecDeque<Input>,
}

impl Script {
    /// A script of inputs.
    pub fn new(inputs: impl IntoIterator<Item = Input>) -> Script {
        Script {
            queue: inputs.into_iter().collect(),
        }
    }

    /// A script of keys written as in the keymap file, separated by spaces: `"2 ] ] N q"`.
    /// A word that is not a key is typed character by character.
    pub fn keys(spec: &str) -> Script {
        let mut inputs = Vec::new();
        for word in spec.split(' ').filter(|w| !w.is_empty()) {
            match super::keymap::Key::parse(word) {
                Ok(k) => inputs.push(Input::Key(KeyEvent::new(k.code, k.mods))),
                Err(_) => {
                    for c in word.chars() {
                        inputs.push(Input::Key(KeyEvent::new(
                            KeyCode::Char(c),
                            KeyModifiers::NONE,
                        )));
                    }
                }
            }
        }
        Script::new(inputs)
    }

    /// Adds keys (as in [`Script::keys`]) at the end.
    pub fn and_keys(mut self, spec: &str) -> Script {
        self.queue.extend(Script::keys(spec).queue);
        self
    }

    /// Adds text typed character by character (spaces included) at the end.
    pub fn and_text(mut self, text: &str) -> Script {
        for c in text.chars() {
            self.queue.push_back(Input::Key(KeyEvent::new(
                KeyCode::Char(c),
                KeyModifiers::NONE,
            )));
        }
        self
    }

    /// Adds another script's inputs at the end.
    pub fn then(mut self, other: Script) -> Script {
        self.queue.extend(other.queue);
        self
    }

    /// Adds an input at the end.
    pub fn push(&mut self, input: Input) {
        self.queue.push_back(input);
    }
}

impl EventSource for Script {
    fn next(&mut self, _timeout: Duration) -> std::io::Result<Option<Input>> {
        Ok(self.queue.pop_front())
    }

    fn waits_for_engines(&self) -> bool {
        true
    }
}

impl From<Input> for Msg {
    fn from(i: super::event::Input) -> Msg {
        match i {
            Input::Key(k) => Msg::Key(k),
            Input::Click(x, y) => Msg::Click(x, y),
            Input::Scroll(d, x, y) => Msg::Scroll(d, x, y),
            Input::Resize(w, h) => Msg::Resize(w, h),
            Input::Tick => Msg::Tick,
            Input::Clock(t) => Msg::Clock(t),
        }
    }
}
