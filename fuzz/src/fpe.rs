//! `fpe_text`: FF1, FF3-1 and FF3 over arbitrary alphabets and texts.

use tessera::Direction;
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
    let (alphabet_chars, text) = if mode & 0x10 == 0 { explicit_alphabet(d, n) } else { range_alphabet(&mut d) };
    let Some(alphabet) = checked_alphabet(&alphabet_chars) else { return };
    let Some(cipher) = cipher(alg, &key, &alphabet) else { return };
    text_round_trips(&*cipher, &alphabet, tweak, &text);
    if mode & 0x20 != 0 {
        bare_numerals(alg, &key, alphabet.radix(), tweak, &text, d);
    }
    if mode & 0x40 != 0 {
        token_format(&*cipher, &alphabet, n, tweak, &text);
    }
}

/// The first `n` characters of the (lossy UTF-8) rest are the alphabet,
/// the others the text.
fn explicit_alphabet(d: &[u8], n: u8) -> (Vec<char>, String) {
    let s = String::from_utf8_lossy(d);
    let mut chars = s.chars();
    let a: Vec<char> = chars.by_ref().take(n as usize).collect();
    (a, chars.collect())
}

/// A range of code points (wrapping, surrogates skipped), then the text as
/// indices into it (index radix: a character outside). Mostly short ranges
/// (a long one costs milliseconds to build): lengths above 255 need the
/// top nibble of the length field set.
fn range_alphabet(d: &mut &[u8]) -> (Vec<char>, String) {
    let start = take_u24(d) % 0x11_0000;
    let l = take_u24(d);
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
}

/// The alphabet of `chars`, which must be refused only for a reason
/// (fewer than 2, more than 65536, or repeated characters), and must then
/// map every character to its index.
fn checked_alphabet(chars: &[char]) -> Option<Alphabet> {
    let Ok(alphabet) = Alphabet::from_chars(chars.iter().copied()) else {
        let mut seen = chars.to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert!(
            chars.len() < 2 || chars.len() > 65536 || seen.len() < chars.len(),
            "a valid alphabet of {} distinct characters was refused",
            chars.len()
        );
        return None;
    };
    assert_eq!(alphabet.chars(), chars);
    for (i, &c) in chars.iter().enumerate().step_by(chars.len() / 64 + 1) {
        assert_eq!(alphabet.numeral(c), Some(i as u16));
        assert_eq!(alphabet.char_of(i as u16), Some(c));
    }
    Some(alphabet)
}

/// The cipher `alg` selects (0 FF1, 1 FF3-1, 2 FF3, 3 FF1), if the key
/// and alphabet suit it.
fn cipher(alg: u8, key: &[u8], alphabet: &Alphabet) -> Option<Box<dyn Fpe>> {
    let cipher: Box<dyn Fpe> = match alg {
        1 => Box::new(FF3_1::new(key, alphabet.clone()).ok()?),
        2 => Box::new(FF3::new(key, alphabet.clone()).ok()?),
        _ => Box::new(FF1::new(key, alphabet.clone()).ok()?),
    };
    assert_eq!(cipher.radix(), alphabet.radix());
    let (min, max) = cipher.len_range();
    assert!(2 <= min && min <= max);
    Some(cipher)
}

