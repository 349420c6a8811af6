//! Properties of FF1, FF3-1 and FF3: round trips, batch == one at a time,
//! outputs stay in the alphabet, domain rules, and zero heap allocations.

use crate::common;

use proptest::prelude::*;
use tessera::fpe::{Alphabet, FF1, FF3, FF3_1, Fpe, TokenFormat, Tweaks};
use tessera::{Direction, Error};

/// A cipher of each kind over `radix`, with the tweak length it needs.
fn ciphers(key: &[u8], radix: u32) -> Vec<(Box<dyn Fpe>, usize)> {
    vec![
        (Box::new(FF1::with_radix(key, radix).unwrap()), 11),
        (Box::new(FF3_1::with_radix(key, radix).unwrap()), 7),
        (Box::new(FF3::with_radix(key, radix).unwrap()), 8),
    ]
}

fn batch_case() -> impl Strategy<Value = (Vec<u8>, u32, Vec<(usize, u64)>, u64)> {
    (
        prop_oneof![Just(16usize), Just(24), Just(32)],
        prop_oneof![Just(10u32), Just(2), Just(26), Just(62), 2..=300u32, 60000..=65536u32],
        proptest::collection::vec((0usize..1000, any::<u64>()), 1..150),
        any::<u64>(),
    )
        .prop_flat_map(|(klen, radix, items, seed)| {
            (proptest::collection::vec(any::<u8>(), klen), Just(radix), Just(items), Just(seed))
        })
}

/// Deterministic filler for numerals and tweaks.
fn stream(mut s: u64) -> impl FnMut() -> u64 {
    move || {
        s = s.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z ^ (z >> 31)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// Mixed lengths (native and big paths), per-value tweaks and a shared
    /// tweak: batch results equal one-at-a-time results, outputs are
    /// numerals of the radix, and decryption restores the input.
    #[test]
    fn batch_equals_single_and_round_trips((key, radix, items, seed) in batch_case()) {
        for (c, tlen) in ciphers(&key, radix) {
            let (min, max) = c.len_range();
            let max = max.min(min + 80);
            let mut next = stream(seed);
            let mut data = Vec::new();
            let mut ends = Vec::new();
            let mut tweaks: Vec<Vec<u8>> = Vec::new();
            for &(len, _) in &items {
                let len = min + len % (max - min + 1);
                data.extend((0..len).map(|_| (next() % radix as u64) as u16));
                ends.push(data.len());
                tweaks.push((0..tlen).map(|_| next() as u8).collect());
            }
            let tweak_refs: Vec<&[u8]> = tweaks.iter().map(|t| &t[..]).collect();
            for per_value in [true, false] {
                let tw = if per_value { Tweaks::PerValue(&tweak_refs) } else { Tweaks::Same(&tweaks[0]) };
                let mut batch = data.clone();
                c.encrypt_batch(tw, &mut batch, &ends).unwrap();
                prop_assert!(batch.iter().all(|&d| (d as u32) < radix));
                let mut start = 0;
                for (i, &end) in ends.iter().enumerate() {
                    let mut one = data[start..end].to_vec();
                    c.encrypt_numerals(tw_get(&tw, i), &mut one).unwrap();
                    prop_assert_eq!(&one[..], &batch[start..end], "value {}", i);
                    start = end;
                }
                c.decrypt_batch(tw, &mut batch, &ends).unwrap();
                prop_assert_eq!(&batch, &data);
            }
        }
    }

    #[test]
    fn text_round_trips_in_any_alphabet(chars in proptest::collection::btree_set(any::<char>(), 2..300), key: [u8; 16], seed: u64) {
        let alphabet: String = chars.iter().collect();
        let a = Alphabet::new(&alphabet).unwrap();
        let set: Vec<char> = a.chars().to_vec();
        for (c, tweak) in [
            (Box::new(FF1::new(&key, a.clone()).unwrap()) as Box<dyn Fpe>, &b"tw"[..]),
            (Box::new(FF3_1::new(&key, a.clone()).unwrap()), &[1u8, 2, 3, 4, 5, 6, 7][..]),
        ] {
            let (min, max) = c.len_range();
            let mut next = stream(seed);
            let len = min + (next() as usize) % (max.min(min + 50) - min + 1);
            let text: String = (0..len).map(|_| set[(next() % set.len() as u64) as usize]).collect();
            let ct = c.encrypt(tweak, &text).unwrap();
            prop_assert_eq!(ct.chars().count(), len);
            prop_assert!(ct.chars().all(|ch| a.numeral(ch).is_some()));
            prop_assert_eq!(c.decrypt(tweak, &ct).unwrap(), text);
        }
    }
}

/// An AES-NI cipher, the same cipher on the portable path, and a tweak.
type FastAndPortable = (Box<dyn Fpe>, Box<dyn Fpe>, &'static [u8]);

fn tw_get<'a>(t: &Tweaks<'a>, i: usize) -> &'a [u8] {
    match *t {
        Tweaks::Same(x) => x,
        Tweaks::PerValue(v) => v[i],
    }
}

