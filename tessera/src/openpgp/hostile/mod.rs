//! Hostile messages, for the tests and the fuzz seeds: signed packet
//! streams laid out in each way the message grammar of RFC 9580 §10.3
//! forbids (and the layouts it allows, to compare), compressed and not,
//! and password-encrypted messages whose end (final tag, last chunk, MDC)
//! is removed or altered.
//!
//! ```
//! use tessera::openpgp::hostile::{PASSWORD, Shape, Signed, Tamper, encrypt};
//! use tessera::openpgp::key::{GenerateOptions, generate};
//! use tessera::openpgp::{DecryptOptions, VerifyingDecryptor};
//! let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
//! let signed = Signed::new(&key, b"data", 1_700_000_001)?;
//! let certs = [key.to_public()];
//! let opts = DecryptOptions::default();
//! let good = encrypt(&Shape::CompressedSigned.build(&signed), 2, Tamper::None);
//! let dec = VerifyingDecryptor::new(good.as_slice(), &[PASSWORD], &opts, &certs, 1_700_000_002)?;
//! assert!(dec.finish().is_ok());
//! let cut = encrypt(&Shape::CompressedSigned.build(&signed), 2, Tamper::DropEnd);
//! let dec = VerifyingDecryptor::new(cut.as_slice(), &[PASSWORD], &opts, &certs, 1_700_000_002)?;
//! assert!(dec.finish().is_err());
//! # Ok::<(), tessera::openpgp::Error>(())
//! ```

use std::io::Write;

use flate2::Compression;
use flate2::write::DeflateEncoder;

use super::key::Cert;
use super::packet::{BodyReader, read_header, tag, write_packet};
use super::s2k::{HashAlg, S2k};
use super::seipd::{ChunkSealer, MdcSealer, V2Header};
use super::sig::{InlineSigner, SigType, Signer, SigningKey};
use super::skesk::Skesk;
use super::{Result, SymAlg};
use crate::aead::Mode;

mod clear;
pub use clear::{Clear, ClearSigned, cleartext};

/// The password of the messages [`encrypt`] makes.
///
/// ```
/// assert_eq!(tessera::openpgp::hostile::PASSWORD, b"password");
/// ```
pub const PASSWORD: &[u8] = b"password";

/// The session key of the messages [`encrypt`] makes (AES-128).
///
/// ```
/// use tessera::openpgp::hostile::{SESSION_KEY, Tamper, encrypt, literal};
/// use tessera::openpgp::{DecryptOptions, Decryptor};
/// let m = encrypt(&literal(b"hi"), 2, Tamper::None);
/// let dec = Decryptor::with_options(m.as_slice(), &[b"password".as_slice()], &DecryptOptions::default())?;
/// assert_eq!(dec.session_key().key.as_slice(), SESSION_KEY);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub const SESSION_KEY: [u8; 16] = [0x42; 16];

/// One packet: a new-format header with a fixed length, then `body`.
///
/// ```
/// assert_eq!(tessera::openpgp::hostile::packet(21, b"pad"), [0xd5, 3, b'p', b'a', b'd']);
/// ```
pub fn packet(t: u8, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    write_packet(&mut out, t, body).expect("writing to a Vec");
    out
}

/// A compressed data packet (ZIP) holding `inner`, with `junk` after the
/// end of the deflate stream inside the packet.
///
/// ```
/// let p = tessera::openpgp::hostile::compressed(b"", b"");
/// assert_eq!((p[0], p[2]), (0xc8, 1)); // tag 8, algorithm ZIP
/// ```
pub fn compressed(inner: &[u8], junk: &[u8]) -> Vec<u8> {
    let mut enc = DeflateEncoder::new(vec![1u8], Compression::default());
    enc.write_all(inner).expect("writing to a Vec");
    let mut body = enc.finish().expect("writing to a Vec");
    body.extend_from_slice(junk);
    packet(tag::COMPRESSED, &body)
}

