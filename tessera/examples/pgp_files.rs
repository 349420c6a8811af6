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
//! pgp_files mem-sign-encrypt   tessera|rpgp sha256|sha512 MIB SIGNKEY CERT
//! pgp_files mem-decrypt-verify tessera|rpgp sha256|sha512 MIB SIGNKEY CERT KEY SIGNCERT
//! pgp_files mem-hash           sha256|sha512 MIB
//! ```
//!
//! Each prints one line: `<seconds> <MiB/s of the plaintext>` (or, for
//! `pkesk`, microseconds per operation). The `mem-` forms work in memory,
//! no file I/O: MIB MiB of data (one random MiB repeated) signed and
//! encrypted into a sink, or first signed and encrypted into memory
//! (not timed) and then decrypted and verified into a sink. tessera's
//! signing forms use every core, as the CLI does (the hash on a thread of
//! its own); the plain encrypt and decrypt forms use one. Build with
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
    let mut w = output(out)?;
    tessera_seal(hash, &mut |enc| Ok(std::io::copy(&mut input(inp)?, enc).map(|_| ())?), &mut w, key, cert)?;
    w.flush()?;
    Ok(())
}

/// Signs with `key` (with `hash`) and encrypts to `cert` what `feed` writes.
fn tessera_seal(
    hash: HashAlg,
    feed: &mut dyn FnMut(&mut dyn Write) -> Res<()>,
    w: &mut dyn Write,
    key: &str,
    cert: &str,
) -> Res<()> {
    let signer_cert = certs(key)?.remove(0);
    let t = now();
    let mut keys = SigningKey::from_cert(&signer_cert, t)?;
    for k in &mut keys {
        k.hash = hash;
    }
    let signer = Signer::new(&keys, SigType::Binary, t as u32)?;
    // Every core, as the CLI: the hash runs on a thread of its own.
    let opts = EncryptOptions { threads: 0, ..encrypt_options(certs(cert)?) };
    let mut enc = SigningEncryptor::new(w, &[], &opts, signer)?;
    feed(&mut enc)?;
    enc.finish()?;
    Ok(())
}

fn tessera_decrypt_verify(inp: &str, out: &str, key: &str, cert: &str) -> Res<()> {
    let mut w = output(out)?;
    tessera_open(input(inp)?, &mut w, key, cert)?;
    w.flush()?;
    Ok(())
}

/// Decrypts `msg` with `key` into `w`, verifying a signature by `cert`.
fn tessera_open(msg: impl std::io::BufRead, w: &mut dyn Write, key: &str, cert: &str) -> Res<()> {
    // Every core, as the CLI: the hash runs on a thread of its own.
    let opts = DecryptOptions { keys: certs(key)?, threads: 0, ..DecryptOptions::default() };
    let signers: Vec<Cert> = certs(cert)?.iter().map(Cert::to_public).collect();
    let mut dec = VerifyingDecryptor::new(msg, &[], &opts, &signers, now())?;
    drain(&mut dec, w)?;
    dec.finish()?;
    Ok(())
}

/// Copies all of `r` to `w` in reads of [`BUF`] octets.
fn drain(r: &mut dyn Read, w: &mut dyn Write) -> Res<()> {
    let mut buf = vec![0u8; BUF];
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            return Ok(());
        }
        w.write_all(&buf[..n])?;
    }
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
    let mut w = output(out)?;
    rpgp_seal(MessageBuilder::from_file(inp), &mut w, cert_paths, sign)?;
    w.flush()?;
    Ok(())
}

/// rPGP's message of `file` to `cert_paths`, signed by `sign` if given.
fn rpgp_seal<R: Read>(
    file: MessageBuilder<'_, R>,
    w: &mut dyn Write,
    cert_paths: &[String],
    sign: Option<(&str, HashAlgorithm)>,
) -> Res<()> {
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
    // Every peer writes SEIPD v2 with AES-256 OCB, 256 KiB chunks.
    let mut b = file.seipd_v2(&mut rng, SymmetricKeyAlgorithm::AES256, AeadAlgorithm::Ocb, ChunkSize::C256KiB);
    for k in &keys {
        b.encrypt_to_key(&mut rng, &rpgp_encryption_subkey(k)?.key)?;
    }
    if let (Some(sub), Some((_, h))) = (signing_sub, sign) {
        b.sign(&sub.key, Password::empty(), h);
    }
    b.to_writer(&mut rng, w)?;
    Ok(())
}

fn rpgp_decrypt(inp: &str, out: &str, key: &str, verify: Option<&str>) -> Res<()> {
    let mut w = output(out)?;
    rpgp_open(Message::from_file(inp)?, &mut w, key, verify)?;
    w.flush()?;
    Ok(())
}