proptest! {
    /// The AES-NI single-value path and the portable `aes`-crate path agree.
    #[test]
    fn aes_ni_path_equals_portable_path(key in proptest::collection::vec(any::<u8>(), 32), klen in 0usize..3, radix in 2u32..=100, seed: u64) {
        let key = &key[..[16, 24, 32][klen]];
        let pairs: [FastAndPortable; 3] = [
            (Box::new(FF1::with_radix(key, radix).unwrap()), Box::new(FF1::with_radix(key, radix).unwrap().without_aes_ni()), b"tweak"),
            (Box::new(FF3_1::with_radix(key, radix).unwrap()), Box::new(FF3_1::with_radix(key, radix).unwrap().without_aes_ni()), &[1, 2, 3, 4, 5, 6, 7]),
            (Box::new(FF3::with_radix(key, radix).unwrap()), Box::new(FF3::with_radix(key, radix).unwrap().without_aes_ni()), &[9; 8]),
        ];
        for (fast, portable, tweak) in pairs {
            let (min, max) = fast.len_range();
            let mut next = stream(seed);
            for len in [min, (min + max) / 2, max.min(120)] {
                let x: Vec<u16> = (0..len).map(|_| (next() % radix as u64) as u16).collect();
                let (mut a, mut b) = (x.clone(), x.clone());
                fast.encrypt_numerals(tweak, &mut a).unwrap();
                portable.encrypt_numerals(tweak, &mut b).unwrap();
                prop_assert_eq!(&a, &b);
                portable.decrypt_numerals(tweak, &mut b).unwrap();
                prop_assert_eq!(&b, &x);
                fast.decrypt_numerals(tweak, &mut a).unwrap();
                prop_assert_eq!(&a, &x);
            }
        }
    }
}

#[test]
fn domain_rules() {
    let key = [1u8; 16];
    // radix^len >= 1,000,000.
    let ff1 = FF1::with_radix(&key, 10).unwrap();
    assert_eq!(ff1.len_range().0, 6);
    assert!(matches!(ff1.encrypt_numerals(b"", &mut [1; 5]), Err(Error::Length { len: 5, min: 6, .. })));
    assert_eq!(FF1::with_radix(&key, 2).unwrap().len_range().0, 20);
    assert_eq!(FF1::with_radix(&key, 65536).unwrap().len_range().0, 2);
    // FF1 handles at least 256 numerals of any radix.
    for radix in [2, 10, 255, 256, 257, 1626, 65535, 65536] {
        assert!(FF1::with_radix(&key, radix).unwrap().len_range().1 >= 256, "radix {radix}");
    }
    // FF3-1: length <= 2 * floor(log_radix(2^96)).
    let ff3 = FF3_1::with_radix(&key, 10).unwrap();
    assert_eq!(ff3.len_range(), (6, 56));
    assert!(matches!(ff3.encrypt_numerals(&[0; 7], &mut [1; 57]), Err(Error::Length { len: 57, max: 56, .. })));
    assert_eq!(FF3_1::with_radix(&key, 2).unwrap().len_range(), (20, 192));
    assert_eq!(FF3_1::with_radix(&key, 65536).unwrap().len_range(), (2, 12));
    // Tweak sizes.
    assert!(matches!(ff3.encrypt_numerals(&[0; 8], &mut [1; 10]), Err(Error::TweakLength { got: 8, .. })));
    let legacy = FF3::with_radix(&key, 10).unwrap();
    assert!(matches!(legacy.encrypt_numerals(&[0; 7], &mut [1; 10]), Err(Error::TweakLength { got: 7, .. })));
    // Radix and key.
    assert!(matches!(FF1::with_radix(&key, 1), Err(Error::Radix(1))));
    assert!(matches!(FF1::with_radix(&key, 65537), Err(Error::Radix(65537))));
    assert!(matches!(FF1::with_radix(&[0; 15], 10), Err(Error::KeyLength { got: 15, .. })));
    // Numerals outside the radix, characters outside the alphabet.
    assert!(matches!(
        ff1.encrypt_numerals(b"", &mut [1, 2, 3, 10, 5, 6]),
        Err(Error::NumeralOutOfRange { numeral: 10, position: 3, radix: 10 })
    ));
    let ff1 = FF1::new(&key, Alphabet::digits()).unwrap();
    assert!(matches!(ff1.encrypt(b"", "12345a7"), Err(Error::NotInAlphabet { ch: 'a', position: 5 })));
    // A bad batch names the value and changes nothing.
    let mut data = vec![1u16; 20];
    let before = data.clone();
    let err = ff1.encrypt_batch(Tweaks::Same(b""), &mut data, &[7, 14, 17, 20]).unwrap_err();
    assert!(matches!(err, Error::Batch { index: 2, .. }), "{err}");
    assert_eq!(data, before);
}

