//! FF1 and FF3-1 single-value, text (`encrypt_into`) and batch cost in CPU
//! time (best of 5), beside ten dependent AES blocks through the `aes`
//! crate: a quick check that, unlike wall-clock benchmarks, holds up on a
//! busy machine. `... fpe_cputime VALUES ff1:10:16[:batch|:text]` times one shape.
//!
//! `cargo run --release -p tessera --example fpe_cputime [VALUES]` (CPU time comes from
//! /proc/thread-self/schedstat, whose resolution can be coarse: keep VALUES large).
//! `... fpe_cputime VALUES ff1:10:16:pervalue` times the batch API with a
//! tweak per value (the per-round path, not the fused kernels).
//! `... fpe_cputime VALUES ff3-1:10:16:cached` times the batch API on one batch of
//! 4096 values (128 KiB of numerals at 16 digits) encrypted over and over, about
//! VALUES values in all: the cost without main memory's, beside `:batch`'s one
//! pass over VALUES values.
//! `... fpe_cputime VALUES paired` times issue 16's rows in 9 interleaved
//! rounds, each row's sample beside its floor's sample of the same round, and
//! prints per row the median cost and the median and range of the per-round
//! ratios (the VM's speed drifts between blocks of samples; a ratio within a
//! round does not). Batches run in one call over VALUES values (numerals
//! from main memory) and as one batch of 4096 values encrypted over and
//! over (128 KiB of numerals, in cache: the cost without main memory's).
//! `... fpe_cputime VALUES kernel` times the fused rounds kernel alone on
//! parsed halves beside the whole batch call and the AES floor (same rounds).
//! `... fpe_cputime VALUES memory` times, the same way, the parts of the
//! 16-digit batch paths (parse + format alone, the ends check with the
//! checked parse and format, the whole calls), each in main memory and in
//! cache.
//! `... fpe_cputime VALUES sizes` prints FF1 16-digit batch cost against batch size
//! (1, 4, ..., 65,536; about VALUES values per timing) beside the AES floor, as
//! `scripts/plot-ff1-batch` reads it.
//! `... fpe_cputime VALUES tiny` times batches of 1 to 5 and 8 values against one
//! `encrypt_numerals` call per value (FF1 and FF3-1, 16 digits), interleaved.
//!
//! The batch floor is AES at the level tessera's kernels run at
//! (`TESSERA_CPU` caps it; see `support/aes_floor.rs`): the `aes` crate's
//! `encrypt_blocks` at `avx512` (VAES-512 here) and `portable`, AES-NI at
//! `aesni` and `avx2`, VAES-256 at `vaes256`. Every mode prints which.

use std::hint::black_box;

#[path = "support/aes_floor.rs"]
mod aes_floor;
use aes_floor::Floor;
use tessera::fpe::{Alphabet, FF1, FF3_1, Fpe, Tweaks};

/// This thread's CPU time in seconds (Linux schedstat), or wall time elsewhere.
fn cpu_seconds(start: &std::time::Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or_else(|| start.elapsed().as_secs_f64(), |ns| ns * 1e-9)
}

fn best_of_5(n: usize, mut f: impl FnMut()) -> f64 {
    let start = std::time::Instant::now();
    (0..5)
        .map(|_| {
            let t = cpu_seconds(&start);
            f();
            cpu_seconds(&start) - t
        })
        .fold(f64::MAX, f64::min)
        * 1e9
        / n as f64
}

/// `ff1:RADIX:LEN` or `ff3-1:RADIX:LEN`, with `:batch` for the batch API
/// or `:text` for `encrypt_into` on text (FF1 radix 10 only): the cipher
/// and shape to time alone.
fn parse_shape(s: &str) -> Option<(String, u32, usize, String)> {
    let mut it = s.split(':');
    let (name, radix, len) = (it.next()?, it.next()?.parse().ok()?, it.next()?.parse().ok()?);
    Some((name.to_uppercase(), radix, len, it.next().unwrap_or("single").to_string()))
}