/// A literal data packet (binary, no name, no date) holding `data`.
///
/// ```
/// assert_eq!(tessera::openpgp::hostile::literal(b"x"), [0xcb, 7, b'b', 0, 0, 0, 0, 0, b'x']);
/// ```
pub fn literal(data: &[u8]) -> Vec<u8> {
    let mut body = vec![b'b', 0, 0, 0, 0, 0];
    body.extend_from_slice(data);
    packet(tag::LITERAL, &body)
}

/// The three packets of a message signed by one key, each whole.
///
/// ```
/// use tessera::openpgp::hostile::{Shape, Signed};
/// let s = Signed { one_pass: vec![1], literal: vec![2], signature: vec![3] };
/// assert_eq!(Shape::Signed.build(&s)[..3], [1, 2, 3]);
/// ```
#[derive(Debug, Clone)]
pub struct Signed {
    /// The one-pass signature packet.
    pub one_pass: Vec<u8>,
    /// The literal data packet.
    pub literal: Vec<u8>,
    /// The signature packet.
    pub signature: Vec<u8>,
}

impl Signed {
    /// `data` signed (binary) by `key`'s signing key at `now`.
    ///
    /// ```
    /// use tessera::openpgp::hostile::Signed;
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions { created: Some(1_700_000_000), ..Default::default() })?;
    /// let s = Signed::new(&key, b"data", 1_700_000_001)?;
    /// assert_eq!((s.one_pass[0], s.literal[0], s.signature[0]), (0xc4, 0xcb, 0xc2));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn new(key: &Cert, data: &[u8], now: u64) -> Result<Signed> {
        let keys = SigningKey::from_cert(key, now)?;
        let mut w = InlineSigner::new(Vec::new(), Signer::new(&keys, SigType::Binary, now as u32)?)?;
        w.write_all(data).map_err(super::Error::from_io)?;
        let message = w.finish()?;
        let mut parts = split(&message).into_iter().map(|(t, body)| packet(t, &body));
        let mut next = || parts.next().expect("an inline-signed message has three packets");
        Ok(Signed { one_pass: next(), literal: next(), signature: next() })
    }
}

/// Splits a packet stream into (tag, body) pairs.
fn split(mut stream: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut out = Vec::new();
    while let Some(h) = read_header(&mut stream).expect("a packet stream") {
        let mut body = Vec::new();
        std::io::Read::read_to_end(&mut BodyReader::new(&mut stream, h.len), &mut body).expect("a whole packet");
        out.push((h.tag, body));
    }
    out
}

/// The layouts of a signed message's packets: [`Shape::is_valid`] tells
/// which the grammar allows.
///
/// ```
/// use tessera::openpgp::hostile::{Shape, Signed};
/// let s = Signed { one_pass: vec![1], literal: vec![2], signature: vec![3] };
/// assert_eq!(Shape::SignatureFirst.build(&s), [3, 2]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One-pass signature, literal data, signature, then a padding packet
    /// (longer than a chunk).
    Signed,
    /// A compressed data packet holding one-pass signature, literal data and
    /// signature (how GnuPG signs by default), then a padding packet
    /// (longer than a chunk).
    CompressedSigned,
    /// The signature before the literal data, no one-pass signature.
    SignatureFirst,
    /// A one-pass signature outside a compressed data packet that holds the
    /// literal data and the signature.
    OnePassOutside,
    /// A compressed data packet holding the one-pass signature and the
    /// literal data, the signature after it.
    SignatureOutside,
    /// Two one-pass signatures, one signature.
    ExtraOnePass,
    /// One one-pass signature, two signatures.
    ExtraSignature,
    /// A signature after the literal data with no one-pass signature.
    SignatureWithoutOnePass,
    /// A signed compressed data packet, then an unsigned literal data packet.
    LiteralAfterCompressed,
    /// A signed message, then a second literal data packet.
    SecondLiteral,
    /// A signed compressed data packet with octets after the end of its
    /// deflate stream.
    DataAfterDeflate,
    /// A compressed data packet inside a compressed data packet, holding
    /// one-pass signature, literal data and signature.
    NestedCompressed,
}

