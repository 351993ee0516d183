//! The scenario browser's data: the bundled `scenarios/` tree and the user's scenario folder,
//! a filter typed by the user, and a preview of the highlighted file.

use std::path::{Path, PathBuf};

use crate::scenario::Scenario;

/// Where the browser looks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Folders {
    /// The bundled scenarios (`./scenarios`, else the source tree's).
    pub bundled: Option<PathBuf>,
    /// The user's scenario folder (`$DIPSANDBOX_DATA_DIR`, else the platform data folder).
    pub user: Option<PathBuf>,
    /// The user's config folder (`$DIPSANDBOX_CONFIG_DIR`, else the platform config folder).
    pub config: Option<PathBuf>,
    /// Where recovery files go (`$DIPSANDBOX_DATA_DIR/.recovery`, else `recovery` in the
    /// platform data folder).
    pub recovery: Option<PathBuf>,
}

impl Folders {
    /// The folders from the environment and the platform's conventions.
    pub fn from_env() -> Folders {
        let proj = directories::ProjectDirs::from("", "", "dipsandbox");
        let env_dir = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let data = env_dir("DIPSANDBOX_DATA_DIR");
        let recovery = match &data {
            Some(d) => Some(d.join(".recovery")),
            None => proj.as_ref().map(|p| p.data_dir().join("recovery")),
        };
        let user = data.or_else(|| proj.as_ref().map(|p| p.data_dir().join("scenarios")));
        let config = env_dir("DIPSANDBOX_CONFIG_DIR")
            .or_else(|| proj.as_ref().map(|p| p.config_dir().into()));
        let bundled = [
            PathBuf::from("scenarios"),
            Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"),
        ]
        .into_iter()
        .find(|p| p.is_dir());
        Folders {
            bundled,
            user,
            config,
            recovery,
        }
    }
}

/// One file the browser offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The file.
    pub path: PathBuf,
    /// How it is shown: `bundled: datc/6.F.16.ron`.
    pub label: String,
}

/// A preview of a file: its title, source and phase, or why it does not load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Preview {
    /// It loads.
    Ok {
        /// Title.
        title: String,
        /// Source.
        source: String,
        /// Phase.
        phase: String,
        /// Description.
        description: String,
        /// Number of orders.
        orders: usize,
    },
    /// It does not load: the located error.
    Error(String),
}

/// The browser's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Browser {
    /// Every file found.
    pub entries: Vec<Entry>,
    /// The filter typed so far.
    pub filter: String,
    /// The highlighted row among the filtered entries.
    pub row: usize,
    /// The preview of the highlighted file.
    pub preview: Option<(PathBuf, Preview)>,
}

impl Browser {
    /// Lists the `.ron` files of the folders (sorted naturally, `6.A.2` before `6.A.10`).
    pub fn open(folders: &Folders) -> Browser {
        let mut entries = Vec::new();
        for (tag, dir) in [("bundled", &folders.bundled), ("yours", &folders.user)] {
            let Some(dir) = dir else { continue };
            let mut files = Vec::new();
            collect(dir, &mut files);
            files.sort_by_key(|p| crate::check::natural_key(p));
            for f in files {
                let rel = f.strip_prefix(dir).unwrap_or(&f).display().to_string();
                entries.push(Entry {
                    label: format!("{tag}: {rel}"),
                    path: f,
                });
            }
        }
        let mut b = Browser {
            entries,
            filter: String::new(),
            row: 0,
            preview: None,
        };
        b.update_preview();
        b
    }

    /// The entries that match the filter: every word of it appears in the label (any case).
    pub fn visible(&self) -> Vec<&Entry> {
        let words = super::editor::words(&self.filter);
        self.entries
            .iter()
            .filter(|e| super::editor::matches(&words, &e.label))
            .collect()
    }

    /// The highlighted entry.
    pub fn current(&self) -> Option<&Entry> {
        self.visible().get(self.row).copied()
    }

    /// Moves the highlight by `delta` rows.
    pub fn move_by(&mut self, delta: isize) {
        let n = self.visible().len();
        if n == 0 {
            self.row = 0;
        } else {
            self.row = (self.row as isize + delta).clamp(0, n as isize - 1) as usize;
        }
        self.update_preview();
    }

    /// Types a character into the filter.
    pub fn type_char(&mut self, c: char) {
        self.filter.push(c);
        self.row = 0;
        self.update_preview();
    }

    /// Deletes the last character of the filter.
    pub fn backspace(&mut self) {
        self.filter.pop();
        self.row = 0;
        self.update_preview();
    }

    /// Loads the preview of the highlighted file, if it changed.
    pub fn update_preview(&mut self) {
        let Some(path) = self.current().map(|e| e.path.clone()) else {
            self.preview = None;
            return;
        };
        if self.preview.as_ref().is_some_and(|(p, _)| *p == path) {
            return;
        }
        let preview = match Scenario::load(&path) {
            Ok(s) => Preview::Ok {
                title: s.title.clone(),
                source: s.source.clone(),
                phase: s.phase.to_string(),
                description: s.description.clone(),
                orders: s.orders.len(),
            },
            Err(e) => Preview::Error(e.to_string()),
        };
        self.preview = Some((path, preview));
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    // An explicit stack: no recursion however deep the folders go.
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            let hidden = p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            if hidden {
                // Recovery files and editors' temporary files are not scenarios to offer.
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ron") {
                out.push(p);
            }
        }
    }
}
