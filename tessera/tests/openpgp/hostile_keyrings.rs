//! Hand-made certificates and keyrings that a third party can produce from
//! public data, checked for what they must not achieve: hide a valid
//! certificate's bindings or a real revocation behind garbage, or make a
//! good signature by a valid key count as anything but good because other
//! certificates sit beside the signer's in the keyring. Where Sequoia
//! (pysequoia) is at hand, it judges the same cases the same way.

use crate::common;

use common::hostile::*;
use tessera::openpgp::Error;
use tessera::openpgp::crypto::{KeyType, generate as keypair};
use tessera::openpgp::key::{Cert, CertKey, KeyError, KeyProfile, KeyVersion, PublicKey, Subkey};
use tessera::openpgp::sig::{
    DocumentHasher, Outcome, SigType, Signature, SignatureBuilder, Signer, SigningKey, Subpacket, SubpacketValue,
    Verifier,
};

const DATA: &[u8] = b"signed data\n";

/// A binary signature over [`DATA`] by `key` made at `at` (naming its issuer).
fn sign(key: &Cert, at: u32) -> Signature {
    let keys = SigningKey::from_cert(key, u64::from(at)).expect("signing key");
    let mut s = Signer::new(&keys[..1], SigType::Binary, at).expect("signer");
    s.update(DATA);
    s.finish().expect("signature").remove(0)
}

fn verify(sig: &Signature, certs: &[Cert]) -> Outcome {
    let mut v = Verifier::new(vec![sig.clone()], certs, NOW);
    v.update(DATA);
    v.finish().remove(0).outcome
}

/// A harmless hashed subpacket that makes the `i`th forged signature differ
/// from the others (identical copies would be checked once).
/// A v4 certificate with 5,200 forged direct key signatures and 5,200
/// forged certifications of its User ID (about 1.1 MB), all made a second
/// after its real certification (so live whenever it is), and a signature
/// by it.
fn v4_with_forged_bindings() -> (Cert, Signature) {
    let key = victim_key(KeyProfile::Rfc4880);
    let mut flooded = key.to_public();
    let pk = key.primary.public();
    let uid = flooded.user_ids[0].value.clone();
    for i in 0..5200 {
        let tag = [distinct(i)];
        let certification = forged(pk, SigType::Certification(0x13), Over::UserId(&uid), CREATED + 1, &tag);
        flooded.user_ids[0].sigs.push(certification);
        flooded.direct_sigs.push(forged(pk, SigType::DirectKey, Over::Direct, CREATED + 1, &tag));
    }
    (flooded, sign(&key, CREATED + 50))
}

/// Forged direct key signatures and certifications (correct digest prefix,
/// garbage value, newer than the real self-signatures) are garbage as
/// forged revocations are: enough of them must not make a valid v4
/// certificate lose its only self-signature.
#[test]
fn forged_newer_bindings_beyond_the_budget_do_not_hide_the_real_ones() {
    let (flooded, sig) = v4_with_forged_bindings();
    let valid = flooded.validate(NOW);
    assert!(valid.is_ok(), "the real certification is not found: {:?}", valid.err());
    let outcome = verify(&sig, &[flooded]);
    assert!(outcome.is_good(), "{outcome:?}");
}

/// A valid RSA-3072 certificate (one User ID, one real certification, no
/// validation run yet: a clone carries the outcomes cached so far) and a
/// signature by it.
fn rsa_victim() -> (Cert, Signature) {
    let (public, secret) = keypair(KeyType::Rsa(3072)).expect("RSA keypair");
    let pk = PublicKey::new(KeyVersion::V4, CREATED, public).expect("key");
    let uid = b"RSA Victim <rsa@example.org>".to_vec();
    let certification = SignatureBuilder::new(SigType::Certification(0x13), CREATED)
        .subpacket(Subpacket::new(SubpacketValue::KeyFlags(vec![0x0f])))
        .sign_certification(&pk, &secret, &uid)
        .expect("certification");
    let mut packets = Vec::new();
    put(&mut packets, 6, pk.body());
    put(&mut packets, 13, &uid);
    put(&mut packets, 2, &certification.to_bytes());
    let doc = SignatureBuilder::new(SigType::Binary, CREATED + 50)
        .sign_with(&pk, &secret, |f| {
            let mut h = DocumentHasher::new(f);
            h.update(DATA);
            h.finish(f)
        })
        .expect("document signature");
    (Cert::from_bytes(&packets).expect("parses"), doc)
}