impl Shape {
    /// Every shape.
    ///
    /// ```
    /// use tessera::openpgp::hostile::Shape;
    /// assert_eq!(Shape::ALL.iter().filter(|s| s.is_valid()).count(), 4);
    /// ```
    pub const ALL: [Shape; 12] = [
        Shape::Signed,
        Shape::CompressedSigned,
        Shape::SignatureFirst,
        Shape::OnePassOutside,
        Shape::SignatureOutside,
        Shape::ExtraOnePass,
        Shape::ExtraSignature,
        Shape::SignatureWithoutOnePass,
        Shape::LiteralAfterCompressed,
        Shape::SecondLiteral,
        Shape::DataAfterDeflate,
        Shape::NestedCompressed,
    ];

    /// Whether RFC 9580 §10.3 allows the shape.
    ///
    /// ```
    /// use tessera::openpgp::hostile::Shape;
    /// assert!(Shape::CompressedSigned.is_valid() && !Shape::OnePassOutside.is_valid());
    /// ```
    pub fn is_valid(self) -> bool {
        matches!(self, Shape::Signed | Shape::CompressedSigned | Shape::SignatureFirst | Shape::NestedCompressed)
    }

    /// A file-name-friendly name.
    ///
    /// ```
    /// assert_eq!(tessera::openpgp::hostile::Shape::ExtraOnePass.name(), "extra_one_pass");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Shape::Signed => "signed",
            Shape::CompressedSigned => "compressed_signed",
            Shape::SignatureFirst => "signature_first",
            Shape::OnePassOutside => "one_pass_outside",
            Shape::SignatureOutside => "signature_outside",
            Shape::ExtraOnePass => "extra_one_pass",
            Shape::ExtraSignature => "extra_signature",
            Shape::SignatureWithoutOnePass => "signature_without_one_pass",
            Shape::LiteralAfterCompressed => "literal_after_compressed",
            Shape::SecondLiteral => "second_literal",
            Shape::DataAfterDeflate => "data_after_deflate",
            Shape::NestedCompressed => "nested_compressed",
        }
    }

    /// The packet stream of `s` laid out this way.
    ///
    /// ```
    /// use tessera::openpgp::hostile::{Shape, Signed};
    /// let s = Signed { one_pass: vec![1], literal: vec![2], signature: vec![3] };
    /// assert_eq!(Shape::ExtraSignature.build(&s), [1, 2, 3, 3]);
    /// ```
    pub fn build(self, s: &Signed) -> Vec<u8> {
        let (o, l, g) = (s.one_pass.as_slice(), s.literal.as_slice(), s.signature.as_slice());
        // Longer than a chunk of [`encrypt`]'s messages: the data ends in an
        // earlier chunk than the final tag.
        let padding = packet(tag::PADDING, &[0u8; 200]);
        let all = [o, l, g].concat();
        match self {
            Shape::Signed => [o, l, g, &padding].concat(),
            Shape::CompressedSigned => [compressed(&all, b""), padding].concat(),
            Shape::SignatureFirst => [g, l].concat(),
            Shape::OnePassOutside => [o, &compressed(&[l, g].concat(), b"")].concat(),
            Shape::SignatureOutside => [&compressed(&[o, l].concat(), b"")[..], g].concat(),
            Shape::ExtraOnePass => [o, o, l, g].concat(),
            Shape::ExtraSignature => [o, l, g, g].concat(),
            Shape::SignatureWithoutOnePass => [l, g].concat(),
            Shape::LiteralAfterCompressed => [compressed(&all, b""), literal(b"unsigned")].concat(),
            Shape::SecondLiteral => [&all[..], &literal(b"unsigned")].concat(),
            Shape::DataAfterDeflate => compressed(&all, b"unsigned data after the deflate stream"),
            Shape::NestedCompressed => compressed(&compressed(&all, b""), b""),
        }
    }
}

/// What [`encrypt`] does to the end of the encrypted data.
///
/// ```
/// use tessera::openpgp::hostile::{Tamper, encrypt, literal};
/// let intact = encrypt(&literal(b"x"), 2, Tamper::None);
/// assert_eq!(encrypt(&literal(b"x"), 2, Tamper::DropEnd).len(), intact.len() - 16);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tamper {
    /// Nothing: a well-formed message.
    None,
    /// Removes the final tag (SEIPD v2) or the MDC packet (v1).
    DropEnd,
    /// Zeroes the final tag (v2) or the MDC's hash (v1).
    ZeroEnd,
    /// Changes the last octet of the last chunk (v2) or of the plaintext (v1).
    LastChunk,
    /// Cuts the encrypted data in half.
    Truncate,
}

