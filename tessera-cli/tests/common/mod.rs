//! Shared by the CLI tests: run a binary with bytes on stdin; find the
//! interop peers (or skip when they are missing).

pub mod cli;
pub mod gnupg;
pub mod sop;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `exe args`, feeding `stdin` from a thread (so large inputs cannot
/// deadlock against a full stdout pipe), and collects its output.
#[allow(dead_code)]
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

/// The Python interpreter that has `pysequoia` (`TESSERA_PYTHON`, else the
/// repository's `.venv`), if there is one.
#[allow(dead_code)]
pub fn pysequoia() -> Option<PathBuf> {
    python_with("pysequoia")
}

/// The peers' Python interpreter (`TESSERA_PYTHON`, else the repository's
/// `.venv`) if it can import `module`.
#[allow(dead_code)]
pub fn python_with(module: &str) -> Option<PathBuf> {
    let p: PathBuf = match std::env::var_os("TESSERA_PYTHON") {
        Some(p) => p.into(),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python"),
    };
    let import = format!("import {module}");
    Command::new(&p).args(["-c", &import]).output().is_ok_and(|o| o.status.success()).then_some(p)
}

/// Skips a test whose peer `what` is missing, unless `TESSERA_REQUIRE_PEERS` is set.
#[allow(dead_code)]
pub fn skip_peer(what: &str) {
    assert!(std::env::var_os("TESSERA_REQUIRE_PEERS").is_none(), "TESSERA_REQUIRE_PEERS is set but {what} is missing");
    eprintln!("skipped: {what} not installed");
}

/// The start of the `pysequoia` scripts: `cmd` is the first argument, and
/// `generate v6|v4 KEY CERT` makes a Sequoia key; a script continues with
/// `elif cmd == ...` branches.
#[allow(dead_code)]
pub const SEQUOIA_GENERATE: &str = r#"
import sys, warnings
warnings.simplefilter("ignore")
import pysequoia as ps
cmd = sys.argv[1]
if cmd == "generate":
    profile = ps.Profile.RFC9580 if sys.argv[2] == "v6" else ps.Profile.RFC4880
    t = ps.Tsk.generate("Seq <seq@example.org>", profile=profile)
    open(sys.argv[3], "w").write(str(t))
    open(sys.argv[4], "w").write(str(t.extract_certificate()))
"#;

/// After [`SEQUOIA_GENERATE`]: `encrypt CERTS...` and `decrypt KEY [PASSWORD]`.
#[allow(dead_code)]
pub const SEQUOIA_ENCRYPT_DECRYPT: &str = r#"
elif cmd == "encrypt":
    certs = [ps.Cert.from_file(f) for f in sys.argv[2:]]
    sys.stdout.buffer.write(ps.encrypt(recipients=certs, bytes=sys.stdin.buffer.read(), armor=False))
else:
    t = ps.Tsk.from_file(sys.argv[2])
    pw = sys.argv[3] if len(sys.argv) > 3 else None
    sys.stdout.buffer.write(ps.decrypt(decryptor=t.decryptor(pw), bytes=sys.stdin.buffer.read()).bytes)
"#;

/// Writes a password file as one should be: readable by its owner only
/// (one open to others gets a warning on stderr).
#[allow(dead_code)]
pub fn write_private(path: &std::path::Path, data: impl AsRef<[u8]>) {
    std::fs::write(path, data).unwrap();
    #[cfg(unix)]
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
}

/// Runs the `pysequoia` script [`SEQUOIA_GENERATE`] followed by the
/// `elif` branches `more` with `args`, expecting success; its stdout.
#[allow(dead_code)]
pub fn run_sequoia(py: &std::path::Path, more: &str, args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let script = format!("{SEQUOIA_GENERATE}{more}");
    let o = run_with_stdin(py.to_str().unwrap(), &[&["-c", &script][..], args].concat(), stdin);
    assert!(o.status.success(), "pysequoia {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

/// Runs `tessera args` with `stdin`.
#[allow(dead_code)]
pub fn tessera_run(args: &[&str], stdin: &[u8]) -> Output {
    run_with_stdin(env!("CARGO_BIN_EXE_tessera"), args, stdin)
}

/// Runs `tessera args` with `stdin`, expecting success; its stdout.
#[allow(dead_code)]
pub fn tessera_ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = tessera_run(args, stdin);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// Runs `tessera args` with `stdin`, expecting failure and nothing on
/// stdout; its stderr.
#[allow(dead_code)]
pub fn tessera_fails(args: &[&str], stdin: &[u8]) -> String {
    let out = tessera_run(args, stdin);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(out.stdout.is_empty(), "{args:?} wrote output");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A temporary directory for keyset tests, holding the keyset password
/// file `pw` ("correct horse") and a wrong one, `bad`.
#[allow(dead_code)]
pub struct KeysetDir {
    pub dir: tempfile::TempDir,
}

#[allow(dead_code)]
impl KeysetDir {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        write_private(&dir.path().join("pw"), "correct horse\n");
        write_private(&dir.path().join("bad"), "wrong\n");
        KeysetDir { dir }
    }
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    /// The path of `name` in the directory, as a string.
    pub fn s(&self, name: &str) -> String {
        self.path(name).to_str().unwrap().to_string()
    }
}
