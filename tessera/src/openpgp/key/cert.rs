//! Certificates (transferable public keys) and transferable secret keys
//! (RFC 9580 §10.1, §10.2): one typed model for both, read from binary or
//! armored input (several in one file) and written back.

use std::io::{BufRead, Read, Write};

use zeroize::Zeroizing;

use super::super::armor::{ArmorReader, ArmorWriter, is_armored};
use super::super::packet::{BodyReader, push_zeroizing, read_full, read_header, tag, write_packet};
use super::super::sig::{SigType, Signature};
use super::super::{Error, Result};
use super::checks::CheckCache;
use super::{Fingerprint, KeyError, KeyVersion, PublicKey, SecretKey};

/// Packet type ids of key material (RFC 9580 §5.5.1).
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, generate, key_tag};
/// let key = generate(&GenerateOptions { user_ids: vec!["A <a@example.org>".into()], ..Default::default() })?;
/// let packets = key.to_public().to_bytes()?;
/// // A new-format packet header: 0xc0 | tag.
/// assert_eq!(packets[0], 0xc0 | key_tag::PUBLIC_KEY);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub mod key_tag {
    /// Secret Key.
    pub const SECRET_KEY: u8 = 5;
    /// Public Key.
    pub const PUBLIC_KEY: u8 = 6;
    /// Secret Subkey.
    pub const SECRET_SUBKEY: u8 = 7;
    /// Trust (ignored).
    pub const TRUST: u8 = 12;
    /// User ID.
    pub const USER_ID: u8 = 13;
    /// Public Subkey.
    pub const PUBLIC_SUBKEY: u8 = 14;
    /// User Attribute (skipped with its signatures).
    pub const USER_ATTRIBUTE: u8 = 17;
}

/// Largest key-related packet read (a 16384-bit RSA secret key is ~4.5 KiB;
/// a User ID or signature is far smaller).
const MAX_PACKET: u64 = 1 << 20;
/// Octets reserved for the secret fields of a key packet beyond its public
/// part (RSA-16384's d, p, q and u with their S2K parameters and IV fit),
/// so that a buffer holding them is never moved while it grows.
const SECRET_ROOM: usize = 8448;
/// Octets of a key packet body read at a time (into a zeroizing buffer).
const READ_CHUNK: usize = 4096;
/// Octets of the largest packet header written.
const MAX_HEADER: usize = 6;
/// Most packets read from one input.
const MAX_PACKETS: usize = 100_000;

/// A key with or without its secret part.
///
/// ```
/// use tessera::openpgp::key::{CertKey, GenerateOptions, generate};
/// let key = generate(&GenerateOptions::default())?;
/// assert!(matches!(key.primary, CertKey::Secret(_)));
/// assert!(matches!(key.to_public().primary, CertKey::Public(_)));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub enum CertKey {
    /// Public only.
    Public(PublicKey),
    /// With the secret fields (maybe locked).
    Secret(SecretKey),
}

impl CertKey {
    /// The public part.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// assert_eq!(key.primary.public().fingerprint(), key.fingerprint());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn public(&self) -> &PublicKey {
        match self {
            CertKey::Public(k) => k,
            CertKey::Secret(k) => k.public(),
        }
    }
    /// The secret key packet, if this is one.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let key = generate(&GenerateOptions::default())?;
    /// assert!(key.primary.secret().is_some_and(|s| !s.is_locked()));
    /// assert!(key.to_public().primary.secret().is_none());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn secret(&self) -> Option<&SecretKey> {
        match self {
            CertKey::Public(_) => None,
            CertKey::Secret(k) => Some(k),
        }
    }
    /// The secret key packet, mutably (lock, unlock).
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, generate};
    /// let mut key = generate(&GenerateOptions::default())?;
    /// // Lock only the encryption subkey.
    /// let sub = key.subkeys[0].key.secret_mut().expect("a secret key");
    /// sub.lock(b"pw")?;
    /// assert!(sub.is_locked());
    /// assert!(!key.primary.secret().expect("a secret key").is_locked());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn secret_mut(&mut self) -> Option<&mut SecretKey> {
        match self {
            CertKey::Public(_) => None,
            CertKey::Secret(k) => Some(k),
        }
    }
    fn write(&self, out: &mut Vec<u8>, subkey: bool) -> Result<()> {
        match self {
            CertKey::Public(k) => {
                write_packet(out, if subkey { key_tag::PUBLIC_SUBKEY } else { key_tag::PUBLIC_KEY }, k.body())?
            }
            CertKey::Secret(k) => {
                let mut b = Zeroizing::new(Vec::with_capacity(k.public().body().len() + SECRET_ROOM));
                k.write(&mut b);
                write_packet(out, if subkey { key_tag::SECRET_SUBKEY } else { key_tag::SECRET_KEY }, &b)?
            }
        }
        Ok(())
    }
}

