//! Hostile messages (`tessera::openpgp::hostile`) through the binaries:
//! `tessera decrypt` (with and without `--verify-with`), `tessera verify`,
//! `tessera-sop decrypt` and `inline-verify`. A damaged end of the
//! encrypted data fails whatever the plaintext holds, and a packet sequence
//! outside the message grammar is refused: one line, no output file, SOP's
//! exit code for bad data. `tessera verify` to a FIFO or to stdout writes
//! nothing unless a signature is good.

use crate::common;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use tessera::openpgp::hostile::{Shape, Signed, Tamper, encrypt};
use tessera::openpgp::key::{Cert, GenerateOptions, generate};

const T: &str = env!("CARGO_BIN_EXE_tessera");
const SOP: &str = env!("CARGO_BIN_EXE_tessera-sop");
const DATA: &[u8] = b"data that must not be released unverified\n";
/// SOP's exit code for input that is not a valid OpenPGP message.
const BAD_DATA: i32 = 41;

fn run(exe: &str, args: &[&str], dir: &Path, stdin: Option<&Path>) -> Output {
    let input = match stdin {
        Some(p) => Stdio::from(std::fs::File::open(dir.join(p)).unwrap()),
        None => Stdio::null(),
    };
    Command::new(exe).args(args).current_dir(dir).stdin(input).output().expect("run")
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

/// A signer, its certificate in `a.cert`, a stranger's in `b.cert`, the
/// password in `pw`; the parts of `DATA` signed.
fn setup(d: &Path) -> Signed {
    let opts = GenerateOptions { created: Some(now() as u32 - 100), ..Default::default() };
    let (a, b) = (generate(&opts).unwrap(), generate(&opts).unwrap());
    for (k, name) in [(&a, "a.cert"), (&b, "b.cert")] {
        let mut out = Vec::new();
        Cert::to_public(k).write_armored(&mut out).unwrap();
        std::fs::write(d.join(name), out).unwrap();
    }
    common::write_private(&d.join("pw"), "password");
    Signed::new(&a, DATA, now() - 10).unwrap()
}

fn refused(o: &Output, what: &str) {
    assert!(!o.status.success(), "{what}: accepted");
    assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 1, "{what}: {}", String::from_utf8_lossy(&o.stderr));
}

/// `tessera decrypt` (plain and verifying, to a file) and `tessera-sop
/// decrypt --verify-with`: all succeed, or all fail leaving no file.
fn decrypt_every_way(d: &Path, good: bool, what: &str) {
    for verify in [&["--verify-with", "a.cert"][..], &[]] {
        let mut args = vec!["decrypt", "--password-file", "pw", "-o", "out", "m.pgp"];
        args.extend_from_slice(verify);
        let o = run(T, &args, d, None);
        let what = format!("{what}, tessera {args:?}");
        if good {
            assert!(o.status.success(), "{what}: {}", String::from_utf8_lossy(&o.stderr));
            assert_eq!(std::fs::read(d.join("out")).unwrap(), DATA, "{what}");
            std::fs::remove_file(d.join("out")).unwrap();
        } else {
            refused(&o, &what);
            assert!(!d.join("out").exists(), "{what}: output file left");
        }
    }
    let _ = std::fs::remove_file(d.join("v"));
    let args = ["decrypt", "--with-password=pw", "--verify-with=a.cert", "--verifications-out=v"];
    let o = run(SOP, &args, d, Some(Path::new("m.pgp")));
    if good {
        assert!(o.status.success(), "{what}, sop decrypt: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(o.stdout, DATA);
    } else {
        assert_eq!(o.status.code(), Some(BAD_DATA), "{what}, sop decrypt: {}", String::from_utf8_lossy(&o.stderr));
        assert!(!d.join("v").exists(), "{what}: sop wrote verifications");
    }
}

#[test]
fn a_damaged_end_fails_in_every_decrypting_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let signed = setup(d);
    for version in [1, 2] {
        for shape in [Shape::CompressedSigned, Shape::Signed, Shape::NestedCompressed] {
            for tamper in Tamper::ALL {
                std::fs::write(d.join("m.pgp"), encrypt(&shape.build(&signed), version, tamper)).unwrap();
                let what = format!("SEIPD v{version}, {}, {}", shape.name(), tamper.name());
                decrypt_every_way(d, tamper == Tamper::None, &what);
            }
        }
    }
}