impl Tamper {
    /// Every way, `None` first.
    ///
    /// ```
    /// assert_eq!(tessera::openpgp::hostile::Tamper::ALL.len(), 5);
    /// ```
    pub const ALL: [Tamper; 5] = [Tamper::None, Tamper::DropEnd, Tamper::ZeroEnd, Tamper::LastChunk, Tamper::Truncate];

    /// A file-name-friendly name.
    ///
    /// ```
    /// assert_eq!(tessera::openpgp::hostile::Tamper::ZeroEnd.name(), "zero_end");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Tamper::None => "intact",
            Tamper::DropEnd => "drop_end",
            Tamper::ZeroEnd => "zero_end",
            Tamper::LastChunk => "last_chunk",
            Tamper::Truncate => "truncate",
        }
    }
}

/// `plain` (a packet stream) encrypted for [`PASSWORD`] with
/// [`SESSION_KEY`] in a SEIPD packet of `version` 1 (SKESK v4, MDC) or 2
/// (SKESK v6, AES-128 OCB, 64-octet chunks), then altered by `tamper`.
/// Cheap S2K (iterated, count octet 0).
///
/// ```
/// use tessera::openpgp::hostile::{PASSWORD, Tamper, encrypt, literal};
/// use tessera::openpgp::Decryptor;
/// let m = encrypt(&literal(b"hi"), 1, Tamper::None);
/// let mut out = Vec::new();
/// std::io::Read::read_to_end(&mut Decryptor::new(m.as_slice(), &[PASSWORD])?, &mut out)?;
/// assert_eq!(out, b"hi");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encrypt(plain: &[u8], version: u8, tamper: Tamper) -> Vec<u8> {
    let s2k = S2k::Iterated { hash: HashAlg::Sha256, salt: [7; 8], count: 0 };
    let (skesk, mut body) = if version == 1 {
        let skesk = Skesk::seal_v4(&SESSION_KEY, SymAlg::Aes128, PASSWORD, SymAlg::Aes128, s2k).expect("SKESK v4");
        let mut s = MdcSealer::new(vec![1u8], &SESSION_KEY).expect("key");
        s.write_all(plain).expect("writing to a Vec");
        (skesk, s.finish().expect("writing to a Vec"))
    } else {
        let skesk = Skesk::seal_v6(&SESSION_KEY, PASSWORD, SymAlg::Aes128, Mode::Ocb, s2k, &[9; 15]).expect("SKESK v6");
        let header = V2Header { cipher: SymAlg::Aes128, aead: Mode::Ocb, chunk_octet: 0, salt: [5; 32] };
        let mut s = ChunkSealer::new(header.encode().to_vec(), &header, &SESSION_KEY).expect("key");
        s.write_all(plain).expect("writing to a Vec");
        (skesk, s.finish().expect("writing to a Vec"))
    };
    tamper_end(&mut body, version, tamper);
    let mut sk = Vec::new();
    skesk.write(&mut sk);
    [packet(tag::SKESK, &sk), packet(tag::SEIPD, &body)].concat()
}

/// Alters the end of a SEIPD body: v2 ends with the last chunk's tag and
/// the final tag (16 octets each for OCB); v1 ends with the MDC packet
/// (2 + 20 octets), encrypted in CFB mode, so an octet changed there
/// changes the same octet of the plaintext.
fn tamper_end(body: &mut Vec<u8>, version: u8, tamper: Tamper) {
    let end = if version == 1 { 22 } else { 16 };
    let n = body.len();
    match tamper {
        Tamper::None => {}
        Tamper::DropEnd => body.truncate(n - end),
        Tamper::ZeroEnd => body[n - end + 2 * usize::from(version == 1)..].fill(0),
        Tamper::LastChunk if version == 1 => body[n - end - 1] ^= 1,
        Tamper::LastChunk => body[n - 33] ^= 1,
        Tamper::Truncate => body.truncate(n / 2),
    }
}
