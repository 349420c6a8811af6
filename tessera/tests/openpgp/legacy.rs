//! Legacy algorithms read from GnuPG 2.2's keys: DSA signatures verified
//! and Elgamal session keys decrypted (fixtures in tests/data/legacy, see
//! its README), keys under 2048 bits refused for every use, and the same
//! verdicts from Sequoia (pysequoia). A live GnuPG round trip runs when gpg
//! is installed.

use crate::common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use tessera::openpgp::crypto::{self, HashAlg, Mpi, PublicMaterial, SigMaterial};
use tessera::openpgp::key::{Cert, EncryptionPlan};
use tessera::openpgp::sig::{InlineVerifier, SigResult, Verifier, hashing, read_signatures};
use tessera::openpgp::{DecryptOptions, Decryptor, Error};

/// 2025-01-01: the fixtures were made on 2024-01-01 and do not expire.
const AT: u64 = 1_735_689_600;

fn data(name: &str) -> Vec<u8> {
    std::fs::read(fixture(name)).unwrap()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/legacy").join(name)
}

fn cert(name: &str) -> Cert {
    Cert::from_bytes(&data(&format!("{name}.cert.asc"))).unwrap()
}

fn key(name: &str) -> Cert {
    Cert::from_bytes(&data(&format!("{name}.key.asc"))).unwrap()
}

fn detached(certs: &[Cert], sig: &[u8], message: &[u8]) -> Vec<SigResult> {
    let mut v = Verifier::new(read_signatures(sig).unwrap(), certs, AT);
    v.write_all(message).unwrap();
    v.finish()
}

fn decrypt(keys: Vec<Cert>, message: &[u8]) -> tessera::openpgp::Result<Vec<u8>> {
    let opts = DecryptOptions { keys, ..DecryptOptions::default() };
    let mut out = Vec::new();
    Decryptor::with_options(message, &[], &opts)?.read_to_end(&mut out).map_err(Error::from_io)?;
    Ok(out)
}

#[test]
fn dsa_signatures_of_gnupg_verify() {
    let message = data("message.txt");
    for (signer, sig) in [("dsa2048", "dsa2048-sha512.sig"), ("dsa3072", "dsa3072-sha256.sig")] {
        let r = detached(&[cert(signer)], &data(sig), &message);
        assert!(r.len() == 1 && r[0].is_good(), "{sig}: {r:?}");
        // Another message does not verify.
        let r = detached(&[cert(signer)], &data(sig), b"another message");
        assert!(!r[0].is_good(), "{sig}");
    }
    let mut out = Vec::new();
    let certs = [cert("dsa2048")];
    let r =
        InlineVerifier::new(data("dsa2048-signed.gpg").as_slice(), &certs, AT).unwrap().verify_to(&mut out).unwrap();
    assert!(r.len() == 1 && r[0].is_good(), "{r:?}");
    assert_eq!(out, message);
}

#[test]
fn elgamal_messages_of_gnupg_decrypt() {
    let message = data("message.txt");
    assert_eq!(decrypt(vec![key("dsa2048")], &data("to-elg2048.gpg")).unwrap(), message);
    assert_eq!(decrypt(vec![key("dsa3072")], &data("to-elg3072.gpg")).unwrap(), message);
    // Signed and encrypted: the DSA signature inside verifies too.
    let opts = DecryptOptions { keys: vec![key("dsa2048")], ..DecryptOptions::default() };
    let certs = [cert("dsa2048")];
    let input = data("to-elg2048-signed.gpg");
    let mut dec = tessera::openpgp::VerifyingDecryptor::new(input.as_slice(), &[], &opts, &certs, AT).unwrap();
    let mut out = Vec::new();
    dec.read_to_end(&mut out).unwrap();
    assert_eq!(out, message);
    let r = dec.finish_results().unwrap();
    assert!(r.len() == 1 && r[0].is_good(), "{r:?}");
    // The wrong key: refused, with no plaintext.
    assert!(decrypt(vec![key("dsa3072")], &data("to-elg2048.gpg")).is_err());
}