/// Decrypts `msg` with `key` into `w`, then verifies it with `verify`.
fn rpgp_open(msg: Message<'_>, w: &mut dyn Write, key: &str, verify: Option<&str>) -> Res<()> {
    let sk = rpgp_secret(key)?;
    let mut msg = msg.decrypt(&Password::empty(), &sk)?;
    drain(&mut msg, w)?;
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

/// `mib` MiB in memory: one random MiB, repeated.
#[derive(Clone)]
struct Repeat {
    block: Vec<u8>,
    pos: usize,
    left: u64,
}

impl Repeat {
    fn new(mib: u64) -> Res<Self> {
        let mut block = vec![0u8; 1 << 20];
        rand08::RngCore::fill_bytes(&mut rand08::thread_rng(), &mut block);
        Ok(Repeat { block, pos: 0, left: mib << 20 })
    }
}

impl Read for Repeat {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.block.len() - self.pos).min(self.left as usize);
        buf[..n].copy_from_slice(&self.block[self.pos..self.pos + n]);
        self.pos = (self.pos + n) % self.block.len();
        self.left -= n as u64;
        Ok(n)
    }
}

/// Writes all of `r` to `w` in pieces of [`BUF`] octets (as a 256 KiB
/// `BufReader` over a file gives them).
fn feed(mut r: Repeat, w: &mut dyn Write) -> Res<()> {
    while r.left > 0 {
        let n = (BUF as u64).min(r.left) as usize;
        w.write_all(&r.block[r.pos..r.pos + n])?;
        r.pos = (r.pos + n) % r.block.len();
        r.left -= n as u64;
    }
    Ok(())
}

/// The in-memory forms; the seconds they took (preparation not counted).
fn run_memory(a: &[&str]) -> Res<Option<f64>> {
    let sink = &mut std::io::sink();
    let t = Instant::now();
    match *a {
        ["mem-hash", h, mib] => {
            let mut hasher = Hasher::new(hash_alg(h)?.0);
            let r = Repeat::new(mib.parse()?)?;
            for _ in 0..r.left >> 20 {
                for piece in r.block.chunks(BUF) {
                    hasher.update(piece);
                }
            }
            std::hint::black_box(hasher.finalize());
        }
        ["mem-sign-encrypt", "tessera", h, mib, key, cert] => {
            let r = Repeat::new(mib.parse()?)?;
            let t = Instant::now();
            tessera_seal(hash_alg(h)?.0, &mut |enc| feed(r.clone(), enc), sink, key, cert)?;
            return Ok(Some(t.elapsed().as_secs_f64()));
        }
        ["mem-sign-encrypt", "rpgp", h, mib, key, cert] => {
            let r = Repeat::new(mib.parse()?)?;
            let t = Instant::now();
            rpgp_seal(MessageBuilder::from_reader("", r), sink, &[cert.to_string()], Some((key, hash_alg(h)?.1)))?;
            return Ok(Some(t.elapsed().as_secs_f64()));
        }
        ["mem-decrypt-verify", peer, h, mib, skey, cert, key, scert] => {
            let r = Repeat::new(mib.parse()?)?;
            let mut ct = Vec::with_capacity(((r.left >> 20) as usize + 1) << 20);
            let hash = hash_alg(h)?;
            if peer == "tessera" {
                tessera_seal(hash.0, &mut |enc| feed(r.clone(), enc), &mut ct, skey, cert)?;
            } else {
                rpgp_seal(MessageBuilder::from_reader("", r), &mut ct, &[cert.to_string()], Some((skey, hash.1)))?;
            }
            let t = Instant::now();
            if peer == "tessera" {
                tessera_open(ct.as_slice(), sink, key, scert)?;
            } else {
                rpgp_open(Message::from_bytes(ct.as_slice())?, sink, key, Some(scert))?;
            }
            return Ok(Some(t.elapsed().as_secs_f64()));
        }
        _ => return Ok(None),
    }
    Ok(Some(t.elapsed().as_secs_f64()))
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
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    if let Some(secs) = run_memory(&a)? {
        let mib: f64 = a[if a[0] == "mem-hash" { 2 } else { 3 }].parse()?;
        println!("{secs:.3} {:.1}", mib / secs);
        return Ok(());
    }
    let t = Instant::now();
    let bytes = run(&args)?;
    let secs = t.elapsed().as_secs_f64();
    println!("{secs:.3} {:.1}", bytes as f64 / (1u64 << 20) as f64 / secs);
    Ok(())
}