/// Encrypt and decrypt succeed together and invert each other; the
/// numeral and batch forms agree with the text form; a failure leaves
/// the input unchanged.
fn text_round_trips(cipher: &dyn Fpe, alphabet: &Alphabet, tweak: &[u8], text: &str) {
    let mut nums = vec![0u16; text.chars().count()];
    let numerals_ok = alphabet.to_numerals(text, &mut nums).is_ok();
    if numerals_ok {
        let mut back = String::new();
        alphabet.push_str(&nums, &mut back).expect("numerals from to_numerals");
        assert_eq!(back, text);
    }
    let enc = cipher.encrypt(tweak, text);
    let dec = cipher.decrypt(tweak, text);
    assert_eq!(enc.is_ok(), dec.is_ok(), "encrypt {enc:?} but decrypt {dec:?}");
    if let (Ok(ct), Ok(pt)) = (&enc, &dec) {
        assert!(numerals_ok, "text encrypts but does not map to numerals");
        for out in [ct, pt] {
            assert_eq!(out.chars().count(), text.chars().count());
            assert!(out.chars().all(|c| alphabet.numeral(c).is_some()));
        }
        assert_eq!(cipher.decrypt(tweak, ct).as_deref(), Ok(text), "decrypt(encrypt(x)) != x");
        assert_eq!(cipher.encrypt(tweak, pt).as_deref(), Ok(text), "encrypt(decrypt(x)) != x");
        let (min, max) = cipher.len_range();
        let len = nums.len();
        assert!(min <= len && len <= max);
        numeral_and_batch_forms_agree(cipher, alphabet, tweak, &nums, ct);
    } else if numerals_ok {
        let mut x = nums.clone();
        assert!(cipher.encrypt_numerals(tweak, &mut x).is_err(), "numerals encrypt, the same text does not");
        assert_eq!(x, nums, "a failed encryption changed its input");
    }
}

/// `nums` (whose text encrypts to `ct`) through the numeral and batch forms.
fn numeral_and_batch_forms_agree(cipher: &dyn Fpe, alphabet: &Alphabet, tweak: &[u8], nums: &[u16], ct: &str) {
    let len = nums.len();
    let mut x = nums.to_vec();
    cipher.encrypt_numerals(tweak, &mut x).expect("encrypted as text");
    let mut s = String::new();
    alphabet.push_str(&x, &mut s).expect("ciphertext numerals");
    assert_eq!(s, ct);
    let mut batch = [nums, x.as_slice()].concat();
    let ends = [len, 2 * len];
    cipher.encrypt_batch(Tweaks::Same(tweak), &mut batch, &ends).expect("batch of valid values");
    assert_eq!(batch[..len], x[..]);
    cipher.decrypt_batch(Tweaks::PerValue(&[tweak, tweak]), &mut batch, &ends).expect("batch of valid values");
    assert_eq!(batch[..len], nums[..]);
    assert_eq!(batch[len..], x[..]);
}

/// Bare numerals (possibly out of range) from `d` on a radix-only cipher.
fn bare_numerals(alg: u8, key: &[u8], radix: u32, tweak: &[u8], text: &str, d: &[u8]) {
    let bare: Box<dyn Fpe> = match alg {
        1 => FF3_1::with_radix(key, radix).map(|c| Box::new(c) as Box<dyn Fpe>),
        2 => FF3::with_radix(key, radix).map(|c| Box::new(c) as Box<dyn Fpe>),
        _ => FF1::with_radix(key, radix).map(|c| Box::new(c) as Box<dyn Fpe>),
    }
    .expect("the same radix worked with an alphabet");
    assert!(bare.encrypt(tweak, text).is_err(), "text methods without an alphabet");
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

/// Token formats: passthrough characters, kept prefix and suffix (from `n`).
fn token_format(cipher: &dyn Fpe, alphabet: &Alphabet, n: u8, tweak: &[u8], text: &str) {
    let pass = "- /.";
    let fmt = TokenFormat::new().passthrough(pass).keep_prefix(n as usize & 3).keep_suffix((n as usize >> 2) & 3);
    let mut out = String::new();
    if fmt.transform_into(Direction::Encrypt, cipher, tweak, text, &mut out).is_ok() {
        assert_eq!(out.chars().count(), text.chars().count());
        // Documented precondition: passthrough characters are not in the
        // alphabet (otherwise tokens need not decrypt).
        if pass.chars().all(|c| alphabet.numeral(c).is_none()) {
            let mut back = String::new();
            fmt.transform_into(Direction::Decrypt, cipher, tweak, &out, &mut back).expect("a token decrypts");
            assert_eq!(back, text, "token format round trip");
        }
    }
}
