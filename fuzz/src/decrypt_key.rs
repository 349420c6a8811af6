//! `decrypt_key`: the decryptor with fixed secret keys (an RFC 9580 v6 key
//! with an X25519 subkey, a v4 key with an ECDH Curve25519 subkey, and the
//! RFC 9980 ML-DSA-65+Ed25519 key with an ML-KEM-768+X25519 subkey) over
//! arbitrary messages: PKESK v3/v6 parsing, the key's session key
//! decryption (X25519, ECDH key wrap, the ML-KEM+X25519 combiner), then
//! SEIPD v1/v2.

use std::sync::OnceLock;

use tessera::openpgp::key::Cert;
use tessera::openpgp::{DecryptOptions, Decryptor, VerifyingDecryptor};

use super::common::*;
use super::decrypt::s2k_cost;

/// The RFC 9580 Appendix A.4 v6 secret key (Ed25519 + X25519 subkey).
pub const V6_KEY: &[u8] = include_bytes!("../../tessera/tests/vectors/openpgp/keys/v6-25519-annex-a-4/tsk.asc");
/// A v4 secret key (EdDSA legacy + ECDH Curve25519 subkey).
pub const V4_KEY: &[u8] = include_bytes!("../../tessera/tests/vectors/openpgp/keys/v4-legacy/tsk.asc");

/// The RFC 9980 Appendix A.3 secret key (ML-DSA-65+Ed25519 + ML-KEM-768+X25519 subkey).
pub const PQ_KEY: &[u8] = include_bytes!("../../tessera/tests/vectors/openpgp/rfc9980/v6-mldsa-65-sample-sk.asc");

/// The post-quantum key, parsed once.
pub fn pq_key() -> &'static Cert {
    static KEY: OnceLock<Cert> = OnceLock::new();
    KEY.get_or_init(|| Cert::from_bytes(PQ_KEY).expect("RFC 9980 key vector"))
}

/// The two classical keys, parsed once.
pub fn keys() -> &'static [Cert; 2] {
    static KEYS: OnceLock<[Cert; 2]> = OnceLock::new();
    KEYS.get_or_init(|| {
        [Cert::from_bytes(V6_KEY).expect("v6 key vector"), Cert::from_bytes(V4_KEY).expect("v4 key vector")]
    })
}

/// Validity of signatures is judged at this time (2024-10-01).
const NOW: u64 = 1_727_740_800;

/// Input: `[keys][piece]` then the message. `keys % 4` chooses the keys
/// (0: all three, 1: v6, 2: v4, 3: all three and the password `password`); `keys & 4`
/// decrypts with the verifying decryptor (the keys' certificates as
/// signers). `piece` (1..=256, 0 = whole) sizes the input's pieces.
///
/// Returns whether the message decrypted (for the seed tests).
pub fn decrypt_key(data: &[u8]) -> bool {
    let mut data = data;
    let sel = take_u8(&mut data);
    let piece = match take_u8(&mut data) {
        0 => usize::MAX,
        n => n as usize,
    };
    let [v6, v4] = keys();
    let chosen: Vec<Cert> = match sel % 4 {
        1 => vec![v6.clone()],
        2 => vec![v4.clone()],
        _ => vec![v6.clone(), v4.clone(), pq_key().clone()],
    };
    let passwords: &[&[u8]] = if sel % 4 == 3 { &[PASSWORD] } else { &[] };
    if sel % 4 == 3 && s2k_cost(data) > S2K_BUDGET {
        return false;
    }
    let opts = DecryptOptions {
        keys: chosen,
        limits: FUZZ_LIMITS,
        max_decompressed_size: Some(MAX_OUTPUT as u64 / 2),
        ..DecryptOptions::default()
    };
    let input = Pieces { data, piece };
    if sel & 4 == 0 {
        let Ok(mut dec) = Decryptor::with_options(input, passwords, &opts) else { return false };
        let _ = dec.literal();
        return drain(&mut dec, 4096).is_ok();
    }
    let certs = [v6.to_public(), v4.to_public(), pq_key().to_public()];
    let Ok(mut dec) = VerifyingDecryptor::new(input, passwords, &opts, &certs, NOW) else { return false };
    let read = drain(&mut dec, 4096);
    let results = dec.finish_results();
    // The message fails or succeeds as a whole, whatever its signatures.
    assert_eq!(read.is_ok(), results.is_ok(), "reading and finishing disagree");
    read.is_ok()
}
