//! The unit tests of the core's `base::output`.

use dipsandbox_core::base::output::hooks::write_unchecked;
use dipsandbox_core::base::output::*;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dipsandbox-output-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

fn names(n: &[&str]) -> Vec<String> {
    n.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_batch_moves_every_file_in_or_none() {
    let dir = temp("batch-ok");
    let mut b = Batch::begin(&dir, names(&["a", "b"]), &Inputs::new(), false, "h").unwrap();
    b.add("A").unwrap();
    b.add("B").unwrap();
    b.commit().unwrap();
    assert_eq!(listing(&dir), ["a", "b"]);
    assert_eq!(std::fs::read_to_string(dir.join("b")).unwrap(), "B");
    // Dropped before its commit: nothing.
    let mut b = Batch::begin(&dir, names(&["c"]), &Inputs::new(), false, "h").unwrap();
    b.add("C").unwrap();
    drop(b);
    assert_eq!(listing(&dir), ["a", "b"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file that appears while the batch is written is not replaced, and the files already
/// moved in are taken out again; with replacing, the files replaced are put back.
#[test]
fn a_failed_commit_undoes_what_it_moved() {
    let dir = temp("batch-undo");
    let mut b = Batch::begin(&dir, names(&["a", "b", "c"]), &Inputs::new(), false, "h").unwrap();
    for t in ["A", "B", "C"] {
        b.add(t).unwrap();
    }
    std::fs::write(dir.join("c"), "theirs").unwrap();
    let e = b.commit().unwrap_err();
    assert!(matches!(e, WriteError::Exists { .. }), "{e}");
    assert_eq!(listing(&dir), ["c"]);
    assert_eq!(std::fs::read_to_string(dir.join("c")).unwrap(), "theirs");

    std::fs::write(dir.join("a"), "old a").unwrap();
    std::fs::remove_file(dir.join("c")).unwrap();
    let mut b = Batch::begin(&dir, names(&["a", "b", "c"]), &Inputs::new(), true, "h").unwrap();
    for t in ["A", "B", "C"] {
        b.add(t).unwrap();
    }
    std::fs::create_dir(dir.join("c")).unwrap();
    let e = b.commit().unwrap_err();
    assert!(matches!(e, WriteError::NotAFile { .. }), "{e}");
    assert_eq!(listing(&dir), ["a", "c"]);
    assert_eq!(std::fs::read_to_string(dir.join("a")).unwrap(), "old a");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The folders a failed batch made are removed; those that were there stay.
#[test]
fn a_failed_batch_removes_the_folders_it_made() {
    let dir = temp("batch-made");
    let deep = dir.join("x/y");
    let b = Batch::begin(&deep, names(&["a"]), &Inputs::new(), false, "h").unwrap();
    assert!(deep.is_dir());
    drop(b);
    assert!(!dir.join("x").exists());
    assert!(dir.is_dir());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_temporary_file_is_never_opened_through_a_link() {
    let dir = temp("tmp-link");
    let target = dir.join("out.txt");
    let victim = dir.join("victim");
    std::fs::write(&victim, "victim").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        &victim,
        dir.join(format!(".out.txt.tmp{}", std::process::id())),
    )
    .unwrap();
    write_atomic(&target, "new").unwrap();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "victim");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A write that fails after its temporary file was made (here the rename, over a folder
/// that appeared after the check) leaves no temporary file behind.
#[test]
fn a_failed_write_removes_its_temporary_file() {
    let dir = temp("tmp-failed");
    let target = dir.join("out.txt");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("inside"), "x").unwrap();
    let e = write_unchecked(&target, b"new").unwrap_err();
    assert!(matches!(e, WriteError::Io { .. }), "{e}");
    assert_eq!(listing(&dir), ["out.txt"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A written file gets the permissions of any file the command creates (the umask's), not
/// those of a private temporary file.
#[cfg(unix)]
#[test]
fn a_written_file_has_the_usual_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp("tmp-mode");
    std::fs::write(dir.join("plain"), "x").unwrap();
    write_atomic(&dir.join("atomic"), "x").unwrap();
    let mode = |n: &str| std::fs::metadata(dir.join(n)).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode("atomic"), mode("plain"));
    let _ = std::fs::remove_dir_all(&dir);
}
