//! AES-SIV with a transformation's keys, in Tink's wire format: a TINK key
//! writes `0x01 || key ID (4 bytes, big-endian) || V || C`, a RAW key
//! writes `V || C`. There is always exactly one associated-data
//! component, as in Tink's `DeterministicAead` (an empty one when the
//! caller has none).

use zeroize::Zeroizing;

mod batch;

use crate::siv::AesSiv;

use super::error::{Error, Result};
use super::model::{KeyStatus, OutputPrefix, Transform, TransformParams};

/// The first byte of a TINK-prefixed ciphertext.
pub const TINK_START_BYTE: u8 = 0x01;
/// Length of a TINK prefix: the start byte and the key ID.
pub const TINK_PREFIX_LEN: usize = 5;

struct SivKey {
    id: u32,
    status: KeyStatus,
    prefix: OutputPrefix,
    cipher: Option<AesSiv>,
}

/// A built AES-SIV transformation: one [`AesSiv`] per enabled key version.
/// `Send + Sync`; `Debug` shows no key.
///
/// ```
/// use tessera::keyset::{Keyset, SivParams, TransformParams};
/// let mut ks = Keyset::new();
/// ks.add_transform("emails", TransformParams::Siv(SivParams::default())).unwrap();
/// let siv = ks.siv("emails").unwrap();
/// let ct = siv.encrypt(b"users.email", b"alice@example.com").unwrap();
/// assert_eq!(ct[0], 0x01); // Tink's prefix, then the key ID
/// assert_eq!(ct.len(), 5 + 16 + 17);
/// assert_eq!(&siv.decrypt(b"users.email", &ct).unwrap()[..], b"alice@example.com");
/// ```
pub struct SivTransform {
    name: String,
    primary: u32,
    keys: Vec<SivKey>,
}

