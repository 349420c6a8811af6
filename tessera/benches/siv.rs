//! AES-CMAC and AES-SIV, tessera side by side with `cmac` 0.8 and `aes-siv`
//! 0.8, plus the CMAC serial floor (dependent AES blocks through
//! `tessera::aes::Aes::encrypt_block`).
//!
//! `cargo bench --bench siv -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use aes_siv::aead::inout::InOutBuf;
use aes_siv::siv::Aes128Siv;
use cmac::{KeyInit, Mac};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tessera::aes::Aes;
use tessera::cmac::Cmac;
use tessera::siv::{AesSiv, BatchAd};

const KEY16: [u8; 16] = [0x2b; 16];
const KEY32: [u8; 32] = [0x2b; 32];

const SIZES: [(&str, usize); 5] = [("16B", 16), ("64B", 64), ("1000B", 1000), ("16KiB", 16 << 10), ("1MiB", 1 << 20)];

/// 1 MiB of dependent AES-128 blocks, `x = AES(x ^ m_i)`, one
/// `Aes::encrypt_block` call per block: the latency floor of any CMAC.
fn floor(c: &mut Criterion) {
    let mut g = c.benchmark_group("cmac_floor");
    let data = vec![0x5au8; 1 << 20];
    g.throughput(Throughput::Bytes(data.len() as u64));
    let aes = Aes::new(&KEY16).unwrap();
    g.bench_function("dependent_aes_encrypt_block/1MiB", |b| {
        b.iter(|| {
            let mut x = [0u8; 16];
            for m in black_box(&data).chunks_exact(16) {
                x = core::array::from_fn(|i| x[i] ^ m[i]);
                aes.encrypt_block(&mut x);
            }
            x
        })
    });
    g.finish();
}

fn cmac(c: &mut Criterion) {
    let mut g = c.benchmark_group("cmac");
    let ours = Cmac::new(&KEY16).unwrap();
    let peer = <cmac::Cmac<aes::Aes128> as KeyInit>::new_from_slice(&KEY16).unwrap();
    for (name, n) in SIZES {
        let data = vec![0x5au8; n];
        g.throughput(Throughput::Bytes(n as u64));
        g.bench_function(BenchmarkId::new("tessera", name), |b| b.iter(|| ours.mac(black_box(&data))));
        g.bench_function(BenchmarkId::new("cmac-0.8", name), |b| {
            b.iter(|| {
                let mut m = peer.clone();
                m.update(black_box(&data));
                m.finalize().into_bytes()
            })
        });
    }
    g.finish();
}

/// AES-SIV-256 encrypt and decrypt without associated data, out of place
/// into preallocated buffers on both sides (no allocation in the loop).
fn siv(c: &mut Criterion) {
    let ours = AesSiv::new(&KEY32).unwrap();
    let portable = AesSiv::new_portable(&KEY32).unwrap();
    let mut peer = Aes128Siv::new_from_slice(&KEY32).unwrap();
    for (dir, enc) in [("encrypt", true), ("decrypt", false)] {
        let mut g = c.benchmark_group(format!("siv_{dir}"));
        for (name, n) in SIZES {
            if n == 1000 {
                continue; // the 1000 B shape is measured with AD below
            }
            let pt = vec![0x5au8; n];
            let ct = ours.seal(None, &[], &pt).unwrap();
            let mut out = vec![0u8; n + 16];
            g.throughput(Throughput::Bytes(n as u64));
            if enc {
                for (id, s) in [("tessera", &ours), ("tessera-portable", &portable)] {
                    g.bench_function(BenchmarkId::new(id, name), |b| {
                        b.iter(|| s.seal_into(None, &[], black_box(&pt), &mut out).unwrap())
                    });
                }
                g.bench_function(BenchmarkId::new("aes-siv-0.8", name), |b| {
                    b.iter(|| {
                        let buf = InOutBuf::new(black_box(&pt), &mut out[16..]).unwrap();
                        peer.encrypt_inout_detached::<[&[u8]; 0], &[u8]>([], buf).unwrap()
                    })
                });
            } else {
                for (id, s) in [("tessera", &ours), ("tessera-portable", &portable)] {
                    g.bench_function(BenchmarkId::new(id, name), |b| {
                        b.iter(|| s.open_into(None, &[], black_box(&ct), &mut out).unwrap())
                    });
                }
                let tag = ct[..16].try_into().unwrap();
                g.bench_function(BenchmarkId::new("aes-siv-0.8", name), |b| {
                    b.iter(|| {
                        let buf = InOutBuf::new(black_box(&ct[16..]), &mut out[..n]).unwrap();
                        peer.decrypt_inout_detached::<[&[u8]; 0], &[u8]>([], buf, tag).unwrap()
                    })
                });
            }
        }
        g.finish();
    }
}

