//! Batches of many slabs (the batch API checks and processes about 32K
//! numerals at a time): one bad value anywhere leaves the whole batch as it
//! was and is named exactly, and good batches equal one value at a time.

use proptest::prelude::*;
use tessera::Error;
use tessera::fpe::{FF1, FF3_1, Fpe, Tweaks};

/// A batch of `count` radix-10 values of 12-20 digits (runs of one length
/// mixed with changes of length), its ends and one tweak per value.
fn batch(count: usize, seed: u64) -> (Vec<u16>, Vec<usize>, Vec<[u8; 7]>) {
    let mut s = seed;
    let mut next = move || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        s >> 33
    };
    let (mut data, mut ends, mut tweaks) = (Vec::new(), Vec::new(), Vec::new());
    let mut len = 16;
    for _ in 0..count {
        if next() % 300 == 0 {
            len = 12 + (next() % 9) as usize;
        }
        data.extend((0..len).map(|_| (next() % 10) as u16));
        ends.push(data.len());
        tweaks.push(core::array::from_fn(|_| next() as u8));
    }
    (data, ends, tweaks)
}

/// How a value is made bad.
#[derive(Clone, Copy, Debug)]
enum Flaw {
    /// A numeral at the radix.
    Numeral,
    /// Its end moved before its start.
    EndBack,
    /// A per-value tweak of the wrong length (FF3-1 only).
    Tweak,
}

fn ciphers() -> [Box<dyn Fpe>; 2] {
    let key = [0x5au8; 16];
    [Box::new(FF1::with_radix(&key, 10).unwrap()), Box::new(FF3_1::with_radix(&key, 10).unwrap())]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn bad_value_in_a_many_slab_batch_changes_nothing(
        count in 4000usize..9000,
        at_frac in 0.0f64..1.0,
        seed: u64,
        flaw in prop_oneof![Just(Flaw::Numeral), Just(Flaw::EndBack), Just(Flaw::Tweak)],
        per_value: bool,
        decrypt: bool,
    ) {
        let at = ((count as f64 * at_frac) as usize).min(count - 1);
        for (k, c) in ciphers().iter().enumerate() {
            let (mut data, mut ends, tweaks) = batch(count, seed);
            let mut refs: Vec<&[u8]> = tweaks.iter().map(|t| &t[..]).collect();
            let start = if at == 0 { 0 } else { ends[at - 1] };
            match flaw {
                Flaw::Numeral => data[start + (seed as usize % (ends[at] - start))] = 10,
                Flaw::EndBack if at == 0 => ends[0] = 1,
                Flaw::EndBack => ends[at] = ends[at - 1] - 1,
                Flaw::Tweak if k == 1 && per_value => refs[at] = &tweaks[at][..6],
                Flaw::Tweak => continue,
            }
            let tw = if per_value { Tweaks::PerValue(&refs) } else { Tweaks::Same(&tweaks[0]) };
            let before = data.clone();
            let err = if decrypt { c.decrypt_batch(tw, &mut data, &ends) } else { c.encrypt_batch(tw, &mut data, &ends) };
            prop_assert!(matches!(err, Err(Error::Batch { index, .. }) if index == at), "{:?} {:?}", flaw, err);
            prop_assert!(data == before, "data changed ({:?} at {})", flaw, at);
        }
    }

    #[test]
    fn many_slab_batches_equal_one_at_a_time(count in 3000usize..7000, seed: u64, per_value: bool) {
        for c in ciphers() {
            let (data, ends, tweaks) = batch(count, seed);
            let refs: Vec<&[u8]> = tweaks.iter().map(|t| &t[..]).collect();
            let tw = if per_value { Tweaks::PerValue(&refs) } else { Tweaks::Same(&tweaks[0]) };
            let mut out = data.clone();
            c.encrypt_batch(tw, &mut out, &ends).unwrap();
            for (i, &end) in ends.iter().enumerate().step_by(97) {
                let start_i = if i == 0 { 0 } else { ends[i - 1] };
                let mut one = data[start_i..end].to_vec();
                c.encrypt_numerals(tw_of(&tw, i), &mut one).unwrap();
                prop_assert_eq!(&one[..], &out[start_i..end], "value {}", i);
            }
            c.decrypt_batch(tw, &mut out, &ends).unwrap();
            prop_assert!(out == data);
        }
    }
}

fn tw_of<'a>(tw: &Tweaks<'a>, i: usize) -> &'a [u8] {
    match *tw {
        Tweaks::Same(t) => t,
        Tweaks::PerValue(ts) => ts[i],
    }
}
