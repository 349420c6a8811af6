//! `openpgp::inspect`: what it reports of messages, keys and signatures
//! made here and by the RFC 9580 samples, that it never reports a secret
//! or the data, that hostile input ends in a typed error, and that a
//! 64 MiB message is inspected in constant memory.

use crate::common;

use std::io::{BufReader, Cursor, Read, Write};

use tessera::aead::Mode;
use tessera::openpgp::crypto::PublicKeyAlg;
use tessera::openpgp::inspect::{
    Detail, Framing, KeyHandle, Limits, Protection, Report, S2kInfo, Summary, escape, inspect,
};
use tessera::openpgp::key::{Cert, GenerateOptions, KeyProfile, generate};
use tessera::openpgp::packet::{PartialWriter, tag};
use tessera::openpgp::sig::{ClearSigner, InlineSigner, SigType, Signer, SigningKey, write_signatures};
use tessera::openpgp::{EncryptOptions, Encryptor, Error, S2kChoice, SymAlg};

const VEC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp");
const SECRET_TEXT: &[u8] = b"the plaintext nobody may see in a report";
const T0: u32 = 1_700_000_000;

fn read(path: &str) -> Vec<u8> {
    std::fs::read(format!("{VEC}/{path}")).unwrap()
}

fn look(data: &[u8]) -> Report {
    inspect(data, &Limits::default()).unwrap()
}

/// The report as text, as far as `Debug` shows it: what a front end could print.
fn shown(r: &Report) -> String {
    format!("{r:?}")
}

fn key(profile: KeyProfile) -> Cert {
    let user_ids = vec!["Alice <alice@example.org>".into()];
    let opts = GenerateOptions { profile, user_ids, created: Some(T0), ..Default::default() };
    generate(&opts).unwrap()
}

fn armored(c: &Cert, public: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if public { c.to_public().write_armored(&mut out) } else { c.write_armored(&mut out) }.unwrap();
    out
}

#[test]
fn password_message_shows_skesk_and_seipd_headers_only() {
    let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, armor: true, ..Default::default() };
    let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts).unwrap();
    enc.write_all(SECRET_TEXT).unwrap();
    let msg = enc.finish().unwrap();
    let r = look(&msg);
    assert_eq!(r.armor.as_deref(), Some("MESSAGE"));
    assert_eq!(r.summary, Summary::EncryptedMessage { recipients: vec![], passwords: 1 });
    let Detail::Skesk(s) = &r.packets[0].detail else { panic!("{:?}", r.packets[0]) };
    assert_eq!((s.version, s.cipher, s.aead), (6, SymAlg::Aes256, Some(Mode::Ocb)));
    assert!(matches!(s.s2k, S2kInfo::Iterated { octets: 65536, .. }), "{:?}", s.s2k);
    let Detail::Seipd(e) = &r.packets[1].detail else { panic!("{:?}", r.packets[1]) };
    assert_eq!((e.version, e.v2), (2, Some((SymAlg::Aes256, Mode::Ocb, 1 << 18))));
    assert!(!shown(&r).contains("plaintext nobody"));

    // RFC 9580 A.12.1: Argon2 parameters as the sample gives them.
    let r = look(&read("rfc9580_a12_1_argon2_aes128.asc"));
    let Detail::Skesk(s) = &r.packets[0].detail else { panic!() };
    assert_eq!((s.version, s.cipher, s.s2k), (4, SymAlg::Aes128, S2kInfo::Argon2 { t: 1, p: 4, m: 21 }));
}

#[test]
fn public_key_message_names_both_recipients() {
    let (a, b) = (key(KeyProfile::Rfc9580), key(KeyProfile::Rfc4880));
    let recipients = vec![a.to_public(), b.to_public()];
    let opts = EncryptOptions { recipients, ..Default::default() };
    let mut enc = Encryptor::new(Vec::new(), &[], &opts).unwrap();
    enc.write_all(SECRET_TEXT).unwrap();
    let r = look(&enc.finish().unwrap());
    let Summary::EncryptedMessage { recipients, passwords: 0 } = &r.summary else { panic!("{:?}", r.summary) };
    let subkey = |c: &Cert| c.subkeys[0].key.public().key_id();
    // PKESK v3 names key IDs, v6 fingerprints.
    let ids: Vec<_> = recipients
        .iter()
        .map(|r| match r {
            Some(KeyHandle::KeyId(id)) => *id,
            Some(KeyHandle::Fingerprint(fp)) => fp.key_id(),
            None => panic!("anonymous"),
        })
        .collect();
    assert_eq!(ids, [subkey(&a), subkey(&b)]);
    let algs: Vec<PublicKeyAlg> =
        r.packets.iter().filter_map(|p| if let Detail::Pkesk(k) = &p.detail { Some(k.alg) } else { None }).collect();
    assert_eq!(algs, [PublicKeyAlg::X25519, PublicKeyAlg::Ecdh]);
}

