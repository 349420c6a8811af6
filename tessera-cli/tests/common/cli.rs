//! Running the `tessera` binary in tests.
#![allow(dead_code)]

use std::process::{Command, Output, Stdio};

/// The `tessera` binary.
pub fn tessera() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
}

/// Runs `cmd` with stdin closed.
pub fn run(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null()).output().expect("run")
}

/// Runs `cmd`, expecting success; its stdout.
pub fn ok(cmd: &mut Command) -> String {
    let o = run(cmd);
    assert!(o.status.success(), "{cmd:?} failed: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Runs `cmd`, expecting failure with one line on stderr that holds `needle`.
pub fn fails(cmd: &mut Command, needle: &str) {
    let o = run(cmd);
    assert!(!o.status.success(), "{cmd:?} succeeded");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(needle), "{cmd:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
