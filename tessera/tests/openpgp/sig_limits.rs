//! Limits on what a signed message may make the verifiers do: at most
//! `MAX_SIGNATURES` signatures and one-pass signatures per message.

use std::io::{Read, Write};

use tessera::openpgp::Error;
use tessera::openpgp::key::{Cert, GenerateOptions, generate};
use tessera::openpgp::packet::{BodyLen, read_header};
use tessera::openpgp::sig::{
    InlineSigner, InlineVerifier, MAX_SIGNATURES, SigType, Signer, SigningKey, read_signatures, write_signatures,
};

const T0: u32 = 1_700_000_000;
const NOW: u64 = 1_700_000_100;

fn key() -> Cert {
    generate(&GenerateOptions { created: Some(T0), ..Default::default() }).unwrap()
}

/// Splits a binary packet sequence into whole packets (fixed lengths only).
fn packets(mut data: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    while !data.is_empty() {
        let start = data;
        let h = read_header(&mut data).unwrap().unwrap();
        let BodyLen::Fixed(n) = h.len else { panic!("partial length in test data") };
        let header = start.len() - data.len();
        out.push(start[..header + n as usize].to_vec());
        data = &data[n as usize..];
    }
    out
}

fn inline_message(k: &Cert) -> Vec<u8> {
    let keys = SigningKey::from_cert(k, NOW).unwrap();
    let mut w = InlineSigner::new(Vec::new(), Signer::new(&keys, SigType::Binary, T0 + 1).unwrap()).unwrap();
    w.write_all(b"data").unwrap();
    w.finish().unwrap()
}

fn verify_inline(msg: &[u8], certs: &[Cert]) -> tessera::openpgp::Result<usize> {
    let mut r = InlineVerifier::new(msg, certs, NOW)?;
    r.read_to_end(&mut Vec::new()).map_err(Error::from_io)?;
    Ok(r.results().unwrap().iter().filter(|s| s.is_good()).count())
}

fn is_limit(e: &Error) -> bool {
    matches!(e, Error::Limit(m) if m.contains("signatures"))
}

#[test]
fn detached_signatures_beyond_the_limit_are_refused() {
    let k = key();
    let keys = SigningKey::from_cert(&k, NOW).unwrap();
    let mut s = Signer::new(&keys, SigType::Binary, T0 + 1).unwrap();
    s.update(b"data");
    let sig = s.finish().unwrap().remove(0);
    let many = |n: usize| write_signatures(Vec::new(), &vec![sig.clone(); n], false).unwrap();
    assert_eq!(read_signatures(many(MAX_SIGNATURES).as_slice()).unwrap().len(), MAX_SIGNATURES);
    let e = read_signatures(many(MAX_SIGNATURES + 1).as_slice()).unwrap_err();
    assert!(is_limit(&e), "{e}");
}

#[test]
fn one_pass_signatures_beyond_the_limit_are_refused() {
    let k = key();
    let certs = [k.to_public()];
    let p = packets(&inline_message(&k));
    assert_eq!(p.len(), 3, "one-pass signature, literal data, signature");
    // As many signatures as one-pass signatures (RFC 9580 §10.3).
    let with_ops = |n: usize| [p[0].repeat(n), p[1].clone(), p[2].repeat(n)].concat();
    assert_eq!(verify_inline(&with_ops(MAX_SIGNATURES), &certs).unwrap(), MAX_SIGNATURES);
    let e = verify_inline(&with_ops(MAX_SIGNATURES + 1), &certs).unwrap_err();
    assert!(is_limit(&e), "{e}");
}

#[test]
fn trailing_signatures_beyond_the_limit_are_refused() {
    let k = key();
    let certs = [k.to_public()];
    let p = packets(&inline_message(&k));
    let with_sigs = |n: usize| [p[0].clone(), p[1].clone(), p[2].repeat(n)].concat();
    assert_eq!(verify_inline(&with_sigs(1), &certs).unwrap(), 1);
    // More signatures than one-pass signatures: refused before the limit
    // matters, as a broken grammar.
    for n in [2, MAX_SIGNATURES + 1] {
        let e = verify_inline(&with_sigs(n), &certs).unwrap_err();
        assert!(is_limit(&e) || matches!(e, Error::Malformed(_)), "{n}: {e}");
    }
}

#[test]
fn compressed_inline_signed_data_is_bounded() {
    use flate2::Compression;
    use flate2::write::ZlibEncoder;
    use tessera::openpgp::packet::{tag, write_packet};
    let k = key();
    let certs = [k.to_public()];
    let keys = SigningKey::from_cert(&k, NOW).unwrap();
    let mut w = InlineSigner::new(Vec::new(), Signer::new(&keys, SigType::Binary, T0 + 1).unwrap()).unwrap();
    w.write_all(&vec![0u8; 1 << 20]).unwrap();
    let signed = w.finish().unwrap();
    let mut z = ZlibEncoder::new(vec![2u8], Compression::best());
    z.write_all(&signed).unwrap();
    let mut msg = Vec::new();
    write_packet(&mut msg, tag::COMPRESSED, &z.finish().unwrap()).unwrap();
    assert!(msg.len() < 8 << 10, "{} octets", msg.len());
    let read = |max: Option<u64>| -> tessera::openpgp::Result<usize> {
        let v = InlineVerifier::with_max_decompressed(msg.as_slice(), &certs, NOW, max)?;
        Ok(v.verify_to(&mut std::io::sink())?.iter().filter(|r| r.is_good()).count())
    };
    assert_eq!(read(Some(2 << 20)).unwrap(), 1);
    assert_eq!(read(None).unwrap(), 1);
    let e = read(Some(64 << 10)).unwrap_err();
    assert!(matches!(e, Error::LimitExceeded { allowed: 65536, .. }), "{e}");
}
