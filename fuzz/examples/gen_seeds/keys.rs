//! Seeds of `decrypt_key` and `sig_parse`, from the key vectors and
//! messages made with the RFC 9580 A.4 key.

use std::fs;
use std::io::Write;
use std::path::Path;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use tessera::openpgp::packet::tag;
use tessera::openpgp::{EncryptOptions, Encryptor, Profile};

use super::{Out, packet, split_packets};

/// decrypt_key: `[keys][piece]` then a message (see `harness::decrypt_key`).
pub fn decrypt_key(root: &Path, vectors: &Path) {
    use tessera::openpgp::sig::{SigType, Signer, SigningKey};
    use tessera::openpgp::{SigningEncryptor, key::Cert};
    let mut out = Out::new(root, "decrypt_key");
    let keys = vectors.join("openpgp/keys");
    for (name, file, sel) in [
        ("v6_seipdv1", "v6-25519-annex-a-4/enc-seipdv1.msg", 1u8),
        ("v6_seipdv2", "v6-25519-annex-a-4/enc-seipdv2.msg", 0),
        ("v4_seipdv2", "v4-legacy/enc-seipdv2.msg", 2),
        ("a8_x25519_ocb", "rfc9580_a8_x25519_ocb.asc", 1),
        ("bad_v6_message_v4_key", "v6-25519-annex-a-4/enc-seipdv2.msg", 2),
    ] {
        let msg = fs::read(keys.join(file)).expect("message vector");
        out.put(&format!("{name}.bin"), &[&[sel, 0][..], &msg].concat());
    }
    let [v6, v4] = tessera_fuzz::harness::decrypt_key::keys();
    let plain = b"A fuzz seed encrypted to a key. ".repeat(4);
    let signing = SigningKey::from_cert(v6, 1_727_740_000).expect("A.4 key signs");
    for (name, recipients, profile, anonymous, armor, sel, piece) in [
        ("made_v6_v2", vec![v6], Profile::Rfc9580, false, false, 1u8, 0u8),
        ("made_v4_v1", vec![v4], Profile::Rfc4880, false, false, 2, 7),
        ("made_both_anonymous", vec![v6, v4], Profile::Rfc9580, true, false, 0, 1),
        ("made_both_armor", vec![v6, v4], Profile::Rfc9580, false, true, 3, 64),
        ("made_signed_v6", vec![v6], Profile::Rfc9580, false, false, 5, 0),
        ("made_signed_v4_v1", vec![v4], Profile::Rfc4880, false, false, 6, 3),
    ] {
        let opts = EncryptOptions {
            profile,
            recipients: recipients.iter().map(|c: &&Cert| c.to_public()).collect(),
            anonymous_recipients: anonymous,
            armor,
            chunk_octet: 0,
            ..EncryptOptions::default()
        };
        let msg = if sel & 4 == 0 {
            let mut e = Encryptor::new(Vec::new(), &[], &opts).expect("encryptor");
            e.write_all(&plain).expect("write");
            e.finish().expect("finish")
        } else {
            let signer = Signer::new(&signing, SigType::Binary, 1_727_740_001).expect("signer");
            let mut e = SigningEncryptor::new(Vec::new(), &[], &opts, signer).expect("signing encryptor");
            e.write_all(&plain).expect("write");
            e.finish().expect("finish")
        };
        out.put(&format!("{name}.bin"), &[&[sel, piece][..], &msg].concat());
        if name == "made_v6_v2" {
            let mut bad = msg.clone();
            *bad.last_mut().expect("message") ^= 1;
            out.put("bad_made_v6_v2_modified.bin", &[&[sel, piece][..], &bad].concat());
        }
    }
    out.report();
}

/// sig_parse: one selector octet, then the bytes (see `harness::sig_parse`).
pub fn sig_parse(root: &Path, vectors: &Path) {
    use tessera::openpgp::sig::{ClearSigner, InlineSigner, SigType, Signer, SigningKey, write_signatures};
    let mut out = Out::new(root, "sig_parse");
    let pgp = vectors.join("openpgp");
    let inline = fs::read(pgp.join("rfc9580_a7_inline.asc")).expect("A.7");
    let clear = fs::read(pgp.join("rfc9580_a6_cleartext.asc")).expect("A.6");
    for (i, (t, _, body)) in split_packets(&inline).into_iter().enumerate() {
        match t {
            tag::SIGNATURE => out.put(&format!("a7_sig_{i}.bin"), &[&[0][..], &body].concat()),
            tag::ONE_PASS_SIGNATURE => out.put(&format!("a7_ops_{i}.bin"), &[&[1][..], &body].concat()),
            _ => {}
        }
    }
    for cert in ["keys/rfc9580_a3_v6_cert.asc", "keys/alice_cert.asc"] {
        let packets = split_packets(&fs::read(pgp.join(cert)).expect("cert"));
        for (i, (_, _, body)) in packets.iter().filter(|p| p.0 == tag::SIGNATURE).enumerate() {
            out.put(&format!("cert_sig_{}_{i}.bin", &cert[5..9]), &[&[0][..], body].concat());
        }
    }
    out.put("a7_inline_whole.asc", &[&[2][..], &inline].concat());
    out.put("a7_inline_pieces3.asc", &[&[12][..], &inline].concat());
    out.put("a6_cleartext.asc", &[&[3][..], &clear].concat());
    // Made with the A.4 key (the A.3 certificate's secret): inline,
    // compressed inline, cleartext and detached.
    let v6 = &tessera_fuzz::harness::decrypt_key::keys()[0];
    let keys = SigningKey::from_cert(v6, 1_727_740_000).expect("A.4 key signs");
    let mut w = InlineSigner::new(Vec::new(), Signer::new(&keys, SigType::Binary, 1_727_740_001).expect("signer"))
        .expect("inline");
    w.write_all(b"data").expect("write");
    let made = w.finish().expect("finish");
    out.put("made_inline.bin", &[&[7][..], &made].concat());
    let mut z = ZlibEncoder::new(vec![2u8], Compression::default());
    z.write_all(&made).expect("zlib");
    out.put("made_inline_zlib.bin", &[&[2][..], &packet(tag::COMPRESSED, &z.finish().expect("zlib"))].concat());
    let mut c =
        ClearSigner::new(Vec::new(), Signer::new(&keys, SigType::Text, 1_727_740_001).expect("signer")).expect("clear");
    c.write_all(b"line one\n- dashed\nlast").expect("write");
    out.put("made_cleartext.asc", &[&[3][..], &c.finish().expect("finish")].concat());
    let mut s = Signer::new(&keys, SigType::Binary, 1_727_740_001).expect("signer");
    s.update(b"data");
    let sigs = s.finish().expect("sign");
    out.put("made_detached.bin", &[&[4][..], &write_signatures(Vec::new(), &sigs, false).expect("sigs")].concat());
    out.put("made_detached.asc", &[&[9][..], &write_signatures(Vec::new(), &sigs, true).expect("sigs")].concat());
    out.report();
}
