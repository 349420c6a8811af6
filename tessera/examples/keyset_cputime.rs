//! Keyset batch calls against the keyless batch API on the same values, in
//! CPU time: AES-SIV (`SivTransform::{encrypt,decrypt,rewrap}_batch`
//! against `MessageBatch::seal`/`open` with the same key, outputs copied to
//! one flat buffer either way) and FPE (`FpeTransform::{encrypt,decrypt,
//! rewrap}_batch` against `TextBatch`), 32-byte values and 16-digit cards.
//!
//! `cargo run --release -p tessera --example keyset_cputime [VALUES] [ROUNDS]`
//!
//! Each round times every pair back to back (keyset, then keyless); each
//! figure is the best round, so both sides of a ratio see the same load.
//! CPU time is this thread's (Linux schedstat), else wall time.

use std::hint::black_box;

use tessera::fpe::{Alphabet, FF1, TextBatch, TokenFormat, Tweaks};
use tessera::keyset::{BatchTweaks, FpeParams, Keyset, SivParams, TransformParams};
use tessera::siv::{AesSiv, BatchAd, MessageBatch};
use tessera::{BATCH_SIZE, Direction};

/// This thread's CPU time in nanoseconds (Linux schedstat), or wall time elsewhere.
fn cpu_ns(start: &std::time::Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or_else(|| start.elapsed().as_nanos() as f64)
}

/// Flat outputs, reused between runs.
#[derive(Default)]
struct Out {
    data: Vec<u8>,
    ends: Vec<usize>,
}

impl Out {
    fn clear(&mut self) {
        self.data.clear();
        self.ends.clear();
    }
    fn values(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(s, &e)| &self.data[s..e])
    }
}

/// The inputs and buffers of every case.
struct Bench<'a> {
    ad: &'a [u8],
    siv: tessera::keyset::SivTransform,
    raw: AesSiv,
    fpe: tessera::keyset::FpeTransform,
    ff1: FF1,
    format: TokenFormat,
    plain: Vec<&'a [u8]>,
    /// Ciphertexts: keyset (prefixed) and keyless.
    sct: Vec<Vec<u8>>,
    rct: Vec<Vec<u8>>,
    cards: Vec<&'a str>,
    /// Card tokens: keyset and keyless.
    fct: Vec<String>,
    kct: Vec<String>,
    out: Out,
    batch: MessageBatch,
    again: MessageBatch,
}

const CASES: [&str; 6] = ["siv encrypt", "siv decrypt", "siv rewrap", "fpe encrypt", "fpe decrypt", "fpe rewrap"];

impl Bench<'_> {
    /// One case, through the keyset or the keyless API, `BATCH_SIZE` values per call.
    fn run(&mut self, case: &str, keyset: bool) {
        let (ad, out, b) = (self.ad, &mut self.out, &mut self.batch);
        let (d, e) = (&mut out.data, &mut out.ends);
        match (case, keyset) {
            ("siv encrypt", true) => {
                for c in self.plain.chunks(BATCH_SIZE) {
                    fill(b, c);
                    self.siv.encrypt_batch(ad, b, d, e).unwrap();
                }
            }
            ("siv encrypt", false) => {
                for c in self.plain.chunks(BATCH_SIZE) {
                    fill(b, c);
                    b.seal(&self.raw, BatchAd::Same(&[ad])).unwrap().for_each(|ct| push(d, e, ct));
                }
            }
            ("siv decrypt", true) => {
                for c in self.sct.chunks(BATCH_SIZE) {
                    fill(b, c);
                    self.siv.decrypt_batch(ad, b, d, e).unwrap();
                }
            }
            ("siv decrypt", false) => {
                for c in self.rct.chunks(BATCH_SIZE) {
                    fill(b, c);
                    b.open(&self.raw, BatchAd::Same(&[ad])).unwrap().for_each(|pt| push(d, e, pt));
                }
            }
            ("siv rewrap", true) => {
                for c in self.sct.chunks(BATCH_SIZE) {
                    fill(b, c);
                    self.siv.rewrap_batch(ad, b, d, e).unwrap();
                }
            }
            ("siv rewrap", false) => {
                for c in self.rct.chunks(BATCH_SIZE) {
                    // Open into a second batch, seal that: the keyless rewrap.
                    fill(b, c);
                    self.again.clear();
                    b.open(&self.raw, BatchAd::Same(&[ad])).unwrap().for_each(|pt| self.again.push(pt));
                    self.again.seal(&self.raw, BatchAd::Same(&[ad])).unwrap().for_each(|ct| push(d, e, ct));
                }
            }
            ("fpe encrypt", true) => {
                for c in self.cards.chunks(BATCH_SIZE) {
                    self.fpe.encrypt_batch(BatchTweaks::Fixed, c, d, e).unwrap();
                }
            }
            ("fpe encrypt", false) => text_batch(&self.ff1, &self.format, &self.cards, Direction::Encrypt, out),
            ("fpe decrypt", true) => {
                for c in self.fct.chunks(BATCH_SIZE) {
                    let c: Vec<&str> = c.iter().map(String::as_str).collect();
                    self.fpe.decrypt_batch(BatchTweaks::Fixed, &c, None, d, e).unwrap();
                }
            }
            ("fpe decrypt", false) => text_batch(&self.ff1, &self.format, &self.kct, Direction::Decrypt, out),
            ("fpe rewrap", true) => {
                for c in self.fct.chunks(BATCH_SIZE) {
                    let c: Vec<&str> = c.iter().map(String::as_str).collect();
                    self.fpe.rewrap_batch(BatchTweaks::Fixed, &c, None, d, e).unwrap();
                }
            }
            _ => {
                // Keyless rewrap: decrypt, then encrypt the plaintexts.
                let mut mid = Out::default();
                text_batch(&self.ff1, &self.format, &self.kct, Direction::Decrypt, &mut mid);
                let mid: Vec<String> = mid.values().map(|v| String::from_utf8(v.to_vec()).unwrap()).collect();
                text_batch(&self.ff1, &self.format, &mid, Direction::Encrypt, out);
            }
        }
    }
}

