//! Hash throughput of the implementations tessera can use for OpenPGP
//! signatures and the MDC, on the same 1 MiB buffer: the RustCrypto crates,
//! ring and aws-lc-rs (`openssl speed -bytes 16384 sha256 sha512 sha1` is
//! the outside floor). `cargo run --release -p tessera --example hash_cputime`.

use std::hint::black_box;
use std::time::Instant;

use sha2::Digest as _;

fn gbps(mut f: impl FnMut(&[u8]), data: &[u8], rounds: usize) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..64 {
            f(black_box(data));
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    64.0 * data.len() as f64 / best / 1e9
}

fn main() {
    let data = vec![0x5au8; 1 << 20];
    let r = 7;
    println!("GB/s, 1 MiB buffers, best of {r} rounds of 64");
    println!(
        "sha1   RustCrypto {:.2}",
        gbps(
            |d| {
                black_box(sha1::Sha1::digest(d));
            },
            &data,
            r
        )
    );
    println!(
        "sha1   ring       {:.2}",
        gbps(
            |d| {
                black_box(ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, d));
            },
            &data,
            r
        )
    );
    println!(
        "sha1   aws-lc-rs  {:.2}",
        gbps(
            |d| {
                black_box(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY, d));
            },
            &data,
            r
        )
    );
    println!(
        "sha256 RustCrypto {:.2}",
        gbps(
            |d| {
                black_box(sha2::Sha256::digest(d));
            },
            &data,
            r
        )
    );
    println!(
        "sha256 ring       {:.2}",
        gbps(
            |d| {
                black_box(ring::digest::digest(&ring::digest::SHA256, d));
            },
            &data,
            r
        )
    );
    println!(
        "sha256 aws-lc-rs  {:.2}",
        gbps(
            |d| {
                black_box(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, d));
            },
            &data,
            r
        )
    );
    println!(
        "sha512 RustCrypto {:.2}",
        gbps(
            |d| {
                black_box(sha2::Sha512::digest(d));
            },
            &data,
            r
        )
    );
    println!(
        "sha512 ring       {:.2}",
        gbps(
            |d| {
                black_box(ring::digest::digest(&ring::digest::SHA512, d));
            },
            &data,
            r
        )
    );
    println!(
        "sha512 aws-lc-rs  {:.2}",
        gbps(
            |d| {
                black_box(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA512, d));
            },
            &data,
            r
        )
    );
    println!(
        "sha3-256 RustCrypto {:.2}",
        gbps(
            |d| {
                black_box(sha3::Sha3_256::digest(d));
            },
            &data,
            r
        )
    );
    println!(
        "sha3-256 aws-lc-rs  {:.2}",
        gbps(
            |d| {
                black_box(aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA3_256, d));
            },
            &data,
            r
        )
    );
}
