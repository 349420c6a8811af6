//! Keysets: named transformations with versioned keys, rotation and rewrap.
//!
//! A [`Keyset`] holds named [`Transform`]s. Each has its parameters (FPE:
//! FF1 or FF3-1, alphabet, passthrough characters, characters kept in
//! clear, tweak policy; or AES-SIV) and a list of [`KeyVersion`]s, each
//! enabled, disabled or destroyed, one of them the primary. Encryption
//! always uses the primary; decryption finds the version that made the
//! value; `rewrap` moves a value from any enabled version to the primary,
//! with the plaintext held only in buffers that are zeroized. A version is
//! disabled before it is destroyed, and the primary is neither.
//!
//! ```
//! use tessera::keyset::{Error, Keyset, Template};
//! let mut ks = Keyset::new();
//! ks.add_transform("ssn", Template::Ssn.params()).unwrap();
//! let old = ks.fpe("ssn").unwrap().encrypt(None, "123-45-6789").unwrap();
//! let v2 = ks.add_key("ssn").unwrap();
//! ks.promote("ssn", v2).unwrap();
//! let fpe = ks.fpe("ssn").unwrap();
//! // External versions: the token does not say which version made it.
//! assert!(matches!(fpe.rewrap(None, &old, None), Err(Error::RewrapSourceUnknown { .. })));
//! let new = fpe.rewrap(None, &old, Some(1)).unwrap(); // name the old version
//! assert!(matches!(fpe.decrypt(None, &new, None), Err(Error::VersionAmbiguous { .. })));
//! assert_eq!(fpe.decrypt(None, &new, Some(v2)).unwrap().as_str(), "123-45-6789");
//! ks.disable("ssn", 1).unwrap(); // one enabled version left: no ambiguity
//! assert_eq!(ks.fpe("ssn").unwrap().decrypt(None, &new, None).unwrap().as_str(), "123-45-6789");
//! ks.destroy("ssn", 1).unwrap();
//! ```
//!
//! # AES-SIV: Tink's format
//!
//! An AES-SIV transformation is a Tink `DeterministicAead` keyset of
//! `AesSivKey`s: a key with output prefix TINK writes `0x01 || key ID
//! (big-endian u32) || V || C`, a RAW key writes `V || C`; the associated
//! data is exactly one S2V component. [`Keyset::import_tink`] and
//! [`Keyset::export_tink`] read and write Tink's JSON cleartext keyset
//! (`typeUrl` `type.googleapis.com/google.crypto.tink.AesSivKey`, `value`
//! the base64 `AesSivKey` protobuf: field 1 version 0, field 2 the 64-byte key).
//!
//! # FPE key versions
//!
//! *External* mode: the token is plain FF1/FF3-1 and the caller says
//! which version made it (per table or column). FPE has no integrity: a
//! token deciphers under any version, to a wrong value under the wrong one,
//! so nothing is guessed. Decryption without a named version is refused
//! while several versions are enabled ([`Error::VersionAmbiguous`]); with
//! one enabled version it uses that one (a token of a disabled or
//! destroyed version then deciphers to a wrong value, as above). A rewrap
//! must name the version that made the tokens, and not the primary
//! ([`FpeTransform::check_rewrap`]). *Embedded* mode: the
//! token carries the version without changing its length, as follows.
//! Let `A` be the alphabet (radix `r`) and `E` an extended alphabet of
//! `s * r` distinct characters (`s >= 2` slots; by default `A` followed by
//! the characters of `0-9A-Za-z` not in `A` and not kept in clear, cut to
//! whole slots: 6 slots for digits, 2 for lowercase letters). The value's
//! encrypted characters are enciphered as usual, `y = FF(K_v, T, x)`; then
//! the first encrypted character `y_0` is written as `E[slot(v) * r + y_0]`
//! with `slot(v) = (v - 1) mod s`. Decryption reads the slot back, maps
//! the character to `y_0`, and deciphers under the version living in that
//! slot. Slot 0 is `A` itself, so version-1 tokens are ordinary tokens.
//!
//! Security: the slot is a function of the key version alone, never of the
//! plaintext, and the rest of the token is the unchanged FF1/FF3-1
//! ciphertext, so a token reveals exactly what the plain FPE token does plus
//! which version made it (as Tink's key ID prefix does); confidentiality
//! rests on FF1/FF3-1 being a PRP on `r^n` as before. Limits: (1) from
//! slot 1 on, the first encrypted character lies outside `A`, so the
//! token no longer matches the plaintext's character class (a card token
//! may hold a letter; Luhn and digit-only checks fail); (2) at most `s`
//! versions may be live (not destroyed) at once; a slot is reused only
//! after its version is destroyed, and a token of the destroyed version then
//! deciphers under the new one to a wrong value, since FPE has no integrity;
//! (3) the mode is refused where `E` cannot have two slots (for example the
//! 62-character alphanumeric alphabet with the default pool: give
//! `embedded_alphabet`, or use external versions).
//!
//! # FPE tweaks
//!
//! A transformation's tweak is `fixed` (stored in the keyset, the same for
//! every value), given per `call`, or read from a `field` of the same
//! record: then the tweak of each value is the bytes of that field as the
//! record holds them (a CSV field after unquoting), so two records with the
//! same value and different fields get different tokens. A field tweak must
//! not be empty (an empty field is taken as a missing tweak), and is 7 bytes
//! for FF3-1. [`FpeTransform::tweak_field`] names the field;
//! [`BatchTweaks::PerValue`] passes one tweak per value to the batch calls.
//!
//! # The keyset file
//!
//! JSON, UTF-8: `{"format": "tessera-keyset", "version": 1, "transforms":
//! [...]}`. A transformation is `{"name", "primary", "params": {"kind":
//! "fpe" | "siv", ...}, "keys": [...]}`; FPE params are `algorithm`
//! (`ff1` | `ff3-1`), `alphabet`, `passthrough`, `keep_prefix`,
//! `keep_suffix`, optional `keep_from_last`, `tweak` (`{"policy": "fixed",
//! "hex": ...}`, `{"policy": "call"}` or `{"policy": "field", "name": ...}`),
//! `key_version` (`external` | `embedded`), optional `embedded_alphabet`,
//! `key_bytes`; SIV params are `output_prefix` (`tink` | `raw`) and
//! `key_bytes`. A key is `{"id", "status": "enabled" | "disabled" |
//! "destroyed", "created" (Unix seconds), "output_prefix" (SIV only),
//! "material" (hex; absent once destroyed)}`. At rest the JSON is sealed in
//! a password-encrypted OpenPGP message (RFC 9580 SKESK v6 + SEIPD v2,
//! Argon2id) by [`Keyset::save`]; cleartext JSON is read or written only
//! when [`Protection::InsecureCleartext`] is asked for. A file whose
//! `version` is newer than [`FORMAT_VERSION`] is refused.

