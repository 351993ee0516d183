//! Standard output that reports its errors instead of panicking.
//!
//! `println!` panics when stdout fails: a reader that closed the pipe (`dipsandbox check … |
//! head`), a full disk (`> /dev/full`). Every command prints through [`outln!`] and [`out!`]
//! instead, which return the failure as a [`StdoutError`]; `main` then ends quietly with status
//! 141 for a closed pipe (as `cat` does, killed by SIGPIPE) and with a one-line message and
//! status 2 for anything else.
//!
//! Everything printed, on standard output and on standard error, goes through
//! [`dipsandbox_core::base::text::multi_line`]: a control character that came from a file (an ESC sequence
//! in a title, a NUL or BEL in a name) is printed escaped (`\u{1b}`), never raw; line feeds
//! and tabs stay. JSON goes through [`json`], which escapes the same characters the JSON way.
//! Messages on standard error go through [`err_line`] ([`errln!`]), which never panics (as
//! `eprintln!` does when standard error fails).

use std::fmt;
use std::io::Write;

use dipsandbox_core::base::text::is_invisible;

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

/// Formatted text written to `inner` with its control characters escaped (but line feeds and
/// tabs).
struct Escaping<W: Write> {
    inner: W,
    error: Option<std::io::Error>,
}

impl<W: Write> fmt::Write for Escaping<W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let safe = dipsandbox_core::base::text::multi_line(s);
        self.inner.write_all(safe.as_bytes()).map_err(|e| {
            self.error = Some(e);
            fmt::Error
        })
    }
}

/// Writes `args` to `out`, its control characters escaped.
fn write_safe(out: impl Write, args: fmt::Arguments) -> std::io::Result<()> {
    let mut w = Escaping {
        inner: out,
        error: None,
    };
    match fmt::write(&mut w, args) {
        Ok(()) => Ok(()),
        Err(_) => Err(w
            .error
            .unwrap_or_else(|| std::io::Error::other("a value could not be formatted"))),
    }
}

/// Writes formatted text to standard output.
pub fn text(args: fmt::Arguments) -> Result<(), StdoutError> {
    write_safe(std::io::stdout().lock(), args)?;
    Ok(())
}

/// Writes formatted text and a newline to standard output.
pub fn line(args: fmt::Arguments) -> Result<(), StdoutError> {
    let mut out = std::io::stdout().lock();
    write_safe(&mut out, args)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// Writes a JSON document and a newline to standard output. `serde_json` escapes the control
/// characters below U+0020 but not DEL and the C1 controls (U+007F to U+009F), which a terminal
/// obeys as well, nor the invisible ones ([`is_invisible`]: bidirectional overrides,
/// zero-width characters): they are written `\u007f`…`\u009f`, `\u202e` here. They can only stand inside a JSON
/// string, where that escape means the same character: the document stays the same JSON.
pub fn json(doc: &serde_json::Value) -> Result<(), StdoutError> {
    let text = format!("{doc:#}");
    let mut out = std::io::stdout().lock();
    let unsafe_char = |c: char| (c.is_control() && c != '\n') || is_invisible(c);
    if text.chars().any(unsafe_char) {
        let mut safe = String::with_capacity(text.len() + 16);
        for c in text.chars() {
            if unsafe_char(c) {
                use fmt::Write as _;
                let _ = write!(safe, "\\u{:04x}", u32::from(c));
            } else {
                safe.push(c);
            }
        }
        out.write_all(safe.as_bytes())?;
    } else {
        out.write_all(text.as_bytes())?;
    }
    out.write_all(b"\n")?;
    Ok(())
}

/// Writes formatted text and a newline to standard error, its control characters escaped. A
/// failure to write is ignored: there is nowhere left to report it.
pub fn err_line(args: fmt::Arguments) {
    let mut err = std::io::stderr().lock();
    let _ = write_safe(&mut err, args).and_then(|()| err.write_all(b"\n"));
}

/// Flushes standard output (at the end of a command: a full disk shows here at the latest).
pub fn flush() -> Result<(), StdoutError> {
    std::io::stdout().lock().flush()?;
    Ok(())
}
