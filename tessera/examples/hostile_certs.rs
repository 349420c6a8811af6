//! What hostile certificates, keyrings and signatures cost tessera, on files
//! that `scripts/bench-hostile` also gives to Sequoia (pysequoia).
//!
//! ```text
//! hostile_certs costs          measured cost of one public-key check per algorithm,
//!                              beside sig::cost::verify_cost's estimate
//! hostile_certs write DIR      writes the inputs (see `write`)
//! hostile_certs run DIR CASE   times one case on them: prints `<seconds> <verdict>`
//! hostile_certs seeds DIR      writes small hostile certificates as fuzz seeds
//!                              (fuzz/seeds/cert_parse)
//! ```

#[path = "../tests/common/hostile.rs"]
#[allow(dead_code)]
mod hostile;

use std::path::Path;
use std::time::Instant;

use hostile::*;
use tessera::openpgp::crypto::{Curve, HashAlg, Hasher, KeyType, PublicMaterial, generate, sign, verify};
use tessera::openpgp::key::{Cert, KeyProfile, KeyVersion, PublicKey};
use tessera::openpgp::sig::cost::verify_cost;
use tessera::openpgp::sig::{Verifier, read_signatures, write_signatures};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["costs"] => costs(),
        ["write", dir] => write(Path::new(dir)),
        ["run", dir, case] => run(Path::new(dir), case),
        ["seeds", dir] => seeds(Path::new(dir)),
        _ => {
            eprintln!("usage: hostile_certs costs | write DIR | run DIR CASE | seeds DIR");
            std::process::exit(2);
        }
    }
}

/// Microseconds per check, best of several rounds.
fn time_checks(public: &PublicMaterial, sig: &tessera::openpgp::crypto::SigMaterial, digest: &[u8]) -> f64 {
    let rounds = 20;
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..rounds {
            let _ = verify(public, HashAlg::Sha512, digest, sig);
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e6 / f64::from(rounds));
    }
    best
}

fn costs() {
    let digest = Hasher::digest(HashAlg::Sha512, b"data");
    println!("| key | measured µs per check | estimate (verify_cost) |");
    println!("|---|---:|---:|");
    let types = [
        ("Ed25519", KeyType::Ed25519),
        ("Ed448", KeyType::Ed448),
        ("ECDSA P-256", KeyType::Ecdsa(Curve::NistP256)),
        ("ECDSA P-384", KeyType::Ecdsa(Curve::NistP384)),
        ("ECDSA P-521", KeyType::Ecdsa(Curve::NistP521)),
        ("RSA-2048", KeyType::Rsa(2048)),
        ("RSA-4096", KeyType::Rsa(4096)),
    ];
    for (name, ty) in types {
        let (public, secret) = generate(ty).expect("keypair");
        let sig = sign(&secret, &public, HashAlg::Sha512, &digest).expect("sign");
        let key = PublicKey::new(KeyVersion::V4, CREATED, public.clone()).expect("key");
        println!("| {name} | {:.1} | {} |", time_checks(&public, &sig, &digest), verify_cost(&key));
    }
    for (bits, e) in [(8192, 65_537), (16384, 65_537), (16384, (1u64 << 33) - 1)] {
        let key = rsa_key(bits, e);
        let sig = garbage_value(&key);
        let t = time_checks(key.material(), &sig, &digest);
        println!("| RSA-{bits}, e = {e} | {t:.1} | {} |", verify_cost(&key));
    }
}

fn save(dir: &Path, name: &str, certs: &[Cert]) {
    let mut out = Vec::new();
    for c in certs {
        out.extend_from_slice(&c.to_bytes().expect("serialize"));
    }
    std::fs::write(dir.join(name), out).expect("write");
}

