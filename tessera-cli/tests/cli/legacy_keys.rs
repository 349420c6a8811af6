//! tessera-sop with GnuPG 2.2's DSA/Elgamal keys (tessera/tests/data/legacy):
//! DSA signatures verify and Elgamal messages decrypt; keys under 2048 bits
//! give the SOP codes of draft-dkg-openpgp-stateless-cli-16: encrypting to
//! one 17 (KEY_CANNOT_ENCRYPT), decrypting with only such keys 29
//! (CANNOT_DECRYPT), verifying with them 3 (NO_SIGNATURE).

use crate::common;

use common::sop::{sop, sop_code, sop_ok};

fn legacy(name: &str) -> String {
    format!("{}/../tessera/tests/data/legacy/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn message() -> Vec<u8> {
    std::fs::read(legacy("message.txt")).unwrap()
}

#[test]
fn dsa_signatures_verify() {
    for (cert, sig) in [("dsa2048.cert.asc", "dsa2048-sha512.sig"), ("dsa3072.cert.asc", "dsa3072-sha256.sig")] {
        let out = sop_ok(&["verify", &legacy(sig), &legacy(cert)], &message());
        assert!(!out.is_empty(), "{sig}: a verification line");
        let text = std::fs::read(legacy("dsa2048-signed.gpg")).unwrap();
        if cert.starts_with("dsa2048") {
            assert_eq!(sop_ok(&["inline-verify", &legacy(cert)], &text), message());
        }
    }
}

#[test]
fn elgamal_messages_decrypt() {
    for (key, msg) in [("dsa2048.key.asc", "to-elg2048.gpg"), ("dsa3072.key.asc", "to-elg3072.gpg")] {
        let input = std::fs::read(legacy(msg)).unwrap();
        assert_eq!(sop_ok(&["decrypt", &legacy(key)], &input), message(), "{msg}");
    }
}

#[test]
fn keys_under_2048_bits_get_the_sop_codes() {
    for cert in ["dsa1024.cert.asc", "rsa1024.cert.asc"] {
        sop_code(&["encrypt", &legacy(cert)], b"secret", 17);
    }
    for (key, msg) in [("dsa1024.key.asc", "to-elg1024.gpg"), ("rsa1024.key.asc", "to-rsa1024.gpg")] {
        sop_code(&["decrypt", &legacy(key)], &std::fs::read(legacy(msg)).unwrap(), 29);
    }
    for (cert, sig) in [("dsa1024.cert.asc", "dsa1024.sig"), ("rsa1024.cert.asc", "rsa1024.sig")] {
        sop_code(&["verify", &legacy(sig), &legacy(cert)], &message(), 3);
    }
    // Signing with one: the key cannot sign (79), and says why.
    let o = sop(&["sign", &legacy("rsa1024.key.asc")], b"data");
    assert_eq!(o.status.code(), Some(79));
    assert!(String::from_utf8_lossy(&o.stderr).contains("too small"), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn nothing_is_encrypted_to_elgamal() {
    // Read only: encrypting to a certificate whose only encryption key is
    // Elgamal is an unsupported algorithm (13), as it is to Sequoia.
    sop_code(&["encrypt", &legacy("dsa2048.cert.asc")], b"secret", 13);
}
