//! Validity over time (RFC 9580 §5.2.3.10, §5.2.3.13, §5.2.3.31): a key
//! whose newer self-signature extends its life is valid again from that
//! signature on; self-signatures with unusual but legal subpackets
//! (unknown and notation subpackets, not critical; several issuers) count;
//! soft revocations (superseded 1, retired 3, User ID no longer valid 32)
//! apply from their creation on, hard ones (none, 0, 2, unknown codes)
//! reach back. Every verdict on a signature is compared with Sequoia's
//! (pysequoia), which judges a signature at its creation time too.

use crate::common;

use std::io::Write;

use tessera::openpgp::crypto::{self, KeyType, SecretMaterial};
use tessera::openpgp::key::generate;
use tessera::openpgp::key::{
    Cert, CertKey, GenerateOptions, KeyError, KeyId, KeyProfile, KeyVersion, PublicKey, Subkey,
};
use tessera::openpgp::sig::{DocumentHasher, SigType, Signature, SignatureBuilder, Subpacket, SubpacketValue};
use tessera::openpgp::sig::{Verifier, subpacket::kind};
use tessera::openpgp::{Error, key::flags};

/// When the keys are made.
const T0: u32 = 1_700_000_000;
const UID: &str = "Over Time <time@example.org>";
const DATA: &[u8] = b"signed at some time";

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

/// A v4 key (Ed25519 primary that certifies and signs, X25519 subkey)
/// made at `T0`, expiring `expires_in` seconds later if given.
fn key(expires_in: Option<u32>) -> Cert {
    key_of(KeyProfile::Rfc4880, expires_in)
}

/// A key of `profile` with one User ID, made at `T0`.
fn key_of(profile: KeyProfile, expires_in: Option<u32>) -> Cert {
    let opts = GenerateOptions { profile, user_ids: vec![UID.into()], expires_in, created: Some(T0) };
    generate(&opts).unwrap()
}

/// Legal subpackets a reader must skip or tolerate: a non-critical
/// notation, a non-critical subpacket of an unassigned type, and (in the
/// unhashed area) a second Issuer naming another key.
fn unusual(b: SignatureBuilder) -> SignatureBuilder {
    let (name, value) = (b"note@example.org".as_slice(), b"kept".as_slice());
    let mut notation = vec![0x80, 0, 0, 0];
    notation.extend_from_slice(&(name.len() as u16).to_be_bytes());
    notation.extend_from_slice(&(value.len() as u16).to_be_bytes());
    notation.extend_from_slice(name);
    notation.extend_from_slice(value);
    b.subpacket(Subpacket::new(SubpacketValue::Other { kind: kind::NOTATION, body: notation }))
        .subpacket(Subpacket::new(SubpacketValue::Other { kind: 105, body: b"private".to_vec() }))
        .unhashed_subpacket(Subpacket::new(SubpacketValue::Issuer(KeyId([0x5a; 8]))))
}

/// `key` with a new User ID certification and subkey binding made at `at`
/// (with [`unusual`] subpackets), setting the expiration to `expires_in`
/// after the key's creation (`None`: never).
fn recertified(key: &Cert, at: u32, expires_in: Option<u32>) -> Cert {
    let (pk, secret) = (key.primary.public(), key.primary.secret().unwrap().secret().unwrap());
    let with_expiry = |b: SignatureBuilder| match expires_in {
        Some(e) => b.subpacket(Subpacket::new(SubpacketValue::KeyExpiration(e))),
        None => b,
    };
    let cert = with_expiry(unusual(SignatureBuilder::new(SigType::Certification(0x13), at)))
        .subpacket(Subpacket::critical(SubpacketValue::KeyFlags(vec![flags::CERTIFY | flags::SIGN])))
        .subpacket(Subpacket::new(SubpacketValue::PrimaryUserId(true)))
        .sign_certification(pk, secret, UID.as_bytes())
        .unwrap();
    let sub = key.subkeys[0].key.public();
    let binding = with_expiry(unusual(SignatureBuilder::new(SigType::SubkeyBinding, at)))
        .subpacket(Subpacket::new(SubpacketValue::KeyFlags(vec![flags::ENCRYPT])))
        .sign_subkey_binding(pk, secret, sub)
        .unwrap();
    let mut k = key.clone();
    k.user_ids[0].sigs.push(cert);
    k.subkeys[0].sigs.push(binding);
    if !key.direct_sigs.is_empty() {
        // Keys whose properties (expiry among them) a direct key signature carries.
        let direct = with_expiry(unusual(SignatureBuilder::new(SigType::DirectKey, at)))
            .subpacket(Subpacket::critical(SubpacketValue::KeyFlags(vec![flags::CERTIFY | flags::SIGN])))
            .sign_direct_key(pk, secret)
            .unwrap();
        k.direct_sigs.push(direct);
    }
    k
}

