//! Standard output that reports its errors instead of panicking.
//!
//! `println!` panics when stdout fails: a reader that closed the pipe (`dipsandbox check … |
//! head`), a full disk (`> /dev/full`). Every command prints through [`outln!`] and [`out!`]
//! instead, which return the failure as a [`StdoutError`]; `main` then ends quietly with status
//! 141 for a closed pipe (as `cat` does, killed by SIGPIPE) and with a one-line message and
//! status 2 for anything else.

use std::fmt;
use std::io::Write;

/// Writing to standard output failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot write to standard output: {0}")]
pub struct StdoutError(pub std::io::Error);

impl From<std::io::Error> for StdoutError {
    fn from(e: std::io::Error) -> Self {
        StdoutError(e)
    }
}

impl StdoutError {
    /// Whether the reader went away (a closed pipe): not an error worth a message.
    pub fn is_closed_pipe(&self) -> bool {
        self.0.kind() == std::io::ErrorKind::BrokenPipe
    }
}

/// Writes formatted text to standard output.
pub fn text(args: fmt::Arguments) -> Result<(), StdoutError> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)?;
    Ok(())
}

/// Writes formatted text and a newline to standard output.
pub fn line(args: fmt::Arguments) -> Result<(), StdoutError> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// Flushes standard output (at the end of a command: a full disk shows here at the latest).
pub fn flush() -> Result<(), StdoutError> {
    std::io::stdout().lock().flush()?;
    Ok(())
}
