//! What RFC 9580 says a reader skips, skipped: unknown non-critical packet
//! types (40 to 63, §4.3) in certificates, packets of unknown versions
//! (signatures, one-pass signatures, keys and subkeys), unknown subpackets
//! without the critical bit (§5.2.3.7) and Issuer Fingerprints of unknown
//! key versions. The good components and signatures beside them still
//! count. Every input is built octet by octet here and judged by tessera
//! and by Sequoia (pysequoia); where they differ on purpose the case is
//! named in `DIFFERENCES` (SECURITY.md, "Where tessera and Sequoia differ").

use crate::common;

use common::hostile::{CREATED, NOW, signature_with, victim_key};
use tessera::openpgp::hostile::Signed;
use tessera::openpgp::key::{Cert, KeyProfile};
use tessera::openpgp::packet::{join_packets as join, split_packets, tag};
use tessera::openpgp::sig::{InlineVerifier, Subpacket, SubpacketValue, Verifier, read_signatures, write_signatures};

const DATA: &[u8] = b"signed next to things nobody knows yet\n";

/// Cases where tessera and Sequoia disagree on purpose, and why.
const DIFFERENCES: &[(&str, &str)] = &[
    (
        "unknown critical packet type 30",
        "RFC 9580 §4.3: a packet sequence with an unknown critical packet (type below 40) \
         is rejected whole; Sequoia keeps it as an unknown component",
    ),
    (
        "Issuer Fingerprint of key version 7",
        "tessera keeps the subpacket's octets uninterpreted and hashes them as they are; \
         Sequoia reads it but cannot write an unknown fingerprint back when it hashes the \
         signature, so the signature fails",
    ),
];

/// Cases pysequoia cannot express, judged by tessera alone: its `Sig` holds
/// the first signature of a file, and its keyring reader fails whole on one
/// certificate it cannot read.
const NOT_EXPRESSIBLE: &[&str] = &["signature before a good one", "certificate before it in the keyring"];

/// One input: a keyring, a detached signature (empty: `data` is an
/// inline-signed message) and the data, with tessera's expected verdict.
struct Case {
    name: String,
    certs: Vec<u8>,
    sig: Vec<u8>,
    data: Vec<u8>,
    good: bool,
}

/// A packet stream split into (type, body) pairs.
fn packets(stream: &[u8]) -> Vec<(u8, Vec<u8>)> {
    split_packets(stream).expect("a packet stream")
}

/// `list` with `extra` inserted before index `at`.
fn inserted(list: &[(u8, Vec<u8>)], at: usize, extra: &[(u8, Vec<u8>)]) -> Vec<u8> {
    let mut l = list.to_vec();
    l.splice(at..at, extra.iter().cloned());
    join(&l)
}

/// A signature packet body of version `v` (not one tessera reads).
fn unknown_sig(v: u8) -> (u8, Vec<u8>) {
    (tag::SIGNATURE, vec![v, 0x00, 27, 10, 0, 0, 0, 0, 0x42, 0x42, 1, 2, 3])
}

/// A key packet body of version `v`, of type `t` (primary key or subkey).
fn unknown_key(t: u8, v: u8) -> (u8, Vec<u8>) {
    let mut body = vec![v];
    body.extend_from_slice(&CREATED.to_be_bytes());
    body.extend_from_slice(&[27, 0, 0, 0, 32]);
    body.extend_from_slice(&[0x77; 32]);
    (t, body)
}

/// The index just after the first packet of type `t`.
fn after(list: &[(u8, Vec<u8>)], t: u8) -> usize {
    list.iter().position(|(x, _)| *x == t).expect("a packet of that type") + 1
}