/// `key` with a direct key signature made at `at` that sets the
/// expiration to `expires_in` after the key's creation.
fn with_direct_expiry(key: &Cert, at: u32, expires_in: u32) -> Cert {
    let (pk, secret) = (key.primary.public(), key.primary.secret().unwrap().secret().unwrap());
    let direct = SignatureBuilder::new(SigType::DirectKey, at)
        .subpacket(Subpacket::new(SubpacketValue::KeyExpiration(expires_in)))
        .sign_direct_key(pk, secret)
        .unwrap();
    let mut k = key.clone();
    k.direct_sigs.push(direct);
    k
}

/// `key` revoked at `at`: the whole key (`uid` false) or its User ID, with
/// reason `code` (`None`: no Reason for Revocation subpacket).
fn revoked(key: &Cert, code: Option<u8>, at: u32, uid: bool) -> Cert {
    let (pk, secret) = (key.primary.public(), key.primary.secret().unwrap().secret().unwrap());
    let ty = if uid { SigType::CertificationRevocation } else { SigType::KeyRevocation };
    let mut b = SignatureBuilder::new(ty, at);
    if let Some(code) = code {
        b = b.subpacket(Subpacket::new(SubpacketValue::RevocationReason { code, text: b"why".to_vec() }));
    }
    let mut k = key.clone();
    if uid {
        k.user_ids[0].sigs.push(b.sign_certification(pk, secret, UID.as_bytes()).unwrap());
    } else {
        k.direct_sigs.push(b.sign_direct_key(pk, secret).unwrap());
    }
    k
}

/// A binary signature over [`DATA`] by `key`'s primary key made at `at`.
fn signed_at(key: &Cert, at: u32) -> Signature {
    let (pk, secret) = (key.primary.public(), key.primary.secret().unwrap().secret().unwrap());
    signed_by(pk, secret, at)
}

/// A binary signature over [`DATA`] by `signer` made at `at`.
fn signed_by(signer: &PublicKey, secret: &SecretMaterial, at: u32) -> Signature {
    SignatureBuilder::new(SigType::Binary, at)
        .sign_with(signer, secret, |f| {
            let mut h = DocumentHasher::new(f);
            h.update(DATA);
            h.finish(f)
        })
        .unwrap()
}

fn tessera_good(cert: &Cert, sig: &Signature) -> bool {
    let certs = [cert.to_public()];
    let mut v = Verifier::new(vec![sig.clone()], &certs, now());
    v.write_all(DATA).unwrap();
    v.finish().iter().any(|r| r.is_good())
}

/// Checks each `(what, certificate, signature, expected)`: tessera's
/// verdict is `expected`, and so is Sequoia's when pysequoia is there.
fn judge(cases: &[(String, Cert, Signature, bool)]) {
    for (what, cert, sig, expected) in cases {
        assert_eq!(tessera_good(cert, sig), *expected, "tessera: {what}");
    }
    let Some(python) = common::peer_python("pysequoia") else { return };
    let certs: Vec<[Cert; 1]> = cases.iter().map(|(_, c, _, _)| [c.to_public()]).collect();
    let pairs: Vec<(&[Cert], &Signature)> = certs.iter().zip(cases).map(|(c, (_, _, s, _))| (&c[..], s)).collect();
    let sequoia = common::sequoia_verifies(&python, &pairs, DATA);
    for ((what, _, _, expected), theirs) in cases.iter().zip(sequoia) {
        assert_eq!(theirs, *expected, "Sequoia: {what}");
    }
}

