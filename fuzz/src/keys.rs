//! Fuzz harness for certificate and secret key parsing (`cert_parse`).
//!
//! Arbitrary bytes (binary or armored) must never panic the reader, the
//! validity check or the serializer; and whatever parses must re-serialize
//! to bytes that parse back to the same bytes.

use tessera::openpgp::key::Cert;

/// Validity is decided at this time (2024-06-01).
const AT: u64 = 1_717_200_000;

/// Parses, validates, re-serializes.
pub fn cert_parse(data: &[u8]) {
    let Ok(certs) = Cert::read_all(data) else { return };
    for c in certs {
        if let Ok(v) = c.validate(AT) {
            let _ = v.require_encryption_keys();
            let _ = v.signing_keys();
        }
        let Ok(bytes) = c.to_bytes() else { continue };
        let again = Cert::read_all(bytes.as_slice()).expect("a serialized certificate parses");
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].to_bytes().expect("serializes"), bytes, "round trip");
    }
}
