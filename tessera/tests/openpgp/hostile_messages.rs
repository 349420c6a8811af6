//! Hostile messages (built by `tessera::openpgp::hostile`) through every
//! reader of message contents: the `Decryptor`, the `VerifyingDecryptor`
//! (read to the end, `finish`, `finish_results`), at one and several
//! threads, SEIPD v1 buffered and streamed, and the `InlineVerifier`.
//! Whatever the plaintext holds (made by tessera, GnuPG or Sequoia), a
//! damaged end of the encrypted data fails, a packet sequence outside
//! RFC 9580 §10.3's grammar is refused, and so is each leniency of the
//! Cleartext Signature Framework that RFC 9580 §7 does not allow.

use crate::common;

use std::io::Read;
use std::process::Command;

use tessera::openpgp::hostile::{PASSWORD, Shape, Signed, Tamper, compressed, encrypt, packet};
use tessera::openpgp::key::{Cert, GenerateOptions, generate};
use tessera::openpgp::sig::InlineVerifier;
use tessera::openpgp::{DecryptOptions, Decryptor, Error, VerifyingDecryptor};

const NOW: u64 = 1_700_000_002;

fn signer() -> Cert {
    generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() }).unwrap()
}

/// The reading options to try: threads 1 and 4; for v1, buffered and streamed.
fn options(version: u8) -> Vec<DecryptOptions> {
    let mut all = Vec::new();
    for threads in [1, 4] {
        all.push(DecryptOptions { threads, ..Default::default() });
        if version == 1 {
            all.push(DecryptOptions { threads, v1_stream_unauthenticated: true, ..Default::default() });
        }
    }
    all
}

/// Decrypts `msg` every way; `Ok` with the data only if every way agrees
/// that it is well formed and authenticated, and the signature is good.
fn every_way(msg: &[u8], version: u8, certs: &[Cert], now: u64, what: &str) -> Result<Vec<u8>, String> {
    let mut outcomes = Vec::new();
    for opts in options(version) {
        let plain = Decryptor::with_options(msg, &[PASSWORD], &opts).and_then(|mut d| {
            let mut out = Vec::new();
            d.read_to_end(&mut out).map_err(Error::from_io)?;
            Ok(out)
        });
        let verified = VerifyingDecryptor::new(msg, &[PASSWORD], &opts, certs, now).and_then(|mut d| {
            let mut out = Vec::new();
            d.read_to_end(&mut out).map_err(Error::from_io)?;
            d.finish().map(|_| out)
        });
        let results = VerifyingDecryptor::new(msg, &[PASSWORD], &opts, certs, now).and_then(|d| d.finish_results());
        let summary = |r: Result<Vec<u8>, Error>| r.map(|d| d.len()).map_err(|e| e.to_string());
        outcomes.push((plain, summary(verified), results.is_ok()));
    }
    let first = outcomes[0].0.as_ref().map(Vec::clone).map_err(Error::to_string);
    let outcomes: Vec<_> =
        outcomes.into_iter().map(|(p, v, r)| (p.map(|d| d.len()).map_err(|e| e.to_string()), v, r)).collect();
    for (plain, verified, results) in &outcomes {
        assert_eq!(plain.is_ok(), first.is_ok(), "{what}: the Decryptor differs between options: {outcomes:?}");
        assert_eq!(verified.is_ok(), first.is_ok(), "{what}: decrypting and verifying differ: {outcomes:?}");
        assert_eq!(*results, first.is_ok(), "{what}: finish_results differs: {outcomes:?}");
    }
    first
}

#[test]
fn a_damaged_end_fails_whatever_the_plaintext_holds() {
    let key = signer();
    let certs = [key.to_public()];
    let signed = Signed::new(&key, b"signed data", NOW - 1).unwrap();
    for version in [1, 2] {
        for shape in Shape::ALL.into_iter().filter(|s| s.is_valid()) {
            for tamper in Tamper::ALL {
                let what = format!("SEIPD v{version}, {}, {}", shape.name(), tamper.name());
                let r = every_way(&encrypt(&shape.build(&signed), version, tamper), version, &certs, NOW, &what);
                match tamper {
                    Tamper::None => assert_eq!(r.unwrap(), b"signed data", "{what}"),
                    _ => assert!(r.is_err(), "{what}: accepted"),
                }
            }
        }
    }
}