fn signing_keys(k: &Cert) -> Vec<SigningKey<'_>> {
    SigningKey::from_cert(k, u64::from(T0) + 100).unwrap()
}

#[test]
fn signed_detached_and_cleartext_signatures() {
    let k = key(KeyProfile::Rfc9580);
    let keys = signing_keys(&k);
    let fp = KeyHandle::Fingerprint(k.fingerprint());

    let mut w = InlineSigner::new(Vec::new(), Signer::new(&keys, SigType::Binary, T0 + 10).unwrap()).unwrap();
    w.write_all(SECRET_TEXT).unwrap();
    let r = look(&w.finish().unwrap());
    assert_eq!(r.summary, Summary::SignedMessage { signers: vec![fp] });
    let tags: Vec<u8> = r.packets.iter().map(|p| p.tag).collect();
    assert_eq!(tags, [tag::ONE_PASS_SIGNATURE, tag::LITERAL, tag::SIGNATURE]);
    let Detail::Literal { data_len, .. } = r.packets[1].detail else { panic!() };
    assert_eq!(data_len, SECRET_TEXT.len() as u64);
    let Detail::Signature(s) = &r.packets[2].detail else { panic!() };
    assert_eq!((s.sig_type(), s.created()), (SigType::Binary, Some(T0 + 10)));
    assert!(!shown(&r).contains("plaintext nobody"));

    let mut s = Signer::new(&keys, SigType::Binary, T0 + 10).unwrap();
    s.write_all(SECRET_TEXT).unwrap();
    let det = write_signatures(Vec::new(), &s.finish().unwrap(), true).unwrap();
    assert_eq!(look(&det).summary, Summary::DetachedSignatures { signers: vec![fp] });

    let mut c = ClearSigner::new(Vec::new(), Signer::new(&keys, SigType::Text, T0 + 10).unwrap()).unwrap();
    c.write_all(b"line one\n-----BEGIN PGP SIGNATURE-----\nline three\n").unwrap();
    let r = look(&c.finish().unwrap());
    assert_eq!(r.summary, Summary::CleartextSigned { signers: vec![fp] });
    // Three lines of text, and the empty one its final line ending makes.
    assert_eq!(r.cleartext.as_ref().map(|c| c.lines), Some(4));

    let r = look(&read("rfc9580_a6_cleartext.asc"));
    assert!(matches!(r.summary, Summary::CleartextSigned { .. }), "{:?}", r.summary);
}

#[test]
fn certificates_v6_and_v4_with_subkeys_flags_and_expiry() {
    let r = look(&read("keys/rfc9580_a3_v6_cert.asc"));
    let Summary::Certificates(keys) = &r.summary else { panic!("{:?}", r.summary) };
    assert_eq!(
        keys[0].primary.fingerprint.to_hex(),
        "CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9"
    );
    assert_eq!((keys[0].primary.flags, keys[0].subkeys[0].flags), (Some(0x03), Some(0x0c)));

    let r = look(&read("keys/alice_cert.asc"));
    let Summary::Certificates(keys) = &r.summary else { panic!("{:?}", r.summary) };
    assert_eq!(keys[0].primary.fingerprint.to_hex(), "EB85BB5FA33A75E15E944E63F231550C4F47E38E");
    assert_eq!(keys[0].user_ids, [b"Alice Lovelace <alice@openpgp.example>".to_vec()]);
    assert_eq!(keys[0].primary.alg, PublicKeyAlg::EdDsaLegacy);

    let opts = GenerateOptions {
        profile: KeyProfile::Rfc4880,
        user_ids: vec!["B <b@example.org>".into()],
        expires_in: Some(86_400),
        created: Some(T0),
    };
    let k = generate(&opts).unwrap();
    let r = look(&armored(&k, true));
    let Summary::Certificates(keys) = &r.summary else { panic!("{:?}", r.summary) };
    assert_eq!(keys[0].primary.expires, Some(u64::from(T0) + 86_400));
    assert_eq!(keys[0].subkeys.len(), 1);
    // Two certificates in one file.
    let ring = [armored(&k, true), read("keys/alice_cert.asc")].concat();
    let Summary::Certificates(keys) = look(&ring).summary else { panic!() };
    assert_eq!(keys.len(), 2);
}

/// The secret octets of a secret key packet in the clear: what follows
/// the public fields and the usage octet.
fn secret_octets(k: &Cert) -> Vec<u8> {
    let sk = k.primary.secret().unwrap();
    let mut body = Vec::new();
    sk.write(&mut body);
    body[sk.public().body().len() + 1..].to_vec()
}

