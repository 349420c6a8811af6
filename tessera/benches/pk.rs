//! Public-key cost per message: wrapping and unwrapping one session key
//! (a PKESK) with X25519, X448, ECDH P-256 and RSA-3072, and Ed25519
//! signing/verifying one digest.
//!
//! `cargo bench --bench pk -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tessera::openpgp::crypto::{self, Curve, HashAlg, Hasher, KeyType, PkeskVersion};

const FPR: [u8; 32] = [0x42; 32];
const SESSION_KEY: [u8; 32] = [0x5a; 32];

fn session_keys(c: &mut Criterion) {
    let mut g = c.benchmark_group("pkesk_v6");
    let kinds = [
        ("x25519", KeyType::X25519),
        ("x448", KeyType::X448),
        ("ecdh_p256", KeyType::Ecdh(Curve::NistP256)),
        ("rsa3072", KeyType::Rsa(3072)),
    ];
    for (name, kind) in kinds {
        let (public, secret) = crypto::generate(kind).unwrap();
        g.bench_function(format!("{name}/encrypt"), |b| {
            b.iter(|| {
                crypto::encrypt_session_key(&public, &FPR, PkeskVersion::V6, None, black_box(&SESSION_KEY)).unwrap()
            })
        });
        let payload = crypto::encrypt_session_key(&public, &FPR, PkeskVersion::V6, None, &SESSION_KEY).unwrap();
        g.bench_function(format!("{name}/decrypt"), |b| {
            b.iter(|| {
                crypto::decrypt_session_key(&secret, &public, &FPR, black_box(&payload), PkeskVersion::V6).unwrap()
            })
        });
    }
    g.finish();
}

fn signatures(c: &mut Criterion) {
    let mut g = c.benchmark_group("signature");
    let digest = Hasher::digest(HashAlg::Sha512, b"message");
    for (name, kind) in [("ed25519", KeyType::Ed25519), ("rsa3072", KeyType::Rsa(3072))] {
        let (public, secret) = crypto::generate(kind).unwrap();
        g.bench_function(format!("{name}/sign"), |b| {
            b.iter(|| crypto::sign(&secret, &public, HashAlg::Sha512, black_box(&digest)).unwrap())
        });
        let sig = crypto::sign(&secret, &public, HashAlg::Sha512, &digest).unwrap();
        g.bench_function(format!("{name}/verify"), |b| {
            b.iter(|| crypto::verify(&public, HashAlg::Sha512, black_box(&digest), &sig).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, session_keys, signatures);
criterion_main!(benches);
