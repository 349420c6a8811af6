use std::hint::black_box;

use cmac::Mac;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tessera::aes::Aes;
use tessera::cmac::Cmac;

const KEY16: [u8; 16] = [0x2b; 16];

fn floor(c: &mut Criterion) {
    let mut g = c.benchmark_group("cmac_floor");
    let data = vec![0x5au8; 1 << 20];
    g.throughput(Throughput::Bytes(data.len() as u64));
    let aes = Aes::new(&KEY16).unwrap();
    g.bench_function("dependent_aes_1MiB", |b| {
        b.iter(|| {
            let mut x = [0u8; 16];
            for m in black_box(&data).chunks_exact(16) {
                x = (u128::from_ne_bytes(x) ^ u128::from_ne_bytes(m.try_into().unwrap())).to_ne_bytes();
                aes.encrypt_block(&mut x);
            }
            x
        })
    });
    g.finish();
}

fn cmac_sizes(c: &mut Criterion) {
    let mut g = c.benchmark_group("cmac");
    let ours = Cmac::new(&KEY16).unwrap();
    let peer = <cmac::Cmac<aes::Aes128> as cmac::KeyInit>::new_from_slice(&KEY16).unwrap();
    for (name, n) in [("16B", 16usize), ("64B", 64), ("1000B", 1000), ("16KiB", 16 << 10), ("1MiB", 1 << 20)] {
        let data = vec![0x5au8; n];
        g.throughput(Throughput::Bytes(n as u64));
        g.bench_function(format!("tessera/{name}"), |b| b.iter(|| ours.mac(black_box(&data))));
        g.bench_function(format!("cmac-0.8/{name}"), |b| {
            b.iter(|| {
                let mut m = peer.clone();
                m.update(black_box(&data));
                m.finalize().into_bytes()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, floor, cmac_sizes);
criterion_main!(benches);
