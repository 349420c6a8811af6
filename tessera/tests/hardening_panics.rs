//! Hardening: no public function panics, whatever it is given. Every call
//! returns `Ok` (and then round-trips) or a typed error.
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
//! - OpenPGP: `Decryptor` on arbitrary bytes, on armor-like text and on
//!   random edits of real messages (v2 OCB/EAX/GCM, v1, compressed,
//!   Argon2, binary and armored: xor, set, insert, delete, cut, duplicate
//!   and splice), where a success must give the original plaintext; the
//!   armor reader, the packet parser, SKESK, S2K and SEIPD headers on
//!   arbitrary bytes; the writers' constructors with arbitrary options.
//!
//! S2K work is kept small: Argon2 is limited through `DecryptOptions` to
//! 2^10 KiB and 3 passes; the iterated count cannot be limited (see the
//! report), so the direct S2K properties cap the count octet themselves.

use std::io::{Read, Write};
use std::sync::OnceLock;

use proptest::collection::vec;
use proptest::prelude::*;
use tessera::Error;
use tessera::aead::{Aad, Aead, AeadInPlace, Mode, Nonce};
use tessera::cmac::Cmac;
use tessera::fpe::{Alphabet, FF1, FF3, FF3_1, Fpe, TokenFormat, Tweaks};
use tessera::openpgp::armor::{ArmorReader, ArmorWriter, MESSAGE};
use tessera::openpgp::packet::{BodyReader, PartialWriter, read_header, tag, write_packet};
use tessera::openpgp::s2k::{HashAlg, S2k, S2kLimits};
use tessera::openpgp::seipd::{ChunkOpener, ChunkSealer, MdcOpener, MdcSealer, V2Header};
use tessera::openpgp::skesk::{SessionKey, Skesk};
use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, Profile, S2kChoice, SymAlg};
use tessera::siv::{AesSiv, BatchAd};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

fn key() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![6 => prop_oneof![Just(16usize), Just(24), Just(32)], 1 => 0usize..70]
        .prop_flat_map(|n| vec(any::<u8>(), n))
}

fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..=max)
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
        // merge with numerals below the radix (its documented input).
        let valid: Vec<u16> = numerals.iter().map(|&d| (d as u32 % alphabet.radix()) as u16).collect();
        let mut merged = String::new();
        let merge = fmt.merge(&alphabet, &text, &valid, &mut merged);
        prop_assert_eq!(merge.is_ok(), disjoint);
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
            match fmt.encrypt_into(&*c, &tweak, &text, &mut out) {
                Ok(()) => {
                    prop_assert_eq!(out.chars().count(), text.chars().count());
                    for (a, b) in text.chars().zip(out.chars()) {
                        if pass.contains(a) {
                            prop_assert_eq!(a, b, "{} moved a passthrough character", name);
                        }
                    }
                    if disjoint {
                        let mut back = String::new();
                        fmt.decrypt_into(&*c, &tweak, &out, &mut back).unwrap();
                        prop_assert_eq!(back, text.clone(), "{} format round trip", name);
                    }
                }
                Err(e) => prop_assert!(value_error(&e), "{name}: {e:?}"),
            }
            let _ = fmt.decrypt_into(&*c, &tweak, &text, &mut out);
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

// ---------------------------------------------------------------- OpenPGP

const PW: &[u8] = b"pw";

fn decrypt_options() -> DecryptOptions {
    DecryptOptions {
        limits: S2kLimits { max_argon2_m: 10, max_argon2_t: 3, max_iterated_count: 96, ..S2kLimits::default() },
        ..DecryptOptions::default()
    }
}

/// Decrypts to the end; `Ok` with the plaintext or any error.
fn open(msg: &[u8]) -> Result<Vec<u8>, tessera::openpgp::Error> {
    let mut d = Decryptor::with_options(msg, &[PW], &decrypt_options())?;
    let _ = (d.literal(), d.session_key(), d.seipd_version(), format!("{d:?}"));
    let mut out = Vec::new();
    d.read_to_end(&mut out).map_err(tessera::openpgp::Error::from_io)?;
    Ok(out)
}

const PLAIN_LEN: usize = 300;

