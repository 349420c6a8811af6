//! Differential and error-contract tests of the
//! FPE batch paths at every CPU level against single-value calls.

use crate::Error;
use crate::cpu::{Level, detected, with_cap};
use crate::fpe::{FF1, FF3_1, Fpe, Tweaks};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 ^ (self.0 >> 29)
    }
}

const TW: [&[u8]; 4] = [
    b"\x01\x02\x03\x04\x05\x06\x07",
    b"\x09\x08\x07\x06\x05\x04\x03",
    b"\0\0\0\0\0\0\0",
    b"\xff\xfe\xfd\xfc\xfb\xfa\xf9",
];

fn levels() -> Vec<Level> {
    Level::ALL.into_iter().filter(|&l| l <= detected()).collect()
}

fn ciphers(radix: u32) -> Vec<(&'static str, Box<dyn Fpe>)> {
    let key = [0x2bu8; 16];
    vec![
        ("FF1", Box::new(FF1::with_radix(&key, radix).unwrap())),
        ("FF3-1", Box::new(FF3_1::with_radix(&key, radix).unwrap())),
    ]
}

/// Values: random numerals below radix; `extreme` also uses all-zero and all-(radix-1) values.
fn make(rng: &mut Rng, radix: u32, lens: &[usize]) -> (Vec<u16>, Vec<usize>) {
    let mut data = Vec::new();
    let mut ends = Vec::new();
    for (i, &l) in lens.iter().enumerate() {
        for _ in 0..l {
            let d = match i % 7 {
                0 => 0,
                1 => radix - 1,
                _ => (rng.next() % radix as u64) as u32,
            };
            data.push(d as u16);
        }
        ends.push(data.len());
    }
    (data, ends)
}

fn singles(c: &dyn Fpe, tw: Tweaks<'_>, data: &[u16], ends: &[usize], enc: bool) -> Vec<u16> {
    let mut out = data.to_vec();
    let mut s = 0;
    for (i, &e) in ends.iter().enumerate() {
        let r = if enc {
            c.encrypt_numerals(tw.get(i), &mut out[s..e])
        } else {
            c.decrypt_numerals(tw.get(i), &mut out[s..e])
        };
        r.unwrap();
        s = e;
    }
    out
}

const COUNTS: [usize; 22] = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 66, 127, 128, 129, 200];

/// (radix, length): moduli around 2^16, 2^30, 2^32, 2^52 and the kernels' limits.
fn shapes() -> Vec<(u32, usize)> {
    let mut v = vec![];
    for n in [6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 20, 21, 32, 56] {
        v.push((10, n));
    }
    for n in [30, 31, 100, 101, 102] {
        v.push(if n < 35 { (10, n) } else { (2, n) });
    }
    v.extend([(256, 4), (256, 5), (10, 10), (2, 31)]);
    for n in [20, 32, 33, 34, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 103, 104, 105, 106, 128, 192] {
        v.push((2, n));
    }
    for (r, n) in [
        (1023, 6),
        (1024, 6),
        (1025, 6),
        (32767, 4),
        (32768, 4),
        (32769, 4),
        (65535, 4),
        (65536, 4),
        (65536, 2),
        (65536, 3),
        (65536, 5),
        (65536, 6),
        (256, 13),
        (256, 14),
        (36, 8),
        (36, 12),
        (100, 7),
        (3, 40),
        (255, 8),
        (257, 8),
    ] {
        v.push((r, n));
    }
    v
}