impl core::fmt::Debug for SivTransform {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SivTransform")
            .field("name", &self.name)
            .field("primary", &self.primary)
            .field("versions", &self.keys.iter().map(|k| (k.id, k.status, k.prefix)).collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl SivTransform {
    pub(crate) fn new(t: &Transform) -> Result<Self> {
        if !matches!(t.params, TransformParams::Siv(_)) {
            return Err(Error::WrongKind { name: t.name.clone(), actual: t.params.kind_name(), wanted: "AES-SIV" });
        }
        let mut keys = Vec::with_capacity(t.keys.len());
        for k in &t.keys {
            let cipher = match (&k.material, k.status) {
                (Some(m), KeyStatus::Enabled) => Some(AesSiv::new(m.bytes())?),
                _ => None,
            };
            keys.push(SivKey { id: k.id, status: k.status, prefix: k.output_prefix.unwrap_or_default(), cipher });
        }
        Ok(SivTransform { name: t.name.clone(), primary: t.primary, keys })
    }

    /// The primary key ID (the one [`encrypt`](Self::encrypt) uses).
    pub fn primary(&self) -> u32 {
        self.primary
    }

    fn primary_key(&self) -> &SivKey {
        self.keys.iter().find(|k| k.id == self.primary).expect("validated: the primary is listed")
    }

    /// Length of the ciphertext of a `len`-byte plaintext under the primary.
    pub fn ciphertext_len(&self, len: usize) -> usize {
        let prefix = match self.primary_key().prefix {
            OutputPrefix::Tink => TINK_PREFIX_LEN,
            OutputPrefix::Raw => 0,
        };
        prefix + crate::siv::TAG_LEN + len
    }

    /// Encrypts `plaintext` with associated data `ad` under the primary,
    /// appending the prefix and `V || C` to `out`.
    pub fn encrypt_append(&self, ad: &[u8], plaintext: &[u8], out: &mut Vec<u8>) -> Result<()> {
        let k = self.primary_key();
        if k.prefix == OutputPrefix::Tink {
            out.push(TINK_START_BYTE);
            out.extend_from_slice(&k.id.to_be_bytes());
        }
        let start = out.len();
        out.resize(start + crate::siv::TAG_LEN + plaintext.len(), 0);
        let cipher = k.cipher.as_ref().expect("validated: the primary is enabled");
        cipher.seal_into(None, &[ad], plaintext, &mut out[start..])?;
        Ok(())
    }

    /// Encrypts under the primary, returning prefix `|| V || C`.
    pub fn encrypt(&self, ad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.ciphertext_len(plaintext.len()));
        self.encrypt_append(ad, plaintext, &mut out)?;
        Ok(out)
    }

    /// Decrypts, as Tink does: the TINK keys whose ID the first five bytes
    /// name, then every RAW key on the whole input. Returns the plaintext
    /// (zeroized on drop) and the key ID that opened it.
    pub fn decrypt_with_id(&self, ad: &[u8], ciphertext: &[u8]) -> Result<(Zeroizing<Vec<u8>>, u32)> {
        let mut tried = Vec::new();
        let mut refused = None;
        if ciphertext.len() >= TINK_PREFIX_LEN && ciphertext[0] == TINK_START_BYTE {
            let id = u32::from_be_bytes(ciphertext[1..TINK_PREFIX_LEN].try_into().expect("4 bytes"));
            let body = &ciphertext[TINK_PREFIX_LEN..];
            for k in self.keys.iter().filter(|k| k.id == id && k.prefix == OutputPrefix::Tink) {
                if let Some(pt) = self.try_key(k, ad, body, &mut refused) {
                    return Ok((pt, k.id));
                }
                tried.push(format!("TINK key {id}"));
            }
        }
        for k in self.keys.iter().filter(|k| k.prefix == OutputPrefix::Raw) {
            if k.cipher.is_none() {
                // Nothing tells whether this key made the ciphertext: say so.
                let status = if k.status == KeyStatus::Disabled { "disabled" } else { "destroyed" };
                tried.push(format!("RAW key {} not tried ({status})", k.id));
                continue;
            }
            if let Some(pt) = self.try_key(k, ad, ciphertext, &mut refused) {
                return Ok((pt, k.id));
            }
            tried.push(format!("RAW key {}", k.id));
        }
        if let Some(e) = refused {
            return Err(e);
        }
        let detail = if tried.is_empty() {
            "its prefix names no key of the keyset and there is no RAW key".to_string()
        } else {
            format!("tried {}: wrong key, associated data or modified ciphertext", tried.join(", "))
        };
        Err(Error::NoMatchingKey { transform: self.name.clone(), detail })
    }

    /// One key; a disabled or destroyed one leaves its error in `refused`
    /// (reported if no other key opens the ciphertext).
    fn try_key(&self, k: &SivKey, ad: &[u8], body: &[u8], refused: &mut Option<Error>) -> Option<Zeroizing<Vec<u8>>> {
        let Some(cipher) = &k.cipher else {
            let (transform, version) = (self.name.clone(), k.id);
            *refused = Some(match k.status {
                KeyStatus::Disabled => Error::KeyDisabled { transform, version },
                _ => Error::KeyDestroyed { transform, version },
            });
            return None;
        };
        let mut pt = Zeroizing::new(vec![0u8; body.len().checked_sub(crate::siv::TAG_LEN)?]);
        cipher.open_into(None, &[ad], body, &mut pt).ok()?;
        Some(pt)
    }

    /// Decrypts; see [`decrypt_with_id`](Self::decrypt_with_id).
    pub fn decrypt(&self, ad: &[u8], ciphertext: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
        Ok(self.decrypt_with_id(ad, ciphertext)?.0)
    }

    /// Decrypts under whichever key made `ciphertext` and encrypts again
    /// under the primary. The plaintext is zeroized before this returns.
    pub fn rewrap(&self, ad: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>> {
        let pt = self.decrypt(ad, ciphertext)?;
        self.encrypt(ad, &pt)
    }
}
