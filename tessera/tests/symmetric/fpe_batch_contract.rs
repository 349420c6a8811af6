//! The FPE batch error contract under adversarial input, at whatever
//! kernel level this CPU (or `TESSERA_CPU`) gives: good batches equal one
//! value at a time and decrypt back; any bad numeral, end or tweak leaves
//! the caller's buffer exactly as given and names the first bad value.
//! Radices and lengths put the moduli at the kernels' bounds (2^30, 2^32),
//! counts at group (64), fused-chunk (8, 16) and slab edges.

use tessera::Error;
use tessera::fpe::{FF1, FF3_1, Fpe, Tweaks};

fn rng(s: &mut u64) -> u64 {
    *s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *s >> 17
}

fn ciphers(radix: u32) -> Vec<(&'static str, Box<dyn Fpe>)> {
    let key = [0x3cu8; 16];
    vec![
        ("FF1", Box::new(FF1::with_radix(&key, radix).unwrap())),
        ("FF3-1", Box::new(FF3_1::with_radix(&key, radix).unwrap())),
    ]
}

fn tweak_of<'a>(tw: &Tweaks<'a>, i: usize) -> &'a [u8] {
    match *tw {
        Tweaks::Same(t) => t,
        Tweaks::PerValue(ts) => ts[i],
    }
}

