//! Hardening: no public OpenPGP function panics, whatever it is given.
//! Every call returns `Ok` (and then round-trips) or a typed error.
//!
//! - `Decryptor` on arbitrary bytes, on armor-like text and on
//!   random edits of real messages (v2 OCB/EAX/GCM, v1, compressed,
//!   Argon2, binary and armored: xor, set, insert, delete, cut, duplicate
//!   and splice), where a success must give the original plaintext; the
//!   armor reader, the packet parser, SKESK, S2K and SEIPD headers on
//!   arbitrary bytes; the writers' constructors with arbitrary options.
//!
//! S2K work is kept small: Argon2 is limited through `DecryptOptions` to
//! 2^10 KiB and 3 passes; the iterated count cannot be limited (see the
//! report), so the direct S2K properties cap the count octet themselves.

use crate::common;

use common::{bytes, config};
use std::io::{Read, Write};
use std::sync::OnceLock;

use proptest::collection::vec;
use proptest::prelude::*;
use tessera::aead::Mode;
use tessera::openpgp::SessionKey;
use tessera::openpgp::armor::{ArmorReader, ArmorWriter, MESSAGE};
use tessera::openpgp::packet::{BodyReader, PartialWriter, read_header, tag, write_packet};
use tessera::openpgp::s2k::{HashAlg, S2k, S2kLimits};
use tessera::openpgp::seipd::{ChunkOpener, ChunkSealer, MdcOpener, MdcSealer, V2Header};
use tessera::openpgp::skesk::Skesk;
use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, Profile, S2kChoice, SymAlg};

// ---------------------------------------------------------------- OpenPGP

const PW: &[u8] = b"pw";

fn decrypt_options() -> DecryptOptions {
    DecryptOptions {
        limits: S2kLimits { max_argon2_m: 10, max_argon2_t: 3, max_iterated_count: 96, ..S2kLimits::default() },
        ..DecryptOptions::default()
    }
}

/// Decrypts to the end; `Ok` with the plaintext or any error.
fn open(msg: &[u8]) -> Result<Vec<u8>, tessera::openpgp::Error> {
    let mut d = Decryptor::with_options(msg, &[PW], &decrypt_options())?;
    let _ = (d.literal(), d.session_key(), d.seipd_version(), format!("{d:?}"));
    let mut out = Vec::new();
    d.read_to_end(&mut out).map_err(tessera::openpgp::Error::from_io)?;
    Ok(out)
}

const PLAIN_LEN: usize = 300;

fn plain() -> Vec<u8> {
    (0..PLAIN_LEN).map(|i| if i < 150 { (i * 37 % 251) as u8 } else { b'z' }).collect()
}

/// Real messages to mutate: v2 with each mode, binary and armored, v1,
/// Argon2, compressed (ZIP and ZLIB); all open to `plain()`.
fn corpus() -> &'static [Vec<u8>] {
    static C: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    C.get_or_init(|| {
        let mut out = Vec::new();
        let iter = S2kChoice::Iterated { count_octet: 0 };
        for (profile, aead, cipher, s2k, armor) in [
            (Profile::Rfc9580, Mode::Ocb, SymAlg::Aes128, iter, false),
            (Profile::Rfc9580, Mode::Eax, SymAlg::Aes192, iter, true),
            (Profile::Rfc9580, Mode::Gcm, SymAlg::Aes256, iter, false),
            (Profile::Rfc9580, Mode::Ocb, SymAlg::Aes256, S2kChoice::Argon2 { t: 1, p: 1, m: 3 }, false),
            (Profile::Rfc4880, Mode::Ocb, SymAlg::Aes128, iter, false),
            (Profile::Rfc4880, Mode::Ocb, SymAlg::Aes256, iter, true),
        ] {
            let opts = EncryptOptions {
                profile,
                aead,
                cipher,
                s2k,
                armor,
                chunk_octet: 0,
                filename: b"f".to_vec(),
                ..EncryptOptions::default()
            };
            let mut e = Encryptor::new(Vec::new(), &[PW], &opts).unwrap();
            e.write_all(&plain()).unwrap();
            out.push(e.finish().unwrap());
        }
        for alg in [1u8, 2] {
            let mut lit = Vec::new();
            write_packet(&mut lit, tag::LITERAL, &[&[b'b', 1, b'f', 0, 0, 0, 0][..], &plain()].concat()).unwrap();
            let mut body = vec![alg];
            body.extend(if alg == 1 {
                let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
                e.write_all(&lit).unwrap();
                e.finish().unwrap()
            } else {
                let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
                e.write_all(&lit).unwrap();
                e.finish().unwrap()
            });
            let mut inner = Vec::new();
            write_packet(&mut inner, tag::COMPRESSED, &body).unwrap();
            let sk = [4u8; 16];
            let s2k = S2k::Iterated { hash: HashAlg::Sha256, salt: [1; 8], count: 0 };
            let skesk = Skesk::seal_v6(&sk, PW, SymAlg::Aes128, Mode::Eax, s2k, &[2; 16]).unwrap();
            let mut pkt = Vec::new();
            skesk.write(&mut pkt);
            let mut msg = Vec::new();
            write_packet(&mut msg, tag::SKESK, &pkt).unwrap();
            let header = V2Header { cipher: SymAlg::Aes128, aead: Mode::Eax, chunk_octet: 0, salt: [5; 32] };
            let mut seipd = PartialWriter::new(&mut msg, tag::SEIPD);
            seipd.write_all(&header.encode()).unwrap();
            let mut s = ChunkSealer::new(seipd, &header, &sk).unwrap();
            s.write_all(&inner).unwrap();
            s.finish().unwrap().finish().unwrap();
            if alg == 2 {
                let mut w = ArmorWriter::new(Vec::new(), MESSAGE, true).unwrap();
                w.write_all(&msg).unwrap();
                msg = w.finish().unwrap();
            }
            out.push(msg);
        }
        for m in &out {
            assert_eq!(open(m).unwrap(), plain());
        }
        out
    })
}

