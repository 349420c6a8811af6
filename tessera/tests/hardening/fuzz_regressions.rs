//! Replays the fuzz seeds (`fuzz/seeds/<target>/`) and every input a fuzzer
//! ever crashed on through the fuzz harnesses themselves, so that
//! `cargo test` runs the harness code and keeps past crashes fixed.
//!
//! The harnesses live in `fuzz/src/harness.rs` (see `fuzz/README.md`);
//! they panic only when tessera breaks a promise (a panic of its own, a
//! round trip that does not round-trip, two paths that disagree).

#[path = "../../../fuzz/src/harness.rs"]
#[allow(dead_code, unused_imports)]
mod harness;

use std::fs;
use std::path::PathBuf;

fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds").join(target);
    let mut v: Vec<(String, Vec<u8>)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let p = e.expect("entry").path();
            (p.file_name().expect("name").to_string_lossy().into_owned(), fs::read(&p).expect("seed"))
        })
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no seeds in {}", dir.display());
    v
}

#[test]
fn packet_parse_seeds() {
    for (_, data) in seeds("packet_parse") {
        harness::packet_parse(&data);
    }
}

#[test]
fn armor_decode_seeds() {
    for (_, data) in seeds("armor_decode") {
        harness::armor_decode(&data);
    }
}

#[test]
fn decrypt_password_seeds() {
    let mut opened = 0;
    for (name, data) in seeds("decrypt_password") {
        let ok = harness::decrypt_password(&data);
        // Messages made for the seeds open; the RFC 9580 ones ask for more
        // S2K work (Argon2 with 2 GiB, 65 MB of iterated hashing) than the
        // harness allows.
        // The hostile ones open only when intact and well formed (nested
        // compressed data is, within the depth limit).
        let well_formed = name.ends_with("_intact.gpg") || name.ends_with("_nested_compressed.gpg");
        let hostile = name.starts_with("hostile_") && !well_formed;
        assert_eq!(ok, !name.starts_with("rfc9580") && !hostile, "{name}");
        opened += ok as usize;
    }
    assert!(opened >= 10);
}

#[test]
fn decrypt_session_key_seeds() {
    for (name, data) in seeds("decrypt_session_key") {
        let ok = harness::decrypt_session_key(&data);
        // Plaintext streams that are not a single literal data packet
        // (compressed or not) are refused, and so is a signature after the
        // data without its one-pass signature.
        let bad = ["bzip2", "two_literals", "trailing_sig"].iter().any(|b| name.contains(b))
            || name.contains("_hostile_") && !hostile_layout_allowed(&name);
        assert_eq!(ok, !bad, "{name}");
    }
}

/// Whether a `m*_hostile_<layout>.bin` seed holds a layout the message
/// grammar allows (`tessera::openpgp::hostile::Shape::is_valid`).
fn hostile_layout_allowed(name: &str) -> bool {
    [
        "_hostile_signed.bin",
        "_hostile_compressed_signed.bin",
        "_hostile_signature_first.bin",
        "_hostile_nested_compressed.bin",
    ]
    .iter()
    .any(|s| name.ends_with(s))
}

#[test]
fn decrypt_key_seeds() {
    let mut opened = 0;
    for (name, data) in seeds("decrypt_key") {
        let ok = harness::decrypt_key(&data);
        // Seeds named "bad_" are refused (a key without a matching PKESK,
        // a modified message); the others open.
        assert_eq!(ok, !name.starts_with("bad_"), "{name}");
        opened += ok as usize;
    }
    assert!(opened >= 6);
}

#[test]
fn sig_parse_seeds() {
    for (_, data) in seeds("sig_parse") {
        harness::sig_parse(&data);
    }
}

#[test]
fn inspect_seeds() {
    for target in ["inspect", "sig_parse", "cert_parse", "decrypt_password"] {
        for (_, data) in seeds(target) {
            harness::inspect(&data);
        }
    }
}

#[test]
fn fpe_text_seeds() {
    for (_, data) in seeds("fpe_text") {
        harness::fpe_text(&data);
    }
}

#[test]
fn siv_decrypt_seeds() {
    for (_, data) in seeds("siv_decrypt") {
        harness::siv_decrypt(&data);
    }
}

#[test]
fn empty_and_tiny_inputs() {
    for data in [&[][..], &[0], &[1], &[2], &[0xff], &[0x80, 0x80], &[0xc3, 0xff]] {
        harness::packet_parse(data);
        harness::armor_decode(data);
        assert!(!harness::decrypt_password(data));
        harness::decrypt_session_key(data);
        harness::fpe_text(data);
        harness::siv_decrypt(data);
        assert!(!harness::decrypt_key(data));
        harness::sig_parse(data);
        harness::inspect(data);
    }
}