#[test]
fn secret_keys_show_protection_never_secret_octets() {
    let plain = Cert::from_bytes(&read("keys/rfc9580_a4_v6_secret.asc")).unwrap();
    let secret = secret_octets(&plain);
    for (file, locked) in [("keys/rfc9580_a4_v6_secret.asc", false), ("keys/rfc9580_a5_v6_secret_locked.asc", true)] {
        let r = look(&read(file));
        assert!(matches!(r.summary, Summary::SecretKeys(_)), "{:?}", r.summary);
        let Detail::Key(k) = &r.packets[0].detail else { panic!() };
        match (locked, k.secret) {
            (false, Some(Protection::Unprotected)) => {}
            (true, Some(Protection::Password { usage: 253, cipher: SymAlg::Aes256, aead: Some(Mode::Ocb), s2k })) => {
                assert_eq!(s2k, S2kInfo::Argon2 { t: 1, p: 4, m: 21 });
            }
            other => panic!("{file}: {other:?}"),
        }
        absent(&shown(&r), &secret);
    }
    // A locked key of this crate's: nothing of its encrypted fields either.
    let mut k = key(KeyProfile::Rfc4880);
    let clear = secret_octets(&k);
    k.lock(b"pw").unwrap();
    let enc = secret_octets(&k);
    let text = shown(&look(&armored(&k, false)));
    absent(&text, &clear);
    absent(&text, &enc[enc.len() - 16..]);
}

/// `secret` is in `text` neither as hex nor as the start of a `Debug` list of octets.
fn absent(text: &str, secret: &[u8]) {
    assert!(!text.contains(&hex::encode(secret)) && !text.contains(&hex::encode_upper(secret)));
    let listed = format!("{:?}", &secret[..6]);
    assert!(!text.contains(listed.trim_end_matches(']')), "secret octets in the report");
}

#[test]
fn user_ids_are_escaped_for_the_terminal() {
    let k = GenerateOptions { user_ids: vec!["evil\u{1b}]0;owned\u{7}\u{202e} <e@x>".into()], ..Default::default() };
    let r = look(&armored(&generate(&k).unwrap(), true));
    let Summary::Certificates(keys) = &r.summary else { panic!() };
    let shown = escape(&keys[0].user_ids[0]);
    assert_eq!(shown, "evil\\u{1b}]0;owned\\u{7}\\u{202e} <e@x>");
    assert!(!shown.chars().any(char::is_control));
}

/// A literal data packet of `n` zero octets with partial lengths, produced
/// as it is read.
fn huge_literal(n: u32) -> impl Read {
    assert!(n.is_power_of_two());
    let head = vec![0xc0 | tag::LITERAL, 0xe0 | n.trailing_zeros() as u8, b'b', 0, 0, 0, 0, 0];
    let tail = Cursor::new(vec![0u8]); // the last piece: empty
    Cursor::new(head).chain(std::io::repeat(0).take(u64::from(n) - 6)).chain(tail)
}

#[test]
fn a_64_mib_message_is_inspected_in_constant_memory() {
    let n = 1u32 << 26;
    let (r, peak) = common::peak_bytes(|| inspect(BufReader::new(huge_literal(n)), &Limits::default()).unwrap());
    let Detail::Literal { data_len, .. } = r.packets[0].detail else { panic!() };
    assert_eq!((data_len, r.packets[0].framing), (u64::from(n) - 6, Framing::Partial));
    assert!(peak < 256 << 10, "peak {peak} bytes");

    // Encrypted data: a SKESK, then a SEIPD v2 body of 64 MiB, read through.
    let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 0 }, ..Default::default() };
    let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts).unwrap();
    enc.write_all(b"x").unwrap();
    let small = enc.finish().unwrap();
    let skesk_len = 2 + small[1] as usize;
    let mut seipd_head = vec![0xc0 | tag::SEIPD, 0xe0 | 26];
    seipd_head.extend_from_slice(&small[skesk_len + 2..skesk_len + 2 + 36]);
    let body = std::io::repeat(0x55).take(u64::from(n) - 36);
    let input = Cursor::new([&small[..skesk_len], &seipd_head].concat()).chain(body).chain(Cursor::new(vec![0u8]));
    let (r, peak) = common::peak_bytes(|| inspect(BufReader::new(input), &Limits::default()).unwrap());
    let Detail::Seipd(e) = &r.packets[1].detail else { panic!("{:?}", r.packets) };
    assert_eq!(e.encrypted_len, u64::from(n) - 36);
    assert!(peak < 256 << 10, "peak {peak} bytes");
}

fn hostile_err(data: &[u8]) -> Error {
    inspect(data, &Limits::default()).expect_err("hostile input must be refused")
}