fn cert_cases(cases: &mut Vec<Case>, profile: KeyProfile, p: &str) {
    let key = victim_key(profile);
    let clean = key.to_public().to_bytes().expect("serialize").to_vec();
    let list = packets(&clean);
    let sig = tessera_signature(&key, &[]);
    let mut add = |name: &str, certs: Vec<u8>, good: bool| {
        cases.push(Case { name: format!("{p}: {name}"), certs, sig: sig.clone(), data: DATA.to_vec(), good })
    };
    add("clean certificate", clean.clone(), true);
    for t in [40u8, 50, 60, 63] {
        let unknown = (t, b"a component of a later standard".to_vec());
        add(
            &format!("unknown packet type {t} after the primary key"),
            inserted(&list, 1, std::slice::from_ref(&unknown)),
            true,
        );
        let at = after(&list, 14) - 1;
        let pair = [unknown.clone(), unknown_sig(4)];
        add(&format!("unknown packet type {t} and a signature before the subkey"), inserted(&list, at, &pair), true);
        add(&format!("unknown packet type {t} at the end"), inserted(&list, list.len(), &[unknown]), true);
    }
    add("unknown critical packet type 30", inserted(&list, 1, &[(30, b"critical".to_vec())]), false);
    for v in [5u8, 23] {
        let uid = after(&list, 13);
        add(&format!("v{v} signature on the User ID"), inserted(&list, uid, &[unknown_sig(v)]), true);
        let at = after(&list, 14) - 1;
        let sub = [unknown_key(14, v), unknown_sig(v)];
        add(&format!("v{v} subkey with a v{v} binding"), inserted(&list, at, &sub), true);
        let other = [unknown_key(6, v), (13, b"Later <later@example.org>".to_vec()), unknown_sig(v)];
        add(&format!("a v{v} certificate before it in the keyring"), inserted(&list, 0, &other), true);
    }
}

/// A detached signature file: a signature over [`DATA`] by `key` with
/// `extra` hashed subpackets after its creation time and issuer.
fn tessera_signature(key: &Cert, extra: &[Subpacket]) -> Vec<u8> {
    let mut hashed = vec![
        Subpacket::critical(SubpacketValue::CreationTime(CREATED + 100)),
        Subpacket::new(SubpacketValue::IssuerFingerprint(key.fingerprint())),
    ];
    hashed.extend_from_slice(extra);
    write_signatures(Vec::new(), &[signature_with(key, DATA, &hashed)], false).expect("write")
}

fn signature_cases(cases: &mut Vec<Case>, profile: KeyProfile, p: &str) {
    let key = victim_key(profile);
    let certs = key.to_public().to_bytes().expect("serialize").to_vec();
    let good = tessera_signature(&key, &[]);
    let mut add = |name: &str, sig: Vec<u8>, good: bool| {
        cases.push(Case { name: format!("{p}: {name}"), certs: certs.clone(), sig, data: DATA.to_vec(), good })
    };
    for v in [3u8, 5, 23] {
        let unknown = join(&[unknown_sig(v)]);
        add(&format!("v{v} signature before a good one"), [unknown.clone(), good.clone()].concat(), true);
        add(&format!("v{v} signature after a good one"), [good.clone(), unknown.clone()].concat(), true);
        add(&format!("v{v} signature alone"), unknown, false);
    }
    let other = |kind, critical, body: Vec<u8>| Subpacket { critical, value: SubpacketValue::Other { kind, body } };
    add("unknown subpacket, not critical", tessera_signature(&key, &[other(100, false, vec![1, 2])]), true);
    add("unknown subpacket, critical", tessera_signature(&key, &[other(100, true, vec![1, 2])]), false);
    let fp7 = [vec![7u8], vec![0x66; 40]].concat();
    add("Issuer Fingerprint of key version 7", tessera_signature(&key, &[other(33, false, fp7)]), true);
}

fn inline_cases(cases: &mut Vec<Case>, profile: KeyProfile, p: &str) {
    let key = victim_key(profile);
    let certs = key.to_public().to_bytes().expect("serialize").to_vec();
    let s = Signed::new(&key, DATA, NOW - 1000).expect("inline-signed");
    let unknown_ops = join(&[(tag::ONE_PASS_SIGNATURE, vec![23, 0x00, 10, 27, 1, 2, 3, 4, 5, 6, 7, 8, 0])]);
    let unknown = join(&[unknown_sig(23)]);
    let mut add = |name: &str, message: Vec<u8>, good: bool| {
        cases.push(Case { name: format!("{p}: {name}"), certs: certs.clone(), sig: Vec::new(), data: message, good })
    };
    add("inline, clean", [&s.one_pass[..], &s.literal, &s.signature].concat(), true);
    add(
        "inline, a v23 one-pass signature and its v23 signature around a good pair",
        [&unknown_ops[..], &s.one_pass, &s.literal, &s.signature, &unknown].concat(),
        true,
    );
    add(
        "inline, a v23 signature before the good one-pass signature",
        [&unknown[..], &s.one_pass, &s.literal, &s.signature].concat(),
        true,
    );
}

