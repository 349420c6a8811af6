//! What a packet sequence is, as a whole: certificates or secret keys
//! (with their user IDs, subkeys, capabilities and expiry, as their
//! self-signatures say them: not verified here), an encrypted message, a
//! signed message, detached signatures or a cleartext-signed text.

use super::super::crypto::PublicKeyAlg;
use super::super::key::{Fingerprint, PublicKey};
use super::super::sig::{SigType, Signature};
use super::{Detail, KeyHandle, Packet};

/// What the inspected data is.
///
/// ```
/// use tessera::openpgp::inspect::{KeyHandle, Limits, Summary, inspect};
/// # let sig = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a2_v4_signature.asc"));
/// let report = inspect(sig.as_slice(), &Limits::default())?; // RFC 9580 A.2
/// let Summary::DetachedSignatures { signers } = &report.summary else { panic!("{:?}", report.summary) };
/// assert!(matches!(signers[..], [KeyHandle::Fingerprint(_) | KeyHandle::KeyId(_)]));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Summary {
    /// One or more certificates (transferable public keys).
    Certificates(Vec<KeySummary>),
    /// One or more secret keys.
    SecretKeys(Vec<KeySummary>),
    /// An encrypted message.
    EncryptedMessage {
        /// The recipients of its PKESK packets (`None`: anonymous).
        recipients: Vec<Option<KeyHandle>>,
        /// How many SKESK (password) packets it has.
        passwords: usize,
    },
    /// A signed message (literal data with signatures).
    SignedMessage {
        /// Who signed it, as the signatures name them.
        signers: Vec<KeyHandle>,
    },
    /// Literal data without signatures or encryption.
    LiteralMessage,
    /// Detached signatures.
    DetachedSignatures {
        /// Who signed, as the signatures name them.
        signers: Vec<KeyHandle>,
    },
    /// A cleartext-signed text.
    CleartextSigned {
        /// Who signed it, as the signatures name them.
        signers: Vec<KeyHandle>,
    },
    /// OpenPGP packets that form none of the above.
    Other,
}

/// A certificate or secret key: its primary key, user IDs and subkeys.
///
/// ```
/// use tessera::openpgp::inspect::{Limits, Summary, inspect};
/// # let cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
/// let report = inspect(cert.as_slice(), &Limits::default())?; // the OpenPGP samples' Alice
/// let Summary::Certificates(keys) = &report.summary else { panic!("a certificate") };
/// assert_eq!(keys[0].user_ids, [b"Alice Lovelace <alice@openpgp.example>".to_vec()]);
/// assert_eq!(keys[0].subkeys.len(), 1);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySummary {
    /// The primary key, with what its newest self-signatures say.
    pub primary: KeyFacts,
    /// The user IDs (escape them before printing: see [`super::escape`]).
    pub user_ids: Vec<Vec<u8>>,
    /// The subkeys, with what their binding signatures say.
    pub subkeys: Vec<KeyFacts>,
}

/// A key and what its self-signatures say of it (not verified).
///
/// ```
/// use tessera::openpgp::inspect::{Limits, Summary, inspect, key_flag_names};
/// # let cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
/// let report = inspect(cert.as_slice(), &Limits::default())?; // RFC 9580 A.3
/// let Summary::Certificates(keys) = &report.summary else { panic!("a certificate") };
/// let sub = &keys[0].subkeys[0];
/// assert_eq!(key_flag_names(sub.flags.unwrap()), ["encrypt communications", "encrypt storage"]);
/// assert_eq!((sub.bits, sub.created, sub.expires), (255, 1_669_824_483, None));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyFacts {
    /// The key's fingerprint.
    pub fingerprint: Fingerprint,
    /// Its algorithm.
    pub alg: PublicKeyAlg,
    /// Its size in bits.
    pub bits: usize,
    /// When it was made (seconds since 1970).
    pub created: u32,
    /// When it expires (seconds since 1970), by the newest self-signature
    /// that says it.
    pub expires: Option<u64>,
    /// Its key flags, by the newest self-signature that has them.
    pub flags: Option<u8>,
}

impl KeyFacts {
    fn of(k: &PublicKey) -> Self {
        let (fingerprint, alg, bits, created) = (k.fingerprint(), k.alg(), k.material().bits(), k.created());
        KeyFacts { fingerprint, alg, bits, created, expires: None, flags: None }
    }
}

/// The expiry and flags a self-signature gives, with its creation time so
/// that the newest wins.
#[derive(Default)]
struct Newest {
    at: Option<u32>,
    expires: Option<u64>,
    flags: Option<u8>,
}

impl Newest {
    fn take(&mut self, sig: &Signature, key: &PublicKey) {
        let at = sig.created().unwrap_or(0);
        if self.at.is_some_and(|t| t > at) {
            return;
        }
        self.at = Some(at);
        if let Some(e) = sig.key_expiration().filter(|&e| e != 0) {
            self.expires = Some(u64::from(key.created()) + u64::from(e));
        }
        if let Some(f) = sig.key_flags() {
            self.flags = Some(f);
        }
    }
}

