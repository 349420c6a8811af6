//! The demo's second half: OpenPGP keys and signatures (one streaming pass
//! that signs and encrypts a file to two certificates, then decrypts and
//! verifies it), and a keyset rotated under live tokens.

use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result, bail, ensure};
use tessera::keyset::{FpeParams, KeyVersionMode, Keyset, Protection, Template, TransformParams};
use tessera::openpgp::crypto::{HashAlg, Hasher};
use tessera::openpgp::key::{Cert, GenerateOptions, KeyProfile, generate};
use tessera::openpgp::sig::{Outcome, SigType, Signer, SigningKey};
use tessera::openpgp::{DecryptOptions, EncryptOptions, SigningEncryptor, VerifyingDecryptor};

use crate::demo_data::{MIB, files_equal, peak_mib};

fn key(profile: KeyProfile, user_id: &str) -> Result<Cert> {
    Ok(generate(&GenerateOptions { profile, user_ids: vec![user_id.into()], ..Default::default() })?)
}

fn now() -> u64 {
    tessera_cli::signing::now()
}

/// Signs with `signer` and encrypts to `to` in one pass, `plain` to `out`.
fn sign_and_encrypt(plain: &Path, out: &Path, signer: &Cert, to: &[Cert]) -> Result<HashAlg> {
    let recipients: Vec<Cert> = to.iter().map(Cert::to_public).collect();
    let keys = SigningKey::for_message(signer, now(), &recipients, None)?;
    let hash = keys[0].hash;
    let signer = Signer::new(&keys, SigType::Binary, now() as u32)?;
    let opts = EncryptOptions { recipients, threads: 0, ..EncryptOptions::default() };
    let file = BufWriter::new(std::fs::File::create(out)?);
    let mut enc = SigningEncryptor::new(file, &[], &opts, signer)?;
    std::io::copy(&mut BufReader::new(std::fs::File::open(plain)?), &mut enc)?;
    enc.finish()?.flush()?;
    Ok(hash)
}

/// GB/s of `hash` alone over the first 64 MiB of `plain`, in memory: the
/// floor of a signed pass.
fn hash_floor(hash: HashAlg, plain: &Path) -> Result<f64> {
    let mut data = Vec::with_capacity(64 * MIB);
    std::fs::File::open(plain)?.take(64 * MIB as u64).read_to_end(&mut data)?;
    let t0 = Instant::now();
    std::hint::black_box(Hasher::digest(hash, &data));
    Ok(data.len() as f64 / t0.elapsed().as_secs_f64() / 1e9)
}

/// Decrypts `msg` with `key` into `out`, verifying against `signers`; the
/// outcomes of the signatures, or the error.
fn decrypt_and_verify(msg: &Path, out: &Path, key: &Cert, signers: &[Cert]) -> Result<Vec<Outcome>> {
    let opts = DecryptOptions { keys: vec![key.clone()], threads: 0, ..DecryptOptions::default() };
    let input = BufReader::new(std::fs::File::open(msg)?);
    let mut dec = VerifyingDecryptor::new(input, &[], &opts, signers, now())?;
    let mut w = BufWriter::new(std::fs::File::create(out)?);
    std::io::copy(&mut dec, &mut w)?;
    w.flush()?;
    Ok(dec.finish()?.results.into_iter().map(|r| r.outcome).collect())
}

/// Sections 5 and 6: keys, one-pass sign+encrypt, decrypt+verify of
/// `plain`, then keysets. Run in a process of its own (`demo --keys-run`),
/// so that the peak resident memory it prints is this part's alone.
pub fn keys_demo(plain: &Path, mib: usize) -> Result<()> {
    println!("5. OpenPGP keys and signatures: Alice signs and encrypts to Bob in one streaming pass:");
    let t0 = Instant::now();
    let alice = key(KeyProfile::Rfc9580, "Alice <alice@example.org>")?;
    let bob = key(KeyProfile::Rfc9580, "Bob <bob@example.org>")?;
    let carol = key(KeyProfile::Rfc4880, "Carol <carol@example.org>")?;
    println!(
        "   three keys generated in {:.1} ms: Alice and Bob v6 (Ed25519 + X25519), Carol v4 for GnuPG 2.2 \
         (EdDSALegacy + ECDH Curve25519)",
        t0.elapsed().as_secs_f64() * 1e3,
    );
    let dir = plain.parent().context("the data file has no directory")?;
    let (msg, out) = (dir.join("signed.pgp"), dir.join("signed.out"));
    let t0 = Instant::now();
    let hash = sign_and_encrypt(plain, &msg, &alice, &[alice.clone(), bob.clone()])?;
    let enc_time = t0.elapsed().as_secs_f64();
    let t0 = Instant::now();
    let outcomes = decrypt_and_verify(&msg, &out, &bob, &[alice.to_public()])?;
    let dec_time = t0.elapsed().as_secs_f64();
    // Since this process started: the keys, the streaming pass each way.
    let peak = peak_mib(false);
    ensure!(files_equal(plain, &out)?, "the decrypted file differs from the original");
    for o in &outcomes {
        if let Outcome::Good { key, user_id, .. } = o {
            println!("   Bob decrypts: good signature by {} (key {key})", user_id.as_deref().unwrap_or("?"));
        }
    }
    let size = (mib * MIB) as f64;
    println!(
        "   {mib} MiB file to file, signed (Ed25519, {}) and encrypted (SEIPD v2, OCB) to Alice and Bob: \
         {:.2} GB/s; decrypted by Bob and verified: {:.2} GB/s; the floor, {} alone in memory: {:.2} GB/s",
        hash.name(),
        size / enc_time / 1e9,
        size / dec_time / 1e9,
        hash.name(),
        hash_floor(hash, plain)?
    );
    if let Some(p) = peak {
        println!("   peak resident memory of this part (a process of its own, keys and both passes): {p:.1} MiB");
    }
    pq_pass(plain, mib)?;
    match decrypt_and_verify(&msg, &out, &bob, &[carol.to_public()]) {
        Ok(_) => bail!("a message signed by Alice verified against Carol's certificate"),
        Err(e) => println!("   Bob expects Carol's signature instead: refused ({e})"),
    }
    let mut bytes = std::fs::read(&msg)?;
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&msg, &bytes)?;
    match decrypt_and_verify(&msg, &out, &bob, &[alice.to_public()]) {
        Ok(_) => bail!("a modified message decrypted"),
        Err(e) => println!("   one bit flipped in the message: refused ({e})\n"),
    }
    keyset_demo(&bob, &carol)
}

