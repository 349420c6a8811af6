//! Certificates (transferable public keys) and transferable secret keys
//! (RFC 9580 §10.1, §10.2): one typed model for both, written back as
//! packets or armor; reading them is in `cert_read.rs`.

use std::io::Write;

use zeroize::Zeroizing;

use super::super::Result;
use super::super::armor::ArmorWriter;
use super::super::packet::{tag, write_packet};
use super::super::sig::Signature;
use super::check_cache::CheckCache;
use super::{Fingerprint, KeyVersion, PublicKey, SecretKey};

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

/// Octets reserved for the secret fields of a key packet beyond its public
/// part (RSA-16384's d, p, q and u with their S2K parameters and IV fit),
/// so that a buffer holding them is never moved while it grows.
const SECRET_ROOM: usize = 8448;
/// Octets of the largest packet header written.
const MAX_HEADER: usize = 6;

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
    /// The User ID octets (normally UTF-8 `"Name <email>"`).
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
    /// The algorithm of the first subkey skipped as unsupported (unknown
    /// algorithms or curves...), if any: a certificate that cannot encrypt only because of
    /// it is reported as [`Error::UnsupportedPublicKeyAlg`](super::super::Error::UnsupportedPublicKeyAlg).
    pub(crate) unsupported_subkey: Option<u8>,
}

impl Cert {
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
    use super::super::super::packet::push_zeroizing;
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