/// A User ID and the signatures over it.
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// let key = generate(&GenerateOptions { user_ids: vec!["Alice <alice@example.org>".into()], ..Default::default() })?;
/// let uid = &key.user_ids[0];
/// assert_eq!(uid.value, b"Alice <alice@example.org>");
/// uid.sigs[0].verify_certification(key.primary.public(), &uid.value)?;
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct UserId {
    /// The User ID octets (normally UTF-8 "Name <email>").
    pub value: Vec<u8>,
    /// Certifications and revocations, as found.
    pub sigs: Vec<Signature>,
}

/// A subkey and its binding and revocation signatures.
///
/// ```
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// let key = generate(&GenerateOptions::default())?;
/// let sub = &key.subkeys[0];
/// sub.sigs[0].verify_subkey_binding(key.primary.public(), sub.key.public())?;
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Subkey {
    /// The subkey.
    pub key: CertKey,
    /// Binding and revocation signatures, as found.
    pub sigs: Vec<Signature>,
}

/// A certificate or transferable secret key.
///
/// ```
/// use tessera::openpgp::key::{generate, Cert, GenerateOptions};
/// let key = generate(&GenerateOptions { user_ids: vec!["A <a@example.org>".into()], ..Default::default() }).unwrap();
/// let certs = Cert::read_all(key.to_public().to_bytes().unwrap().as_slice()).unwrap();
/// assert_eq!(certs[0].fingerprint(), key.fingerprint());
/// ```
#[derive(Debug, Clone)]
pub struct Cert {
    /// The primary key.
    pub primary: CertKey,
    /// Direct key signatures and key revocations.
    pub direct_sigs: Vec<Signature>,
    /// User IDs.
    pub user_ids: Vec<UserId>,
    /// Subkeys.
    pub subkeys: Vec<Subkey>,
    /// Outcomes of the self-signature checks made by [`Cert::validate`].
    pub(crate) checked: CheckCache,
    /// The algorithm of the first subkey skipped as unsupported (Elgamal,
    /// DSA...), if any: a certificate that cannot encrypt only because of
    /// it is reported as [`Error::UnsupportedPublicKeyAlg`].
    pub(crate) unsupported_subkey: Option<u8>,
}

/// Reads one packet body (bounded by [`MAX_PACKET`]) into a zeroizing
/// buffer: it may be a secret key.
fn read_body<R: Read>(r: &mut R, len: super::super::packet::BodyLen) -> Result<Zeroizing<Vec<u8>>> {
    let mut body = BodyReader::new(r, len);
    let mut v = Zeroizing::new(Vec::new());
    let mut chunk = Zeroizing::new([0u8; READ_CHUNK]);
    loop {
        let n = read_full(&mut (&mut body).take(MAX_PACKET - v.len() as u64), &mut chunk[..])?;
        if n == 0 {
            break;
        }
        push_zeroizing(&mut v, &chunk[..n]);
    }
    if !body.is_done() {
        return Err(Error::Limit("key packet larger than 1 MiB"));
    }
    Ok(v)
}

/// Where the next signature goes.
enum Slot {
    Direct,
    UserId,
    Subkey,
    Skip,
}

/// Builds certificates from a packet sequence.
#[derive(Default)]
struct Assembler {
    certs: Vec<Cert>,
    slot: Option<Slot>,
}

