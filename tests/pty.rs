//! The real binary in a pseudo-terminal (portable-pty + vt100): keys in, screen text out, the
//! terminal restored after quitting.

use std::io::{Read, Write};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

struct Session {
    parser: vt100::Parser,
    rx: Receiver<Vec<u8>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    _master: Box<dyn portable_pty::MasterPty + Send>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let (rows, cols): (u16, u16) = (40, 120);
        let pty = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_dipsandbox"));
        cmd.args(args);
        cmd.cwd(env!("CARGO_MANIFEST_DIR"));
        cmd.env("TERM", "xterm-256color");
        cmd.env("RUST_BACKTRACE", "0");
        let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pty");
        cmd.env("DIPSANDBOX_DATA_DIR", tmp.join("data"));
        cmd.env("DIPSANDBOX_CONFIG_DIR", tmp.join("config"));
        let child = pty.slave.spawn_command(cmd).expect("binary starts");
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().expect("reader");
        let writer = pty.master.take_writer().expect("writer");
        // Drain the pty on a thread so the child never blocks on a full buffer.
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Session {
            parser: vt100::Parser::new(
                std::num::NonZeroU16::new(rows).expect("rows"),
                std::num::NonZeroU16::new(cols).expect("cols"),
                0,
            ),
            rx,
            writer,
            child,
            _master: pty.master,
        }
    }

    fn pump(&mut self, wait: Duration) {
        if let Ok(bytes) = self.rx.recv_timeout(wait) {
            self.parser.process(&bytes);
        }
        while let Ok(bytes) = self.rx.try_recv() {
            self.parser.process(&bytes);
        }
    }

    fn screen(&self) -> String {
        self.parser.screen().contents()
    }

    /// Waits (up to 15 s) until the screen shows `text`.
    fn wait_for(&mut self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline {
            self.pump(Duration::from_millis(50));
            if self.screen().contains(text) {
                return;
            }
        }
        panic!("{text:?} never appeared; the screen:\n{}", self.screen());
    }

    fn keys(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).expect("keys sent");
        self.writer.flush().expect("flushed");
        self.pump(Duration::from_millis(100));
    }

    /// Quits with `q` and waits for the exit; returns the exit status's success.
    fn quit(mut self) -> (bool, vt100::Parser) {
        self.keys("q");
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            self.pump(Duration::from_millis(50));
            if let Ok(Some(status)) = self.child.try_wait() {
                self.pump(Duration::from_millis(100));
                return (status.success(), self.parser);
            }
            assert!(
                Instant::now() < deadline,
                "did not quit:\n{}",
                self.screen()
            );
        }
    }
}

#[test]
fn starts_and_quits_with_the_terminal_restored() {
    let mut s = Session::start(&[]);
    s.wait_for("Pandin's paradox");
    s.wait_for("expectations: all 8 met");
    assert!(
        s.parser.screen().alternate_screen(),
        "the TUI uses the alternate screen"
    );
    let (ok, parser) = s.quit();
    assert!(ok, "exit status 0");
    let screen = parser.screen();
    assert!(!screen.alternate_screen(), "back on the main screen");
    assert!(!screen.hide_cursor(), "cursor visible again");
}

#[test]
fn steps_through_pandins_paradox_to_the_szykman_rule() {
    let mut s = Session::start(&["scenarios/datc/6.F.16.ron"]);
    s.wait_for("Orders (6)");
    s.keys("2");
    s.wait_for("Decisions (");
    s.keys("g");
    s.wait_for("start: nothing decided yet");
    s.keys("]");
    s.wait_for("CYCLE (convoy paradox)");
    s.keys("]");
    s.keys("]");
    s.wait_for("Szykman");
    s.keys("g");
    s.wait_for("start: nothing decided yet");
    let (ok, _) = s.quit();
    assert!(ok);
}

#[test]
fn opens_a_file_from_the_browser() {
    let mut s = Session::start(&[]);
    s.wait_for("Pandin's paradox");
    s.keys("o");
    s.wait_for("Open a scenario");
    s.keys("6.C.1.ron");
    s.wait_for("datc/6.C.1.ron");
    s.keys("\r");
    s.wait_for("opened");
    s.wait_for("6.C.1");
    let (ok, _) = s.quit();
    assert!(ok);
}