/// FF1 over the decimal digits, `n` values of `len` digits one at a time
/// as text through `encrypt_into` (into one reused `String`); ns per value.
fn text(len: usize, n: usize) -> f64 {
    let ff1 = FF1::new(&[7u8; 16], Alphabet::digits()).unwrap();
    let texts: Vec<String> =
        (0..n).map(|i| (0..len).map(|k| char::from(b'0' + ((i * 7 + k * 3) % 10) as u8)).collect()).collect();
    let mut out = String::with_capacity(64);
    best_of_5(n, || {
        for t in &texts {
            ff1.encrypt_into(b"", t, &mut out).unwrap();
            black_box(&out);
        }
    })
}

/// Encrypts `n` values of one shape one at a time; returns ns per value.
fn single(name: &str, radix: u32, len: usize, n: usize) -> f64 {
    shape(name, radix, len, n, false, false)
}

/// Encrypts `n` values of one shape, one at a time or through the batch API
/// (in one pass, or `cached`: one batch of at most 4096 values, repeated).
fn shape(name: &str, radix: u32, len: usize, n: usize, batch: bool, cached: bool) -> f64 {
    let key = [7u8; 16];
    let c: Box<dyn Fpe> = match name {
        "FF1" => Box::new(FF1::with_radix(&key, radix).unwrap()),
        _ => Box::new(FF3_1::with_radix(&key, radix).unwrap()),
    };
    let tweak: &[u8] = if name == "FF1" { b"" } else { &[1, 2, 3, 4, 5, 6, 7] };
    if batch || cached {
        return least_of_5(batch_row(&*c, tweak, (radix, len), n, if cached { 4096 } else { n }));
    }
    let mut data: Vec<u16> = (0..n * len).map(|i| (i * 7 % radix as usize) as u16).collect();
    best_of_5(n, || {
        for x in data.chunks_exact_mut(len) {
            c.encrypt_numerals(tweak, x).unwrap();
        }
    })
}

/// Encrypts `n` values of one shape through the batch API in one pass,
/// each value with its own tweak; returns ns per value.
fn per_value(name: &str, radix: u32, len: usize, n: usize) -> f64 {
    let key = [7u8; 16];
    let c: Box<dyn Fpe> = match name {
        "FF1" => Box::new(FF1::with_radix(&key, radix).unwrap()),
        _ => Box::new(FF3_1::with_radix(&key, radix).unwrap()),
    };
    let owned: Vec<[u8; 7]> = (0..n).map(|i| [i as u8, (i >> 8) as u8, (i >> 16) as u8, 4, 5, 6, 7]).collect();
    let tweaks: Vec<&[u8]> = owned.iter().map(|t| &t[..]).collect();
    let mut data: Vec<u16> = (0..n * len).map(|i| (i * 7 % radix as usize) as u16).collect();
    let ends: Vec<usize> = (1..=n).map(|i| i * len).collect();
    best_of_5(n, || c.encrypt_batch(Tweaks::PerValue(&tweaks), &mut data, &ends).unwrap())
}

/// Ten blocks per value through the floor's AES in calls of 64 blocks, as
/// the batch path makes them (sixteen times over: one pass is shorter than
/// schedstat's resolution).
fn throughput_floor(floor: &Floor, n: usize) -> f64 {
    let mut blocks = [[7u8; 16]; 64];
    best_of_5(16 * n, || {
        for _ in 0..(16 * n * 10).div_ceil(64) {
            floor.encrypt(black_box(&mut blocks));
        }
    })
}

/// The floor `Floor::at_level` picks, announced on one line.
fn announce() -> Floor {
    let floor = Floor::at_level();
    let (at, cpu) = (tessera::cpu::level(), tessera::cpu::detected());
    println!("# kernels at {at} (CPU {cpu}); batch floor: {}", floor.name());
    floor
}

/// `size ns/value floor` lines for FF1 radix 10, 16 digits, batches of 4^k values.
fn sizes(n: usize) {
    let key = [7u8; 16];
    let ff1 = FF1::with_radix(&key, 10).unwrap();
    println!("# batch floor: {}", Floor::at_level().name());
    println!("# batch_size ns_per_value aes_floor_ns (FF1 radix 10, 16 digits)");
    for k in 0..=8 {
        let size = 1usize << (2 * k);
        let ns = least_of_5(batch_row(&ff1, b"", (10, 16), n, size));
        let floor = throughput_floor(&Floor::at_level(), n);
        println!("{size} {ns:.1} {floor:.1}");
    }
}

