//! FF1 and FF3-1 against the `fpe` crate and against the AES floors, side by side.
//!
//! Run: `cargo bench --bench fpe` (add `-- --quick` for a fast pass).
//! - `floor/aes128-latency-10`: ten dependent AES-128 blocks (what one FF1 call cannot beat).
//! - `floor/aes128-blocks-10`: ten blocks' worth of `encrypt_blocks` throughput per value.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fpe::ff1::{FF1 as PeerFF1, FlexibleNumeralString};
use tessera::aes::Aes;
use tessera::fpe::{FF1, FF3_1, Fpe, Tweaks};

const KEY: [u8; 16] = [0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c];
const BATCH: usize = 1024;

fn values(radix: u32, len: usize, count: usize) -> Vec<u16> {
    let mut s = 0x1234_5678_9abc_def0u64;
    (0..len * count)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % radix as u64) as u16
        })
        .collect()
}

fn floors(c: &mut Criterion) {
    let aes = Aes::new(&KEY).unwrap();
    let mut g = c.benchmark_group("floor");
    g.throughput(Throughput::Elements(1));
    for rounds in [10usize, 8] {
        g.bench_function(format!("aes128-latency-{rounds}"), |b| {
            let mut x = [7u8; 16];
            b.iter(|| {
                for _ in 0..rounds {
                    aes.encrypt_block(black_box(&mut x));
                }
            })
        });
    }
    g.throughput(Throughput::Elements(BATCH as u64));
    for rounds in [10usize, 8] {
        g.bench_function(format!("aes128-blocks-{rounds}"), |b| {
            let mut blocks = vec![[7u8; 16]; 64];
            b.iter(|| {
                for _ in 0..rounds * BATCH / 64 {
                    aes.encrypt_blocks(black_box(&mut blocks));
                }
            })
        });
    }
    g.finish();
}

/// (name, radix, length) of the shapes measured.
const SHAPES: [(&str, u32, usize); 4] =
    [("radix10-len10", 10, 10), ("radix10-len16", 10, 16), ("radix62-len24", 62, 24), ("radix36-len256", 36, 256)];

fn ff1(c: &mut Criterion) {
    let mut g = c.benchmark_group("ff1");
    for (name, radix, len) in SHAPES {
        let ours = FF1::with_radix(&KEY, radix).unwrap();
        let peer = PeerFF1::<aes::Aes128>::new(&KEY, radix).unwrap();
        let data = values(radix, len, BATCH);
        g.throughput(Throughput::Elements(1));
        g.bench_function(BenchmarkId::new("tessera-single", name), |b| {
            let mut x = data[..len].to_vec();
            b.iter(|| ours.encrypt_numerals(b"", black_box(&mut x)).unwrap())
        });
        g.bench_function(BenchmarkId::new("fpe-crate-single", name), |b| {
            let x = FlexibleNumeralString::from(data[..len].to_vec());
            b.iter(|| peer.encrypt(b"", black_box(&x)).unwrap())
        });
        g.throughput(Throughput::Elements(BATCH as u64));
        g.bench_function(BenchmarkId::new("tessera-batch", name), |b| {
            let mut x = data.clone();
            let ends: Vec<usize> = (1..=BATCH).map(|i| i * len).collect();
            b.iter(|| ours.encrypt_batch(Tweaks::Same(b""), black_box(&mut x), &ends).unwrap())
        });
    }
    g.finish();
}

fn ff3_1(c: &mut Criterion) {
    let mut g = c.benchmark_group("ff3-1");
    let tweak = [1u8, 2, 3, 4, 5, 6, 7];
    for (name, radix, len) in SHAPES.iter().copied().filter(|s| s.2 <= 24) {
        let ours = FF3_1::with_radix(&KEY, radix).unwrap();
        let data = values(radix, len, BATCH);
        g.throughput(Throughput::Elements(1));
        g.bench_function(BenchmarkId::new("tessera-single", name), |b| {
            let mut x = data[..len].to_vec();
            b.iter(|| ours.encrypt_numerals(&tweak, black_box(&mut x)).unwrap())
        });
        g.throughput(Throughput::Elements(BATCH as u64));
        g.bench_function(BenchmarkId::new("tessera-batch", name), |b| {
            let mut x = data.clone();
            let ends: Vec<usize> = (1..=BATCH).map(|i| i * len).collect();
            b.iter(|| ours.encrypt_batch(Tweaks::Same(&tweak), black_box(&mut x), &ends).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, floors, ff1, ff3_1);
criterion_main!(benches);
