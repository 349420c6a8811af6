//! Which hash a new signature uses: one the key may use, every recipient
//! reads, and whose strength matches the key's. A longer digest than the
//! key's security level adds no security the key can deliver, and costs:
//! SHA2-512 runs at a third of SHA2-256's speed on CPUs with the SHA
//! extensions (BENCHMARKS.md), and a signature hashes all of its data.

use super::super::crypto::{HashAlg, PublicKeyAlg, PublicMaterial};
use super::super::key::PublicKey;

/// The shortest digest `key` signs with: 64 octets for Ed448 (RFC 9580
/// §5.2.3.4), the field size for ECDSA, 32 otherwise.
fn min_digest(key: &PublicKey) -> usize {
    match (key.alg(), key.material().curve()) {
        (PublicKeyAlg::Ed448, _) => 64,
        (PublicKeyAlg::Ecdsa, Some(c)) => c.field_len().min(64),
        _ => 32,
    }
}

/// The digest that matches `key`'s strength, in octets: twice its security
/// level. 32 (SHA2-256) for the 128-bit keys: Ed25519, P-256, RSA up to
/// 3072 bits; 48 (SHA2-384) for P-384 and RSA up to 7680 bits; 64 (SHA2-512)
/// for Ed448, P-521 and larger RSA (the levels of NIST SP 800-57 Part 1).
fn matching_digest(key: &PublicKey) -> usize {
    let bits = key.material().bits();
    let level = match key.material() {
        PublicMaterial::Rsa { .. } | PublicMaterial::Dsa { .. } | PublicMaterial::Elgamal { .. } => match bits {
            0..=3072 => 32,
            3073..=7680 => 48,
            _ => 64,
        },
        _ => match bits {
            0..=256 => 32,
            257..=384 => 48,
            _ => 64,
        },
    };
    level.max(min_digest(key))
}

/// Whether policy lets `key` make a new signature with `hash`: one of
/// [`HashAlg::SIGNING`] (never SHA-1 or SHA2-224), with a digest as long as
/// the key needs.
///
/// ```
/// use tessera::openpgp::crypto::HashAlg;
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::check::hash_acceptable;
/// let key = generate(&GenerateOptions::default())?; // Ed25519
/// assert!(hash_acceptable(key.primary.public(), HashAlg::Sha3_256));
/// assert!(!hash_acceptable(key.primary.public(), HashAlg::Sha1));
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn hash_acceptable(key: &PublicKey, hash: HashAlg) -> bool {
    HashAlg::SIGNING.contains(&hash) && hash.digest_len() >= min_digest(key)
}

/// The hash of a new signature by `key`. The candidates are the signer's
/// preferred hashes (`signer`; stating none, the hash that matches the key)
/// that every recipient accepts (`recipients`: each one's preferences,
/// `None` for one stating none; every recipient accepts SHA2-256, which RFC
/// 9580 §9.5 makes mandatory; empty when only signing) and policy accepts
/// for the key ([`hash_acceptable`]). Of those, the shortest digest at
/// least as long as the key's strength asks (SHA2-256 for Ed25519, P-256
/// and RSA up to 3072 bits; SHA2-384 for P-384; SHA2-512 for Ed448 and
/// P-521), on a tie the signer's earlier choice; with none that long, the
/// longest. With no candidate: SHA2-256 when there are recipients and the
/// key may use it, else the hash that matches the key. `--hash` on the
/// command line overrides all of this.
///
/// ```
/// use tessera::openpgp::crypto::HashAlg::{self, *};
/// use tessera::openpgp::key::{GenerateOptions, generate};
/// use tessera::openpgp::sig::check::negotiate_hash;
/// let key = generate(&GenerateOptions::default())?; // Ed25519, v6: a 128-bit key
/// let public = key.primary.public();
/// let ids = |hs: &[HashAlg]| hs.iter().map(|h| h.id()).collect::<Vec<u8>>();
/// let mine = ids(&[Sha512, Sha3_512, Sha256]);
/// assert_eq!(negotiate_hash(public, Some(&mine), &[]), Sha256); // matches the key's strength
/// assert_eq!(negotiate_hash(public, Some(&ids(&[Sha512, Sha3_512])), &[]), Sha512); // a tie: the earlier
/// let bob = ids(&[Sha512, Sha384]);
/// assert_eq!(negotiate_hash(public, Some(&ids(&[Sha3_512, Sha512])), &[Some(&bob)]), Sha512);
/// assert_eq!(negotiate_hash(public, Some(&ids(&[Sha512])), &[Some(&bob), None]), Sha256); // one states nothing
/// assert_eq!(negotiate_hash(public, None, &[]), Sha256);
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
pub fn negotiate_hash(key: &PublicKey, signer: Option<&[u8]>, recipients: &[Option<&[u8]>]) -> HashAlg {
    let want = matching_digest(key);
    let matching = match want {
        32 => HashAlg::Sha256,
        48 => HashAlg::Sha384,
        _ => HashAlg::Sha512,
    };
    let own: Vec<HashAlg> = match signer {
        Some(ids) => ids.iter().filter_map(|&id| HashAlg::from_id(id).ok()).collect(),
        None => vec![matching],
    };
    let everyone_reads =
        |h: HashAlg| recipients.iter().all(|r| h == HashAlg::Sha256 || r.is_some_and(|ids| ids.contains(&h.id())));
    let usable: Vec<HashAlg> = own.into_iter().filter(|&h| hash_acceptable(key, h) && everyone_reads(h)).collect();
    // `min_by_key` keeps the first of equals; the fold keeps the first longest.
    let best = usable.iter().copied().filter(|h| h.digest_len() >= want).min_by_key(|h| h.digest_len()).or_else(|| {
        usable.iter().copied().fold(None, |b: Option<HashAlg>, h| match b {
            Some(b) if b.digest_len() >= h.digest_len() => Some(b),
            _ => Some(h),
        })
    });
    match best {
        Some(h) => h,
        None if !recipients.is_empty() && hash_acceptable(key, HashAlg::Sha256) => HashAlg::Sha256,
        None => matching,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openpgp::crypto::{Curve, KeyType, generate};
    use crate::openpgp::key::{KeyVersion, PublicKey};

    fn key(kind: KeyType) -> PublicKey {
        let (material, _) = generate(kind).unwrap();
        PublicKey::new(KeyVersion::V4, 1_700_000_000, material).unwrap()
    }

    #[test]
    fn the_digest_matches_the_key_strength() {
        let every = [HashAlg::Sha512, HashAlg::Sha384, HashAlg::Sha256].map(HashAlg::id);
        for (kind, want) in [
            (KeyType::Ed25519, HashAlg::Sha256),
            (KeyType::Ecdsa(Curve::NistP256), HashAlg::Sha256),
            (KeyType::Ecdsa(Curve::NistP384), HashAlg::Sha384),
            (KeyType::Ecdsa(Curve::NistP521), HashAlg::Sha512),
            (KeyType::Ed448, HashAlg::Sha512),
        ] {
            let k = key(kind);
            assert_eq!(negotiate_hash(&k, Some(&every), &[]), want, "{kind:?}");
            assert_eq!(negotiate_hash(&k, None, &[]), want, "{kind:?}");
        }
        // Ed448 may not use SHA2-256 even when the signer lists only it.
        let ed448 = key(KeyType::Ed448);
        assert_eq!(negotiate_hash(&ed448, Some(&[HashAlg::Sha256.id()]), &[]), HashAlg::Sha512);
    }
}
