//! Keyset batch calls against the keyless batch API on the same values, in
//! CPU time: AES-SIV (`SivTransform::{encrypt,decrypt,rewrap}_batch`
//! against `MessageBatch::seal`/`open` with the same key, outputs copied to
//! one flat buffer either way) and FPE (`FpeTransform::{encrypt,decrypt,
//! rewrap}_batch` against `TextBatch`), 32-byte values and 16-digit cards.
//!
//! `cargo run --release -p tessera --example keyset_cputime [VALUES] [ROUNDS] [ONLY]`
//! (ONLY: run just the cases whose name starts with it, e.g. `"siv enc"`, for a profiler).
//!
//! Each round times every pair back to back (keyset first in even rounds,
//! keyless first in odd ones, so neither always runs on a cache the other
//! warmed); each figure is the best round, so both sides of a ratio see
//! the same load.
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
struct Bench {
    ad: &'static [u8],
    siv: tessera::keyset::SivTransform,
    raw: AesSiv,
    fpe: tessera::keyset::FpeTransform,
    /// The same transformation with version 2 promoted: rewrap moves version 1's tokens to it.
    rotated: tessera::keyset::FpeTransform,
    ff1: FF1,
    format: TokenFormat,
    plain: Vec<Vec<u8>>,
    /// Ciphertexts: keyset (prefixed) and keyless.
    sct: Vec<Vec<u8>>,
    rct: Vec<Vec<u8>>,
    cards: Vec<String>,
    /// Card tokens: keyset and keyless.
    fct: Vec<String>,
    kct: Vec<String>,
    out: Out,
    batch: MessageBatch,
    again: MessageBatch,
}

const CASES: [&str; 6] = ["siv encrypt", "siv decrypt", "siv rewrap", "fpe encrypt", "fpe decrypt", "fpe rewrap"];

impl Bench {
    /// One case, through the keyset or the keyless API, `BATCH_SIZE` values per call.
    fn run(&mut self, case: &str, keyset: bool) {
        if case.starts_with("siv") { self.siv_case(case, keyset) } else { self.fpe_case(case, keyset) }
    }

    /// AES-SIV: each side decrypts and rewraps its own ciphertexts.
    fn siv_case(&mut self, case: &str, keyset: bool) {
        let inputs = match (case, keyset) {
            ("siv encrypt", _) => &self.plain,
            (_, true) => &self.sct,
            _ => &self.rct,
        };
        let (ad, siv, raw, b, again) = (self.ad, &self.siv, &self.raw, &mut self.batch, &mut self.again);
        let (d, e) = (&mut self.out.data, &mut self.out.ends);
        let same: &[&[u8]] = &[ad];
        for c in inputs.chunks(BATCH_SIZE) {
            b.clear();
            c.iter().for_each(|v| b.push(v));
            match (case, keyset) {
                ("siv encrypt", true) => siv.encrypt_batch(ad, b, d, e).unwrap(),
                ("siv decrypt", true) => siv.decrypt_batch(ad, b, d, e).unwrap(),
                (_, true) => siv.rewrap_batch(ad, b, d, e).unwrap(),
                ("siv encrypt", false) => b.seal(raw, BatchAd::Same(same)).unwrap().for_each(|ct| push(d, e, ct)),
                ("siv decrypt", false) => b.open(raw, BatchAd::Same(same)).unwrap().for_each(|pt| push(d, e, pt)),
                _ => {
                    // Open into a second batch, seal that: the keyless rewrap.
                    again.clear();
                    b.open(raw, BatchAd::Same(same)).unwrap().for_each(|pt| again.push(pt));
                    again.seal(raw, BatchAd::Same(same)).unwrap().for_each(|ct| push(d, e, ct));
                }
            }
        }
    }

    /// FF1 on card numbers: each side decrypts and rewraps its own tokens.
    fn fpe_case(&mut self, case: &str, keyset: bool) {
        let inputs = match (case, keyset) {
            ("fpe encrypt", _) => &self.cards,
            (_, true) => &self.fct,
            _ => &self.kct,
        };
        let (ff1, format, out) = (&self.ff1, &self.format, &mut self.out);
        match (case, keyset) {
            ("fpe encrypt", false) => text_batch(ff1, format, inputs, Direction::Encrypt, out),
            ("fpe decrypt", false) => text_batch(ff1, format, inputs, Direction::Decrypt, out),
            (_, false) => {
                // Keyless rewrap: decrypt, then encrypt the plaintexts.
                let mut mid = Out::default();
                text_batch(ff1, format, inputs, Direction::Decrypt, &mut mid);
                let mid: Vec<&str> = mid.values().map(|v| std::str::from_utf8(v).unwrap()).collect();
                text_batch(ff1, format, &mid, Direction::Encrypt, out);
            }
            _ => {
                let (fpe, rotated, d, e) = (&self.fpe, &self.rotated, &mut out.data, &mut out.ends);
                for c in inputs.chunks(BATCH_SIZE) {
                    let c: Vec<&str> = c.iter().map(String::as_str).collect();
                    match case {
                        "fpe encrypt" => fpe.encrypt_batch(BatchTweaks::Fixed, &c, d, e),
                        "fpe decrypt" => fpe.decrypt_batch(BatchTweaks::Fixed, &c, None, d, e),
                        _ => rotated.rewrap_batch(BatchTweaks::Fixed, &c, Some(1), d, e),
                    }
                    .unwrap();
                }
            }
        }
    }
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
    let only = args.next().unwrap_or_default();

    let mut ks = Keyset::new();
    ks.add_transform("siv", TransformParams::Siv(SivParams::default())).unwrap();
    let mut fp = FpeParams::new("0123456789");
    fp.passthrough = "-".into();
    ks.add_transform("cards", TransformParams::Fpe(fp)).unwrap();
    let plain: Vec<Vec<u8>> = (0..n).map(|i| (0..32).map(|j| (i * 31 + j * 7) as u8).collect()).collect();
    let cards: Vec<String> =
        (0..n).map(|i| format!("{:04}-{:04}-{:04}-{:04}", i % 9973, i % 7919, i % 10000, i / 7)).collect();
    // The keyless side uses keys of the same sizes (the cost does not depend on their bytes).
    let mut bench = Bench {
        ad: b"bench",
        siv: ks.siv("siv").unwrap(),
        raw: AesSiv::new(&[7u8; 64]).unwrap(),
        fpe: ks.fpe("cards").unwrap(),
        rotated: {
            let mut ks = ks.clone();
            let v2 = ks.add_key("cards").unwrap();
            ks.promote("cards", v2).unwrap();
            ks.fpe("cards").unwrap()
        },
        ff1: FF1::new(&[7u8; 32], Alphabet::digits()).unwrap(),
        format: TokenFormat::new().passthrough("-"),
        plain,
        sct: Vec::new(),
        rct: Vec::new(),
        cards,
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
    for round in 0..rounds {
        for (case, best) in CASES.iter().zip(best.iter_mut()).filter(|(c, _)| c.starts_with(&only)) {
            for keyset in [round % 2 == 0, round % 2 == 1] {
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
    for (name, (k, l)) in CASES.iter().zip(best).filter(|(c, _)| c.starts_with(&only)) {
        println!("{name:12} {k:8.1} {l:8.1} {:8.3}", k / l);
    }
}
