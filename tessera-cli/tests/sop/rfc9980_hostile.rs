//! Hostile RFC 9980 input through `tessera-sop`, one case at a time, each
//! with its SOP exit code and no output: damaged ML-KEM ciphertexts and
//! keys, composite signatures with one half broken, an SLH-DSA signature
//! on a v4 packet, and a post-quantum algorithm in a v4 primary key.

use tessera::openpgp::packet::{join_packets, split_packets, tag};

use crate::common::sop::{Dir, key, sop, sop_code, sop_ok};

const NO_SIGNATURE: i32 = 3;
const CANNOT_DECRYPT: i32 = 29;
const BAD_DATA: i32 = 41;
/// Packet tags of a certificate's keys.
const PUBLIC_KEY: u8 = 6;
const PUBLIC_SUBKEY: u8 = 14;

const TEXT: &[u8] = b"post-quantum and hostile\n";
/// ML-KEM-768+X25519's PKESK payload: the X25519 share, the ML-KEM
/// ciphertext, then the wrapped session key with its length octet.
const X25519_LEN: usize = 32;
const ML_KEM_768_CT: usize = 1088;
const WRAPPED: usize = 1 + 40;
/// ML-DSA-65+Ed25519's signature: the Ed25519 half, then ML-DSA's.
const ML_DSA_65_SIG: usize = 3309;

fn dearmor(armored: &[u8]) -> Vec<u8> {
    sop_ok(&["dearmor"], armored)
}

/// The packets of `binary` with the body of the first `tag` packet changed by `f`.
fn with_packet(binary: &[u8], packet_tag: u8, f: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut packets = split_packets(binary).unwrap();
    let (_, body) = packets.iter_mut().find(|(t, _)| *t == packet_tag).unwrap();
    f(body);
    join_packets(&packets)
}

/// A message to an RFC 9980 key, with its key and a second RFC 9980 key.
fn pq_message(d: &Dir) -> (String, String, Vec<u8>) {
    let (k, c) = key(d, "pq", &["--profile=rfc9980"]);
    let (other, _) = key(d, "other", &["--profile=rfc9980"]);
    let msg = sop_ok(&["encrypt", "--no-armor", &c], TEXT);
    assert_eq!(sop_ok(&["decrypt", &k], &msg), TEXT);
    (k, other, msg)
}

#[test]
fn a_damaged_ml_kem_ciphertext_fails_as_a_wrong_key_does() {
    let d = Dir::new();
    let (k, other, msg) = pq_message(&d);
    // The wrong key, and a flipped ciphertext bit (ML-KEM's implicit
    // rejection yields another key share): the same failure.
    sop_code(&["decrypt", &other], &msg, CANNOT_DECRYPT);
    let kem_at = |body: &Vec<u8>| body.len() - WRAPPED - ML_KEM_768_CT;
    for offset in [0, 500, ML_KEM_768_CT - 1] {
        let flipped = with_packet(&msg, tag::PKESK, |b| {
            let at = kem_at(b) + offset;
            b[at] ^= 0x01;
        });
        sop_code(&["decrypt", &k], &flipped, CANNOT_DECRYPT);
    }
    let flipped_ecc = with_packet(&msg, tag::PKESK, |b| {
        let at = kem_at(b) - X25519_LEN;
        b[at] ^= 0x01;
    });
    sop_code(&["decrypt", &k], &flipped_ecc, CANNOT_DECRYPT);
    // One octet short or long: the PKESK no longer has the algorithm's
    // layout, is skipped as unreadable, and the error says so.
    let cut = with_packet(&msg, tag::PKESK, |b| {
        let at = kem_at(b) + 500;
        b.remove(at);
    });
    let long = with_packet(&msg, tag::PKESK, |b| {
        let at = kem_at(b) + 500;
        b.insert(at, 0);
    });
    for damaged in [cut, long] {
        let o = sop(&["decrypt", &k], &damaged);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(CANNOT_DECRYPT), "{err}");
        assert!(o.stdout.is_empty() && err.contains("1 public-key packet(s) that cannot be read"), "{err}");
    }
}

