//! Certificate management in the library: renewing SHA-1 and expired
//! self-signatures, revoked keys refused, soft and hard revocations at
//! several times, certification revocations, and merging rules.

use tessera::openpgp::Error;
use tessera::openpgp::crypto::HashAlg;
use tessera::openpgp::key::{
    Cert, CertifyOptions, ExpiryChange, GenerateOptions, KeyError, KeyProfile, RevocationReason, UpdateOptions,
    UserIdQuery, flags, generate,
};
use tessera::openpgp::sig::{SigType, SignatureBuilder, Subpacket, SubpacketValue};

const T0: u32 = 1_600_000_000;
const UID: &str = "Alice <alice@example.org>";

fn key(profile: KeyProfile, expires_in: Option<u32>) -> Cert {
    let opts = GenerateOptions { profile, user_ids: vec![UID.into()], expires_in, created: Some(T0) };
    generate(&opts).unwrap()
}

/// A v4 key whose only self-signatures are SHA-1, made before 2023 (still
/// accepted, as GnuPG and Sequoia accept them).
fn sha1_key() -> Cert {
    let mut k = key(KeyProfile::Rfc4880, None);
    let (pk, sk) = (k.primary.public().clone(), k.primary.secret().unwrap().secret().unwrap().clone());
    let flags_sp = |f: u8| Subpacket::new(SubpacketValue::KeyFlags(vec![f]));
    let uid_sig = SignatureBuilder::new(SigType::Certification(0x13), T0)
        .hash(HashAlg::Sha1)
        .subpacket(flags_sp(flags::CERTIFY | flags::SIGN))
        .sign_certification(&pk, &sk, UID.as_bytes())
        .unwrap();
    let sub = k.subkeys[0].key.public().clone();
    let binding =
        SignatureBuilder::new(SigType::SubkeyBinding, T0).hash(HashAlg::Sha1).subpacket(flags_sp(flags::ENCRYPT));
    k.user_ids[0].sigs = vec![uid_sig];
    k.subkeys[0].sigs = vec![binding.sign_subkey_binding(&pk, &sk, &sub).unwrap()];
    k
}

#[test]
fn update_renews_sha1_self_signatures_once() {
    let k = sha1_key();
    let at = 1_700_000_000;
    assert_eq!(k.validate(u64::from(at)).unwrap().encryption_keys().len(), 1);
    let opts = UpdateOptions { at, ..Default::default() };
    let updated = k.update(&opts).unwrap();
    let newest = |sigs: &[tessera::openpgp::sig::Signature]| sigs.last().unwrap().hash_alg();
    assert_eq!(newest(&updated.user_ids[0].sigs), HashAlg::Sha256);
    assert_eq!(newest(&updated.subkeys[0].sigs), HashAlg::Sha256);
    assert_eq!(updated.user_ids[0].sigs.len(), 2, "the old signature stays beside the new one");
    let v = updated.validate(u64::from(at) + 10).unwrap();
    assert_eq!(v.self_sig.hash_alg(), HashAlg::Sha256);
    assert_eq!(v.primary.flags, flags::CERTIFY | flags::SIGN);
    // Done once: a second update changes nothing.
    let again = updated.update(&UpdateOptions { at: at + 100, ..Default::default() }).unwrap();
    assert_eq!(*again.to_bytes().unwrap(), *updated.to_bytes().unwrap());
}

#[test]
fn an_expired_key_needs_a_new_expiry() {
    for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
        let k = key(profile, Some(3600));
        let at = 1_700_000_000;
        let keep = UpdateOptions { at, ..Default::default() };
        assert!(matches!(k.update(&keep), Err(Error::Key(KeyError::PrimaryKeyBad { .. }))), "{profile:?}");
        let renewed = k.update(&UpdateOptions { expiry: ExpiryChange::After(86_400), ..keep }).unwrap();
        let v = renewed.validate(u64::from(at)).unwrap();
        assert_eq!(v.primary.expires, Some(u64::from(at) + 86_400), "{profile:?}");
        assert_eq!(v.encryption_keys().len(), 1, "{profile:?}: the subkey is renewed too");
        assert!(renewed.validate(u64::from(at) + 86_400).is_err());
        // Still expired at the times it was expired.
        assert!(renewed.validate(u64::from(T0) + 7200).is_err());
        let never = renewed.update(&UpdateOptions { expiry: ExpiryChange::Never, ..keep }).unwrap();
        assert_eq!(never.validate(u64::from(at)).unwrap().primary.expires, None);
    }
}

