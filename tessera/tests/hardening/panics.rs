//! Hardening: no public function of FPE, AES-SIV, the AEAD modes and CMAC
//! panics, whatever it is given. Every call returns `Ok` (and then
//! round-trips) or a typed error. (OpenPGP: `hardening_panics_openpgp.rs`.)
//!
//! - FPE: FF1, FF3-1 and FF3 built from arbitrary keys and alphabets
//!   (0, 1, few or many characters, duplicates, non-ASCII) and bare radixes;
//!   text and numerals of any length with tweaks of any length; batches
//!   mixing valid and invalid values with broken `ends` and tweak counts;
//!   `TokenFormat` with arbitrary passthrough characters and kept counts.
//! - AES-SIV: every open API on arbitrary bytes, output buffers of any size,
//!   any number of associated-data components (past the limit of 126);
//!   batches with arbitrary `ends` and associated-data shapes.
//! - OCB/EAX/GCM: keys, nonces and messages of any length (shorter than
//!   the tag too). CMAC: keys of any length.

use crate::common;

use common::{bytes, config};
use proptest::collection::vec;
use proptest::prelude::*;
use tessera::aead::{Aad, Aead, AeadInPlace, Mode, Nonce};
use tessera::cmac::Cmac;
use tessera::fpe::{Alphabet, FF1, FF3, FF3_1, Fpe, TokenFormat, Tweaks};
use tessera::siv::{AesSiv, BatchAd};
use tessera::{Direction, Error};

fn key() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![6 => prop_oneof![Just(16usize), Just(24), Just(32)], 1 => 0usize..70]
        .prop_flat_map(|n| vec(any::<u8>(), n))
}

// -------------------------------------------------------------------- FPE

/// Alphabet candidates: empty, one character, digits with repeats, any
/// characters (non-ASCII, surrogate-free), and valid sets of any size.
fn alphabet_chars() -> impl Strategy<Value = Vec<char>> {
    prop_oneof![
        vec(any::<char>(), 0..3),
        vec(prop::char::range('0', '9'), 2..14),
        vec(any::<char>(), 2..40),
        prop::collection::btree_set(any::<char>(), 2..400).prop_map(|s| s.into_iter().collect()),
        prop::collection::btree_set(prop::char::range('a', 'z'), 2..27).prop_map(|s| s.into_iter().collect()),
        Just("0123456789".chars().collect()),
    ]
}

/// Text over `chars`, sometimes with a foreign character.
fn text_over(chars: Vec<char>) -> impl Strategy<Value = String> {
    let pick = chars.clone();
    vec((any::<prop::sample::Index>(), 0u8..40, any::<char>()), 0..70).prop_map(move |v| {
        v.into_iter()
            .map(|(i, foreign, c)| if foreign == 0 || pick.is_empty() { c } else { pick[i.index(pick.len())] })
            .collect()
    })
}

fn tweak() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![Just(7usize), Just(8), 0usize..40].prop_flat_map(|n| vec(any::<u8>(), n))
}

type Built = Result<Box<dyn Fpe>, Error>;

fn ciphers(key: &[u8], alphabet: Option<Alphabet>, radix: u32) -> Vec<(&'static str, Built)> {
    fn boxed<C: Fpe + 'static>(r: Result<C, Error>) -> Built {
        r.map(|c| Box::new(c) as Box<dyn Fpe>)
    }
    match alphabet {
        Some(a) => vec![
            ("FF1", boxed(FF1::new(key, a.clone()))),
            ("FF3-1", boxed(FF3_1::new(key, a.clone()))),
            ("FF3", boxed(FF3::new(key, a))),
        ],
        None => vec![
            ("FF1", boxed(FF1::with_radix(key, radix))),
            ("FF3-1", boxed(FF3_1::with_radix(key, radix))),
            ("FF3", boxed(FF3::with_radix(key, radix))),
        ],
    }
}

fn construction_error(e: &Error) -> bool {
    matches!(e, Error::KeyLength { .. } | Error::Radix(_) | Error::Alphabet(_))
}

fn value_error(e: &Error) -> bool {
    matches!(
        e,
        Error::Length { .. }
            | Error::NotInAlphabet { .. }
            | Error::NumeralOutOfRange { .. }
            | Error::TweakLength { .. }
            | Error::PassthroughInAlphabet { .. }
    )
}

