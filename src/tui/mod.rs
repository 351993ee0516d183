//! The terminal UI: the board, the orders, and a step-through of the resolver's decisions.
//!
//! - [`app`]: the app state and its one `update(message) -> effects`.
//! - [`state`]: the app's state pane by pane (board, orders, stepper, rules, popups).
//! - [`action`]: every action, each documented (the doc is its help text), and the messages
//!   `update` takes.
//! - [`effect`]: the effects `update` returns (save, open, restore, recovery, quit), and
//!   [`runner`], the main loop's runner that carries them out: the TUI's only file I/O once
//!   running.
//! - [`keymap`]: the one keymap — key handling, status-bar hints and the help popup; the
//!   default keys are the bundled `keys.ron`, read by [`keyfile`] like a user's.
//! - [`layout`], [`grid`], [`hit`]: where the panes go, the board's cells, and what a click
//!   hits — plain functions that know neither the app nor the views.
//! - [`event`]: input sources: the terminal, or a script for tests; [`key`]: a key and its
//!   modifiers, as the keymap file writes them.
//! - [`recovery`]: the recovery file that keeps unsaved edits through a crash.
//! - [`session`]: the loaded scenario, its adjudication and the stepper over its trace.
//! - [`adapter`]: the one door to an engine's own types, one module per view family (the
//!   decision graph's panels, the DPjudge procedure's); everything else asks the engine seam.
//! - [`browser`]: the scenario browser's data.
//! - [`menu`], [`editor`]: the editing popups' data: menus, and the order editor with live
//!   parse.
//! - [`theme`]: colours and styles (`NO_COLOR` honoured).
//! - [`view`]: one file per view; draw functions are pure functions of a view-model built once
//!   per frame.
//!
//! The main loop, [`run_app`], is generic over the backend and the event source, so whole
//! sessions run in tests against ratatui's `TestBackend`: draw, wait for input, turn it into a
//! message, [`dispatch`] it (update, then carry out the effects, feeding what they came to back
//! to update), bring the recovery file up to date.

pub mod action;
pub mod adapter;
pub mod app;
pub mod browser;
pub mod editor;
pub mod effect;
pub mod event;
pub mod grid;
pub mod hit;
pub mod key;
pub mod keyfile;
pub mod keymap;
pub mod layout;
pub mod menu;
pub mod recovery;
pub mod runner;
pub mod session;
pub mod state;
pub mod theme;
pub mod view;

use std::path::Path;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;

use action::Msg;
use app::App;
use browser::Folders;
use dipsandbox_core::model::rules::Rules;
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

/// Handles one message: `update`, then every effect it returns, each one's result fed back to
/// `update` in turn, until nothing is left to do.
pub fn dispatch(app: &mut App, msg: impl Into<Msg>) {
    let mut queue = std::collections::VecDeque::from([msg.into()]);
    while let Some(m) = queue.pop_front() {
        for e in app.update(m) {
            if let Some(done) = runner::perform(app, e) {
                queue.push_back(Msg::Done(done));
            }
        }
    }
}

/// Draws one frame of the main loop: a resize first when the terminal's size changed, then the
/// views from this frame's view-model.
pub fn draw_frame<B: Backend>(terminal: &mut Terminal<B>, app: &mut App) -> Result<(), TuiError> {
    if let Ok(size) = terminal.size()
        && app.size != (size.width, size.height)
    {
        dispatch(app, Msg::Resize(size.width, size.height));
    }
    terminal
        .draw(|f| view::draw(f, &app.view_model(f.area())))
        .map_err(|e| TuiError::Draw(e.to_string()))?;
    Ok(())
}

/// Handles one input as the main loop does: [`dispatch`] it, then bring the recovery file up to
/// date.
pub fn handle_input(app: &mut App, input: event::Input) {
    dispatch(app, input);
    if let Some(done) = runner::autosave(app) {
        dispatch(app, Msg::Done(done));
    }
}

/// Hands the result of the adjudication on its way to `update` once it has come, waiting at
/// most `wait` for it (None: as long as it takes); false when nothing came (none is pending,
/// or it has not finished).
pub fn take_result(app: &mut App, wait: Option<Duration>) -> bool {
    match app.session.wait_for_result(wait) {
        Some(f) => {
            dispatch(app, Msg::Done(effect::Done::Adjudicated(f)));
            true
        }
        None => false,
    }
}

/// How often the main loop looks for an adjudication's result while one is on its way.
const RESULT_POLL: Duration = Duration::from_millis(40);

/// Runs the app until the user quits or the event source ends. Draws a frame, waits for input
/// (at most one autoplay interval), handles it, brings the recovery file up to date.
pub fn run_app<B: Backend, E: EventSource>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    events: &mut E,
) -> Result<(), TuiError> {
    loop {
        if events.waits_for_engines() {
            take_result(app, None);
        }
        draw_frame(terminal, app)?;
        if app.quit {
            return Ok(());
        }
        let pending = app.session.state.is_pending();
        let timeout = if app.stepper.playing {
            app.stepper.speed
        } else if pending {
            RESULT_POLL
        } else {
            Duration::from_millis(500)
        };
        match events.next(timeout)? {
            // While an adjudication is on its way the wait is short, to look for its result;
            // the tick it ends in is not the autoplay's (nothing plays without a result).
            Some(event::Input::Tick) if pending => {}
            Some(input) => handle_input(app, input),
            None => return Ok(()),
        }
        take_result(app, Some(Duration::ZERO));
        if app.stop_requested() {
            // SIGTERM / SIGHUP: keep the edits, then end like a quit.
            runner::write_recovery_now(app);
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
    engine: std::sync::Arc<dyn dipsandbox_core::engine::Engine>,
    registry: dipsandbox_core::engine::Registry,
) -> color_eyre::Result<()> {
    // Load before touching the terminal: a bad file is a plain error message.
    let mut app = App::open(file, rules, Folders::from_env()).map_err(TuiError::Open)?;
    // From here on the engines work on a worker: the UI stays live while one takes its time.
    app.session.run_on_worker(Some(session::job::GRACE));
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
    dispatch(&mut app, Msg::Resize(size.width, size.height));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_app(&mut terminal, &mut app, &mut TerminalEvents)
    }));
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    match result {
        Ok(r) => Ok(r?),
        Err(_) => {
            // The panic hook has restored the terminal and printed the message; keep the edits.
            let kept = runner::write_recovery_now(&mut app);
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