/// Batches of 1 to 5 and 8 values (FF1 and FF3-1, radix 10, 16 digits) against
/// one `encrypt_numerals` call per value, interleaved, about `n` values a
/// sample: below the batch path's minimum run the batch should cost no more
/// than its values one at a time (`... fpe_cputime VALUES tiny`).
fn tiny(n: usize) {
    const SIZES: [usize; 6] = [1, 2, 3, 4, 5, 8];
    const LABELS: [[&str; 7]; 2] = [
        [
            "FF1 one value (encrypt_numerals)",
            "FF1 batch of 1",
            "FF1 batch of 2",
            "FF1 batch of 3",
            "FF1 batch of 4",
            "FF1 batch of 5",
            "FF1 batch of 8",
        ],
        [
            "FF3-1 one value (encrypt_numerals)",
            "FF3-1 batch of 1",
            "FF3-1 batch of 2",
            "FF3-1 batch of 3",
            "FF3-1 batch of 4",
            "FF3-1 batch of 5",
            "FF3-1 batch of 8",
        ],
    ];
    let key = [7u8; 16];
    let (ff1, ff3) = (FF1::with_radix(&key, 10).unwrap(), FF3_1::with_radix(&key, 10).unwrap());
    let ciphers: [(&dyn Fpe, &[u8]); 2] = [(&ff1, b""), (&ff3, &[1, 2, 3, 4, 5, 6, 7])];
    let mut rows: Vec<Row<'_>> = Vec::new();
    for ((c, tweak), labels) in ciphers.into_iter().zip(LABELS) {
        let mut x: Vec<u16> = (0..16).map(|i| (i * 7 % 10) as u16).collect();
        let at = rows.len();
        let single = move || sample(n, || (0..n).for_each(|_| c.encrypt_numerals(tweak, black_box(&mut x)).unwrap()));
        rows.push((labels[0], None, Box::new(single)));
        for (size, label) in SIZES.into_iter().zip(&labels[1..]) {
            rows.push((label, Some((at, 1.0)), batch_row(c, tweak, (10, 16), n, size)));
        }
    }
    report(rows);
}

/// CPU time of one run of `f` over `count` values, in ns per value.
fn sample(count: usize, f: impl FnOnce()) -> f64 {
    let start = std::time::Instant::now();
    let t = cpu_seconds(&start);
    f();
    (cpu_seconds(&start) - t) * 1e9 / count as f64
}

/// One row of [`paired`]: its name, which floor it is against (index into
/// the rows) times a factor, and one sample.
type Row<'a> = (&'static str, Option<(usize, f64)>, Box<dyn FnMut() -> f64 + 'a>);

/// About `n` values of `len` numerals below `radix` through the batch API,
/// as one batch of `size` values (at most `n`) encrypted `n / size` times
/// (rounded up): each call takes one sample, in ns per value.
fn batch_row<'a>(
    c: &'a dyn Fpe,
    tweak: &'a [u8],
    (radix, len): (u32, usize),
    n: usize,
    size: usize,
) -> Box<dyn FnMut() -> f64 + 'a> {
    let size = size.clamp(1, n.max(1));
    let mut data: Vec<u16> = (0..size * len).map(|i| (i * 7 % radix as usize) as u16).collect();
    let ends: Vec<usize> = (1..=size).map(|i| i * len).collect();
    let reps = n.div_ceil(size);
    Box::new(move || {
        sample(reps * size, || {
            for _ in 0..reps {
                c.encrypt_batch(Tweaks::Same(tweak), &mut data, &ends).unwrap();
            }
        })
    })
}

/// The least of five samples.
fn least_of_5(mut sample: impl FnMut() -> f64) -> f64 {
    (0..5).map(|_| sample()).fold(f64::MAX, f64::min)
}

