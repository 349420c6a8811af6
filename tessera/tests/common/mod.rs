//! Helpers shared by the integration tests: a counting global allocator and
//! the standard vectors.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts allocations made by the current thread, and the live heap bytes
/// and their peak (tests run in parallel, so the counters are per thread).
pub struct CountingAlloc;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
    // Live heap bytes allocated by this thread (minus those it freed; memory
    // freed by another thread is not seen) and the high-water mark.
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn grow(n: usize) {
    let _ = LIVE.try_with(|l| {
        let v = l.get() + n as i64;
        l.set(v);
        let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
    });
}

fn shrink(n: usize) {
    let _ = LIVE.try_with(|l| l.set(l.get() - n as i64));
}

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        grow(layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrink(layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        shrink(layout.size());
        grow(new_size);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Number of heap allocations (and reallocations) `f` makes on this thread.
pub fn count_allocs<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = ALLOCS.with(|c| c.get());
    let r = f();
    let after = ALLOCS.with(|c| c.get());
    (r, after - before)
}

/// Runs `f` and returns its result with the peak of heap bytes this thread
/// held live during `f`, above what it held before (allocations made and
/// freed inside `f` count while they live).
pub fn peak_bytes<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let start = LIVE.with(|l| l.get());
    PEAK.with(|p| p.set(start));
    let r = f();
    let peak = PEAK.with(|p| p.get());
    (r, (peak - start).max(0) as u64)
}

pub fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("hex")
}

pub fn vectors(name: &str) -> serde_json::Value {
    let path = format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("vector file")).expect("json")
}

/// The Python interpreter with the peer packages (scripts/install-peers), or
/// `None` when it is missing. With `TESSERA_REQUIRE_PEERS` set (the project's
/// test script sets it), a missing interpreter fails the test instead.
pub fn peer_python(modules: &str) -> Option<std::path::PathBuf> {
    let candidate = std::env::var_os("TESSERA_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python"));
    let ok = std::process::Command::new(&candidate)
        .args(["-c", &format!("import {modules}")])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if ok {
        return Some(candidate);
    }
    if std::env::var_os("TESSERA_REQUIRE_PEERS").is_some() {
        panic!("peer Python packages ({modules}) missing at {}: run scripts/install-peers", candidate.display());
    }
    eprintln!("skipped: peer Python packages ({modules}) not installed; run scripts/install-peers");
    None
}

/// Runs `script` under the peer Python with `input` as JSON on stdin and
/// parses its stdout as JSON.
pub fn run_python(python: &std::path::Path, script: &str, input: &serde_json::Value) -> serde_json::Value {
    use std::io::Write;
    let mut child = std::process::Command::new(python)
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start python");
    child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
    let out = child.wait_with_output().expect("python ran");
    assert!(out.status.success(), "python failed");
    serde_json::from_slice(&out.stdout).expect("python printed JSON")
}

/// Whether Sequoia (pysequoia, under `python`) finds a good signature
/// among each `(certificates, signature)` pair over `data`: one verdict per
/// pair, from one interpreter.
pub fn sequoia_verifies(
    python: &std::path::Path,
    cases: &[(&[tessera::openpgp::key::Cert], &tessera::openpgp::sig::Signature)],
    data: &[u8],
) -> Vec<bool> {
    let encoded: Vec<_> = cases
        .iter()
        .map(|(certs, sig)| {
            let mut bytes = Vec::new();
            for c in certs.iter() {
                bytes.extend_from_slice(&c.to_bytes().expect("serialize"));
            }
            let sig =
                tessera::openpgp::sig::write_signatures(Vec::new(), std::slice::from_ref(*sig), false).expect("write");
            (bytes, sig, data.to_vec())
        })
        .collect();
    sequoia_verifies_bytes(python, &encoded)
}

/// Whether Sequoia (pysequoia, under `python`) finds a good signature in
/// each `(certificates, signature, data)` case, all given as bytes: the
/// certificates as one keyring, the signature as a detached signature file
/// over `data`, or, when empty, `data` as an inline-signed message. A
/// keyring or signature Sequoia does not read is `false`.
pub fn sequoia_verifies_bytes(python: &std::path::Path, cases: &[(Vec<u8>, Vec<u8>, Vec<u8>)]) -> Vec<bool> {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD as B64;
    const SCRIPT: &str = r#"
import sys, json, base64, warnings
warnings.simplefilter("ignore")
import pysequoia as ps
b = lambda s: base64.b64decode(s)
out = []
for case in json.load(sys.stdin):
    try:
        certs = ps.Cert.split_bytes(b(case["certs"]))
        sig = ps.Sig.from_bytes(b(case["sig"])) if case["sig"] else None
        r = ps.verify(bytes=b(case["data"]), store=lambda ids: certs, signature=sig)
        out.append(len(r.valid_sigs) > 0)
    except Exception:
        out.append(False)
print(json.dumps(out))
"#;
    let input: Vec<_> = cases
        .iter()
        .map(|(certs, sig, data)| {
            serde_json::json!({"certs": B64.encode(certs), "sig": B64.encode(sig), "data": B64.encode(data)})
        })
        .collect();
    let out = run_python(python, SCRIPT, &serde_json::Value::Array(input));
    out.as_array().expect("a list").iter().map(|v| v.as_bool().expect("a verdict")).collect()
}

