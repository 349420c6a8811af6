//! Issue 14 through the binaries: `tessera decrypt` and `tessera-sop`
//! give one answer (exit code, message, output) for every modification of
//! a streamed v1 message; the S2K and decompression limits are flags with
//! safe defaults; `--session-key-out` appears (0600) only after success;
//! empty passwords are refused by `tessera-sop encrypt` with the library's
//! words.

use crate::common;

use std::collections::BTreeSet;
use std::io::Write;

use tessera::openpgp::packet::{tag, write_packet};
use tessera::openpgp::s2k::{HashAlg, S2k, S2kLimits};
use tessera::openpgp::seipd::MdcSealer;
use tessera::openpgp::skesk::Skesk;
use tessera::openpgp::{EMPTY_PASSWORD, EncryptOptions, Encryptor, SymAlg};

const PW: &[u8] = b"correct horse";

fn tessera(args: &[&str], stdin: &[u8]) -> std::process::Output {
    common::run_with_stdin(env!("CARGO_BIN_EXE_tessera"), args, stdin)
}

fn sop(args: &[&str], stdin: &[u8]) -> std::process::Output {
    common::run_with_stdin(env!("CARGO_BIN_EXE_tessera-sop"), args, stdin)
}

fn literal(data: &[u8]) -> Vec<u8> {
    let mut body = vec![b'b', 0, 0, 0, 0, 0];
    body.extend_from_slice(data);
    let mut out = Vec::new();
    write_packet(&mut out, tag::LITERAL, &body).unwrap();
    out
}

/// A v1 message (SKESK v4 whose S2K output is the key, SEIPD v1) around
/// `inner`, and the offset of the SEIPD body after its version octet.
fn v1_message(inner: &[u8]) -> (Vec<u8>, usize) {
    let s2k = S2k::Iterated { hash: HashAlg::Sha256, salt: [5; 8], count: 0 };
    let key = s2k.derive(PW, 16, &S2kLimits::default()).unwrap();
    let mut msg = Vec::new();
    let mut body = Vec::new();
    Skesk::V4 { cipher: SymAlg::Aes128, s2k, esk: None }.write(&mut body);
    write_packet(&mut msg, tag::SKESK, &body).unwrap();
    let mut seipd = vec![1u8];
    let mut s = MdcSealer::new(&mut seipd, &key).unwrap();
    s.write_all(inner).unwrap();
    s.finish().unwrap();
    let start = msg.len() + 6 + 1;
    write_packet(&mut msg, tag::SEIPD, &seipd).unwrap();
    (msg, start)
}

#[test]
fn v1_modifications_give_one_answer_in_both_binaries() {
    let dir = tempfile::tempdir().unwrap();
    let pw_file = dir.path().join("pw");
    common::write_private(&pw_file, PW);
    let pw_file = pw_file.to_str().unwrap();
    let plain = vec![0x61u8; 150_000];
    let (msg, start) = v1_message(&literal(&plain));
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    assert_eq!(tessera(&["decrypt", "--password-file", pw_file], &msg).stdout, plain);
    let mut cli = BTreeSet::new();
    let mut sop_answers = BTreeSet::new();
    for at in (start + 18..start + 26).chain([start + 100_000]) {
        for bit in [0, 3, 7] {
            let mut bad = msg.clone();
            bad[at] ^= 1 << bit;
            for args in
                [&["decrypt", "--password-file", pw_file][..], &["decrypt", "--password-file", pw_file, "-o", out]]
            {
                let o = tessera(args, &bad);
                assert!(o.stdout.is_empty() && !std::path::Path::new(out).exists());
                cli.insert((o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned()));
            }
            let o = sop(&["decrypt", &format!("--with-password={pw_file}")], &bad);
            assert!(o.stdout.is_empty());
            sop_answers.insert((o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned()));
        }
    }
    assert_eq!(cli.len(), 1, "{cli:?}");
    assert!(cli.iter().next().unwrap().1.contains("authentication failed (MDC)"), "{cli:?}");
    assert_eq!(sop_answers.len(), 1, "{sop_answers:?}");
    assert_eq!(sop_answers.iter().next().unwrap().0, Some(41));
}

fn encrypt_default(plain: &[u8]) -> Vec<u8> {
    // The default S2K: Argon2 with 64 MiB.
    let mut e = Encryptor::new(Vec::new(), &[PW], &EncryptOptions::default()).unwrap();
    e.write_all(plain).unwrap();
    e.finish().unwrap()
}

