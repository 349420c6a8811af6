//! Certificates, keyrings and signatures made to cost or to lock out:
//! forged revocations and bindings must not make a valid certificate
//! unusable, and what validation and verification cost is bounded by the
//! budgets of `sig::cost` (counted as public-key checks times their
//! estimated cost, never timed).

use crate::common;

use common::hostile::*;
use tessera::openpgp::crypto::{HashAlg, PublicKeyAlg, verifications_on_this_thread};
use tessera::openpgp::key::{Cert, KeyProfile};
use tessera::openpgp::sig::check::{DocumentChecker, MAX_ISSUERLESS};
use tessera::openpgp::sig::cost::{MESSAGE_BUDGET, VALIDATION_BUDGET, verify_cost};
use tessera::openpgp::sig::{
    DocumentHasher, Outcome, SigType, Signature, Signer, SigningKey, Subpacket, SubpacketValue, Verifier,
};

/// About how many octets `cert` takes encoded.
fn encoded_octets(cert: &Cert) -> u64 {
    cert.to_bytes().expect("serialize").len() as u64
}

/// Public-key checks `f` runs on this thread.
fn checks<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = verifications_on_this_thread();
    let r = f();
    (r, verifications_on_this_thread() - before)
}

/// A binary signature over `data` by `key` made at `at`.
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

#[test]
fn forged_key_revocations_do_not_lock_out_a_certificate() {
    for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
        let key = victim_key(profile);
        let flooded = flood_key_revocations(&key.to_public(), 4200);
        let valid = flooded.validate(NOW).expect("the forged revocations are not taken");
        assert_eq!(valid.require_encryption_keys().expect("encryption key").len(), 1);
        let sig = sign(&key, b"data", CREATED + 50);
        assert!(verify(vec![sig], b"data", &[flooded], NOW)[0].is_good(), "{profile:?}");
    }
}

#[test]
fn forged_subkey_revocations_do_not_lock_out_the_subkey() {
    let cert = victim(KeyProfile::Rfc9580);
    let flooded = flood_subkey_revocations(&cert, 4200);
    let valid = flooded.validate(NOW).expect("valid");
    assert_eq!(valid.require_encryption_keys().expect("the subkey stays").len(), 1);
}

#[test]
fn forged_newer_bindings_do_not_hide_the_real_ones() {
    let cert = victim(KeyProfile::Rfc9580);
    let flooded = flood_user_ids(&flood_bindings(&cert, 3000), 200);
    let valid = flooded.validate(NOW).expect("the real self-signatures are found");
    assert_eq!(valid.user_id, Some(&b"Victim <victim@example.org>"[..]));
    assert_eq!(valid.encryption_keys().len(), 1);
}

#[test]
fn a_huge_rsa_key_costs_what_the_validation_budget_allows() {
    let primary = rsa_key(16384, (1 << 33) - 1);
    let cost = verify_cost(&primary);
    let cert = rsa_flood(&primary, 300);
    let (r, n) = checks(|| cert.validate(NOW));
    assert!(r.is_err(), "nobody can sign with this key");
    let spent = n * cost;
    let budget: u64 = VALIDATION_BUDGET.for_octets(encoded_octets(&cert)).iter().sum();
    assert!(spent <= budget, "{n} checks of {cost} units: {spent} > {budget}");
    assert!(n >= 10, "{n}: the budget was not used at all");
}

#[test]
fn an_expired_back_signature_does_not_validate_a_signing_subkey() {
    let (key, _) = signing_subkey_with_expiring_backsig(1000);
    let sub = key.subkeys.last().expect("subkey").key.public().fingerprint();
    let signs =
        |at: u64| key.validate(at).expect("valid").signing_keys().iter().any(|k| k.public().fingerprint() == sub);
    assert!(signs(u64::from(CREATED) + 500));
    assert!(!signs(u64::from(CREATED) + 1000), "the back-signature has expired");
    let refused = key.validate(NOW).expect("valid").refused;
    assert!(refused.iter().any(|(fp, why)| *fp == sub && why.contains("back-signature")), "{refused:?}");
}

/// A soft revocation (superseded) made after a signature leaves it good;
/// a hard one (compromised) voids it too.
#[test]
fn only_hard_revocations_reach_back_in_time() {
    for (code, earlier_good) in [(1, true), (3, true), (2, false), (0, false)] {
        let key = victim_key(KeyProfile::Rfc9580);
        let cert = revoked_by_owner(&key, code, CREATED + 200);
        let certs = [cert];
        let before = sign(&key, b"data", CREATED + 100);
        let after = sign(&key, b"data", CREATED + 300);
        let outcomes = verify(vec![before, after], b"data", &certs, NOW);
        assert_eq!(outcomes[0].is_good(), earlier_good, "reason {code}: {:?}", outcomes[0]);
        assert!(matches!(outcomes[1], Outcome::KeyNotValid { .. }), "reason {code}: {:?}", outcomes[1]);
    }
}