/// The floor row of [`paired`], [`kernel`] and [`memory`]: ten blocks per
/// value through the level's AES (see [`announce`]) in calls of 64 blocks,
/// over 4·`n` values.
fn blocks_floor(n: usize) -> Row<'static> {
    let (floor, mut blocks) = (announce(), [[7u8; 16]; 64]);
    (
        "floor: 10 AES-128 blocks per value, 64 per call",
        None,
        Box::new(move || {
            sample(4 * n, || {
                for _ in 0..(4 * n * 10).div_ceil(64) {
                    floor.encrypt(black_box(&mut blocks));
                }
            })
        }),
    )
}

/// Issue 16's FPE rows, interleaved with their floors (see the module doc).
fn paired(n: usize) {
    let key = [7u8; 16];
    let aes = aes_floor::Single::new();
    let (ff1, ff3) = (FF1::with_radix(&key, 10).unwrap(), FF3_1::with_radix(&key, 10).unwrap());
    let ff3_tweak: &[u8] = &[1, 2, 3, 4, 5, 6, 7];
    let (few, aes) = ((n / 5).max(1), &aes);
    let mut numerals: Vec<u16> = (0..few * 16).map(|i| (i * 7 % 10) as u16).collect();
    let texts: Vec<String> =
        (0..few).map(|i| (0..16).map(|k| char::from(b'0' + ((i * 7 + k * 3) % 10) as u8)).collect()).collect();
    let (digits, mut out) = (FF1::new(&key, Alphabet::digits()).unwrap(), String::with_capacity(64));
    let rows: Vec<Row<'_>> = vec![
        (
            "floor: 10 dependent AES-128 blocks",
            None,
            Box::new(move || {
                sample(few, || {
                    let mut b = [0u8; 16];
                    for _ in 0..few * 10 {
                        aes.encrypt(black_box(&mut b));
                    }
                })
            }),
        ),
        blocks_floor(n),
        (
            "FF1 16 digits, one value (numerals)",
            Some((0, 1.0)),
            Box::new(|| {
                sample(few, || numerals.chunks_exact_mut(16).for_each(|x| ff1.encrypt_numerals(b"", x).unwrap()))
            }),
        ),
        (
            "FF1 16 digits, one value (text, encrypt_into)",
            Some((0, 1.0)),
            Box::new(move || {
                sample(few, || {
                    for t in &texts {
                        digits.encrypt_into(b"", t, &mut out).unwrap();
                        black_box(&out);
                    }
                })
            }),
        ),
        ("FF1 16 digits, batch in one call (main memory)", Some((1, 1.0)), batch_row(&ff1, b"", (10, 16), n, n)),
        (
            "FF1 16 digits, one batch of 4096 repeated (in cache)",
            Some((1, 1.0)),
            batch_row(&ff1, b"", (10, 16), n, 4096),
        ),
        (
            "FF3-1 16 digits, batch in one call (main memory)",
            Some((1, 0.8)),
            batch_row(&ff3, ff3_tweak, (10, 16), n, n),
        ),
        (
            "FF3-1 16 digits, one batch of 4096 repeated (in cache)",
            Some((1, 0.8)),
            batch_row(&ff3, ff3_tweak, (10, 16), n, 4096),
        ),
    ];
    report(rows);
}

