//! Reading what a packet sequence is, as a whole ([`Summary`]), from its
//! packets: the self-signatures' claims are taken as they are, not
//! verified.

use super::super::key::PublicKey;
use super::super::sig::{SigType, Signature};
use super::{Detail, KeyFacts, KeyHandle, KeySummary, Packet, Summary};

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