#[test]
fn keys_under_2048_bits_are_refused_for_every_use() {
    let message = data("message.txt");
    for (signer, sig) in [("dsa1024", "dsa1024.sig"), ("rsa1024", "rsa1024.sig")] {
        let r = detached(&[cert(signer)], &data(sig), &message);
        assert!(!r.iter().any(SigResult::is_good), "{sig}: {r:?}");
        // Validation names the reason.
        let e = cert(signer).validate(AT).unwrap_err();
        assert!(matches!(e, Error::KeyTooSmall { bits: 1024, min: 2048 }), "{signer}: {e}");
        assert!(e.to_string().contains("too small"));
    }
    for (keyname, msg) in [("dsa1024", "to-elg1024.gpg"), ("rsa1024", "to-rsa1024.gpg")] {
        assert!(decrypt(vec![key(keyname)], &data(msg)).is_err(), "{msg}");
    }
    // The crypto layer refuses them as well.
    let small = cert("dsa1024");
    let (PublicMaterial::Dsa { .. }, PublicMaterial::Elgamal { .. }) =
        (small.primary.public().material(), small.subkeys[0].key.public().material())
    else {
        panic!("DSA and Elgamal")
    };
    for m in [small.primary.public().material(), small.subkeys[0].key.public().material()] {
        assert!(matches!(m.require_size(), Err(Error::KeyTooSmall { bits: 1024, .. })));
    }
    let digest = crypto::Hasher::digest(HashAlg::Sha256, b"x");
    let sig = SigMaterial::Dsa { r: Mpi::new(&[1]), s: Mpi::new(&[1]) };
    let e = crypto::verify(small.primary.public().material(), HashAlg::Sha256, &digest, &sig).unwrap_err();
    assert!(matches!(e, Error::KeyTooSmall { bits: 1024, min: 2048 }), "{e}");
}

#[test]
fn nothing_is_encrypted_to_elgamal_or_small_keys() {
    for name in ["dsa2048", "dsa1024", "rsa1024"] {
        let c = cert(name);
        let plan = c.validate(AT).and_then(|v| EncryptionPlan::new(&[v], false).map(|_| ()));
        match name {
            "dsa2048" => assert!(matches!(plan, Err(Error::UnsupportedPublicKeyAlg(16))), "{name}: {plan:?}"),
            _ => assert!(matches!(plan, Err(Error::KeyTooSmall { .. })), "{name}: {plan:?}"),
        }
    }
}

#[test]
fn every_bit_flip_in_a_dsa_signature_is_rejected() {
    let message = data("message.txt");
    let certs = [cert("dsa2048")];
    let sig = read_signatures(data("dsa2048-sha512.sig").as_slice()).unwrap().remove(0);
    let SigMaterial::Dsa { r, s } = sig.material() else { panic!("a DSA signature") };
    let f = sig.hashed_fields();
    let mut h = hashing::begin(&f);
    h.update(&message);
    let digest = hashing::finish(h, &f);
    let key = certs[0].primary.public().material();
    crypto::verify(key, HashAlg::Sha512, &digest, sig.material()).unwrap();
    for (which, value) in [("r", r), ("s", s)] {
        let bytes = value.as_bytes();
        // A spread of positions: first and last octets, and every 7th between.
        for i in (0..bytes.len()).step_by(7).chain([bytes.len() - 1]) {
            for bit in [0x01, 0x80, 0x10] {
                let flipped = Mpi::new(&common::flip(bytes, i, bit));
                let m = if which == "r" {
                    SigMaterial::Dsa { r: flipped, s: s.clone() }
                } else {
                    SigMaterial::Dsa { r: r.clone(), s: flipped }
                };
                assert!(crypto::verify(key, HashAlg::Sha512, &digest, &m).is_err(), "{which}[{i}] ^ {bit:#x}");
            }
        }
    }
    // And the digest: one flipped bit anywhere in its left-most 224 bits.
    for i in [0, 13, 27] {
        let d = common::flip(&digest, i, 0x04);
        assert!(crypto::verify(key, HashAlg::Sha512, &d, sig.material()).is_err(), "digest[{i}]");
    }
}

#[test]
fn dsa_checks_are_priced_by_modulus_and_fit_the_budgets() {
    use tessera::openpgp::sig::cost::{MESSAGE_BUDGET, VALIDATION_BUDGET, verify_cost};
    let (small, large) = (verify_cost(cert("dsa2048").primary.public()), verify_cost(cert("dsa3072").primary.public()));
    // Measured 35 and 92 ms; the estimate is an upper bound of that order.
    assert!((35_000..80_000).contains(&small) && (92_000..200_000).contains(&large), "{small} {large}");
    // A DSA-3072 certificate's self-signatures and a message's signature fit.
    assert!(3 * large < VALIDATION_BUDGET.primary && 4 * large < MESSAGE_BUDGET);
}