fn batch_shape() -> impl Strategy<Value = (Vec<usize>, u8, u8)> {
    // Value lengths, a corruption of `ends` (0: none) and of the tweak count (0: none).
    (vec(prop_oneof![4 => 4usize..30, 1 => 0usize..4, 1 => 30usize..80], 0..12), 0u8..6, 0u8..6)
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn fpe_text_never_panics(
        (chars, text) in alphabet_chars().prop_flat_map(|c| (Just(c.clone()), text_over(c))),
        key in key(),
        tweak in tweak(),
    ) {
        let alphabet = Alphabet::from_chars(chars.iter().copied());
        let alphabet = match alphabet {
            Ok(a) => a,
            Err(e) => {
                prop_assert!(matches!(e, Error::Alphabet(_)), "{e:?}");
                let mut seen = std::collections::HashSet::new();
                prop_assert!(chars.len() < 2 || !chars.iter().all(|c| seen.insert(*c)), "valid alphabet refused");
                return Ok(());
            }
        };
        prop_assert_eq!(Alphabet::new(&chars.iter().collect::<String>()).unwrap(), alphabet.clone());
        let mut nums = vec![0u16; text.chars().count() / 2];
        if let Err(e) = alphabet.to_numerals(&text, &mut nums) {
            prop_assert!(matches!(e, Error::NotInAlphabet { .. } | Error::BufferTooSmall { .. }), "{e:?}");
        }
        for (name, c) in ciphers(&key, Some(alphabet), 0) {
            let c = match c {
                Ok(c) => c,
                Err(e) => { prop_assert!(construction_error(&e), "{name}: {e:?}"); continue; }
            };
            match c.encrypt(&tweak, &text) {
                Ok(ct) => {
                    prop_assert_eq!(ct.chars().count(), text.chars().count());
                    prop_assert_eq!(c.decrypt(&tweak, &ct).unwrap(), text.clone(), "{} round trip", name);
                }
                Err(e) => prop_assert!(value_error(&e), "{name}: {e:?}"),
            }
            if let Err(e) = c.decrypt(&tweak, &text) {
                prop_assert!(value_error(&e), "{name}: {e:?}");
            }
        }
    }

    #[test]
    fn fpe_numerals_and_radix_never_panic(
        radix in prop_oneof![0u32..12, 2u32..70_000, Just(65_536), Just(65_537), Just(u32::MAX)],
        key in key(),
        tweak in tweak(),
        x in vec(any::<u16>(), 0..200),
        wrap in any::<bool>(),
    ) {
        for (name, c) in ciphers(&key, None, radix) {
            let c = match c {
                Ok(c) => c,
                Err(e) => { prop_assert!(construction_error(&e), "{name}: {e:?}"); continue; }
            };
            prop_assert_eq!(c.radix(), radix);
            // Mostly in range, sometimes not.
            let x: Vec<u16> = x.iter().map(|&d| if wrap { (d as u32 % radix) as u16 } else { d }).collect();
            let mut y = x.clone();
            match c.encrypt_numerals(&tweak, &mut y) {
                Ok(()) => {
                    c.decrypt_numerals(&tweak, &mut y).unwrap();
                    prop_assert_eq!(&y, &x, "{} round trip", name);
                }
                Err(e) => {
                    prop_assert!(value_error(&e), "{name}: {e:?}");
                    prop_assert_eq!(&y, &x, "{} changed a refused value", name);
                }
            }
            // Text methods need an alphabet.
            prop_assert!(c.encrypt(&tweak, "0123456789").is_err());
        }
    }

    #[test]
    fn fpe_batches_never_panic(
        radix in prop_oneof![Just(10u32), Just(36), Just(2), Just(65_536), 2u32..1000],
        key in key(),
        (lens, bad_ends, bad_tweaks) in batch_shape(),
        tweaks in vec(tweak(), 0..14),
        same in tweak(),
        seed in any::<u64>(),
        out_of_range in any::<prop::sample::Index>(),
    ) {
        let mut s = seed | 1;
        let mut next = move || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s };
        let mut data: Vec<u16> = (0..lens.iter().sum::<usize>()).map(|_| (next() % radix as u64) as u16).collect();
        if !data.is_empty() && bad_ends == 5 {
            let i = out_of_range.index(data.len());
            data[i] = u16::MAX; // out of range unless radix 65536
        }
        let mut ends: Vec<usize> = lens.iter().scan(0, |a, l| { *a += l; Some(*a) }).collect();
        match (bad_ends, ends.len()) {
            (1, n) if n >= 2 => ends.swap(0, n - 1),
            (2, n) if n >= 1 => ends[n - 1] += 1,
            (3, _) => ends.push(usize::MAX),
            (4, n) if n >= 1 => ends[0] = 0,
            _ => {}
        }
        let n_tw = match bad_tweaks { 1 => ends.len() + 1, 2 => ends.len().saturating_sub(1), _ => ends.len() };
        let per: Vec<&[u8]> = (0..n_tw).map(|i| if tweaks.is_empty() { &same[..] } else { &tweaks[i % tweaks.len()][..] }).collect();
        for (name, c) in ciphers(&key, None, radix) {
            let Ok(c) = c else { continue };
            for tw in [Tweaks::Same(&same), Tweaks::PerValue(&per)] {
                let mut d = data.clone();
                match c.encrypt_batch(tw, &mut d, &ends) {
                    Ok(()) => {
                        c.decrypt_batch(tw, &mut d, &ends).unwrap();
                        prop_assert_eq!(&d, &data, "{} batch round trip", name);
                    }
                    Err(e) => {
                        prop_assert!(matches!(e, Error::Batch { .. } | Error::Format(_)), "{name}: {e:?}");
                        prop_assert_eq!(&d, &data, "{} changed data of a refused batch", name);
                    }
                }
                let mut d = data.clone();
                let _ = c.decrypt_batch(tw, &mut d, &ends);
            }
        }
    }

    #[test]
    fn token_formats_never_panic(
        (chars, text) in prop_oneof![
            Just("0123456789".chars().collect::<Vec<char>>()),
            prop::collection::btree_set(any::<char>(), 2..60).prop_map(|s| s.into_iter().collect()),
        ].prop_flat_map(|c| { let mut t = c.clone(); t.extend("-/ .".chars()); (Just(c), text_over(t)) }),
        pass in prop_oneof![Just(String::from("-")), Just(String::from("-/ .")), any::<String>(), Just(String::new())],
        prefix in prop_oneof![0usize..8, Just(usize::MAX)],
        suffix in prop_oneof![0usize..8, Just(usize::MAX)],
        key in prop_oneof![Just(vec![7u8; 16]), key()],
        tweak in tweak(),
        numerals in vec(any::<u16>(), 0..40),
    ) {
        let alphabet = Alphabet::from_chars(chars.iter().copied()).unwrap();
        let fmt = TokenFormat::new().passthrough(&pass).keep_prefix(prefix).keep_suffix(suffix);
        let disjoint = !pass.chars().any(|c| alphabet.numeral(c).is_some());
        let mut buf = vec![0u16; numerals.len()];
        let _ = fmt.extract(&alphabet, &text, &mut buf);
        // merge with one numeral below the radix per encrypted character
        // (its documented input); another count is an error.
        let kept = text.chars().filter(|c| !pass.contains(*c)).count();
        let selected = kept.saturating_sub(suffix).saturating_sub(prefix);
        let valid: Vec<u16> = (0..selected).map(|i| numerals.get(i).map_or(0, |&d| (d as u32 % alphabet.radix()) as u16)).collect();
        let mut merged = String::new();
        let merge = fmt.merge(&alphabet, &text, &valid, &mut merged);
        prop_assert_eq!(merge.is_ok(), disjoint);
        let mut wrong = valid.clone();
        wrong.push(0);
        prop_assert!(fmt.merge(&alphabet, &text, &wrong, &mut String::new()).is_err());
        prop_assert!(valid.is_empty() || fmt.merge(&alphabet, &text, &valid[1..], &mut String::new()).is_err());
        if disjoint {
            prop_assert_eq!(merged.chars().count(), text.chars().count());
            // Numerals at or above the radix are an error, not a panic.
            if !valid.is_empty() {
                let mut bad = valid.clone();
                bad.iter_mut().for_each(|d| *d = alphabet.radix().min(65535) as u16);
                let r = fmt.merge(&alphabet, &text, &bad, &mut String::new());
                let refused = matches!(r, Err(Error::NumeralOutOfRange { .. }));
                prop_assert!(r.is_ok() || refused, "merge of out-of-range numerals: {:?}", r);
            }
        }
        for (name, c) in ciphers(&key, Some(alphabet.clone()), 0) {
            let Ok(c) = c else { continue };
            let mut out = String::new();
            match fmt.transform_into(Direction::Encrypt, &*c, &tweak, &text, &mut out) {
                Ok(()) => {
                    prop_assert_eq!(out.chars().count(), text.chars().count());
                    for (a, b) in text.chars().zip(out.chars()) {
                        if pass.contains(a) {
                            prop_assert_eq!(a, b, "{} moved a passthrough character", name);
                        }
                    }
                    if disjoint {
                        let mut back = String::new();
                        fmt.transform_into(Direction::Decrypt, &*c, &tweak, &out, &mut back).unwrap();
                        prop_assert_eq!(back, text.clone(), "{} format round trip", name);
                    }
                }
                Err(e) => prop_assert!(value_error(&e), "{name}: {e:?}"),
            }
            let _ = fmt.transform_into(Direction::Decrypt, &*c, &tweak, &text, &mut out);
        }
    }
}

