//! Helpers shared by the tests: hermetic folders, an app on a scenario, a scripted run on a
//! `TestBackend`, the screen as text, and the real binary run with its output.

#![allow(dead_code)]

pub mod positions;

use std::path::{Path, PathBuf};

use dipsandbox::tui::app::App;
use dipsandbox::tui::browser::Folders;
use dipsandbox::tui::event::Script;
use dipsandbox::tui::run_app;
use dipsandbox::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

/// An empty folder of the test's own under the target's temp folder.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tui-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Folders that keep the tests hermetic: the bundled scenarios, and empty user, config and
/// pictures folders of the test's own.
pub fn folders(name: &str) -> Folders {
    Folders {
        bundled: Some(PathBuf::from("scenarios")),
        user: Some(temp_dir(&format!("{name}-data"))),
        config: Some(temp_dir(&format!("{name}-config"))),
        recovery: Some(temp_dir(&format!("{name}-recovery"))),
        pictures: Some(temp_dir(&format!("{name}-pictures"))),
    }
}

pub fn app(file: Option<&str>, name: &str) -> App {
    let mut a = App::open(file.map(Path::new), None, folders(name)).expect("scenario opens");
    a.theme = Theme::new(true);
    a
}

/// Runs a script of keys and returns the last frame.
pub fn run(app: &mut App, w: u16, h: u16, keys: &str) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    run_app(&mut terminal, app, &mut Script::keys(keys)).expect("session runs");
    terminal.backend().buffer().clone()
}

/// Draws one frame of the app as the main loop does, and returns it.
pub fn draw(app: &mut App, w: u16, h: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    dipsandbox::tui::draw_frame(&mut terminal, app).expect("draws");
    terminal.backend().buffer().clone()
}

pub fn text(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        for x in 0..buf.area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Runs a script and returns the last frame.
pub fn run_script(app: &mut App, w: u16, h: u16, script: Script) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    run_app(&mut terminal, app, &mut { script }).expect("session runs");
    terminal.backend().buffer().clone()
}

/// Selects a province by name (`/` then its name), as a user would.
pub fn goto(name: &str) -> Script {
    Script::keys("/").and_text(name).and_keys("enter")
}

/// Writes an order for the unit on the selected province through the order editor.
pub fn order(province: &str, text: &str) -> Script {
    goto(province)
        .and_keys("i")
        .and_text(text)
        .and_keys("enter")
}

/// Runs the real binary: exit status, stdout, stderr.
pub fn dipsandbox(args: &[&str]) -> (i32, String, String) {
    dipsandbox_in(Path::new("."), args)
}

/// Runs the real binary in the folder `dir`: exit status, stdout, stderr.
pub fn dipsandbox_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dipsandbox"))
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every `.ron` file under `dir`, in sorted order (folders walked depth first).
pub fn ron_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            ron_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "ron") {
            out.push(p);
        }
    }
}

/// The first line of a `versus` class file comparing the decision engine with DPjudge.
pub const VERSUS_LINE: &str =
    "// dipsandbox versus decisions dpjudge --seed 1 --mix paradox: position 7\n";

/// A `versus` class file `class.ron` in `dir`: `header` (comment lines, each ending in a line
/// break) above DATC 6.F.16.
pub fn versus_class_file(dir: &Path, header: &str) -> PathBuf {
    let body = std::fs::read_to_string("scenarios/datc/6.F.16.ron").expect("case");
    let file = dir.join("class.ron");
    std::fs::write(&file, format!("{header}{body}")).expect("write");
    file
}