#[test]
fn an_expired_key_is_valid_again_from_the_self_signature_that_extends_it() {
    // Expires at T0 + 1000; re-certified at T0 + 5000 to expire at T0 + 100,000.
    let k = key(Some(1_000));
    let again = recertified(&k, T0 + 5_000, Some(100_000));
    let at = |t: u32| again.validate(u64::from(T0 + t));
    assert!(at(500).is_ok());
    assert!(
        matches!(at(2_000), Err(Error::Key(KeyError::Expired { expired_at, .. })) if expired_at == u64::from(T0) + 1_000)
    );
    let valid = at(6_000).unwrap();
    assert_eq!(valid.primary.expires, Some(u64::from(T0) + 100_000));
    assert_eq!(valid.encryption_keys().len(), 1, "the subkey's binding was renewed too");
    assert!(matches!(at(200_000), Err(Error::Key(KeyError::Expired { .. }))));
    // Extended to never expire.
    let forever = recertified(&k, T0 + 5_000, None);
    assert_eq!(forever.validate(u64::from(T0) + 1_000_000_000).unwrap().primary.expires, None);

    let case = |what: &str, c: &Cert, t: u32, good: bool| (what.to_string(), c.clone(), signed_at(&k, T0 + t), good);
    judge(&[
        case("before the first expiry", &again, 500, true),
        case("between expiry and renewal", &again, 2_000, false),
        case("after the renewal", &again, 6_000, true),
        case("after the renewed expiry", &again, 200_000, false),
        case("never expiring after the renewal", &forever, 300_000, true),
        case("not renewed", &k, 6_000, false),
    ]);
}

#[test]
fn soft_revocations_apply_from_their_creation_hard_ones_reach_back() {
    let k = key(None);
    let mut cases = Vec::new();
    // Key revocations at T0 + 5000, signatures before and after.
    for (code, soft) in
        [(Some(1), true), (Some(3), true), (Some(0), false), (Some(2), false), (None, false), (Some(100), false)]
    {
        let r = revoked(&k, code, T0 + 5_000, false);
        for (t, before) in [(1_000, true), (6_000, false)] {
            let what = format!("key revocation {code:?}, signature {} it", if before { "before" } else { "after" });
            cases.push((what, r.clone(), signed_at(&k, T0 + t), soft && before));
        }
        assert_eq!(r.validate(u64::from(T0) + 1_000).is_ok(), soft, "{code:?} before");
        assert!(r.validate(u64::from(T0) + 6_000).is_err(), "{code:?} after");
    }
    // The User ID's certification revoked ("no longer valid", 32) and the key re-certified with
    // unusual subpackets afterwards: still valid before and after.
    let r = recertified(&revoked(&k, Some(32), T0 + 5_000, true), T0 + 7_000, None);
    for t in [1_000, 6_000, 8_000] {
        cases.push((
            format!("User ID retired, re-certified, signature at +{t}"),
            r.clone(),
            signed_at(&k, T0 + t),
            true,
        ));
    }
    judge(&cases);
}

#[test]
fn unusual_subpackets_and_several_issuers_on_bindings_still_count() {
    // Only the re-certification binds the key: the original self-signatures are dropped.
    let k = key(None);
    let mut only = recertified(&k, T0 + 10, None);
    only.user_ids[0].sigs.remove(0);
    only.subkeys[0].sigs.remove(0);
    let valid = only.validate(u64::from(T0) + 100).unwrap();
    assert_eq!(valid.user_id, Some(UID.as_bytes()));
    assert_eq!(valid.encryption_keys().len(), 1);
    judge(&[("bound only by unusual self-signatures".into(), only.clone(), signed_at(&k, T0 + 100), true)]);
}

