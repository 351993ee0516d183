//! Running the outside program: spawning it with piped standard streams, writing a request,
//! reading its answer within a deadline, and killing it when it hangs. The pipes are served by
//! threads (a writer, a line reader, a standard-error tail), so a program that stops reading or
//! writing never blocks dipsandbox: the deadline is a channel's receive timeout.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::base::text::cut;

/// The longest answer read (a line in line mode, the whole output in one-shot mode).
pub const MAX_ANSWER: u64 = 256 * 1024 * 1024;

/// How many bytes of the program's standard error are kept for messages.
const STDERR_TAIL: usize = 2000;

/// What the reader thread saw.
enum Read1 {
    /// One line (line mode) or the whole output (one-shot mode).
    Text(String),
    /// Output that is not UTF-8.
    NotUtf8,
    /// More than [`MAX_ANSWER`] bytes without an end.
    TooLong,
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

/// A running program of line mode.
pub(super) struct Live {
    child: Child,
    requests: Sender<Vec<u8>>,
    answers: Receiver<Read1>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl Drop for Live {
    fn drop(&mut self) {
        // Closing standard input asks a well-behaved program to end; it is killed in any case
        // so that no process outlives its engine.
        let _ = self.child.kill();
        let _ = self.child.wait();
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

fn start(p: &Program) -> Result<Child, String> {
    Command::new(&p.program)
        .args(&p.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", cut(&p.program)))
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

impl Live {
    /// Starts the program in line mode.
    pub(super) fn start(p: &Program) -> Result<Live, String> {
        let mut child = start(p)?;
        let stderr = spawn_stderr(&mut child);
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("its standard streams could not be opened".into());
            }
        };
        let requests = writer(stdin);
        let (tx, answers) = mpsc::channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match (&mut r).take(MAX_ANSWER + 1).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Read1::End);
                        break;
                    }
                    Ok(_) if buf.last() != Some(&b'\n') && buf.len() as u64 > MAX_ANSWER => {
                        let _ = tx.send(Read1::TooLong);
                        break;
                    }
                    Ok(_) => {
                        if tx.send(text_of(buf)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Live {
            child,
            requests,
            answers,
            stderr,
        })
    }

    /// Whether the process has ended (it may end after an answer; the next phase starts a new
    /// one).
    pub(super) fn ended(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Writes one request line and reads one answer line (blank lines are skipped). An error
    /// leaves the process in a state that must not be reused: the caller drops it.
    pub(super) fn exchange(&mut self, line: &[u8], timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        // A writer that has gone means the program closed its standard input: reading tells why.
        let _ = self.requests.send(bytes);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.answers.recv_timeout(left) {
                Ok(Read1::Text(s)) if s.trim().is_empty() => continue,
                Ok(Read1::Text(s)) => return Ok(s),
                Ok(Read1::NotUtf8) => return Err("it wrote an answer that is not UTF-8".into()),
                Ok(Read1::TooLong) => {
                    return Err(format!("it wrote an answer longer than {MAX_ANSWER} bytes"));
                }
                Ok(Read1::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.exited_why(deadline));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return Err(format!(
                        "no answer within {} (the process was killed){}",
                        seconds(timeout),
                        tail_text(&self.stderr)
                    ));
                }
            }
        }
    }

    /// Why standard output closed: the exit status, waited for until `deadline` (at least a
    /// moment), with the end of standard error.
    fn exited_why(&mut self, deadline: Instant) -> String {
        let until = deadline.max(Instant::now() + Duration::from_millis(500));
        let status = wait_until(&mut self.child, until);
        // The standard-error thread may still be reading the last of it.
        thread::sleep(Duration::from_millis(20));
        let how = match status {
            Some(s) => format!("it ended ({s}) without answering"),
            None => "it closed its standard output without answering".into(),
        };
        format!("{how}{}", tail_text(&self.stderr))
    }
}

fn wait_until(child: &mut Child, until: Instant) -> Option<std::process::ExitStatus> {
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return Some(s),
            Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
            _ => return None,
        }
    }
}

/// A duration in words: `5 s`, `0.2 s`.
pub fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// Runs the program once: `request` on its standard input (then closed), its whole standard
/// output back; a non-zero exit is an error.
pub(super) fn once(p: &Program, request: &[u8]) -> Result<String, String> {
    let deadline = Instant::now() + p.timeout;
    let mut child = start(p)?;
    let stderr = spawn_stderr(&mut child);
    let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
        (Some(i), Some(o)) => (i, o),
        _ => {
            let _ = child.kill();
            let _ = child.wait();
            return Err("its standard streams could not be opened".into());
        }
    };
    let mut bytes = request.to_vec();
    bytes.push(b'\n');
    let mut stdin = stdin;
    thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
        // Dropping stdin closes it: the program sees the end of its input.
    });
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut buf = Vec::new();
        let read = stdout.take(MAX_ANSWER + 1).read_to_end(&mut buf);
        let _ = tx.send(match read {
            Err(_) => Read1::End,
            Ok(_) if buf.len() as u64 > MAX_ANSWER => Read1::TooLong,
            Ok(_) => text_of(buf),
        });
    });
    let left = deadline.saturating_duration_since(Instant::now());
    let out = match rx.recv_timeout(left) {
        Ok(r) => r,
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "no answer within {} (the process was killed){}",
                seconds(p.timeout),
                tail_text(&stderr)
            ));
        }
    };
    let until = deadline.max(Instant::now() + Duration::from_millis(500));
    let status = wait_until(&mut child, until);
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    thread::sleep(Duration::from_millis(5));
    match (out, status) {
        (_, Some(s)) if !s.success() => Err(format!("it ended ({s}){}", tail_text(&stderr))),
        (Read1::Text(s), _) if s.trim().is_empty() => {
            Err(format!("it ended without answering{}", tail_text(&stderr)))
        }
        (Read1::Text(s), _) => Ok(s),
        (Read1::NotUtf8, _) => Err("it wrote an answer that is not UTF-8".into()),
        (Read1::TooLong, _) => Err(format!("it wrote an answer longer than {MAX_ANSWER} bytes")),
        (Read1::End, _) => Err(format!(
            "its standard output could not be read{}",
            tail_text(&stderr)
        )),
    }
}
