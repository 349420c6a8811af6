//! `tessera siv --csv` against an independent CSV reader, Python's `csv`
//! module, on random files: quoted commas, doubled quotes, line breaks
//! inside quotes, a `"` inside an unquoted field (literal), empty fields,
//! blank lines, and LF, CRLF and CR record ends mixed in one file, with or
//! without a final one. Python's reading of tessera's output must have the input's
//! records and fields, every target field encrypted (base64url, changed)
//! and every other field unchanged; decrypting gives Python's reading of
//! the input back; 1 and 3 threads give the same bytes. Skipped with a note
//! where `python3` is missing.

use crate::common;

use std::path::Path;
use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_tessera");

/// The files' checks, run by Python over `DIR/N.{in,out,back,target}`.
const CHECK: &str = r#"
import csv, io, pathlib, re, sys
d, bad = pathlib.Path(sys.argv[1]), []
read = lambda p: list(csv.reader(io.StringIO(p.read_bytes().decode(), newline="")))
for p in sorted(d.glob("*.in")):
    n, target = p.stem, int((d / (p.stem + ".target")).read_text())
    want, got, back = read(p), read(d / (n + ".out")), read(d / (n + ".back"))
    if [len(r) for r in got] != [len(r) for r in want]:
        bad.append(f"{n}: records or fields differ"); continue
    for g, w in zip(got[1:], want[1:]):
        for i, (a, b) in enumerate(zip(g, w)):
            if i == target and (a == b or not re.fullmatch(r"[A-Za-z0-9_-]+", a)):
                bad.append(f"{n}: target {b!r} -> {a!r}")
            if i != target and a != b:
                bad.append(f"{n}: field {i} {b!r} -> {a!r}")
    if back != want:
        bad.append(f"{n}: decrypted file reads differently")
print("\n".join(bad[:20]) or f"{len(list(d.glob('*.in')))} files agree")
sys.exit(1 if bad else 0)
"#;

/// A small deterministic generator (the files must not change between runs).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// One field as it appears in the file: quoted when it must be (or at
/// random), else raw, which may hold a literal `"`.
fn field(r: &mut Rng, target: bool) -> String {
    const PIECES: [&str; 11] = ["a", "b", ",", "\"", "\n", "\r\n", "\r", " ", "7", "é", "x\"y"];
    let mut s: String = (0..r.below(6)).map(|_| PIECES[r.below(PIECES.len())]).collect();
    if target && s.is_empty() {
        s.push('v'); // the target column holds text to encrypt
    }
    let must = s.contains([',', '\r', '\n']) || s.starts_with('"');
    if must || r.below(3) == 0 { format!("\"{}\"", s.replace('"', "\"\"")) } else { s }
}

/// A CSV file of 1 to 4 columns and 1 to 30 rows, and its target column.
fn file(r: &mut Rng) -> (String, usize) {
    let cols = 1 + r.below(4);
    let target = r.below(cols);
    let mut text = (0..cols).map(|i| format!("c{i}")).collect::<Vec<_>>().join(",");
    for _ in 0..1 + r.below(30) {
        text.push_str(["\n", "\r\n", "\r"][r.below(3)]);
        if r.below(8) == 0 {
            continue; // a blank line: no fields
        }
        let row: Vec<String> = (0..cols).map(|i| field(r, i == target)).collect();
        text.push_str(&row.join(","));
    }
    if r.below(2) == 0 {
        text.push_str(["\n", "\r\n", "\r"][r.below(3)]);
    }
    (text, target)
}

fn tessera(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = common::run_with_stdin(EXE, args, stdin);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

#[test]
fn python_reads_the_same_records_and_fields() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("note: python3 not found: CSV cross-check skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = d.join("key");
    std::fs::write(&key, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n").unwrap();
    let key = key.to_str().unwrap();
    let mut r = Rng(0x5eed);
    for n in 0..200 {
        let (text, target) = file(&mut r);
        let col = format!("c{target}");
        let enc = |t: &str| {
            tessera(&["siv", "encrypt", "--key-file", key, "--csv", "--columns", &col, "--threads", t], text.as_bytes())
        };
        let out = enc("1");
        assert_eq!(enc("3"), out, "file {n}: 1 and 3 threads");
        let back = tessera(&["siv", "decrypt", "--key-file", key, "--csv", "--columns", &col], &out);
        let put = |ext: &str, data: &[u8]| std::fs::write(d.join(format!("{n:03}.{ext}")), data).unwrap();
        put("in", text.as_bytes());
        put("out", &out);
        put("back", &back);
        put("target", target.to_string().as_bytes());
    }
    check_with_python(d);
}

fn check_with_python(d: &Path) {
    let out = Command::new("python3").arg("-c").arg(CHECK).arg(d).output().expect("run python3");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "Python's csv disagrees:\n{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("200 files agree"), "{said}");
}
