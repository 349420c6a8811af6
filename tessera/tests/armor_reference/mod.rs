//! The strict armor decoder `hardening_flips.rs` judges flips by, and a
//! check that the library's reader never accepts as the same message what
//! the reference refuses (the case behind a 1-in-64 failure: a CRC24 line
//! whose last character, flipped to a line break, left a blank line).

use std::io::{Read, Write};

use tessera::openpgp::armor::{ArmorReader, ArmorWriter, MESSAGE};

/// A strict armor decoder (see the module documentation for what it leaves
/// open); `None` when `text` is not armor of that form.
pub fn reference_dearmor(text: &[u8]) -> Option<Vec<u8>> {
    let trim = |l: &[u8]| -> Vec<u8> { l.iter().copied().filter(|&b| !matches!(b, b'\r' | b' ' | b'\t')).collect() };
    let mut lines = text.split(|&b| b == b'\n');
    let begin = lines.next()?;
    if !(begin.len() >= 20 && begin.starts_with(b"-----BEGIN PGP ") && begin.ends_with(b"-----")) {
        return None;
    }
    loop {
        let l = trim(lines.next()?);
        if l.is_empty() {
            break;
        }
        if !l.contains(&b':') {
            return None;
        }
    }
    let mut chars = Vec::new();
    loop {
        let raw = lines.next()?;
        let l = trim(raw);
        if l.first() == Some(&b'=') {
            // The CRC24 line, content ignored; blank lines, then the END line.
            let mut next = lines.next()?;
            while trim(next).is_empty() {
                next = lines.next()?;
            }
            if !next.starts_with(b"-----END PGP ") {
                return None;
            }
            break;
        }
        if l.first() == Some(&b'-') {
            if !raw.starts_with(b"-----END PGP ") {
                return None;
            }
            break;
        }
        chars.extend_from_slice(&l);
    }
    if chars.len() % 4 != 0 {
        return None;
    }
    let pad = chars.iter().rev().take_while(|&&c| c == b'=').count();
    if pad > 2 {
        return None;
    }
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::new();
    let body = &chars[..chars.len() - pad];
    for g in body.chunks(4) {
        let mut v = 0u32;
        for (k, &c) in g.iter().enumerate() {
            v |= val(c)? << (18 - 6 * k);
        }
        let b = v.to_be_bytes();
        out.extend_from_slice(&b[1..g.len()]);
    }
    Some(out)
}

/// For each octet of an armored text, how many base64 characters of the
/// body precede it (0 before the body; all of them from the CRC/END line on).
pub fn chars_before(text: &[u8]) -> Vec<usize> {
    let mut out = Vec::with_capacity(text.len());
    let (mut count, mut line, mut line_start) = (0usize, 0usize, true);
    let mut in_body = false;
    let mut done = false;
    for &b in text {
        out.push(count);
        if line_start && line == 2 {
            in_body = true;
        }
        if in_body && line_start && (b == b'=' || b == b'-') {
            done = true;
        }
        if in_body && !done && b != b'\n' {
            count += 1;
        }
        line_start = b == b'\n';
        if line_start {
            line += 1;
        }
    }
    out
}

/// Every single-bit flip of the last 40 characters (the checksum line, the
/// line before it and the END line) of 3,000 armored messages of varied
/// lengths and checksums: when the library's reader decodes a flipped text
/// to the original message, the reference must too.
#[test]
fn the_reader_accepts_no_flip_the_reference_refuses() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for n in 1..3000usize {
        let data: Vec<u8> = (0..n % 200 + 1)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let mut w = ArmorWriter::new(Vec::new(), MESSAGE, n % 3 != 0).unwrap();
        w.write_all(&data).unwrap();
        let text = w.finish().unwrap();
        for i in text.len().saturating_sub(40)..text.len() {
            for bit in 0..8 {
                let mut bad = text.clone();
                bad[i] ^= 1 << bit;
                let mut out = Vec::new();
                let same = ArmorReader::new(&bad[..]).read_to_end(&mut out).is_ok() && out == data;
                if same {
                    assert_eq!(
                        reference_dearmor(&bad).as_deref(),
                        Some(&data[..]),
                        "bit {bit} of octet {i}: {:?}",
                        String::from_utf8_lossy(&bad[i.saturating_sub(12)..])
                    );
                }
            }
        }
    }
}
