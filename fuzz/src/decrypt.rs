//! `decrypt_password` and `decrypt_session_key`: the whole decryptor.

use std::io::{BufRead, Read, Write};

use tessera::aead::Mode;
use tessera::openpgp::armor::{self, ArmorReader};
use tessera::openpgp::packet::{self, BodyReader, PartialWriter, tag};
use tessera::openpgp::s2k::{S2k, decode_count};
use tessera::openpgp::seipd::{ChunkSealer, MdcSealer, V2Header};
use tessera::openpgp::skesk::Skesk;
use tessera::openpgp::{DecryptOptions, Decryptor, SessionKey, SymAlg};

use super::common::*;

/// The whole decryptor on arbitrary bytes (armored or binary) with the
/// password `password`, reading all the output. Argon2 is limited to
/// 1 MiB and 4 passes, iterated S2K to count octet 96 (65536 octets);
/// messages whose S2K packets would still cost more than 4 MiB of work
/// in total (many SKESK packets) are skipped.
///
/// Returns whether the message decrypted (for the seed tests).
pub fn decrypt_password(data: &[u8]) -> bool {
    if s2k_cost(data) > S2K_BUDGET {
        return false;
    }
    let opts = DecryptOptions { limits: FUZZ_LIMITS, v1_buffer_limit: 1 << 20, ..DecryptOptions::default() };
    decrypt(Pieces { data, piece: usize::MAX }, &[PASSWORD], &opts, 4096).is_ok()
}

/// The S2K work that the SKESK packets before the encrypted data ask for.
pub fn s2k_cost(data: &[u8]) -> u64 {
    let mut input = data;
    let armored = armor::is_armored(&mut input).unwrap_or(false);
    let mut src: Box<dyn Read + '_> = if armored { Box::new(ArmorReader::new(input)) } else { Box::new(input) };
    let mut total = 0u64;
    for _ in 0..100 {
        let Ok(Some(h)) = packet::read_header(&mut src) else { break };
        if h.tag == tag::SEIPD {
            break;
        }
        let mut reader = BodyReader::new(&mut src, h.len);
        let mut body = Vec::new();
        if (&mut reader).take(1024).read_to_end(&mut body).is_err() || reader.skip_rest().is_err() {
            break;
        }
        if h.tag != tag::SKESK {
            continue;
        }
        let (Ok(Skesk::V6 { s2k, .. }) | Ok(Skesk::V4 { s2k, .. })) = Skesk::parse(&body) else { continue };
        total += match s2k {
            // Two hash contexts at most (SHA-1 for a 256-bit key).
            S2k::Simple { .. } | S2k::Salted { .. } => 2 * 64,
            // Counts above the limit are refused before any hashing.
            S2k::Iterated { count, .. } if count > FUZZ_LIMITS.max_iterated_count => 0,
            S2k::Iterated { count, .. } => 2 * decode_count(count) as u64,
            S2k::Argon2 { t, m, .. } => {
                if m > FUZZ_LIMITS.max_argon2_m || t > FUZZ_LIMITS.max_argon2_t {
                    0 // refused before any work
                } else {
                    (1024u64 << m.min(40)) * t as u64
                }
            }
        };
    }
    total
}

