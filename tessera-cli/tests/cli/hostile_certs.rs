//! Hostile certificates through `tessera` and `tessera-sop`: forged
//! revocations do not lock out a certificate, a soft revocation leaves
//! earlier signatures good, an expired back-signature or a signature naming
//! no issuer from outside the keyring is not good (SOP exit 3).

use crate::common;

use crate::hostile;

use common::sop::{Dir, sop};
use hostile::*;
use tessera::openpgp::crypto::HashAlg;
use tessera::openpgp::key::{Cert, KeyProfile};
use tessera::openpgp::sig::{SigType, Signature, Signer, SigningKey, write_signatures};

const T: &str = env!("CARGO_BIN_EXE_tessera");
const DATA: &[u8] = b"signed data\n";

fn certs_file(d: &Dir, name: &str, certs: &[Cert]) -> String {
    let mut out = Vec::new();
    for c in certs {
        out.extend_from_slice(&c.to_bytes().expect("serialize"));
    }
    d.write(name, &out)
}

fn sig_file(d: &Dir, name: &str, sigs: &[Signature]) -> String {
    d.write(name, &write_signatures(Vec::new(), sigs, false).expect("write"))
}

/// A signature over DATA by `keys[0]` made at `at`.
fn signature(keys: &[SigningKey<'_>], at: u32) -> Signature {
    let mut s = Signer::new(&keys[..1], SigType::Binary, at).expect("signer");
    s.update(DATA);
    s.finish().expect("sign").remove(0)
}

/// `tessera verify` and `tessera-sop verify` of `sig` against `certs`:
/// their exit codes.
fn verify_codes(d: &Dir, sig: &str, certs: &str) -> (Option<i32>, Option<i32>) {
    let data = d.write("data", DATA);
    let t = common::run_with_stdin(T, &["verify", "--signer", certs, "--signature", sig, &data], b"");
    let s = sop(&["verify", sig, certs], DATA);
    (t.status.code(), s.status.code())
}

#[test]
fn forged_revocations_do_not_lock_out_a_certificate() {
    let d = Dir::new();
    let key = victim_key(KeyProfile::Rfc9580);
    let flooded = flood_subkey_revocations(&flood_key_revocations(&key.to_public(), 4200), 4200);
    let cert = certs_file(&d, "flooded.cert", &[flooded]);
    let keys = SigningKey::from_cert(&key, NOW).expect("signing key");
    let sig = sig_file(&d, "good.sig", &[signature(&keys, CREATED + 100)]);
    assert_eq!(verify_codes(&d, &sig, &cert), (Some(0), Some(0)));
    let enc = common::run_with_stdin(T, &["encrypt", "-r", &cert, "-o", &d.p("m.pgp")], DATA);
    assert!(enc.status.success(), "{}", String::from_utf8_lossy(&enc.stderr));
    let sop_enc = sop(&["encrypt", &cert], DATA);
    assert!(sop_enc.status.success(), "{}", String::from_utf8_lossy(&sop_enc.stderr));
    let key_file = certs_file(&d, "victim.key", &[key]);
    let out = sop(&["decrypt", &key_file], &sop_enc.stdout);
    assert_eq!(out.stdout, DATA);
}

#[test]
fn a_soft_revocation_leaves_earlier_signatures_good_a_hard_one_does_not() {
    for (code, expected) in [(1u8, (Some(0), Some(0))), (2, (Some(1), Some(3)))] {
        let d = Dir::new();
        let key = victim_key(KeyProfile::Rfc9580);
        let cert = revoked_by_owner(&key, code, CREATED + 200);
        let cert = certs_file(&d, "revoked.cert", &[cert]);
        let keys = SigningKey::from_cert(&key, u64::from(CREATED) + 100).expect("signing key");
        let sig = sig_file(&d, "before.sig", &[signature(&keys, CREATED + 100)]);
        assert_eq!(verify_codes(&d, &sig, &cert), expected, "reason {code}");
    }
}

#[test]
fn a_signature_after_its_back_signature_expired_is_not_good() {
    let d = Dir::new();
    let (key, sub_secret) = signing_subkey_with_expiring_backsig(1000);
    let sub = key.subkeys.last().expect("subkey").key.public();
    let keys = [SigningKey { public: sub, secret: &sub_secret, hash: HashAlg::Sha512 }];
    let cert = certs_file(&d, "sub.cert", &[key.to_public()]);
    let while_live = sig_file(&d, "live.sig", &[signature(&keys, CREATED + 500)]);
    assert_eq!(verify_codes(&d, &while_live, &cert), (Some(0), Some(0)));
    let after = sig_file(&d, "after.sig", &[signature(&keys, CREATED + 2000)]);
    assert_eq!(verify_codes(&d, &after, &cert), (Some(1), Some(3)));
}

#[test]
fn signatures_naming_no_issuer_are_judged_against_the_keyring() {
    let d = Dir::new();
    let signer = victim_key(KeyProfile::Rfc9580);
    let mut ring = keyring(40);
    ring.push(signer.to_public());
    let ring = certs_file(&d, "ring.certs", &ring);
    let good = sig_file(&d, "good.sig", &[issuerless_signature(&signer, DATA, CREATED + 1)]);
    assert_eq!(verify_codes(&d, &good, &ring), (Some(0), Some(0)));
    let stranger = victim_key(KeyProfile::Rfc9580);
    let sigs: Vec<_> = (0..64).map(|i| issuerless_signature(&stranger, DATA, CREATED + i)).collect();
    let hostile = sig_file(&d, "hostile.sig", &sigs);
    assert_eq!(verify_codes(&d, &hostile, &ring), (Some(1), Some(3)));
}

/// An RSA-16384 key with e = 2^33 - 1 and forged self-signatures: refused
/// as a recipient and as a signer, each with one line (SOP: 17 and 3),
/// within the validation budget.
#[test]
fn a_huge_rsa_certificate_is_refused_with_one_line() {
    let d = Dir::new();
    let cert = certs_file(&d, "rsa.cert", &[rsa_flood(&rsa_key(16384, (1 << 33) - 1), 200)]);
    let enc = common::run_with_stdin(T, &["encrypt", "-r", &cert, "-o", &d.p("m.pgp")], DATA);
    assert_eq!(enc.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&enc.stderr).trim_end().lines().count(),
        1,
        "{}",
        String::from_utf8_lossy(&enc.stderr)
    );
    assert!(!std::path::Path::new(&d.p("m.pgp")).exists());
    assert_eq!(sop(&["encrypt", &cert], DATA).status.code(), Some(17));
    let stranger = victim_key(KeyProfile::Rfc9580);
    let keys = SigningKey::from_cert(&stranger, NOW).expect("signing key");
    let sig = sig_file(&d, "s.sig", &[signature(&keys, CREATED + 1)]);
    assert_eq!(verify_codes(&d, &sig, &cert), (Some(1), Some(3)));
}