#[test]
fn capabilities_are_added_only_when_allowed() {
    for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
        let mut k = key(profile, None);
        k.subkeys.clear();
        let opts = UpdateOptions { at: T0 + 10, ..Default::default() };
        let added = k.update(&opts).unwrap();
        assert_eq!(added.validate(u64::from(T0) + 20).unwrap().encryption_keys().len(), 1, "{profile:?}");
        assert_eq!(added.subkeys[0].key.public().version(), k.version());
        for o in [UpdateOptions { signing_only: true, ..opts }, UpdateOptions { add_capabilities: false, ..opts }] {
            assert!(k.update(&o).unwrap().subkeys.is_empty(), "{profile:?}");
        }
    }
}

#[test]
fn a_revoked_key_cannot_update_or_certify() {
    let k = key(KeyProfile::Rfc9580, None);
    let revoked = k.merge(&k.revoke(RevocationReason::Compromised, "stolen", T0 + 10).unwrap()).unwrap();
    assert!(revoked.is_secret());
    let update = revoked.update(&UpdateOptions { at: T0 + 20, ..Default::default() });
    assert!(matches!(update, Err(Error::Key(KeyError::PrimaryKeyBad { .. }))));
    let bob = key(KeyProfile::Rfc4880, None).to_public();
    let opts = CertifyOptions { user_ids: vec![UID.into()], at: T0 + 20, ..Default::default() };
    assert!(matches!(revoked.certify(&bob, &opts), Err(Error::Key(KeyError::CannotCertify { .. }))));
    let locked = {
        let mut l = k.clone();
        l.lock(b"pw").unwrap();
        l
    };
    assert!(matches!(locked.certify(&bob, &opts), Err(Error::Key(KeyError::Locked(_)))));
}

#[test]
fn soft_revocations_keep_the_past_and_hard_ones_do_not() {
    let query = UserIdQuery::Exact(UID);
    for (reason, past_ok) in [(RevocationReason::Retired, true), (RevocationReason::Compromised, false)] {
        let k = key(KeyProfile::Rfc4880, None);
        let rev = k.revoke(reason, "", T0 + 1000).unwrap();
        let me = [rev.clone()];
        assert_eq!(rev.validate_user_id(&query, &me, u64::from(T0) + 500).is_ok(), past_ok, "{reason:?}");
        assert!(rev.validate_user_id(&query, &me, u64::from(T0) + 2000).is_err(), "{reason:?}");
    }
}

#[test]
fn a_certification_revocation_ends_a_certification() {
    let alice = key(KeyProfile::Rfc9580, None);
    let bob = key(KeyProfile::Rfc4880, None).to_public();
    let opts = CertifyOptions { user_ids: vec![UID.into()], at: T0 + 100, ..Default::default() };
    let mut certified = alice.certify(&bob, &opts).unwrap();
    let (pk, sk) = (alice.primary.public(), alice.primary.secret().unwrap().secret().unwrap());
    let revocation = SignatureBuilder::new(SigType::CertificationRevocation, T0 + 200)
        .sign_third_party_certification(pk, sk, bob.primary.public(), UID.as_bytes())
        .unwrap();
    certified.user_ids[0].sigs.push(revocation);
    let query = UserIdQuery::Exact(UID);
    let authority = [alice.to_public()];
    assert!(certified.validate_user_id(&query, &authority, u64::from(T0) + 50).is_err(), "before it");
    certified.validate_user_id(&query, &authority, u64::from(T0) + 150).unwrap();
    let err = certified.validate_user_id(&query, &authority, u64::from(T0) + 250).unwrap_err();
    assert!(matches!(err, Error::Key(KeyError::UserIdNotBound { .. })), "{err}");
}

#[test]
fn merging_needs_the_same_primary_key_and_keeps_secrets() {
    let a = key(KeyProfile::Rfc9580, None);
    let b = key(KeyProfile::Rfc9580, None);
    let err = a.merge(&b).unwrap_err();
    assert!(matches!(err, Error::Key(KeyError::DifferentCertificates { .. })), "{err}");
    // A certificate merged with its secret key: the secret key.
    let merged = a.to_public().merge(&a).unwrap();
    assert!(merged.is_secret() && merged.subkeys[0].key.secret().is_some());
    assert_eq!(*merged.to_bytes().unwrap(), *a.to_bytes().unwrap());
}

