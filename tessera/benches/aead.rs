//! AEAD benchmarks: peers only (first measurement).
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const KEY: [u8; 16] = [0x42; 16];
const AD: [u8; 13] = [0xd4; 13];

fn seal(c: &mut Criterion) {
    let mut g = c.benchmark_group("gcm-peers-seal");
    for size in [64usize, 4096, 256 * 1024, 1 << 20, 4 << 20] {
        g.throughput(Throughput::Bytes(size as u64));
        let mut buf = vec![0u8; size];
        {
            use aws_lc_rs::aead::{AES_128_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
            let k = LessSafeKey::new(UnboundKey::new(&AES_128_GCM, &KEY).unwrap());
            g.bench_function(BenchmarkId::new("aws-lc-rs", size), |b| {
                b.iter(|| {
                    k.seal_in_place_separate_tag(Nonce::assume_unique_for_key([1; 12]), Aad::from(&AD), &mut buf)
                        .unwrap()
                })
            });
        }
        {
            use ring::aead::{AES_128_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
            let k = LessSafeKey::new(UnboundKey::new(&AES_128_GCM, &KEY).unwrap());
            g.bench_function(BenchmarkId::new("ring", size), |b| {
                b.iter(|| {
                    k.seal_in_place_separate_tag(Nonce::assume_unique_for_key([1; 12]), Aad::from(&AD), &mut buf)
                        .unwrap()
                })
            });
        }
        {
            use aes_gcm::{AeadInOut, Aes128Gcm, KeyInit};
            let k = Aes128Gcm::new(&KEY.into());
            g.bench_function(BenchmarkId::new("aes-gcm", size), |b| {
                b.iter(|| k.encrypt_inout_detached(&[1u8; 12].into(), &AD, (&mut buf[..]).into()).unwrap())
            });
        }
        {
            let aes = tessera::aes::Aes::new(&KEY).unwrap();
            let mut blocks = vec![[0u8; 16]; size / 16];
            g.bench_function(BenchmarkId::new("aes-ceiling", size), |b| {
                b.iter(|| aes.encrypt_blocks(black_box(&mut blocks)))
            });
        }
    }
}

criterion_group!(benches, seal);
criterion_main!(benches);
