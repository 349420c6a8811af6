//! What a keyset holds: transformations, their parameters and key versions.

use serde::{Deserialize, Serialize};

use super::error::{Error, Result};
use super::material::KeyMaterial;

/// A key version's state, as in Tink.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyStatus {
    /// Decrypts (and encrypts, when primary).
    Enabled,
    /// Kept but refused until enabled again.
    Disabled,
    /// Key bytes removed from the keyset; only the version number remains,
    /// so that errors can name it.
    Destroyed,
}

/// How an AES-SIV ciphertext names its key (Tink's `OutputPrefixType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum OutputPrefix {
    /// Five bytes before `V || C`: 0x01 and the key ID, big-endian.
    #[default]
    Tink,
    /// No prefix: decryption tries every enabled RAW key.
    Raw,
}

/// One key version of a transformation.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyVersion {
    /// The version number (FPE: 1, 2, ...; AES-SIV: the Tink key ID).
    pub id: u32,
    /// Enabled, disabled or destroyed.
    pub status: KeyStatus,
    /// Creation time, seconds since 1970.
    pub created: u64,
    /// AES-SIV only: how ciphertexts of this key are prefixed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_prefix: Option<OutputPrefix>,
    /// The key bytes; `None` once destroyed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) material: Option<KeyMaterial>,
}

impl KeyVersion {
    /// Whether the key bytes are still held (not destroyed).
    pub fn has_material(&self) -> bool {
        self.material.is_some()
    }

    /// The key length in bytes, if not destroyed.
    pub fn key_len(&self) -> Option<usize> {
        self.material.as_ref().map(|m| m.bytes().len())
    }
}

/// FF1 or FF3-1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum FpeAlgorithm {
    /// NIST SP 800-38G FF1.
    #[default]
    Ff1,
    /// NIST SP 800-38G Rev 1 FF3-1 (56-bit tweaks).
    #[serde(rename = "ff3-1")]
    Ff3_1,
}

impl FpeAlgorithm {
    /// The method as [`crate::fpe`] names it (for its
    /// [`withdrawn`](crate::fpe::Algorithm::withdrawn) status, say).
    ///
    /// ```
    /// use tessera::keyset::FpeAlgorithm;
    /// assert!(FpeAlgorithm::Ff3_1.algorithm().withdrawn().is_some());
    /// ```
    pub fn algorithm(self) -> crate::fpe::Algorithm {
        match self {
            FpeAlgorithm::Ff1 => crate::fpe::Algorithm::Ff1,
            FpeAlgorithm::Ff3_1 => crate::fpe::Algorithm::Ff3_1,
        }
    }
}

/// Where an FPE transformation's tweak comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "policy", rename_all = "lowercase", deny_unknown_fields)]
pub enum TweakPolicy {
    /// The same tweak for every value (hex in the file; may be empty for FF1).
    Fixed {
        /// The tweak bytes as hex.
        hex: String,
    },
    /// The caller gives a tweak with each call.
    Call,
    /// The tweak is another field of the same record (e.g. a CSV column);
    /// the caller reads it and passes it per call.
    Field {
        /// The field's name.
        name: String,
    },
}

impl Default for TweakPolicy {
    fn default() -> Self {
        TweakPolicy::Fixed { hex: String::new() }
    }
}

/// How an FPE token tells which key version made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum KeyVersionMode {
    /// The token is pure FF1/FF3-1; the caller names the version on decrypt.
    #[default]
    External,
    /// The first encrypted character also encodes the version (see the
    /// module documentation); the token's length does not change.
    Embedded,
}

/// Parameters of an FPE transformation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FpeParams {
    /// FF1 or FF3-1.
    #[serde(default)]
    pub algorithm: FpeAlgorithm,
    /// The characters encrypted, in numeral order.
    pub alphabet: String,
    /// Characters kept in place, unencrypted (must not be in the alphabet).
    #[serde(default)]
    pub passthrough: String,
    /// Leading alphabet characters kept in clear.
    #[serde(default)]
    pub keep_prefix: usize,
    /// Trailing alphabet characters kept in clear.
    #[serde(default)]
    pub keep_suffix: usize,
    /// Keep everything from the last occurrence of this character on
    /// (e.g. `@` keeps an e-mail address's domain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_from_last: Option<char>,
    /// The tweak.
    #[serde(default)]
    pub tweak: TweakPolicy,
    /// External or embedded key versions.
    #[serde(default)]
    pub key_version: KeyVersionMode,
    /// Embedded mode: the characters the first encrypted position is drawn
    /// from (`alphabet.len() * slots` of them, slot 0 first). Derived from
    /// `0-9A-Za-z` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedded_alphabet: Option<String>,
    /// Key size for new versions: 16, 24 or 32 bytes.
    #[serde(default = "default_fpe_key_bytes")]
    pub key_bytes: usize,
    /// Card numbers: values must pass the Luhn check, and tokens pass or
    /// fail it (see [`LuhnRule`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luhn: Option<LuhnRule>,
    /// Dates: values and tokens are `YYYY-MM-DD` dates in this range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<DateRange>,
}

