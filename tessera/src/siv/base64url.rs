//! Unpadded base64url (RFC 4648 section 5), the text form of AES-SIV
//! ciphertexts (`V || C`) in the CLI's `--lines` mode and the Python
//! package's string columns.
//!
//! ```
//! use tessera::siv::base64url;
//! let mut text = Vec::new();
//! base64url::encode(&[0xfb, 0xff], &mut text);
//! assert_eq!(text, b"-_8");
//! let mut back = Vec::new();
//! base64url::decode(&text, &mut back)?;
//! assert_eq!(back, [0xfb, 0xff]);
//! assert!(base64url::decode(b"-_8=", &mut back).is_err());
//! # Ok::<(), tessera::Error>(())
//! ```

use crate::Error;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Appends the unpadded base64url encoding of `data` to `out`.
///
/// ```
/// let mut out = Vec::new();
/// tessera::siv::base64url::encode(b"hi?", &mut out);
/// assert_eq!(out, b"aGk_");
/// ```
pub fn encode(data: &[u8], out: &mut Vec<u8>) {
    // The output's length is known: write it in place, four characters per
    // three bytes, instead of pushing (and checking capacity) per character.
    let start = out.len();
    out.resize(start + data.len() / 3 * 4 + [0, 2, 3][data.len() % 3], 0);
    let mut dst = out[start..].chunks_mut(4);
    let chunks = data.chunks_exact(3);
    let tail = chunks.remainder();
    for (c, d) in chunks.zip(&mut dst) {
        let n = (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32;
        for (i, x) in d.iter_mut().enumerate() {
            *x = ALPHABET[(n >> (18 - 6 * i) & 63) as usize];
        }
    }
    if let Some(d) = dst.next() {
        let n = (tail[0] as u32) << 16 | (*tail.get(1).unwrap_or(&0) as u32) << 8;
        for (i, x) in d.iter_mut().enumerate() {
            *x = ALPHABET[(n >> (18 - 6 * i) & 63) as usize];
        }
    }
}

fn value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    } as u32)
}

/// Appends the bytes of unpadded base64url `text` to `out`. Strict: no
/// padding, no other characters (whitespace included), no stray bits in the
/// last character; anything else is [`Error::Base64Url`].
///
/// ```
/// use tessera::siv::base64url::decode;
/// let mut out = Vec::new();
/// decode(b"aGk_", &mut out).unwrap();
/// assert_eq!(out, b"hi?");
/// assert!(decode(b"aGk=", &mut out).is_err()); // no padding
/// ```
pub fn decode(text: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
    const BAD: Error = Error::Base64Url;
    if text.len() % 4 == 1 {
        return Err(BAD);
    }
    for c in text.chunks(4) {
        let mut n = 0u32;
        for (i, &ch) in c.iter().enumerate() {
            n |= value(ch).ok_or(BAD)? << (18 - 6 * i);
        }
        let bytes = c.len() - 1;
        let keep = 24 - 8 * bytes as u32;
        if bytes < 3 && n & ((1 << keep) - 1) != 0 {
            return Err(BAD);
        }
        out.extend_from_slice(&n.to_be_bytes()[1..1 + bytes]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rfc4648_vectors() {
        // RFC 4648 section 10, without padding.
        for (raw, enc) in
            [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE")]
        {
            let mut e = Vec::new();
            encode(raw.as_bytes(), &mut e);
            assert_eq!(e, enc.as_bytes());
            let mut d = Vec::new();
            decode(enc.as_bytes(), &mut d).unwrap();
            assert_eq!(d, raw.as_bytes());
        }
        let all: Vec<u8> = (0..=255).collect();
        for n in 0..all.len() {
            let mut e = Vec::new();
            encode(&all[..n], &mut e);
            let mut d = Vec::new();
            decode(&e, &mut d).unwrap();
            assert_eq!(d, &all[..n]);
        }
        let mut e = Vec::new();
        encode(&[0xfb, 0xff], &mut e);
        assert_eq!(e, b"-_8");
        for bad in [&b"Zg=="[..], b"Z", b"Zh", b"Zm9v+", b"Zm/v", b"Zm9 "] {
            assert!(decode(bad, &mut Vec::new()).is_err(), "{:?}", String::from_utf8_lossy(bad));
        }
    }
}
