//! `--output` that is not a plain file name: a symbolic link is followed
//! (the file it names is replaced, the link stays), and a FIFO is written
//! in place like stdout, never replaced by a regular file; a v1 message
//! decrypted into a FIFO reaches it only once its MDC verifies; run as
//! root, a device is written in place too, never replaced.
#![cfg(target_os = "linux")]

use crate::common;

use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::Output;

const EXE: &str = env!("CARGO_BIN_EXE_tessera");

fn tessera(args: &[&str], stdin: &[u8]) -> Output {
    common::run_with_stdin(EXE, args, stdin)
}

fn write(dir: &Path, name: &str, data: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn fifo(dir: &Path) -> PathBuf {
    let p = dir.join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&p).status().unwrap().success());
    p
}

/// Reads the FIFO `p` to its end on a thread: what a consumer sees.
fn drain(p: &Path) -> std::thread::JoinHandle<Vec<u8>> {
    let p = p.to_path_buf();
    std::thread::spawn(move || {
        let mut v = Vec::new();
        std::fs::File::open(&p).unwrap().read_to_end(&mut v).unwrap();
        v
    })
}

/// What the `drain` thread read from the FIFO `p`, once tessera has exited.
/// tessera opens the FIFO before it reads its input (a failing decrypt
/// too), waiting for the reader; if it failed before that (a bad argument,
/// a regression), the reader is still waiting in `open` for a writer, or
/// has not reached it yet: a non-blocking open for writing succeeds only
/// while a reader waits and fails at once otherwise, so it is repeated
/// until the reader has ended. (Opening once could leave a late reader
/// waiting for ever: a hang instead of the failure.)
fn release(p: &Path, reader: std::thread::JoinHandle<Vec<u8>>) -> Vec<u8> {
    use std::os::unix::fs::OpenOptionsExt;
    const O_NONBLOCK: i32 = 0o4000; // Linux's value
    while !reader.is_finished() {
        let _ = std::fs::File::options().write(true).custom_flags(O_NONBLOCK).open(p);
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    reader.join().unwrap()
}

#[test]
fn a_symbolic_link_output_replaces_the_file_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let key = write(dir.path(), "key", b"2B7E151628AED2A6ABF7158809CF4F3C\n");
    let target = write(dir.path(), "tokens.txt", b"old\n");
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("tokens.txt", &link).unwrap();
    let out = tessera(&["fpe", "encrypt", "--key-file", s(&key), "--output", s(&link)], b"1234567890\n");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = tessera(&["fpe", "encrypt", "--key-file", s(&key)], b"1234567890\n").stdout;
    assert_eq!(std::fs::read(&target).unwrap(), stdout, "the tokens are in the file the link names");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
}

#[test]
fn a_fifo_output_is_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let key = write(dir.path(), "key", b"2B7E151628AED2A6ABF7158809CF4F3C\n");
    let fifo = fifo(dir.path());
    let reader = drain(&fifo);
    let out = tessera(&["fpe", "encrypt", "--key-file", s(&key), "--output", s(&fifo)], b"1234567890\n");
    let got = release(&fifo, reader);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let want = tessera(&["fpe", "encrypt", "--key-file", s(&key)], b"1234567890\n").stdout;
    assert_eq!(got, want, "the reader got the tokens");
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
}

#[test]
fn a_v1_message_reaches_a_fifo_only_once_verified() {
    let dir = tempfile::tempdir().unwrap();
    let pw = write(dir.path(), "pw", b"correct horse\n");
    let plain = vec![b'x'; 300_000];
    let input = write(dir.path(), "plain", &plain);
    let v1 = dir.path().join("v1");
    let cheap = ["--s2k", "iterated", "--s2k-count", "0"];
    let enc = [&["encrypt", "--password-file", s(&pw), "--profile", "rfc4880", "-o", s(&v1)][..], &cheap, &[s(&input)]];
    let out = tessera(&enc.concat(), b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let fifo = fifo(dir.path());
    for tamper in [false, true] {
        let mut ct = std::fs::read(&v1).unwrap();
        if tamper {
            let n = ct.len() - 30; // inside the last part of the encrypted data
            ct[n] ^= 1;
        }
        let ct = write(dir.path(), "ct", &ct);
        let reader = drain(&fifo);
        let out = tessera(&["decrypt", "--password-file", s(&pw), "--output", s(&fifo), s(&ct)], b"");
        let got = release(&fifo, reader);
        assert_eq!(out.status.success(), !tamper, "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(got, if tamper { Vec::new() } else { plain.clone() }, "tampered: {tamper}");
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
    }
}