/// `cert` with 1,500 forged certifications of its first User ID, made a
/// second after the real one (about 620 KB for an RSA-3072 key).
fn with_forged_certifications(cert: &Cert) -> Cert {
    let pk = cert.primary.public().clone();
    let uid = cert.user_ids[0].value.clone();
    let mut flooded = cert.clone();
    flooded.user_ids[0].sigs.extend(
        (0..1500).map(|i| forged(&pk, SigType::Certification(0x13), Over::UserId(&uid), CREATED + 1, &[distinct(i)])),
    );
    flooded
}

/// An RSA-3072 certificate must not be locked out by 1,500 forged
/// certifications: each is charged as an RSA check, far fewer than the
/// Ed25519 floods the budget was sized for.
#[test]
fn forged_certifications_do_not_lock_out_an_rsa_certificate() {
    let (cert, sig) = rsa_victim();
    let flooded = with_forged_certifications(&cert);
    assert!(cert.validate(NOW).is_ok(), "the certificate is valid before the flood");
    let valid = flooded.validate(NOW);

    assert!(valid.is_ok(), "the real certification is not found: {:?}", valid.err());
    let outcome = verify(&sig, &[flooded]);
    assert!(outcome.is_good(), "{outcome:?}");
}

/// A certificate revoked by its owner ("key compromised") and carrying
/// 4,200 forged revocations newer than the real one, and a signature made
/// before the revocation.
fn revoked_with_forged_revocations() -> (Cert, Cert, Signature) {
    let key = victim_key(KeyProfile::Rfc9580);
    let (pk, secret) = (key.primary.public().clone(), key.primary.secret().unwrap().secret().unwrap().clone());
    let real =
        SignatureBuilder::new(SigType::KeyRevocation, CREATED + 100).subpacket(reason(2)).sign_direct_key(&pk, &secret);
    let mut revoked = key.to_public();
    revoked.direct_sigs.push(real.expect("revocation"));
    let mut flooded = revoked.clone();
    flooded
        .direct_sigs
        .extend((0..4200).map(|i| forged(&pk, SigType::KeyRevocation, Over::Direct, CREATED + 200 + i, &[reason(2)])));
    (revoked, flooded, sign(&key, CREATED + 50))
}

/// The same 4,200 forged "key compromised" revocations that no longer lock
/// a certificate out must not hide the owner's real revocation either: a
/// keyring that merges the owner's update with a copy carrying them would
/// hold a revoked certificate that validates, its signatures good.
#[test]
fn forged_key_revocations_do_not_hide_a_real_revocation() {
    let (revoked, flooded, sig) = revoked_with_forged_revocations();
    assert!(matches!(revoked.validate(NOW), Err(Error::Key(KeyError::Revoked { .. }))));
    let r = flooded.validate(NOW).map(|_| ());
    assert!(matches!(r, Err(Error::Key(KeyError::Revoked { .. }))), "a revoked certificate validates: {r:?}");
    let outcome = verify(&sig, &[flooded]);
    assert!(!outcome.is_good(), "a signature by a hard-revoked key counts as good: {outcome:?}");
}

/// `holder` with `key` (another certificate's key) appended as a subkey
/// whose binding claims signing and embeds a (forged) back-signature.
fn holding_as_claimed_signer(holder: &Cert, key: &PublicKey) -> Cert {
    let hp = holder.primary.public();
    let back = forged(key, SigType::PrimaryKeyBinding, Over::Subkey(key), CREATED, &[]);
    let claims = [
        Subpacket::new(SubpacketValue::KeyFlags(vec![0x02])),
        Subpacket::new(SubpacketValue::EmbeddedSignature(back.to_bytes())),
    ];
    let binding = forged(hp, SigType::SubkeyBinding, Over::Subkey(key), CREATED + 1, &claims);
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
    let squatter = holding_as_claimed_signer(&victim(KeyProfile::Rfc9580), signer.primary.public());
    let sig = issuerless_signature(&signer, DATA, CREATED + 50);
    // Alone, the signer's certificate makes it good.
    assert!(verify(&sig, &[signer.to_public()]).is_good());
    let outcome = verify(&sig, &[squatter, signer.to_public()]);
    assert!(matches!(&outcome, Outcome::Good { cert, .. } if *cert == signer.fingerprint()), "{outcome:?}");
}

/// Two certificates of huge RSA keys with forged self-signatures (each
/// costing its whole validation budget) that list `signer`'s primary key
/// as a bare subkey, then `signer`'s certificate; and a signature by it.
fn keyring_with_squatters() -> (Vec<Cert>, Signature) {
    let signer = victim_key(KeyProfile::Rfc9580);
    let mut ring: Vec<Cert> = (0..2)
        .map(|i| {
            let mut c = rsa_flood(&rsa_key(16384, (1 << 33) - 1 - 2 * i), 60);
            c.subkeys.push(Subkey { key: CertKey::Public(signer.primary.public().clone()), sigs: Vec::new() });
            c
        })
        .collect();
    ring.push(signer.to_public());
    (ring, sign(&signer, CREATED + 50))
}

