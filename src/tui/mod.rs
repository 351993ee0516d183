//! The terminal UI: the board, the orders, and a step-through of the resolver's decisions.
//!
//! - [`app`]: the app state and its one `update(action)`.
//! - [`action`]: every action, each documented (the doc is its help text).
//! - [`keymap`]: the one keymap — key handling, status-bar hints and the help popup.
//! - [`event`]: input sources: the terminal, or a script for tests.
//! - [`recovery`]: the recovery file that keeps unsaved edits through a crash.
//! - [`session`]: the loaded scenario, its adjudication and the stepper over its trace.
//! - [`browser`]: the scenario browser's data.
//! - [`editor`]: the editing popups' data: menus and the order editor with live parse.
//! - [`theme`]: colours and styles (`NO_COLOR` honoured).
//! - [`view`]: one file per view; draw functions are pure functions of the app state.
//!
//! The main loop, [`run_app`], is generic over the backend and the event source, so whole
//! sessions run in tests against ratatui's `TestBackend`.

pub mod action;
pub mod app;
pub mod browser;
pub mod editor;
pub mod event;
pub mod keymap;
pub mod recovery;
pub mod session;
pub mod theme;
pub mod view;

use std::path::Path;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;

use crate::rules::Rules;
use app::App;
use browser::Folders;
use event::{EventSource, TerminalEvents};

/// An error of the main loop: drawing or reading input failed.
#[derive(Debug, thiserror::Error)]
pub enum TuiError {
    /// The terminal could not be drawn to.
    #[error("drawing failed: {0}")]
    Draw(String),
    /// Input could not be read.
    #[error("reading input failed: {0}")]
    Input(#[from] std::io::Error),
    /// The scenario could not be opened.
    #[error("{0}")]
    Open(String),
}

/// Runs the app until the user quits or the event source ends. Draws a frame, waits for input
/// (at most one autoplay interval), handles it.
pub fn run_app<B: Backend, E: EventSource>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    events: &mut E,
) -> Result<(), TuiError> {
    loop {
        if let Ok(size) = terminal.size() {
            app.size = (size.width, size.height);
        }
        terminal
            .draw(|f| view::draw(f, app))
            .map_err(|e| TuiError::Draw(e.to_string()))?;
        if app.quit {
            return Ok(());
        }
        let timeout = if app.playing {
            app.speed
        } else {
            Duration::from_millis(500)
        };
        match events.next(timeout)? {
            Some(input) => app.handle(input),
            None => return Ok(()),
        }
        app.autosave();
        if app.stop_requested() {
            // SIGTERM / SIGHUP: keep the edits, then end like a quit.
            app.save_recovery_now();
            return Ok(());
        }
    }
}

/// Opens the TUI on a file (or the built-in scenario) in the real terminal, adjudicating with
/// `engine` and switching between the engines of `registry`, and restores the terminal on quit,
/// on error and on panic.
pub fn run(
    file: Option<&Path>,
    rules: Option<Rules>,
    engine: std::sync::Arc<dyn crate::adjudicator::Engine>,
    registry: crate::adjudicator::Registry,
) -> color_eyre::Result<()> {
    // Load before touching the terminal: a bad file is a plain error message.
    let mut app = App::open(file, rules, Folders::from_env()).map_err(TuiError::Open)?;
    app.session.set_registry(registry);
    app.set_engine(engine);
    let mut terminal = ratatui::try_init()?;
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        hook(info);
    }));
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    register_signals(&app);
    let size = terminal.size()?;
    app.size = (size.width, size.height);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_app(&mut terminal, &mut app, &mut TerminalEvents)
    }));
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    match result {
        Ok(r) => Ok(r?),
        Err(_) => {
            // The panic hook has restored the terminal and printed the message; keep the edits.
            let kept = app.save_recovery_now();
            Err(color_eyre::eyre::eyre!(
                "dipsandbox stopped on an internal error{}",
                kept.map_or(String::new(), |f| format!(
                    "; your unsaved edits are kept in {} and are offered back at the next start",
                    f.display()
                ))
            ))
        }
    }
}

/// SIGTERM and SIGHUP (a closed terminal) set the app's stop flag: the main loop then writes
/// the recovery file and ends, restoring the terminal. A watchdog ends the process if the loop
/// does not get there in time: when the terminal has gone, crossterm can spin inside a read that
/// never returns. The recovery file is written after every edit, so nothing is lost either way.
fn register_signals(app: &App) {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP]) else {
            return;
        };
        let stop = app.stop.clone();
        std::thread::spawn(move || {
            if let Some(sig) = signals.forever().next() {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(1500));
                let _ = execute!(std::io::stdout(), DisableMouseCapture);
                ratatui::restore();
                std::process::exit(128 + sig);
            }
        });
    }
    #[cfg(not(unix))]
    {
        let _ = signal_hook::flag::register(signal_hook::consts::SIGTERM, app.stop.clone());
    }
}
