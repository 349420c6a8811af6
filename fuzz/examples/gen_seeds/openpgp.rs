//! Seeds of the OpenPGP targets: `packet_parse`, `armor_decode`,
//! `decrypt_password` and `decrypt_session_key`.

use std::path::Path;

use tessera::aead::Mode;
use tessera::openpgp::SymAlg;
use tessera::openpgp::s2k::{HashAlg, S2k};
use tessera::openpgp::skesk::Skesk;
use tessera_fuzz::harness::{PASSWORD, SESSION_KEY};

use super::{Out, armored, literal_partial, mode0, plaintexts, v2_header};

/// (name, armored, binary) of the RFC 9580 messages.
type Rfc = [(String, Vec<u8>, Vec<u8>)];

/// Messages made for the seeds: (name, message).
type Made = [(String, Vec<u8>)];

/// packet_parse: `[selector][bytes]`.
pub fn packet_parse(root: &Path, rfc: &Rfc, made: &Made) {
    let mut out = Out::new(root, "packet_parse");
    for (i, (name, _, binary)) in rfc.iter().enumerate() {
        out.put(&format!("{name}.bin"), &[&[(i * 37) as u8][..], binary].concat());
    }
    for (i, (name, msg)) in made.iter().enumerate().filter(|(_, (_, m))| m.first().is_some_and(|b| b & 0x80 != 0)) {
        out.put(&format!("{name}.bin"), &[&[(i * 53) as u8][..], msg].concat());
    }
    let mut body = Vec::new();
    Skesk::seal_v6(
        &SESSION_KEY,
        PASSWORD,
        SymAlg::Aes256,
        Mode::Gcm,
        S2k::Argon2 { salt: [3; 16], t: 1, p: 1, m: 3 },
        &[1; 12],
    )
    .expect("v6")
    .write(&mut body);
    out.put("skesk_v6_body.bin", &[&[0x10][..], &body].concat());
    let mut body = vec![0x18];
    S2k::Salted { hash: HashAlg::Sha1, salt: [5; 8] }.write(&mut body);
    out.put("s2k_salted.bin", &body);
    out.put("v2_header.bin", &[&[0x08][..], &v2_header().encode()[1..], &[0; 8]].concat());
    out.put("partial_1500.bin", &[&[0x2a][..], &literal_partial(&[0x61; 1500])].concat());
    out.put("old_format.bin", &[0x01, 0xac, 5, b'b', 0, 0, 0, 0, 0xaf, b't', 1, b'x', 0, 0, 0, 0, b'h', b'i']);
    out.report();
}

/// armor_decode: the text itself.
pub fn armor_decode(root: &Path, rfc: &Rfc) {
    let mut out = Out::new(root, "armor_decode");
    for (name, text, binary) in rfc {
        out.put(&format!("{name}.asc"), text);
        if name.ends_with("ocb") {
            out.put(&format!("{name}_crc.asc"), &armored(binary, true));
            let crlf = String::from_utf8_lossy(text).replace('\n', "\r\n");
            out.put(&format!("{name}_crlf.asc"), crlf.as_bytes());
            let mut with_headers = b"Some text before the armor.\n\n".to_vec();
            with_headers.extend(
                String::from_utf8_lossy(text).replacen("-----\n", "-----\nComment: fuzz seed\nVersion: x\n", 1).bytes(),
            );
            out.put(&format!("{name}_headers.asc"), &with_headers);
        }
    }
    out.put("short_lines.asc", b"-----BEGIN PGP MESSAGE-----\n\nwy\nAE\nBg==\n=abcd\n-----END PGP MESSAGE-----\n");
    out.put("empty_body.asc", b"-----BEGIN PGP MESSAGE-----\n\n-----END PGP MESSAGE-----\n");
    out.report();
}

/// decrypt_password: whole messages.
pub fn decrypt_password(root: &Path, rfc: &Rfc, made: &Made) {
    let mut out = Out::new(root, "decrypt_password");
    for (name, text, binary) in rfc {
        out.put(&format!("{name}.asc"), text);
        if name.ends_with("eax") {
            out.put(&format!("{name}.gpg"), binary);
        }
    }
    for (name, msg) in made {
        out.put(&format!("{name}.gpg"), msg);
    }
    out.report();
}

/// decrypt_session_key: `[mode][...]`.
pub fn decrypt_session_key(root: &Path, made: &Made) {
    let mut out = Out::new(root, "decrypt_session_key");
    // mode 0: whole messages under SESSION_KEY (selector picks the cipher).
    for (name, msg) in made.iter().filter(|(n, _)| n.starts_with("v4_v1") || n.starts_with("v6_v2")) {
        // v1 needs the cipher (Aes128); v2 takes it from the packet. Pieces
        // of 512 and 1 octets.
        let sel = if name.starts_with("v4") { mode0(1, 3, false) } else { mode0(0, 1, true) };
        out.put(&format!("m0_{name}.bin"), &[&[sel][..], msg].concat());
    }
    // modes 1 and 2: plaintext packet streams.
    for (i, (name, pt)) in plaintexts().iter().enumerate() {
        let sel1 = 1 + 3 * (i as u8 % 8);
        out.put(&format!("m1_{name}.bin"), &[&[sel1][..], pt].concat());
        let sel2 = 2 + 3 * (i as u8 % 8);
        out.put(&format!("m2_{name}.bin"), &[&[sel2, i as u8, i as u8 / 3, i as u8 % 3][..], pt].concat());
    }
    out.report();
}
