use super::*;

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// Both kinds of staging file: the unnamed one (Linux) and the named fallback.
const KINDS: [bool; 2] = [true, false];

/// Whether `dir`'s file system takes `O_TMPFILE` (ext4, XFS, Btrfs and
/// tmpfs do; overlayfs before Linux 6.6 does not): where it does not,
/// AtomicFile falls back to a named file and the tests of the unnamed one
/// are skipped with a note.
#[cfg(target_os = "linux")]
fn unnamed_supported(dir: &Path) -> bool {
    let supported = matches!(super::linux::create_unnamed(dir), Ok(Some(_)));
    if !supported {
        eprintln!("note: {} does not support O_TMPFILE: test skipped", dir.display());
    }
    supported
}

#[test]
#[cfg(target_os = "linux")]
fn is_unnamed_on_linux() {
    let dir = tempfile::tempdir().unwrap();
    if !unnamed_supported(dir.path()) {
        return;
    }
    let mut f = AtomicFile::create(&dir.path().join("out")).unwrap();
    assert!(matches!(f.tmp.get().get_ref(), Staged::Unnamed(_)), "the test directory supports O_TMPFILE");
    assert!(entries(dir.path()).is_empty(), "no name while writing");
}

#[test]
fn appears_only_on_commit_and_replaces() {
    for unnamed in KINDS {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let mut f = AtomicFile::create_with(&path, unnamed).unwrap();
        assert_eq!(f.path(), path);
        f.write_all(&[7u8; 100_000]).unwrap();
        let named = matches!(f.tmp.get().get_ref(), Staged::Named(_));
        assert_eq!(entries(dir.path()).len(), usize::from(named), "only a named temporary file");
        assert!(!path.exists());
        drop(f);
        assert!(entries(dir.path()).is_empty(), "dropped: the temporary file is removed");

        std::fs::write(&path, b"old").unwrap();
        let mut f = AtomicFile::create_with(&path, unnamed).unwrap();
        f.write_all(b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"old", "untouched until the commit");
        f.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(entries(dir.path()), ["out"]);

        let mut f = AtomicFile::create_with(&path, unnamed).unwrap();
        f.write_all(b"newer").unwrap();
        assert_eq!(f.commit_new().unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&path).unwrap(), b"new", "commit_new never replaces");
        let fresh = dir.path().join("fresh");
        let mut f = AtomicFile::create_with(&fresh, unnamed).unwrap();
        f.write_all(b"fresh").unwrap();
        f.commit_new().unwrap();
        assert_eq!(std::fs::read(&fresh).unwrap(), b"fresh");
        assert_eq!(entries(dir.path()), ["fresh", "out"], "no temporary name left (unnamed: {unnamed})");
    }
}

#[test]
#[cfg(unix)]
fn is_private_to_its_owner() {
    use std::os::unix::fs::PermissionsExt;
    for unnamed in KINDS {
        let dir = tempfile::tempdir().unwrap();
        for (name, new) in [("replaced", false), ("new", true)] {
            let path = dir.path().join(name);
            std::fs::write(&path, b"").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            if new {
                std::fs::remove_file(&path).unwrap();
            }
            let f = AtomicFile::create_with(&path, unnamed).unwrap();
            if new { f.commit_new() } else { f.commit() }.unwrap();
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600, "{name} {unnamed}");
        }
    }
}

#[test]
fn errors_for_a_missing_directory_or_a_directory_destination() {
    for unnamed in KINDS {
        let dir = tempfile::tempdir().unwrap();
        assert!(AtomicFile::create_with(&dir.path().join("no/such/dir/out"), unnamed).is_err());
        std::fs::write(dir.path().join("file"), b"").unwrap();
        assert!(AtomicFile::create_with(&dir.path().join("file/out"), unnamed).is_err(), "not a directory");
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("x"), b"").unwrap();
        let e = AtomicFile::create_with(&sub, unnamed).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "a directory is never a destination: {e}");
        assert_eq!(entries(dir.path()), ["file", "sub"], "nothing staged");
        assert_eq!(entries(&sub), ["x"]);
    }
}

