//! Peers behind the same stdin-to-stdout interface as the `tessera` CLI,
//! for the whole-process timings in BENCHMARKS.md:
//!
//! ```sh
//! cargo build --release -p tessera --example cli_peers
//! target/release/examples/cli_peers siv-encrypt KEYFILE < in > out   # RustCrypto aes-siv: V || C
//! target/release/examples/cli_peers pgp-encrypt PWFILE  < in > out   # rPGP: SEIPD v2, OCB, AES-128
//! target/release/examples/cli_peers pgp-decrypt PWFILE  < in > out
//! ```
//!
//! Like the CLI, each reads all of stdin (rPGP's builder and AES-SIV need
//! the whole message), and writes the result to stdout.

use std::io::{Read, Write};

use aes_siv::KeyInit;
use aes_siv::aead::inout::InOutBuf;
use pgp::composed::{Message, MessageBuilder};
use pgp::crypto::aead::{AeadAlgorithm, ChunkSize};
use pgp::crypto::hash::HashAlgorithm;
use pgp::crypto::sym::SymmetricKeyAlgorithm;
use pgp::types::{Password, StringToKey};

fn stdin() -> Vec<u8> {
    let mut data = Vec::new();
    std::io::stdin().lock().read_to_end(&mut data).expect("read stdin");
    data
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, op, file] = &args[..] else {
        panic!("usage: cli_peers siv-encrypt KEYFILE | pgp-encrypt|pgp-decrypt PWFILE")
    };
    let secret = std::fs::read_to_string(file).expect("read key or password file");
    let out = match op.as_str() {
        "siv-encrypt" => {
            // No associated data, as `tessera siv encrypt` without --ad: V || C.
            let key = tessera::hex::decode(secret.trim()).expect("hex key");
            let mut siv = aes_siv::siv::Aes128Siv::new_from_slice(&key).expect("a 32-byte key");
            let pt = stdin();
            let mut out = vec![0u8; pt.len() + 16];
            let buf = InOutBuf::new(&pt, &mut out[16..]).expect("same lengths");
            let tag = siv.encrypt_inout_detached::<[&[u8]; 0], &[u8]>([], buf).expect("encrypt");
            out[..16].copy_from_slice(&tag);
            out
        }
        "pgp-encrypt" => {
            use rand08::SeedableRng;
            let pw = Password::from(secret.trim_end_matches('\n'));
            let mut rng = rand08::rngs::StdRng::from_entropy();
            let mut b = MessageBuilder::from_bytes("", stdin()).seipd_v2(
                &mut rng,
                SymmetricKeyAlgorithm::AES128,
                AeadAlgorithm::Ocb,
                ChunkSize::C256KiB,
            );
            let s2k = StringToKey::new_iterated(&mut rng, HashAlgorithm::Sha256, 0);
            b.encrypt_with_password(&mut rng, s2k, &pw).expect("password");
            b.to_vec(&mut rng).expect("encrypt")
        }
        "pgp-decrypt" => {
            let pw = Password::from(secret.trim_end_matches('\n'));
            let data = stdin();
            let msg = Message::from_bytes(&data[..]).expect("an OpenPGP message");
            let mut msg = msg.decrypt_with_password(&pw).expect("decrypt");
            let mut pt = Vec::new();
            msg.read_to_end(&mut pt).expect("decrypt");
            pt
        }
        _ => panic!("unknown operation {op}"),
    };
    std::io::stdout().lock().write_all(&out).expect("write stdout");
}
