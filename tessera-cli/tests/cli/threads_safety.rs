//! `--threads` on its failure paths: an error ends a multi-threaded run as
//! promptly as one thread does, a refused or panicking thread is an error,
//! and every command takes the same thread counts.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use tessera_cli::records::{self, Layout, Outputs, Transform, ValueError, Values};

fn tessera(args: &[&str], stdin: &[u8]) -> Output {
    common::run_with_stdin(env!("CARGO_BIN_EXE_tessera"), args, stdin)
}

/// A file holding `hex`, named `name` in `dir`.
fn write_key(dir: &Path, name: &str, hex: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("{hex}\n")).unwrap();
    p
}

const FPE_KEY: &str = "2B7E151628AED2A6ABF7158809CF4F3C";

/// A bad value in the first batch, read from a pipe that stays open (say
/// `tail -f log | tessera fpe encrypt`): the run ends with the error at
/// once, whatever the thread count, without waiting for more input.
#[test]
fn an_error_ends_the_run_without_waiting_for_more_input() {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    use std::time::Instant;
    let dir = tempfile::tempdir().unwrap();
    let key = write_key(dir.path(), "key.hex", FPE_KEY);
    let mut batch = String::from("12x45\n");
    for _ in 1..tessera::BATCH_SIZE {
        batch.push_str("1234567890\n");
    }
    for threads in ["1", "2", "4"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["fpe", "encrypt", "--key-file", key.to_str().unwrap(), "--threads", threads])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(batch.as_bytes()).unwrap();
        let start = Instant::now();
        let mut status = None;
        while start.elapsed() < Duration::from_secs(10) && status.is_none() {
            status = child.try_wait().unwrap();
            std::thread::sleep(Duration::from_millis(20));
        }
        drop(stdin);
        let (mut out, mut err) = (Vec::new(), String::new());
        child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        let _ = child.wait();
        let status =
            status.unwrap_or_else(|| panic!("--threads {threads}: still running 10 s after a bad first value"));
        assert_eq!(status.code(), Some(1), "--threads {threads}: {err}");
        assert!(err.contains("line 1"), "--threads {threads}: {err}");
        assert!(out.is_empty(), "--threads {threads}: output before the bad first line");
    }
}

/// The system refuses threads (here an address-space limit; in practice a
/// container's pids limit): one line of error, not a panic, whether the
/// first worker is refused or one has started before.
///
/// Thread stacks are made large (`RUST_MIN_STACK`) so that the limit
/// refuses a stack and never the few pages a started thread maps for its
/// signal stack: that failure aborts inside std, and with 2 MiB stacks it
/// came about in some runs, depending on where the limit fell.
#[cfg(unix)]
#[test]
fn a_refused_thread_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let key = write_key(dir.path(), "key.hex", FPE_KEY);
    // The process needs well under 200 MiB of address space before its
    // threads; the limit is 1,000,000 KiB (976 MiB).
    let script = "ulimit -v 1000000; exec \"$0\" fpe encrypt --key-file \"$1\" --threads 1024";
    const MIB: u64 = 1 << 20;
    for (stack, started) in [(2048 * MIB, "no worker"), (600 * MIB, "one worker")] {
        let out = std::process::Command::new("sh")
            .args(["-c", script, env!("CARGO_BIN_EXE_tessera"), key.to_str().unwrap()])
            .env("RUST_MIN_STACK", stack.to_string())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{started} started: {err}");
        assert!(err.contains("cannot start a worker thread") && !err.contains("panicked"), "{started}: {err}");
        assert_eq!(err.lines().count(), 1, "{started}: {err}");
    }
}