/// The cryptomator benchmark shape: a 1000-byte message with 100 bytes of
/// associated data, encrypted then decrypted.
fn siv_1000_100(c: &mut Criterion) {
    let mut g = c.benchmark_group("siv_1000B_ad100B_encrypt_decrypt");
    let ours = AesSiv::new(&KEY32).unwrap();
    let mut peer = Aes128Siv::new_from_slice(&KEY32).unwrap();
    let pt = vec![0x5au8; 1000];
    let ad = vec![0xa5u8; 100];
    let mut ct = vec![0u8; 1016];
    let mut back = vec![0u8; 1000];
    g.throughput(Throughput::Bytes(1000));
    // `tessera-portable`: without the AES-NI path (what CPUs without AES-NI run).
    let portable = AesSiv::new_portable(&KEY32).unwrap();
    for (name, siv) in [("tessera", &ours), ("tessera-portable", &portable)] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let n = siv.seal_into(None, &[&ad], black_box(&pt), &mut ct).unwrap();
                siv.open_into(None, &[&ad], &ct[..n], &mut back).unwrap()
            })
        });
    }
    g.bench_function("aes-siv-0.8", |b| {
        b.iter(|| {
            let (v, c) = ct.split_at_mut(16);
            let tag = peer.encrypt_inout_detached([&ad], InOutBuf::new(black_box(&pt), c).unwrap()).unwrap();
            v.copy_from_slice(&tag);
            peer.decrypt_inout_detached([&ad], InOutBuf::new(c, &mut back).unwrap(), &tag).unwrap()
        })
    });
    g.bench_function("aes-siv-0.8-vec-api", |b| {
        b.iter(|| {
            let ct = peer.encrypt([&ad], black_box(&pt)).unwrap();
            peer.decrypt([&ad], &ct).unwrap()
        })
    });
    g.finish();
}

/// 10,000 messages of 32 bytes with one shared associated-data component
/// (a column name): the batch API against one call per message.
fn siv_batch(c: &mut Criterion) {
    const N: usize = 10_000;
    const LEN: usize = 32;
    let mut g = c.benchmark_group("siv_batch_10000x32B");
    g.throughput(Throughput::Elements(N as u64));
    let ours = AesSiv::new(&KEY32).unwrap();
    let mut peer = Aes128Siv::new_from_slice(&KEY32).unwrap();
    let data: Vec<u8> = (0..N * LEN).map(|i| (i * 131 % 251) as u8).collect();
    let ends: Vec<usize> = (1..=N).map(|i| i * LEN).collect();
    let cends: Vec<usize> = (1..=N).map(|i| i * (LEN + 16)).collect();
    let ad: [&[u8]; 1] = [b"customers.email"];
    let ids: Vec<Vec<u8>> = (0..N).map(|i| format!("row-{i}").into_bytes()).collect();
    let ids: Vec<&[u8]> = ids.iter().map(|v| v.as_slice()).collect();
    let mut out = vec![0u8; N * (LEN + 16)];
    let mut back = vec![0u8; N * LEN];
    ours.seal_batch(BatchAd::Same(&ad), &data, &ends, &mut out).unwrap();
    let ct = out.clone();

    g.bench_function("encrypt/tessera-batch", |b| {
        b.iter(|| ours.seal_batch(BatchAd::Same(&ad), black_box(&data), &ends, &mut out).unwrap())
    });
    g.bench_function("encrypt/tessera-one-at-a-time", |b| {
        b.iter(|| {
            for (m, o) in black_box(&data).chunks_exact(LEN).zip(out.chunks_exact_mut(LEN + 16)) {
                ours.seal_into(None, &ad, m, o).unwrap();
            }
        })
    });
    g.bench_function("encrypt/aes-siv-0.8-one-at-a-time", |b| {
        b.iter(|| {
            for (m, o) in black_box(&data).chunks_exact(LEN).zip(out.chunks_exact_mut(LEN + 16)) {
                let (v, c) = o.split_at_mut(16);
                v.copy_from_slice(&peer.encrypt_inout_detached(ad, InOutBuf::new(m, c).unwrap()).unwrap());
            }
        })
    });
    g.bench_function("encrypt/tessera-batch-per-row-ad", |b| {
        b.iter(|| ours.seal_batch(BatchAd::PerValue(&ids), black_box(&data), &ends, &mut out).unwrap())
    });
    g.bench_function("encrypt/tessera-one-at-a-time-per-row-ad", |b| {
        b.iter(|| {
            for ((m, o), id) in black_box(&data).chunks_exact(LEN).zip(out.chunks_exact_mut(LEN + 16)).zip(&ids) {
                ours.seal_into(None, &[id], m, o).unwrap();
            }
        })
    });
    g.bench_function("decrypt/tessera-batch", |b| {
        b.iter(|| ours.open_batch(BatchAd::Same(&ad), black_box(&ct), &cends, &mut back).unwrap())
    });
    g.bench_function("decrypt/tessera-one-at-a-time", |b| {
        b.iter(|| {
            for (m, o) in black_box(&ct).chunks_exact(LEN + 16).zip(back.chunks_exact_mut(LEN)) {
                ours.open_into(None, &ad, m, o).unwrap();
            }
        })
    });
    g.finish();
}

criterion_group!(benches, floor, cmac, siv, siv_1000_100, siv_batch);
criterion_main!(benches);