#[test]
fn s2k_limits_are_flags_and_name_themselves() {
    let dir = tempfile::tempdir().unwrap();
    let pw_file = dir.path().join("pw");
    common::write_private(&pw_file, PW);
    let pw_file = pw_file.to_str().unwrap();
    let msg = encrypt_default(b"hello");
    assert_eq!(tessera(&["decrypt", "--password-file", pw_file], &msg).stdout, b"hello");
    for (flag, value) in [("--max-argon2-memory", "32M"), ("--max-argon2-passes", "2"), ("--max-s2k-work", "100M")] {
        let o = tessera(&["decrypt", "--password-file", pw_file, flag, value], &msg);
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("limit exceeded") && err.contains(flag), "{flag}: {err}");
    }
    let o = tessera(&["decrypt", "--password-file", pw_file, "--max-argon2-memory", "12X"], &msg);
    assert!(String::from_utf8_lossy(&o.stderr).contains("suffix"));
}

#[test]
fn decompressed_size_has_a_flag() {
    let dir = tempfile::tempdir().unwrap();
    let pw_file = dir.path().join("pw");
    common::write_private(&pw_file, PW);
    let pw_file = pw_file.to_str().unwrap();
    let mut z = flate2::write::ZlibEncoder::new(vec![2u8], flate2::Compression::best());
    z.write_all(&literal(&vec![0; 3 << 20])).unwrap();
    let mut inner = Vec::new();
    write_packet(&mut inner, tag::COMPRESSED, &z.finish().unwrap()).unwrap();
    let (msg, _) = v1_message(&inner);
    assert!(msg.len() < 10_000);
    assert_eq!(tessera(&["decrypt", "--password-file", pw_file], &msg).stdout.len(), 3 << 20);
    let o = tessera(&["decrypt", "--password-file", pw_file, "--max-decompressed-size", "1M"], &msg);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && o.stdout.is_empty(), "{err}");
    assert!(err.contains("--max-decompressed-size"), "{err}");
}

#[test]
fn session_key_out_appears_private_and_only_after_success() {
    let dir = tempfile::tempdir().unwrap();
    let pw_file = dir.path().join("pw");
    common::write_private(&pw_file, PW);
    let with = format!("--with-password={}", pw_file.display());
    let msg = encrypt_default(&[7; 100_000]);
    let sk = dir.path().join("sk");
    let sk_arg = format!("--session-key-out={}", sk.display());
    // Failures: wrong password, a modified message (after the key opened it).
    let wrong = dir.path().join("wrong");
    common::write_private(&wrong, b"nope");
    let o = sop(&["decrypt", &format!("--with-password={}", wrong.display()), &sk_arg], &msg);
    assert_eq!(o.status.code(), Some(29));
    let mut bad = msg.clone();
    let n = bad.len();
    bad[n - 40] ^= 1;
    let o = sop(&["decrypt", &with, &sk_arg], &bad);
    assert_eq!(o.status.code(), Some(41));
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 2, "nothing but pw and wrong (no session key file, no temporary): {left:?}");
    // Success: the file exists, 0600.
    let o = sop(&["decrypt", &with, &sk_arg], &msg);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    #[cfg(unix)]
    assert_eq!(std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&sk).unwrap().permissions()) & 0o777, 0o600);
    assert!(std::fs::read_to_string(&sk).unwrap().starts_with("9:"));
    // It must not exist beforehand.
    let o = sop(&["decrypt", &with, &sk_arg], &msg);
    assert_eq!(o.status.code(), Some(59));
}

#[test]
fn empty_passwords_are_refused_with_one_message() {
    let dir = tempfile::tempdir().unwrap();
    let blank = dir.path().join("blank");
    std::fs::write(&blank, b"  \n\t\n").unwrap();
    let o = sop(&["encrypt", &format!("--with-password={}", blank.display())], b"data");
    assert_eq!(o.status.code(), Some(31));
    assert!(o.stdout.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains(EMPTY_PASSWORD));
    let empty = dir.path().join("empty");
    common::write_private(&empty, b"\n");
    let o = tessera(&["encrypt", "--password-file", empty.to_str().unwrap()], b"data");
    assert!(String::from_utf8_lossy(&o.stderr).contains(EMPTY_PASSWORD));
    // The library refuses it too.
    let e = Encryptor::new(Vec::new(), &[b"".as_slice()], &EncryptOptions::default()).unwrap_err();
    assert!(e.to_string().contains(EMPTY_PASSWORD));
}