#[test]
fn renewals_by_direct_key_signatures_and_v6_keys_agree_with_sequoia() {
    // v6: the direct key signature carries the expiry; renewed at T0 + 5000.
    let v6 = key_of(KeyProfile::Rfc9580, Some(1_000));
    let v6_again = recertified(&v6, T0 + 5_000, Some(100_000));
    assert!(v6_again.validate(u64::from(T0) + 2_000).is_err());
    assert!(v6_again.validate(u64::from(T0) + 6_000).is_ok());
    // v4 with the expiry in a direct key signature, then renewed by one.
    let v4 = with_direct_expiry(&key(None), T0 + 10, 1_000);
    let v4_again = with_direct_expiry(&v4, T0 + 5_000, 100_000);
    // v4 with a User ID certification and a direct key signature that set
    // different expiries: the User ID's decides, whichever is newer.
    let uid_newer = with_direct_expiry(&recertified(&key(None), T0 + 20, Some(100_000)), T0 + 10, 1_000);
    let direct_newer = with_direct_expiry(&recertified(&key(None), T0 + 20, Some(100_000)), T0 + 30, 1_000);
    let case = |what: &str, c: &Cert, signer: &Cert, t: u32| {
        let good = tessera_good(c, &signed_at(signer, T0 + t));
        (what.to_string(), c.clone(), signed_at(signer, T0 + t), good)
    };
    let cases = [
        case("v6 before the first expiry", &v6_again, &v6, 500),
        case("v6 between expiry and renewal", &v6_again, &v6, 2_000),
        case("v6 after the renewal", &v6_again, &v6, 6_000),
        case("v4 direct key expiry, before", &v4_again, &v4, 500),
        case("v4 direct key expiry, between", &v4_again, &v4, 2_000),
        case("v4 direct key expiry, after the renewal", &v4_again, &v4, 6_000),
        case("v4 User ID renewal newer than a direct key expiry", &uid_newer, &uid_newer, 6_000),
        case("v4 direct key expiry newer than a User ID renewal", &direct_newer, &direct_newer, 6_000),
    ];
    let verdicts: Vec<bool> = cases.iter().map(|c| c.3).collect();
    assert_eq!(verdicts, [true, false, true, true, false, true, true, true], "tessera");
    judge(&cases);
}

#[test]
fn a_gnupg_key_renewed_after_it_expired_agrees_with_sequoia() {
    if !common::have_gpg() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let at = |t: &str| format!("--faked-system-time={t}!");
    let gpg = |t: &str, args: &[&str]| common::gpg(home, &[&[at(t).as_str()], args].concat());
    // Made on 2023-01-01 to expire a day later; renewed on 2023-02-01 for two years.
    gpg("20230101T000000", &["--quick-gen-key", "Renewed <renewed@example.org>", "ed25519", "sign", "1d"]);
    let listing =
        String::from_utf8(common::gpg(home, &["--with-colons", "--list-keys", "renewed@example.org"])).unwrap();
    let fpr = listing.lines().find_map(|l| l.strip_prefix("fpr:::::::::")).unwrap().trim_end_matches(':').to_string();
    let data = home.join("data");
    std::fs::write(&data, DATA).unwrap();
    let sign = |t: &str| {
        let sig = gpg(t, &["--local-user", &fpr, "--detach-sign", "-o", "-", data.to_str().unwrap()]);
        tessera::openpgp::sig::read_signatures(sig.as_slice()).unwrap().remove(0)
    };
    let before = sign("20230101T120000");
    gpg("20230201T000000", &["--quick-set-expire", &fpr, "2y"]);
    let between = sign("20230115T000000");
    let after = sign("20230301T000000");
    let cert = Cert::from_bytes(&common::gpg(home, &["--export", &fpr])).unwrap();
    // GnuPG keeps only the renewed self-signature: the key is valid from it on.
    assert!(cert.validate(1_677_628_800).is_ok(), "2023-03-01");
    assert!(tessera_good(&cert, &after));
    let cases: Vec<_> =
        [("signed before it expired", before), ("signed while expired", between), ("signed after", after)]
            .into_iter()
            .map(|(what, sig)| (what.to_string(), cert.clone(), sig.clone(), tessera_good(&cert, &sig)))
            .collect();
    judge(&cases);
}