#[test]
fn a_cut_or_padded_ml_kem_key_cannot_be_encrypted_to() {
    let d = Dir::new();
    let (_, c) = key(&d, "pq", &["--profile=rfc9980"]);
    let cert = dearmor(&d.read("pq.cert"));
    let cut = d.write(
        "cut.cert",
        &with_packet(&cert, PUBLIC_SUBKEY, |b| {
            b.pop();
        }),
    );
    sop_code(&["encrypt", &cut], TEXT, BAD_DATA);
    let long = d.write("long.cert", &with_packet(&cert, PUBLIC_SUBKEY, |b| b.push(0)));
    sop_code(&["encrypt", &long], TEXT, BAD_DATA);
    // The intact certificate still works.
    sop_ok(&["encrypt", &c], TEXT);
}

#[test]
fn a_composite_signature_with_either_half_broken_is_no_signature() {
    let d = Dir::new();
    let (k, c) = key(&d, "pq", &["--profile=rfc9980"]);
    let sig = sop_ok(&["sign", "--no-armor", &k], TEXT);
    let good = d.write("good.sig", &sig);
    sop_ok(&["verify", &good, &c], TEXT);
    for (half, from_end) in [("Ed25519", ML_DSA_65_SIG + 10), ("ML-DSA-65", 10)] {
        let bad = with_packet(&sig, tag::SIGNATURE, |b| {
            let at = b.len() - from_end;
            b[at] ^= 0x40;
        });
        let bad = d.write("bad.sig", &bad);
        let o = sop(&["verify", &bad, &c], TEXT);
        assert_eq!(o.status.code(), Some(NO_SIGNATURE), "{half} half broken: {}", String::from_utf8_lossy(&o.stderr));
        assert!(o.stdout.is_empty());
    }
}

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tessera/tests/vectors/openpgp/rfc9980");

fn vector(name: &str) -> Vec<u8> {
    std::fs::read(format!("{VECTORS}/{name}")).unwrap()
}

#[test]
fn an_slh_dsa_signature_in_a_v4_packet_is_bad_data() {
    let d = Dir::new();
    let cert = d.write("slh.cert", &vector("v6-slhdsa-128f-sample-pk.asc"));
    let sig = dearmor(&vector("v6-slhdsa-128f-sample-signature.asc"));
    let good = d.write("good.sig", &sig);
    // The sample signs "Testing\n".
    sop_ok(&["verify", &good, &cert], b"Testing\n");
    let v4 = d.write("v4.sig", &with_packet(&sig, tag::SIGNATURE, |b| b[0] = 4));
    sop_code(&["verify", &v4, &cert], b"Testing\n", BAD_DATA);
}

#[test]
fn a_post_quantum_algorithm_in_a_v4_primary_key_is_refused() {
    let d = Dir::new();
    let (k, _) = key(&d, "pq", &["--profile=rfc9980"]);
    let pq_primary = split_packets(&dearmor(&d.read("pq.cert"))).unwrap().remove(0).1;
    // v6 body: version, time (4), algorithm, material length (4), material;
    // the same material in a v4 body has no length.
    let v4_body = [&[4u8][..], &pq_primary[1..6], &pq_primary[10..]].concat();
    let v4 = dearmor(&vector("v4-eddsa-sample-pk.asc"));
    let bad = d.write("v4-pq.cert", &with_packet(&v4, PUBLIC_KEY, |b| *b = v4_body));
    sop_code(&["encrypt", &bad], TEXT, BAD_DATA);
    let sig = d.write("sig", &sop_ok(&["sign", &k], TEXT));
    sop_code(&["verify", &sig, &bad], TEXT, BAD_DATA);
}
