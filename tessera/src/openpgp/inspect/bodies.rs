//! The fields of the packets read whole, through the parsers the rest of
//! the crate uses; of a secret key only the public fields and the
//! protection are kept.

use super::super::Result;
use super::super::key::{Fingerprint, KeyId, PublicKey, SecretKey, key_tag};
use super::super::packet::tag;
use super::super::pkesk::{Pkesk, Recipient};
use super::super::s2k::{S2k, decode_count};
use super::super::sig::{OnePassSig, Signature};
use super::super::skesk::Skesk;
use super::{Detail, KeyHandle, KeyInfo, PkeskInfo, Protection, S2kInfo, SkeskInfo};

/// The fields of a packet of type `tag` with body `body`; a body that does
/// not parse is [`Detail::Unreadable`].
pub(super) fn parse(tag: u8, body: &[u8]) -> Detail {
    let parsed = match tag {
        tag::SIGNATURE => Signature::parse(body).map(|s| Detail::Signature(Box::new(s))),
        tag::ONE_PASS_SIGNATURE => OnePassSig::parse(body).map(Detail::OnePassSig),
        tag::PKESK => pkesk(body),
        tag::SKESK => skesk(body),
        key_tag::PUBLIC_KEY | key_tag::PUBLIC_SUBKEY => PublicKey::parse_packet(body).map(|public| {
            Detail::Key(Box::new(KeyInfo { subkey: tag == key_tag::PUBLIC_SUBKEY, public, secret: None }))
        }),
        key_tag::SECRET_KEY | key_tag::SECRET_SUBKEY => secret_key(body, tag == key_tag::SECRET_SUBKEY),
        key_tag::USER_ID => Ok(Detail::UserId(body.to_vec())),
        _ => Ok(Detail::Unknown),
    };
    parsed.unwrap_or_else(Detail::Unreadable)
}

fn pkesk(body: &[u8]) -> Result<Detail> {
    let p = Pkesk::parse(body)?;
    let recipient = match p.recipient {
        None => None,
        Some(Recipient::KeyId(id)) => Some(KeyHandle::KeyId(KeyId(id))),
        Some(Recipient::Fingerprint { key_version, fingerprint }) => {
            let versioned = [&[key_version][..], &fingerprint].concat();
            Some(KeyHandle::Fingerprint(Fingerprint::from_versioned(&versioned)?))
        }
    };
    Ok(Detail::Pkesk(PkeskInfo { version: p.version.id(), recipient, alg: p.payload.alg() }))
}

fn skesk(body: &[u8]) -> Result<Detail> {
    let info = match Skesk::parse(body)? {
        Skesk::V6 { cipher, aead, s2k, .. } => SkeskInfo { version: 6, cipher, aead: Some(aead), s2k: s2k_info(&s2k) },
        Skesk::V4 { cipher, s2k, .. } => SkeskInfo { version: 4, cipher, aead: None, s2k: s2k_info(&s2k) },
    };
    Ok(Detail::Skesk(info))
}

/// The public fields and protection of a secret key packet; the parsed
/// secret is dropped (and wiped) here.
fn secret_key(body: &[u8], subkey: bool) -> Result<Detail> {
    let key = SecretKey::parse(body, subkey)?;
    let secret = Some(match key.protection() {
        None => Protection::Unprotected,
        Some((usage, cipher, aead, s2k)) => Protection::Password { usage, cipher, aead, s2k: s2k_info(s2k) },
    });
    Ok(Detail::Key(Box::new(KeyInfo { subkey, public: key.public().clone(), secret })))
}

fn s2k_info(s2k: &S2k) -> S2kInfo {
    match *s2k {
        S2k::Simple { hash } => S2kInfo::Simple(hash),
        S2k::Salted { hash, .. } => S2kInfo::Salted(hash),
        S2k::Iterated { hash, count, .. } => S2kInfo::Iterated { hash, octets: decode_count(count) as u64 },
        S2k::Argon2 { t, p, m, .. } => S2kInfo::Argon2 { t, p, m },
    }
}
