//! `armor_decode`: the armor reader and writer.

use std::io::Write;

use tessera::openpgp::armor::{self, ArmorReader, ArmorWriter};

use super::common::*;

/// The armor decoder on arbitrary text, whole and in pieces of 1 to 4096
/// octets with reads of 1 to 4096 octets: every split must give the same
/// result. Then the input as a payload: armor writer, then reader, gives
/// it back.
pub fn armor_decode(data: &[u8]) {
    let whole = decode_armor(data, usize::MAX, 4096);
    for (piece, step) in [(1, 1), (2, 3), (3, 4), (5, 2), (64, 7), (4096, 1), (1, 4096), (79, 76)] {
        let split = decode_armor(data, piece, step);
        assert_eq!(whole, split, "armor decodes differently in pieces of {piece} with reads of {step}");
    }
    let mut a = data;
    let mut b = Pieces { data, piece: 1 };
    assert_eq!(armor::is_armored(&mut a).ok(), armor::is_armored(&mut b).ok());

    for crc in [false, true] {
        let mut w = ArmorWriter::new(Vec::new(), armor::MESSAGE, crc).expect("Vec");
        for p in data.chunks(57) {
            w.write_all(p).expect("Vec");
        }
        let text = w.finish().expect("Vec");
        assert!(text.is_ascii());
        let mut r = ArmorReader::new(Pieces { data: &text, piece: 13 });
        assert_eq!(r.kind().expect("written armor"), armor::MESSAGE);
        assert_eq!(drain(&mut r, 100), Outcome::Ok(data.to_vec(), data.len()), "armor round trip (crc {crc})");
        assert!(armor::is_armored(&mut text.as_slice()).expect("slice"));
    }
}

fn decode_armor(data: &[u8], piece: usize, step: usize) -> (Outcome, Option<String>) {
    let mut r = ArmorReader::new(Pieces { data, piece });
    // (After an error the reader is not read again: what it does then is
    // unspecified.)
    match r.kind() {
        Ok(kind) => {
            let kind = kind.to_owned();
            (drain(&mut r, step), Some(kind))
        }
        Err(_) => (Outcome::Err, None),
    }
}
