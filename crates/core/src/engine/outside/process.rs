//! Running the outside program: spawning it with piped standard streams, writing a request,
//! reading its answer within bounds, and ending it — with everything it started — when it
//! hangs, floods or is interrupted.
//!
//! - **Threads serve the pipes** (a writer, a line reader, a standard-error tail), so a program
//!   that stops reading or writing never blocks dipsandbox. The reader hands lines over a
//!   channel of one slot: a program that writes faster than it is read waits on its pipe, and
//!   memory stays bounded whatever it prints.
//! - **Every wait is bounded**: in bytes ([`MAX_ANSWER`] per answer, blank lines before it
//!   included), in blank lines ([`MAX_BLANK_LINES`] before an answer) and in time (the phase's
//!   timeout, checked on every line received, so a flood of lines cannot keep the wait going).
//!   The wait also looks at the engine's interrupt flag every [`POLL`], so `ctrl-c` ends it.
//! - **A program is a process group** (on Unix): it is started as the leader of a group of its
//!   own, and ended by killing the whole group, so a script's children go with it. Every group
//!   running is listed, so that [`end_all`] can end them when dipsandbox itself is stopped.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::base::text::cut;

/// The longest answer read (a line in line mode, the whole output in one-shot mode), counting
/// the blank lines written before it.
pub const MAX_ANSWER: u64 = 256 * 1024 * 1024;

/// How many blank lines a program may write before an answer (they are skipped).
pub const MAX_BLANK_LINES: u64 = 10_000;

/// How often a wait looks at the interrupt flag.
pub const POLL: Duration = Duration::from_millis(50);

/// How many bytes of the program's standard error are kept for messages.
const STDERR_TAIL: usize = 2000;

/// What the reader thread saw.
enum Read1 {
    /// One line (line mode) or the whole output (one-shot mode).
    Text(String),
    /// Output that is not UTF-8.
    NotUtf8,
    /// More than [`MAX_ANSWER`] bytes without an answer's end.
    TooLong,
    /// More than [`MAX_BLANK_LINES`] blank lines without an answer.
    Blank,
    /// Standard output closed.
    End,
}

/// How the program is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// One process for many phases: one request per line in, one answer per line out.
    #[default]
    Lines,
    /// One process per phase: the request on standard input (closed after it), the answer on
    /// standard output, then the process exits.
    Once,
}

/// The program to run and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The program (a path, or a name looked up in `PATH`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Line-delimited or one-shot.
    pub mode: Mode,
    /// How long one phase may take.
    pub timeout: Duration,
}

/// Why an exchange with a program of line mode gave no answer.
pub(super) enum Failure {
    /// Its standard output closed before an answer (it ended, or closed it): the message says
    /// how. A program that answered before and then ended is started again for the next phase.
    Ended(String),
    /// The interrupt flag was set: the program was ended.
    Interrupted,
    /// Anything else (a timeout, an answer too long or not UTF-8).
    Other(String),
}

/// The message of an interrupted phase.
pub const INTERRUPTED: &str = "interrupted (the program was stopped)";

/// The process groups of the programs running now (their leaders' ids).
static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn groups() -> std::sync::MutexGuard<'static, Vec<u32>> {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills the process group led by `id` (Unix; elsewhere only the program itself is killed).
fn kill_group(id: u32) {
    #[cfg(unix)]
    if let Some(pid) = i32::try_from(id)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = id;
}

/// Ends every outside program running now, with the processes each started: for a signal
/// handler's thread, before dipsandbox exits (their process groups do not get the terminal's
/// `ctrl-c`).
pub fn end_all() {
    let ids: Vec<u32> = std::mem::take(&mut *groups());
    for id in ids {
        kill_group(id);
    }
}

/// Ends a program: its process group killed, then the program itself, then reaped.
fn end(child: &mut Child) {
    let id = child.id();
    kill_group(id);
    let _ = child.kill();
    let _ = child.wait();
    groups().retain(|g| *g != id);
}