/// Good batches equal one value at a time and decrypt back; a bad numeral
/// (radix, radix + 1, 0xffff) anywhere (first/last value, group and slab
/// edges, first/last numeral, two bad values) leaves the batch as given and
/// names the first bad value. Radices around the limb / vector moduli
/// bounds (m = radix^u near 2^30, 2^32), counts around the group of 64 and
/// the fused kernels' 8 / 16 values.
#[test]
fn batch_contract_every_radix_and_edge() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let radices = [2u32, 3, 10, 36, 1000, 1024, 1025, 32768, 32769, 65535, 65536];
    let lengths = [2usize, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 19, 20, 24, 31, 32, 56, 60, 61, 62, 64];
    let counts = [1usize, 4, 7, 8, 9, 15, 16, 17, 24, 63, 64, 65, 129];
    let mut checked = 0;
    for radix in radices {
        for (name, c) in ciphers(radix) {
            for &n in &lengths {
                let probe: Vec<u16> = vec![0; n];
                if c.encrypt_numerals(b"1234567", &mut probe.clone()).is_err() {
                    continue;
                }
                for &count in &counts {
                    let data: Vec<u16> = (0..n * count).map(|_| (rng(&mut seed) % radix as u64) as u16).collect();
                    let ends: Vec<usize> = (1..=count).map(|i| i * n).collect();
                    let tweaks: Vec<[u8; 7]> =
                        (0..count).map(|_| core::array::from_fn(|_| rng(&mut seed) as u8)).collect();
                    let refs: Vec<&[u8]> = tweaks.iter().map(|t| &t[..]).collect();
                    for tw in [Tweaks::Same(&tweaks[0][..]), Tweaks::PerValue(&refs)] {
                        let mut out = data.clone();
                        c.encrypt_batch(tw, &mut out, &ends).unwrap();
                        for i in 0..count {
                            let mut one = data[i * n..(i + 1) * n].to_vec();
                            c.encrypt_numerals(tweak_of(&tw, i), &mut one).unwrap();
                            assert_eq!(
                                one,
                                out[i * n..(i + 1) * n],
                                "{name} radix {radix} n {n} count {count} value {i}"
                            );
                        }
                        let mut back = out.clone();
                        c.decrypt_batch(tw, &mut back, &ends).unwrap();
                        assert_eq!(back, data, "{name} radix {radix} n {n} count {count}: decrypt");
                        let bads = [radix, radix + 1, 0xffff].into_iter().filter(|&b| b >= radix && b <= 0xffff);
                        for bad in bads {
                            for at in [0, count / 2, count - 1, 63.min(count - 1), 64.min(count - 1)] {
                                for pos in [0, n - 1] {
                                    for (input, dir) in [(&data, true), (&out, false)] {
                                        let mut d = input.clone();
                                        d[at * n + pos] = bad as u16;
                                        // A second bad value after the first, when there is room.
                                        if at + 1 < count {
                                            d[(count - 1) * n] = bad as u16;
                                        }
                                        let before = d.clone();
                                        let r = if dir {
                                            c.encrypt_batch(tw, &mut d, &ends)
                                        } else {
                                            c.decrypt_batch(tw, &mut d, &ends)
                                        };
                                        let what = format!(
                                            "{name} radix {radix} n {n} count {count} bad {bad} at {at}:{pos} enc {dir}"
                                        );
                                        assert!(
                                            matches!(r, Err(Error::Batch { index, .. }) if index == at),
                                            "{what}: {r:?}"
                                        );
                                        assert!(d == before, "{what}: buffer changed");
                                        checked += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000);
}

/// Many slabs (32K numerals each) for a decimal and a non-decimal radix, a
/// bad numeral at each slab edge and in the last group of a slab: the
/// earlier slabs are undone exactly.
#[test]
fn batch_contract_slab_edges() {
    let mut seed = 7u64;
    for radix in [10u32, 1000] {
        for (name, c) in ciphers(radix) {
            let n: usize = if radix == 10 { 16 } else { 6 };
            let count = 3 * (32 * 1024 / n) + 77;
            let per_slab = (32 * 1024 / n).next_multiple_of(64);
            let data: Vec<u16> = (0..n * count).map(|_| (rng(&mut seed) % radix as u64) as u16).collect();
            let ends: Vec<usize> = (1..=count).map(|i| i * n).collect();
            let tweaks: Vec<[u8; 7]> = (0..count).map(|_| core::array::from_fn(|_| rng(&mut seed) as u8)).collect();
            let refs: Vec<&[u8]> = tweaks.iter().map(|t| &t[..]).collect();
            for tw in [Tweaks::Same(&tweaks[0][..]), Tweaks::PerValue(&refs)] {
                for at in [per_slab - 1, per_slab, per_slab + 1, 2 * per_slab - 3, 2 * per_slab, count - 1] {
                    for bad in [radix as u16, 0xffff] {
                        let mut d = data.clone();
                        d[at * n + n / 2] = bad;
                        let r = c.encrypt_batch(tw, &mut d, &ends);
                        assert!(
                            matches!(r, Err(Error::Batch { index, .. }) if index == at),
                            "{name} {radix} at {at}: {r:?}"
                        );
                        assert!(
                            d[..at * n] == data[..at * n] && d[at * n + n..] == data[at * n + n..],
                            "{name} {radix} at {at}"
                        );
                    }
                }
            }
        }
    }
}

/// Mixed lengths in short and long runs (one value at a time and the
/// batch plan, partial groups) over several slabs: a bad numeral at i with
/// a later flaw (end moved back, short tweak, second bad numeral) in the
/// same or a later slab names i and changes nothing.
#[test]
fn batch_contract_mixed_runs_two_flaws() {
    let mut seed = 0xabcdefu64;
    for radix in [10u32, 36] {
        for (name, c) in ciphers(radix) {
            for trial in 0..24 {
                let (mut data, mut ends, mut tweaks) = (Vec::new(), Vec::new(), Vec::<[u8; 7]>::new());
                while ends.len() < 9000 {
                    let len = 6 + (rng(&mut seed) % 7) as usize;
                    let run = 1 + (rng(&mut seed) % 70) as usize;
                    for _ in 0..run {
                        data.extend((0..len).map(|_| (rng(&mut seed) % radix as u64) as u16));
                        ends.push(data.len());
                        tweaks.push(core::array::from_fn(|_| rng(&mut seed) as u8));
                    }
                }
                let count = ends.len();
                let mut refs: Vec<&[u8]> = tweaks.iter().map(|t| &t[..]).collect();
                let i = (rng(&mut seed) as usize) % (count - 2);
                let j = i + 1 + (rng(&mut seed) as usize) % (count - i - 1).min(if trial % 2 == 0 { 50 } else { 9000 });
                let start = |k: usize| if k == 0 { 0 } else { ends[k - 1] };
                let pos = start(i) + (rng(&mut seed) as usize) % (ends[i] - start(i));
                data[pos] = if trial % 3 == 0 { 0xffff } else { radix as u16 };
                match trial % 3 {
                    0 => ends[j] = ends[j - 1] - 1,
                    1 if name == "FF3-1" => refs[j] = &tweaks[j][..6],
                    _ => data[start(j)] = radix as u16,
                }
                for per_value in [false, true] {
                    let tw = if per_value { Tweaks::PerValue(&refs) } else { Tweaks::Same(&tweaks[0][..]) };
                    for enc in [true, false] {
                        let mut d = data.clone();
                        let r =
                            if enc { c.encrypt_batch(tw, &mut d, &ends) } else { c.decrypt_batch(tw, &mut d, &ends) };
                        let what =
                            format!("{name} radix {radix} trial {trial} i {i} j {j} per_value {per_value} enc {enc}");
                        assert!(matches!(r, Err(Error::Batch { index, .. }) if index == i), "{what}: {r:?}");
                        assert!(d == data, "{what}: buffer changed");
                    }
                }
            }
        }
    }
}
