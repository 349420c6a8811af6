//! Per-operation time of RFC 9980's algorithms beside the classical ones
//! they pair with: key generation, session-key encryption and decryption
//! (the KEM runs once a message), signing and verifying a digest.
//! `cargo run --release -p tessera --example pq_cputime [ROUNDS]`.

use std::hint::black_box;
use std::time::Instant;

use tessera::openpgp::crypto::{
    HashAlg, Hasher, KeyType, PkeskVersion, decrypt_session_key, encrypt_session_key, generate, sign, verify,
};

/// Median microseconds of `f` over `rounds` calls.
fn micros(rounds: usize, mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(21);
    println!("microseconds per operation, median of {rounds}");
    println!("{:<20} {:>10} {:>10} {:>10}", "encryption", "keygen", "encrypt", "decrypt");
    for (name, kind) in [
        ("X25519", KeyType::X25519),
        ("X448", KeyType::X448),
        ("ML-KEM-768+X25519", KeyType::MlKem768X25519),
        ("ML-KEM-1024+X448", KeyType::MlKem1024X448),
    ] {
        let keygen = micros(rounds, || drop(black_box(generate(kind).unwrap())));
        let (public, secret) = generate(kind).unwrap();
        let fpr = [0u8; 32];
        let payload = encrypt_session_key(&public, &fpr, PkeskVersion::V6, None, &[7; 32]).unwrap();
        let enc = micros(rounds, || {
            black_box(encrypt_session_key(&public, &fpr, PkeskVersion::V6, None, &[7; 32]).unwrap());
        });
        let dec = micros(rounds, || {
            black_box(decrypt_session_key(&secret, &public, &fpr, &payload, PkeskVersion::V6).unwrap());
        });
        println!("{name:<20} {keygen:>10.0} {enc:>10.0} {dec:>10.0}");
    }
    println!("{:<20} {:>10} {:>10} {:>10}", "signature", "keygen", "sign", "verify");
    let digest = Hasher::digest(HashAlg::Sha3_256, b"data");
    for (name, kind, slow) in [
        ("Ed25519", KeyType::Ed25519, false),
        ("Ed448", KeyType::Ed448, false),
        ("ML-DSA-65+Ed25519", KeyType::MlDsa65Ed25519, false),
        ("ML-DSA-87+Ed448", KeyType::MlDsa87Ed448, false),
        ("SLH-DSA-SHAKE-128s", KeyType::SlhDsaShake128s, true),
        ("SLH-DSA-SHAKE-128f", KeyType::SlhDsaShake128f, true),
        ("SLH-DSA-SHAKE-256s", KeyType::SlhDsaShake256s, true),
    ] {
        let n = if slow { rounds.min(3) } else { rounds };
        let keygen = micros(n, || drop(black_box(generate(kind).unwrap())));
        let (public, secret) = generate(kind).unwrap();
        let sig = sign(&secret, &public, HashAlg::Sha3_256, &digest).unwrap();
        let s = micros(n, || drop(black_box(sign(&secret, &public, HashAlg::Sha3_256, &digest).unwrap())));
        let v = micros(rounds, || verify(&public, HashAlg::Sha3_256, &digest, &sig).unwrap());
        println!("{name:<20} {keygen:>10.0} {s:>10.0} {v:>10.0}");
    }
}
