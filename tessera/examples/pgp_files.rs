//! OpenPGP public-key benchmark driver: one operation on files, timed, for
//! tessera (library) or rPGP (the `pgp` crate), so that `scripts/bench-pgp`
//! can run every peer on the same file in its own process.
//!
//! ```text
//! pgp_files encrypt        tessera|rpgp IN OUT CERT...
//! pgp_files decrypt        tessera|rpgp IN OUT KEY
//! pgp_files sign-encrypt   tessera|rpgp sha256|sha512 IN OUT SIGNKEY CERT
//! pgp_files decrypt-verify tessera|rpgp IN OUT KEY SIGNCERT
//! pgp_files hash           sha256|sha512 IN
//! pgp_files pkesk          ROUNDS
//! ```
//!
//! Each prints one line: `<seconds> <MiB/s of the plaintext>` (or, for
//! `pkesk`, microseconds per operation). Build with
//! `cargo build --release -p tessera --example pgp_files`.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::time::Instant;

use pgp::composed::{Deserializable, Message, MessageBuilder, SignedPublicKey, SignedSecretKey};
use pgp::crypto::aead::{AeadAlgorithm, ChunkSize};
use pgp::crypto::hash::HashAlgorithm;
use pgp::crypto::sym::SymmetricKeyAlgorithm;
use pgp::types::Password;
use tessera::aead::Mode;
use tessera::openpgp::crypto::{self, HashAlg, Hasher, KeyType, PkeskVersion};
use tessera::openpgp::key::Cert;
use tessera::openpgp::sig::{SigType, Signer, SigningKey};
use tessera::openpgp::{
    DecryptOptions, Decryptor, EncryptOptions, Encryptor, SigningEncryptor, SymAlg, VerifyingDecryptor,
};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

const BUF: usize = 1 << 18;

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

fn certs(path: &str) -> Res<Vec<Cert>> {
    Ok(Cert::read_all(BufReader::new(File::open(path)?))?)
}

fn hash_alg(name: &str) -> Res<(HashAlg, HashAlgorithm)> {
    match name {
        "sha256" => Ok((HashAlg::Sha256, HashAlgorithm::Sha256)),
        "sha512" => Ok((HashAlg::Sha512, HashAlgorithm::Sha512)),
        _ => Err(format!("unknown hash {name}").into()),
    }
}

fn input(path: &str) -> Res<BufReader<File>> {
    Ok(BufReader::with_capacity(BUF, File::open(path)?))
}

fn output(path: &str) -> Res<BufWriter<File>> {
    Ok(BufWriter::with_capacity(BUF, File::create(path)?))
}

/// The options tessera's CLI uses (AES-256, OCB unless the recipients say otherwise).
fn encrypt_options(recipients: Vec<Cert>) -> EncryptOptions {
    EncryptOptions { cipher: SymAlg::Aes256, aead: Mode::Ocb, recipients, ..EncryptOptions::default() }
}

fn tessera_encrypt(inp: &str, out: &str, cert_paths: &[String]) -> Res<()> {
    let mut recipients = Vec::new();
    for p in cert_paths {
        recipients.extend(certs(p)?);
    }
    let mut enc = Encryptor::new(output(out)?, &[], &encrypt_options(recipients))?;
    std::io::copy(&mut input(inp)?, &mut enc)?;
    enc.finish()?.flush()?;
    Ok(())
}

fn tessera_decrypt(inp: &str, out: &str, key: &str) -> Res<()> {
    let opts = DecryptOptions { keys: certs(key)?, ..DecryptOptions::default() };
    let mut dec = Decryptor::with_options(input(inp)?, &[], &opts)?;
    let mut w = output(out)?;
    std::io::copy(&mut dec, &mut w)?;
    w.flush()?;
    Ok(())
}

