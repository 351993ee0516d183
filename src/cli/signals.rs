//! ctrl-c, SIGTERM and SIGHUP in the headless commands.
//!
//! An outside adjudicator runs in a process group of its own
//! (`dipsandbox_core::engine::outside`), so the terminal's ctrl-c does not reach it: dipsandbox
//! must end it. [`watch`] starts one thread that waits for those signals:
//!
//! - in a long run that stops gracefully ([`graceful`]: `versus`, `minimize`), the first signal
//!   sets the run's stop flag and interrupts its engines ([`Engine::interrupt`]), so that a
//!   hanging adjudicator is killed at once and the run writes what it has within a second; a
//!   second signal ends at once;
//! - otherwise, and on the second signal, every outside program still running is ended (its
//!   whole process group) and dipsandbox exits with status 128 + the signal (130 for ctrl-c,
//!   143 for SIGTERM), as a process the signal killed would.
//!
//! The TUI handles SIGTERM and SIGHUP itself (it saves the edits first) and reads ctrl-c as a
//! key; it does not call [`watch`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};

use dipsandbox_core::engine::Engine;
use dipsandbox_core::engine::outside::process::end_all;

/// A run that stops gracefully: its stop flag and the engines to interrupt.
struct Graceful {
    stop: Arc<AtomicBool>,
    engines: Vec<Arc<dyn Engine>>,
}

static GRACEFUL: Mutex<Option<Graceful>> = Mutex::new(None);

/// Starts the thread that answers ctrl-c, SIGTERM and SIGHUP (once per process).
pub fn watch() {
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            for sig in signals.forever() {
                let mut g = GRACEFUL.lock().unwrap_or_else(|e| e.into_inner());
                match g.as_mut() {
                    Some(run) if !run.stop.load(Ordering::Relaxed) => {
                        run.stop.store(true, Ordering::Relaxed);
                        for e in &run.engines {
                            e.interrupt();
                        }
                    }
                    _ => {
                        end_all();
                        std::process::exit(128 + sig);
                    }
                }
            }
        });
    });
}

/// The stop flag of a run that stops gracefully on the first signal, interrupting `engines`
/// then (see the module's documentation). Starts [`watch`] if it is not running.
pub fn graceful(engines: Vec<Arc<dyn Engine>>) -> Arc<AtomicBool> {
    watch();
    let stop = Arc::new(AtomicBool::new(false));
    *GRACEFUL.lock().unwrap_or_else(|e| e.into_inner()) = Some(Graceful {
        stop: Arc::clone(&stop),
        engines,
    });
    stop
}
