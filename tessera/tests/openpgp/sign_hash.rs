//! The hash of new signatures: of those the signer and every recipient
//! list, the one that matches the key's strength (SHA2-256 for Ed25519),
//! or the one asked for; it is the one in the packets, and the signatures
//! verify.

use std::io::{Read, Write};

use tessera::openpgp::crypto::HashAlg::{self, Sha3_256, Sha3_512, Sha256, Sha384, Sha512};
use tessera::openpgp::key::{Cert, GenerateOptions, features, flags, generate};
use tessera::openpgp::sig::{SigType, SignatureBuilder, Signer, SigningKey, Subpacket, SubpacketValue};
use tessera::openpgp::{DecryptOptions, EncryptOptions, SigningEncryptor, VerifyingDecryptor};

const T0: u32 = 1_700_000_000;
const NOW: u64 = 1_700_000_100;

/// A v6 key whose direct-key signature states `prefs` as its hashes.
fn key_preferring(prefs: &[HashAlg]) -> Cert {
    let mut key = generate(&GenerateOptions { created: Some(T0), ..Default::default() }).unwrap();
    let public = key.primary.public().clone();
    let sig = SignatureBuilder::new(SigType::DirectKey, T0)
        .subpacket(Subpacket::critical(SubpacketValue::KeyFlags(vec![flags::CERTIFY | flags::SIGN])))
        .subpacket(Subpacket::new(SubpacketValue::PreferredHash(prefs.iter().map(|h| h.id()).collect())))
        .subpacket(Subpacket::new(SubpacketValue::Features(vec![features::SEIPD_V1 | features::SEIPD_V2])))
        .sign_direct_key(&public, key.primary.secret().unwrap().secret().unwrap())
        .unwrap();
    key.direct_sigs = vec![sig];
    // Parsed again: nothing validated before the change is remembered.
    Cert::from_bytes(&key.to_bytes().unwrap()).unwrap()
}

#[test]
fn the_hash_matches_the_key_among_those_everyone_lists() {
    let alice = key_preferring(&[Sha512, Sha384, Sha256]);
    let hash = |to: &[Cert]| SigningKey::for_message(&alice, NOW, to, None).unwrap()[0].hash;
    assert_eq!(hash(&[]), Sha256, "SHA2-256 matches an Ed25519 key, wherever the signer lists it");
    let strong_only = key_preferring(&[Sha512, Sha384]);
    let hash_strong = |to: &[Cert]| SigningKey::for_message(&strong_only, NOW, to, None).unwrap()[0].hash;
    assert_eq!(hash_strong(&[]), Sha384, "the shortest the signer lists");
    let bob = key_preferring(&[Sha512, Sha256]).to_public();
    assert_eq!(hash_strong(std::slice::from_ref(&bob)), Sha512, "the one Bob reads");
    let carol = key_preferring(&[Sha256]).to_public();
    assert_eq!(hash_strong(&[bob, carol]), Sha256, "nothing the signer lists is shared: SHA2-256");
    // Nothing shared but SHA2-256, which every RFC 9580 reader has.
    assert_eq!(hash(&[key_preferring(&[Sha3_512]).to_public()]), Sha256);
    // Asked for: as asked, unless policy refuses it.
    assert_eq!(SigningKey::for_message(&alice, NOW, &[], Some(Sha3_256)).unwrap()[0].hash, Sha3_256);
    assert!(SigningKey::for_message(&alice, NOW, &[], Some(HashAlg::Sha1)).is_err());
    assert!(SigningKey::for_message(&alice, NOW, &[], Some(HashAlg::Sha224)).is_err());
}

#[test]
fn the_chosen_hash_is_in_the_packets_and_verifies() {
    let (alice, bob) = (key_preferring(&[Sha512, Sha256]), key_preferring(&[Sha384, Sha256, Sha512]));
    let recipients = vec![bob.to_public()];
    let certs = [alice.to_public()];
    for asked in [None, Some(Sha256), Some(Sha384), Some(Sha3_256), Some(Sha3_512)] {
        let keys = SigningKey::for_message(&alice, NOW, &recipients, asked).unwrap();
        let signer = Signer::new(&keys, SigType::Binary, T0 + 1).unwrap();
        let opts = EncryptOptions { recipients: recipients.clone(), ..EncryptOptions::default() };
        let mut enc = SigningEncryptor::new(Vec::new(), &[], &opts, signer).unwrap();
        enc.write_all(b"hashed as chosen").unwrap();
        let msg = enc.finish().unwrap();
        let dopts = DecryptOptions { keys: vec![bob.clone()], ..DecryptOptions::default() };
        let mut dec = VerifyingDecryptor::new(msg.as_slice(), &[], &dopts, &certs, NOW).unwrap();
        let mut out = Vec::new();
        dec.read_to_end(&mut out).unwrap();
        let verified = dec.finish().unwrap();
        let sig = verified.results[0].signature.as_ref().unwrap();
        // Both list SHA2-512 and SHA2-256: SHA2-256 matches Ed25519.
        let want = asked.unwrap_or(Sha256);
        assert_eq!((sig.hash_alg(), sig.salt().len()), (want, want.v6_salt_len()), "{asked:?}");
        assert_eq!(verified.good().count(), 1, "{asked:?}");
    }
}
