//! Files: a recovery file's recorded path is untrusted; the browser does not follow
//! symlink loops and its walk is bounded; every file the program reads is a regular file read
//! with a size limit; previews read a bounded prefix; duplicate keys in `keys.ron` are refused
//! with their position.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use common::{dipsandbox, folders, run, run_script, text};
use dipsandbox::tui::app::{App, Pending, Popup};
use dipsandbox::tui::browser::{Browser, Folders, MAX_DEPTH, MAX_FILES, PREVIEW_BYTES, Preview};
use dipsandbox::tui::event::Script;
use dipsandbox::tui::keymap::{Keymap, MAX_KEYS_BYTES};
use dipsandbox::tui::recovery;
use dipsandbox::tui::session::DiskStamp;

/// A fresh folder of this test file's own under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dipsandbox-r2-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

/// Runs `f` in a thread and returns its result, or fails the test when it takes longer than a
/// generous bound (a regression then fails instead of hanging the suite).
fn bounded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("{what}: still running after 60 s (it hangs)"))
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs")
        .success();
    assert!(ok, "mkfifo {}", path.display());
}

/// A scenario's text, for recovery files.
fn scenario_text() -> String {
    std::fs::read_to_string("scenarios/datc/6.A.1.ron").expect("scenario")
}

/// Leaves a recovery file, as a process that has ended would, naming `named` (the header
/// lines as given).
fn leave_recovery(f: &Folders, header: &str) -> PathBuf {
    let dir = f.recovery.clone().expect("recovery folder");
    let file = dir.join("recovery-999999999.ron");
    std::fs::write(&file, format!("{header}{}", scenario_text())).expect("recovery file");
    file
}

