//! Nothing lost: unsaved edits are written to a recovery file right after each change (and on
//! SIGTERM, SIGHUP and panic), so that even a SIGKILL or a power cut loses at most the text of
//! an open prompt. The next start offers the newest recovery file back.
//!
//! A recovery file is a scenario file with comment lines on top, so it loads like any other:
//!
//! ```text
//! // dipsandbox recovery of /home/me/scenarios/mine.ron
//! // process 4242
//! // as on disk: 1712345678.123456789 s, 2345 bytes
//! Scenario( … )
//! ```
//!
//! The third line is the named file as the edits knew it (when it was opened or last saved), so
//! that a newer version on disk is noticed when the restored edits are saved.
//!
//! Each process writes its own `recovery-<pid>.ron`; files of processes still running (as far as
//! the platform can tell) are not offered. Only regular files are read (a FIFO or a link to a
//! device in the folder is passed over), and only the first [`HEADER_BYTES`] of a file for its
//! header.
//!
//! What a recovery file says is not trusted: whoever can write the folder can write one. The
//! file it names is shown in the restore question, and the edits go back to that file only when
//! it is a scenario file (it loads as one) and the user says so; otherwise they come back as a
//! new, unsaved scenario.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::session::DiskStamp;
use dipsandbox_core::model::scenario::Scenario;

const HEADER: &str = "// dipsandbox recovery of ";
const NEW: &str = "a new scenario";
const STAMP: &str = "// as on disk: ";

/// How much of a recovery file is read for its header (the named path is at most a few KB on
/// any system).
pub const HEADER_BYTES: u64 = 8 * 1024;

/// This process's recovery file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recovery {
    /// The folder recovery files go in (None: recovery is off).
    pub dir: Option<PathBuf>,
    /// The session generation last written (or removed for).
    pub written: Option<u64>,
}

/// A recovery file found at start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The recovery file.
    pub path: PathBuf,
    /// What its header says.
    pub header: Header,
    /// When it was written.
    pub modified: Option<SystemTime>,
}

/// What a recovery file's header says. Untrusted: see the module's documentation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// The file the edits were made to, as named (None: a new or built-in scenario, or a header
    /// that could not be read).
    pub source: Option<PathBuf>,
    /// That file as the edits knew it (None: not recorded, e.g. by an older version).
    pub stamp: Option<DiskStamp>,
}

impl Recovery {
    /// Recovery in a folder.
    pub fn new(dir: Option<PathBuf>) -> Recovery {
        Recovery { dir, written: None }
    }

    /// This process's file.
    pub fn file(&self) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("recovery-{}.ron", std::process::id())))
    }

    /// Brings the recovery file up to date with generation `generation` of the session: writes
    /// the scenario when it has unsaved edits, removes the file when it has none.
    pub fn sync(
        &mut self,
        generation: u64,
        dirty: bool,
        scenario: &Scenario,
        source: Option<(&Path, Option<DiskStamp>)>,
    ) -> Result<(), String> {
        if self.written == Some(generation) {
            return Ok(());
        }
        self.written = Some(generation);
        let Some(file) = self.file() else {
            return Ok(());
        };
        if dirty {
            write(&file, scenario, source)
        } else {
            remove(&file);
            Ok(())
        }
    }

    /// Removes this process's file (after a save, or when the user chose to drop the edits).
    pub fn clear(&mut self) {
        if let Some(f) = self.file() {
            remove(&f);
        }
    }
}

fn remove(file: &Path) {
    let _ = std::fs::remove_file(file);
}

/// Writes a recovery file for `scenario`, made from `source` (the file and how it was on disk
/// when it was opened or last saved).
pub fn write(
    file: &Path,
    scenario: &Scenario,
    source: Option<(&Path, Option<DiskStamp>)>,
) -> Result<(), String> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create the folder: {e}", dir.display()))?;
    }
    // A path that cannot be written on one line (a newline in a file name) is not recorded:
    // the edits then come back as a new scenario.
    let named = source.and_then(|(p, stamp)| {
        let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let text = abs.to_str()?.to_string();
        (!text.contains(['\n', '\r'])).then_some((text, stamp))
    });
    let mut header = format!(
        "{HEADER}{}\n// process {}\n",
        named.as_ref().map_or(NEW, |(p, _)| p.as_str()),
        std::process::id(),
    );
    if let Some((_, Some(stamp))) = &named {
        header.push_str(&format!("{STAMP}{}\n", stamp.to_text()));
    }
    scenario
        .save_below(file, &header)
        .map_err(|e| e.to_string())
}

/// The newest recovery file in `dir` left by a process that is no longer running.
pub fn find(dir: &Path) -> Option<Found> {
    let rd = std::fs::read_dir(dir).ok()?;
    let mut found: Vec<Found> = Vec::new();
    for e in rd.flatten() {
        // Only regular files: a FIFO would block the read, a link could lead to a device.
        if !e.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let path = e.path();
        let name = path.file_name()?.to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix("recovery-")
            .and_then(|r| r.strip_suffix(".ron"))
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == std::process::id() || running(pid) {
            continue;
        }
        let header = read_header(&path);
        let modified = e.metadata().and_then(|m| m.modified()).ok();
        found.push(Found {
            path,
            header,
            modified,
        });
    }
    found.sort_by_key(|f| f.modified);
    found.pop()
}

/// A recovery file's header, from its first [`HEADER_BYTES`] (a file that cannot be read, or
/// whose lines are not complete there, names no file).
pub fn read_header(file: &Path) -> Header {
    let Ok(head) = dipsandbox_core::base::source::read_head(file, HEADER_BYTES) else {
        return Header::default();
    };
    parse_header(&head.text)
}

/// The header of a recovery file's text (only complete lines count).
pub fn parse_header(text: &str) -> Header {
    let mut lines = text
        .split_inclusive('\n')
        .take(4)
        .filter(|l| l.ends_with('\n'));
    let source = lines
        .next()
        .and_then(|l| l.trim_end_matches(['\n', '\r']).strip_prefix(HEADER))
        .filter(|s| *s != NEW && !s.is_empty())
        .map(PathBuf::from);
    if source.is_none() {
        return Header::default();
    }
    let stamp = lines
        .find_map(|l| l.trim_end_matches(['\n', '\r']).strip_prefix(STAMP))
        .and_then(DiskStamp::from_text);
    Header { source, stamp }
}

/// Whether a process is running, where the platform tells (`/proc`); elsewhere, never assumed.
fn running(pid: u32) -> bool {
    let proc = Path::new("/proc");
    proc.join("self").exists() && proc.join(pid.to_string()).exists()
}

/// "3 minutes ago", for the restore question.
pub fn age(t: Option<SystemTime>) -> String {
    let Some(d) = t.and_then(|t| SystemTime::now().duration_since(t).ok()) else {
        return "recently".into();
    };
    let s = d.as_secs();
    let (n, unit) = match s {
        0..=59 => return "less than a minute ago".into(),
        60..=3599 => (s / 60, "minute"),
        3600..=86_399 => (s / 3600, "hour"),
        _ => (s / 86_400, "day"),
    };
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    format!("{} ago", dipsandbox_core::base::text::count(n, unit))
}
