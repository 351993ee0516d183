//! Finding positions in source text, for error messages that name file, line and column.
//!
//! serde does not give positions for values that parsed fine but are wrong (an unknown province in
//! an order string, an asymmetric border). The [`Locator`] finds such values in the original text,
//! searching forward from a cursor so that repeated values are found in file order.

use crate::base::position::SourcePos;

/// Finds text in a source file and turns byte offsets into line/column positions.
#[derive(Clone, Debug)]
pub struct Locator<'a> {
    text: &'a str,
    file: &'a str,
    cursor: usize,
    /// Searches that found nothing (a value written with escapes is not found verbatim): each
    /// scans the rest of the text, so after [`MAX_MISSES`] of them a missing value is no longer
    /// searched for (it is located at the cursor), which keeps locating linear in the text.
    misses: usize,
    /// When false, [`Locator::seek`] and [`Locator::next_literal`] search nothing (positions
    /// are then meaningless): for a first pass whose errors are located by a second one.
    searching: bool,
}

/// How many searches may scan the whole rest of the text in vain.
const MAX_MISSES: usize = 64;

impl<'a> Locator<'a> {
    /// A locator over `text`, which was read from `file`.
    pub fn new(text: &'a str, file: &'a str) -> Self {
        Locator {
            text,
            file,
            cursor: 0,
            misses: 0,
            searching: true,
        }
    }

    /// A locator that searches nothing: the cursor stays at the start, so positions it gives
    /// are wrong. For a fast first pass over input that is usually valid, whose errors are
    /// located by running the pass again with [`Locator::new`].
    pub fn quiet(text: &'a str, file: &'a str) -> Self {
        Locator {
            searching: false,
            ..Locator::new(text, file)
        }
    }

    /// Whether it searches (false for [`Locator::quiet`]).
    pub fn is_searching(&self) -> bool {
        self.searching
    }

    /// The position of byte `offset` (1-based line and column, columns counted in characters).
    pub fn pos(&self, offset: usize) -> SourcePos {
        let offset = offset.min(self.text.len());
        let before = &self.text[..floor_char_boundary(self.text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let col = before[line_start..].chars().count() + 1;
        SourcePos {
            file: self.file.to_string(),
            line,
            col,
        }
    }

    /// Position of the first `needle` after the first `anchor` (or after the start when the anchor
    /// is absent); the anchor's position, or the file start, when the needle is not found.
    pub fn find_after(&self, needle: &str, anchor: &str) -> SourcePos {
        let base = self.text.find(anchor).unwrap_or(0);
        match self.text[base..].find(needle) {
            Some(i) => self.pos(base + i),
            None => self.pos(base),
        }
    }

    /// Moves the cursor to just after the first `anchor` at or after the cursor; returns whether
    /// it was found (the cursor stays put otherwise).
    pub fn seek(&mut self, anchor: &str) -> bool {
        if !self.searching {
            return true;
        }
        match self.text[self.cursor..].find(anchor) {
            Some(i) => {
                self.cursor += i + anchor.len();
                true
            }
            None => false,
        }
    }

    /// Byte offset of the next string literal whose content is exactly `content`, at or after the
    /// cursor; the cursor moves past it. Falls back to the cursor when not found (a value
    /// written with escapes); after many such misses, without searching.
    #[inline]
    pub fn next_literal(&mut self, content: &str) -> usize {
        if !self.searching {
            return self.cursor;
        }
        self.search_literal(content)
    }

    /// [`Locator::next_literal`] when searching.
    fn search_literal(&mut self, content: &str) -> usize {
        let quoted = format!("\"{content}\"");
        let rest = &self.text[self.cursor..];
        if self.misses >= MAX_MISSES {
            // Only a nearby occurrence, which a value that is there verbatim has.
            let window = floor_char_boundary(rest, (quoted.len() * 4).max(4096).min(rest.len()));
            return match rest[..window].find(&quoted) {
                Some(i) => {
                    let at = self.cursor + i;
                    self.cursor = at + quoted.len();
                    at
                }
                None => self.cursor,
            };
        }
        match rest.find(&quoted) {
            Some(i) => {
                let at = self.cursor + i;
                self.cursor = at + quoted.len();
                at
            }
            None => {
                self.misses += 1;
                self.cursor
            }
        }
    }

    /// The current cursor offset.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Resets the cursor to an offset.
    pub fn set_cursor(&mut self, offset: usize) {
        self.cursor = offset.min(self.text.len());
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The largest text file read: scenarios, maps, jDip suites and pairing files are far smaller
/// (the DATC v2.4 suite is 130 KB); anything larger is refused before it is read.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Why a text file could not be read.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum ReadError {
    /// The operating system refused (no such file, no permission…).
    #[error("{file}: cannot read: {message}")]
    Io {
        /// The file.
        file: String,
        /// The operating system's message.
        message: String,
    },
    /// Not a regular file (a folder, FIFO, device): reading it might never end.
    #[error("{file}: cannot read: it is {what}, not a file")]
    NotAFile {
        /// The file.
        file: String,
        /// What it is.
        what: &'static str,
    },
    /// Larger than [`MAX_FILE_BYTES`].
    #[error("{file}: cannot read: {size} bytes is more than the {limit} a file may have")]
    TooLarge {
        /// The file.
        file: String,
        /// Its size (at least).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// Not UTF-8 text: where the first bad byte is.
    #[error(
        "{pos}: not UTF-8 text: byte 0x{byte:02x} cannot start or continue a character; expected UTF-8 text"
    )]
    NotUtf8 {
        /// Where.
        pos: SourcePos,
        /// The offending byte.
        byte: u8,
    },
}

/// A file named inside another file (a jDip variant's adjacency file, a DPjudge map's `USE`, a
/// versus summary's class files) that may not be read: it would lead out of the named file's
/// folder. The one rule for such names: a relative path of plain names, inside the folder,
/// never through `..`, an absolute path or a symbolic link that leads out.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "{what} `{name}`: only a file inside {dir} is read ({why}); nothing outside the folder of the file you named is opened"
)]
pub struct OutsideError {
    /// What names it (`USE`, `adjacencyURI`, `file`).
    pub what: String,
    /// The name, cut and escaped for the message.
    pub name: String,
    /// The folder it must stay in.
    pub dir: String,
    /// Why it is refused.
    pub why: &'static str,
}