/// Samples every row in 9 interleaved rounds and prints each row's median,
/// and for a row against a floor the median and range of its per-round ratios.
fn report(mut rows: Vec<Row<'_>>) {
    const ROUNDS: usize = 9;
    let samples: Vec<Vec<f64>> = {
        let mut s = vec![Vec::with_capacity(ROUNDS); rows.len()];
        for _ in 0..ROUNDS {
            for (row, (_, _, f)) in s.iter_mut().zip(rows.iter_mut()) {
                row.push(f());
            }
        }
        s
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (i, (name, against, _)) in rows.iter().enumerate() {
        let ns = median(samples[i].clone());
        let Some((floor, factor)) = against else {
            println!("{name}: {ns:.1} ns (median of {ROUNDS})");
            continue;
        };
        let ratios: Vec<f64> = samples[i].iter().zip(&samples[*floor]).map(|(s, f)| s / (f * factor)).collect();
        let (lo, hi) = ratios.iter().fold((f64::MAX, 0f64), |(lo, hi), &r| (lo.min(r), hi.max(r)));
        println!("{name}: {ns:.1} ns, {:.2}x floor (median of {ROUNDS} rounds; {lo:.2}-{hi:.2})", median(ratios));
    }
}

/// The fused rounds kernel alone (halves already parsed, 4096 values in
/// cache, repeated) beside the whole batch call on the same number of
/// values and the AES floor: what the kernel costs against parsing,
/// formatting and the check pass (`... fpe_cputime VALUES kernel`).
fn kernel(n: usize) {
    let key = [7u8; 16];
    let (ff1, ff3) = (FF1::with_radix(&key, 10).unwrap(), FF3_1::with_radix(&key, 10).unwrap());
    let reps = n.div_ceil(4096);
    let halves = |ff3: bool| {
        let (mut a, mut b): (Vec<u64>, Vec<u64>) =
            (0..4096u64).map(|i| (i * 7_654_321 % 100_000_000, i * 1_234_567 % 100_000_000)).unzip();
        Box::new(move || {
            sample(reps * 4096, || {
                for _ in 0..reps {
                    assert!(tessera::fpe::bench::fused_rounds(&key, ff3, &mut a, &mut b), "no fused kernel");
                }
            })
        }) as Box<dyn FnMut() -> f64>
    };
    report(vec![
        blocks_floor(n),
        ("FF1 16 digits, rounds kernel alone (in cache)", Some((0, 1.0)), halves(false)),
        (
            "FF1 16 digits, one batch of 4096 repeated (in cache)",
            Some((0, 1.0)),
            batch_row(&ff1, b"", (10, 16), n, 4096),
        ),
        ("FF3-1 16 digits, rounds kernel alone (in cache)", Some((0, 0.8)), halves(true)),
        (
            "FF3-1 16 digits, one batch of 4096 repeated (in cache)",
            Some((0, 0.8)),
            batch_row(&ff3, &[1, 2, 3, 4, 5, 6, 7], (10, 16), n, 4096),
        ),
    ]);
}

/// The parts of the 16-digit batch paths (radix 10) in main memory
/// (one pass over `n` values) and in cache (4096 values over and over),
/// interleaved beside the AES floor: the decimal parse and format alone,
/// the check with them as the batch path does it (the ends, then the
/// numerals in the AVX-512 or AVX2 decimal parse; `tessera::fpe::bench`
/// hooks), and the whole calls.
fn memory(n: usize) {
    use tessera::fpe::bench;
    let key = [7u8; 16];
    let ff1 = FF1::with_radix(&key, 10).unwrap();
    let ff3 = FF3_1::with_radix(&key, 10).unwrap();
    let part = |size: usize, work: fn(&mut [u16], &[usize])| -> Box<dyn FnMut() -> f64> {
        let size = size.min(n);
        let mut data: Vec<u16> = (0..size * 16).map(|i| (i * 7 % 10) as u16).collect();
        let ends: Vec<usize> = (1..=size).map(|i| i * 16).collect();
        let reps = n.div_ceil(size);
        Box::new(move || sample(reps * size, || (0..reps).for_each(|_| work(black_box(&mut data), &ends))))
    };
    let convert: fn(&mut [u16], &[usize]) = |d, _| assert!(bench::parse_format(d, 16));
    let fused: fn(&mut [u16], &[usize]) = |d, e| assert!(bench::check_parse_format(d, e, 16, false));
    let ff3_tweak: &[u8] = &[1, 2, 3, 4, 5, 6, 7];
    let rows: Vec<Row<'_>> = vec![
        blocks_floor(n),
        ("parse + format alone, one pass (main memory)", Some((0, 1.0)), part(n, convert)),
        ("parse + format alone, 4096 repeated (in cache)", Some((0, 1.0)), part(4096, convert)),
        ("FF3 order: ends check, checked parse, format (main memory)", Some((0, 1.0)), part(n, fused)),
        ("FF3 order: ends check, checked parse, format (in cache)", Some((0, 1.0)), part(4096, fused)),
        ("FF1 16 digits, batch in one call (main memory)", Some((0, 1.0)), batch_row(&ff1, b"", (10, 16), n, n)),
        (
            "FF1 16 digits, one batch of 4096 repeated (in cache)",
            Some((0, 1.0)),
            batch_row(&ff1, b"", (10, 16), n, 4096),
        ),
        (
            "FF3-1 16 digits, batch in one call (main memory)",
            Some((0, 0.8)),
            batch_row(&ff3, ff3_tweak, (10, 16), n, n),
        ),
        (
            "FF3-1 16 digits, one batch of 4096 repeated (in cache)",
            Some((0, 0.8)),
            batch_row(&ff3, ff3_tweak, (10, 16), n, 4096),
        ),
    ];
    report(rows);
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    match std::env::args().nth(2).as_deref() {
        Some("sizes") => return sizes(n),
        Some("paired") => return paired(n),
        Some("kernel") => return kernel(n),
        Some("memory") => return memory(n),
        Some("tiny") => return tiny(n),
        _ => {}
    }
    // With a shape (e.g. `ff1:62:24`), time that shape alone: handy under callgrind.
    if let Some((name, radix, len, how)) = std::env::args().nth(2).as_deref().and_then(parse_shape) {
        let ns = match how.as_str() {
            "text" => text(len, n),
            "pervalue" => per_value(&name, radix, len, n),
            _ => shape(&name, radix, len, n, how == "batch", how == "cached"),
        };
        println!("{name} radix {radix}, {len} numerals: {how} {ns:.0} ns");
        return;
    }
    let key = [7u8; 16];
    let aes = aes_floor::Single::new();
    let floor = best_of_5(n, || {
        let mut b = [0u8; 16];
        for _ in 0..n * 10 {
            aes.encrypt(black_box(&mut b));
        }
    });
    println!("floor: 10 dependent AES-128 blocks: {floor:.1} ns");
    let throughput = throughput_floor(&announce(), n);
    println!("floor: 10 AES-128 blocks per value, 64 per call: {throughput:.1} ns");
    let ciphers: [(&str, Box<dyn Fpe>, &[u8]); 2] = [
        ("FF1", Box::new(FF1::with_radix(&key, 10).unwrap()), b""),
        ("FF3-1", Box::new(FF3_1::with_radix(&key, 10).unwrap()), &[1, 2, 3, 4, 5, 6, 7]),
    ];
    for (name, c, tweak) in ciphers {
        for len in [10usize, 16] {
            let mut data: Vec<u16> = (0..n * len).map(|i| (i * 7 % 10) as u16).collect();
            let ends: Vec<usize> = (1..=n).map(|i| i * len).collect();
            let single = best_of_5(n, || {
                for x in data.chunks_exact_mut(len) {
                    c.encrypt_numerals(tweak, x).unwrap();
                }
            });
            let batch = best_of_5(n, || c.encrypt_batch(Tweaks::Same(tweak), &mut data, &ends).unwrap());
            println!(
                "{name} radix 10, {len} digits: single {single:.0} ns ({:.2}x floor), batch {batch:.1} ns/value ({:.1}x single, {:.2}x batch floor)",
                single / floor,
                single / batch,
                // FF3-1 enciphers eight blocks per value, FF1 ten.
                batch / (throughput * if name == "FF1" { 1.0 } else { 0.8 })
            );
        }
    }
    let t = text(16, n.min(200_000));
    println!("FF1 radix 10, 16 digits: text through encrypt_into {t:.0} ns ({:.2}x floor)", t / floor);
    // Shapes beyond 64-bit halves: the u128 path (radix 10 x 40, radix 62 x 24)
    // and FF1's mixed-radix big path (radix 10 x 200).
    let wide: [(&str, u32, usize); 5] =
        [("FF1", 10, 40), ("FF1", 62, 24), ("FF1", 10, 200), ("FF3-1", 10, 40), ("FF3-1", 62, 24)];
    for (name, radix, len) in wide {
        let ns = single(name, radix, len, (n / 10).max(1));
        println!("{name} radix {radix}, {len} numerals: single {ns:.0} ns");
    }
}
