//! AEAD modes against their peers, in one run (AES-128, detached tags, in place).
//!
//! For each size (64 B, 4 KiB, 256 KiB = OpenPGP's default chunk, 4 MiB):
//! - `aead-seal/SIZE`: tessera OCB, EAX and GCM; the `ocb3`, `eax` and
//!   `aes-gcm` crates; *ring* and aws-lc-rs GCM; and two references: the
//!   bulk AES ceiling (`Aes::encrypt_blocks` over the same bytes) and the
//!   CMAC floor (`Cmac::mac`, one dependent AES call per block).
//! - `aead-open/SIZE`: the same AEADs opening (the ciphertext is restored
//!   outside the timed part).
//! - `aead-seal-aes256/262144`, `aead-open-aes256/262144`: the same with AES-256.
//!
//! `tessera-ocb` is tessera's OCB with the kernel chosen for this CPU;
//! `tessera-ocb-portable` is the path CPUs without VAES take, and
//! `tessera-ocb-vaes256` / `tessera-ocb-vaes512` force each VAES kernel the
//! CPU has (the measurement behind the choice in `aead/ocb/kernel.rs`).
//!
//! Nonces are the lengths OpenPGP uses: 15 bytes for OCB, 16 for EAX, 12
//! for GCM; 13 bytes of associated data, as a SEIPD v2 chunk has.
//!
//! `cargo bench -p tessera --bench aead -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tessera::aead::{Aad, AeadInPlace, Eax, Gcm, Nonce, Ocb, Tag};

const KEY: [u8; 16] = [0x42; 16];
const AD: [u8; 13] = [0xd4; 13];
const N15: [u8; 15] = [0x15; 15];
const N16: [u8; 16] = [0x16; 16];
const N12: [u8; 12] = [0x12; 12];
const SIZES: [usize; 4] = [64, 4096, 256 * 1024, 4 << 20];

type Ocb3<A> = ocb3::Ocb3<A, ocb3::consts::U15>;
type EaxPeer<A> = eax::Eax<A, aes::cipher::consts::U16>;

/// One AEAD under test: seal in place, open in place.
trait Subject {
    fn seal(&self, buf: &mut [u8]) -> Tag;
    fn open(&self, buf: &mut [u8], tag: &Tag);
}