/// `key` with a signing subkey made at `T0`, bound at `at` (expiring
/// `expires_in` after its creation if given, with its back-signature), and
/// the subkey's secret.
fn with_signing_subkey(key: &Cert, at: u32, expires_in: Option<u32>) -> (Cert, PublicKey, SecretMaterial) {
    let (sub_public, sub_secret) = crypto::generate(KeyType::EdDsaLegacy).unwrap();
    let sub = PublicKey::new(KeyVersion::V4, T0, sub_public).unwrap();
    let mut k = key.clone();
    k.subkeys.push(Subkey { key: CertKey::Public(sub.clone()), sigs: vec![] });
    let k = rebound(&k, &sub, &sub_secret, at, expires_in);
    (k, sub, sub_secret)
}

/// `key` with a further binding of its signing subkey `sub` made at `at`.
fn rebound(key: &Cert, sub: &PublicKey, sub_secret: &SecretMaterial, at: u32, expires_in: Option<u32>) -> Cert {
    let (pk, secret) = (key.primary.public(), key.primary.secret().unwrap().secret().unwrap());
    let back =
        SignatureBuilder::new(SigType::PrimaryKeyBinding, at).sign_primary_key_binding(pk, sub, sub_secret).unwrap();
    let mut b = SignatureBuilder::new(SigType::SubkeyBinding, at)
        .subpacket(Subpacket::new(SubpacketValue::KeyFlags(vec![flags::SIGN])))
        .subpacket(Subpacket::new(SubpacketValue::EmbeddedSignature(back.to_bytes())));
    if let Some(e) = expires_in {
        b = b.subpacket(Subpacket::new(SubpacketValue::KeyExpiration(e)));
    }
    let mut k = key.clone();
    let slot = k.subkeys.iter_mut().find(|s| s.key.public().fingerprint() == sub.fingerprint()).unwrap();
    slot.sigs.push(b.sign_subkey_binding(pk, secret, sub).unwrap());
    k
}

#[test]
fn signing_subkeys_renewed_and_revoked_over_time_agree_with_sequoia() {
    let (k, sub, sub_secret) = with_signing_subkey(&key(None), T0, Some(1_000));
    let again = rebound(&k, &sub, &sub_secret, T0 + 5_000, Some(100_000));
    let mut cases = Vec::new();
    for (t, good) in [(500, true), (2_000, false), (6_000, true), (200_000, false)] {
        cases.push((
            format!("renewed subkey, signature at +{t}"),
            again.clone(),
            signed_by(&sub, &sub_secret, T0 + t),
            good,
        ));
    }
    let (k, sub, sub_secret) = with_signing_subkey(&key(None), T0, None);
    let (pk, secret) = (k.primary.public(), k.primary.secret().unwrap().secret().unwrap());
    for (code, soft) in [(Some(1), true), (Some(3), true), (Some(2), false), (None, false), (Some(0), false)] {
        let mut b = SignatureBuilder::new(SigType::SubkeyRevocation, T0 + 5_000);
        if let Some(code) = code {
            b = b.subpacket(Subpacket::new(SubpacketValue::RevocationReason { code, text: b"why".to_vec() }));
        }
        let mut r = k.clone();
        r.subkeys[1].sigs.push(b.sign_subkey_binding(pk, secret, &sub).unwrap());
        for (t, before) in [(1_000, true), (6_000, false)] {
            let what = format!("subkey revocation {code:?}, signature at +{t}");
            cases.push((what, r.clone(), signed_by(&sub, &sub_secret, T0 + t), soft && before));
        }
    }
    judge(&cases);
}