mod batch;
mod deterministic;
mod embed;
mod error;
mod material;
mod migrate;
mod model;
mod store;
mod template;
mod tink;
mod tokenize;
mod walk;

pub use batch::BatchTweaks;
pub use deterministic::{SivTransform, TINK_PREFIX_LEN, TINK_START_BYTE};
pub use error::{Error, Result};
pub use migrate::TokenSource;
pub use model::{
    DateRange, FpeAlgorithm, FpeParams, KeyStatus, KeyVersion, KeyVersionMode, LuhnRule, OutputPrefix, SivParams,
    Transform, TransformParams, TweakPolicy,
};
pub use store::{FORMAT_VERSION, Protection};
pub use template::Template;
pub use tokenize::FpeTransform;

use material::KeyMaterial;

/// Named transformations and their key versions. See the [module
/// documentation](self) for the model and the file format. `Debug` never
/// shows key bytes.
#[derive(Debug, Clone, Default)]
pub struct Keyset {
    transforms: Vec<Transform>,
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

impl Keyset {
    /// An empty keyset.
    pub fn new() -> Self {
        Keyset::default()
    }

    /// The transformations, in the order they were added.
    pub fn transforms(&self) -> &[Transform] {
        &self.transforms
    }

    /// The transformation `name`.
    pub fn transform(&self, name: &str) -> Result<&Transform> {
        self.transforms.iter().find(|t| t.name == name).ok_or_else(|| Error::UnknownTransform(name.into()))
    }

