//! FPE with a transformation's keys: encrypt under the primary, decrypt
//! under the version that made the token, rewrap to the primary.

use zeroize::Zeroizing;

use crate::Direction;
use crate::fpe::{Alphabet, FF1, FF3_1, Fpe, TokenFormat};

use super::embed::Embedding;
use super::error::{Error, Result};
use super::model::{FpeAlgorithm, FpeParams, KeyStatus, Transform, TransformParams, TweakPolicy};
use super::walk::Walk;

/// A built FPE transformation: one cipher per usable key version, built
/// once. `Send + Sync`; share it between threads. `Debug` shows no key.
///
/// ```
/// use tessera::keyset::{Keyset, Template};
/// let mut ks = Keyset::new();
/// ks.add_transform("cards", Template::Card.params()).unwrap();
/// let fpe = ks.fpe("cards").unwrap();
/// let token = fpe.encrypt(None, "4111-1111-1111-1111").unwrap();
/// assert!(token.starts_with("4111-11") && token.ends_with("-1111"));
/// assert_eq!(fpe.decrypt(None, &token, None).unwrap().as_str(), "4111-1111-1111-1111");
/// ```
pub struct FpeTransform {
    name: String,
    pub(crate) alphabet: Alphabet,
    pub(crate) format: TokenFormat,
    pub(crate) params: FpeParams,
    fixed_tweak: Option<Vec<u8>>,
    pub(crate) embedding: Option<Embedding>,
    /// Card numbers under a Luhn rule, or dates: values walk inside their subset.
    pub(crate) walk: Option<Walk>,
    /// One cipher per enabled version (by ID).
    ciphers: Vec<(u32, Box<dyn Fpe>)>,
    transform: Transform,
}