fn plain() -> Vec<u8> {
    (0..PLAIN_LEN).map(|i| if i < 150 { (i * 37 % 251) as u8 } else { b'z' }).collect()
}

/// Real messages to mutate: v2 with each mode, binary and armored, v1,
/// Argon2, compressed (ZIP and ZLIB); all open to `plain()`.
fn corpus() -> &'static [Vec<u8>] {
    static C: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    C.get_or_init(|| {
        let mut out = Vec::new();
        let iter = S2kChoice::Iterated { count_octet: 0 };
        for (profile, aead, cipher, s2k, armor) in [
            (Profile::Rfc9580, Mode::Ocb, SymAlg::Aes128, iter, false),
            (Profile::Rfc9580, Mode::Eax, SymAlg::Aes192, iter, true),
            (Profile::Rfc9580, Mode::Gcm, SymAlg::Aes256, iter, false),
            (Profile::Rfc9580, Mode::Ocb, SymAlg::Aes256, S2kChoice::Argon2 { t: 1, p: 1, m: 3 }, false),
            (Profile::Rfc4880, Mode::Ocb, SymAlg::Aes128, iter, false),
            (Profile::Rfc4880, Mode::Ocb, SymAlg::Aes256, iter, true),
        ] {
            let opts = EncryptOptions {
                profile,
                aead,
                cipher,
                s2k,
                armor,
                chunk_octet: 0,
                filename: b"f".to_vec(),
                ..EncryptOptions::default()
            };
            let mut e = Encryptor::new(Vec::new(), &[PW], &opts).unwrap();
            e.write_all(&plain()).unwrap();
            out.push(e.finish().unwrap());
        }
        for alg in [1u8, 2] {
            let mut lit = Vec::new();
            write_packet(&mut lit, tag::LITERAL, &[&[b'b', 1, b'f', 0, 0, 0, 0][..], &plain()].concat()).unwrap();
            let mut body = vec![alg];
            body.extend(if alg == 1 {
                let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
                e.write_all(&lit).unwrap();
                e.finish().unwrap()
            } else {
                let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
                e.write_all(&lit).unwrap();
                e.finish().unwrap()
            });
            let mut inner = Vec::new();
            write_packet(&mut inner, tag::COMPRESSED, &body).unwrap();
            let sk = [4u8; 16];
            let s2k = S2k::Iterated { hash: HashAlg::Sha256, salt: [1; 8], count: 0 };
            let skesk = Skesk::seal_v6(&sk, PW, SymAlg::Aes128, Mode::Eax, s2k, &[2; 16]).unwrap();
            let mut pkt = Vec::new();
            skesk.write(&mut pkt);
            let mut msg = Vec::new();
            write_packet(&mut msg, tag::SKESK, &pkt).unwrap();
            let header = V2Header { cipher: SymAlg::Aes128, aead: Mode::Eax, chunk_octet: 0, salt: [5; 32] };
            let mut seipd = PartialWriter::new(&mut msg, tag::SEIPD);
            seipd.write_all(&header.encode()).unwrap();
            let mut s = ChunkSealer::new(seipd, &header, &sk).unwrap();
            s.write_all(&inner).unwrap();
            s.finish().unwrap().finish().unwrap();
            if alg == 2 {
                let mut w = ArmorWriter::new(Vec::new(), MESSAGE, true).unwrap();
                w.write_all(&msg).unwrap();
                msg = w.finish().unwrap();
            }
            out.push(msg);
        }
        for m in &out {
            assert_eq!(open(m).unwrap(), plain());
        }
        out
    })
}