fn default_fpe_key_bytes() -> usize {
    32
}

impl FpeParams {
    /// FF1 over `alphabet`, everything encrypted, empty fixed tweak,
    /// external versions, AES-256 keys.
    pub fn new(alphabet: &str) -> Self {
        FpeParams {
            algorithm: FpeAlgorithm::Ff1,
            alphabet: alphabet.into(),
            passthrough: String::new(),
            keep_prefix: 0,
            keep_suffix: 0,
            keep_from_last: None,
            tweak: TweakPolicy::default(),
            key_version: KeyVersionMode::External,
            embedded_alphabet: None,
            key_bytes: default_fpe_key_bytes(),
            luhn: None,
            date: None,
        }
    }
}

/// Parameters of an AES-SIV (deterministic AEAD) transformation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SivParams {
    /// Prefix type given to new key versions.
    #[serde(default)]
    pub output_prefix: OutputPrefix,
    /// Key size for new versions: 32, 48 or 64 bytes (Tink uses 64 only).
    #[serde(default = "default_siv_key_bytes")]
    pub key_bytes: usize,
}

fn default_siv_key_bytes() -> usize {
    64
}

impl Default for SivParams {
    fn default() -> Self {
        SivParams { output_prefix: OutputPrefix::Tink, key_bytes: 64 }
    }
}

/// What a transformation does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TransformParams {
    /// Format-preserving encryption.
    Fpe(FpeParams),
    /// Deterministic authenticated encryption, Tink-compatible.
    Siv(SivParams),
}

impl TransformParams {
    /// "FPE" or "AES-SIV", for messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            TransformParams::Fpe(_) => "FPE",
            TransformParams::Siv(_) => "AES-SIV",
        }
    }
}

/// A named transformation: parameters, key versions, the primary.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transform {
    /// Its name, unique in the keyset.
    pub name: String,
    /// The version that encrypts.
    pub primary: u32,
    /// What it does.
    pub params: TransformParams,
    /// Every version, destroyed ones included (without their bytes).
    pub keys: Vec<KeyVersion>,
}

impl Transform {
    /// The key version `id`.
    pub fn key(&self, id: u32) -> Result<&KeyVersion> {
        self.keys
            .iter()
            .find(|k| k.id == id)
            .ok_or_else(|| Error::UnknownVersion { transform: self.name.clone(), version: id })
    }

    fn key_mut(&mut self, id: u32) -> Result<&mut KeyVersion> {
        let name = self.name.clone();
        self.keys.iter_mut().find(|k| k.id == id).ok_or(Error::UnknownVersion { transform: name, version: id })
    }

    /// The key version `id`, refusing a disabled or destroyed one with an
    /// error naming it.
    pub(crate) fn usable_key(&self, id: u32) -> Result<&KeyVersion> {
        let k = self.key(id)?;
        match k.status {
            KeyStatus::Enabled => Ok(k),
            KeyStatus::Disabled => Err(Error::KeyDisabled { transform: self.name.clone(), version: id }),
            KeyStatus::Destroyed => Err(Error::KeyDestroyed { transform: self.name.clone(), version: id }),
        }
    }

    /// Makes `id` the primary. It must be enabled.
    pub fn promote(&mut self, id: u32) -> Result<()> {
        self.usable_key(id)?;
        self.primary = id;
        Ok(())
    }

    /// Re-enables a disabled version.
    pub fn enable(&mut self, id: u32) -> Result<()> {
        self.set_live_status(id, KeyStatus::Enabled)
    }

    /// Disables a version other than the primary: its values are refused
    /// until it is enabled again.
    pub fn disable(&mut self, id: u32) -> Result<()> {
        self.refuse_primary(id, "disable")?;
        self.set_live_status(id, KeyStatus::Disabled)
    }