impl core::fmt::Debug for FpeTransform {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FpeTransform")
            .field("name", &self.name)
            .field("primary", &self.transform.primary)
            .field("versions", &self.transform.keys.iter().map(|k| (k.id, k.status)).collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl FpeTransform {
    /// Builds the ciphers of `t`, checking every parameter.
    pub(crate) fn new(t: &Transform) -> Result<Self> {
        let TransformParams::Fpe(p) = &t.params else {
            return Err(Error::WrongKind { name: t.name.clone(), actual: t.params.kind_name(), wanted: "FPE" });
        };
        let bad = |what: String| Error::invalid(format!("transformation {:?}: {what}", t.name));
        let alphabet = Alphabet::new(&p.alphabet).map_err(|e| bad(e.to_string()))?;
        if let Some(c) = p.passthrough.chars().find(|&c| alphabet.numeral(c).is_some()) {
            return Err(bad(format!("passthrough character {c:?} is in the alphabet")));
        }
        if let Some(c) = p.keep_from_last.filter(|&c| alphabet.numeral(c).is_some()) {
            return Err(bad(format!("keep-from-last character {c:?} is in the alphabet")));
        }
        if !matches!(p.key_bytes, 16 | 24 | 32) {
            return Err(bad(format!("key size {} bytes; FPE keys are 16, 24 or 32", p.key_bytes)));
        }
        let fixed_tweak = match &p.tweak {
            TweakPolicy::Fixed { hex } => {
                let t = crate::hex::decode(hex).map_err(|_| bad("the fixed tweak is not hex".into()))?;
                if p.algorithm == FpeAlgorithm::Ff3_1 && t.len() != 7 {
                    return Err(bad(format!("FF3-1 tweaks are 7 bytes; the fixed tweak has {}", t.len())));
                }
                Some(t)
            }
            TweakPolicy::Call | TweakPolicy::Field { .. } => None,
        };
        let walk = Walk::of(&t.name, p)?;
        let embedding = Embedding::of(&t.name, p, &alphabet)?;
        if let Some(e) = &embedding {
            e.check_slots(&t.name, &t.keys)?;
        }
        let format =
            TokenFormat::new().passthrough(&p.passthrough).keep_prefix(p.keep_prefix).keep_suffix(p.keep_suffix);
        let mut ciphers = Vec::with_capacity(t.keys.len());
        for k in t.keys.iter().filter(|k| k.status == KeyStatus::Enabled) {
            let Some(m) = &k.material else { continue };
            let cipher: Box<dyn Fpe> = match p.algorithm {
                FpeAlgorithm::Ff1 => Box::new(FF1::new(m.bytes(), alphabet.clone())?),
                FpeAlgorithm::Ff3_1 => Box::new(FF3_1::new(m.bytes(), alphabet.clone())?),
            };
            ciphers.push((k.id, cipher));
        }
        let mut t = t.clone();
        t.keys.iter_mut().for_each(|k| k.material = None); // the ciphers hold what is needed
        Ok(FpeTransform {
            name: t.name.clone(),
            alphabet,
            format,
            params: p.clone(),
            fixed_tweak,
            embedding,
            walk,
            ciphers,
            transform: t,
        })
    }

    /// The transformation's parameters.
    pub fn params(&self) -> &FpeParams {
        &self.params
    }

    /// In embedded mode, how many versions can be live at once; `None` in
    /// external mode.
    pub fn embedded_slots(&self) -> Option<u32> {
        self.embedding.as_ref().map(Embedding::slots)
    }

    /// The primary version (the one [`encrypt`](Self::encrypt) uses).
    pub fn primary(&self) -> u32 {
        self.transform.primary
    }

    /// The field the tweak of each value comes from (tweak policy `field`),
    /// if any: a caller reading records passes that field's bytes as the
    /// value's tweak (see [`BatchTweaks::PerValue`](super::BatchTweaks)).
    pub fn tweak_field(&self) -> Option<&str> {
        match &self.params.tweak {
            TweakPolicy::Field { name } => Some(name),
            _ => None,
        }
    }

    /// The tweak to use given the caller's: the fixed one, or the caller's
    /// (checked when it is a record's field: not empty, 7 bytes for FF3-1).
    pub(crate) fn tweak<'a>(&'a self, given: Option<&'a [u8]>) -> Result<&'a [u8]> {
        let reason = match (&self.fixed_tweak, given) {
            (Some(t), None) => return Ok(t),
            (None, Some(t)) => return self.check_field_tweak(t).map(|()| t),
            (Some(_), Some(_)) => "its tweak is fixed in the keyset; give none",
            (None, None) => "it takes a tweak per value; give one",
        };
        Err(Error::Tweak { transform: self.name.clone(), reason })
    }

    fn check_field_tweak(&self, tweak: &[u8]) -> Result<()> {
        let Some(field) = self.tweak_field() else { return Ok(()) };
        let reason = if tweak.is_empty() {
            "the field is empty (a missing tweak)".to_string()
        } else if self.params.algorithm == FpeAlgorithm::Ff3_1 && tweak.len() != 7 {
            format!("FF3-1 tweaks are 7 bytes; the field has {}", tweak.len())
        } else {
            return Ok(());
        };
        Err(Error::TweakField { transform: self.name.clone(), field: field.into(), reason })
    }

    pub(crate) fn cipher(&self, version: u32) -> Result<&dyn Fpe> {
        self.transform.usable_key(version)?;
        let (_, c) = self.ciphers.iter().find(|k| k.0 == version).expect("enabled keys have a cipher");
        Ok(c.as_ref())
    }

    /// Splits off the part kept by `keep_from_last`.
    fn split<'t>(&self, text: &'t str) -> (&'t str, &'t str) {
        match self.params.keep_from_last.and_then(|c| text.rfind(c)) {
            Some(i) => text.split_at(i),
            None => (text, ""),
        }
    }

    /// Byte offset and character of the first encrypted position of `head`.
    fn first_encrypted(&self, head: &str) -> Option<(usize, char)> {
        let pass = |c: char| self.params.passthrough.contains(c);
        let total = head.chars().filter(|&c| !pass(c)).count();
        if total <= self.params.keep_prefix + self.params.keep_suffix {
            return None;
        }
        head.char_indices().filter(|&(_, c)| !pass(c)).nth(self.params.keep_prefix)
    }

    /// Encrypts `value` under the primary into `out` (cleared first).
    /// `tweak` must be `None` when the tweak is fixed, `Some` otherwise.
    pub fn encrypt_into(&self, tweak: Option<&[u8]>, value: &str, out: &mut String) -> Result<()> {
        let primary = self.transform.primary;
        self.encrypt_with(primary, self.tweak(tweak)?, value, out)
    }

    fn encrypt_with(&self, version: u32, tweak: &[u8], value: &str, out: &mut String) -> Result<()> {
        if self.walk.is_some() {
            return self.walk_one(Direction::Encrypt, version, tweak, value, out);
        }
        let (head, tail) = self.split(value);
        self.format.transform_into(Direction::Encrypt, self.cipher(version)?, tweak, head, out)?;
        self.embed_version(version, out);
        out.push_str(tail);
        Ok(())
    }

    /// One value of a walking transformation (card numbers under a Luhn
    /// rule, dates) into `out` (cleared first).
    fn walk_one(&self, dir: Direction, version: u32, tweak: &[u8], value: &str, out: &mut String) -> Result<()> {
        let walk = self.walk.as_ref().expect("called for walking transformations");
        let (mut bytes, mut ends) = (zeroize::Zeroizing::new(Vec::new()), Vec::new());
        let cipher = self.cipher(version)?;
        let tweaks = crate::fpe::Tweaks::Same(tweak);
        walk.run(cipher, &self.alphabet, &self.format, dir, tweaks, &[value], &mut bytes, &mut ends)
            .map_err(unbatch)?;
        out.clear();
        out.push_str(std::str::from_utf8(&bytes).expect("tokens are UTF-8"));
        Ok(())
    }

    /// Embedded mode: rewrites the first encrypted character of the FPE
    /// token `token` to carry `version`'s slot. Nothing in external mode.
    pub(crate) fn embed_version(&self, version: u32, token: &mut String) {
        if let Some(e) = &self.embedding {
            let (at, c) = self.first_encrypted(token).expect("an encrypted value has an encrypted position");
            let d = self.alphabet.numeral(c).expect("token characters are in the alphabet");
            token.replace_range(at..at + c.len_utf8(), e.encode(version, d).encode_utf8(&mut [0; 4]));
        }
    }

    /// Encrypts `value` under the primary.
    pub fn encrypt(&self, tweak: Option<&[u8]>, value: &str) -> Result<String> {
        let mut out = String::with_capacity(value.len());
        self.encrypt_into(tweak, value, &mut out)?;
        Ok(out)
    }

    /// The key version that made `token`: read from the token in embedded
    /// mode (where `version` must be `None` or agree); in external mode
    /// `version`, or when it is `None` the only enabled version. With
    /// several enabled versions and none named, nothing tells which made
    /// the token (any of them would decrypt it, to different values):
    /// [`Error::VersionAmbiguous`].
    ///
    /// ```
    /// use tessera::keyset::{Error, Keyset, Template};
    /// let mut ks = Keyset::new();
    /// ks.add_transform("ssn", Template::Ssn.params()).unwrap();
    /// let token = ks.fpe("ssn").unwrap().encrypt(None, "123-45-6789").unwrap();
    /// assert_eq!(ks.fpe("ssn").unwrap().version_of(&token, None).unwrap(), 1);
    /// let v2 = ks.add_key("ssn").unwrap();
    /// ks.promote("ssn", v2).unwrap();
    /// let fpe = ks.fpe("ssn").unwrap();
    /// assert!(matches!(fpe.version_of(&token, None), Err(Error::VersionAmbiguous { .. })));
    /// assert_eq!(fpe.decrypt(None, &token, Some(1)).unwrap().as_str(), "123-45-6789");
    /// ```
    pub fn version_of(&self, token: &str, version: Option<u32>) -> Result<u32> {
        let Some(e) = &self.embedding else {
            return self.external_version(version);
        };
        let (head, _) = self.split(token);
        let found = match self.first_encrypted(head) {
            None => return Err(Error::Crypto(crate::Error::Format("the token has no encrypted characters"))),
            Some((position, c)) => {
                let (slot, _) = e.decode(c).ok_or(crate::Error::NotInAlphabet { ch: c, position })?;
                match e.version_in_slot(&self.transform.keys, slot) {
                    Some(k) => k.id,
                    None => {
                        return Err(Error::NoMatchingKey {
                            transform: self.name.clone(),
                            detail: format!("the token names key slot {slot}, which holds no version"),
                        });
                    }
                }
            }
        };
        match version {
            Some(v) if v != found => {
                Err(Error::Rotation(format!("the token carries key version {found} of {:?}, not {v}", self.name)))
            }
            _ => Ok(found),
        }
    }

    /// External mode: `given`, or the only enabled version.
    pub(crate) fn external_version(&self, given: Option<u32>) -> Result<u32> {
        match (given, self.ciphers.as_slice()) {
            (Some(v), _) => Ok(v),
            (None, [(only, _)]) => Ok(*only),
            (None, several) => Err(Error::VersionAmbiguous {
                transform: self.name.clone(),
                enabled: several.iter().map(|(id, _)| *id).collect(),
            }),
        }
    }

    /// Checks, before any token is read, that a decryption naming `version`
    /// (or none) can tell which key version made each token: always in
    /// embedded mode; in external mode when `version` is given or only one
    /// version is enabled ([`Error::VersionAmbiguous`] otherwise). Whether
    /// that version is usable is checked with the first token.
    ///
    /// ```
    /// use tessera::keyset::{Error, Keyset, Template};
    /// let mut ks = Keyset::new();
    /// ks.add_transform("ssn", Template::Ssn.params()).unwrap();
    /// ks.fpe("ssn").unwrap().check_decrypt(None).unwrap(); // one version
    /// ks.add_key("ssn").unwrap();
    /// let fpe = ks.fpe("ssn").unwrap();
    /// assert!(matches!(fpe.check_decrypt(None), Err(Error::VersionAmbiguous { .. })));
    /// fpe.check_decrypt(Some(1)).unwrap();
    /// ```
    pub fn check_decrypt(&self, version: Option<u32>) -> Result<()> {
        match self.embedding {
            Some(_) => Ok(()),
            None => self.external_version(version).map(drop),
        }
    }

    /// Checks, before any token is read, that a rewrap from `from` can do
    /// what it is for: move tokens of another version to the primary. In
    /// external mode the version that made the tokens must be named
    /// ([`Error::RewrapSourceUnknown`]: nothing else tells); in both modes
    /// naming the primary is refused ([`Error::RewrapFromPrimary`]: the
    /// tokens would come back unchanged, as when the new version was not
    /// promoted). In embedded mode without `from`, a token that already
    /// carries the primary comes back unchanged, so a rewrap can be run
    /// again over a column that is partly done.
    ///
    /// ```
    /// use tessera::keyset::{Error, Keyset, Template};
    /// let mut ks = Keyset::new();
    /// ks.add_transform("ssn", Template::Ssn.params()).unwrap();
    /// let v2 = ks.add_key("ssn").unwrap();
    /// let fpe = ks.fpe("ssn").unwrap(); // version 2 added, not promoted
    /// assert!(matches!(fpe.check_rewrap(Some(1)), Err(Error::RewrapFromPrimary { version: 1, .. })));
    /// ks.promote("ssn", v2).unwrap();
    /// let fpe = ks.fpe("ssn").unwrap();
    /// assert!(matches!(fpe.check_rewrap(None), Err(Error::RewrapSourceUnknown { primary: 2, .. })));
    /// fpe.check_rewrap(Some(1)).unwrap();
    /// ```
    pub fn check_rewrap(&self, from: Option<u32>) -> Result<()> {
        let (transform, primary) = (self.name.clone(), self.transform.primary);
        match from {
            Some(v) if v == primary => Err(Error::RewrapFromPrimary { transform, version: v }),
            None if self.embedding.is_none() => Err(Error::RewrapSourceUnknown { transform, primary }),
            _ => Ok(()),
        }
    }

    /// Decrypts `token` into `out` (cleared first), under the version that
    /// made it (see [`version_of`](Self::version_of)). Returns that version.
    pub fn decrypt_into(
        &self,
        tweak: Option<&[u8]>,
        token: &str,
        version: Option<u32>,
        out: &mut String,
    ) -> Result<u32> {
        let tweak = self.tweak(tweak)?;
        let v = self.version_of(token, version)?;
        if self.walk.is_some() {
            self.walk_one(Direction::Decrypt, v, tweak, token, out)?;
            return Ok(v);
        }
        let cipher = self.cipher(v)?;
        let (head, tail) = self.split(token);
        if self.embedding.is_some() {
            let mut plain_head = String::with_capacity(head.len());
            self.unembed(head, &mut plain_head);
            self.format.transform_into(Direction::Decrypt, cipher, tweak, &plain_head, out)?;
        } else {
            self.format.transform_into(Direction::Decrypt, cipher, tweak, head, out)?;
        }
        out.push_str(tail);
        Ok(v)
    }

    /// Appends `head` (a token without its kept tail, whose version
    /// [`version_of`](Self::version_of) read) to `out` with its first
    /// encrypted character back in the alphabet: the plain FF1/FF3-1 token.
    pub(crate) fn unembed(&self, head: &str, out: &mut String) {
        match (&self.embedding, self.first_encrypted(head)) {
            (Some(e), Some((at, c))) => {
                let (_, d) = e.decode(c).expect("version_of decoded it");
                out.push_str(&head[..at]);
                out.push(self.alphabet.char_of(d).expect("decode gives numerals below the radix"));
                out.push_str(&head[at + c.len_utf8()..]);
            }
            _ => out.push_str(head),
        }
    }

    /// Decrypts `token`; the result is zeroized when dropped.
    pub fn decrypt(&self, tweak: Option<&[u8]>, token: &str, version: Option<u32>) -> Result<Zeroizing<String>> {
        let mut out = Zeroizing::new(String::with_capacity(token.len()));
        self.decrypt_into(tweak, token, version, &mut out)?;
        Ok(out)
    }

    /// Re-encrypts `token` (made by `from`, or by the version it carries in
    /// embedded mode) under the primary, into `out`. The plaintext stays in
    /// a buffer that is zeroized before this returns. A rewrap that cannot
    /// know the token's version, or that names the primary, is refused (see
    /// [`check_rewrap`](Self::check_rewrap)).
    pub fn rewrap_into(&self, tweak: Option<&[u8]>, token: &str, from: Option<u32>, out: &mut String) -> Result<()> {
        self.check_rewrap(from)?;
        let plain = self.decrypt(tweak, token, from)?;
        self.encrypt_into(tweak, &plain, out)
    }

    /// Re-encrypts `token` under the primary; see [`rewrap_into`](Self::rewrap_into).
    pub fn rewrap(&self, tweak: Option<&[u8]>, token: &str, from: Option<u32>) -> Result<String> {
        let mut out = String::with_capacity(token.len());
        self.rewrap_into(tweak, token, from, &mut out)?;
        Ok(out)
    }
}

/// The error of a batch of one value, without the batch around it.
fn unbatch(e: Error) -> Error {
    match e {
        Error::Crypto(crate::Error::Batch { source, .. }) => Error::Crypto(*source),
        Error::Batch { source, .. } => *source,
        e => e,
    }
}
