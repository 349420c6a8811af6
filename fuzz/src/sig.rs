//! `sig_parse`: signature and one-pass signature packets, and inline-signed,
//! cleartext-signed and detached-signed input through the verifiers, with
//! the RFC 9580 sample certificate, a v4 certificate and the RFC 9980
//! ML-DSA-65+Ed25519 sample certificate as signers.

use std::sync::OnceLock;

use tessera::openpgp::key::Cert;
use tessera::openpgp::sig::{InlineVerifier, OnePassSig, Signature, Verifier, read_cleartext, read_signatures};

use super::common::*;

/// The RFC 9580 Appendix A.3 v6 certificate (signer of the A.6 and A.7 samples).
pub const V6_CERT: &[u8] = include_bytes!("../../tessera/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc");
/// A v4 certificate (Ed25519 legacy).
pub const V4_CERT: &[u8] = include_bytes!("../../tessera/tests/vectors/openpgp/keys/alice_cert.asc");

/// The RFC 9980 Appendix A.3 certificate (ML-DSA-65+Ed25519, ML-KEM-768+X25519).
pub const PQ_CERT: &[u8] = include_bytes!("../../tessera/tests/vectors/openpgp/rfc9980/v6-mldsa-65-sample-pk.asc");

/// The signers, parsed once.
pub fn signers() -> &'static [Cert; 3] {
    static CERTS: OnceLock<[Cert; 3]> = OnceLock::new();
    CERTS.get_or_init(|| {
        [
            Cert::from_bytes(V6_CERT).expect("v6 cert vector"),
            Cert::from_bytes(V4_CERT).expect("v4 cert vector"),
            Cert::from_bytes(PQ_CERT).expect("RFC 9980 cert vector"),
        ]
    })
}

/// Signatures are judged at this time (2024-10-01).
const NOW: u64 = 1_727_740_800;

/// Input: one selector octet, then the bytes. `sel % 5` chooses:
/// 0: a signature packet body (parsed, re-encoded: the same octets);
/// 1: a one-pass signature packet body (the same);
/// 2: an inline-signed message (binary or armored), read in pieces of
///    `sel / 5 + 1` octets;
/// 3: a cleartext-signed message;
/// 4: a detached signature over the empty document and over "data".
pub fn sig_parse(data: &[u8]) {
    let mut data = data;
    let sel = take_u8(&mut data);
    let certs = signers();
    match sel % 5 {
        0 => {
            if let Ok(s) = Signature::parse(data) {
                assert_eq!(Signature::parse(&s.to_bytes()).expect("re-encoded signature parses"), s);
                let _ = (s.intended_recipients().count(), s.embedded_signatures().count(), s.unknown_critical());
            }
        }
        1 => {
            if let Ok(o) = OnePassSig::parse(data) {
                assert_eq!(OnePassSig::parse(&o.to_bytes()).expect("re-encoded one-pass signature parses"), o);
            }
        }
        2 => {
            let input = Pieces { data, piece: sel as usize / 5 + 1 };
            let Ok(mut v) = InlineVerifier::with_max_decompressed(input, certs, NOW, Some(MAX_OUTPUT as u64 / 2))
            else {
                return;
            };
            let read = drain(&mut v, 4096);
            assert_eq!(read.is_ok(), v.results().is_some(), "results exactly when the message ended well");
        }
        3 => {
            let mut text = Vec::new();
            let _ = read_cleartext(data, &mut text, certs, NOW);
        }
        _ => {
            let Ok(sigs) = read_signatures(data) else { return };
            for doc in [&b""[..], b"data"] {
                let mut v = Verifier::new(sigs.clone(), certs, NOW);
                v.update(doc);
                assert_eq!(v.finish().len(), sigs.len(), "one result per signature");
            }
        }
    }
}
