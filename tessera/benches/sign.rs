//! Streaming signatures: an inline-signed message (one-pass signature,
//! literal data, signature) made and verified by tessera and by rPGP (the
//! `pgp` crate) with the same Ed25519 v6 key and SHA2-512, beside SHA2-512
//! alone (the floor: signing hashes the data once).
//!
//! Run: `cargo bench -p tessera --bench sign` (TESSERA_BENCH_MIB sets the
//! message size, default 256).

use std::hint::black_box;
use std::io::{Cursor, Read, Write};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgp::composed::{Deserializable, Message, MessageBuilder, SignedPublicKey, SignedSecretKey};
use pgp::crypto::hash::HashAlgorithm;
use pgp::types::Password;
use rand08::SeedableRng;
use tessera::openpgp::crypto::{HashAlg, Hasher};
use tessera::openpgp::key::{Cert, GenerateOptions, generate};
use tessera::openpgp::sig::{InlineSigner, InlineVerifier, SigType, Signer, SigningKey};

fn size() -> usize {
    std::env::var("TESSERA_BENCH_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(256usize) << 20
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

fn tessera_sign(keys: &[SigningKey<'_>], data: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut w = InlineSigner::new(out, Signer::new(keys, SigType::Binary, now() as u32).unwrap()).unwrap();
    for piece in data.chunks(1 << 18) {
        w.write_all(piece).unwrap();
    }
    w.finish().unwrap();
}

fn tessera_verify(certs: &[Cert], msg: &[u8], buf: &mut [u8]) -> usize {
    let mut r = InlineVerifier::new(msg, certs, now()).unwrap();
    let mut total = 0;
    loop {
        let n = r.read(buf).unwrap();
        if n == 0 {
            assert!(r.results().unwrap()[0].is_good());
            return total;
        }
        black_box(&buf[..n]);
        total += n;
    }
}

fn rpgp_sign(key: &SignedSecretKey, data: &pgp::bytes::Bytes) -> Vec<u8> {
    let rng = rand08::rngs::StdRng::seed_from_u64(7);
    let mut b = MessageBuilder::from_bytes("", data.clone());
    b.sign(&key.primary_key, Password::empty(), HashAlgorithm::Sha512);
    b.to_vec(rng).unwrap()
}

fn rpgp_verify(key: &SignedPublicKey, msg: &[u8]) -> usize {
    let mut m = Message::from_bytes(msg).unwrap();
    let mut buf = vec![0u8; 1 << 18];
    let mut total = 0;
    loop {
        let n = m.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        black_box(&buf[..n]);
        total += n;
    }
    m.verify(key).unwrap();
    total
}

fn inline_signed(c: &mut Criterion) {
    let n = size();
    let data: Vec<u8> = (0..n).map(|i| (i as u32).wrapping_mul(2654435761) as u8).collect();
    let bytes = pgp::bytes::Bytes::from(data.clone());
    let key =
        generate(&GenerateOptions { user_ids: vec!["Bench <b@example.org>".into()], ..Default::default() }).unwrap();
    let (mut sk, mut pk) = (Vec::new(), Vec::new());
    key.write_armored(&mut sk).unwrap();
    key.to_public().write_armored(&mut pk).unwrap();
    let (rsk, _) = SignedSecretKey::from_armor_single(Cursor::new(&sk)).unwrap();
    let (rpk, _) = SignedPublicKey::from_armor_single(Cursor::new(&pk)).unwrap();
    let keys = SigningKey::from_cert(&key, now()).unwrap();
    assert_eq!(keys[0].hash, HashAlg::Sha512);
    let certs = [key.to_public()];

    let mut g = c.benchmark_group("openpgp-inline-sign-ed25519-v6");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(n as u64));
    g.bench_function("sha512-alone", |b| b.iter(|| Hasher::digest(HashAlg::Sha512, black_box(&data))));
    let mut out = Vec::with_capacity(n + (n >> 10) + 4096);
    let mut buf = vec![0u8; 1 << 18];
    g.bench_function("tessera-sign", |b| b.iter(|| tessera_sign(&keys, black_box(&data), &mut out)));
    tessera_sign(&keys, &data, &mut out);
    let ours = out.clone();
    g.bench_function("tessera-verify", |b| {
        b.iter(|| assert_eq!(tessera_verify(&certs, black_box(&ours), &mut buf), n))
    });
    g.bench_function("rpgp-sign", |b| b.iter(|| rpgp_sign(&rsk, black_box(&bytes))));
    let theirs = rpgp_sign(&rsk, &bytes);
    g.bench_function("rpgp-verify", |b| b.iter(|| assert_eq!(rpgp_verify(&rpk, black_box(&theirs)), n)));
    // Each verifies the other's message.
    assert_eq!(tessera_verify(&certs, &theirs, &mut buf), n);
    assert_eq!(rpgp_verify(&rpk, &ours), n);
    g.finish();
}

criterion_group!(benches, inline_signed);
criterion_main!(benches);