/// Every batch (one tweak and per-value tweaks) equals single-value calls,
/// at every level, for the shapes above and counts around the group sizes;
/// single-value calls agree across levels; decrypt_batch inverts.
#[test]
fn batch_equals_singles_every_level() {
    let mut rng = Rng(0x1234_5678_9abc_def0);
    let lv = levels();
    let mut fails = Vec::new();
    for (radix, n) in shapes() {
        // Kernels are chosen when a cipher is built: build one per level, under its cap.
        let portable = with_cap(Level::Portable, || ciphers(radix));
        let per_level: Vec<_> = lv.iter().map(|&l| (l, with_cap(l, || ciphers(radix)))).collect();
        for (ci, (name, c)) in portable.iter().enumerate() {
            let (lo, hi) = c.len_range();
            if n < lo || n > hi {
                continue;
            }
            let counts: &[usize] = if n > 40 { &[1, 3, 4, 8, 9, 17, 64, 65] } else { &COUNTS };
            for &count in counts {
                let (data, ends) = make(&mut rng, radix, &vec![n; count]);
                let per: Vec<&[u8]> = (0..count).map(|i| TW[i % 4]).collect();
                for tw in [Tweaks::Same(TW[0]), Tweaks::PerValue(&per)] {
                    let want = with_cap(Level::Portable, || singles(&**c, tw, &data, &ends, true));
                    for (level, cs) in &per_level {
                        let c = &cs[ci].1;
                        with_cap(*level, || {
                            let what = format!(
                                "{name} radix {radix} n {n} count {count} {level} per {}",
                                matches!(tw, Tweaks::PerValue(_))
                            );
                            let one = singles(&**c, tw, &data, &ends, true);
                            if one != want {
                                fails.push(format!("single differs: {what}"));
                            }
                            let mut out = data.clone();
                            if let Err(e) = c.encrypt_batch(tw, &mut out, &ends) {
                                fails.push(format!("encrypt_batch error {e:?}: {what}"));
                                return;
                            }
                            if out != want {
                                let k = (0..count).find(|&i| out[i * n..(i + 1) * n] != want[i * n..(i + 1) * n]);
                                fails.push(format!("batch != singles (first value {k:?}): {what}"));
                            }
                            let mut back = want.clone();
                            if let Err(e) = c.decrypt_batch(tw, &mut back, &ends) {
                                fails.push(format!("decrypt_batch error {e:?}: {what}"));
                                return;
                            }
                            if back != data {
                                fails.push(format!("decrypt_batch != data: {what}"));
                            }
                        });
                    }
                }
            }
        }
    }
    assert!(
        fails.is_empty(),
        "{} failures:\n{}",
        fails.len(),
        fails.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

fn expect_index(r: Result<(), Error>, at: usize) -> Result<(), String> {
    match r {
        Err(Error::Batch { index, .. }) if index == at => Ok(()),
        other => Err(format!("want Batch index {at}, got {other:?}")),
    }
}

/// One bad numeral (radix, or 0xffff) at value `at` (first, middle or last
/// numeral), optionally a second one later, a short value, or a bad
/// per-value tweak: the error names `at` and the buffer is exactly as given,
/// at every level, both directions, counts around the group, tiny and slab sizes.
#[test]
fn error_contract_every_level() {
    let mut rng = Rng(0x0bad_cafe_f00d_0001);
    let mut fails = Vec::new();
    let shapes: [(u32, usize); 6] = [(10, 16), (10, 9), (10, 7), (36, 10), (65536, 4), (2, 40)];
    for &level in &levels() {
        with_cap(level, || {
            for (radix, n) in shapes {
                for (name, c) in ciphers(radix) {
                    let (lo, hi) = c.len_range();
                    if n < lo || n > hi {
                        continue;
                    }
                    let mut counts = vec![1usize, 2, 3, 4, 5, 8, 9, 63, 64, 65, 129];
                    if radix == 10 && n == 16 {
                        counts.push(4500); // three slabs of 2048 values
                    }
                    for count in counts {
                        let (data, ends) = make(&mut rng, radix, &vec![n; count]);
                        let mut ats: Vec<usize> = vec![0, count / 2, count - 1];
                        if count > 2049 {
                            ats.extend([2047, 2048, 2049, 4100]);
                        }
                        if count > 64 {
                            ats.extend([63, 64]);
                        }
                        let per: Vec<&[u8]> = (0..count).map(|i| TW[i % 4]).collect();
                        for at in ats {
                            for tw in [Tweaks::Same(TW[1]), Tweaks::PerValue(&per)] {
                                for enc in [true, false] {
                                    let run = |d: &mut [u16], tw: Tweaks<'_>, ends: &[usize]| {
                                        if enc { c.encrypt_batch(tw, d, ends) } else { c.decrypt_batch(tw, d, ends) }
                                    };
                                    let what = format!(
                                        "{name} {level} radix {radix} n {n} count {count} at {at} enc {enc} per {}",
                                        matches!(tw, Tweaks::PerValue(_))
                                    );
                                    for (k, pos) in [0, n / 2, n - 1].into_iter().enumerate() {
                                        if radix == 65536 {
                                            continue; // no numeral is out of range
                                        }
                                        let mut d = data.clone();
                                        d[at * n + pos] = if k == 1 { 0xffff } else { radix as u16 };
                                        if k == 2 && at + 1 < count {
                                            d[(count - 1) * n] = 0xffff;
                                        }
                                        let given = d.clone();
                                        if let Err(e) = expect_index(run(&mut d, tw, &ends), at) {
                                            fails.push(format!("bad numeral pos {pos}: {e}: {what}"));
                                        }
                                        if d != given {
                                            let k = (0..count)
                                                .find(|&i| d[i * n..(i + 1) * n] != given[i * n..(i + 1) * n]);
                                            fails.push(format!(
                                                "bad numeral pos {pos}: buffer changed (first value {k:?}): {what}"
                                            ));
                                        }
                                    }
                                    // A short value at `at` (lengths shift: build anew).
                                    if n > lo {
                                        let mut lens = vec![n; count];
                                        lens[at] = lo - 1;
                                        let (sd, se) = make(&mut rng, radix, &lens);
                                        let mut d = sd.clone();
                                        if let Err(e) = expect_index(run(&mut d, tw, &se), at) {
                                            fails.push(format!("short value: {e}: {what}"));
                                        }
                                        if d != sd {
                                            fails.push(format!("short value: buffer changed: {what}"));
                                        }
                                    }
                                    // A bad tweak at `at` (FF3-1 takes 7 bytes only).
                                    if name == "FF3-1" && matches!(tw, Tweaks::PerValue(_)) {
                                        let mut ts = per.clone();
                                        ts[at] = b"short";
                                        let mut d = data.clone();
                                        if let Err(e) = expect_index(run(&mut d, Tweaks::PerValue(&ts), &ends), at) {
                                            fails.push(format!("bad tweak: {e}: {what}"));
                                        }
                                        if d != data {
                                            fails.push(format!("bad tweak: buffer changed: {what}"));
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        });
    }
    assert!(
        fails.is_empty(),
        "{} failures:\n{}",
        fails.len(),
        fails.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// The batch kernels' quotient estimates are f64: under a non-default
/// MXCSR rounding mode (set by the host, e.g. fesetround in C or Python
/// code on the same thread) batches must still equal single values.
#[cfg(target_arch = "x86_64")]
#[test]
#[allow(unsafe_code)]
fn batch_under_mxcsr_rounding_modes() {
    let mut rng = Rng(0x5eed_0000_0000_0001);
    let mut fails = Vec::new();
    let shapes: [(u32, usize); 6] = [(10, 16), (10, 10), (2, 40), (65535, 4), (1000, 6), (2, 64)];
    let mut seen = Vec::new();
    for (radix, n) in shapes {
        for (ci, (name, c)) in ciphers(radix).into_iter().enumerate() {
            let (lo, hi) = c.len_range();
            if n < lo || n > hi {
                continue;
            }
            let (data, ends) = make(&mut rng, radix, &vec![n; 256]);
            let want = with_cap(Level::Portable, || singles(&*c, Tweaks::Same(TW[0]), &data, &ends, true));
            // Ciphers built under the default mode, each at its level.
            let prebuilt: Vec<_> = levels().into_iter().map(|l| (l, with_cap(l, || ciphers(radix)))).collect();
            for (rc, built_before) in [1u32, 2, 3].into_iter().flat_map(|rc| [(rc, true), (rc, false)]) {
                for &level in &levels() {
                    let mut old = 0u32;
                    // SAFETY: stmxcsr/ldmxcsr of this thread's SSE control word (restored below).
                    unsafe { core::arch::asm!("stmxcsr [{}]", in(reg) &mut old) };
                    let new = (old & !(3 << 13)) | (rc << 13);
                    // SAFETY: as above.
                    unsafe { core::arch::asm!("ldmxcsr [{}]", in(reg) &new) };
                    let third = core::hint::black_box(2.0f64) / core::hint::black_box(3.0f64);
                    seen.push((rc, third.to_bits()));
                    let mut out = data.clone();
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        let built = prebuilt.iter().find(|p| p.0 == level).map(|p| &p.1[ci].1);
                        with_cap(level, || match (built_before, built) {
                            (true, Some(c)) => c.encrypt_batch(Tweaks::Same(TW[0]), &mut out, &ends),
                            _ => ciphers(radix)[ci].1.encrypt_batch(Tweaks::Same(TW[0]), &mut out, &ends),
                        })
                    }));
                    // SAFETY: as above.
                    unsafe { core::arch::asm!("ldmxcsr [{}]", in(reg) &old) };
                    let r = r.map_err(|_| "panicked").map(|r| r.map_err(|e| e.to_string()));
                    if !matches!(r, Ok(Ok(()))) || out != want {
                        let k = (0..256).find(|&i| out[i * n..(i + 1) * n] != want[i * n..(i + 1) * n]);
                        fails.push(format!("{name} radix {radix} n {n} {level} rc {rc} built before the mode change {built_before}: {r:?}, first wrong value {k:?}"));
                    }
                }
            }
        }
    }
    let bits = |rc| seen.iter().find(|s| s.0 == rc).unwrap().1;
    assert_ne!(bits(1), bits(2), "the rounding mode took effect");
    assert!(fails.is_empty(), "{} failures:\n{}", fails.len(), fails.join("\n"));
}

/// Runs of different lengths in one batch (decimal 16, 10, 7 and 9 digits;
/// runs above and below the minimum run): results equal single values at
/// every level, and a bad numeral in any run names its value and leaves
/// the buffer as given.
#[test]
fn mixed_runs_every_level() {
    let mut rng = Rng(0x3141_5926_5358_9793);
    let mut fails = Vec::new();
    let mut lens = vec![16; 70];
    lens.extend([10; 5]);
    lens.extend([7; 2]);
    lens.extend([9; 65]);
    lens.extend([16; 3]);
    lens.extend([10; 130]);
    let (data, ends) = make(&mut rng, 10, &lens);
    let starts: Vec<usize> = core::iter::once(0).chain(ends.iter().copied()).collect();
    let per: Vec<&[u8]> = (0..lens.len()).map(|i| TW[i % 4]).collect();
    for &level in &levels() {
        with_cap(level, || {
            for (name, c) in ciphers(10) {
                for tw in [Tweaks::Same(TW[2]), Tweaks::PerValue(&per)] {
                    let want = singles(&*c, tw, &data, &ends, true);
                    let mut out = data.clone();
                    let r = c.encrypt_batch(tw, &mut out, &ends);
                    if r.is_err() || out != want {
                        fails.push(format!("{name} {level}: {r:?}, equal {}", out == want));
                    }
                    for at in [0, 69, 70, 74, 75, 76, 77, 141, 142, 144, 145, 200, 274] {
                        for enc in [true, false] {
                            let mut d = data.clone();
                            d[starts[at] + lens[at] / 2] = 10;
                            let given = d.clone();
                            let r = if enc {
                                c.encrypt_batch(tw, &mut d, &ends)
                            } else {
                                c.decrypt_batch(tw, &mut d, &ends)
                            };
                            if let Err(e) = expect_index(r, at) {
                                fails.push(format!("{name} {level} at {at} enc {enc}: {e}"));
                            }
                            if d != given {
                                fails.push(format!("{name} {level} at {at} enc {enc}: buffer changed"));
                            }
                        }
                    }
                }
            }
        });
    }
    assert!(
        fails.is_empty(),
        "{} failures:\n{}",
        fails.len(),
        fails.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Batches over several slabs (slab edges at 2048, 832 and 3648 values):
/// equal to single values at every level, both tweak modes.
#[test]
fn multi_slab_batches_every_level() {
    let mut rng = Rng(0x2718_2818_2845_9045);
    let mut fails = Vec::new();
    for (radix, n, count) in [(10u32, 16usize, 4500usize), (2, 40, 1700), (36, 9, 4000), (10, 7, 5000)] {
        let (data, ends) = make(&mut rng, radix, &vec![n; count]);
        let per: Vec<&[u8]> = (0..count).map(|i| TW[(i * 7) % 4]).collect();
        let reference = with_cap(Level::Portable, || ciphers(radix));
        for tw in [Tweaks::Same(TW[3]), Tweaks::PerValue(&per)] {
            let wants: Vec<Vec<u16>> = reference
                .iter()
                .map(|(_, c)| with_cap(Level::Portable, || singles(&**c, tw, &data, &ends, true)))
                .collect();
            for &level in &levels() {
                with_cap(level, || {
                    for ((name, c), want) in ciphers(radix).iter().zip(&wants) {
                        let mut out = data.clone();
                        let r = c.encrypt_batch(tw, &mut out, &ends);
                        if r.is_err() || &out != want {
                            let k = (0..count).find(|&i| out[i * n..(i + 1) * n] != want[i * n..(i + 1) * n]);
                            fails.push(format!("{name} {level} radix {radix} n {n}: {r:?}, first wrong value {k:?}"));
                        }
                        let r = c.decrypt_batch(tw, &mut out, &ends);
                        if r.is_err() || out != data {
                            fails.push(format!("{name} {level} radix {radix} n {n}: decrypt {r:?}"));
                        }
                    }
                });
            }
        }
    }
    assert!(fails.is_empty(), "{} failures:\n{}", fails.len(), fails.join("\n"));
}