/// Summarizes `packets`; `cleartext` says they followed a cleartext text.
pub(super) fn summarize(packets: &[Packet], cleartext: bool) -> Summary {
    let signers = || signers(packets);
    if cleartext {
        return Summary::CleartextSigned { signers: signers() };
    }
    let first = packets.iter().find(|p| !matches!(p.detail, Detail::Opaque));
    if let Some(Packet { detail: Detail::Key(k), .. }) = first
        && !k.subkey
    {
        return keys(packets);
    }
    let any = |f: fn(&Detail) -> bool| packets.iter().any(|p| f(&p.detail));
    if any(|d| matches!(d, Detail::Pkesk(_) | Detail::Skesk(_) | Detail::Seipd(_) | Detail::Sed)) {
        let recipients =
            packets.iter().filter_map(|p| if let Detail::Pkesk(k) = &p.detail { Some(k.recipient) } else { None });
        let passwords = packets.iter().filter(|p| matches!(p.detail, Detail::Skesk(_))).count();
        return Summary::EncryptedMessage { recipients: recipients.collect(), passwords };
    }
    if any(|d| matches!(d, Detail::Literal { .. })) {
        if any(|d| matches!(d, Detail::Signature(_) | Detail::OnePassSig(_))) {
            return Summary::SignedMessage { signers: signers() };
        }
        return Summary::LiteralMessage;
    }
    let sigs_only = packets.iter().all(|p| matches!(p.detail, Detail::Signature(_) | Detail::Opaque));
    if sigs_only && any(|d| matches!(d, Detail::Signature(_))) {
        return Summary::DetachedSignatures { signers: signers() };
    }
    Summary::Other
}

/// The issuers the document signatures name, each once.
fn signers(packets: &[Packet]) -> Vec<KeyHandle> {
    let mut out = Vec::new();
    for p in packets {
        let Detail::Signature(sig) = &p.detail else { continue };
        let handle = match sig.issuer_fingerprints().next() {
            Some(fp) => Some(KeyHandle::Fingerprint(*fp)),
            None => sig.issuer_key_ids().next().map(KeyHandle::KeyId),
        };
        if let Some(h) = handle.filter(|h| !out.contains(h)) {
            out.push(h);
        }
    }
    out
}

/// The certificates or secret keys of a key packet sequence.
fn keys(packets: &[Packet]) -> Summary {
    let mut out: Vec<KeySummary> = Vec::new();
    let (mut secret, mut primary_sigs, mut sub_sigs) = (false, Newest::default(), Newest::default());
    let (mut current, mut current_sub): (Option<&PublicKey>, Option<&PublicKey>) = (None, None);
    for p in packets.iter().filter(|p| p.depth == 0) {
        match &p.detail {
            Detail::Key(k) if !k.subkey => {
                finish(&mut out, &mut primary_sigs, &mut sub_sigs);
                secret |= k.secret.is_some();
                (current, current_sub) = (Some(&k.public), None);
                out.push(KeySummary { primary: KeyFacts::of(&k.public), user_ids: Vec::new(), subkeys: Vec::new() });
            }
            Detail::Key(k) => {
                let Some(primary) = out.last_mut() else { continue };
                set_subkey(primary, &mut sub_sigs);
                current_sub = Some(&k.public);
                primary.subkeys.push(KeyFacts::of(&k.public));
            }
            Detail::UserId(uid) => {
                if let Some(primary) = out.last_mut() {
                    primary.user_ids.push(uid.clone());
                }
            }
            Detail::Signature(sig) => {
                let Some(primary) = current.filter(|k| sig.may_be_issued_by(&k.fingerprint())) else { continue };
                match (sig.sig_type(), current_sub) {
                    (SigType::SubkeyBinding, Some(sub)) => sub_sigs.take(sig, sub),
                    (SigType::DirectKey | SigType::Certification(_), _) => primary_sigs.take(sig, primary),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    finish(&mut out, &mut primary_sigs, &mut sub_sigs);
    if secret { Summary::SecretKeys(out) } else { Summary::Certificates(out) }
}

/// Gives the last subkey what its binding said, and starts afresh.
fn set_subkey(primary: &mut KeySummary, sub_sigs: &mut Newest) {
    let n = std::mem::take(sub_sigs);
    if let Some(s) = primary.subkeys.last_mut() {
        (s.expires, s.flags) = (n.expires, n.flags);
    }
}

/// Closes the last key: its own and its last subkey's signatures.
fn finish(out: &mut [KeySummary], primary_sigs: &mut Newest, sub_sigs: &mut Newest) {
    let n = std::mem::take(primary_sigs);
    if let Some(primary) = out.last_mut() {
        set_subkey(primary, sub_sigs);
        (primary.primary.expires, primary.primary.flags) = (n.expires, n.flags);
    }
}
