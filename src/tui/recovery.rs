//! Nothing lost: unsaved edits are written to a recovery file right after each change (and on
//! SIGTERM, SIGHUP and panic), so that even a SIGKILL or a power cut loses at most the text of
//! an open prompt. The next start offers the newest recovery file back.
//!
//! A recovery file is a scenario file with two comment lines on top, so it loads like any other:
//!
//! ```text
//! // dipsandbox recovery of /home/me/scenarios/mine.ron
//! // process 4242
//! Scenario( … )
//! ```
//!
//! Each process writes its own `recovery-<pid>.ron`; files of processes still running (as far as
//! the platform can tell) are not offered.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::scenario::{Scenario, write_atomic};

const HEADER: &str = "// dipsandbox recovery of ";
const NEW: &str = "a new scenario";

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
    /// The file the edits were made to (None: a new or built-in scenario).
    pub source: Option<PathBuf>,
    /// When it was written.
    pub modified: Option<SystemTime>,
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
        source: Option<&Path>,
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

/// Writes a recovery file for `scenario`, made from `source`.
pub fn write(file: &Path, scenario: &Scenario, source: Option<&Path>) -> Result<(), String> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create the folder: {e}", dir.display()))?;
    }
    let from = source.map_or(NEW.to_string(), |p| {
        std::path::absolute(p)
            .unwrap_or_else(|_| p.to_path_buf())
            .display()
            .to_string()
    });
    let text = format!(
        "{HEADER}{from}\n// process {}\n{}",
        std::process::id(),
        scenario.placed_at(file).to_ron()
    );
    write_atomic(file, &text).map_err(|e| e.to_string())
}

/// The newest recovery file in `dir` left by a process that is no longer running.
pub fn find(dir: &Path) -> Option<Found> {
    let rd = std::fs::read_dir(dir).ok()?;
    let mut found: Vec<Found> = Vec::new();
    for e in rd.flatten() {
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
        let source = find_source(&path);
        let modified = e.metadata().and_then(|m| m.modified()).ok();
        found.push(Found {
            path,
            source,
            modified,
        });
    }
    found.sort_by_key(|f| f.modified);
    found.pop()
}

/// The file a recovery file's edits were made to, from its first line.
pub fn find_source(file: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(file).ok()?;
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix(HEADER))
        .filter(|s| *s != NEW)
        .map(PathBuf::from)
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
    match s {
        0..=59 => "less than a minute ago".into(),
        60..=3599 => format!("{} minute(s) ago", s / 60),
        3600..=86_399 => format!("{} hour(s) ago", s / 3600),
        _ => format!("{} day(s) ago", s / 86_400),
    }
}
