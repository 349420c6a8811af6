//! Errors of the keyset module. No message contains key material or a password.

use std::io;

/// Everything that can go wrong reading, changing or using a keyset.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No transformation of that name.
    #[error("no transformation named {0:?} in the keyset")]
    UnknownTransform(String),
    /// A transformation of that name exists already.
    #[error("the keyset already has a transformation named {0:?}")]
    DuplicateTransform(String),
    /// The transformation is of the other kind (FPE where SIV was asked, or the reverse).
    #[error("transformation {name:?} is {actual}, not {wanted}")]
    WrongKind {
        /// The transformation.
        name: String,
        /// What it is ("FPE" or "AES-SIV").
        actual: &'static str,
        /// What the caller needed.
        wanted: &'static str,
    },
    /// No key of that version (key ID) in the transformation.
    #[error("transformation {transform:?} has no key version {version}")]
    UnknownVersion {
        /// The transformation.
        transform: String,
        /// The version asked for.
        version: u32,
    },
    /// The key that made the value is disabled.
    #[error("key version {version} of {transform:?} is disabled; enable it to use it")]
    KeyDisabled {
        /// The transformation.
        transform: String,
        /// The disabled version.
        version: u32,
    },
    /// The key that made the value was destroyed: its values cannot be recovered.
    #[error("key version {version} of {transform:?} was destroyed; its values cannot be decrypted")]
    KeyDestroyed {
        /// The transformation.
        transform: String,
        /// The destroyed version.
        version: u32,
    },
    /// FPE tokens with external key versions do not say which version made
    /// them, no version was named, and several versions are enabled: any of
    /// them would decrypt the token, to different values.
    #[error(
        "transformation {transform:?} has several enabled key versions ({}) and its tokens do not say which made them: name the version that made the tokens",
        list(.enabled)
    )]
    VersionAmbiguous {
        /// The transformation.
        transform: String,
        /// Its enabled versions.
        enabled: Vec<u32>,
    },
    /// A rewrap of FPE tokens with external key versions that does not name
    /// the version that made them: nothing else can tell.
    #[error(
        "transformation {transform:?} has external key versions: a rewrap needs the version that made the tokens (they go to the primary, version {primary})"
    )]
    RewrapSourceUnknown {
        /// The transformation.
        transform: String,
        /// Its primary version.
        primary: u32,
    },
    /// A rewrap from the primary: it would give the tokens back unchanged.
    #[error(
        "key version {version} of {transform:?} is the primary: a rewrap from it gives the tokens back unchanged; name the version that made them, or promote the new version first"
    )]
    RewrapFromPrimary {
        /// The transformation.
        transform: String,
        /// The primary version, named as the source.
        version: u32,
    },
    /// A version must be disabled before it is destroyed.
    #[error(
        "key version {version} of {transform:?} is enabled: disable it first, and destroy it once nothing needs it"
    )]
    DestroyEnabled {
        /// The transformation.
        transform: String,
        /// The enabled version.
        version: u32,
    },
    /// An AES-SIV ciphertext that no key of the transformation opens.
    #[error("no enabled key of {transform:?} opens this ciphertext ({detail})")]
    NoMatchingKey {
        /// The transformation.
        transform: String,
        /// What was tried.
        detail: String,
    },
    /// Value `index` of a batch failed; `source` says why.
    #[error("value {index} of the batch: {source}")]
    Batch {
        /// The value's position in the batch.
        index: usize,
        /// What went wrong with it.
        source: Box<Error>,
    },
    /// A value outside what the transformation takes: a card number that
    /// fails the Luhn check, a date outside the range, a token the
    /// transformation cannot have made.
    #[error("{0}")]
    ValueRefused(&'static str),
    /// A change the rotation rules forbid (e.g. disabling the primary).
    #[error("{0}")]
    Rotation(String),
    /// A transformation's keys break a rule of the format: no primary, a
    /// duplicate key ID, a key of the wrong size, a disabled primary...
    #[error("invalid keyset: {0}")]
    Invalid(String),
    /// Embedded key versions cannot work with this alphabet; the message says why.
    #[error("embedded key versions are impossible for {transform:?}: {reason}")]
    EmbeddingImpossible {
        /// The transformation.
        transform: String,
        /// Why.
        reason: String,
    },
    /// The tweak given does not fit the transformation's tweak policy.
    #[error("transformation {transform:?}: {reason}")]
    Tweak {
        /// The transformation.
        transform: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A value's tweak, read from a field of its record (tweak policy
    /// `field`), is unusable: empty, or of a length the algorithm refuses.
    #[error("transformation {transform:?} takes its tweak from field {field:?}: {reason}")]
    TweakField {
        /// The transformation.
        transform: String,
        /// The field the tweak comes from.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The keyset file is not valid JSON of the expected shape (the position
    /// is given, never the contents, which may be key material).
    #[error("malformed keyset: {0}")]
    Malformed(String),
    /// The file was written by a newer tessera.
    #[error("keyset format version {found} is newer than this tessera reads ({supported}); upgrade tessera")]
    NewerFormat {
        /// The file's format version.
        found: u32,
        /// The newest version this build reads.
        supported: u32,
    },
    /// The keyset is cleartext JSON but was opened as password-protected, or
    /// the reverse.
    #[error("{0}")]
    Protection(&'static str),
    /// Something in a Tink keyset that tessera does not support.
    #[error("unsupported Tink keyset: {0}")]
    TinkUnsupported(String),
    /// The OpenPGP layer that protects the file at rest (a wrong password
    /// shows here). The message includes the OpenPGP error's, which is
    /// therefore not also given as its `source` (a chain printer would
    /// repeat it).
    #[error("keyset file: {0}")]
    Sealed(crate::openpgp::Error),
    /// The FPE or AES-SIV operation failed (bad value, wrong key...).
    #[error(transparent)]
    Crypto(#[from] crate::Error),
    /// Reading or writing the keyset file (the message includes the I/O
    /// error's, which is not also its `source`).
    #[error("keyset file: {0}")]
    Io(io::Error),
    /// The operating system's random generator failed.
    #[error("the system random number generator failed")]
    Random,
}

impl From<crate::openpgp::Error> for Error {
    fn from(e: crate::openpgp::Error) -> Self {
        Error::Sealed(e)
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}

/// `1, 2, 3`.
fn list(ids: &[u32]) -> String {
    ids.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}

impl Error {
    pub(crate) fn invalid(msg: impl Into<String>) -> Self {
        Error::Invalid(msg.into())
    }
}

/// Result type of this module.
pub type Result<T> = std::result::Result<T, Error>;

/// An error about value `index` of a batch: an [`Error::Crypto`] of a
/// [`crate::Error::Batch`], or an [`Error::Batch`].
pub(super) fn at(index: usize) -> impl Fn(Error) -> Error {
    move |e| match e {
        Error::Crypto(c) => Error::Crypto(crate::Error::at(index, c)),
        e => Error::Batch { index, source: Box::new(e) },
    }
}
