//! Hand-made certificates and keyrings that a third party can produce from
//! public data, checked for what they must not achieve: hide a valid
//! certificate's bindings or a real revocation behind garbage, or make a
//! good signature by a valid key count as anything but good because other
//! certificates sit beside the signer's in the keyring.

mod common;

use common::hostile::*;
use tessera::openpgp::Error;
use tessera::openpgp::crypto::{KeyType, generate as keypair};
use tessera::openpgp::key::{Cert, CertKey, KeyError, KeyProfile, KeyVersion, PublicKey, Subkey};
use tessera::openpgp::sig::{
    Outcome, SigType, Signature, SignatureBuilder, Signer, SigningKey, Subpacket, SubpacketValue, Verifier,
};

/// A binary signature over `data` by `key` made at `at` (naming its issuer).
fn sign(key: &Cert, data: &[u8], at: u32) -> Signature {
    let keys = SigningKey::from_cert(key, u64::from(at)).expect("signing key");
    let mut s = Signer::new(&keys[..1], SigType::Binary, at).expect("signer");
    s.update(data);
    s.finish().expect("signature").remove(0)
}

fn verify(sigs: Vec<Signature>, data: &[u8], certs: &[Cert], now: u64) -> Vec<Outcome> {
    let mut v = Verifier::new(sigs, certs, now);
    v.update(data);
    v.finish().into_iter().map(|r| r.outcome).collect()
}

/// Forged direct key signatures and certifications (correct digest prefix,
/// garbage value, newer than the real self-signatures) are as much garbage
/// as forged revocations: enough of them must not make a valid v4
/// certificate lose its only self-signature.
#[test]
fn forged_newer_bindings_beyond_the_budget_do_not_hide_the_real_ones() {
    let key = victim_key(KeyProfile::Rfc4880);
    // 2 × 5,200 forged signatures, about 1.1 MB.
    let flooded = flood_bindings(&key.to_public(), 5200);
    let valid = flooded.validate(NOW);
    assert!(valid.is_ok(), "the real certification is not found: {:?}", valid.err());
    let sig = sign(&key, b"data", CREATED + 50);
    let outcomes = verify(vec![sig], b"data", &[flooded], NOW);
    assert!(outcomes[0].is_good(), "{outcomes:?}");
}

/// A valid RSA-3072 certificate (one User ID, one real certification) and
/// its signing secret.
fn rsa_victim() -> (Cert, tessera::openpgp::crypto::SecretMaterial) {
    let (public, secret) = keypair(KeyType::Rsa(3072)).expect("RSA keypair");
    let pk = PublicKey::new(KeyVersion::V4, CREATED, public).expect("key");
    let uid = b"RSA Victim <rsa@example.org>".to_vec();
    let cert_sig = SignatureBuilder::new(SigType::Certification(0x13), CREATED)
        .subpacket(Subpacket::new(SubpacketValue::KeyFlags(vec![0x0f])))
        .sign_certification(&pk, &secret, &uid)
        .expect("certification");
    let mut packets = Vec::new();
    put(&mut packets, 6, pk.body());
    put(&mut packets, 13, &uid);
    put(&mut packets, 2, &cert_sig.to_bytes());
    (Cert::from_bytes(&packets).expect("parses"), secret)
}

/// An RSA-3072 certificate is locked out by about 1,500 forged
/// certifications (620 KB): each is charged as an RSA check, so the
/// bindings budget runs out before the real, older certification.
#[test]
fn forged_certifications_do_not_lock_out_an_rsa_certificate() {
    let (cert, secret) = rsa_victim();
    let pk = cert.primary.public().clone();
    let uid = cert.user_ids[0].value.clone();
    // Cloned before any validation: a clone carries the outcomes cached so far.
    let mut flooded = cert.clone();
    assert!(cert.validate(NOW).is_ok(), "the certificate is valid before the flood");
    for i in 0..1500 {
        flooded.user_ids[0].sigs.push(forged(
            &pk,
            SigType::Certification(0x13),
            Over::UserId(&uid),
            CREATED + 10 + i,
            &[],
        ));
    }
    let valid = flooded.validate(NOW);
    assert!(valid.is_ok(), "the real certification is not found: {:?}", valid.err());
    let doc = SignatureBuilder::new(SigType::Binary, CREATED + 50)
        .sign_with(&pk, &secret, |f| {
            let mut h = tessera::openpgp::sig::DocumentHasher::new(f);
            h.update(b"data");
            h.finish(f)
        })
        .expect("document signature");
    let outcomes = verify(vec![doc], b"data", &[flooded], NOW);
    assert!(outcomes[0].is_good(), "{outcomes:?}");
}