fn fill(b: &mut MessageBatch, values: &[impl AsRef<[u8]>]) {
    b.clear();
    values.iter().for_each(|v| b.push(v.as_ref()));
}

fn push(data: &mut Vec<u8>, ends: &mut Vec<usize>, v: &[u8]) {
    data.extend_from_slice(v);
    ends.push(data.len());
}

/// The keyless FPE batch: push, transform, append each value's text.
fn text_batch(ff1: &FF1, format: &TokenFormat, values: &[impl AsRef<str>], dir: Direction, out: &mut Out) {
    let mut tb = TextBatch::new(ff1, format).unwrap();
    for c in values.chunks(BATCH_SIZE) {
        tb.clear();
        c.iter().for_each(|v| tb.push(v.as_ref()).unwrap());
        tb.transform(dir, Tweaks::Same(b"")).unwrap();
        for i in 0..c.len() {
            tb.append_utf8(i, &mut out.data).unwrap();
            out.ends.push(out.data.len());
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);

    let mut ks = Keyset::new();
    ks.add_transform("siv", TransformParams::Siv(SivParams::default())).unwrap();
    let mut fp = FpeParams::new("0123456789");
    fp.passthrough = "-".into();
    ks.add_transform("cards", TransformParams::Fpe(fp)).unwrap();
    let plain: Vec<[u8; 32]> = (0..n).map(|i| core::array::from_fn(|j| (i * 31 + j * 7) as u8)).collect();
    let cards: Vec<String> =
        (0..n).map(|i| format!("{:04}-{:04}-{:04}-{:04}", i % 9973, i % 7919, i % 10000, i / 7)).collect();
    // The keyless side uses keys of the same sizes (the cost does not depend on their bytes).
    let mut bench = Bench {
        ad: b"bench",
        siv: ks.siv("siv").unwrap(),
        raw: AesSiv::new(&[7u8; 64]).unwrap(),
        fpe: ks.fpe("cards").unwrap(),
        ff1: FF1::new(&[7u8; 32], Alphabet::digits()).unwrap(),
        format: TokenFormat::new().passthrough("-"),
        plain: plain.iter().map(|v| &v[..]).collect(),
        sct: Vec::new(),
        rct: Vec::new(),
        cards: cards.iter().map(String::as_str).collect(),
        fct: Vec::new(),
        kct: Vec::new(),
        out: Out::default(),
        batch: MessageBatch::new(),
        again: MessageBatch::new(),
    };
    // The inputs of decrypt and rewrap: each side's own encryptions.
    for (case, keyset) in [("siv encrypt", true), ("siv encrypt", false), ("fpe encrypt", true), ("fpe encrypt", false)]
    {
        bench.out.clear();
        bench.run(case, keyset);
        let vals = bench.out.values().map(<[u8]>::to_vec);
        match (case, keyset) {
            ("siv encrypt", true) => bench.sct = vals.collect(),
            ("siv encrypt", false) => bench.rct = vals.collect(),
            (_, true) => bench.fct = vals.map(|v| String::from_utf8(v).unwrap()).collect(),
            _ => bench.kct = vals.map(|v| String::from_utf8(v).unwrap()).collect(),
        }
    }

    let start = std::time::Instant::now();
    let mut best = [(f64::MAX, f64::MAX); CASES.len()];
    for _ in 0..rounds {
        for (case, best) in CASES.iter().zip(best.iter_mut()) {
            for keyset in [true, false] {
                bench.out.clear();
                let t = cpu_ns(&start);
                bench.run(case, keyset);
                let ns = (cpu_ns(&start) - t) / n as f64;
                black_box(&bench.out);
                let b = if keyset { &mut best.0 } else { &mut best.1 };
                *b = b.min(ns);
            }
        }
    }
    println!("{n} values, best of {rounds} rounds, ns/value of CPU time");
    println!("{:12} {:>8} {:>8} {:>8}", "op", "keyset", "keyless", "ratio");
    for (name, (k, l)) in CASES.iter().zip(best) {
        println!("{name:12} {k:8.1} {l:8.1} {:8.3}", k / l);
    }
}