#[test]
fn zero_allocations_on_caller_buffers() {
    let key = [9u8; 32];
    let tweak7 = [1u8, 2, 3, 4, 5, 6, 7];
    for (name, c, tweak) in [
        ("ff1", Box::new(FF1::new(&key, Alphabet::digits()).unwrap()) as Box<dyn Fpe>, &b"tweak"[..]),
        ("ff1 long tweak", Box::new(FF1::new(&key, Alphabet::digits()).unwrap()), &[7u8; 40][..]),
        ("ff3-1", Box::new(FF3_1::new(&key, Alphabet::digits()).unwrap()), &tweak7[..]),
    ] {
        let mut short = [1u16, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6];
        let mut long = [3u16; 48];
        let mut out = String::with_capacity(64);
        let mut data = vec![5u16; 16 * 300];
        let ends: Vec<usize> = (1..=300).map(|i| i * 16).collect();
        let card = TokenFormat::new().passthrough("-").keep_prefix(6).keep_suffix(4);
        // The first FF1 call per (length, tweak length) fills a cache; it must not allocate either.
        let ((), n) = common::count_allocs(|| {
            c.encrypt_numerals(tweak, &mut short).unwrap();
            c.decrypt_numerals(tweak, &mut short).unwrap();
            if c.len_range().1 >= 48 {
                c.encrypt_numerals(tweak, &mut long).unwrap();
            }
            c.encrypt_into(tweak, "4111111111111111", &mut out).unwrap();
            c.decrypt_into(tweak, "4111111111111111", &mut out).unwrap();
            c.encrypt_batch(Tweaks::Same(tweak), &mut data, &ends).unwrap();
            c.decrypt_batch(Tweaks::Same(tweak), &mut data, &ends).unwrap();
            card.transform_into(Direction::Encrypt, &*c, tweak, "4111-1111-1111-1111", &mut out).unwrap();
        });
        assert_eq!(n, 0, "{name}");
    }
    // The big-number path (FF1 beyond 2^96) allocates nothing either.
    let c = FF1::with_radix(&key, 36).unwrap();
    let mut x = [7u16; 256];
    let ((), n) = common::count_allocs(|| c.encrypt_numerals(b"t", &mut x).unwrap());
    assert_eq!(n, 0);
}

/// A cipher on this CPU's kernels, the same on the portable ones, and its tweak length.
type FastPortableTweak = (Box<dyn Fpe>, Box<dyn Fpe>, usize);

/// FF1, FF3-1 and FF3 batches on this CPU's vector kernels (radix 10 with
/// halves of 3 to 10 digits, and other radixes) equal batches on the
/// portable kernel and one-at-a-time results, and decrypt back, over groups
/// with ragged tails, with one tweak for all and one per value.
#[test]
fn batch_kernels_equal_portable_and_single() {
    let mut next = stream(42);
    for (radix, lens) in [(10u32, 6..=20usize), (36, 4..=12), (1000, 2..=6)] {
        let key: Vec<u8> = (0..16).map(|_| next() as u8).collect();
        let pairs: [FastPortableTweak; 3] = [
            (
                Box::new(FF1::with_radix(&key, radix).unwrap()),
                Box::new(FF1::with_radix(&key, radix).unwrap().without_aes_ni()),
                3,
            ),
            (
                Box::new(FF3_1::with_radix(&key, radix).unwrap()),
                Box::new(FF3_1::with_radix(&key, radix).unwrap().without_aes_ni()),
                7,
            ),
            (
                Box::new(FF3::with_radix(&key, radix).unwrap()),
                Box::new(FF3::with_radix(&key, radix).unwrap().without_aes_ni()),
                8,
            ),
        ];
        for (fast, portable, tlen) in &pairs {
            let (min, max) = fast.len_range();
            for len in lens.clone().filter(|l| (min..=max).contains(l)) {
                for count in [1usize, 7, 64, 203] {
                    let data: Vec<u16> = (0..count * len).map(|_| (next() % radix as u64) as u16).collect();
                    let ends: Vec<usize> = (1..=count).map(|i| i * len).collect();
                    let owned: Vec<Vec<u8>> = (0..count).map(|_| (0..*tlen).map(|_| next() as u8).collect()).collect();
                    let refs: Vec<&[u8]> = owned.iter().map(|t| &t[..]).collect();
                    for tweaks in [Tweaks::Same(&owned[0]), Tweaks::PerValue(&refs)] {
                        let (mut a, mut b) = (data.clone(), data.clone());
                        fast.encrypt_batch(tweaks, &mut a, &ends).unwrap();
                        portable.encrypt_batch(tweaks, &mut b, &ends).unwrap();
                        assert_eq!(a, b, "radix {radix} len {len} count {count}");
                        for i in [0, count / 2, count - 1] {
                            let mut one = data[i * len..(i + 1) * len].to_vec();
                            portable.encrypt_numerals(tw_get(&tweaks, i), &mut one).unwrap();
                            assert_eq!(one, a[i * len..(i + 1) * len], "radix {radix} len {len} value {i}");
                        }
                        fast.decrypt_batch(tweaks, &mut a, &ends).unwrap();
                        assert_eq!(a, data, "radix {radix} len {len} count {count}");
                    }
                }
            }
        }
    }
}
