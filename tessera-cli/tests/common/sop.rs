//! `tessera-sop` test helpers: a temporary directory, running the binary,
//! and keys made by it.
#![allow(dead_code)]

use std::process::Output;

pub const SOP: &str = env!("CARGO_BIN_EXE_tessera-sop");

pub struct Dir(pub tempfile::TempDir);

impl Dir {
    pub fn new() -> Self {
        Dir(tempfile::tempdir().unwrap())
    }
    pub fn p(&self, name: &str) -> String {
        self.0.path().join(name).to_string_lossy().into_owned()
    }
    pub fn write(&self, name: &str, data: &[u8]) -> String {
        std::fs::write(self.p(name), data).unwrap();
        self.p(name)
    }
    pub fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.p(name)).unwrap()
    }
}

pub fn sop(args: &[&str], stdin: &[u8]) -> Output {
    super::run_with_stdin(SOP, args, stdin)
}

/// Runs `tessera-sop`, expecting success; its stdout.
pub fn sop_ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let o = sop(args, stdin);
    assert!(o.status.success(), "tessera-sop {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

/// Runs `tessera-sop`, expecting exit `code` and no output.
pub fn sop_code(args: &[&str], stdin: &[u8], code: i32) {
    let o = sop(args, stdin);
    assert_eq!(o.status.code(), Some(code), "tessera-sop {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty() || code == 0, "tessera-sop {args:?} wrote output on failure");
}

/// A key `name.key` (optionally locked with the password file `pw`) and
/// its certificate `name.cert`.
pub fn key(d: &Dir, name: &str, extra: &[&str]) -> (String, String) {
    let uid = format!("{name} <{name}@example.org>");
    let mut args = vec!["generate-key"];
    args.extend(extra);
    args.push(&uid);
    let k = d.write(&format!("{name}.key"), &sop_ok(&args, b""));
    let c = d.write(&format!("{name}.cert"), &sop_ok(&["extract-cert"], &d.read(&format!("{name}.key"))));
    (k, c)
}
