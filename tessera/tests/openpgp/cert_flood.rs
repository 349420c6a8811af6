//! Flooded certificates: third-party signatures and bogus "self-signatures"
//! cost a bounded number of public-key checks, and validating again costs
//! none (counted with `Cert::signature_checks`, not timed).

use tessera::openpgp::key::{Cert, GenerateOptions, MAX_CHECKS_PER_VALIDATION, generate};
use tessera::openpgp::sig::hashing::{certification_digest, direct_key_digest};
use tessera::openpgp::sig::{SigType, Signature, SignatureBuilder, Subpacket, SubpacketValue};

const CREATED: u32 = 1_700_000_000;
const NOW: u64 = 1_700_100_000;

fn key(uid: &str) -> Cert {
    generate(&GenerateOptions { created: Some(CREATED), user_ids: vec![uid.into()], ..Default::default() }).unwrap()
}

/// A signature by `attacker` over `victim`'s User ID or direct key,
/// claiming (in its hashed area) to be made by `victim`'s primary key.
fn forged(attacker: &Cert, victim: &Cert, ty: SigType, created: u32, claim_victim: bool) -> Signature {
    let (signer, secret) = (attacker.primary.public(), attacker.primary.secret().unwrap().secret().unwrap());
    let victim_pk = victim.primary.public();
    let uid = victim.user_ids[0].value.clone();
    let mut b = SignatureBuilder::new(ty, created);
    if claim_victim {
        b = b.subpacket(Subpacket::new(SubpacketValue::IssuerFingerprint(victim.fingerprint())));
    }
    b.sign_with(signer, secret, |f| match ty {
        SigType::DirectKey => direct_key_digest(f, victim_pk),
        _ => certification_digest(f, victim_pk, &uid),
    })
    .unwrap()
}

#[test]
fn third_party_signatures_are_never_checked() {
    let victim = key("Victim <v@example.org>");
    let attacker = key("Mallory <m@example.org>");
    let mut flooded = victim.to_public();
    let third_party = forged(&attacker, &victim, SigType::Certification(0x10), CREATED + 10, false);
    flooded.user_ids[0].sigs.extend(std::iter::repeat_n(third_party.clone(), 5000));
    flooded
        .direct_sigs
        .extend(std::iter::repeat_n(forged(&attacker, &victim, SigType::DirectKey, CREATED + 10, false), 5000));
    let clean = victim.to_public();
    clean.validate(NOW).unwrap();
    let v = flooded.validate(NOW).unwrap();
    assert_eq!(v.encryption_keys().len(), 1);
    // The flood adds no check: only the victim's own signatures are checked.
    assert_eq!(flooded.signature_checks(), clean.signature_checks());
}

#[test]
fn bogus_self_signatures_cost_at_most_the_budget_and_only_once() {
    let victim = key("Victim <v@example.org>");
    let attacker = key("Mallory <m@example.org>");
    let mut flooded = victim.to_public();
    for i in 0..400 {
        let t = CREATED + 10 + i;
        flooded.user_ids[0].sigs.push(forged(&attacker, &victim, SigType::Certification(0x13), t, true));
        flooded.direct_sigs.push(forged(&attacker, &victim, SigType::DirectKey, t, true));
        flooded.direct_sigs.push(forged(&attacker, &victim, SigType::KeyRevocation, t, true));
    }
    let _ = flooded.validate(NOW);
    let checks = flooded.signature_checks();
    let bound = MAX_CHECKS_PER_VALIDATION as u64;
    assert!(checks <= bound, "{checks} checks for 1200 bogus signatures (bound {bound})");
    assert!(checks >= 400, "{checks}: the forged signatures were not even tried");
    // Validating again, for every message, repeats no check.
    for at in [NOW, NOW + 1, NOW + 1000] {
        let _ = flooded.validate(at);
    }
    assert_eq!(flooded.signature_checks(), checks);
}

/// Forged "self-signatures" newer than the real one
/// (anyone can append them) must not hide it while the budget lasts.
#[test]
fn newer_forged_self_signatures_do_not_hide_the_real_one() {
    let victim = key("Victim <v@example.org>");
    let attacker = key("Mallory <m@example.org>");
    let mut flooded = victim.to_public();
    for i in 0..300 {
        let t = CREATED + 10 + i;
        flooded.user_ids[0].sigs.push(forged(&attacker, &victim, SigType::Certification(0x13), t, true));
        flooded.direct_sigs.push(forged(&attacker, &victim, SigType::DirectKey, t, true));
    }
    let v = flooded.validate(NOW).expect("the real self-signatures are still found");
    assert_eq!(v.encryption_keys().len(), 1);
}

#[test]
fn many_valid_self_signatures_check_the_newest_first() {
    let victim = key("Victim <v@example.org>");
    let (pk, secret) = (victim.primary.public().clone(), victim.primary.secret().unwrap().secret().unwrap().clone());
    let mut cert = victim.to_public();
    let uid = cert.user_ids[0].value.clone();
    for i in 0..100 {
        let sig = SignatureBuilder::new(SigType::Certification(0x13), CREATED + 10 + i)
            .sign_certification(&pk, &secret, &uid)
            .unwrap();
        cert.user_ids[0].sigs.push(sig);
    }
    let v = cert.validate(NOW).unwrap();
    assert_eq!(v.user_id, Some(uid.as_slice()));
    // The newest certification verifies at once: the other 100 are not checked.
    assert!(cert.signature_checks() <= 4, "{}", cert.signature_checks());
}