struct Ours<A>(A, &'static [u8]);

impl<A: AeadInPlace> Subject for Ours<A> {
    fn seal(&self, buf: &mut [u8]) -> Tag {
        self.0.seal_in_place_separate_tag(Nonce::assume_unique_for_key(self.1), Aad::new(&AD), buf).unwrap()
    }
    fn open(&self, buf: &mut [u8], tag: &Tag) {
        self.0.open_in_place_separate_tag(Nonce::assume_unique_for_key(self.1), Aad::new(&AD), buf, tag).unwrap()
    }
}

struct Rc<A>(A, &'static [u8]);

impl<A: aes_gcm::AeadInOut> Subject for Rc<A> {
    fn seal(&self, buf: &mut [u8]) -> Tag {
        let nonce = self.1.try_into().unwrap();
        self.0.encrypt_inout_detached(nonce, &AD, buf.into()).unwrap().as_slice().try_into().unwrap()
    }
    fn open(&self, buf: &mut [u8], tag: &Tag) {
        let nonce = self.1.try_into().unwrap();
        self.0.decrypt_inout_detached(nonce, &AD, buf.into(), tag.as_slice().try_into().unwrap()).unwrap()
    }
}

struct Ring(ring::aead::LessSafeKey);

impl Subject for Ring {
    fn seal(&self, buf: &mut [u8]) -> Tag {
        use ring::aead::{Aad, Nonce};
        let tag = self.0.seal_in_place_separate_tag(Nonce::assume_unique_for_key(N12), Aad::from(&AD), buf).unwrap();
        tag.as_ref().try_into().unwrap()
    }
    fn open(&self, buf: &mut [u8], tag: &Tag) {
        use ring::aead::{Aad, Nonce};
        let n = Nonce::assume_unique_for_key(N12);
        self.0.open_in_place_separate_tag(n, Aad::from(&AD), (*tag).into(), buf, 0..).unwrap();
    }
}

struct AwsLc(aws_lc_rs::aead::LessSafeKey);

impl Subject for AwsLc {
    fn seal(&self, buf: &mut [u8]) -> Tag {
        use aws_lc_rs::aead::{Aad, Nonce};
        let tag = self.0.seal_in_place_separate_tag(Nonce::assume_unique_for_key(N12), Aad::from(&AD), buf).unwrap();
        tag.as_ref().try_into().unwrap()
    }
    fn open(&self, buf: &mut [u8], tag: &Tag) {
        use aws_lc_rs::aead::{Aad, Nonce};
        let n = Nonce::assume_unique_for_key(N12);
        self.0.open_in_place_separate_tag(n, Aad::from(&AD), tag, buf).unwrap();
    }
}

/// Every AEAD under test with AES-128 (`key` of 16 bytes) or AES-256 (32).
fn subjects(key: &[u8]) -> Vec<(&'static str, Box<dyn Subject>)> {
    use aes::cipher::KeyInit;
    let ring_key = {
        use ring::aead::{AES_128_GCM, AES_256_GCM, LessSafeKey, UnboundKey};
        let alg = if key.len() == 16 { &AES_128_GCM } else { &AES_256_GCM };
        LessSafeKey::new(UnboundKey::new(alg, key).unwrap())
    };
    let aws_key = {
        use aws_lc_rs::aead::{AES_128_GCM, AES_256_GCM, LessSafeKey, UnboundKey};
        let alg = if key.len() == 16 { &AES_128_GCM } else { &AES_256_GCM };
        LessSafeKey::new(UnboundKey::new(alg, key).unwrap())
    };
    let mut v: Vec<(&'static str, Box<dyn Subject>)> = vec![
        ("tessera-ocb", Box::new(Ours(Ocb::new(key).unwrap(), &N15))),
        ("tessera-eax", Box::new(Ours(Eax::new(key).unwrap(), &N16))),
        ("tessera-gcm", Box::new(Ours(Gcm::new(key).unwrap(), &N12))),
        ("ring-gcm", Box::new(Ring(ring_key))),
        ("aws-lc-rs-gcm", Box::new(AwsLc(aws_key))),
    ];
    for name in Ocb::kernels().0 {
        let label = match name {
            "portable" => "tessera-ocb-portable",
            "vaes256" => "tessera-ocb-vaes256",
            _ => "tessera-ocb-vaes512",
        };
        v.insert(1, (label, Box::new(Ours(Ocb::new_with_kernel(key, name).unwrap(), &N15))));
    }
    if key.len() == 16 {
        v.push(("ocb3", Box::new(Rc(Ocb3::<aes::Aes128>::new_from_slice(key).unwrap(), &N15))));
        v.push(("eax", Box::new(Rc(EaxPeer::<aes::Aes128>::new_from_slice(key).unwrap(), &N16))));
        v.push(("aes-gcm", Box::new(Rc(aes_gcm::Aes128Gcm::new_from_slice(key).unwrap(), &N12))));
    } else {
        v.push(("ocb3", Box::new(Rc(Ocb3::<aes::Aes256>::new_from_slice(key).unwrap(), &N15))));
        v.push(("eax", Box::new(Rc(EaxPeer::<aes::Aes256>::new_from_slice(key).unwrap(), &N16))));
        v.push(("aes-gcm", Box::new(Rc(aes_gcm::Aes256Gcm::new_from_slice(key).unwrap(), &N12))));
    }
    v
}

fn group<'a>(c: &'a mut Criterion, name: &str, size: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(format!("{name}/{size}"));
    g.throughput(Throughput::Bytes(size as u64));
    g
}

fn seal(c: &mut Criterion) {
    seal_with(c, "aead-seal", &KEY, &SIZES);
    // AES-256 at OpenPGP's default chunk size.
    seal_with(c, "aead-seal-aes256", &[0x42; 32], &[256 * 1024]);
}

fn seal_with(c: &mut Criterion, name: &str, key: &[u8], sizes: &[usize]) {
    let subjects = subjects(key);
    for &size in sizes {
        let mut g = group(c, name, size);
        let mut buf = vec![0x5au8; size];
        for (name, s) in &subjects {
            g.bench_function(BenchmarkId::from_parameter(name), |b| b.iter(|| s.seal(black_box(&mut buf))));
        }
        let aes = tessera::aes::Aes::new(key).unwrap();
        let mut blocks = vec![[0u8; 16]; size / 16];
        g.bench_function(BenchmarkId::from_parameter("aes-ceiling"), |b| {
            b.iter(|| aes.encrypt_blocks(black_box(&mut blocks)))
        });
        let cmac = tessera::cmac::Cmac::new(key).unwrap();
        g.bench_function(BenchmarkId::from_parameter("cmac-floor"), |b| b.iter(|| cmac.mac(black_box(&buf))));
        g.finish();
    }
}

fn open(c: &mut Criterion) {
    open_with(c, "aead-open", &KEY, &SIZES);
    open_with(c, "aead-open-aes256", &[0x42; 32], &[256 * 1024]);
}

fn open_with(c: &mut Criterion, name: &str, key: &[u8], sizes: &[usize]) {
    let subjects = subjects(key);
    for &size in sizes {
        let mut g = group(c, name, size);
        for (name, s) in &subjects {
            let mut ct = vec![0x5au8; size];
            let tag = s.seal(&mut ct);
            g.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter_batched_ref(|| ct.clone(), |buf| s.open(buf, &tag), BatchSize::LargeInput)
            });
        }
        g.finish();
    }
}

criterion_group!(benches, seal, open);
criterion_main!(benches);
