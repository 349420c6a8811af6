//! `fpe_text`: FF1, FF3-1 and FF3 over arbitrary alphabets and texts.

use tessera::fpe::{Alphabet, FF1, FF3, FF3_1, Fpe, TokenFormat, Tweaks};

use super::common::*;

/// FF1, FF3-1 and FF3 over an alphabet and a text taken from the input
/// (any characters: duplicates, non-ASCII, empty; or a range of up to
/// 70000 code points), with any tweak. Nothing may panic; whatever
/// encrypts must decrypt back, the same through numerals, batches and
/// token formats.
///
/// Input: `[mode][n][tweak length][tweak][...]`; see the code.
pub fn fpe_text(data: &[u8]) {
    let mut d = data;
    let mode = take_u8(&mut d);
    let n = take_u8(&mut d);
    let tl = take_u8(&mut d);
    let alg = mode & 3; // 0 FF1, 1 FF3-1, 2 FF3, 3 FF1
    let key_len = [16, 24, 32, 15][(mode >> 2) as usize & 3];
    let key: Vec<u8> = (0..key_len as u8).map(|i| i.wrapping_mul(0x1d) ^ 0xa5).collect();
    let tweak_len = match (tl & 0x80, alg) {
        (0, 1) => 7,
        (0, 2) => 8,
        _ => tl as usize & 0x7f,
    };
    let tweak = take(&mut d, tweak_len);

    let (alphabet_chars, text): (Vec<char>, String) = if mode & 0x10 == 0 {
        // Explicit: the first n characters of the (lossy UTF-8) rest are
        // the alphabet, the others the text.
        let s = String::from_utf8_lossy(d);
        let mut chars = s.chars();
        let a: Vec<char> = chars.by_ref().take(n as usize).collect();
        (a, chars.collect())
    } else {
        // A range of code points (wrapping, surrogates skipped), then the
        // text as indices into it (index radix: a character outside).
        // Mostly short ranges (a long one costs milliseconds to build):
        // lengths above 255 need the top nibble of the length field set.
        let start = take_u24(&mut d) % 0x11_0000;
        let l = take_u24(&mut d);
        let len = if l >> 20 == 0xf { (l & 0xf_ffff) % 70_000 } else { l % 256 };
        let a: Vec<char> = (0..len).filter_map(|i| char::from_u32((start + i) % 0x11_0000)).collect();
        let text = d
            .chunks(2)
            .map(|c| {
                let i = u16::from_le_bytes([c[0], c.get(1).copied().unwrap_or(0)]) as usize % (a.len() + 1);
                a.get(i).copied().unwrap_or('\u{fffd}')
            })
            .collect();
        (a, text)
    };

    let Ok(alphabet) = Alphabet::from_chars(alphabet_chars.iter().copied()) else {
        let mut seen = alphabet_chars.clone();
        seen.sort_unstable();
        seen.dedup();
        assert!(
            alphabet_chars.len() < 2 || alphabet_chars.len() > 65536 || seen.len() < alphabet_chars.len(),
            "a valid alphabet of {} distinct characters was refused",
            alphabet_chars.len()
        );
        return;
    };
    assert_eq!(alphabet.chars(), &alphabet_chars[..]);
    for (i, &c) in alphabet_chars.iter().enumerate().step_by(alphabet_chars.len() / 64 + 1) {
        assert_eq!(alphabet.numeral(c), Some(i as u16));
        assert_eq!(alphabet.char_of(i as u16), c);
    }
    let mut nums = vec![0u16; text.chars().count()];
    let numerals_ok = alphabet.to_numerals(&text, &mut nums).is_ok();
    if numerals_ok {
        let mut back = String::new();
        alphabet.push_str(&nums, &mut back);
        assert_eq!(back, text);
    }

    let cipher: Box<dyn Fpe> = match alg {
        1 => match FF3_1::new(&key, alphabet.clone()) {
            Ok(c) => Box::new(c),
            Err(_) => return,
        },
        2 => match FF3::new(&key, alphabet.clone()) {
            Ok(c) => Box::new(c),
            Err(_) => return,
        },
        _ => match FF1::new(&key, alphabet.clone()) {
            Ok(c) => Box::new(c),
            Err(_) => return,
        },
    };
    assert_eq!(cipher.radix(), alphabet.radix());
    let (min, max) = cipher.len_range();
    assert!(2 <= min && min <= max);

    let enc = cipher.encrypt(tweak, &text);
    let dec = cipher.decrypt(tweak, &text);
    assert_eq!(enc.is_ok(), dec.is_ok(), "encrypt {enc:?} but decrypt {dec:?}");
    if let (Ok(ct), Ok(pt)) = (&enc, &dec) {
        assert!(numerals_ok, "text encrypts but does not map to numerals");
        for out in [ct, pt] {
            assert_eq!(out.chars().count(), text.chars().count());
            assert!(out.chars().all(|c| alphabet.numeral(c).is_some()));
        }
        assert_eq!(cipher.decrypt(tweak, ct).as_ref(), Ok(&text), "decrypt(encrypt(x)) != x");
        assert_eq!(cipher.encrypt(tweak, pt).as_ref(), Ok(&text), "encrypt(decrypt(x)) != x");
        let len = nums.len();
        assert!(min <= len && len <= max);

        // The numeral and batch forms agree with the text form.
        let mut x = nums.clone();
        cipher.encrypt_numerals(tweak, &mut x).expect("encrypted as text");
        let mut s = String::new();
        alphabet.push_str(&x, &mut s);
        assert_eq!(&s, ct);
        let mut batch = [nums.as_slice(), x.as_slice()].concat();
        let ends = [len, 2 * len];
        cipher.encrypt_batch(Tweaks::Same(tweak), &mut batch, &ends).expect("batch of valid values");
        assert_eq!(batch[..len], x[..]);
        cipher.decrypt_batch(Tweaks::PerValue(&[tweak, tweak]), &mut batch, &ends).expect("batch of valid values");
        assert_eq!(batch[..len], nums[..]);
        assert_eq!(batch[len..], x[..]);
    } else if numerals_ok {
        let mut x = nums.clone();
        assert!(cipher.encrypt_numerals(tweak, &mut x).is_err(), "numerals encrypt, the same text does not");
        assert_eq!(x, nums, "a failed encryption changed its input");
    }

    // Bare numerals (possibly out of range) on a radix-only cipher.
    if mode & 0x20 != 0 {
        let radix = alphabet.radix();
        let bare: Box<dyn Fpe> = match alg {
            1 => FF3_1::with_radix(&key, radix).map(|c| Box::new(c) as Box<dyn Fpe>),
            2 => FF3::with_radix(&key, radix).map(|c| Box::new(c) as Box<dyn Fpe>),
            _ => FF1::with_radix(&key, radix).map(|c| Box::new(c) as Box<dyn Fpe>),
        }
        .expect("the same radix worked with an alphabet");
        assert!(bare.encrypt(tweak, &text).is_err(), "text methods without an alphabet");
        let raw: Vec<u16> = d.chunks(2).map(|c| u16::from_le_bytes([c[0], c.get(1).copied().unwrap_or(0)])).collect();
        let mut x = raw.clone();
        if bare.encrypt_numerals(tweak, &mut x).is_ok() {
            assert!(x.iter().all(|&v| (v as u32) < radix));
            bare.decrypt_numerals(tweak, &mut x).expect("encrypted");
            assert_eq!(x, raw);
        } else {
            assert_eq!(x, raw, "a failed encryption changed its input");
        }
    }

    // Token formats: passthrough characters, kept prefix and suffix.
    if mode & 0x40 != 0 {
        let pass = "- /.";
        let fmt = TokenFormat::new().passthrough(pass).keep_prefix(n as usize & 3).keep_suffix((n as usize >> 2) & 3);
        let mut out = String::new();
        if fmt.encrypt_into(&*cipher, tweak, &text, &mut out).is_ok() {
            assert_eq!(out.chars().count(), text.chars().count());
            // Documented precondition: passthrough characters are not in the
            // alphabet (otherwise tokens need not decrypt).
            if pass.chars().all(|c| alphabet.numeral(c).is_none()) {
                let mut back = String::new();
                fmt.decrypt_into(&*cipher, tweak, &out, &mut back).expect("a token decrypts");
                assert_eq!(back, text, "token format round trip");
            }
        }
    }
}