fn question(a: &App) -> String {
    match &a.popup {
        Some(Popup::Confirm(q, _)) => q.clone(),
        other => panic!("no question but {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// 1. A recovery file's recorded path is trusted.

#[test]
fn a_recovery_naming_a_text_file_comes_back_as_a_new_scenario_and_ctrl_s_leaves_the_file() {
    let f = folders("r2-rec-text");
    let dir = scratch("rec-text");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes, never a scenario\n").expect("notes");
    leave_recovery(
        &f,
        &format!(
            "// dipsandbox recovery of {}\n// process 999999999\n",
            notes.display()
        ),
    );
    let mut a = App::open(None, None, f.clone()).expect("opens");
    let t = text(&run(&mut a, 120, 40, ""));
    let q = question(&a);
    // The question names the file, and says the edits cannot go back to it.
    assert!(q.contains(&notes.display().to_string()), "{q}");
    assert!(q.contains("not a scenario file"), "{q}");
    assert!(q.contains("new, unsaved scenario"), "{q}");
    assert!(t.contains("notes.txt"), "{t}");
    run(&mut a, 120, 40, "y");
    assert_eq!(a.session.path, None, "restored as a new scenario");
    assert!(a.session.is_dirty());
    assert_eq!(a.session.scenario().source, "DATC v3.0 6.A.1");
    // ctrl-s asks where to save: it does not write over the text file.
    run(&mut a, 120, 40, "ctrl-s");
    assert!(matches!(a.popup, Some(Popup::SaveAs(_))), "{:?}", a.popup);
    assert_eq!(
        std::fs::read_to_string(&notes).expect("notes"),
        "my notes, never a scenario\n"
    );
    a.recovery.clear();
}

#[test]
fn a_recovery_naming_a_missing_file_a_relative_path_or_a_fifo_comes_back_as_new() {
    let dir = scratch("rec-odd");
    let fifo = dir.join("fifo.ron");
    #[cfg(unix)]
    mkfifo(&fifo);
    for (i, (named, why)) in [
        (dir.join("gone.ron").display().to_string(), "No such file"),
        ("relative.ron".to_string(), "not an absolute path"),
        #[cfg(unix)]
        (fifo.display().to_string(), "FIFO"),
    ]
    .into_iter()
    .enumerate()
    {
        let f = folders(&format!("r2-rec-odd-{i}"));
        leave_recovery(
            &f,
            &format!("// dipsandbox recovery of {named}\n// process 999999999\n"),
        );
        let (q, mut a) = bounded("opening with the recovery file", move || {
            let mut a = App::open(None, None, f).expect("opens");
            let q = question(&a);
            run(&mut a, 120, 40, "y");
            (q, a)
        });
        assert!(q.contains(why), "{q}");
        assert!(q.contains("new, unsaved scenario"), "{q}");
        assert_eq!(a.session.path, None, "{named}");
        assert!(
            a.message
                .as_ref()
                .is_some_and(|m| m.text.contains("as a new scenario")),
            "{:?}",
            a.message
        );
        a.recovery.clear();
    }
}

#[test]
fn the_question_says_why_a_named_file_is_not_a_scenario() {
    let dir = scratch("rec-why");
    let missing = dir.join("gone.ron");
    let f = folders("r2-rec-why");
    leave_recovery(
        &f,
        &format!(
            "// dipsandbox recovery of {}\n// process 999999999\n",
            missing.display()
        ),
    );
    let a = App::open(None, None, f).expect("opens");
    let q = question(&a);
    assert!(q.contains("No such file"), "{q}");
    std::fs::remove_file(
        a.folders
            .recovery
            .as_ref()
            .expect("dir")
            .join("recovery-999999999.ron"),
    )
    .expect("cleaned");
}

/// A scenario file and a recovery file of edits to it, written as the TUI writes them (with
/// the file as it was then).
fn scenario_with_recovery(name: &str) -> (Folders, PathBuf) {
    let f = folders(name);
    let dir = scratch(name);
    let mine = dir.join("mine.ron");
    std::fs::write(&mine, scenario_text()).expect("scenario file");
    let s = dipsandbox_core::model::scenario::Scenario::load(&mine).expect("loads");
    let kept = f
        .recovery
        .clone()
        .expect("recovery")
        .join("recovery-999999999.ron");
    recovery::write(&kept, &s, Some((&mine, DiskStamp::of(&mine)))).expect("written");
    (f, mine)
}

#[test]
fn restored_edits_to_a_scenario_file_changed_since_ask_before_saving_over_it() {
    let (f, mine) = scenario_with_recovery("r2-rec-newer");
    // Someone saves a newer version after the edits were kept.
    let newer = scenario_text().replace("6.A.1", "6.A.1 (newer)");
    std::fs::write(&mine, &newer).expect("newer version");
    let mut a = App::open(None, None, f).expect("opens");
    run(&mut a, 120, 40, "");
    let q = question(&a);
    assert!(q.contains(&mine.display().to_string()), "{q}");
    assert!(q.contains("y restores them as edits to that file"), "{q}");
    run(&mut a, 120, 40, "y");
    assert_eq!(a.session.path.as_deref(), Some(mine.as_path()));
    run(&mut a, 120, 40, "ctrl-s");
    let q = question(&a);
    assert!(q.contains("changed on disk"), "{q}");
    run(&mut a, 120, 40, "n");
    assert_eq!(std::fs::read_to_string(&mine).expect("file"), newer);
    a.recovery.clear();
}

#[test]
fn restored_edits_to_an_unchanged_scenario_file_save_without_a_question() {
    let (f, mine) = scenario_with_recovery("r2-rec-same");
    let mut a = App::open(None, None, f).expect("opens");
    run(&mut a, 120, 40, "y");
    run(&mut a, 120, 40, "ctrl-s");
    assert_eq!(a.popup, None, "the file is as the edits knew it");
    assert!(!a.session.is_dirty());
    assert!(mine.is_file());
}

#[test]
fn a_recovery_file_that_does_not_say_how_the_file_was_asks_before_saving() {
    // Recovery files of older versions (and hand-made ones) have no "as on disk" line.
    let f = folders("r2-rec-nostamp");
    let dir = scratch("rec-nostamp");
    let mine = dir.join("mine.ron");
    std::fs::write(&mine, scenario_text()).expect("scenario file");
    leave_recovery(
        &f,
        &format!(
            "// dipsandbox recovery of {}\n// process 999999999\n",
            mine.display()
        ),
    );
    let mut a = App::open(None, None, f).expect("opens");
    run(&mut a, 120, 40, "y");
    assert_eq!(a.session.path.as_deref(), Some(mine.as_path()));
    run(&mut a, 120, 40, "ctrl-s");
    assert!(question(&a).contains("changed on disk"));
    run(&mut a, 120, 40, "y");
    assert!(!a.session.is_dirty(), "saved after the yes");
}

#[test]
fn a_restores_the_edits_of_a_scenario_file_as_a_new_scenario() {
    let (f, mine) = scenario_with_recovery("r2-rec-as-new");
    let before = std::fs::read_to_string(&mine).expect("file");
    let mut a = App::open(None, None, f).expect("opens");
    run(&mut a, 120, 40, "a");
    assert_eq!(a.session.path, None);
    assert!(a.session.is_dirty());
    run(&mut a, 120, 40, "ctrl-s");
    assert!(matches!(a.popup, Some(Popup::SaveAs(_))));
    assert_eq!(std::fs::read_to_string(&mine).expect("file"), before);
    a.recovery.clear();
}

#[test]
fn a_recovery_header_round_trips_and_a_hostile_one_names_nothing() {
    let stamp = DiskStamp {
        modified_ns: Some(1_712_345_678_123_456_789),
        len: 2345,
    };
    assert_eq!(DiskStamp::from_text(&stamp.to_text()), Some(stamp));
    let h = recovery::parse_header(&format!(
        "// dipsandbox recovery of /x/y.ron\n// process 1\n// as on disk: {}\nScenario()",
        stamp.to_text()
    ));
    assert_eq!(h.source, Some(PathBuf::from("/x/y.ron")));
    assert_eq!(h.stamp, Some(stamp));
    // A first line that does not end within the header's bytes names no file.
    let long = format!("// dipsandbox recovery of /{}", "a".repeat(20_000));
    assert_eq!(recovery::parse_header(&long).source, None);
    assert_eq!(recovery::parse_header("").source, None);
    assert_eq!(
        recovery::parse_header("// dipsandbox recovery of a new scenario\n").source,
        None
    );
}

#[test]
fn a_file_name_with_a_newline_is_not_written_into_the_recovery_header() {
    let dir = scratch("rec-newline");
    let odd = dir.join("two\nlines.ron");
    std::fs::write(&odd, scenario_text()).expect("file");
    let s = dipsandbox_core::model::scenario::Scenario::load(&odd).expect("loads");
    let kept = dir.join("recovery-1.ron");
    recovery::write(&kept, &s, Some((&odd, DiskStamp::of(&odd)))).expect("written");
    let h = recovery::read_header(&kept);
    assert_eq!(h.source, None, "{h:?}");
    dipsandbox_core::model::scenario::Scenario::load(&kept).expect("still a scenario file");
}

// ---------------------------------------------------------------------------------------------
// 8. Every file read is a regular file, read with a size limit.

#[cfg(unix)]
#[test]
fn a_recovery_file_that_is_a_fifo_or_a_link_to_dev_zero_is_passed_over() {
    for (i, kind) in ["fifo", "zero"].into_iter().enumerate() {
        let f = folders(&format!("r2-rec-{kind}"));
        let file = f
            .recovery
            .clone()
            .expect("dir")
            .join(format!("recovery-99999999{i}.ron"));
        if kind == "fifo" {
            mkfifo(&file);
        } else {
            std::os::unix::fs::symlink("/dev/zero", &file).expect("symlink");
        }
        let a = bounded("App::open with a hostile recovery file", move || {
            App::open(None, None, f).expect("opens")
        });
        assert_eq!(a.popup, None, "{kind}: nothing to offer");
        assert!(file.symlink_metadata().is_ok(), "left alone");
    }
}

#[cfg(unix)]
#[test]
fn keys_ron_that_is_a_fifo_or_a_link_to_dev_zero_does_not_block_the_start() {
    for kind in ["fifo", "zero"] {
        let f = folders(&format!("r2-keys-{kind}"));
        let keys = f.config.clone().expect("config").join("keys.ron");
        if kind == "fifo" {
            mkfifo(&keys);
        } else {
            std::os::unix::fs::symlink("/dev/zero", &keys).expect("symlink");
        }
        let mut a = bounded("App::open with a hostile keys.ron", move || {
            App::open(None, None, f).expect("opens")
        });
        let t = text(&run(&mut a, 220, 40, ""));
        assert!(
            t.contains("keys.ron: cannot read: it is a FIFO, socket or device, not a file"),
            "{kind}: {t}"
        );
        assert!(t.contains("(default keys in use)"), "{t}");
    }
}

#[test]
fn keys_ron_over_its_limit_is_refused_before_it_is_read() {
    let f = folders("r2-keys-large");
    let keys = f.config.clone().expect("config").join("keys.ron");
    let mut body = String::from("{\n");
    while (body.len() as u64) <= MAX_KEYS_BYTES {
        body.push_str("  // a long comment to make the file large ...........................\n");
    }
    body.push_str("}\n");
    std::fs::write(&keys, &body).expect("keys.ron");
    let mut a = App::open(None, None, f).expect("opens");
    let t = text(&run(&mut a, 200, 40, ""));
    assert!(
        t.contains(&format!(
            "bytes is more than the {MAX_KEYS_BYTES} a file may have"
        )),
        "{t}"
    );
}

#[cfg(unix)]
#[test]
fn read_head_and_read_text_refuse_fifos_and_devices_and_stop_at_their_limit() {
    use dipsandbox_core::base::source::{ReadError, read_head, read_text, read_text_limited};
    let dir = scratch("read");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let zero = dir.join("zero.ron");
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("symlink");
    for p in [fifo, zero] {
        let p2 = p.clone();
        let r = bounded("read_head", move || read_head(&p2, 1024));
        assert!(matches!(r, Err(ReadError::NotAFile { .. })), "{r:?}");
        let p2 = p.clone();
        let r = bounded("read_text", move || read_text(&p2));
        assert!(matches!(r, Err(ReadError::NotAFile { .. })), "{r:?}");
    }
    // A head cut inside a character drops the character's first bytes, and says it is cut.
    let f = dir.join("text");
    std::fs::write(&f, "abé").expect("file");
    let h = read_head(&f, 3).expect("head");
    assert_eq!((h.text.as_str(), h.whole, h.size), ("ab", false, 4));
    let h = read_head(&f, 4).expect("head");
    assert_eq!((h.text.as_str(), h.whole), ("abé", true));
    let r = read_text_limited(&f, 3);
    assert!(
        matches!(r, Err(ReadError::TooLarge { limit: 3, .. })),
        "{r:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_rules_side_file_that_is_a_fifo_is_refused_and_said() {
    let dir = scratch("side");
    let suite = dir.join("suite.txt");
    std::fs::copy("tests/data/jdip/datc-v2.4.txt", &suite).expect("copy");
    mkfifo(&dir.join("suite.txt.rules"));
    let s = suite.display().to_string();
    let (code, out, err) = bounded("check with a FIFO side file", move || {
        dipsandbox(&["check", &s])
    });
    // Said as a problem of the file (an ERROR line of the report, located at the side file).
    assert!(
        out.contains("suite.txt.rules: cannot read: it is a FIFO, socket or device, not a file"),
        "{out}\n{err}"
    );
    // The cases are still checked; the unreadable side file is an input problem (exit 2).
    assert!(out.contains("6.A.1"), "{out}");
    assert_eq!(code, 2, "{err}");
}

// ---------------------------------------------------------------------------------------------
// 7. The browser does not follow symlink loops, and its walk is bounded.

fn user_folders(user: &Path) -> Folders {
    Folders {
        bundled: None,
        user: Some(user.to_path_buf()),
        config: None,
        recovery: None,
        pictures: None,
    }
}

#[cfg(unix)]
#[test]
fn the_browser_lists_each_file_once_through_symlink_loops() {
    let dir = scratch("loops");
    std::fs::write(dir.join("a.ron"), scenario_text()).expect("a");
    std::fs::create_dir(dir.join("sub")).expect("sub");
    std::fs::write(dir.join("sub/b.ron"), scenario_text()).expect("b");
    std::os::unix::fs::symlink(".", dir.join("self")).expect("self -> .");
    std::os::unix::fs::symlink("..", dir.join("sub/up")).expect("sub/up -> ..");
    let f = user_folders(&dir);
    let b = bounded("Browser::open on symlink loops", move || Browser::open(&f));
    let labels: Vec<&str> = b.entries.iter().map(|e| e.label.as_str()).collect();
    assert_eq!(labels, ["yours: a.ron", "yours: sub/b.ron"]);
    let note = b.note.clone().expect("a note");
    assert!(note.contains("2 linked folders not followed"), "{note}");
}

#[cfg(unix)]
#[test]
fn the_tui_opens_the_browser_on_a_symlink_loop_and_says_what_it_left_out() {
    let f = folders("r2-browser-loop");
    let user = f.user.clone().expect("user");
    std::fs::write(user.join("mine.ron"), scenario_text()).expect("mine");
    std::os::unix::fs::symlink(".", user.join("self")).expect("self -> .");
    let (a, t) = bounded("o on a symlink loop", move || {
        let mut a = App::open(None, None, f).expect("opens");
        let t = text(&run(&mut a, 120, 40, "o y o u r s"));
        (a, t)
    });
    assert!(t.contains("yours: mine.ron"), "{t}");
    assert!(!t.contains("self/mine.ron"), "{t}");
    assert!(t.contains("1 linked folder not followed"), "{t}");
    let Some(Popup::Browser(b)) = &a.popup else {
        panic!("browser open");
    };
    // Once, not again through the link (the filter also finds a bundled file whose
    // description says "yours").
    let yours: Vec<_> = b
        .visible()
        .into_iter()
        .filter(|e| e.label.starts_with("yours: "))
        .collect();
    assert_eq!(yours.len(), 1);
}

#[test]
fn the_browser_walk_stops_at_its_depth_limit_and_says_so() {
    let dir = scratch("deep");
    let mut d = dir.clone();
    for i in 0..=MAX_DEPTH {
        d = d.join(format!("d{i}"));
    }
    std::fs::create_dir_all(&d).expect("deep folders");
    std::fs::write(d.join("too-deep.ron"), "x").expect("file");
    let b = Browser::open(&user_folders(&dir));
    assert!(b.entries.is_empty());
    let note = b.note.expect("a note");
    assert!(
        note.contains(&format!("deeper than {MAX_DEPTH} levels")),
        "{note}"
    );
}

/// The file limit: a folder of [`MAX_FILES`] + 5 files lists [`MAX_FILES`] and says it stopped.
/// The slow tier: making ten thousand files is most of the time, and no smaller folder reaches
/// the limit.
#[test]
#[ignore = "slow tier: cargo test -- --ignored (CI runs it)"]
fn the_browser_walk_stops_at_its_file_limit_and_says_so() {
    let many = scratch("many");
    for i in 0..MAX_FILES + 5 {
        std::fs::write(many.join(format!("{i}.ron")), "").expect("file");
    }
    let b = Browser::open(&user_folders(&many));
    assert_eq!(b.entries.len(), MAX_FILES);
    let note = b.note.expect("a note");
    assert!(
        note.contains(&format!("stopped at {MAX_FILES} files")),
        "{note}"
    );
    let _ = std::fs::remove_dir_all(&many);
}

// ---------------------------------------------------------------------------------------------
// 9. Previews read a bounded prefix.

#[test]
fn a_large_file_is_previewed_by_its_head_without_reading_it_all() {
    let dir = scratch("large");
    // 8 MiB on one line: before, the whole file was parsed and the error quoted all of it.
    let big = dir.join("big.ron");
    std::fs::write(&big, "x".repeat(8 << 20)).expect("big");
    let b = Browser::open(&user_folders(&dir));
    let Some((_, p)) = &b.preview else {
        panic!("a preview");
    };
    match p {
        Preview::Head { size, lines } => {
            assert_eq!(*size, 8 << 20);
            let shown: usize = lines.iter().map(String::len).sum();
            assert!(shown < 4_096, "{shown} bytes shown");
        }
        other => panic!("{other:?}"),
    }
    // A file just under the limit that is not a scenario: its error is shown, cut.
    std::fs::write(&big, "x".repeat(PREVIEW_BYTES as usize - 10)).expect("file");
    let p = dipsandbox::tui::browser::preview(&big);
    match p {
        Preview::Error(e) => assert!(e.len() < 4_096, "{} bytes", e.len()),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_preview_popup_says_a_large_file_is_too_large_to_preview() {
    let f = folders("r2-preview-large");
    let user = f.user.clone().expect("user");
    let mut head = String::from("// a large file\n");
    head.push_str(&"// filler line ........................................\n".repeat(2_000));
    std::fs::write(user.join("large.ron"), &head).expect("file");
    let mut a = App::open(None, None, f).expect("opens");
    let t = text(&run_script(
        &mut a,
        160,
        40,
        Script::keys("o").and_text("yours large"),
    ));
    assert!(
        t.contains(&format!("Too large to preview: {} bytes", head.len())),
        "{t}"
    );
    assert!(t.contains("// a large file"), "{t}");
}

// ---------------------------------------------------------------------------------------------
// Smaller: duplicate keys in keys.ron.

fn keymap_error(text: &str) -> String {
    Keymap::parse_patch(text, "keys.ron")
        .map(|_| String::new())
        .unwrap_or_else(|e| e.to_string())
}

#[test]
fn an_action_named_twice_in_keys_ron_is_refused_where_it_is() {
    let e = keymap_error("{\n  \"quit\": [\"x\"],\n  \"quit\": [\"z\"],\n}\n");
    assert_eq!(
        e,
        "keys.ron:3:4: action \"quit\" is named a second time (first at line 2, column 4); expected each action once"
    );
}

#[test]
fn a_key_listed_twice_or_doing_two_things_in_one_panel_is_refused_where_it_is() {
    let e = keymap_error("{\n  \"quit\": [\"x\", \"x\"],\n}\n");
    assert_eq!(
        e,
        "keys.ron:2:18: key x is listed twice for \"quit\"; expected each key once"
    );
    // `n` steps forward; giving it to `step_back` too makes one of them unreachable.
    let e = keymap_error("{ \"step_back\": [\"n\"] }");
    assert!(
        e.starts_with("keys.ron:1:18: key n of \"step_back\" already does \"step_forward\""),
        "{e}"
    );
    // A key name that is also an action name is found as the key, not as the action.
    assert_eq!(keymap_error("{ \"quit\": [\"Q\"] }"), "");
}

#[test]
fn the_default_keys_do_one_thing_per_panel() {
    let km = Keymap::default();
    for b in km.bindings() {
        for o in km.bindings() {
            if o.context == b.context && o.action != b.action {
                for k in &b.keys {
                    assert!(
                        !o.keys.contains(k),
                        "{k} does {:?} and {:?} in {:?}",
                        b.action,
                        o.action,
                        b.context
                    );
                }
            }
        }
    }
}

#[test]
fn a_duplicate_in_keys_ron_is_shown_when_the_tui_starts() {
    let f = folders("r2-keys-dup");
    let keys = f.config.clone().expect("config").join("keys.ron");
    std::fs::write(&keys, "{\n  \"quit\": [\"x\"],\n  \"quit\": [\"z\"],\n}\n").expect("keys");
    let mut a = App::open(None, None, f).expect("opens");
    let t = text(&run(&mut a, 200, 40, ""));
    assert!(
        t.contains("keys.ron:3:4: action \"quit\" is named a second time"),
        "{t}"
    );
}

#[test]
fn a_keys_ron_problem_waits_for_the_restore_question() {
    let f = folders("r2-keys-after-restore");
    std::fs::write(
        f.config.clone().expect("config").join("keys.ron"),
        "{ \"warp\": [\"w\"] }",
    )
    .expect("keys");
    leave_recovery(
        &f,
        "// dipsandbox recovery of a new scenario\n// process 999999999\n",
    );
    let mut a = App::open(None, None, f).expect("opens");
    assert!(matches!(
        a.popup,
        Some(Popup::Confirm(_, Pending::Restore(_)))
    ));
    run(&mut a, 200, 40, "n");
    let m = a.message.clone().expect("a message");
    assert!(m.text.contains("unknown action \"warp\""), "{m:?}");
}

#[test]
fn an_error_quoting_much_of_a_file_is_cut_in_the_status_bar() {
    // The status bar is drawn on every frame: a message must not carry a megabyte of the file.
    let f = folders("r2-message-cut");
    let user = f.user.clone().expect("user");
    std::fs::write(user.join("huge.ron"), "x".repeat(1 << 20)).expect("file");
    let mut a = App::open(None, None, f).expect("opens");
    run_script(
        &mut a,
        120,
        40,
        Script::keys("o").and_text("yours huge").and_keys("enter"),
    );
    let m = a.message.clone().expect("the error");
    assert!(m.error);
    assert!(m.text.contains("huge.ron:1:1"), "{}", &m.text[..200]);
    assert!(
        m.text.chars().count() <= dipsandbox::tui::app::MAX_MESSAGE_CHARS + 40,
        "{} characters",
        m.text.len()
    );
}

/// The restore question says how long ago the edits were kept, in words a person writes.
#[test]
fn the_age_of_kept_edits_reads_as_words() {
    let ago = |secs: u64| {
        recovery::age(std::time::SystemTime::now().checked_sub(Duration::from_secs(secs)))
    };
    assert_eq!(ago(5), "less than a minute ago");
    assert_eq!(ago(60), "1 minute ago");
    assert_eq!(ago(3 * 60 + 5), "3 minutes ago");
    assert_eq!(ago(3600), "1 hour ago");
    assert_eq!(ago(2 * 86_400), "2 days ago");
    assert_eq!(recovery::age(None), "recently");
}
