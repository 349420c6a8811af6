//! Signature verification against signatures made by other implementations:
//! rPGP's cleartext-signed "hello world" for each of its RFC 9580 test keys
//! (Ed25519, Ed448, ECDSA, RSA; v4 and v6 signatures) and the RFC 9580
//! Appendix A.2 v4 Ed25519Legacy signature by the A.1 key. The signature
//! packets and trailers are taken apart by hand here; `openpgp::crypto`
//! checks the digest.

use std::io::{BufReader, Read};

use tessera::openpgp::armor::ArmorReader;
use tessera::openpgp::crypto::{self, HashAlg, Hasher, PublicKeyAlg, PublicMaterial, SigMaterial};
use tessera::openpgp::packet::split_packets;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys");

fn dearmor(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    ArmorReader::new(BufReader::new(text)).read_to_end(&mut out).unwrap();
    out
}

fn packets(bytes: &[u8]) -> Vec<(u8, Vec<u8>)> {
    split_packets(bytes).unwrap()
}

/// Public materials of the primary key and subkeys in a key block.
fn public_keys(armored: &[u8]) -> Vec<PublicMaterial> {
    packets(&dearmor(armored))
        .into_iter()
        .filter(|(tag, _)| matches!(tag, 5 | 6 | 7 | 14))
        .map(|(_, body)| {
            let alg = PublicKeyAlg::from_id(body[5]).unwrap();
            let mut rest = &body[if body[0] == 6 { 10 } else { 6 }..];
            PublicMaterial::parse(alg, &mut rest).unwrap()
        })
        .collect()
}

/// A signature packet taken apart.
struct Sig {
    hash: HashAlg,
    alg: PublicKeyAlg,
    salt: Vec<u8>,
    trailer: Vec<u8>,
    left16: [u8; 2],
    material: SigMaterial,
}

fn parse_sig(body: &[u8]) -> Sig {
    let v6 = body[0] == 6;
    let len_size = if v6 { 4 } else { 2 };
    let read_len = |at: usize| body[at..at + len_size].iter().fold(0usize, |acc, &b| acc << 8 | usize::from(b));
    let hashed_end = 4 + len_size + read_len(4);
    let unhashed_end = hashed_end + len_size + read_len(hashed_end);
    let left16 = [body[unhashed_end], body[unhashed_end + 1]];
    let mut rest = &body[unhashed_end + 2..];
    let mut salt = Vec::new();
    if v6 {
        salt = rest[1..1 + usize::from(rest[0])].to_vec();
        rest = &rest[1 + salt.len()..];
    }
    let alg = PublicKeyAlg::from_id(body[2]).unwrap();
    let material = SigMaterial::parse(alg, &mut rest).unwrap();
    assert!(rest.is_empty());
    let mut trailer = body[..hashed_end].to_vec();
    trailer.extend_from_slice(&[body[0], 0xff]);
    trailer.extend_from_slice(&(hashed_end as u32).to_be_bytes());
    Sig { hash: HashAlg::from_id(body[3]).unwrap(), alg, salt, trailer, left16, material }
}

/// Verifies the signature over `data` with whichever of `keys` fits.
fn verify_with_any(keys: &[PublicMaterial], sig: &Sig, data: &[u8]) -> usize {
    let mut h = Hasher::new(sig.hash);
    h.update(&sig.salt);
    h.update(data);
    h.update(&sig.trailer);
    let digest = h.finalize();
    assert_eq!(digest[..2], sig.left16, "the hashed data is what was signed");
    let good = keys
        .iter()
        .filter(|k| k.matches(sig.alg))
        .filter(|k| crypto::verify(k, sig.hash, &digest, &sig.material).is_ok());
    let count = good.count();
    // A changed digest never verifies.
    let mut bad = digest.clone();
    bad[0] ^= 1;
    assert!(keys.iter().all(|k| crypto::verify(k, sig.hash, &bad, &sig.material).is_err()));
    count
}

fn check_cleartext(dir: &str) {
    let keys = public_keys(&std::fs::read(format!("{DIR}/{dir}/tsk.asc")).unwrap());
    let csf = std::fs::read_to_string(format!("{DIR}/{dir}/csf.msg")).unwrap();
    let (text, sig_block) = csf.split_once("-----BEGIN PGP SIGNATURE-----").unwrap();
    assert!(text.ends_with("\nhello world\n\n"), "{dir}");
    let sigs: Vec<_> = packets(&dearmor(format!("-----BEGIN PGP SIGNATURE-----{sig_block}").as_bytes()))
        .into_iter()
        .filter(|(tag, _)| *tag == 2)
        .map(|(_, body)| parse_sig(&body))
        .collect();
    assert!(!sigs.is_empty());
    for sig in &sigs {
        // The text is "hello world\n" (the line ending before the armor
        // belongs to the framework), canonicalised to CRLF.
        assert_eq!(verify_with_any(&keys, sig, b"hello world\r\n"), 1, "{dir} {:?} {:?}", sig.alg, sig.hash);
    }
}

#[test]
fn rpgp_cleartext_signatures_ed25519_v6_and_v4() {
    check_cleartext("v6-25519-annex-a-4");
    check_cleartext("v6-ed25519-x448");
    check_cleartext("v4-ed25519-x25519");
}

#[test]
fn rpgp_cleartext_signature_ed448() {
    check_cleartext("v6-ed448-x448");
}

#[test]
fn rpgp_cleartext_signature_ecdsa() {
    check_cleartext("v6-nistp");
}

#[test]
fn rpgp_cleartext_signature_rsa() {
    check_cleartext("v6-rsa");
}

#[test]
fn rfc9580_a2_v4_eddsa_legacy_signature() {
    let keys = public_keys(&std::fs::read(format!("{DIR}/rfc9580_a1_v4_ed25519legacy.asc")).unwrap());
    let (_, body) = packets(&dearmor(&std::fs::read(format!("{DIR}/rfc9580_a2_v4_signature.asc")).unwrap()))
        .into_iter()
        .find(|(tag, _)| *tag == 2)
        .unwrap();
    let sig = parse_sig(&body);
    assert_eq!(sig.alg, PublicKeyAlg::EdDsaLegacy);
    // A.2 signs the binary data "OpenPGP".
    assert_eq!(verify_with_any(&keys, &sig, b"OpenPGP"), 1);
}
