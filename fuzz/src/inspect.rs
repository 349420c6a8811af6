//! `inspect`: the packet inspection of arbitrary input, whole and read in
//! pieces, which must give the same report or both fail.

use tessera::openpgp::inspect::{Limits, inspect as look};

use super::common::Pieces;

/// Limits small enough for the fuzzer's memory and time bounds.
const LIMITS: Limits = Limits { max_packets: 1000, max_depth: 4, max_decompressed_size: Some(1 << 20) };

/// Inspects `data` whole and in pieces of 34 to 97 octets (the first octet
/// chooses; a cleartext-signed text is recognised by its first 34 octets).
pub fn inspect(data: &[u8]) {
    let whole = look(data, &LIMITS);
    let piece = 34 + usize::from(data.first().copied().unwrap_or(0) % 64);
    let pieces = look(Pieces { data, piece }, &LIMITS);
    match (&whole, &pieces) {
        (Ok(a), Ok(b)) => {
            assert!(!a.packets.is_empty(), "a report without packets");
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "whole and in pieces of {piece} differ");
        }
        (Err(_), Err(_)) => {}
        _ => panic!("whole: {:?}, in pieces of {piece}: {:?}", whole.map(|_| ()), pieces.map(|_| ())),
    }
}