#[derive(Debug, Clone)]
enum Edit {
    Xor(prop::sample::Index, u8),
    Set(prop::sample::Index, u8),
    Insert(prop::sample::Index, Vec<u8>),
    Delete(prop::sample::Index, usize),
    Cut(prop::sample::Index),
    Duplicate(prop::sample::Index, usize),
    Splice(prop::sample::Index, usize, prop::sample::Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    use prop::sample::Index;
    prop_oneof![
        4 => (any::<Index>(), 1u8..=255).prop_map(|(i, b)| Edit::Xor(i, b)),
        3 => (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Set(i, b)),
        2 => (any::<Index>(), bytes(8)).prop_map(|(i, b)| Edit::Insert(i, b)),
        2 => (any::<Index>(), 1usize..40).prop_map(|(i, n)| Edit::Delete(i, n)),
        1 => any::<Index>().prop_map(Edit::Cut),
        1 => (any::<Index>(), 1usize..100).prop_map(|(i, n)| Edit::Duplicate(i, n)),
        1 => (any::<Index>(), 1usize..100, any::<Index>()).prop_map(|(i, n, j)| Edit::Splice(i, n, j)),
    ]
}

fn apply(msg: &mut Vec<u8>, e: &Edit, other: &[u8]) {
    let at = |i: &prop::sample::Index, len: usize| i.index(len + 1);
    match e {
        Edit::Xor(i, b) if !msg.is_empty() => {
            let k = i.index(msg.len());
            msg[k] ^= b;
        }
        Edit::Set(i, b) if !msg.is_empty() => {
            let k = i.index(msg.len());
            msg[k] = *b;
        }
        Edit::Insert(i, b) => {
            let k = at(i, msg.len());
            msg.splice(k..k, b.iter().copied());
        }
        Edit::Delete(i, n) => {
            let k = at(i, msg.len());
            msg.drain(k..(k + n).min(msg.len()));
        }
        Edit::Cut(i) => msg.truncate(at(i, msg.len())),
        Edit::Duplicate(i, n) => {
            let k = at(i, msg.len());
            let piece = msg[k..(k + n).min(msg.len())].to_vec();
            msg.splice(k..k, piece);
        }
        Edit::Splice(i, n, j) => {
            let k = at(i, msg.len());
            let from = j.index(other.len() + 1);
            let piece = &other[from..(from + n).min(other.len())];
            let end = (k + piece.len()).min(msg.len());
            msg.splice(k..end, piece.iter().copied());
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(config(1000))]

    /// Random edits of real messages: never a panic, and a success (an
    /// edit the format ignores, such as the CRC24 or the END label) gives
    /// exactly the original plaintext.
    #[test]
    fn mutated_messages_never_panic(
        which in any::<prop::sample::Index>(),
        donor in any::<prop::sample::Index>(),
        edits in vec(edit(), 1..5),
    ) {
        let corpus = corpus();
        let mut msg = corpus[which.index(corpus.len())].clone();
        let other = &corpus[donor.index(corpus.len())];
        for e in &edits {
            apply(&mut msg, e, other);
        }
        if let Ok(out) = open(&msg) {
            prop_assert_eq!(out, plain(), "a modified message opened to other data");
        }
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn arbitrary_bytes_never_panic(
        data in bytes(400),
        prefix in prop_oneof![
            Just(Vec::new()),
            Just(b"-----BEGIN PGP MESSAGE-----\n\n".to_vec()),
            Just(b"  \n-----BEGIN PGP MESSAGE-----\nComment: x\n\n".to_vec()),
            vec(prop_oneof![Just(0xc3u8), Just(0xd2), Just(0xcb), Just(0xc8), Just(0x8c), Just(0xa3), Just(0xff), Just(0xe0)], 1..3),
        ],
        b64 in any::<bool>(),
    ) {
        let mut input = prefix.clone();
        if b64 && !prefix.is_empty() && prefix[0] != 0xc3 {
            input.extend(data.iter().map(|b| b"ABCDwxyz0189+/=\n-\r :"[(*b % 20) as usize]));
        } else {
            input.extend_from_slice(&data);
        }
        let _ = open(&input);
        // The armor reader and the packet parser on their own.
        let mut a = ArmorReader::new(input.as_slice());
        let _ = a.kind().map(|k| k.len());
        let _ = a.read_to_end(&mut Vec::new());
        let mut r = input.as_slice();
        for _ in 0..20 {
            match read_header(&mut r) {
                Ok(Some(h)) => {
                    let mut body = BodyReader::new(&mut r, h.len);
                    let _ = body.is_done();
                    if body.skip_rest().is_err() { break; }
                }
                _ => break,
            }
        }
        // Session key packets and S2K specifiers; the iterated count is capped
        // here (nothing in the API can cap it; see the report).
        if let Ok(s) = Skesk::parse(&input) {
            let cheap = match &s {
                Skesk::V6 { s2k, .. } | Skesk::V4 { s2k, .. } => !matches!(s2k, S2k::Iterated { count, .. } if *count > 0x60),
            };
            let mut w = Vec::new();
            s.write(&mut w);
            if cheap {
                let _ = s.decrypt(PW, &decrypt_options().limits);
            }
        }
        if let Ok((s2k, used)) = S2k::parse(&input) {
            prop_assert!(used <= input.len() && used == s2k.encoded_len());
            if !matches!(s2k, S2k::Iterated { count, .. } if count > 0x60) {
                for len in [0, 1, 16, 32, 64, 65] {
                    let _ = s2k.derive(PW, len, &decrypt_options().limits);
                }
            }
        }
        if input.len() >= 35 {
            let _ = V2Header::parse(input[..35].try_into().unwrap());
        }
    }

    #[test]
    fn seipd_layers_never_panic(
        head: [u8; 35],
        key in bytes(40),
        body in bytes(300),
        prefix: [u8; 18],
    ) {
        // A valid header half of the time, so the chunk layer is reached.
        let header = V2Header::parse(&head).unwrap_or(V2Header { cipher: SymAlg::Aes128, aead: Mode::Gcm, chunk_octet: head[2] % 3, salt: [0; 32] });
        if let Ok(mut o) = ChunkOpener::new(body.as_slice(), &header, &key) {
            let _ = o.read_to_end(&mut Vec::new());
        }
        if let Ok(mut o) = MdcOpener::with_prefix(body.as_slice(), &key, &prefix) {
            let _ = o.read_to_end(&mut Vec::new());
        }
        if let Ok(mut s) = ChunkSealer::new(Vec::new(), &header, &key) {
            s.write_all(&body).unwrap();
            let sealed = s.finish().unwrap();
            let mut back = Vec::new();
            ChunkOpener::new(sealed.as_slice(), &header, &key).unwrap().read_to_end(&mut back).unwrap();
            prop_assert_eq!(back, body.clone());
        }
        if let Ok(mut s) = MdcSealer::new(Vec::new(), &key) {
            s.write_all(&body).unwrap();
            s.finish().unwrap();
        }
        // A session key of any length given directly.
        let opts = DecryptOptions { session_key: Some(SessionKey { alg: None, key: key.clone().into() }), ..decrypt_options() };
        let msg = &corpus()[0];
        let _ = Decryptor::with_options(msg.as_slice(), &[], &opts).map(|mut d| d.read_to_end(&mut Vec::new()));
    }

    #[test]
    fn writers_refuse_bad_options_without_panicking(
        session_key in bytes(40),
        iv in bytes(20),
        cipher in prop_oneof![Just(SymAlg::Aes128), Just(SymAlg::Aes192), Just(SymAlg::Aes256)],
        aead in prop_oneof![Just(Mode::Ocb), Just(Mode::Eax), Just(Mode::Gcm)],
        chunk_octet in 0u8..=20,
        filename in prop_oneof![bytes(10), Just(vec![b'x'; 256])],
        argon in (0u8..3, 0u8..5, prop_oneof![0u8..6, 32u8..=255]),
        profile in prop_oneof![Just(Profile::Rfc9580), Just(Profile::Rfc4880)],
        iterated in any::<bool>(),
        armor in any::<bool>(),
    ) {
        let s2k = S2k::Iterated { hash: HashAlg::Sha256, salt: [1; 8], count: 0 };
        if let Ok(s) = Skesk::seal_v6(&session_key, PW, cipher, aead, s2k.clone(), &iv) {
            let _ = s.decrypt(PW, &S2kLimits::default());
        }
        let _ = Skesk::seal_v4(&session_key, cipher, PW, cipher, s2k);
        let (t, p, m) = argon;
        let s2k = if iterated { S2kChoice::Iterated { count_octet: 0 } } else { S2kChoice::Argon2 { t, p, m } };
        let opts = EncryptOptions { profile, cipher, aead, chunk_octet, s2k, armor, filename, ..EncryptOptions::default() };
        if let Ok(mut e) = Encryptor::new(Vec::new(), &[PW], &opts) {
            e.write_all(&plain()).unwrap();
            let msg = e.finish().unwrap();
            prop_assert_eq!(open(&msg).unwrap(), plain());
        }
    }
}