#[test]
fn alphabets_at_and_past_the_size_limit() {
    let all = |n: u32| (0..n).map(|i| char::from_u32(if i < 0xd800 { i } else { i + 0x800 }).unwrap());
    let a = Alphabet::from_chars(all(65_536)).unwrap();
    assert_eq!(a.radix(), 65_536);
    assert!(matches!(Alphabet::from_chars(all(65_537)), Err(Error::Alphabet(_))));
    assert!(matches!(Alphabet::from_chars(all(65_535).chain(['a'])), Err(Error::Alphabet(_))));
    for (name, c) in ciphers(&[1u8; 16], Some(a), 0) {
        let c = c.unwrap();
        let text: String = all(65_536).step_by(4099).take(12).collect();
        let ct = c.encrypt(b"1234567", &text).or_else(|_| c.encrypt(b"12345678", &text)).unwrap();
        assert!(
            c.decrypt(b"1234567", &ct).is_ok_and(|t| t == text) || c.decrypt(b"12345678", &ct).unwrap() == text,
            "{name}"
        );
    }
}

// ------------------------------------------------------------ SIV, AEAD, CMAC

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn siv_open_never_panics(
        key in prop_oneof![4 => prop_oneof![Just(32usize), Just(48), Just(64)], 1 => 0usize..80].prop_flat_map(|n| vec(any::<u8>(), n)),
        ct in bytes(80),
        n_ad in prop_oneof![0usize..4, 124usize..130],
        nonce in proptest::option::of(bytes(20)),
        out_len in 0usize..90,
        tag: [u8; 16],
    ) {
        let siv = match AesSiv::new(&key) {
            Ok(s) => s,
            Err(e) => { prop_assert!(matches!(e, Error::KeyLength { .. }), "{e:?}"); return Ok(()); }
        };
        let comps: Vec<Vec<u8>> = (0..n_ad).map(|i| vec![i as u8; i % 5]).collect();
        let ad: Vec<&[u8]> = comps.iter().map(|c| c.as_slice()).collect();
        let nonce = nonce.as_deref();
        let too_many = n_ad + nonce.is_some() as usize > 126;
        // Too many components is never reported as a failed tag.
        let ok_err = |e: &Error| {
            matches!(e, Error::Authentication | Error::Format(_) | Error::BufferTooSmall { .. } | Error::TooManyAd { .. })
                && !(too_many && *e == Error::Authentication)
        };
        let mut out = vec![0xa5u8; out_len];
        if let Err(e) = siv.open_into(nonce, &ad, &ct, &mut out) { prop_assert!(ok_err(&e), "{e:?}"); }
        if let Err(e) = siv.open(nonce, &ad, &ct) { prop_assert!(ok_err(&e), "{e:?}"); }
        let mut buf = ct.clone();
        if let Err(e) = siv.open_in_place(nonce, &ad, &mut buf) { prop_assert!(ok_err(&e), "{e:?}"); }
        let mut buf = ct.clone();
        if let Err(e) = siv.open_in_place_separate_tag(nonce, &ad, &mut buf, &tag) { prop_assert!(ok_err(&e), "{e:?}"); }
        match siv.seal_into(nonce, &ad, &ct, &mut out) {
            Ok(n) => prop_assert_eq!(siv.open(nonce, &ad, &out[..n]).unwrap(), ct.clone()),
            Err(e) => prop_assert!(ok_err(&e), "{e:?}"),
        }
        let mut buf = ct.clone();
        if let Err(e) = siv.seal_in_place(nonce, &ad, &mut buf) { prop_assert!(ok_err(&e), "{e:?}"); }
        if too_many {
            prop_assert!(matches!(siv.seal(nonce, &ad, b"x"), Err(Error::TooManyAd { .. })), "too many components accepted");
        }
    }

    #[test]
    fn siv_batches_never_panic(
        key_len in prop_oneof![Just(32usize), Just(48), Just(64)],
        data in bytes(300),
        cuts in vec(any::<prop::sample::Index>(), 0..12),
        shuffle in any::<bool>(),
        form in 0u8..3,
        n_ad in prop_oneof![0usize..4, 125usize..129],
        count_delta in 0usize..3,
        out_len in prop_oneof![Just(usize::MAX), 0usize..300],
    ) {
        let siv = AesSiv::new(&vec![3u8; key_len]).unwrap();
        let mut ends: Vec<usize> = cuts.iter().map(|i| i.index(data.len() + 1)).collect();
        if !shuffle { ends.sort_unstable(); }
        let n = ends.len();
        let comps: Vec<Vec<u8>> = (0..n_ad).map(|i| vec![i as u8; i % 3]).collect();
        let flat: Vec<&[u8]> = comps.iter().map(|c| c.as_slice()).collect();
        let each: Vec<&[u8]> = (0..n + count_delta).map(|i| &data[..i.min(data.len())]).collect();
        let per: Vec<&[&[u8]]> = (0..n + count_delta).map(|_| &flat[..]).collect();
        let ad = match form { 0 => BatchAd::Same(&flat), 1 => BatchAd::PerValue(&each), _ => BatchAd::PerValueComponents(&per) };
        let out_len = out_len.min(data.len() + 16 * n + 1);
        let mut out = vec![0u8; out_len];
        let ok = |e: &Error| matches!(e, Error::Batch { .. } | Error::Format(_) | Error::BufferTooSmall { .. } | Error::TooManyAd { .. });
        match siv.seal_batch(ad, &data, &ends, &mut out) {
            Ok(total) => {
                let ct_ends: Vec<usize> = ends.iter().enumerate().map(|(i, e)| e + 16 * (i + 1)).collect();
                let mut back = vec![0u8; data.len()];
                let m = siv.open_batch(ad, &out[..total], &ct_ends, &mut back).unwrap();
                prop_assert_eq!(&back[..m], &data[..ends.last().copied().unwrap_or(0)]);
            }
            Err(e) => prop_assert!(ok(&e), "{e:?}"),
        }
        let mut back = vec![0u8; out_len];
        if let Err(e) = siv.open_batch(ad, &data, &ends, &mut back) { prop_assert!(ok(&e), "{e:?}"); }
    }

    #[test]
    fn aead_never_panics(
        mode in prop_oneof![Just(Mode::Ocb), Just(Mode::Eax), Just(Mode::Gcm)],
        key in key(),
        nonce in prop_oneof![Just(12usize), Just(15), Just(16), 0usize..40].prop_flat_map(|n| vec(any::<u8>(), n)),
        ad in bytes(40),
        msg in bytes(100),
        tag: [u8; 16],
    ) {
        let aead = match Aead::new(mode, &key) {
            Ok(a) => a,
            Err(e) => { prop_assert!(matches!(e, Error::KeyLength { .. }), "{e:?}"); return Ok(()); }
        };
        let mut buf = msg.clone();
        match aead.open_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(&ad), &mut buf, &tag) {
            Err(Error::Authentication) => prop_assert!(buf.iter().all(|&b| b == 0)),
            Err(Error::NonceLength { .. }) => prop_assert_eq!(&buf, &msg),
            r => prop_assert!(false, "{mode:?}: random bytes opened: {r:?}"),
        }
        let mut buf = msg.clone();
        match aead.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(&ad), &mut buf) {
            Ok(t) => {
                aead.open_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(&ad), &mut buf, &t).unwrap();
                prop_assert_eq!(&buf, &msg);
            }
            Err(e) => prop_assert!(matches!(e, Error::NonceLength { .. }), "{e:?}"),
        }
    }

    #[test]
    fn cmac_never_panics(key in key(), msg in bytes(100)) {
        match Cmac::new(&key) {
            Ok(c) => {
                let mut st = c.start();
                st.update(&msg);
                prop_assert_eq!(st.finalize(), c.mac(&msg));
            }
            Err(e) => prop_assert!(matches!(e, Error::KeyLength { .. }), "{e:?}"),
        }
    }
}
