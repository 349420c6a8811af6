//! Properties of signing and verifying: every bit flip in the signed data
//! or in the covered part of a signature is never "good"; hostile input to
//! the signature readers is an error or a verdict, never a panic; the
//! allocations per message do not depend on its size.

use crate::common;

use std::io::{Read, Write};

use proptest::prelude::*;
use tessera::openpgp::key::{Cert, GenerateOptions, KeyProfile, generate};
use tessera::openpgp::sig::{
    InlineSigner, InlineVerifier, OnePassSig, SigType, Signature, Signer, SigningKey, Verifier, read_cleartext,
    read_signatures, write_signatures,
};

const T0: u32 = 1_700_000_000;
const NOW: u64 = 1_700_000_100;

fn key(profile: KeyProfile) -> Cert {
    let user_ids = vec!["Prop <prop@example.org>".into()];
    generate(&GenerateOptions { profile, user_ids, created: Some(T0), ..Default::default() }).unwrap()
}

fn detached(k: &Cert, data: &[u8]) -> Signature {
    let keys = SigningKey::from_cert(k, NOW).unwrap();
    let mut s = Signer::new(&keys, SigType::Binary, T0 + 1).unwrap();
    s.write_all(data).unwrap();
    s.finish().unwrap().remove(0)
}

/// Whether the binary detached signature `sig` is good over `data`.
fn detached_good(sig: &[u8], certs: &[Cert], data: &[u8]) -> bool {
    let Ok(sigs) = read_signatures(sig) else { return false };
    let mut v = Verifier::new(sigs, certs, NOW);
    v.write_all(data).unwrap();
    v.finish().iter().any(|r| r.is_good())
}

/// The range of the unhashed subpacket area in a binary v4/v6 signature
/// packet with a one-octet length header (not covered by the signature).
fn unhashed_range(packet: &[u8]) -> std::ops::Range<usize> {
    let body = &packet[2..];
    let n = if body[0] == 6 { 4 } else { 2 };
    let len = |at: usize| body[at..at + n].iter().fold(0usize, |a, &b| a << 8 | b as usize);
    let hashed_end = 4 + n + len(4);
    let start = hashed_end + n;
    2 + start..2 + start + len(hashed_end)
}

#[test]
fn every_bit_flip_in_data_or_signature_is_refused() {
    for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
        let k = key(profile);
        let certs = [k.to_public()];
        let data = b"The quick brown fox".to_vec();
        let sig = detached(&k, &data);
        let packet = write_signatures(Vec::new(), &[sig], false).unwrap();
        assert!(packet[1] < 192, "one-octet length");
        assert!(detached_good(&packet, &certs, &data));
        let unhashed = unhashed_range(&packet);
        for bit in 0..data.len() * 8 {
            let mut d = data.clone();
            d[bit / 8] ^= 1 << (bit % 8);
            assert!(!detached_good(&packet, &certs, &d), "data bit {bit}");
        }
        for bit in 0..packet.len() * 8 {
            if unhashed.contains(&(bit / 8)) {
                continue;
            }
            let mut p = packet.clone();
            p[bit / 8] ^= 1 << (bit % 8);
            // A flip in an MPI's bit count that keeps its octet count reads
            // as the same signature (the parser is lenient about MPI bit
            // counts, as RFC 4880 readers are): it may verify only if it
            // re-encodes to the original packet.
            if detached_good(&p, &certs, &data) {
                let again = write_signatures(Vec::new(), &read_signatures(&p[..]).unwrap(), false).unwrap();
                assert_eq!(again, packet, "{profile:?} signature bit {bit}");
            }
        }
    }
}

fn inline_message(k: &Cert, data: &[u8]) -> Vec<u8> {
    let keys = SigningKey::from_cert(k, NOW).unwrap();
    let mut w = InlineSigner::new(Vec::new(), Signer::new(&keys, SigType::Binary, T0 + 1).unwrap()).unwrap();
    w.write_all(data).unwrap();
    w.finish().unwrap()
}

/// Reads an inline-signed message: Err, or the data and whether a signature is good.
fn read_inline(msg: &[u8], certs: &[Cert]) -> Result<(Vec<u8>, bool), tessera::openpgp::Error> {
    let mut out = Vec::new();
    let r = InlineVerifier::new(msg, certs, NOW)?.verify_to(&mut out)?;
    Ok((out, r.iter().any(|r| r.is_good())))
}

#[test]
fn inline_bit_flips_in_the_data_are_never_good() {
    let k = key(KeyProfile::Rfc9580);
    let certs = [k.to_public()];
    let data = b"inline data".to_vec();
    let msg = inline_message(&k, &data);
    let at = msg.windows(data.len()).position(|w| w == data).unwrap();
    for bit in 0..data.len() * 8 {
        let mut m = msg.clone();
        m[at + bit / 8] ^= 1 << (bit % 8);
        let (out, good) = read_inline(&m, &certs).unwrap();
        assert!(!good && out != data, "bit {bit}");
    }
}

#[test]
fn allocations_per_message_do_not_grow_with_its_size() {
    let k = key(KeyProfile::Rfc9580);
    let certs = [k.to_public()];
    let keys = SigningKey::from_cert(&k, NOW).unwrap();
    let chunk = vec![0x5au8; 1 << 16];
    let count = |chunks: usize| {
        let ((), sign_allocs) = common::count_allocs(|| {
            let mut w =
                InlineSigner::new(std::io::sink(), Signer::new(&keys, SigType::Binary, T0 + 1).unwrap()).unwrap();
            for _ in 0..chunks {
                w.write_all(&chunk).unwrap();
            }
            w.finish().unwrap();
        });
        let message = inline_message(&k, &chunk.repeat(chunks));
        let mut buf = vec![0u8; 1 << 16];
        let ((), verify_allocs) = common::count_allocs(|| {
            let mut r = InlineVerifier::new(message.as_slice(), &certs, NOW).unwrap();
            while r.read(&mut buf).unwrap() > 0 {}
            assert!(r.results().unwrap()[0].is_good());
        });
        (sign_allocs, verify_allocs)
    };
    // The first verification fills the certificate's signature check cache.
    count(1);
    assert_eq!(count(1), count(64));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let certs = [];
        let _ = read_inline(&bytes, &certs);
        let _ = read_signatures(bytes.as_slice());
        let _ = OnePassSig::parse(&bytes);
        let _ = Signature::parse(&bytes);
        let mut clear = b"-----BEGIN PGP SIGNED MESSAGE-----\n".to_vec();
        clear.extend_from_slice(&bytes);
        let _ = read_cleartext(clear.as_slice(), &mut Vec::new(), &certs, NOW);
    }

    #[test]
    fn mutated_messages_never_panic_and_are_never_good(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        thread_local! {
            static FIXTURE: (Cert, Vec<u8>) = {
                let k = key(KeyProfile::Rfc4880);
                let m = inline_message(&k, b"mutate me");
                (k.to_public(), m)
            };
        }
        FIXTURE.with(|(cert, msg)| {
            let mut m = msg.clone();
            let mut changed = false;
            for (i, b) in &edits {
                let at = i.index(m.len());
                changed |= m[at] != *b;
                m[at] = *b;
            }
            let certs = [cert.clone()];
            if let Ok((out, good)) = read_inline(&m, &certs) {
                // Only the unsigned parts (literal header, unhashed area) may change and stay good.
                prop_assert!(!good || out == b"mutate me" || !changed);
            }
            let truncated = &msg[..cut.index(msg.len())];
            prop_assert!(!matches!(read_inline(truncated, &certs), Ok((_, true))));
            Ok(())
        })?;
    }
}