/// The path of `name`, a file that a file in `dir` names, if it lies inside `dir`: `name` must
/// be relative, made of plain names (no `..`, no root, no drive), and its real path (symbolic
/// links followed, when it exists) inside the real path of `dir`. `what` names the field for the
/// message (`USE`, `adjacencyURI`); the caller says where it was read. A name that does not
/// exist is returned joined (reading it then says it is missing).
pub fn inside(
    dir: &std::path::Path,
    name: &str,
    what: &str,
) -> Result<std::path::PathBuf, OutsideError> {
    use std::path::{Component, Path};
    let refuse = |why: &'static str| OutsideError {
        what: what.to_string(),
        name: crate::base::text::cut(name),
        dir: if dir.as_os_str().is_empty() {
            "its folder".to_string()
        } else {
            crate::base::text::cut(&dir.display().to_string())
        },
        why,
    };
    if name.trim().is_empty() {
        return Err(refuse("the name is empty"));
    }
    if name.chars().any(char::is_control) {
        return Err(refuse("the name holds a control character"));
    }
    let rel = Path::new(name);
    for c in rel.components() {
        match c {
            Component::Normal(_) | Component::CurDir => {}
            Component::ParentDir => return Err(refuse("it goes up through `..`")),
            Component::RootDir | Component::Prefix(_) => {
                return Err(refuse("it is an absolute path"));
            }
        }
    }
    let joined = dir.join(rel);
    // A link anywhere on the way (the file itself, or a folder under `dir`) may lead out: the
    // real paths decide.
    if std::fs::symlink_metadata(&joined).is_ok() {
        let base = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        match (base.canonicalize(), joined.canonicalize()) {
            (Ok(b), Ok(j)) if j.starts_with(&b) => {}
            (Ok(_), Ok(_)) => return Err(refuse("a symbolic link leads out of the folder")),
            // A dangling link: where it leads cannot be checked.
            _ => return Err(refuse("it is a symbolic link that leads nowhere")),
        }
    }
    Ok(joined)
}

/// Reads a text file with the checks every loader needs: a regular file (a FIFO or a device such
/// as `/dev/zero` is refused before it is opened for reading), at most [`MAX_FILE_BYTES`] (also
/// when the file grows while it is read), and UTF-8 (the first bad byte is located by line and
/// column).
pub fn read_text(path: &std::path::Path) -> Result<String, ReadError> {
    read_text_limited(path, MAX_FILE_BYTES)
}