/// Opens and reads a whole message; checks the accessors.
fn decrypt<R: BufRead>(input: R, passwords: &[&[u8]], opts: &DecryptOptions, step: usize) -> Outcome {
    let mut dec = match Decryptor::with_options(input, passwords, opts) {
        Ok(d) => d,
        Err(e) => {
            let _ = e.to_string();
            return Outcome::Err;
        }
    };
    let _ = format!("{dec:?}");
    assert!(dec.literal().filename.len() <= 255);
    let sk = dec.session_key();
    assert!(matches!(sk.key.len(), 16 | 24 | 32), "session key of {} octets", sk.key.len());
    assert!(sk.alg.is_some());
    let _ = dec.seipd_version();
    drain(&mut dec, step)
}
/// The decryptor with a fixed session key, which gets past key derivation
/// and, by building valid encrypted packets around fuzzer-chosen
/// plaintext, past authentication to the inner packet parsing (literal,
/// compressed, padding... packets).
///
/// The first octet selects the mode:
/// - `% 3 == 0`: the rest is a whole message, read in pieces;
/// - `% 3 == 1`: the rest is a plaintext packet stream, sealed in SEIPD v1
///   (CFB + MDC): buffered and streamed decryption must agree;
/// - `% 3 == 2`: three parameter octets (cipher, AEAD, chunk size) then a
///   plaintext packet stream, sealed in SEIPD v2: it must decrypt as the
///   same stream sealed in v1 does.
///
/// Returns whether the message decrypted (for the seed tests).
pub fn decrypt_session_key(data: &[u8]) -> bool {
    let Some((&sel, rest)) = data.split_first() else { return false };
    match sel % 3 {
        0 => {
            let alg = [None, Some(SymAlg::Aes128), Some(SymAlg::Aes192), Some(SymAlg::Aes256)][(sel >> 2) as usize & 3];
            let key_len = alg.map_or(16, SymAlg::key_len);
            let piece = [usize::MAX, 1, 7, 512][(sel >> 4) as usize & 3];
            let opts = session_key_opts(alg, key_len, sel & 0x40 != 0);
            decrypt(Pieces { data: rest, piece }, &[], &opts, 1 + (sel as usize >> 7) * 4095).is_ok()
        }
        1 => {
            let alg = [SymAlg::Aes128, SymAlg::Aes192, SymAlg::Aes256, SymAlg::Aes128][(sel >> 2) as usize & 3];
            let msg = seal_v1(rest, alg, sel & 0x10 != 0);
            let buffered = decrypt(msg.as_slice(), &[], &session_key_opts(Some(alg), alg.key_len(), false), 4096);
            let streamed = decrypt(msg.as_slice(), &[], &session_key_opts(Some(alg), alg.key_len(), true), 333);
            assert_eq!(buffered.is_ok(), streamed.is_ok(), "SEIPD v1 buffered {buffered:?}, streamed {streamed:?}");
            if buffered.is_ok() {
                assert_eq!(buffered, streamed);
            }
            buffered.is_ok()
        }
        _ => {
            let mut rest = rest;
            let p = take(&mut rest, 3);
            let cipher = [SymAlg::Aes128, SymAlg::Aes192, SymAlg::Aes256][*p.first().unwrap_or(&0) as usize % 3];
            let aead = [Mode::Ocb, Mode::Eax, Mode::Gcm][*p.get(1).unwrap_or(&0) as usize % 3];
            let c = *p.get(2).unwrap_or(&0);
            // Mostly small chunks, so that messages have several.
            let chunk_octet = if c & 0x80 == 0 { c % 3 } else { c % 11 };
            let header = V2Header { cipher, aead, chunk_octet, salt: V2_SALT };
            let msg = seal_v2(rest, &header, sel & 0x10 != 0, sel & 0x20 != 0);
            let alg = if sel & 0x40 != 0 { Some(cipher) } else { None };
            let v2 = decrypt(msg.as_slice(), &[], &session_key_opts(alg, cipher.key_len(), false), 1000);
            let v1_msg = seal_v1(rest, cipher, false);
            let v1 = decrypt(v1_msg.as_slice(), &[], &session_key_opts(Some(cipher), cipher.key_len(), true), 4096);
            assert_eq!(v2.is_ok(), v1.is_ok(), "the same plaintext: SEIPD v2 {v2:?}, v1 {v1:?}");
            if v2.is_ok() {
                assert_eq!(v2, v1);
            }
            v2.is_ok()
        }
    }
}

fn session_key_opts(alg: Option<SymAlg>, key_len: usize, stream: bool) -> DecryptOptions {
    DecryptOptions {
        limits: FUZZ_LIMITS,
        session_key: Some(SessionKey { alg, key: SESSION_KEY[..key_len].to_vec().into() }),
        session_keys: Vec::new(),
        keys: Vec::new(),
        v1_buffer_limit: 1 << 20,
        v1_stream_unauthenticated: stream,
        v1_quick_check: true,
        max_decompressed_size: Some(MAX_OUTPUT as u64),
        // One thread: deterministic runs; the threaded path has its own tests.
        threads: 1,
    }
}

/// A SEIPD v1 packet holding `plain` under the fixed session key.
pub fn seal_v1(plain: &[u8], alg: SymAlg, partial: bool) -> Vec<u8> {
    let mut body = vec![1u8];
    let mut s = MdcSealer::new(&mut body, &SESSION_KEY[..alg.key_len()]).expect("valid key");
    s.write_all(plain).expect("Vec");
    s.finish().expect("Vec");
    packet_of(tag::SEIPD, &body, partial)
}

/// A SEIPD v2 packet holding `plain` under the fixed session key.
pub fn seal_v2(plain: &[u8], header: &V2Header, partial: bool, empty_chunk: bool) -> Vec<u8> {
    let mut body = header.encode().to_vec();
    let mut s = ChunkSealer::new(&mut body, header, &SESSION_KEY[..header.cipher.key_len()]).expect("valid key");
    s.empty_chunk_when_empty(empty_chunk);
    s.write_all(plain).expect("Vec");
    s.finish().expect("Vec");
    packet_of(tag::SEIPD, &body, partial)
}

fn packet_of(t: u8, body: &[u8], partial: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if partial {
        let mut w = PartialWriter::new(&mut out, t);
        w.write_all(body).expect("Vec");
        w.finish().expect("Vec");
    } else {
        packet::write_packet(&mut out, t, body).expect("Vec");
    }
    out
}