#[test]
fn fresh_gnupg_dsa_and_elgamal_keys_round_trip() {
    if !common::have_gpg() {
        return;
    }
    let gpg = common::gpg;
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let uid = "Fresh <fresh@example.org>";
    gpg(home, &["--quick-gen-key", uid, "dsa2048", "sign", "never"]);
    let fpr = String::from_utf8(gpg(home, &["--with-colons", "--list-keys", uid])).unwrap();
    let fpr = fpr.lines().find_map(|l| l.strip_prefix("fpr:::::::::")).unwrap().trim_end_matches(':').to_string();
    gpg(home, &["--quick-add-key", &fpr, "elg2048", "encrypt", "never"]);
    let text = home.join("text");
    std::fs::write(&text, b"Fresh from GnuPG 2.2.\n").unwrap();
    let t = text.to_str().unwrap();
    let sig = gpg(home, &["--local-user", &fpr, "--detach-sign", "-o", "-", t]);
    let encrypted = gpg(home, &["--recipient", &fpr, "--sign", "--local-user", &fpr, "--encrypt", "-o", "-", t]);
    let secret = Cert::from_bytes(&gpg(home, &["--export-secret-keys", &fpr])).unwrap();
    let public = [secret.to_public()];
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let mut v = Verifier::new(read_signatures(sig.as_slice()).unwrap(), &public, now);
    v.write_all(b"Fresh from GnuPG 2.2.\n").unwrap();
    let r = v.finish();
    assert!(r.len() == 1 && r[0].is_good(), "{r:?}");
    let opts = DecryptOptions { keys: vec![secret], ..DecryptOptions::default() };
    let mut dec = tessera::openpgp::VerifyingDecryptor::new(encrypted.as_slice(), &[], &opts, &public, now).unwrap();
    let mut out = Vec::new();
    dec.read_to_end(&mut out).unwrap();
    assert_eq!(out, b"Fresh from GnuPG 2.2.\n");
    let r = dec.finish_results().unwrap();
    assert!(r.len() == 1 && r[0].is_good(), "{r:?}");
}

/// Sequoia's verdicts on the fixtures: which signatures are good, and
/// whether it encrypts to each certificate.
const SEQUOIA_VERDICTS: &str = r#"
import sys, json, warnings
warnings.simplefilter("ignore")
import pysequoia as ps
req = json.load(sys.stdin)
d = req["dir"]
msg = open(d + "/message.txt", "rb").read()
out = {"verify": {}, "encrypt": {}}
for name, sig in req["sigs"]:
    cert = ps.Cert.from_file(d + "/" + name + ".cert.asc")
    try:
        r = ps.verify(bytes=msg, store=lambda ids: [cert], signature=ps.Sig.from_file(d + "/" + sig))
        out["verify"][sig] = len(r.valid_sigs) > 0
    except Exception:
        out["verify"][sig] = False
for name in req["encrypt"]:
    try:
        ps.encrypt(recipients=[ps.Cert.from_file(d + "/" + name + ".cert.asc")], bytes=b"x")
        out["encrypt"][name] = True
    except Exception:
        out["encrypt"][name] = False
print(json.dumps(out))
"#;

#[test]
fn sequoia_agrees_on_what_verifies_and_what_is_too_small() {
    let Some(python) = common::peer_python("pysequoia") else { return };
    let sigs = [
        ("dsa2048", "dsa2048-sha512.sig"),
        ("dsa3072", "dsa3072-sha256.sig"),
        ("dsa1024", "dsa1024.sig"),
        ("rsa1024", "rsa1024.sig"),
    ];
    let encrypt = ["dsa2048", "dsa3072", "dsa1024", "rsa1024"];
    let input = serde_json::json!({ "dir": fixture(""), "sigs": sigs, "encrypt": encrypt });
    let sequoia = common::run_python(&python, SEQUOIA_VERDICTS, &input);
    let message = data("message.txt");
    for (signer, sig) in sigs {
        let ours = detached(&[cert(signer)], &data(sig), &message).iter().any(SigResult::is_good);
        assert_eq!(sequoia["verify"][sig], ours, "{sig}");
    }
    // Neither encrypts to these: Elgamal is read only, the rest too small.
    for name in encrypt {
        let ours = cert(name).validate(AT).and_then(|v| EncryptionPlan::new(&[v], false)).is_ok();
        assert_eq!(sequoia["encrypt"][name], ours, "{name}");
    }
}