#[test]
fn packet_sequences_outside_the_grammar_are_refused() {
    let key = signer();
    let certs = [key.to_public()];
    let signed = Signed::new(&key, b"signed data", NOW - 1).unwrap();
    for shape in Shape::ALL {
        let plain = shape.build(&signed);
        let inline = InlineVerifier::new(plain.as_slice(), &certs, NOW).and_then(|v| v.verify_to(&mut Vec::new()));
        if shape.is_valid() {
            assert!(inline.unwrap()[0].is_good(), "{}", shape.name());
        } else {
            let e = inline.expect_err(shape.name());
            assert!(matches!(e, Error::Malformed(_) | Error::Unsupported(_)), "{}: {e}", shape.name());
        }
        for version in [1, 2] {
            let what = format!("SEIPD v{version}, {}", shape.name());
            let r = every_way(&encrypt(&plain, version, Tamper::None), version, &certs, NOW, &what);
            assert_eq!(r.is_ok(), shape.is_valid(), "{what}: {r:?}");
        }
    }
}

/// The data the peers sign, 50 times over.
const PEER_DATA: &[u8] = b"signed by a peer\n";

/// What GnuPG 2.2 makes with `--sign` (a compressed data packet holding the
/// one-pass signature, the literal data and the signature), sealed in
/// SEIPD v2 and v1 and damaged at the end.
#[test]
fn a_damaged_end_fails_around_gnupg_compressed_signed_data() {
    if !Command::new("gpg").arg("--version").output().is_ok_and(|o| o.status.success()) {
        assert!(std::env::var_os("TESSERA_REQUIRE_PEERS").is_none(), "TESSERA_REQUIRE_PEERS is set but gpg is missing");
        return eprintln!("skipped: gpg not installed");
    }
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap();
    std::fs::set_permissions(&home, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    let key = generate(&GenerateOptions {
        profile: tessera::openpgp::key::KeyProfile::Rfc4880,
        user_ids: vec!["Peer <peer@example.org>".into()],
        ..Default::default()
    })
    .unwrap();
    let mut sk = Vec::new();
    key.write_armored(&mut sk).unwrap();
    std::fs::write(dir.path().join("k.asc"), sk).unwrap();
    std::fs::write(dir.path().join("data"), PEER_DATA.repeat(50)).unwrap();
    let gpg = |args: &[&str]| {
        let o = Command::new("gpg")
            .arg("--homedir")
            .arg(&home)
            .args(["--batch", "--yes", "--quiet", "--pinentry-mode", "loopback", "--trust-model", "always"])
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "gpg {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    };
    gpg(&["--import", "k.asc"]);
    gpg(&["-o", "signed.gpg", "--sign", "data"]);
    let signed = std::fs::read(dir.path().join("signed.gpg")).unwrap();
    assert_eq!(signed[0], 0xa3, "gpg compressed by default (old-format tag 8, to the end of the input)");
    let certs = [key.to_public()];
    check_peer_made(&signed, &certs, "gpg --sign");
    // The same compressed data packet with a length, then a padding packet
    // (as RFC 9580 writers pad): the packet ends before the plaintext does.
    let framed = [packet(8, &signed[1..]), packet(21, &[0; 32])].concat();
    check_peer_made(&framed, &certs, "gpg --sign, framed and padded");
}

fn check_peer_made(signed: &[u8], certs: &[Cert], who: &str) {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() + 60;
    let want = PEER_DATA.repeat(50);
    for version in [1, 2] {
        for tamper in Tamper::ALL {
            let what = format!("{who}, SEIPD v{version}, {}", tamper.name());
            let r = every_way(&encrypt(signed, version, tamper), version, certs, now, &what);
            match tamper {
                Tamper::None => assert_eq!(r.unwrap(), want, "{what}"),
                _ => assert!(r.is_err(), "{what}: accepted"),
            }
        }
    }
}

#[test]
fn cleartext_framework_leniencies_are_refused() {
    use tessera::openpgp::hostile::{Clear, cleartext};
    use tessera::openpgp::key::KeyProfile;
    use tessera::openpgp::sig::read_cleartext;
    let mut accepted = Vec::new();
    for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
        let user_ids = vec!["Signer <signer@example.org>".into()];
        let key = generate(&GenerateOptions { profile, user_ids, created: Some(1_700_000_000), ..Default::default() })
            .unwrap();
        let certs = [key.to_public()];
        let signed = cleartext(&key, NOW - 1).unwrap();
        for c in Clear::ALL {
            let what = format!("{profile:?}, {}", c.name());
            let mut text = Vec::new();
            let r = read_cleartext(c.build(&signed).as_slice(), &mut text, &certs, NOW);
            if c.is_valid() {
                assert!(r.unwrap()[0].is_good(), "{what}");
                assert_eq!(text, b"first line\nsecond line\n", "{what}");
            } else if !matches!(r, Err(Error::Malformed(_))) {
                accepted.push(what);
            }
        }
    }
    assert!(accepted.is_empty(), "not refused as malformed: {accepted:?}");
}

const SEQUOIA: &str = r#"
import sys, json, base64, warnings
warnings.simplefilter("ignore")
import pysequoia as ps
req = json.load(sys.stdin)
tsk = ps.Tsk.from_bytes(base64.b64decode(req["key"]))
data = base64.b64decode(req["data"])
e = lambda s: base64.b64encode(s).decode()
print(json.dumps({
    "inline": e(ps.sign(tsk.signer(), data, mode=ps.SignatureMode.INLINE)),
    "encrypted": e(ps.encrypt(data, recipients=[tsk.extract_certificate()], signer=tsk.signer())),
}))
"#;

/// Binary packets, from armor if armored.
fn dearmor(m: Vec<u8>) -> Vec<u8> {
    if !m.starts_with(b"-----") {
        return m;
    }
    let mut out = Vec::new();
    tessera::openpgp::armor::ArmorReader::new(m.as_slice()).read_to_end(&mut out).unwrap();
    out
}

/// Sequoia's inline-signed data sealed here and damaged at the end, and
/// Sequoia's own signed and encrypted message (SEIPD v2 for a v6 key) with
/// its final tag zeroed or its last chunk changed (same length: its
/// partial body lengths stay right).
#[test]
fn a_damaged_end_fails_around_sequoia_signed_data() {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD as B64;
    let Some(py) = common::peer_python("pysequoia") else { return };
    let key = generate(&GenerateOptions::default()).unwrap();
    let mut sk = Vec::new();
    key.write_armored(&mut sk).unwrap();
    let req = serde_json::json!({"key": B64.encode(&sk), "data": B64.encode(PEER_DATA.repeat(50))});
    let made = common::run_python(&py, SEQUOIA, &req);
    let field = |n: &str| dearmor(B64.decode(made[n].as_str().unwrap()).unwrap());
    let certs = [key.to_public()];
    check_peer_made(&field("inline"), &certs, "pysequoia inline");
    let framed = [field("inline"), packet(21, &[0; 200])].concat();
    check_peer_made(&framed, &certs, "pysequoia inline, padded");
    // Sequoia does not compress: its packets compressed here, then padded.
    let packed = [compressed(&field("inline"), b""), packet(21, &[0; 200])].concat();
    check_peer_made(&packed, &certs, "pysequoia inline, compressed and padded");
    let encrypted = field("encrypted");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() + 60;
    let n = encrypted.len();
    let mut zeroed = encrypted.clone();
    zeroed[n - 16..].fill(0);
    let mut changed = encrypted.clone();
    changed[n - 33] ^= 1;
    for (what, m, good) in
        [("intact", &encrypted, true), ("zeroed tag", &zeroed, false), ("last chunk", &changed, false)]
    {
        for threads in [1, 4] {
            let opts = DecryptOptions { keys: vec![key.clone()], threads, ..Default::default() };
            let r = VerifyingDecryptor::new(m.as_slice(), &[], &opts, &certs, now).and_then(|mut d| {
                let mut out = Vec::new();
                d.read_to_end(&mut out).map_err(Error::from_io)?;
                d.finish().map(|_| out)
            });
            assert_eq!(r.is_ok(), good, "pysequoia encrypted, {what}, {threads} threads: {:?}", r.err());
        }
    }
}
