//! Hex text of keys and parameters, decoded and encoded in constant time
//! (the `base16ct` crate), so that reading a key file leaks nothing of the
//! key through timing.
//!
//! ```
//! use tessera::hex;
//! let key = hex::decode_key(b"00ff 10AB\n")?;
//! assert_eq!(&key[..], [0x00, 0xff, 0x10, 0xab]);
//! assert_eq!(&hex::encode_key(&key)[..], "00ff10ab");
//! assert_eq!(hex::decode("0a0b")?, [10, 11]);
//! # Ok::<(), tessera::Error>(())
//! ```

use zeroize::Zeroizing;

use crate::Error;

/// Decodes hex text (digits in either case, nothing else, an even number
/// of them). For parameters such as tweaks and associated data; keys go
/// through [`decode_key`].
///
/// ```
/// assert_eq!(tessera::hex::decode("").unwrap(), [0u8; 0]);
/// assert!(tessera::hex::decode("abc").is_err());
/// ```
pub fn decode(text: &str) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; text.len() / 2];
    base16ct::mixed::decode(text, &mut out).map_err(|_| Error::Hex)?;
    Ok(out)
}

/// Decodes a key written as hex, as key files and variables hold it: ASCII
/// whitespace anywhere (line breaks, spaces between groups) is ignored,
/// digits are in either case. No hex digits at all is [`Error::EmptyKey`];
/// anything else that is not hex is [`Error::Hex`]. The key and every
/// intermediate copy are zeroized when dropped; errors hold none of it.
///
/// ```
/// use tessera::{Error, hex::decode_key};
/// assert_eq!(&decode_key(b" 2b7e\r\n1516 ")?[..], [0x2b, 0x7e, 0x15, 0x16]);
/// assert_eq!(decode_key(b" \n").unwrap_err(), Error::EmptyKey);
/// assert_eq!(decode_key(b"2b7").unwrap_err(), Error::Hex);
/// # Ok::<(), tessera::Error>(())
/// ```
pub fn decode_key(text: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    let digits: Zeroizing<Vec<u8>> =
        Zeroizing::new(text.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect());
    if digits.is_empty() {
        return Err(Error::EmptyKey);
    }
    let mut key = Zeroizing::new(vec![0u8; digits.len() / 2]);
    base16ct::mixed::decode(&*digits, &mut key).map_err(|_| Error::Hex)?;
    Ok(key)
}

/// Encodes a key as lowercase hex, in a string zeroized when dropped.
///
/// ```
/// assert_eq!(&tessera::hex::encode_key(&[0xab, 0x01])[..], "ab01");
/// ```
pub fn encode_key(key: &[u8]) -> Zeroizing<String> {
    let mut text = Zeroizing::new(vec![0u8; 2 * key.len()]);
    let digits = base16ct::lower::encode_str(key, &mut text).expect("the buffer holds two digits per byte");
    Zeroizing::new(digits.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_accepts_both_cases_and_refuses_everything_else() {
        assert_eq!(decode("00aAfF9").unwrap_err(), Error::Hex);
        assert_eq!(decode("00aAfF99").unwrap(), [0x00, 0xaa, 0xff, 0x99]);
        for bad in ["0g", " 00", "00 ", "0x00", "é0", "+0"] {
            assert_eq!(decode(bad).unwrap_err(), Error::Hex, "{bad:?}");
        }
    }

    #[test]
    fn keys_ignore_whitespace_and_round_trip() {
        let key: Vec<u8> = (0..=255).collect();
        let text = encode_key(&key);
        assert_eq!(text.len(), 512);
        let spaced: Vec<u8> = text.bytes().enumerate().flat_map(|(i, b)| [b, b" \t\n\r"[i % 4]]).collect();
        assert_eq!(&decode_key(&spaced).unwrap()[..], &key[..]);
        assert_eq!(&decode_key(text.to_uppercase().as_bytes()).unwrap()[..], &key[..]);
        assert_eq!(decode_key(b"").unwrap_err(), Error::EmptyKey);
        assert_eq!(decode_key(b"\t\r\n ").unwrap_err(), Error::EmptyKey);
        for bad in [&b"abc"[..], b"ab\0cd", b"zz", b"ab,cd", "\u{a0}ab".as_bytes()] {
            assert_eq!(decode_key(bad).unwrap_err(), Error::Hex, "{bad:?}");
        }
        // The error text never holds the key.
        assert!(!decode_key(b"deadbeefX").unwrap_err().to_string().contains("dead"));
    }
}