/// RFC 6979 A.2.2: the DSA key with (L, N) = (2048, 256).
const RFC6979_P: &str = "9DB6FB5951B66BB6FE1E140F1D2CE5502374161FD6538DF1648218642F0B5C48\
    C8F7A41AADFA187324B87674FA1822B00F1ECF8136943D7C55757264E5A1A44FFE012E9936E00C1D3E9310B01C7D1798\
    05D3058B2A9F4BB6F9716BFE6117C6B5B3CC4D9BE341104AD4A80AD6C94E005F4B993E14F091EB51743BF33050C38DE2\
    35567E1B34C3D6A5C0CEAA1A0F368213C3D19843D0B4B09DCB9FC72D39C8DE41F1BF14D4BB4563CA28371621CAD3324B\
    6A2D392145BEBFAC748805236F5CA2FE92B871CD8F9C36D3292B5509CA8CAA77A2ADFC7BFD77DDA6F71125A7456FEA15\
    3E433256A2261C6A06ED3693797E7995FAD5AABBCFBE3EDA2741E375404AE25B";
const RFC6979_Q: &str = "F2C3119374CE76C9356990B465374A17F23F9ED35089BD969F61C6DDE9998C1F";
const RFC6979_G: &str = "5C7FF6B06F8F143FE8288433493E4769C4D988ACE5BE25A0E24809670716C613\
    D7B0CEE6932F8FAA7C44D2CB24523DA53FBE4F6EC3595892D1AA58C4328A06C46A15662E7EAA703A1DECF8BBB2D05DBE\
    2EB956C142A338661D10461C0D135472085057F3494309FFA73C611F78B32ADBB5740C361C9F35BE90997DB2014E2EF5\
    AA61782F52ABEB8BD6432C4DD097BC5423B285DAFB60DC364E8161F4A2A35ACA3A10B1C4D203CC76A470A33AFDCBDD92\
    959859ABD8B56E1725252D78EAC66E71BA9AE3F1DD2487199874393CD4D832186800654760E1E34C09E4D155179F9EC0\
    DC4473F996BDCE6EED1CABED8B6F116F7AD9CF505DF0F998E34AB27514B0FFE7";
const RFC6979_Y: &str = "667098C654426C78D7F8201EAC6C203EF030D43605032C2F1FA937E5237DBD94\
    9F34A0A2564FE126DC8B715C5141802CE0979C8246463C40E6B6BDAA2513FA611728716C2E4FD53BC95B89E69949D965\
    12E873B9C8F8DFD499CC312882561ADECB31F658E934C0C197F2C4D96B05CBAD67381E7B768891E4DA3843D24D94CDFB\
    5126E9B8BF21E8358EE0E0A30EF13FD6A664C0DCE3731F7FB49A4845A4FD8254687972A2D382599C9BAC4E0ED7998193\
    078913032558134976410B89D2C171D123AC35FD977219597AA7D15C1A9A428E59194F75C721EBCBCFAE44696A499AFA\
    74E04299F132026601638CB87AB79190D4A0986315DA8EEC6561C938996BEADF";