/// A signature naming its issuer, by a valid key, is good whatever else the
/// keyring holds: certificates that list the signer's public key as a bare
/// subkey and cost their whole validation budget must not leave it
/// unchecked.
#[test]
fn certificates_listing_the_signers_key_do_not_leave_its_signature_unchecked() {
    let (ring, sig) = keyring_with_squatters();
    let signer = ring.last().expect("signer").fingerprint();
    let outcome = verify(&sig, &ring);
    assert!(matches!(&outcome, Outcome::Good { cert, .. } if *cert == signer), "{outcome:?}");
}

/// `key`'s certificate with its only User ID revoked (reason `code`, none
/// when `None`) at `at`.
fn only_user_id_revoked(key: &Cert, code: Option<u8>, at: u32) -> Cert {
    let (pk, secret) = (key.primary.public(), key.primary.secret().unwrap().secret().unwrap());
    let mut b = SignatureBuilder::new(SigType::CertificationRevocation, at);
    if let Some(code) = code {
        b = b.subpacket(Subpacket::new(SubpacketValue::RevocationReason { code, text: Vec::new() }));
    }
    let mut c = key.to_public();
    let uid = c.user_ids[0].value.clone();
    c.user_ids[0].sigs.push(b.sign_certification(pk, secret, &uid).expect("revocation"));
    c
}

/// Garbage on a User ID that is not the signer's own must not cost the
/// other components their bindings: the encryption subkey stays valid
/// beside a 1 MB User ID with 300 forged certifications (1.05 MB in all).
#[test]
fn forged_certifications_of_an_added_user_id_do_not_starve_the_subkeys() {
    let cert = victim(KeyProfile::Rfc9580);
    let flooded = with_huge_forged_user_id(&cert);
    let valid = flooded.validate(NOW).expect("the primary key stays valid");
    assert_eq!(valid.user_id, Some(&b"Victim <victim@example.org>"[..]));
    assert_eq!(valid.encryption_keys().len(), 1, "the encryption subkey is refused: {:?}", valid.refused);
}

/// Sequoia verifies the signatures by the flooded and squatted-on
/// certificates and by a v4 certificate whose only User ID is revoked, and
/// refuses the one by the revoked certificate; tessera must decide each the
/// same way (or SECURITY.md name the difference).
#[test]
fn tessera_and_sequoia_agree_on_hostile_and_revoked_certificates() {
    let Some(py) = common::peer_python("pysequoia") else { return };
    let mut cases: Vec<(&str, Vec<Cert>, Signature)> = Vec::new();
    let (cert, sig) = v4_with_forged_bindings();
    cases.push(("v4 certificate with 10,400 forged newer bindings", vec![cert], sig));
    let (cert, sig) = rsa_victim();
    cases.push(("RSA-3072 certificate with 1,500 forged certifications", vec![with_forged_certifications(&cert)], sig));
    let (_, cert, sig) = revoked_with_forged_revocations();
    cases.push(("revoked certificate with 4,200 forged revocations", vec![cert], sig));
    let (ring, sig) = keyring_with_squatters();
    cases.push(("signer after two certificates listing its key", ring, sig));
    let key = victim_key(KeyProfile::Rfc4880);
    let sig = sign(&key, CREATED + 100);
    let revoked = only_user_id_revoked(&key, None, CREATED + 200);
    cases.push((
        "v4 certificate whose only User ID is revoked (no reason) after the signature",
        vec![revoked],
        sig.clone(),
    ));
    let revoked = only_user_id_revoked(&key, Some(32), CREATED + 50);
    cases.push((
        "v4 certificate whose only User ID is revoked (no longer valid) before the signature",
        vec![revoked],
        sig,
    ));
    let pairs: Vec<_> = cases.iter().map(|(_, certs, sig)| (certs.as_slice(), sig)).collect();
    let sequoia = common::sequoia_verifies(&py, &pairs, DATA);
    let mut report = Vec::new();
    for ((name, certs, sig), theirs) in cases.iter().zip(sequoia) {
        let ours = verify(sig, certs).is_good();
        eprintln!("{name}: tessera {ours}, Sequoia {theirs}");
        if ours != theirs {
            report.push(format!("{name}: tessera {ours}, Sequoia {theirs}"));
        }
    }
    assert!(report.is_empty(), "tessera and Sequoia disagree:\n{}", report.join("\n"));
}