#[test]
fn packet_sequences_outside_the_grammar_are_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let signed = setup(d);
    for shape in Shape::ALL.into_iter().filter(|s| !s.is_valid()) {
        let what = shape.name();
        std::fs::write(d.join("m"), shape.build(&signed)).unwrap();
        let o = run(T, &["verify", "--signer", "a.cert", "-o", "out", "m"], d, None);
        refused(&o, what);
        assert!(!d.join("out").exists(), "{what}: output file left");
        let o = run(SOP, &["inline-verify", "a.cert"], d, Some(Path::new("m")));
        assert!(o.stdout.is_empty(), "{what}: sop inline-verify wrote the data");
        assert_eq!(o.status.code(), Some(BAD_DATA), "{what}: {}", String::from_utf8_lossy(&o.stderr));
        for version in [1, 2] {
            std::fs::write(d.join("m.pgp"), encrypt(&shape.build(&signed), version, Tamper::None)).unwrap();
            decrypt_every_way(d, false, &format!("SEIPD v{version}, {what}"));
        }
    }
}

/// Runs `tessera verify --signer CERT -o fifo m` with a reader on the FIFO;
/// returns the exit status's success and what the reader got.
fn verify_to_fifo(d: &Path, cert: &str) -> (bool, Vec<u8>) {
    let fifo = d.join("fifo");
    let _ = std::fs::remove_file(&fifo);
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut got = Vec::new();
            std::fs::File::open(fifo).unwrap().read_to_end(&mut got).unwrap();
            got
        })
    };
    let o = run(T, &["verify", "--signer", cert, "-o", "fifo", "m"], d, None);
    if !reader.is_finished() {
        // The command never opened the FIFO: let the reader go.
        drop(std::fs::OpenOptions::new().write(true).open(&fifo).unwrap());
    }
    (o.status.success(), reader.join().unwrap())
}

#[test]
fn verify_releases_nothing_to_a_fifo_or_stdout_unless_a_signature_is_good() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let signed = setup(d);
    for shape in [Shape::Signed, Shape::CompressedSigned] {
        std::fs::write(d.join("m"), shape.build(&signed)).unwrap();
        assert_eq!(verify_to_fifo(d, "a.cert"), (true, DATA.to_vec()), "{}", shape.name());
        assert_eq!(verify_to_fifo(d, "b.cert"), (false, Vec::new()), "{}: released unverified", shape.name());
        // Stdout, a pipe here, named as the output.
        let o = run(T, &["verify", "--signer", "b.cert", "-o", "/dev/stdout", "m"], d, None);
        assert!(!o.status.success());
        assert!(!o.stdout.windows(DATA.len()).any(|w| w == DATA), "{}: released to stdout", shape.name());
        let o = run(T, &["verify", "--signer", "a.cert", "-o", "/dev/stdout", "m"], d, None);
        assert!(o.status.success() && o.stdout.windows(DATA.len()).any(|w| w == DATA));
    }
}

#[test]
fn cleartext_framework_leniencies_are_refused_by_every_command() {
    use tessera::openpgp::hostile::{Clear, cleartext};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    setup(d);
    let opts = GenerateOptions { created: Some(now() as u32 - 100), ..Default::default() };
    let key = generate(&opts).unwrap();
    let mut cert = Vec::new();
    key.to_public().write_armored(&mut cert).unwrap();
    std::fs::write(d.join("c.cert"), cert).unwrap();
    let signed = cleartext(&key, now() - 10).unwrap();
    for c in Clear::ALL {
        std::fs::write(d.join("m.txt"), c.build(&signed)).unwrap();
        let o = run(T, &["verify", "--signer", "c.cert", "-o", "out", "m.txt"], d, None);
        let s = run(SOP, &["inline-verify", "c.cert"], d, Some(Path::new("m.txt")));
        if c.is_valid() {
            assert!(o.status.success(), "{}: {}", c.name(), String::from_utf8_lossy(&o.stderr));
            assert_eq!(std::fs::read(d.join("out")).unwrap(), b"first line\nsecond line\n");
            std::fs::remove_file(d.join("out")).unwrap();
            assert!(s.status.success(), "{}: {}", c.name(), String::from_utf8_lossy(&s.stderr));
        } else {
            refused(&o, c.name());
            assert!(!d.join("out").exists(), "{}: output file left", c.name());
            assert_eq!(s.status.code(), Some(BAD_DATA), "{}: {}", c.name(), String::from_utf8_lossy(&s.stderr));
            assert!(s.stdout.is_empty(), "{}: sop inline-verify wrote the text", c.name());
        }
    }
}