/// The same file signed and encrypted with a post-quantum key (RFC 9980):
/// the KEM and the signature run once a message, so the throughput is the
/// classical pass's.
fn pq_pass(plain: &Path, mib: usize) -> Result<()> {
    let t0 = Instant::now();
    let dave = key(KeyProfile::Rfc9980, "Dave <dave@example.org>")?;
    let keygen = t0.elapsed().as_secs_f64() * 1e3;
    let dir = plain.parent().context("the data file has no directory")?;
    let (msg, out) = (dir.join("pq.pgp"), dir.join("pq.out"));
    let t0 = Instant::now();
    sign_and_encrypt(plain, &msg, &dave, &[dave.to_public()])?;
    let enc_time = t0.elapsed().as_secs_f64();
    let t0 = Instant::now();
    let outcomes = decrypt_and_verify(&msg, &out, &dave, &[dave.to_public()])?;
    let dec_time = t0.elapsed().as_secs_f64();
    ensure!(files_equal(plain, &out)?, "the decrypted file differs from the original");
    ensure!(outcomes.iter().any(|o| matches!(o, Outcome::Good { .. })), "the post-quantum signature is not good");
    let size = (mib * MIB) as f64;
    println!(
        "   post-quantum (RFC 9980): Dave's key (ML-DSA-65+Ed25519, ML-KEM-768+X25519 subkey) made in {keygen:.1} ms; \
         {mib} MiB signed and encrypted to it: {:.2} GB/s; decrypted and verified: {:.2} GB/s",
        size / enc_time / 1e9,
        size / dec_time / 1e9,
    );
    Ok(())
}

/// Section 6: a keyset rotated under live tokens, sealed to Bob and Carol.
fn keyset_demo(bob: &Cert, carol: &Cert) -> Result<()> {
    println!("6. Keysets: a card-number transformation rotated to a new key version under live tokens:");
    let mut ks = Keyset::new();
    let params = match Template::Card.params() {
        TransformParams::Fpe(p) => TransformParams::Fpe(FpeParams { key_version: KeyVersionMode::Embedded, ..p }),
        p => p,
    };
    ks.add_transform("cards", params)?;
    let cards: Vec<&str> =
        crate::demo_data::SAMPLE.lines().skip(1).filter_map(|l| l.split(',').nth(2)).take(3).collect::<Vec<_>>();
    let fpe = ks.fpe("cards")?;
    let v1: Vec<String> = cards.iter().map(|c| fpe.encrypt(None, c)).collect::<Result<_, _>>()?;
    let v2 = ks.add_key("cards")?;
    ks.promote("cards", v2)?;
    let fpe = ks.fpe("cards")?;
    let rewrapped: Vec<String> = v1.iter().map(|t| fpe.rewrap(None, t, None)).collect::<Result<_, _>>()?;
    ks.disable("cards", 1)?;
    ks.destroy("cards", 1)?;
    let fpe = ks.fpe("cards")?;
    for ((card, t1), t2) in cards.iter().zip(&v1).zip(&rewrapped) {
        println!("   {card} -> version 1 {t1} -> rewrapped to version {v2} {t2}");
        ensure!(fpe.decrypt(None, t2, None)?.as_str() == *card, "the rewrapped token decrypts");
        ensure!(fpe.decrypt(None, t1, None).is_err(), "a destroyed version's token is refused");
    }
    println!("   the version travels inside the token (same length, separators and 6+4 digits kept);");
    println!("   version 1 destroyed: its tokens are refused, the rewrapped ones decrypt");
    let team = [bob.to_public(), carol.to_public()];
    let sealed = ks.to_bytes(Protection::Certificates { recipients: &team, keys: std::slice::from_ref(bob) })?;
    let carol_opens = Protection::Certificates { recipients: &team, keys: std::slice::from_ref(carol) };
    let back = Keyset::from_bytes(&sealed, carol_opens)?;
    ensure!(back.fpe("cards")?.decrypt(None, &rewrapped[0], None)?.as_str() == cards[0], "the reopened keyset");
    println!(
        "   keyset signed by Bob, encrypted to Bob's and Carol's certificates ({} bytes); Carol's v4 key opens it\n",
        sealed.len()
    );
    Ok(())
}
