//! SEIPD v2 in memory: tessera's streaming Encryptor/Decryptor against rPGP
//! (the `pgp` crate), same message size, same chunk size (256 KiB), same
//! cheap iterated S2K (so the key derivation does not count), for OCB, GCM
//! and EAX with AES-128.
//!
//! Run: `cargo bench -p tessera --bench openpgp` (TESSERA_BENCH_MIB sets
//! the message size, default 256).

use std::hint::black_box;
use std::io::{Read, Write};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use pgp::composed::{Message, MessageBuilder};
use pgp::crypto::aead::{AeadAlgorithm, ChunkSize};
use pgp::crypto::hash::HashAlgorithm;
use pgp::crypto::sym::SymmetricKeyAlgorithm;
use pgp::types::{Password, StringToKey};
use rand08::SeedableRng;
use tessera::aead::Mode;
use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, S2kChoice, SymAlg};

const PW: &str = "benchmark password";

fn size() -> usize {
    std::env::var("TESSERA_BENCH_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(256usize) << 20
}

fn tessera_encrypt(data: &[u8], aead: Mode, out: &mut Vec<u8>) {
    let opts = EncryptOptions {
        aead,
        cipher: SymAlg::Aes128,
        chunk_octet: 12,
        s2k: S2kChoice::Iterated { count_octet: 0 },
        ..EncryptOptions::default()
    };
    out.clear();
    let mut e = Encryptor::new(out, &[PW.as_bytes()], &opts).unwrap();
    e.write_all(data).unwrap();
    e.finish().unwrap();
}

fn tessera_decrypt(ct: &[u8], buf: &mut [u8]) -> usize {
    let mut d = Decryptor::new(ct, &[PW.as_bytes()]).unwrap();
    let mut total = 0;
    loop {
        let n = d.read(buf).unwrap();
        if n == 0 {
            return total;
        }
        black_box(&buf[..n]);
        total += n;
    }
}

fn rpgp_encrypt(data: &pgp::bytes::Bytes, aead: AeadAlgorithm) -> Vec<u8> {
    let mut rng = rand08::rngs::StdRng::seed_from_u64(7);
    let mut b = MessageBuilder::from_bytes("", data.clone()).seipd_v2(
        &mut rng,
        SymmetricKeyAlgorithm::AES128,
        aead,
        ChunkSize::C256KiB,
    );
    let s2k = StringToKey::new_iterated(&mut rng, HashAlgorithm::Sha256, 0);
    b.encrypt_with_password(&mut rng, s2k, &Password::from(PW)).unwrap();
    b.to_vec(&mut rng).unwrap()
}

fn rpgp_decrypt(ct: &[u8]) -> usize {
    let msg = Message::from_bytes(ct).unwrap();
    let mut msg = msg.decrypt_with_password(&Password::from(PW)).unwrap();
    let mut buf = vec![0u8; 1 << 18];
    let mut total = 0;
    loop {
        let n = msg.read(&mut buf).unwrap();
        if n == 0 {
            return total;
        }
        black_box(&buf[..n]);
        total += n;
    }
}

fn seipd_v2(c: &mut Criterion) {
    let n = size();
    let data: Vec<u8> = (0..n).map(|i| (i as u32).wrapping_mul(2654435761) as u8).collect();
    let bytes = pgp::bytes::Bytes::from(data.clone());
    let mut g = c.benchmark_group("openpgp-seipd-v2");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(n as u64));
    let mut out = Vec::with_capacity(n + (n >> 10) + 4096);
    let mut buf = vec![0u8; 1 << 18];
    for (name, ours, theirs) in [
        ("ocb", Mode::Ocb, AeadAlgorithm::Ocb),
        ("gcm", Mode::Gcm, AeadAlgorithm::Gcm),
        ("eax", Mode::Eax, AeadAlgorithm::Eax),
    ] {
        g.bench_function(BenchmarkId::new("tessera-encrypt", name), |b| {
            b.iter(|| tessera_encrypt(black_box(&data), ours, &mut out))
        });
        tessera_encrypt(&data, ours, &mut out);
        let ct = out.clone();
        g.bench_function(BenchmarkId::new("tessera-decrypt", name), |b| {
            b.iter(|| assert_eq!(tessera_decrypt(black_box(&ct), &mut buf), n))
        });
        g.bench_function(BenchmarkId::new("rpgp-encrypt", name), |b| {
            b.iter(|| rpgp_encrypt(black_box(&bytes), theirs))
        });
        let rct = rpgp_encrypt(&bytes, theirs);
        g.bench_function(BenchmarkId::new("rpgp-decrypt", name), |b| {
            b.iter(|| assert_eq!(rpgp_decrypt(black_box(&rct)), n))
        });
        // Each reads the other's message.
        assert_eq!(tessera_decrypt(&rct, &mut buf), n);
        assert_eq!(rpgp_decrypt(&ct), n);
    }
    g.finish();
}

criterion_group!(benches, seipd_v2);
criterion_main!(benches);