/// A running program of line mode.
pub(super) struct Live {
    child: Child,
    requests: Sender<Vec<u8>>,
    answers: Receiver<Read1>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Answers it has given.
    pub(super) answered: u64,
}

impl Drop for Live {
    fn drop(&mut self) {
        // Closing standard input asks a well-behaved program to end; it is killed, with its
        // group, in any case, so that no process outlives its engine.
        end(&mut self.child);
    }
}

fn tail_text(stderr: &Arc<Mutex<Vec<u8>>>) -> String {
    let buf = stderr.lock().unwrap_or_else(|e| e.into_inner());
    let text = String::from_utf8_lossy(&buf);
    let text = text.trim();
    if text.is_empty() {
        String::new()
    } else {
        format!("; its standard error ends: {}", cut(text))
    }
}

fn spawn_stderr(child: &mut Child) -> Arc<Mutex<Vec<u8>>> {
    let tail = Arc::new(Mutex::new(Vec::new()));
    if let Some(mut err) = child.stderr.take() {
        let t = Arc::clone(&tail);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = err.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let mut buf = t.lock().unwrap_or_else(|e| e.into_inner());
                buf.extend_from_slice(chunk.get(..n).unwrap_or_default());
                let len = buf.len();
                if len > STDERR_TAIL {
                    buf.drain(..len - STDERR_TAIL);
                }
            }
        });
    }
    tail
}

/// Starts the program as the leader of a process group of its own, and lists the group.
fn start(p: &Program) -> Result<Child, String> {
    let mut cmd = Command::new(&p.program);
    cmd.args(&p.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", cut(&p.program)))?;
    groups().push(child.id());
    Ok(child)
}

fn writer(mut stdin: ChildStdin) -> Sender<Vec<u8>> {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    thread::spawn(move || {
        while let Ok(bytes) = rx.recv() {
            if stdin
                .write_all(&bytes)
                .and_then(|()| stdin.flush())
                .is_err()
            {
                break;
            }
        }
    });
    tx
}

fn text_of(buf: Vec<u8>) -> Read1 {
    match String::from_utf8(buf) {
        Ok(s) => Read1::Text(s),
        Err(_) => Read1::NotUtf8,
    }
}

fn is_blank(buf: &[u8]) -> bool {
    std::str::from_utf8(buf).is_ok_and(|s| s.trim().is_empty())
}

/// Reads lines from the program into `tx` (one slot: the reader waits while an answer is not
/// taken): blank lines skipped but counted, and bounded with the answer after them.
fn read_lines(stdout: impl Read, tx: SyncSender<Read1>) {
    let mut r = BufReader::new(stdout);
    let (mut blank_lines, mut blank_bytes) = (0u64, 0u64);
    loop {
        let mut buf = Vec::new();
        let room = MAX_ANSWER.saturating_sub(blank_bytes);
        match (&mut r).take(room + 1).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                let _ = tx.send(Read1::End);
                return;
            }
            Ok(_) if buf.last() != Some(&b'\n') && buf.len() as u64 > room => {
                let _ = tx.send(Read1::TooLong);
                return;
            }
            Ok(_) if is_blank(&buf) => {
                blank_lines += 1;
                blank_bytes += buf.len() as u64;
                if blank_lines > MAX_BLANK_LINES {
                    let _ = tx.send(Read1::Blank);
                    return;
                }
            }
            Ok(_) => {
                (blank_lines, blank_bytes) = (0, 0);
                if tx.send(text_of(buf)).is_err() {
                    return;
                }
            }
        }
    }
}

fn too_long() -> String {
    format!("it wrote an answer longer than {MAX_ANSWER} bytes")
}

fn too_blank() -> String {
    format!("it wrote more than {MAX_BLANK_LINES} blank lines without an answer")
}