/// The inputs: `flood.cert` (1 MB: forged key revocations, bindings and
/// User IDs on a valid v6 certificate), `subkeys.cert` (a valid
/// certificate with 20,000 bare subkeys), `uid.cert` (a valid certificate
/// with a 1 MB User ID and 300 forged certifications of it, each hashing
/// it again), `rsa.cert` (an RSA-16384 key with
/// e = 2^33 - 1 and forged signatures), `ring.certs` (2,000 certificates,
/// one of them the signer's), `data`, `good.sig` (a signature by the
/// flooded certificate's key), `issuerless.sig` (64 signatures naming no
/// issuer).
fn write(dir: &Path) {
    std::fs::create_dir_all(dir).expect("dir");
    let data = b"hostile inputs, the same for every implementation\n".repeat(100);
    std::fs::write(dir.join("data"), &data).expect("write");
    let key = victim_key(KeyProfile::Rfc9580);
    let flood = flood_user_ids(&flood_bindings(&flood_key_revocations(&key.to_public(), 4200), 1500), 300);
    save(dir, "flood.cert", &[flood]);
    save(dir, "subkeys.cert", &[with_bare_subkeys(&key.to_public(), 20_000)]);
    save(dir, "uid.cert", &[with_huge_forged_user_id(&key.to_public())]);
    save(dir, "rsa.cert", &[rsa_flood(&rsa_key(16384, (1 << 33) - 1), 200)]);
    let mut ring = keyring(1999);
    ring.push(key.to_public());
    save(dir, "ring.certs", &ring);
    let keys = tessera::openpgp::sig::SigningKey::from_cert(&key, NOW).expect("signing key");
    let mut signer = tessera::openpgp::sig::Signer::new(&keys, tessera::openpgp::sig::SigType::Binary, CREATED + 100)
        .expect("signer");
    signer.update(&data);
    let good = signer.finish().expect("sign");
    std::fs::write(dir.join("good.sig"), write_signatures(Vec::new(), &good, false).expect("write")).expect("write");
    let other = victim_key(KeyProfile::Rfc9580);
    let sigs: Vec<_> = (0..64).map(|i| issuerless_signature(&other, &data, CREATED + i)).collect();
    let sigs = write_signatures(Vec::new(), &sigs, false).expect("write");
    std::fs::write(dir.join("issuerless.sig"), sigs).expect("write");
}

/// Cases: `validate-flood`, `validate-subkeys`, `validate-uid`, `validate-rsa`,
/// `validate-ring` (every certificate of the keyring), `verify-flood`
/// (good.sig against flood.cert), `verify-ring-issuerless`
/// (issuerless.sig against ring.certs), `verify-subkeys-issuerless`.
fn run(dir: &Path, case: &str) {
    let read = |name: &str| std::fs::read(dir.join(name)).expect("read");
    let now = NOW;
    let t = Instant::now();
    let certs = |name: &str| Cert::read_all(read(name).as_slice()).expect("certificates");
    let verdict = match case {
        "validate-flood" | "validate-subkeys" | "validate-uid" | "validate-rsa" | "validate-ring" => {
            let file = match case {
                "validate-flood" => "flood.cert",
                "validate-subkeys" => "subkeys.cert",
                "validate-uid" => "uid.cert",
                "validate-rsa" => "rsa.cert",
                _ => "ring.certs",
            };
            let certs = certs(file);
            let valid = certs.iter().filter(|c| c.validate(now).is_ok()).count();
            format!("{valid} of {} valid", certs.len())
        }
        "verify-flood" | "verify-ring-issuerless" | "verify-subkeys-issuerless" => {
            let (file, sig) = match case {
                "verify-flood" => ("flood.cert", "good.sig"),
                "verify-ring-issuerless" => ("ring.certs", "issuerless.sig"),
                _ => ("subkeys.cert", "issuerless.sig"),
            };
            let certs = certs(file);
            let sigs = read_signatures(read(sig).as_slice()).expect("signatures");
            let mut v = Verifier::new(sigs, &certs, now);
            v.update(&read("data"));
            let good = v.finish().iter().filter(|r| r.is_good()).count();
            format!("{good} good")
        }
        _ => panic!("unknown case {case}"),
    };
    println!("{:.3} {verdict}", t.elapsed().as_secs_f64());
}

/// Hostile certificates small enough for the `cert_parse` fuzz target
/// (16 KiB): each flood, a huge RSA key, an expiring back-signature.
fn seeds(dir: &Path) {
    std::fs::create_dir_all(dir).expect("dir");
    let v6 = victim(KeyProfile::Rfc9580);
    let v4 = victim(KeyProfile::Rfc4880);
    let cases = [
        ("hostile_key_revocations_v6", flood_key_revocations(&v6, 60)),
        ("hostile_key_revocations_v4", flood_key_revocations(&v4, 60)),
        ("hostile_subkey_revocations", flood_subkey_revocations(&v6, 60)),
        ("hostile_newer_bindings", flood_bindings(&v6, 30)),
        ("hostile_user_ids", flood_user_ids(&v4, 40)),
        ("hostile_bare_subkeys", with_bare_subkeys(&v6, 150)),
        ("hostile_rsa_16384", rsa_flood(&rsa_key(16384, (1 << 33) - 1), 1)),
        ("hostile_expiring_backsig", signing_subkey_with_expiring_backsig(1000).0.to_public()),
    ];
    for (name, cert) in cases {
        let bytes = cert.to_bytes().expect("serialize");
        assert!(bytes.len() <= 16 << 10, "{name}: {} octets", bytes.len());
        std::fs::write(dir.join(format!("{name}.bin")), &bytes[..]).expect("write");
    }
}
