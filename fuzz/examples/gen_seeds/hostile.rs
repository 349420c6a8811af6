//! Seeds from `tessera::openpgp::hostile`, added beside the others (the
//! target directories are not emptied first): signed packet streams in
//! every layout the message grammar forbids, cleartext-signed messages
//! with each leniency, and password-encrypted messages whose end is
//! removed, zeroed or changed.

use std::path::Path;

use tessera::openpgp::hostile::{Clear, Shape, Signed, Tamper, cleartext, encrypt};

use super::Out;

/// Signing time of the A.4 key's seeds.
const WHEN: u64 = 1_727_740_001;

/// Writes the hostile seeds of `sig_parse`, `decrypt_password` and
/// `decrypt_session_key`.
pub fn seeds(root: &Path) {
    let key = &tessera_fuzz::harness::decrypt_key::keys()[0];
    let signed = Signed::new(key, b"hostile seed data", WHEN).expect("the A.4 key signs");
    let clear = cleartext(key, WHEN).expect("the A.4 key signs");
    // sig_parse: selector 2 reads an inline-signed message whole, 3 a
    // cleartext-signed one.
    let mut out = Out::keep(root, "sig_parse");
    for shape in Shape::ALL {
        out.put(&format!("hostile_{}.bin", shape.name()), &[&[2][..], &shape.build(&signed)].concat());
    }
    for c in Clear::ALL {
        out.put(&format!("hostile_clear_{}.asc", c.name()), &[&[3][..], &c.build(&clear)].concat());
    }
    out.report();
    // decrypt_password: whole messages for "password".
    let mut out = Out::keep(root, "decrypt_password");
    for version in [1, 2] {
        for tamper in Tamper::ALL {
            let m = encrypt(&Shape::CompressedSigned.build(&signed), version, tamper);
            out.put(&format!("hostile_v{version}_compressed_signed_{}.gpg", tamper.name()), &m);
        }
        for shape in Shape::ALL.into_iter().filter(|s| !s.is_valid()) {
            let m = encrypt(&shape.build(&signed), version, Tamper::None);
            out.put(&format!("hostile_v{version}_{}.gpg", shape.name()), &m);
        }
    }
    out.report();
    // decrypt_session_key, modes 1 and 2: the packet streams sealed by the
    // harness in SEIPD v1 / v2.
    let mut out = Out::keep(root, "decrypt_session_key");
    for (i, shape) in Shape::ALL.into_iter().enumerate() {
        let pt = shape.build(&signed);
        let sel1 = 1 + 3 * (i as u8 % 8);
        out.put(&format!("m1_hostile_{}.bin", shape.name()), &[&[sel1][..], &pt].concat());
        let sel2 = 2 + 3 * (i as u8 % 8);
        let prefix = [sel2, i as u8, i as u8 / 3, i as u8 % 3];
        out.put(&format!("m2_hostile_{}.bin", shape.name()), &[&prefix[..], &pt].concat());
    }
    out.report();
}