#[test]
fn hostile_inputs_end_in_typed_errors() {
    let cert = read("keys/rfc9580_a3_v6_cert.asc");
    let binary = Cert::from_bytes(&cert).unwrap().to_bytes().unwrap();
    for cut in [1, 2, 10, 50, binary.len() - 1] {
        assert!(matches!(hostile_err(&binary[..cut]), Error::Truncated(_)), "cut at {cut}");
    }
    assert!(matches!(hostile_err(b"\x00\x01garbage"), Error::Malformed(_)));
    assert!(matches!(hostile_err(b""), Error::Malformed(_)));
    // A partial length announcing 1 GiB with nothing behind it.
    assert!(matches!(hostile_err(&[0xc0 | tag::LITERAL, 0xfe, b'b', 0]), Error::Truncated(_)));
    // A signature packet claiming 4 GiB: over the packet size bound.
    let big = [0xc2, 0xff, 0xff, 0xff, 0xff, 0xff];
    assert!(matches!(hostile_err(&big), Error::Truncated(_) | Error::Limit(_)));
    // Compressed data nested deeper than the limit.
    let mut nested = vec![0xc0 | tag::LITERAL, 6, b'b', 0, 0, 0, 0, 0];
    for _ in 0..6 {
        let mut w = PartialWriter::new(Vec::new(), tag::COMPRESSED);
        w.write_all(&[0]).unwrap();
        w.write_all(&nested).unwrap();
        nested = w.finish().unwrap();
    }
    assert!(matches!(hostile_err(&nested), Error::Limit(_)), "{:?}", hostile_err(&nested));
    // Garbage inside compressed data.
    let bad = [0xc8, 5, 1, 0xff, 0xff, 0xff, 0xff];
    assert!(matches!(hostile_err(&bad), Error::Malformed(_) | Error::Truncated(_)));
    // Too many packets.
    let markers: Vec<u8> = (0..20).flat_map(|_| [0xca, 3, b'P', b'G', b'P']).collect();
    let limits = Limits { max_packets: 10, ..Limits::default() };
    assert!(matches!(inspect(markers.as_slice(), &limits), Err(Error::Limit(_))));
    // Every prefix and many flips of a real message: an answer, never a panic.
    let msg = read("rfc9580_a7_inline.asc");
    for cut in 0..msg.len() {
        let _ = inspect(&msg[..cut], &Limits::default());
    }
    for (i, m) in common::bits(binary.len()).step_by(7) {
        let _ = inspect(common::flip(&binary, i, m).as_slice(), &Limits::default());
    }
}

#[test]
fn compressed_data_is_walked_within_the_size_cap() {
    use flate2::{Compression, write::ZlibEncoder};
    let mut literal = PartialWriter::new(Vec::new(), tag::LITERAL);
    literal.write_all(&[b'b', 0, 0, 0, 0, 0]).unwrap();
    literal.write_all(&vec![0u8; 4 << 20]).unwrap();
    let mut z = ZlibEncoder::new(vec![2u8], Compression::best());
    z.write_all(&literal.finish().unwrap()).unwrap();
    let mut packet = PartialWriter::new(Vec::new(), tag::COMPRESSED);
    packet.write_all(&z.finish().unwrap()).unwrap();
    let packed = packet.finish().unwrap();
    let r = look(&packed);
    assert!(matches!(r.packets[0].detail, Detail::Compressed(2)));
    assert!(matches!(r.packets[1].detail, Detail::Literal { data_len, .. } if data_len == 4 << 20));
    assert_eq!((r.packets[1].depth, r.summary.clone()), (1, Summary::LiteralMessage));
    let capped = Limits { max_decompressed_size: Some(1 << 20), ..Limits::default() };
    assert!(matches!(inspect(packed.as_slice(), &capped), Err(Error::LimitExceeded { .. })));
    // An algorithm that is not read: reported, not walked.
    let bzip2 = [0xc8, 3, 3, 0x42, 0x5a];
    assert!(matches!(look(&bzip2).packets[0].detail, Detail::Unreadable(Error::Unsupported(_))));
}

#[test]
fn unknown_marker_and_padding_packets_are_named_and_skipped() {
    let sig = Cert::from_bytes(&read("keys/rfc9580_a3_v6_cert.asc")).unwrap().direct_sigs[0].to_bytes();
    let mut data = vec![0xca, 3, b'P', b'G', b'P', 0xc0 | 50, 2, 1, 2, 0xd5, 1, 0];
    data.extend_from_slice(&[0xc2, sig.len() as u8]);
    data.extend_from_slice(&sig);
    let r = look(&data);
    let kinds: Vec<&str> = r
        .packets
        .iter()
        .map(|p| match p.detail {
            Detail::Opaque => "opaque",
            Detail::Unknown => "unknown",
            Detail::Signature(_) => "signature",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["opaque", "unknown", "opaque", "signature"]);
    assert!(matches!(r.summary, Summary::Other), "{:?}", r.summary);
}