fn tessera_sign_encrypt(hash: HashAlg, inp: &str, out: &str, key: &str, cert: &str) -> Res<()> {
    let signer_cert = certs(key)?.remove(0);
    let t = now();
    let mut keys = SigningKey::from_cert(&signer_cert, t)?;
    for k in &mut keys {
        k.hash = hash;
    }
    let signer = Signer::new(&keys, SigType::Binary, t as u32)?;
    let mut enc = SigningEncryptor::new(output(out)?, &[], &encrypt_options(certs(cert)?), signer)?;
    std::io::copy(&mut input(inp)?, &mut enc)?;
    enc.finish()?.flush()?;
    Ok(())
}

fn tessera_decrypt_verify(inp: &str, out: &str, key: &str, cert: &str) -> Res<()> {
    let opts = DecryptOptions { keys: certs(key)?, ..DecryptOptions::default() };
    let signers: Vec<Cert> = certs(cert)?.iter().map(Cert::to_public).collect();
    let mut dec = VerifyingDecryptor::new(input(inp)?, &[], &opts, &signers, now())?;
    let mut w = output(out)?;
    std::io::copy(&mut dec, &mut w)?;
    dec.finish()?;
    w.flush()?;
    Ok(())
}

fn rpgp_public(path: &str) -> Res<SignedPublicKey> {
    Ok(SignedPublicKey::from_bytes(BufReader::new(File::open(path)?))?)
}

fn rpgp_secret(path: &str) -> Res<SignedSecretKey> {
    Ok(SignedSecretKey::from_bytes(BufReader::new(File::open(path)?))?)
}

/// The encryption subkey rPGP encrypts to (the first one flagged for it).
fn rpgp_encryption_subkey(k: &SignedPublicKey) -> Res<&pgp::composed::SignedPublicSubKey> {
    k.public_subkeys
        .iter()
        .find(|s| s.signatures.iter().any(|sig| sig.key_flags().encrypt_comms()))
        .ok_or_else(|| "no encryption subkey".into())
}

fn rpgp_encrypt(inp: &str, out: &str, cert_paths: &[String], sign: Option<(&str, HashAlgorithm)>) -> Res<()> {
    let mut rng = rand08::thread_rng();
    let keys = cert_paths.iter().map(|p| rpgp_public(p)).collect::<Res<Vec<_>>>()?;
    let signing_key = sign.map(|(p, _)| rpgp_secret(p)).transpose()?;
    let signing_sub = match &signing_key {
        Some(k) => Some(
            k.secret_subkeys
                .iter()
                .find(|s| s.signatures.iter().any(|sig| sig.key_flags().sign()))
                .ok_or("no signing subkey")?,
        ),
        None => None,
    };
    let file = MessageBuilder::from_file(inp);
    let mut w = output(out)?;
    // Every peer writes SEIPD v2 with AES-256 OCB, 256 KiB chunks.
    let mut b = file.seipd_v2(&mut rng, SymmetricKeyAlgorithm::AES256, AeadAlgorithm::Ocb, ChunkSize::C256KiB);
    for k in &keys {
        b.encrypt_to_key(&mut rng, &rpgp_encryption_subkey(k)?.key)?;
    }
    if let (Some(sub), Some((_, h))) = (signing_sub, sign) {
        b.sign(&sub.key, Password::empty(), h);
    }
    b.to_writer(&mut rng, &mut w)?;
    w.flush()?;
    Ok(())
}

fn rpgp_decrypt(inp: &str, out: &str, key: &str, verify: Option<&str>) -> Res<()> {
    let sk = rpgp_secret(key)?;
    let msg = Message::from_file(inp)?;
    let mut msg = msg.decrypt(&Password::empty(), &sk)?;
    let mut w = output(out)?;
    let mut buf = vec![0u8; BUF];
    loop {
        let n = msg.read(&mut buf)?;
        if n == 0 {
            break;
        }
        w.write_all(&buf[..n])?;
    }
    w.flush()?;
    if let Some(cert) = verify {
        let pk = rpgp_public(cert)?;
        let sub = pk
            .public_subkeys
            .iter()
            .find(|s| s.signatures.iter().any(|sig| sig.key_flags().sign()))
            .ok_or("no signing subkey")?;
        msg.verify(&sub.key)?;
    }
    Ok(())
}