#[derive(Debug, Clone)]
enum Edit {
    Xor(prop::sample::Index, u8),
    Set(prop::sample::Index, u8),
    Insert(prop::sample::Index, Vec<u8>),
    Delete(prop::sample::Index, usize),
    Cut(prop::sample::Index),
    Duplicate(prop::sample::Index, usize),
    Splice(prop::sample::Index, usize, prop::sample::Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    use prop::sample::Index;
    prop_oneof![
        4 => (any::<Index>(), 1u8..=255).prop_map(|(i, b)| Edit::Xor(i, b)),
        3 => (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Set(i, b)),
        2 => (any::<Index>(), bytes(8)).prop_map(|(i, b)| Edit::Insert(i, b)),
        2 => (any::<Index>(), 1usize..40).prop_map(|(i, n)| Edit::Delete(i, n)),
        1 => any::<Index>().prop_map(Edit::Cut),
        1 => (any::<Index>(), 1usize..100).prop_map(|(i, n)| Edit::Duplicate(i, n)),
        1 => (any::<Index>(), 1usize..100, any::<Index>()).prop_map(|(i, n, j)| Edit::Splice(i, n, j)),
    ]
}

fn apply(msg: &mut Vec<u8>, e: &Edit, other: &[u8]) {
    let at = |i: &prop::sample::Index, len: usize| i.index(len + 1);
    match e {
        Edit::Xor(i, b) if !msg.is_empty() => {
            let k = i.index(msg.len());
            msg[k] ^= b;
        }
        Edit::Set(i, b) if !msg.is_empty() => {
            let k = i.index(msg.len());
            msg[k] = *b;
        }
        Edit::Insert(i, b) => {
            let k = at(i, msg.len());
            msg.splice(k..k, b.iter().copied());
        }
        Edit::Delete(i, n) => {
            let k = at(i, msg.len());
            msg.drain(k..(k + n).min(msg.len()));
        }
        Edit::Cut(i) => msg.truncate(at(i, msg.len())),
        Edit::Duplicate(i, n) => {
            let k = at(i, msg.len());
            let piece = msg[k..(k + n).min(msg.len())].to_vec();
            msg.splice(k..k, piece);
        }
        Edit::Splice(i, n, j) => {
            let k = at(i, msg.len());
            let from = j.index(other.len() + 1);
            let piece = &other[from..(from + n).min(other.len())];
            let end = (k + piece.len()).min(msg.len());
            msg.splice(k..end, piece.iter().copied());
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(config(1000))]

    /// Random edits of real messages: never a panic, and a success (an
    /// edit the format ignores, such as the CRC24 or the END label) gives
    /// exactly the original plaintext.
    #[test]
    fn mutated_messages_never_panic(
        which in any::<prop::sample::Index>(),
        donor in any::<prop::sample::Index>(),
        edits in vec(edit(), 1..5),
    ) {
        let corpus = corpus();
        let mut msg = corpus[which.index(corpus.len())].clone();
        let other = &corpus[donor.index(corpus.len())];
        for e in &edits {
            apply(&mut msg, e, other);
        }
        if let Ok(out) = open(&msg) {
            prop_assert_eq!(out, plain(), "a modified message opened to other data");
        }
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn arbitrary_bytes_never_panic(
        data in bytes(400),
        prefix in prop_oneof![
            Just(Vec::new()),
            Just(b"-----BEGIN PGP MESSAGE-----\n\n".to_vec()),
            Just(b"  \n-----BEGIN PGP MESSAGE-----\nComment: x\n\n".to_vec()),
            vec(prop_oneof![Just(0xc3u8), Just(0xd2), Just(0xcb), Just(0xc8), Just(0x8c), Just(0xa3), Just(0xff), Just(0xe0)], 1..3),
        ],
        b64 in any::<bool>(),
    ) {
        let mut input = prefix.clone();
        if b64 && !prefix.is_empty() && prefix[0] != 0xc3 {
            input.extend(data.iter().map(|b| b"ABCDwxyz0189+/=\n-\r :"[(*b % 20) as usize]));
        } else {
            input.extend_from_slice(&data);
        }
        let _ = open(&input);
        // The armor reader and the packet parser on their own.
        let mut a = ArmorReader::new(input.as_slice());
        let _ = a.kind().map(|k| k.len());
        let _ = a.read_to_end(&mut Vec::new());
        let mut r = input.as_slice();
        for _ in 0..20 {
            match read_header(&mut r) {
                Ok(Some(h)) => {
                    let mut body = BodyReader::new(&mut r, h.len);
                    let _ = body.is_done();
                    if body.skip_rest().is_err() { break; }
                }
                _ => break,
            }
        }
        // Session key packets and S2K specifiers; the iterated count is capped
        // here (nothing in the API can cap it; see the report).
        if let Ok(s) = Skesk::parse(&input) {
            let cheap = match &s {
                Skesk::V6 { s2k, .. } | Skesk::V4 { s2k, .. } => !matches!(s2k, S2k::Iterated { count, .. } if *count > 0x60),
            };
            let mut w = Vec::new();
            s.write(&mut w);
            if cheap {
                let _ = s.decrypt(PW, &decrypt_options().limits);
            }
        }
        if let Ok((s2k, used)) = S2k::parse(&input) {
            prop_assert!(used <= input.len() && used == s2k.encoded_len());
            if !matches!(s2k, S2k::Iterated { count, .. } if count > 0x60) {
                for len in [0, 1, 16, 32, 64, 65] {
                    let _ = s2k.derive(PW, len, &decrypt_options().limits);
                }
            }
        }
        if input.len() >= 35 {
            let _ = V2Header::parse(input[..35].try_into().unwrap());
        }
    }

    #[test]
    fn seipd_layers_never_panic(
        head: [u8; 35],
        key in bytes(40),
        body in bytes(300),
        prefix: [u8; 18],
    ) {
        // A valid header half of the time, so the chunk layer is reached.
        let header = V2Header::parse(&head).unwrap_or(V2Header { cipher: SymAlg::Aes128, aead: Mode::Gcm, chunk_octet: head[2] % 3, salt: [0; 32] });
        if let Ok(mut o) = ChunkOpener::new(body.as_slice(), &header, &key) {
            let _ = o.read_to_end(&mut Vec::new());
        }
        if let Ok(mut o) = MdcOpener::with_prefix(body.as_slice(), &key, &prefix) {
            let _ = o.read_to_end(&mut Vec::new());
        }
        if let Ok(mut s) = ChunkSealer::new(Vec::new(), &header, &key) {
            s.write_all(&body).unwrap();
            let sealed = s.finish().unwrap();
            let mut back = Vec::new();
            ChunkOpener::new(sealed.as_slice(), &header, &key).unwrap().read_to_end(&mut back).unwrap();
            prop_assert_eq!(back, body.clone());
        }
        if let Ok(mut s) = MdcSealer::new(Vec::new(), &key) {
            s.write_all(&body).unwrap();
            s.finish().unwrap();
        }
        // A session key of any length given directly.
        let opts = DecryptOptions { session_key: Some(SessionKey { alg: None, key: key.clone().into() }), ..decrypt_options() };
        let msg = &corpus()[0];
        let _ = Decryptor::with_options(msg.as_slice(), &[], &opts).map(|mut d| d.read_to_end(&mut Vec::new()));
    }

    #[test]
    fn writers_refuse_bad_options_without_panicking(
        session_key in bytes(40),
        iv in bytes(20),
        cipher in prop_oneof![Just(SymAlg::Aes128), Just(SymAlg::Aes192), Just(SymAlg::Aes256)],
        aead in prop_oneof![Just(Mode::Ocb), Just(Mode::Eax), Just(Mode::Gcm)],
        chunk_octet in 0u8..=20,
        filename in prop_oneof![bytes(10), Just(vec![b'x'; 256])],
        argon in (0u8..3, 0u8..5, prop_oneof![0u8..6, 32u8..=255]),
        profile in prop_oneof![Just(Profile::Rfc9580), Just(Profile::Rfc4880)],
        iterated in any::<bool>(),
        armor in any::<bool>(),
    ) {
        let s2k = S2k::Iterated { hash: HashAlg::Sha256, salt: [1; 8], count: 0 };
        if let Ok(s) = Skesk::seal_v6(&session_key, PW, cipher, aead, s2k.clone(), &iv) {
            let _ = s.decrypt(PW, &S2kLimits::default());
        }
        let _ = Skesk::seal_v4(&session_key, cipher, PW, cipher, s2k);
        let (t, p, m) = argon;
        let s2k = if iterated { S2kChoice::Iterated { count_octet: 0 } } else { S2kChoice::Argon2 { t, p, m } };
        let opts = EncryptOptions { profile, cipher, aead, chunk_octet, s2k, armor, filename, ..EncryptOptions::default() };
        if let Ok(mut e) = Encryptor::new(Vec::new(), &[PW], &opts) {
            e.write_all(&plain()).unwrap();
            let msg = e.finish().unwrap();
            prop_assert_eq!(open(&msg).unwrap(), plain());
        }
    }
}