/// A ZIP stream of `head` then `mib` MiB of zeros, about 1000:1: one sync
/// flushed MiB repeated (it decodes the same after any run of zeros).
pub fn deflate_bomb(head: &[u8], mib: usize) -> Vec<u8> {
    use std::io::Write;
    let zeros = vec![0u8; 1 << 20];
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(head).unwrap();
    e.write_all(&zeros).unwrap();
    e.flush().unwrap();
    let first = e.get_ref().len();
    e.write_all(&zeros).unwrap();
    e.flush().unwrap();
    let next = e.get_ref()[first..].to_vec();
    let mut out = e.get_ref()[..first].to_vec();
    for _ in 1..mib {
        out.extend_from_slice(&next);
    }
    out.extend_from_slice(&[0x03, 0x00]); // a final, empty, fixed-Huffman block
    out
}

/// What Sequoia (pysequoia, under `python`) decrypts out of each message
/// with the password `password` (`None` where it fails).
pub fn sequoia_decrypts(python: &std::path::Path, messages: &[Vec<u8>], password: &str) -> Vec<Option<Vec<u8>>> {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD as B64;
    const SCRIPT: &str = r#"
import sys, json, base64, warnings
warnings.simplefilter("ignore")
import pysequoia as ps
req = json.load(sys.stdin)
out = []
for m in req["messages"]:
    try:
        plain = ps.decrypt(base64.b64decode(m), passwords=[req["password"]]).bytes
        out.append(base64.b64encode(plain).decode())
    except Exception:
        out.append(None)
print(json.dumps(out))
"#;
    let messages: Vec<_> = messages.iter().map(|m| B64.encode(m)).collect();
    let out = run_python(python, SCRIPT, &serde_json::json!({"messages": messages, "password": password}));
    out.as_array().expect("a list").iter().map(|p| p.as_str().map(|p| B64.decode(p).expect("base64"))).collect()
}

/// Whether GnuPG (`gpg`) is installed; when it is not, says so and
/// returns false, or fails with `TESSERA_REQUIRE_PEERS` set.
pub fn have_gpg() -> bool {
    if std::process::Command::new("gpg").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return true;
    }
    assert!(std::env::var_os("TESSERA_REQUIRE_PEERS").is_none(), "TESSERA_REQUIRE_PEERS is set but gpg is missing");
    eprintln!("skipped: gpg not installed");
    false
}

/// Runs gpg with its home in `home` (batch, empty passphrases, no trust
/// questions) and `args`; its stdout, or a panic with its stderr.
pub fn gpg(home: &std::path::Path, args: &[&str]) -> Vec<u8> {
    let out = std::process::Command::new("gpg")
        .arg("--homedir")
        .arg(home)
        .args(["--batch", "--yes", "--quiet", "--trust-model", "always", "--pinentry-mode", "loopback"])
        .args(["--passphrase", ""])
        .args(args)
        .output()
        .expect("run gpg");
    assert!(out.status.success(), "gpg {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// `n` bytes of a fixed pattern that differs with `seed`.
pub fn pattern(n: usize, seed: u8) -> Vec<u8> {
    (0..n).map(|i| (i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed as u32).rotate_left(9) as u8).collect()
}

/// Every (byte index, bit mask) of an `n`-byte string.
pub fn bits(n: usize) -> impl Iterator<Item = (usize, u8)> {
    (0..n * 8).map(|b| (b / 8, 1u8 << (b % 8)))
}

/// `v` with the bits `m` of byte `i` flipped.
pub fn flip(v: &[u8], i: usize, m: u8) -> Vec<u8> {
    let mut v = v.to_vec();
    v[i] ^= m;
    v
}

/// Proptest settings: `cases` cases, no regression files.
pub fn config(cases: u32) -> proptest::prelude::ProptestConfig {
    proptest::prelude::ProptestConfig { cases, failure_persistence: None, ..Default::default() }
}

/// Any bytes, up to `max` of them.
pub fn bytes(max: usize) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    proptest::collection::vec(proptest::prelude::any::<u8>(), 0..=max)
}

pub mod hostile;
pub mod quick_check;