fn hash_file(hash: HashAlg, inp: &str) -> Res<()> {
    let mut h = Hasher::new(hash);
    let mut r = File::open(inp)?;
    let mut buf = vec![0u8; BUF];
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    std::hint::black_box(h.finalize());
    Ok(())
}

/// Microseconds per PKESK encrypt and decrypt (v6 for X25519, v3 for
/// RSA-3072 as a v4 key would use), best of five rounds of `rounds` calls.
fn pkesk(rounds: u32) -> Res<()> {
    const FPR: [u8; 32] = [0x42; 32];
    const SESSION_KEY: [u8; 32] = [0x5a; 32];
    for (name, kind, version, sym) in [
        ("x25519", KeyType::X25519, PkeskVersion::V6, None),
        ("rsa3072", KeyType::Rsa(3072), PkeskVersion::V3, Some(SymAlg::Aes256)),
    ] {
        let (public, secret) = crypto::generate(kind)?;
        let payload = crypto::encrypt_session_key(&public, &FPR, version, sym, &SESSION_KEY)?;
        let best = |f: &dyn Fn() -> Res<()>| -> Res<f64> {
            let mut best = f64::MAX;
            for _ in 0..5 {
                let t = Instant::now();
                for _ in 0..rounds {
                    f()?;
                }
                best = best.min(t.elapsed().as_secs_f64() * 1e6 / f64::from(rounds));
            }
            Ok(best)
        };
        let enc = best(&|| {
            std::hint::black_box(crypto::encrypt_session_key(&public, &FPR, version, sym, &SESSION_KEY)?);
            Ok(())
        })?;
        let dec = best(&|| {
            std::hint::black_box(crypto::decrypt_session_key(&secret, &public, &FPR, &payload, version)?);
            Ok(())
        })?;
        // The key as every call prepared it before `PreparedRsa`: a clone
        // starts with an empty cache.
        let fresh = best(&|| {
            std::hint::black_box(crypto::decrypt_session_key(&secret.clone(), &public, &FPR, &payload, version)?);
            Ok(())
        })?;
        println!("{name} encrypt {enc:.1} us decrypt {dec:.1} us decrypt-unprepared {fresh:.1} us");
    }
    Ok(())
}

fn run(args: &[String]) -> Res<u64> {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let size = |p: &str| -> Res<u64> { Ok(std::fs::metadata(p)?.len()) };
    match a.as_slice() {
        ["encrypt", "tessera", inp, out, ..] => tessera_encrypt(inp, out, &args[4..]).and(size(inp)),
        ["encrypt", "rpgp", inp, out, ..] => rpgp_encrypt(inp, out, &args[4..], None).and(size(inp)),
        ["decrypt", "tessera", inp, out, key] => tessera_decrypt(inp, out, key).and(size(out)),
        ["decrypt", "rpgp", inp, out, key] => rpgp_decrypt(inp, out, key, None).and(size(out)),
        ["sign-encrypt", "tessera", h, inp, out, key, cert] => {
            tessera_sign_encrypt(hash_alg(h)?.0, inp, out, key, cert).and(size(inp))
        }
        ["sign-encrypt", "rpgp", h, inp, out, key, cert] => {
            rpgp_encrypt(inp, out, &[cert.to_string()], Some((key, hash_alg(h)?.1))).and(size(inp))
        }
        ["decrypt-verify", "tessera", inp, out, key, cert] => {
            tessera_decrypt_verify(inp, out, key, cert).and(size(out))
        }
        ["decrypt-verify", "rpgp", inp, out, key, cert] => rpgp_decrypt(inp, out, key, Some(cert)).and(size(out)),
        ["hash", h, inp] => hash_file(hash_alg(h)?.0, inp).and(size(inp)),
        _ => Err("usage: see the header of tessera/examples/pgp_files.rs".into()),
    }
}

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [cmd, rounds] = args.as_slice()
        && cmd == "pkesk"
    {
        return pkesk(rounds.parse()?);
    }
    let t = Instant::now();
    let bytes = run(&args)?;
    let secs = t.elapsed().as_secs_f64();
    println!("{secs:.3} {:.1}", bytes as f64 / (1u64 << 20) as f64 / secs);
    Ok(())
}
