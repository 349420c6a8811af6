//! Hostile certificates through the binaries: garbage that anyone can
//! append to a valid certificate, or publish as another certificate beside
//! it, must not stop `tessera encrypt`, `tessera-sop encrypt` or `tessera
//! verify` from using it.

use crate::hostile;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use hostile::*;
use tessera::openpgp::key::{Cert, CertKey, KeyProfile, Subkey};
use tessera::openpgp::sig::{SigType, Signer, SigningKey, write_signatures};

const T: &str = env!("CARGO_BIN_EXE_tessera");
const SOP: &str = env!("CARGO_BIN_EXE_tessera-sop");
const DATA: &[u8] = b"data for a hostile keyring\n";

fn run(exe: &str, args: &[&str], dir: &Path, stdin: Option<&Path>) -> Output {
    let input = match stdin {
        Some(p) => Stdio::from(std::fs::File::open(dir.join(p)).unwrap()),
        None => Stdio::null(),
    };
    Command::new(exe).args(args).current_dir(dir).stdin(input).output().expect("run")
}

fn write_cert(d: &Path, name: &str, cert: &Cert) {
    std::fs::write(d.join(name), cert.to_bytes().expect("serialize")).unwrap();
}

/// A valid certificate with an appended 1 MB User ID and forged
/// certifications of it (1.05 MB) still takes encryption, as Sequoia's
/// would.
#[test]
fn encrypt_to_a_certificate_with_a_huge_forged_user_id() {
    let d = tempfile::tempdir().unwrap();
    write_cert(d.path(), "victim.cert", &with_huge_forged_user_id(&victim(KeyProfile::Rfc9580)));
    std::fs::write(d.path().join("data"), DATA).unwrap();
    let o = run(T, &["encrypt", "-r", "victim.cert", "-o", "m.pgp", "data"], d.path(), None);
    assert!(o.status.success(), "tessera encrypt: {}", String::from_utf8_lossy(&o.stderr));
    let o = run(SOP, &["encrypt", "victim.cert"], d.path(), Some(Path::new("data")));
    assert!(o.status.success(), "tessera-sop encrypt: {:?} {}", o.status.code(), String::from_utf8_lossy(&o.stderr));
}

/// A signature naming its signer verifies with `tessera verify` whatever
/// else the `--signer` certificates hold: two certificates of huge RSA keys
/// that list the signer's key as a bare subkey, given first, must not
/// leave it unchecked.
#[test]
fn verify_with_certificates_listing_the_signers_key_given_first() {
    let d = tempfile::tempdir().unwrap();
    let signer = victim_key(KeyProfile::Rfc9580);
    for i in 0..2u64 {
        let mut c = rsa_flood(&rsa_key(16384, (1 << 33) - 1 - 2 * i), 60);
        c.subkeys.push(Subkey { key: CertKey::Public(signer.primary.public().clone()), sigs: Vec::new() });
        write_cert(d.path(), &format!("squatter{i}.cert"), &c);
    }
    write_cert(d.path(), "signer.cert", &signer.to_public());
    let keys = SigningKey::from_cert(&signer, u64::from(CREATED) + 50).expect("signing key");
    let mut s = Signer::new(&keys[..1], SigType::Binary, CREATED + 50).expect("signer");
    s.update(DATA);
    let sig = write_signatures(Vec::new(), &s.finish().expect("signature"), false).expect("write");
    std::fs::write(d.path().join("data.sig"), sig).unwrap();
    std::fs::write(d.path().join("data"), DATA).unwrap();
    let args = [
        "verify",
        "--signer",
        "squatter0.cert",
        "--signer",
        "squatter1.cert",
        "--signer",
        "signer.cert",
        "--signature",
        "data.sig",
        "data",
    ];
    let o = run(T, &args, d.path(), None);
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    // Alone, the signer's certificate verifies it.
    let args = ["verify", "--signer", "signer.cert", "--signature", "data.sig", "data"];
    assert!(run(T, &args, d.path(), None).status.success());
}