    fn transform_mut(&mut self, name: &str) -> Result<&mut Transform> {
        self.transforms.iter_mut().find(|t| t.name == name).ok_or_else(|| Error::UnknownTransform(name.into()))
    }

    /// Adds a transformation with one fresh random key (version 1 for FPE,
    /// a random key ID for AES-SIV), which is its primary. Returns that ID.
    pub fn add_transform(&mut self, name: &str, params: TransformParams) -> Result<u32> {
        if name.is_empty() || name.chars().any(char::is_control) {
            return Err(Error::invalid("a transformation name must be non-empty, without control characters"));
        }
        if self.transform(name).is_ok() {
            return Err(Error::DuplicateTransform(name.into()));
        }
        let t = Transform { name: name.into(), primary: 0, params, keys: Vec::new() };
        self.transforms.push(t);
        let id = self.add_key(name);
        match id {
            Ok(id) => {
                self.transform_mut(name)?.primary = id;
                Ok(id)
            }
            Err(e) => {
                self.transforms.pop();
                Err(e)
            }
        }
    }

    /// Adds a transformation whose first key version, its primary, holds
    /// `key`: a key already in use elsewhere (FPE: 16, 24 or 32 bytes, say
    /// the key of old FF3-1 tokens to migrate; AES-SIV: 32, 48 or 64). Later
    /// versions get fresh keys of the same size. Returns the version's ID.
    ///
    /// ```
    /// use tessera::fpe::{Alphabet, FF1, Fpe};
    /// use tessera::keyset::{FpeParams, Keyset, TransformParams};
    /// let key = [7u8; 16];
    /// let mut ks = Keyset::new();
    /// ks.add_transform_with_key("old", TransformParams::Fpe(FpeParams::new("0123456789")), &key).unwrap();
    /// let by_key = FF1::new(&key, Alphabet::digits()).unwrap().encrypt(b"", "123456789").unwrap();
    /// assert_eq!(ks.fpe("old").unwrap().encrypt(None, "123456789").unwrap(), by_key);
    /// assert!(ks.add_transform_with_key("bad", TransformParams::Fpe(FpeParams::new("0123456789")), &[1; 20]).is_err());
    /// ```
    pub fn add_transform_with_key(&mut self, name: &str, mut params: TransformParams, key: &[u8]) -> Result<u32> {
        match &mut params {
            TransformParams::Fpe(p) => p.key_bytes = key.len(),
            TransformParams::Siv(p) => p.key_bytes = key.len(),
        }
        let id = self.add_transform(name, params)?;
        let t = self.transform_mut(name)?;
        t.keys[0].material = Some(KeyMaterial::from_slice(key));
        Ok(id)
    }

    /// Adds a transformation made elsewhere (e.g. by Tink), checking it.
    pub(crate) fn insert(&mut self, t: Transform) -> Result<()> {
        if self.transform(&t.name).is_ok() {
            return Err(Error::DuplicateTransform(t.name));
        }
        check_transform(&t)?;
        self.transforms.push(t);
        Ok(())
    }

    /// Adds a fresh random key version (enabled, not primary) to `name`
    /// and returns its ID: the next number for FPE, a random unused key ID
    /// for AES-SIV (as Tink does).
    pub fn add_key(&mut self, name: &str) -> Result<u32> {
        let t = self.transform_mut(name)?;
        let (id, len, prefix) = match &t.params {
            TransformParams::Fpe(p) => {
                let alphabet = crate::fpe::Alphabet::new(&p.alphabet)?;
                let next = match embed::Embedding::of(&t.name, p, &alphabet)? {
                    Some(e) => e.next_version(&t.keys).ok_or_else(|| {
                        Error::Rotation(format!(
                            "every one of the {} embedded key slots of {:?} holds a live version: destroy old versions first",
                            e.slots(),
                            t.name
                        ))
                    })?,
                    None => t.keys.iter().map(|k| k.id).max().unwrap_or(0).checked_add(1).ok_or_else(|| {
                        Error::Rotation("no key version number left".into())
                    })?,
                };
                (next, p.key_bytes, None)
            }
            TransformParams::Siv(p) => (fresh_key_id(&t.keys)?, p.key_bytes, Some(p.output_prefix)),
        };
        let material = KeyMaterial::random(len)?;
        let key = KeyVersion {
            id,
            status: KeyStatus::Enabled,
            created: now(),
            output_prefix: prefix,
            material: Some(material),
        };
        t.keys.push(key);
        if t.keys.len() == 1 {
            t.primary = id;
        }
        if let Err(e) = check_transform(t) {
            t.keys.pop();
            return Err(e);
        }
        Ok(id)
    }

