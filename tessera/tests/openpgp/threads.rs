//! `threads` on EncryptOptions/DecryptOptions: any number of threads on
//! either side reads what any other wrote, armored or not, and a damaged
//! message fails the same way.

use std::io::{Read, Write};

use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, S2kChoice};

const PW: &[u8] = b"threads";

fn encrypt(data: &[u8], threads: usize, armor: bool) -> Vec<u8> {
    let opts = EncryptOptions {
        s2k: S2kChoice::Iterated { count_octet: 0 },
        chunk_octet: 6,
        armor,
        threads,
        ..EncryptOptions::default()
    };
    let mut e = Encryptor::new(Vec::new(), &[PW], &opts).unwrap();
    for piece in data.chunks(10_000) {
        e.write_all(piece).unwrap();
    }
    e.finish().unwrap()
}

fn decrypt(msg: &[u8], threads: usize) -> std::io::Result<Vec<u8>> {
    let opts = DecryptOptions { threads, ..DecryptOptions::default() };
    let mut d = Decryptor::with_options(msg, &[PW], &opts).map_err(std::io::Error::other)?;
    let mut out = Vec::new();
    d.read_to_end(&mut out)?;
    Ok(out)
}

#[test]
fn any_thread_count_reads_any_other() {
    let data: Vec<u8> = (0..300_001u32).map(|i| (i * 7 + i / 251) as u8).collect();
    for armor in [false, true] {
        for enc_threads in [1, 3, 0] {
            let msg = encrypt(&data, enc_threads, armor);
            for dec_threads in [1, 2, 4, 0] {
                assert_eq!(decrypt(&msg, dec_threads).unwrap(), data, "enc {enc_threads} dec {dec_threads}");
            }
        }
    }
}

#[test]
fn damage_is_rejected_with_threads() {
    let data = vec![0x5au8; 50_000];
    let msg = encrypt(&data, 2, false);
    for pos in [msg.len() / 2, msg.len() - 20, msg.len() - 1] {
        let mut bad = msg.clone();
        bad[pos] ^= 0x10;
        assert!(decrypt(&bad, 2).is_err(), "flip at {pos}");
    }
    assert!(decrypt(&msg[..msg.len() - 1], 3).is_err());
}