    /// Sets the status of a version that is not destroyed.
    fn set_live_status(&mut self, id: u32, status: KeyStatus) -> Result<()> {
        let name = self.name.clone();
        let k = self.key_mut(id)?;
        if k.status == KeyStatus::Destroyed {
            return Err(Error::KeyDestroyed { transform: name, version: id });
        }
        k.status = status;
        Ok(())
    }

    /// Destroys a disabled version (never the primary): its bytes are wiped
    /// and dropped from the keyset, its number kept so errors can name it.
    /// An enabled version is refused ([`Error::DestroyEnabled`]): disabling
    /// it first shows, while it can still be undone, whether anything still
    /// needs it. Destroying a destroyed version changes nothing.
    pub fn destroy(&mut self, id: u32) -> Result<()> {
        self.refuse_primary(id, "destroy")?;
        let transform = self.name.clone();
        let k = self.key_mut(id)?;
        if k.status == KeyStatus::Enabled {
            return Err(Error::DestroyEnabled { transform, version: id });
        }
        k.status = KeyStatus::Destroyed;
        k.material = None; // KeyMaterial zeroizes on drop
        Ok(())
    }

    fn refuse_primary(&self, id: u32, what: &str) -> Result<()> {
        if id == self.primary {
            return Err(Error::Rotation(format!(
                "cannot {what} version {id} of {:?}: it is the primary; promote another version first",
                self.name
            )));
        }
        Ok(())
    }

    /// Checks the rules every transformation keeps: unique IDs, an enabled
    /// primary, bytes exactly where the key is not destroyed, of a size
    /// the algorithm takes.
    pub(crate) fn validate(&self) -> Result<()> {
        let name = &self.name;
        let mut ids: Vec<u32> = self.keys.iter().map(|k| k.id).collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::invalid(format!("transformation {name:?} has key ID {} twice", w[0])));
        }
        match self.keys.iter().find(|k| k.id == self.primary) {
            None => return Err(Error::invalid(format!("transformation {name:?} has no primary key"))),
            Some(k) if k.status != KeyStatus::Enabled => {
                return Err(Error::invalid(format!("the primary key of {name:?} is not enabled")));
            }
            Some(_) => {}
        }
        let sizes: &[usize] = match &self.params {
            TransformParams::Fpe(_) => &[16, 24, 32],
            TransformParams::Siv(_) => &[32, 48, 64],
        };
        for k in &self.keys {
            let ok = match (k.status, k.key_len()) {
                (KeyStatus::Destroyed, None) => true,
                (KeyStatus::Destroyed, Some(_)) | (_, None) => false,
                (_, Some(len)) => sizes.contains(&len),
            };
            if !ok {
                return Err(Error::invalid(format!(
                    "key version {} of {name:?} has key bytes of the wrong size, or bytes where it is destroyed, or none where it is not",
                    k.id
                )));
            }
            let prefix_ok = matches!(self.params, TransformParams::Siv(_)) == k.output_prefix.is_some();
            if !prefix_ok {
                return Err(Error::invalid(format!(
                    "key version {} of {name:?}: output_prefix is for AES-SIV keys and required there",
                    k.id
                )));
            }
        }
        Ok(())
    }
}

/// Whether the tokens of a card transformation pass the Luhn check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LuhnRule {
    /// Tokens pass the check, as card numbers do (systems that validate
    /// the column keep accepting them).
    Pass,
    /// Tokens fail the check, so that no token is ever mistaken for a card.
    Fail,
}

/// The dates of a date transformation, `first` and `last` included, as
/// `YYYY-MM-DD`.
///
/// ```
/// use tessera::keyset::{DateRange, FpeParams, Keyset, Template, TransformParams};
/// let mut ks = Keyset::new();
/// ks.add_transform("dob", Template::Date.params()).unwrap();
/// let fpe = ks.fpe("dob").unwrap();
/// let token = fpe.encrypt(None, "1984-03-17").unwrap();
/// assert_eq!(token.len(), 10);
/// assert_eq!(fpe.decrypt(None, &token, None).unwrap().as_str(), "1984-03-17");
/// // A range must hold at least 1,000,000 days.
/// let mut p = FpeParams::new("0123456789");
/// p.date = Some(DateRange { first: "1900-01-01".into(), last: "2099-12-31".into() });
/// assert!(ks.add_transform("short", TransformParams::Fpe(p)).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DateRange {
    /// The first date.
    pub first: String,
    /// The last date.
    pub last: String,
}

impl Default for DateRange {
    fn default() -> Self {
        DateRange { first: "0001-01-01".into(), last: "9999-12-31".into() }
    }
}