fn tessera_verdict(c: &Case) -> bool {
    let Ok(certs) = Cert::read_all(c.certs.as_slice()) else { return false };
    if c.sig.is_empty() {
        let results =
            InlineVerifier::new(c.data.as_slice(), &certs, NOW).and_then(|v| v.verify_to(&mut std::io::sink()));
        return results.is_ok_and(|r| r.iter().any(|r| r.is_good()));
    }
    let Ok(sigs) = read_signatures(c.sig.as_slice()) else { return false };
    let mut v = Verifier::new(sigs, &certs, NOW);
    v.update(&c.data);
    v.finish().iter().any(|r| r.is_good())
}

fn all_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (profile, p) in [(KeyProfile::Rfc9580, "v6"), (KeyProfile::Rfc4880, "v4")] {
        cert_cases(&mut cases, profile, p);
        signature_cases(&mut cases, profile, p);
        inline_cases(&mut cases, profile, p);
    }
    cases
}

#[test]
fn unknown_things_are_skipped_and_the_good_ones_count() {
    let cases = all_cases();
    let wrong: Vec<_> = cases.iter().filter(|c| tessera_verdict(c) != c.good).map(|c| &c.name).collect();
    assert!(wrong.is_empty(), "tessera's verdict differs from the expected one: {wrong:#?}");
}

#[test]
fn the_components_next_to_unknown_ones_are_read_whole() {
    for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
        let clean = victim_key(profile).to_public();
        let list = packets(&clean.to_bytes().expect("serialize"));
        let at = after(&list, 14) - 1;
        let mangled = inserted(
            &list,
            at,
            &[(50, b"unknown".to_vec()), unknown_sig(4), unknown_key(14, 5), unknown_sig(5), unknown_sig(23)],
        );
        let with_unknown_cert = [join(&[unknown_key(6, 23), unknown_sig(23)]), mangled].concat();
        let read = Cert::read_all(with_unknown_cert.as_slice()).expect("read");
        assert_eq!(read.len(), 1, "the unknown-version certificate is skipped");
        assert_eq!(read[0].to_bytes().expect("serialize"), clean.to_bytes().expect("serialize"));
    }
}

#[test]
fn a_keyring_of_only_unknown_versions_names_the_reason() {
    let only = join(&[unknown_key(6, 23), (13, b"Later <later@example.org>".to_vec()), unknown_sig(23)]);
    let e = Cert::read_all(only.as_slice()).expect_err("no certificate");
    assert!(matches!(e, tessera::openpgp::Error::Unsupported(_)), "{e:?}");
    assert!(matches!(
        Cert::read_all(join(&[unknown_key(6, 3)]).as_slice()),
        Err(tessera::openpgp::Error::Unsupported(_))
    ));
}

#[test]
fn sequoia_agrees_except_where_named() {
    let Some(python) = common::peer_python("pysequoia") else { return };
    let cases = all_cases();
    let encoded: Vec<_> = cases.iter().map(|c| (c.certs.clone(), c.sig.clone(), c.data.clone())).collect();
    let sequoia = common::sequoia_verifies_bytes(&python, &encoded);
    let mut named = Vec::new();
    let mut unnamed = Vec::new();
    for (c, seq) in cases.iter().zip(sequoia) {
        if NOT_EXPRESSIBLE.iter().any(|n| c.name.ends_with(n)) {
            continue;
        }
        let difference = DIFFERENCES.iter().any(|(n, _)| c.name.ends_with(n));
        match (tessera_verdict(c) == seq, difference) {
            (true, true) => named.push(&c.name),
            (false, false) => unnamed.push(format!("{}: tessera {}, Sequoia {seq}", c.name, !seq)),
            _ => {}
        }
    }
    assert!(unnamed.is_empty(), "disagreements with Sequoia not named in DIFFERENCES: {unnamed:#?}");
    assert!(named.is_empty(), "named differences that no longer differ: {named:#?}");
}
