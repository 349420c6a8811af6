//! Shared by the CLI tests: run a binary with bytes on stdin.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `exe args`, feeding `stdin` from a thread (so large inputs cannot
/// deadlock against a full stdout pipe), and collects its output.
pub fn run_with_stdin(exe: &str, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the binary");
    let mut input = child.stdin.take().expect("piped stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("binary output");
    writer.join().expect("stdin writer");
    out
}