/// fpe, siv, encrypt and decrypt take the same thread counts: 0 (one per
/// core) to 1024; clap refuses more, naming the range.
#[test]
fn every_command_takes_the_same_thread_counts() {
    let dir = tempfile::tempdir().unwrap();
    let fpe_key = write_key(dir.path(), "fpe.hex", FPE_KEY);
    let siv_key = write_key(dir.path(), "siv.hex", &FPE_KEY.repeat(2));
    let pw = write_key(dir.path(), "pw", "pw");
    let (fpe_key, siv_key, pw) = (fpe_key.to_str().unwrap(), siv_key.to_str().unwrap(), pw.to_str().unwrap());
    let msg = tessera(&["encrypt", "--password-file", pw, "--s2k", "iterated", "--s2k-count", "0"], b"data").stdout;
    let commands: [(&[&str], &[u8]); 4] = [
        (&["fpe", "encrypt", "--key-file", fpe_key], b"1234567890\n"),
        (&["siv", "encrypt", "--key-file", siv_key, "--lines"], b"ab\n"),
        (&["encrypt", "--password-file", pw, "--s2k", "iterated", "--s2k-count", "0"], b"data"),
        (&["decrypt", "--password-file", pw], &msg),
    ];
    for (args, stdin) in commands {
        for n in ["0", "1", "1024"] {
            let out = tessera(&[args, &["--threads", n]].concat(), stdin);
            assert!(out.status.success(), "{args:?} --threads {n}: {}", String::from_utf8_lossy(&out.stderr));
        }
        let max = usize::MAX.to_string();
        for n in ["1025", &max] {
            let out = tessera(&[args, &["--threads", n]].concat(), stdin);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?} --threads {n}: {err}");
            assert!(err.contains("0 (one per core) to 1024") && !err.contains("panicked"), "{args:?}: {err}");
        }
    }
}

/// Fails on the value "x".
struct PanicsOnX;

impl Transform for PanicsOnX {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        for i in 0..input.len() {
            assert!(input.get(i) != b"x", "transform bug");
            out.data.extend_from_slice(input.get(i));
            out.ends.push(out.data.len());
        }
        Ok(())
    }
}

/// A transform that panics on a worker thread: the run ends with an error
/// for that batch, after writing every batch before it.
#[test]
fn a_panicking_transform_ends_the_run_with_an_error() {
    let batch = tessera::BATCH_SIZE;
    let mut input = Vec::new();
    for i in 0..4 * batch {
        input.extend_from_slice(if i == batch + 10 { b"x\n" } else { b"1\n" });
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let make = || Ok(Box::new(PanicsOnX) as Box<dyn Transform + Send>);
        let mut out = Vec::new();
        let r = std::panic::catch_unwind(move || {
            let r = records::run(&Layout::Lines, std::io::Cursor::new(input), &mut out, 2, make);
            (r.map_err(|e| e.to_string()), out)
        });
        let _ = tx.send(r.map_err(drop));
    });
    let ended =
        rx.recv_timeout(Duration::from_secs(20)).expect("records::run still running 20 s after a worker panicked");
    let (r, out) = ended.expect("an error, not a panic");
    assert!(r.unwrap_err().contains("panicked"));
    assert!(out == b"1\n".repeat(batch), "the batches before the failing one are written, and only they");
}

/// A damaged message to stdout (cut inside the packet, or junk appended):
/// the same error, and the same verified plaintext written before it, at
/// one and four threads.
#[test]
fn a_damaged_message_writes_the_same_at_one_and_four_threads() {
    let dir = tempfile::tempdir().unwrap();
    let pw = write_key(dir.path(), "pw", "pw");
    let pw = pw.to_str().unwrap();
    let plain: Vec<u8> = (0..197u32).map(|i| (i * 31) as u8).collect();
    let enc = ["encrypt", "--password-file", pw, "--s2k", "iterated", "--s2k-count", "0", "--chunk-size-octet", "0"];
    let msg = tessera(&enc, &plain);
    assert!(msg.status.success());
    let mut appended = msg.stdout.clone();
    appended.push(0);
    let cut = &msg.stdout[..msg.stdout.len() - 100];
    for damaged in [&appended[..], cut] {
        let run = |t| tessera(&["decrypt", "--password-file", pw, "--threads", t], damaged);
        let (one, four) = (run("1"), run("4"));
        assert!(!one.status.success() && !four.status.success());
        assert_eq!(one.stderr, four.stderr);
        assert!(!one.stdout.is_empty() && plain.starts_with(&one.stdout));
        assert_eq!(one.stdout, four.stdout, "verified plaintext written before the error");
    }
}