fn no_answer(timeout: Duration, stderr: &Arc<Mutex<Vec<u8>>>) -> String {
    format!(
        "no answer within {} (the process was killed){}",
        seconds(timeout),
        tail_text(stderr)
    )
}

/// What a bounded wait on a channel gave: a message, the deadline passed, or an interrupt.
enum Waited<T> {
    Got(T),
    Closed,
    Late,
    Stopped,
}

/// What ends a phase's wait early: the engine's own flag (its `interrupt`) or the request's (the
/// caller's, in its [`PhaseInput`](crate::engine::PhaseInput)).
#[derive(Clone, Copy, Debug)]
pub(super) struct Stop<'a> {
    /// The engine's own flag: set by `interrupt`, it stops every phase.
    pub(super) own: &'a AtomicBool,
    /// The request's flag, if it has one.
    pub(super) request: Option<&'a AtomicBool>,
}

impl Stop<'_> {
    /// Whether either flag is set.
    pub(super) fn now(&self) -> bool {
        self.own.load(Ordering::Relaxed) || self.request.is_some_and(|r| r.load(Ordering::Relaxed))
    }
}

/// Receives from `rx` until `deadline`, looking at `stop` every [`POLL`].
fn wait<T>(rx: &Receiver<T>, deadline: Instant, stop: &Stop<'_>) -> Waited<T> {
    loop {
        if stop.now() {
            return Waited::Stopped;
        }
        let now = Instant::now();
        if now >= deadline {
            return Waited::Late;
        }
        match rx.recv_timeout((deadline - now).min(POLL)) {
            Ok(x) => return Waited::Got(x),
            Err(RecvTimeoutError::Disconnected) => return Waited::Closed,
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

impl Live {
    /// Starts the program in line mode.
    pub(super) fn start(p: &Program) -> Result<Live, String> {
        let mut child = start(p)?;
        let stderr = spawn_stderr(&mut child);
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                end(&mut child);
                return Err("its standard streams could not be opened".into());
            }
        };
        let requests = writer(stdin);
        let (tx, answers) = mpsc::sync_channel(1);
        thread::spawn(move || read_lines(stdout, tx));
        Ok(Live {
            child,
            requests,
            answers,
            stderr,
            answered: 0,
        })
    }

    /// Whether the process has ended (it may end after an answer; the next phase starts a new
    /// one).
    pub(super) fn ended(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Writes one request line and reads one answer line (blank lines are skipped, up to
    /// [`MAX_BLANK_LINES`]), within `timeout`, unless `stop` is set. An error leaves the
    /// process in a state that must not be reused: the caller drops it.
    pub(super) fn exchange(
        &mut self,
        line: &[u8],
        timeout: Duration,
        stop: &Stop<'_>,
    ) -> Result<String, Failure> {
        let deadline = Instant::now() + timeout;
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        // A writer that has gone means the program closed its standard input: reading tells why.
        let _ = self.requests.send(bytes);
        match wait(&self.answers, deadline, stop) {
            Waited::Got(Read1::Text(s)) => {
                self.answered += 1;
                Ok(s)
            }
            Waited::Got(Read1::NotUtf8) => Err(Failure::Other(
                "it wrote an answer that is not UTF-8".into(),
            )),
            Waited::Got(Read1::TooLong) => Err(Failure::Other(too_long())),
            Waited::Got(Read1::Blank) => Err(Failure::Other(too_blank())),
            Waited::Got(Read1::End) | Waited::Closed => {
                Err(Failure::Ended(self.exited_why(deadline, stop)))
            }
            Waited::Stopped => {
                end(&mut self.child);
                Err(Failure::Interrupted)
            }
            Waited::Late => {
                end(&mut self.child);
                Err(Failure::Other(no_answer(timeout, &self.stderr)))
            }
        }
    }

    /// Why standard output closed: the exit status, waited for until `deadline` (at least a
    /// moment), with the end of standard error.
    fn exited_why(&mut self, deadline: Instant, stop: &Stop<'_>) -> String {
        let until = deadline.max(Instant::now() + Duration::from_millis(500));
        let status = wait_until(&mut self.child, until, stop);
        // The standard-error thread may still be reading the last of it.
        thread::sleep(Duration::from_millis(20));
        let how = match status {
            Some(s) => format!("it ended ({s}) without answering"),
            None => "it closed its standard output without answering".into(),
        };
        format!("{how}{}", tail_text(&self.stderr))
    }
}

fn wait_until(
    child: &mut Child,
    until: Instant,
    stop: &Stop<'_>,
) -> Option<std::process::ExitStatus> {
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return Some(s),
            Ok(None) if Instant::now() < until && !stop.now() => {
                thread::sleep(Duration::from_millis(5));
            }
            _ => return None,
        }
    }
}

/// A duration in words: `5 s`, `0.2 s`.
pub fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// Runs the program once: `request` on its standard input (then closed), its whole standard
/// output back; a non-zero exit is an error. The program's group is ended when it is done (or
/// late, or interrupted by `stop`).
pub(super) fn once(p: &Program, request: &[u8], stop: &Stop<'_>) -> Result<String, Failure> {
    let deadline = Instant::now() + p.timeout;
    let mut child = start(p).map_err(Failure::Other)?;
    let stderr = spawn_stderr(&mut child);
    let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
        (Some(i), Some(o)) => (i, o),
        _ => {
            end(&mut child);
            return Err(Failure::Other(
                "its standard streams could not be opened".into(),
            ));
        }
    };
    let mut bytes = request.to_vec();
    bytes.push(b'\n');
    let mut stdin = stdin;
    thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
        // Dropping stdin closes it: the program sees the end of its input.
    });
    let (tx, rx) = mpsc::sync_channel(1);
    thread::spawn(move || {
        let mut buf = Vec::new();
        let read = stdout.take(MAX_ANSWER + 1).read_to_end(&mut buf);
        let _ = tx.send(match read {
            Err(_) => Read1::End,
            Ok(_) if buf.len() as u64 > MAX_ANSWER => Read1::TooLong,
            Ok(_) => text_of(buf),
        });
    });
    let out = match wait(&rx, deadline, stop) {
        Waited::Got(r) => r,
        Waited::Closed => Read1::End,
        Waited::Stopped => {
            end(&mut child);
            return Err(Failure::Interrupted);
        }
        Waited::Late => {
            end(&mut child);
            return Err(Failure::Other(no_answer(p.timeout, &stderr)));
        }
    };
    // What it wrote decides first: an answer cut at the limit is too long, whatever the exit
    // status (a program whose output is no longer read may die of a closed pipe).
    match out {
        Read1::TooLong => {
            end(&mut child);
            return Err(Failure::Other(too_long()));
        }
        Read1::NotUtf8 => {
            end(&mut child);
            return Err(Failure::Other(
                "it wrote an answer that is not UTF-8".into(),
            ));
        }
        _ => {}
    }
    let until = deadline.max(Instant::now() + Duration::from_millis(500));
    let status = wait_until(&mut child, until, stop);
    end(&mut child);
    thread::sleep(Duration::from_millis(5));
    match (out, status) {
        (_, Some(s)) if !s.success() => Err(Failure::Ended(format!(
            "it ended ({s}){}",
            tail_text(&stderr)
        ))),
        (Read1::Text(s), _) if s.trim().is_empty() => Err(Failure::Ended(format!(
            "it ended without answering{}",
            tail_text(&stderr)
        ))),
        (Read1::Text(s), _) => Ok(s),
        (Read1::NotUtf8, _) => Err(Failure::Other(
            "it wrote an answer that is not UTF-8".into(),
        )),
        (Read1::TooLong | Read1::Blank, _) => Err(Failure::Other(too_long())),
        (Read1::End, _) => Err(Failure::Other(format!(
            "its standard output could not be read{}",
            tail_text(&stderr)
        ))),
    }
}