#[test]
fn a_user_id_counts_only_while_its_owner_binds_it() {
    let alice = key(KeyProfile::Rfc9580, None);
    let bob = key(KeyProfile::Rfc4880, None);
    let opts = CertifyOptions { user_ids: vec![UID.into()], at: T0 + 100, ..Default::default() };
    let mut certified = alice.certify(&bob.to_public(), &opts).unwrap();
    let query = UserIdQuery::Exact(UID);
    let authority = [alice.to_public()];
    certified.validate_user_id(&query, &authority, u64::from(T0) + 150).unwrap();
    // Bob retires the User ID (a self-made certification revocation, reason 32):
    // Alice's certification no longer binds it.
    let (pk, sk) = (bob.primary.public(), bob.primary.secret().unwrap().secret().unwrap());
    let retired = SignatureBuilder::new(SigType::CertificationRevocation, T0 + 200)
        .subpacket(Subpacket::new(SubpacketValue::RevocationReason { code: 32, text: b"moved on".to_vec() }))
        .sign_certification(pk, sk, UID.as_bytes())
        .unwrap();
    certified.user_ids[0].sigs.push(retired);
    let err = certified.validate_user_id(&query, &authority, u64::from(T0) + 250).unwrap_err();
    assert!(matches!(err, Error::Key(KeyError::UserIdNotBound { .. })), "{err}");
}

#[test]
fn the_trusted_copy_of_an_authority_keeps_its_revocation() {
    let bob = key(KeyProfile::Rfc9580, None);
    let revoked = bob.revoke(RevocationReason::Compromised, "stolen", T0 + 100).unwrap();
    // An older copy without the revocation, checked against the trusted, revoked one.
    let stale = bob.to_public();
    let query = UserIdQuery::Exact(UID);
    stale.validate_user_id(&query, std::slice::from_ref(&stale), u64::from(T0) + 200).unwrap();
    assert!(stale.validate_user_id(&query, &[revoked], u64::from(T0) + 200).is_err());
}

#[test]
fn sha1_third_party_certifications_are_refused_whatever_their_date() {
    let alice = key(KeyProfile::Rfc4880, None);
    let bob = key(KeyProfile::Rfc4880, None).to_public();
    let (pk, sk) = (alice.primary.public(), alice.primary.secret().unwrap().secret().unwrap());
    let mut certified = bob.clone();
    let sha1 = SignatureBuilder::new(SigType::Certification(0x10), T0 + 100)
        .hash(HashAlg::Sha1)
        .sign_third_party_certification(pk, sk, bob.primary.public(), UID.as_bytes())
        .unwrap();
    certified.user_ids[0].sigs.push(sha1);
    let err = certified.validate_user_id(&UserIdQuery::Exact(UID), &[alice.to_public()], u64::from(T0) + 200);
    assert!(err.is_err(), "a 2020 SHA-1 certification counted");
}

#[test]
fn user_id_checks_stop_when_their_budget_is_spent() {
    use tessera::openpgp::sig::cost::{VALIDATION_BUDGET, verify_cost};
    let alice = key(KeyProfile::Rfc9580, None);
    let bob = key(KeyProfile::Rfc4880, None).to_public();
    let opts = CertifyOptions { user_ids: vec![UID.into()], at: T0 + 100, ..Default::default() };
    let mut certified = alice.certify(&bob, &opts).unwrap();
    let query = UserIdQuery::Exact(UID);
    let authority = [alice.to_public()];
    certified.validate_user_id(&query, &authority, u64::from(T0) + 200).unwrap();
    // Newer certifications by Alice that do not verify (over another User
    // ID), more than one check's budget pays for: the good one behind
    // them is never reached, and the answer is no rather than hours of work.
    let (pk, sk) = (alice.primary.public(), alice.primary.secret().unwrap().secret().unwrap());
    let bogus = SignatureBuilder::new(SigType::Certification(0x10), T0 + 150)
        .sign_third_party_certification(pk, sk, bob.primary.public(), b"Eve <eve@example.org>")
        .unwrap();
    let budget = VALIDATION_BUDGET.primary + VALIDATION_BUDGET.subkeys + VALIDATION_BUDGET.revocations;
    let enough = (budget / verify_cost(pk)) as usize + 1;
    certified.user_ids[0].sigs.extend(std::iter::repeat_n(bogus, enough));
    let err = certified.validate_user_id(&query, &authority, u64::from(T0) + 200).unwrap_err();
    assert!(matches!(err, Error::Key(KeyError::UserIdNotBound { .. })), "{err}");
}