/// A destination reached through symbolic links (relative, absolute,
/// chained, dangling) is the file they lead to: the commit replaces or
/// creates it and every link stays a link.
#[test]
#[cfg(unix)]
fn symbolic_links_lead_to_the_file_they_name() {
    use std::os::unix::fs::symlink;
    for unnamed in KINDS {
        let dir = tempfile::tempdir().unwrap();
        let (d, real) = (dir.path(), dir.path().join("sub/real"));
        std::fs::create_dir(d.join("sub")).unwrap();
        std::fs::write(&real, b"old").unwrap();
        symlink("sub/real", d.join("rel")).unwrap();
        symlink(&real, d.join("abs")).unwrap();
        symlink("rel", d.join("chain")).unwrap();
        for (i, link) in ["rel", "abs", "chain"].into_iter().enumerate() {
            let mut f = AtomicFile::create_with(&d.join(link), unnamed).unwrap();
            assert_eq!(std::fs::canonicalize(f.path()).unwrap(), std::fs::canonicalize(&real).unwrap());
            write!(f, "new {i}").unwrap();
            f.commit().unwrap();
            assert_eq!(std::fs::read(&real).unwrap(), format!("new {i}").as_bytes(), "through {link}");
            assert!(std::fs::symlink_metadata(d.join(link)).unwrap().file_type().is_symlink(), "{link} stays a link");
        }
        symlink("sub/missing", d.join("dangling")).unwrap();
        let mut f = AtomicFile::create_with(&d.join("dangling"), unnamed).unwrap();
        f.write_all(b"created").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read(d.join("sub/missing")).unwrap(), b"created");
        symlink("loop", d.join("loop")).unwrap();
        assert_eq!(AtomicFile::create_with(&d.join("loop"), unnamed).unwrap_err().kind(), io::ErrorKind::InvalidInput);
    }
}

/// A FIFO or a device, directly or through a link, is refused before
/// anything is written: renaming over it would replace the node itself.
#[test]
#[cfg(target_os = "linux")]
fn special_files_are_never_replaced() {
    use rustix::fs::{CWD, FileType, Mode};
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    rustix::fs::mknodat(CWD, &fifo, FileType::Fifo, Mode::RUSR | Mode::WUSR, 0).unwrap();
    std::os::unix::fs::symlink("fifo", dir.path().join("to-fifo")).unwrap();
    for path in [fifo.clone(), dir.path().join("to-fifo"), PathBuf::from("/dev/null")] {
        let e = AtomicFile::create(&path).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{}: {e}", path.display());
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
    assert_eq!(entries(dir.path()), ["fifo", "to-fifo"], "nothing staged");
}

/// The directory sync after the rename: a directory syncs; a failure is a
/// typed [`DirSyncError`] naming the directory, of the failure's kind.
#[test]
#[cfg(unix)]
fn directory_sync_and_its_typed_error() {
    let dir = tempfile::tempdir().unwrap();
    sync_dir(dir.path()).unwrap();
    let gone = dir.path().join("gone");
    let e = sync_dir(&gone).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::NotFound);
    let typed = e.get_ref().and_then(|e| e.downcast_ref::<DirSyncError>()).expect("a DirSyncError");
    assert_eq!((typed.dir.as_path(), typed.source.kind()), (gone.as_path(), io::ErrorKind::NotFound));
    assert!(e.to_string().contains("has its name"), "{e}");
}

/// The environment variable that makes [`killed_writer_child`] run.
#[cfg(target_os = "linux")]
const CHILD_DIR: &str = "TESSERA_TEST_KILLED_WRITER_DIR";

/// What `a_killed_writer_leaves_nothing` runs in a child process: writes
/// 1 MiB to a new file and 1 MiB over an existing one, says so, and waits
/// to be killed.
#[test]
#[ignore = "a helper process of a_killed_writer_leaves_nothing"]
#[cfg(target_os = "linux")]
fn killed_writer_child() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else { return };
    let dir = PathBuf::from(dir);
    let mut files = Vec::new();
    for name in ["new", "existing"] {
        let mut f = AtomicFile::create(&dir.join(name)).unwrap();
        f.write_all(&vec![0x5a; 1 << 20]).unwrap();
        f.flush().unwrap();
        files.push(f);
    }
    println!("TESSERA-WRITTEN");
    std::thread::sleep(std::time::Duration::from_secs(120));
    panic!("not killed");
}

/// A process killed with SIGKILL while writing two files (the state of
/// `tessera decrypt -o OUT` before the signatures or the MDC are checked)
/// leaves nothing in the directory but what was there before, untouched.
#[test]
#[cfg(target_os = "linux")]
fn a_killed_writer_leaves_nothing() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    if !unnamed_supported(dir.path()) {
        return;
    }
    std::fs::write(dir.path().join("existing"), b"old").unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["fs::atomic::tests::killed_writer_child", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env(CHILD_DIR, dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let written = stdout.lines().map_while(Result::ok).any(|l| l.contains("TESSERA-WRITTEN"));
    // The data really is on disk, in files the child holds open in `dir`.
    let open: Vec<u64> = std::fs::read_dir(format!("/proc/{}/fd", child.id()))
        .unwrap()
        .filter_map(|e| {
            let fd = e.ok()?.path();
            std::fs::read_link(&fd)
                .ok()?
                .starts_with(dir.path())
                .then(|| std::fs::metadata(&fd).ok().map(|m| m.len()))?
        })
        .collect();
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(written, "the child wrote its files");
    assert_eq!(open, [1 << 20, 1 << 20], "two files of 1 MiB open in the directory");
    assert_eq!(entries(dir.path()), ["existing"], "nothing left behind");
    assert_eq!(std::fs::read(dir.path().join("existing")).unwrap(), b"old");
}