impl Assembler {
    fn current(&mut self) -> Result<&mut Cert> {
        self.certs.last_mut().ok_or(Error::Malformed("key material before any primary key"))
    }

    fn add(&mut self, t: u8, body: &[u8]) -> Result<()> {
        match t {
            key_tag::PUBLIC_KEY | key_tag::SECRET_KEY => {
                let primary = if t == key_tag::SECRET_KEY {
                    CertKey::Secret(SecretKey::parse(body, false)?)
                } else {
                    CertKey::Public(PublicKey::parse_packet(body)?)
                };
                self.certs.push(Cert {
                    primary,
                    direct_sigs: Vec::new(),
                    user_ids: Vec::new(),
                    subkeys: Vec::new(),
                    checked: CheckCache::default(),
                    unsupported_subkey: None,
                });
                self.slot = Some(Slot::Direct);
            }
            key_tag::PUBLIC_SUBKEY | key_tag::SECRET_SUBKEY => {
                let parsed = if t == key_tag::SECRET_SUBKEY {
                    SecretKey::parse(body, true).map(CertKey::Secret)
                } else {
                    PublicKey::parse_packet(body).map(CertKey::Public)
                };
                let cert = self.current()?;
                match parsed {
                    Ok(key) => {
                        cert.subkeys.push(Subkey { key, sigs: Vec::new() });
                        self.slot = Some(Slot::Subkey);
                    }
                    // A subkey of an algorithm or version not supported here
                    // (Elgamal, DSA, v3...) is skipped with its signatures.
                    Err(Error::Unsupported(_) | Error::UnsupportedPublicKeyAlg(_) | Error::UnsupportedCurve) => {
                        // Version, creation time, then the algorithm (v4 and v6).
                        cert.unsupported_subkey = cert.unsupported_subkey.or(body.get(5).copied());
                        self.slot = Some(Slot::Skip)
                    }
                    Err(e) => return Err(e),
                }
            }
            key_tag::USER_ID => {
                self.current()?.user_ids.push(UserId { value: body.to_vec(), sigs: Vec::new() });
                self.slot = Some(Slot::UserId);
            }
            key_tag::USER_ATTRIBUTE => {
                self.current()?;
                self.slot = Some(Slot::Skip);
            }
            tag::SIGNATURE => {
                let slot = self.slot.as_ref().ok_or(Error::Malformed("signature before any key"))?;
                // A signature this implementation cannot read (v3, unknown
                // algorithms, malformed fields) is dropped: it could never
                // count, and one bad signature must not hide the certificate.
                let Ok(sig) = Signature::parse(body) else { return Ok(()) };
                // Key revocations and direct-key signatures are about the
                // primary key wherever they stand (a revocation certificate
                // appended to a certificate follows its last subkey).
                if matches!(sig.sig_type(), SigType::KeyRevocation | SigType::DirectKey) {
                    self.current()?.direct_sigs.push(sig);
                    return Ok(());
                }
                match slot {
                    Slot::Direct => self.current()?.direct_sigs.push(sig),
                    Slot::UserId => self.current()?.user_ids.last_mut().expect("slot").sigs.push(sig),
                    Slot::Subkey => self.current()?.subkeys.last_mut().expect("slot").sigs.push(sig),
                    Slot::Skip => {}
                }
            }
            key_tag::TRUST | tag::MARKER | tag::PADDING => {}
            _ => return Err(Error::Malformed("unexpected packet in a certificate or key")),
        }
        Ok(())
    }
}

fn read_packets<R: Read>(r: &mut R, asm: &mut Assembler) -> Result<()> {
    let mut count = 0;
    while let Some(h) = read_header(r)? {
        count += 1;
        if count > MAX_PACKETS {
            return Err(Error::Limit("too many packets in a key file"));
        }
        let body = read_body(r, h.len)?;
        asm.add(h.tag, &body)?;
    }
    Ok(())
}