/// The same 4,200 forged "key compromised" revocations that no longer lock
/// a certificate out must not hide the owner's real revocation either:
/// merged with a copy that carries them, a revoked certificate would
/// validate again and its signatures count as good.
#[test]
fn forged_key_revocations_do_not_hide_a_real_revocation() {
    let key = victim_key(KeyProfile::Rfc9580);
    let (pk, secret) = (key.primary.public().clone(), key.primary.secret().unwrap().secret().unwrap().clone());
    let real = SignatureBuilder::new(SigType::KeyRevocation, CREATED + 100)
        .subpacket(reason(2))
        .sign_direct_key(&pk, &secret)
        .expect("revocation");
    let mut revoked = key.to_public();
    revoked.direct_sigs.push(real);
    assert!(matches!(revoked.validate(NOW), Err(Error::Key(KeyError::Revoked { .. }))));
    let mut flooded = revoked.clone();
    flooded
        .direct_sigs
        .extend((0..4200).map(|i| forged(&pk, SigType::KeyRevocation, Over::Direct, CREATED + 200 + i, &[reason(2)])));
    let r = flooded.validate(NOW);
    assert!(
        matches!(r, Err(Error::Key(KeyError::Revoked { .. }))),
        "a revoked certificate validates: {:?}",
        r.map(|_| ())
    );
    let sig = sign(&key, b"data", CREATED + 50);
    let outcomes = verify(vec![sig], b"data", &[flooded], NOW);
    assert!(!outcomes[0].is_good(), "a signature by a hard-revoked key counts as good: {outcomes:?}");
}

/// `holder` with `key` (another certificate's key) appended as a subkey
/// whose binding claims signing and embeds a (forged) back-signature.
fn holding_as_claimed_signer(holder: &Cert, key: &PublicKey) -> Cert {
    let hp = holder.primary.public();
    let back = forged(key, SigType::PrimaryKeyBinding, Over::Subkey(key), CREATED, &[]);
    let binding = forged(
        hp,
        SigType::SubkeyBinding,
        Over::Subkey(key),
        CREATED + 1,
        &[
            Subpacket::new(SubpacketValue::KeyFlags(vec![0x02])),
            Subpacket::new(SubpacketValue::EmbeddedSignature(back.to_bytes())),
        ],
    );
    let mut c = holder.clone();
    c.subkeys.push(Subkey { key: CertKey::Public(key.clone()), sigs: vec![binding] });
    c
}

/// A signature naming no issuer, made by a valid certificate's key, is
/// good whatever else the keyring holds: another certificate that lists the
/// same public key as a subkey it cannot bind (anyone can publish one) must
/// not turn it into "key not valid".
#[test]
fn an_issuerless_signature_is_good_when_another_certificate_also_lists_its_key() {
    let signer = victim_key(KeyProfile::Rfc9580);
    let other = victim(KeyProfile::Rfc9580);
    let squatter = holding_as_claimed_signer(&other, signer.primary.public());
    let sig = issuerless_signature(&signer, b"data", CREATED + 50);
    // Alone, the signer's certificate makes it good.
    assert!(verify(vec![sig.clone()], b"data", &[signer.to_public()], NOW)[0].is_good());
    let outcomes = verify(vec![sig], b"data", &[squatter, signer.to_public()], NOW);
    assert!(matches!(&outcomes[0], Outcome::Good { cert, .. } if *cert == signer.fingerprint()), "{outcomes:?}");
}

/// A signature naming its issuer, by a valid key, is good whatever else the
/// keyring holds: certificates that list the signer's public key as a bare
/// subkey and cost their whole validation budget must not leave it
/// unchecked.
#[test]
fn certificates_listing_the_signers_key_do_not_leave_its_signature_unchecked() {
    let signer = victim_key(KeyProfile::Rfc9580);
    let squatters: Vec<Cert> = (0..2)
        .map(|i| {
            let mut c = rsa_flood(&rsa_key(16384, (1 << 33) - 1 - 2 * i), 60);
            c.subkeys.push(Subkey { key: CertKey::Public(signer.primary.public().clone()), sigs: Vec::new() });
            c
        })
        .collect();
    let sig = sign(&signer, b"data", CREATED + 50);
    let mut ring = squatters;
    ring.push(signer.to_public());
    let outcomes = verify(vec![sig], b"data", &ring, NOW);
    assert!(matches!(&outcomes[0], Outcome::Good { cert, .. } if *cert == signer.fingerprint()), "{outcomes:?}");
}