#[test]
fn issuerless_signatures_are_capped_and_tried_only_against_signing_keys() {
    let signer = victim_key(KeyProfile::Rfc9580);
    let mut ring = keyring(150);
    ring.push(signer.to_public());
    let data = b"data";
    let good = issuerless_signature(&signer, data, CREATED + 50);
    let sigs: Vec<_> =
        (0..64).map(|i| issuerless_signature(&victim_key(KeyProfile::Rfc9580), data, CREATED + i)).collect();
    let (outcomes, n) = checks(|| verify(sigs, data, &ring, NOW));
    // Each certificate's self-signatures once (three), and each of the
    // first MAX_ISSUERLESS signatures against every signing key.
    let bound = (3 + MAX_ISSUERLESS as u64) * ring.len() as u64;
    assert!(n <= bound, "{n} checks > {bound}");
    assert!(outcomes.iter().all(|o| !o.is_good()));
    assert!(outcomes[MAX_ISSUERLESS..].iter().all(|o| *o == Outcome::UnknownSigner));
    // One naming no issuer but made by a key of the keyring is good.
    let outcomes = verify(vec![good], data, &ring, NOW);
    assert!(matches!(&outcomes[0], Outcome::Good { cert, .. } if *cert == signer.fingerprint()), "{outcomes:?}");
}

#[test]
fn bare_subkeys_are_never_tried() {
    let signer = victim_key(KeyProfile::Rfc9580);
    let cert = with_bare_subkeys(&signer.to_public(), 2000);
    let certs = [cert];
    let other = victim_key(KeyProfile::Rfc9580);
    let sigs: Vec<_> = (0..4).map(|i| issuerless_signature(&other, b"data", CREATED + i)).collect();
    let (outcomes, n) = checks(|| verify(sigs, b"data", &certs, NOW));
    // The certificate's own self-signatures, then the primary key once per
    // signature: no bare subkey.
    assert!(n <= 3 + 4, "{n} checks");
    assert!(outcomes.iter().all(|o| !o.is_good()));
    // A signature by the primary still verifies beside them.
    assert!(verify(vec![sign(&signer, b"data", CREATED + 5)], b"data", &certs, NOW)[0].is_good());
}

/// A message whose signatures name no issuer, against a keyring of RSA-16384
/// certificates: one message costs at most its budget.
#[test]
fn one_message_costs_at_most_its_budget() {
    // Exponents of the same length and weight: every key costs the same.
    let ring: Vec<Cert> = (0..12).map(|i| rsa_flood(&rsa_key(16384, ((1 << 33) - 1) ^ (2 << i)), 0)).collect();
    let template = ring[0].primary.public().clone();
    let data = b"data";
    let sigs: Vec<Signature> = (0..8)
        .map(|i| {
            raw_sig(
                4,
                SigType::Binary,
                PublicKeyAlg::Rsa,
                HashAlg::Sha256,
                &[Subpacket::critical(SubpacketValue::CreationTime(CREATED + i))],
                |f| {
                    let mut h = DocumentHasher::new(f);
                    h.update(data);
                    h.finish(f)
                },
                |_| garbage_value(&template),
            )
        })
        .collect();
    let mut costs = 0;
    let (outcomes, _) = checks(|| {
        let mut checker = DocumentChecker::new(&ring, NOW);
        sigs.iter()
            .map(|s| {
                let f = s.hashed_fields();
                let mut h = DocumentHasher::new(&f);
                h.update(data);
                let before = verifications_on_this_thread();
                let o = checker.check(s, &h.finish(&f));
                costs += (verifications_on_this_thread() - before) * verify_cost(&template);
                o
            })
            .collect::<Vec<_>>()
    });
    // The budget grows with the certificates' size (three units per octet).
    let budget = MESSAGE_BUDGET.max(3 * ring.iter().map(encoded_octets).sum::<u64>());
    assert_eq!(budget, MESSAGE_BUDGET, "small certificates, large keys");
    assert!(costs <= budget + budget / 50, "{costs} units > {budget}");
    assert!(outcomes.iter().any(|o| matches!(o, Outcome::Unchecked(_))), "{outcomes:?}");
    assert!(outcomes.iter().all(|o| !o.is_good()));
}