/// [`read_text`] with another size limit (smaller files such as `keys.ron` have smaller ones).
pub fn read_text_limited(path: &std::path::Path, limit: u64) -> Result<String, ReadError> {
    use std::io::Read;
    let (file, opened, size) = open_regular(path)?;
    if size > limit {
        return Err(ReadError::TooLarge { file, size, limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    opened
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(&file, &e))?;
    decode(bytes, file, limit)
}

/// The start of a text file, for a preview: at most `limit` bytes of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// The text read (cut at a character boundary when the file goes on).
    pub text: String,
    /// The file's size in bytes (as the system gave it when it was opened).
    pub size: u64,
    /// Whether `text` is the whole file.
    pub whole: bool,
}

/// Reads at most `limit` bytes from the start of a text file, with the checks of [`read_text`]
/// (a regular file; UTF-8, except that a character cut by the limit is dropped). Never reads
/// more than `limit + 1` bytes however large the file is.
pub fn read_head(path: &std::path::Path, limit: u64) -> Result<Head, ReadError> {
    use std::io::Read;
    let (file, opened, size) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(size.min(limit)).unwrap_or(0));
    opened
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(&file, &e))?;
    let whole = bytes.len() as u64 <= limit;
    if !whole {
        bytes.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        // A character cut in two by the limit is not an encoding error: drop its first bytes.
        if let Err(e) = std::str::from_utf8(&bytes)
            && e.error_len().is_none()
        {
            bytes.truncate(e.valid_up_to());
        }
    }
    let text = decode(bytes, file, limit)?;
    Ok(Head {
        text,
        size: size.max(limit.saturating_add(u64::from(!whole))),
        whole,
    })
}

fn io_error(file: &str, e: &std::io::Error) -> ReadError {
    ReadError::Io {
        file: file.to_string(),
        message: e.to_string(),
    }
}

/// Opens a file for reading if it is a regular file (checked before it is opened, so that a
/// FIFO does not block the open, and again on the opened file, in case it was replaced in
/// between): its name for messages, the open file and its size.
fn open_regular(path: &std::path::Path) -> Result<(String, std::fs::File, u64), ReadError> {
    let file = path.display().to_string();
    let not_a_file = |meta: &std::fs::Metadata, file: String| {
        let what = if meta.is_dir() {
            "a folder"
        } else {
            "a FIFO, socket or device"
        };
        ReadError::NotAFile { file, what }
    };
    let meta = std::fs::metadata(path).map_err(|e| io_error(&file, &e))?;
    if !meta.is_file() {
        return Err(not_a_file(&meta, file));
    }
    let opened = std::fs::File::open(path).map_err(|e| io_error(&file, &e))?;
    let meta = opened.metadata().map_err(|e| io_error(&file, &e))?;
    if !meta.is_file() {
        return Err(not_a_file(&meta, file));
    }
    Ok((file, opened, meta.len()))
}

/// Reads standard input as text (named `<stdin>` in messages), with the limits of
/// [`read_text`].
pub fn read_stdin() -> Result<String, ReadError> {
    use std::io::Read;
    let file = "<stdin>".to_string();
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(&file, &e))?;
    decode(bytes, file, MAX_FILE_BYTES)
}

/// Bytes read from `file` as text: at most `limit`, UTF-8 (else the first bad byte, located).
fn decode(bytes: Vec<u8>, file: String, limit: u64) -> Result<String, ReadError> {
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            file,
            size: bytes.len() as u64,
            limit,
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let bytes = e.into_bytes();
        let byte = bytes.get(good).copied().unwrap_or(0);
        // The valid prefix locates the bad byte: its line, and the column after the last good
        // character.
        let text = String::from_utf8_lossy(bytes.get(..good).unwrap_or(&bytes));
        ReadError::NotUtf8 {
            pos: Locator::new(&text, &file).pos(good),
            byte,
        }
    })
}

/// Text as the readers take it: a UTF-8 byte-order mark at the start left out, and old Mac line
/// ends (a `\r` alone) read as `\n`; `\r\n` stays (`str::lines` ends a line there). Byte
/// offsets after the mark are unchanged, so positions found in the result are the file's.
pub fn normalized(text: &str) -> std::borrow::Cow<'_, str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bytes = text.as_bytes();
    let lone_cr = memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) != Some(&b'\n'));
    if !lone_cr {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(bytes.len());
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            out.push(b'\n');
        } else {
            out.push(b);
        }
    }
    // Only ASCII `\r` bytes were replaced by ASCII `\n`: still UTF-8.
    std::borrow::Cow::Owned(
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    )
}
