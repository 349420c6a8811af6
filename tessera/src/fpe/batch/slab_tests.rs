use super::*;
use crate::cpu::{Level, detected, with_cap};
use crate::fpe::{FF1, FF3_1, Fpe};

#[test]
fn slabs_are_whole_groups() {
    for (len, count) in [(0, 0), (16 * 5_000_000, 5_000_000), (10, 1), (8192 * 3, 3), (2, 100_000)] {
        let v = slab_values(len, count);
        assert!(v >= crate::fpe::batch::GROUP && v.is_multiple_of(crate::fpe::batch::GROUP), "{len} {count}");
    }
    assert_eq!(slab_values(16 * 1_000_000, 1_000_000), 2048);
}

/// Batches below [`MIN_RUN`] values (the one-value path, [`tiny`]) at
/// every CPU level: a good batch equals one value at a time (per-value
/// tweaks too) and decrypts back; a bad numeral, length, end or tweak
/// at any index names that index and leaves the buffer as given, the
/// values before it being undone.
#[test]
fn tiny_batches_keep_the_contract() {
    let key = [0x5au8; 16];
    // One 7-byte tweak per value, all different.
    let owned: Vec<[u8; 7]> = (0..MIN_RUN).map(|i| core::array::from_fn(|j| (i * 7 + j) as u8)).collect();
    let tweaks: Vec<&[u8]> = owned.iter().map(|t| &t[..]).collect();
    for level in Level::ALL.into_iter().filter(|&l| l <= detected()) {
        with_cap(level, || {
            for radix in [10u32, 36] {
                let ciphers: [(&str, Box<dyn Fpe>); 2] = [
                    ("FF1", Box::new(FF1::with_radix(&key, radix).unwrap())),
                    ("FF3-1", Box::new(FF3_1::with_radix(&key, radix).unwrap())),
                ];
                for (name, c) in &ciphers {
                    for count in 1..MIN_RUN {
                        tiny_case(&**c, &format!("{name} {level} radix {radix} count {count}"), radix, count, &tweaks);
                    }
                }
            }
        });
    }
}

fn tiny_case(c: &dyn Fpe, what: &str, radix: u32, count: usize, tweaks: &[&[u8]]) {
    // Values of 16 then 7 numerals (two runs when count > 1).
    let lens: Vec<usize> = (0..count).map(|i| if i == 0 { 16 } else { 7 }).collect();
    let ends: Vec<usize> = lens.iter().scan(0, |e, &l| Some(*e + l).inspect(|&x| *e = x)).collect();
    let data: Vec<u16> = (0..ends[count - 1]).map(|i| (i * 7 % radix as usize) as u16).collect();
    for tw in [Tweaks::Same(tweaks[0]), Tweaks::PerValue(&tweaks[..count])] {
        let mut out = data.clone();
        c.encrypt_batch(tw, &mut out, &ends).unwrap();
        let mut start = 0;
        for (i, &end) in ends.iter().enumerate() {
            let mut one = data[start..end].to_vec();
            c.encrypt_numerals(tw.get(i), &mut one).unwrap();
            assert_eq!(one, out[start..end], "{what}: value {i}");
            start = end;
        }
        let mut back = out.clone();
        c.decrypt_batch(tw, &mut back, &ends).unwrap();
        assert_eq!(back, data, "{what}: decrypt");
        for at in 0..count {
            let pos = ends[at] - 1;
            for (input, enc) in [(&data, true), (&out, false)] {
                let run = |d: &mut Vec<u16>, tw: Tweaks<'_>, ends: &[usize]| match enc {
                    true => c.encrypt_batch(tw, d, ends),
                    false => c.decrypt_batch(tw, d, ends),
                };
                let expect = |r: Result<(), Error>, d: &[u16], how: &str| {
                    assert!(matches!(r, Err(Error::Batch { index, .. }) if index == at), "{what} {how} at {at}: {r:?}");
                    assert!(d == &input[..], "{what} {how} at {at}: buffer changed");
                };
                let mut d = input.clone();
                d[pos] = radix as u16;
                // A second bad value after the first.
                if at + 1 < count {
                    d[ends[count - 1] - 1] = 0xffff;
                }
                let given = d.clone();
                let r = run(&mut d, tw, &ends);
                assert!(d == given, "{what} bad numeral at {at}: buffer changed");
                d[pos] = input[pos];
                if at + 1 < count {
                    d[ends[count - 1] - 1] = input[ends[count - 1] - 1];
                }
                expect(r, &d, "bad numeral");
                // A value too short (1 numeral: below every minimum), or an end past the data.
                let mut short = ends.clone();
                short[at] = if at == 0 { 1 } else { short[at - 1] + 1 };
                let mut d = input.clone();
                expect(run(&mut d, tw, &short), &d, "short value");
                let mut past = ends.clone();
                past[at] = input.len() + 1;
                let mut d = input.clone();
                expect(run(&mut d, tw, &past), &d, "end past the data");
                // FF3-1 takes 7-byte tweaks only (FF1 any up to 2^32 - 1 bytes).
                let refused = c.encrypt_numerals(b"short", &mut input[..ends[0]].to_vec()).is_err();
                if let (Tweaks::Same(_), true, 0) = (tw, refused, at) {
                    let mut d = input.clone();
                    expect(run(&mut d, Tweaks::Same(b"short"), &ends), &d, "bad shared tweak");
                }
                if let (Tweaks::PerValue(ts), true) = (tw, refused) {
                    let mut ts = ts.to_vec();
                    ts[at] = b"short";
                    let mut d = input.clone();
                    expect(run(&mut d, Tweaks::PerValue(&ts), &ends), &d, "bad tweak");
                }
            }
        }
    }
}