impl Cert {
    /// Reads every certificate and secret key in `input`: binary packets, or
    /// one or more armored blocks.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// // A keyring: two armored blocks in one input.
    /// let ring = [
    ///     include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc")),
    ///     include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc")),
    /// ]
    /// .concat();
    /// let certs = Cert::read_all(ring.as_bytes())?;
    /// assert_eq!(certs.len(), 2);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn read_all<R: BufRead>(mut input: R) -> Result<Vec<Cert>> {
        let mut asm = Assembler::default();
        if is_armored(&mut input)? {
            loop {
                read_packets(&mut ArmorReader::new(&mut input), &mut asm)?;
                if !is_armored(&mut input)? || input.fill_buf().map_err(Error::from_io)?.is_empty() {
                    break;
                }
            }
        } else {
            read_packets(&mut input, &mut asm)?;
        }
        if asm.certs.is_empty() {
            return Err(KeyError::NoKey.into());
        }
        Ok(asm.certs)
    }

    /// Reads exactly one certificate or secret key.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// let one = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// assert!(Cert::read_one(one.as_bytes()).is_ok());
    /// let two = [one, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/bob_cert.asc"))].concat();
    /// assert!(Cert::read_one(two.as_bytes()).is_err());
    /// ```
    pub fn read_one<R: BufRead>(input: R) -> Result<Cert> {
        let mut all = Self::read_all(input)?;
        if all.len() != 1 {
            return Err(Error::InvalidOption("expected exactly one key or certificate"));
        }
        Ok(all.remove(0))
    }

    /// Parses one from bytes (binary or armored).
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// let binary = cert.to_bytes()?;
    /// assert_eq!(Cert::from_bytes(&binary)?.fingerprint(), cert.fingerprint());
    /// assert!(Cert::from_bytes(b"not a key").is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn from_bytes(data: &[u8]) -> Result<Cert> {
        Self::read_one(data)
    }

    /// The primary key's fingerprint.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let bob_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/bob_cert.asc"));
    /// let bob = Cert::from_bytes(bob_cert)?; // the OpenPGP samples' Bob
    /// assert_eq!(bob.fingerprint().to_hex(), "D1A66E1A23B182C9980F788CFBFCC82A015E7330");
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn fingerprint(&self) -> Fingerprint {
        self.primary.public().fingerprint()
    }

    /// The key version of the primary key.
    ///
    /// ```
    /// use tessera::openpgp::key::{Cert, KeyVersion};
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// assert_eq!(cert.version(), KeyVersion::V6);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn version(&self) -> KeyVersion {
        self.primary.public().version()
    }

    /// Whether the primary key carries secret material.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a4_secret = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a4_v6_secret.asc"));
    /// let secret = Cert::from_bytes(a4_secret)?; // RFC 9580 A.4
    /// assert!(secret.is_secret());
    /// assert!(!secret.to_public().is_secret());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn is_secret(&self) -> bool {
        matches!(self.primary, CertKey::Secret(_))
    }

    /// Every key, primary first.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// let ids: Vec<String> = cert.keys().map(|k| k.public().key_id().to_string()).collect();
    /// assert_eq!(ids, ["CB186C4F0609A697", "12C83F1E706F6308"]);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = &CertKey> {
        std::iter::once(&self.primary).chain(self.subkeys.iter().map(|s| &s.key))
    }

    /// The certificate of a secret key: the same packets with the secret
    /// fields removed.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a4_secret = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a4_v6_secret.asc"));
    /// let secret = Cert::from_bytes(a4_secret)?; // RFC 9580 A.4
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let public = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// // RFC 9580 A.4 is the secret key of the A.3 certificate.
    /// assert_eq!(*secret.to_public().to_bytes()?, *public.to_bytes()?);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn to_public(&self) -> Cert {
        let strip = |k: &CertKey| CertKey::Public(k.public().clone());
        Cert {
            primary: strip(&self.primary),
            direct_sigs: self.direct_sigs.clone(),
            user_ids: self.user_ids.clone(),
            subkeys: self.subkeys.iter().map(|s| Subkey { key: strip(&s.key), sigs: s.sigs.clone() }).collect(),
            checked: self.checked.clone(),
            unsupported_subkey: self.unsupported_subkey,
        }
    }

    /// The binary packets.
    ///
    /// ```
    /// use tessera::openpgp::key::{Cert, key_tag};
    /// # let a4_secret = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a4_v6_secret.asc"));
    /// let secret = Cert::from_bytes(a4_secret)?; // RFC 9580 A.4
    /// let bytes = secret.to_bytes()?; // holds secret fields: wiped when dropped
    /// assert_eq!(bytes[0], 0xc0 | key_tag::SECRET_KEY);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn to_bytes(&self) -> Result<Zeroizing<Vec<u8>>> {
        // Sized first: the buffer may hold secret fields, so it never moves.
        let mut out = Zeroizing::new(Vec::with_capacity(self.serialized_len_bound()));
        self.primary.write(&mut out, false)?;
        let sig = |out: &mut Vec<u8>, s: &Signature| write_packet(out, tag::SIGNATURE, &s.to_bytes());
        for s in &self.direct_sigs {
            sig(&mut out, s)?;
        }
        for u in &self.user_ids {
            write_packet(&mut *out, key_tag::USER_ID, &u.value)?;
            for s in &u.sigs {
                sig(&mut out, s)?;
            }
        }
        for k in &self.subkeys {
            k.key.write(&mut out, true)?;
            for s in &k.sigs {
                sig(&mut out, s)?;
            }
        }
        Ok(out)
    }

    /// An upper bound of [`Cert::to_bytes`]'s length.
    fn serialized_len_bound(&self) -> usize {
        let key = |k: &CertKey| k.public().body().len() + MAX_HEADER + k.secret().map_or(0, |_| SECRET_ROOM);
        let sigs = |sigs: &[Signature]| sigs.iter().map(|s| s.to_bytes().len() + MAX_HEADER).sum::<usize>();
        let uids = self.user_ids.iter().map(|u| u.value.len() + MAX_HEADER + sigs(&u.sigs)).sum::<usize>();
        let subkeys = self.subkeys.iter().map(|k| key(&k.key) + sigs(&k.sigs)).sum::<usize>();
        key(&self.primary) + sigs(&self.direct_sigs) + uids + subkeys
    }

    /// Writes the armored form (`PUBLIC KEY BLOCK` or `PRIVATE KEY BLOCK`);
    /// v4 keys get a CRC24 line, as RFC 4880 readers expect.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let alice_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// let cert = Cert::from_bytes(alice_cert)?; // the OpenPGP samples' Alice
    /// let text = cert.write_armored(Vec::new())?;
    /// assert!(text.starts_with(b"-----BEGIN PGP PUBLIC KEY BLOCK-----"));
    /// assert_eq!(Cert::from_bytes(&text)?.fingerprint(), cert.fingerprint());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn write_armored<W: Write>(&self, out: W) -> Result<W> {
        let kind = if self.is_secret() { "PRIVATE KEY BLOCK" } else { "PUBLIC KEY BLOCK" };
        let mut w = ArmorWriter::new(out, kind, self.version() == KeyVersion::V4)?;
        w.write_all(&self.to_bytes()?)?;
        Ok(w.finish()?)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{GenerateOptions, KeyProfile, generate};
    use super::*;

    /// The serialization of a secret key is written into one buffer sized
    /// up front: had it grown, its old allocations (with the secret fields)
    /// would have been freed unwiped.
    #[test]
    fn secret_serialization_never_moves_its_buffer() {
        for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
            let user_ids = vec!["A <a@example.org>".into(), "B <b@example.org>".into()];
            let key = generate(&GenerateOptions { profile, user_ids, ..Default::default() }).unwrap();
            let bytes = key.to_bytes().unwrap();
            assert_eq!(bytes.capacity(), key.serialized_len_bound(), "{profile:?}");
            assert_eq!(Cert::from_bytes(&bytes).unwrap().to_bytes().unwrap(), bytes);
        }
    }

    #[test]
    fn push_zeroizing_keeps_the_contents() {
        let mut v = Zeroizing::new(Vec::new());
        for i in 0..1000u32 {
            push_zeroizing(&mut v, &i.to_be_bytes());
        }
        assert_eq!(v.len(), 4000);
        assert_eq!(v[3996..], 999u32.to_be_bytes());
    }
}