    /// Makes version `id` of `name` the primary (it must be enabled).
    pub fn promote(&mut self, name: &str, id: u32) -> Result<()> {
        self.transform_mut(name)?.promote(id)
    }

    /// Enables a disabled version.
    pub fn enable(&mut self, name: &str, id: u32) -> Result<()> {
        self.transform_mut(name)?.enable(id)
    }

    /// Disables a version that is not the primary.
    pub fn disable(&mut self, name: &str, id: u32) -> Result<()> {
        self.transform_mut(name)?.disable(id)
    }

    /// Destroys a disabled version (not the primary): its bytes leave the
    /// keyset. An enabled version must be [disabled](Self::disable) first.
    ///
    /// ```
    /// use tessera::keyset::{Error, Keyset, Template};
    /// let mut ks = Keyset::new();
    /// ks.add_transform("ssn", Template::Ssn.params()).unwrap();
    /// let v2 = ks.add_key("ssn").unwrap();
    /// ks.promote("ssn", v2).unwrap();
    /// assert!(matches!(ks.destroy("ssn", 1), Err(Error::DestroyEnabled { version: 1, .. })));
    /// ks.disable("ssn", 1).unwrap();
    /// ks.destroy("ssn", 1).unwrap();
    /// ```
    pub fn destroy(&mut self, name: &str, id: u32) -> Result<()> {
        self.transform_mut(name)?.destroy(id)
    }

    /// Removes the transformation `name`.
    pub fn remove(&mut self, name: &str) -> Result<Transform> {
        let i =
            self.transforms.iter().position(|t| t.name == name).ok_or_else(|| Error::UnknownTransform(name.into()))?;
        Ok(self.transforms.remove(i))
    }

    /// Builds the FPE transformation `name` for use.
    pub fn fpe(&self, name: &str) -> Result<FpeTransform> {
        FpeTransform::new(self.transform(name)?)
    }

    /// Builds the AES-SIV transformation `name` for use.
    pub fn siv(&self, name: &str) -> Result<SivTransform> {
        SivTransform::new(self.transform(name)?)
    }

    /// Checks every rule of the format (run on every keyset read).
    pub(crate) fn validate(&self) -> Result<()> {
        let mut names: Vec<&str> = self.transforms.iter().map(|t| t.name.as_str()).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::DuplicateTransform(w[0].into()));
        }
        self.transforms.iter().try_for_each(check_transform)
    }
}

/// Key rules, then the parameters (by building the transformation).
fn check_transform(t: &Transform) -> Result<()> {
    t.validate()?;
    match &t.params {
        TransformParams::Fpe(_) => FpeTransform::new(t).map(drop),
        TransformParams::Siv(p) if !matches!(p.key_bytes, 32 | 48 | 64) => Err(Error::invalid(format!(
            "transformation {:?}: AES-SIV keys are 32, 48 or 64 bytes, not {}",
            t.name, p.key_bytes
        ))),
        TransformParams::Siv(_) => Ok(()),
    }
}

/// A random non-zero key ID not in `keys`.
fn fresh_key_id(keys: &[KeyVersion]) -> Result<u32> {
    loop {
        let mut b = [0u8; 4];
        getrandom::fill(&mut b).map_err(|_| Error::Random)?;
        let id = u32::from_be_bytes(b);
        if id != 0 && keys.iter().all(|k| k.id != id) {
            return Ok(id);
        }
    }
}
