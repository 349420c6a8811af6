//! Round trips and malformed input for the armor reader and writer.

use std::io::{Read, Write};

use super::*;
use crate::openpgp::Error;

fn dearmor(text: &[u8], chunk: usize) -> Result<Vec<u8>> {
    let mut r = ArmorReader::new(text);
    let mut out = Vec::new();
    let mut buf = vec![0u8; chunk];
    loop {
        let n = r.read(&mut buf).map_err(Error::from_io)?;
        if n == 0 {
            return Ok(out);
        }
        out.extend_from_slice(&buf[..n]);
    }
}

#[test]
fn last_group_padding_bits_are_zero() {
    // Four octets: the last group holds one, after a group of three.
    let mut w = ArmorWriter::new(Vec::new(), MESSAGE, false).unwrap();
    w.write_all(&[0xff, 0xff, 0xff, 0x00]).unwrap();
    let out = String::from_utf8(w.finish().unwrap()).unwrap();
    assert!(out.contains("\n////AA==\n"), "{out}");
}

#[test]
fn an_error_is_final() {
    let text = b"-----BEGIN PGP MESSAGE-----\n\nwy4E!BwMI\n-----END PGP MESSAGE-----\n";
    let mut r = ArmorReader::new(&text[..]);
    let mut buf = [0u8; 64];
    assert!(r.read(&mut buf).is_err());
    for _ in 0..3 {
        let e = Error::from_io(r.read(&mut buf).unwrap_err());
        assert!(matches!(e, Error::Malformed("invalid character in armor")), "{e:?}");
    }
}

#[test]
fn round_trip_all_lengths() {
    for n in [0usize, 1, 2, 3, 4, 56, 57, 58, 100, 1000, 5000] {
        let data: Vec<u8> = (0..n).map(|i| (i * 31 + 7) as u8).collect();
        for crc in [false, true] {
            let mut w = ArmorWriter::new(Vec::new(), MESSAGE, crc).unwrap();
            for (i, p) in data.chunks(7).enumerate() {
                if i % 2 == 0 {
                    w.write_all(p).unwrap();
                } else {
                    for b in p {
                        w.write_all(&[*b]).unwrap();
                    }
                }
            }
            let text = w.finish().unwrap();
            for line in text.split(|&b| b == b'\n') {
                assert!(line.len() <= 76);
            }
            for chunk in [1, 2, 3, 5, 4096] {
                assert_eq!(dearmor(&text, chunk).unwrap(), data, "n={n} crc={crc} chunk={chunk}");
            }
            // CR LF line ends and a preamble are accepted.
            let mut crlf = b"some text first\r\n".to_vec();
            for &b in &text {
                if b == b'\n' {
                    crlf.push(b'\r');
                }
                crlf.push(b);
            }
            assert_eq!(dearmor(&crlf, 4096).unwrap(), data);
        }
    }
}

#[test]
fn crc24_known_value() {
    // "Hello, world!" as written by GnuPG's armor.
    let mut c = Crc24::default();
    c.update(b"");
    assert_eq!(c.value(), 0xb704ce);
}

#[test]
fn headers_and_bad_input() {
    let text = b"-----BEGIN PGP MESSAGE-----\nComment: hi\nVersion: x\n\nAAEC\n=abcd\n-----END PGP MESSAGE-----\n";
    assert_eq!(dearmor(text, 10).unwrap(), [0, 1, 2]);
    assert!(matches!(dearmor(b"-----BEGIN PGP MESSAGE-----\n\nAAEC\n", 10), Err(Error::Truncated(_))));
    assert!(matches!(
        dearmor(b"-----BEGIN PGP MESSAGE-----\n\nAA*C\n-----END PGP MESSAGE-----\n", 10),
        Err(Error::Malformed(_))
    ));
    assert!(matches!(dearmor(b"hello", 10), Err(Error::Malformed(_))));
    assert!(matches!(
        dearmor(b"-----BEGIN PGP MESSAGE-----\n\nAAE\n-----END PGP MESSAGE-----\n", 10),
        Err(Error::Truncated(_))
    ));
}

#[test]
fn the_checksum_line_ends_the_body() {
    // Its content is not checked, and blank lines may follow it (a bit
    // flip that turns the checksum's last character into a line break).
    for crc in ["=abcd", "=abc", "=", "=!!!!!"] {
        let text = format!("-----BEGIN PGP MESSAGE-----\n\nAAEC\n{crc}\n\n \r\n-----END PGP MESSAGE-----\n");
        assert_eq!(dearmor(text.as_bytes(), 10).unwrap(), [0, 1, 2], "{crc}");
    }
    // Base64 after it is not more data.
    for after in ["AAEC\n", "A", "=\n", "AA==\n"] {
        let text = format!("-----BEGIN PGP MESSAGE-----\n\nAAEC\n=abcd\n{after}-----END PGP MESSAGE-----\n");
        assert!(
            matches!(dearmor(text.as_bytes(), 10), Err(Error::Malformed("data after the armor checksum line"))),
            "{after:?}"
        );
    }
}

#[test]
fn a_long_body_line_is_never_taken_for_a_header() {
    use base64::Engine as _;
    let long = base64::engine::general_purpose::STANDARD.encode([7u8; 90]); // 120 characters
    let short = base64::engine::general_purpose::STANDARD.encode([9u8; 30]);
    // Without a blank line, and with one before a second part: refused,
    // where skipping the long line as a header would read only `short`.
    for text in [
        format!("-----BEGIN PGP MESSAGE-----\n{long}\n-----END PGP MESSAGE-----\n"),
        format!("-----BEGIN PGP MESSAGE-----\n{long}\n\n{short}\n-----END PGP MESSAGE-----\n"),
    ] {
        assert!(matches!(dearmor(text.as_bytes(), 7), Err(Error::Malformed(_))), "{text}");
    }
    // A long header is still a header.
    let header = format!("Comment: {long}");
    let text = format!("-----BEGIN PGP MESSAGE-----\n{header}\n\n{short}\n-----END PGP MESSAGE-----\n");
    assert_eq!(dearmor(text.as_bytes(), 7).unwrap(), [9u8; 30]);
}