#[test]
fn rfc6979_dsa_2048_256_vectors_verify_with_truncated_digests() {
    let mpi = |h: &str| Mpi::new(&common::unhex(&h.split_whitespace().collect::<String>()));
    let key = PublicMaterial::Dsa { p: mpi(RFC6979_P), q: mpi(RFC6979_Q), g: mpi(RFC6979_G), y: mpi(RFC6979_Y) };
    let sig = |r: &str, s: &str| SigMaterial::Dsa { r: mpi(r), s: mpi(s) };
    // Message "sample": SHA-256 is N bits; SHA-384 and SHA-512 are cut to their left-most 256.
    let cases = [
        (
            HashAlg::Sha256,
            "EACE8BDBBE353C432A795D9EC556C6D021F7A03F42C36E9BC87E4AC7932CC809",
            "7081E175455F9247B812B74583E9E94F9EA79BD640DC962533B0680793A38D53",
        ),
        (
            HashAlg::Sha384,
            "B2DA945E91858834FD9BF616EBAC151EDBC4B45D27D0DD4A7F6A22739F45C00B",
            "19048B63D9FD6BCA1D9BAE3664E1BCB97F7276C306130969F63F38FA8319021B",
        ),
        (
            HashAlg::Sha512,
            "2016ED092DC5FB669B8EFB3D1F31A91EECB199879BE0CF78F02BA062CB4C942E",
            "D0C76F84B5F091E141572A639A4FB8C230807EEA7D55C8A154A224400AFF2351",
        ),
    ];
    for (hash, r, s) in cases {
        let digest = crypto::Hasher::digest(hash, b"sample");
        crypto::verify(&key, hash, &digest, &sig(r, s)).unwrap_or_else(|e| panic!("{hash:?}: {e}"));
        // The bits past N do not count; one inside them does.
        let mut past = digest.clone();
        if past.len() > 32 {
            past[40] ^= 1;
            crypto::verify(&key, hash, &past, &sig(r, s)).unwrap();
        }
        assert!(crypto::verify(&key, hash, &common::flip(&digest, 31, 1), &sig(r, s)).is_err());
        assert!(crypto::verify(&key, hash, &crypto::Hasher::digest(hash, b"test"), &sig(r, s)).is_err());
    }
    // A hash shorter than q (SHA-224 with N = 256) is refused, though the signature is right.
    let digest = crypto::Hasher::digest(HashAlg::Sha224, b"sample");
    let sha224 = sig(
        "DC9F4DEADA8D8FF588E98FED0AB690FFCE858DC8C79376450EB6B76C24537E2C",
        "A65A9C3BC7BABE286B195D5DA68616DA8D47FA0097F36DD19F517327DC848CEC",
    );
    assert!(matches!(crypto::verify(&key, HashAlg::Sha224, &digest, &sha224), Err(Error::BadSignature)));
    // Malformed parameters are errors, never panics: an even q, r = 0, r ≥ q.
    let even_q = PublicMaterial::Dsa { p: mpi(RFC6979_P), q: Mpi::new(&[2; 32]), g: mpi(RFC6979_G), y: mpi(RFC6979_Y) };
    let digest = crypto::Hasher::digest(HashAlg::Sha256, b"sample");
    let (r, s) = (cases[0].1, cases[0].2);
    assert!(crypto::verify(&even_q, HashAlg::Sha256, &digest, &sig(r, s)).is_err());
    assert!(crypto::verify(&key, HashAlg::Sha256, &digest, &sig("00", s)).is_err());
    assert!(crypto::verify(&key, HashAlg::Sha256, &digest, &sig(RFC6979_Q, s)).is_err());
    assert!(crypto::verify(&key, HashAlg::Sha256, &digest, &sig(&"FF".repeat(40), s)).is_err());
}

#[test]
fn damaged_elgamal_session_keys_are_refused_without_panics() {
    let message = data("to-elg2048.gpg");
    let k = key("dsa2048");
    // The PKESK packet comes first (old-format header, two-octet length):
    // version, key ID, algorithm, then the MPIs c1 and c2. Flip bits
    // across both values and the key ID (an MPI's bit count may be
    // sloppy without changing the value, so its length octets are left).
    assert_eq!(message[0] & 0xfc, 0x84, "an old-format PKESK with a two-octet length");
    let mpi_len = |at: usize| usize::from(u16::from_be_bytes([message[at], message[at + 1]])).div_ceil(8);
    let c1 = 15..15 + mpi_len(13);
    let c2 = c1.end + 2..c1.end + 2 + mpi_len(c1.end);
    assert_eq!(c2.end, 3 + usize::from(u16::from_be_bytes([message[1], message[2]])), "the packet ends after c2");
    let positions = (4..12).chain(c1.clone().step_by(11)).chain(c2.clone().step_by(11)).chain([c1.end - 1, c2.end - 1]);
    for i in positions {
        for bit in [0x01, 0x80] {
            let damaged = common::flip(&message, i, bit);
            assert!(decrypt(vec![k.clone()], &damaged).is_err(), "octet {i} ^ {bit:#x}");
        }
    }
    assert_eq!(decrypt(vec![k], &message).unwrap(), data("message.txt"));
}
