//! Finding the session key: the packets in front of the encrypted data, and
//! the candidate keys the passwords give, within the S2K work budget.

use std::io::Read;

use super::SessionKey;
use super::crypto::PkeskVersion;
use super::key::{Cert, Fingerprint, KeyError, decrypt_pkesks_for};
use super::packet::{BodyLen, BodyReader, read_header, read_small_body, tag};
use super::pkesk::Pkesk;
use super::s2k::S2kLimits;
use super::skesk::Skesk;
use super::{Error, Result};

/// Most SKESK packets read in front of the encrypted data.
pub(crate) const MAX_SKESK: usize = 64;

/// Longest SKESK body read (a v6 packet with Argon2 and a 32-octet key is
/// about 100 octets).
const MAX_SKESK_LEN: usize = 512;

/// The packets read up to the start of the SEIPD packet's body.
pub(crate) struct SessionPackets {
    /// SKESK packets of a supported version and algorithms.
    pub skesks: Vec<Skesk>,
    /// The first SKESK that was skipped as unsupported (reported if no
    /// other one remains).
    pub unsupported: Option<Error>,
    /// PKESK packets of a supported version and algorithm.
    pub pkesks: Vec<Pkesk>,
    /// PKESK packets skipped as unreadable (malformed, or of a version or
    /// algorithm this implementation does not know).
    pub unreadable_pkesks: usize,
    /// How the SEIPD packet's body is delimited.
    pub seipd_len: BodyLen,
}

/// Most PKESK packets read in front of the encrypted data.
const MAX_PKESK: usize = 64;

/// Longest PKESK body read (RSA-16384: about 2 KiB).
const MAX_PKESK_LEN: usize = 4096;

/// Reads session key packets (skipping markers, padding and public-key
/// packets) up to the SEIPD packet header.
pub(crate) fn read_session_packets(src: &mut dyn Read) -> Result<SessionPackets> {
    let mut skesks: Vec<Skesk> = Vec::new();
    let mut pkesks: Vec<Pkesk> = Vec::new();
    let mut unreadable_pkesks = 0;
    let mut unsupported = None;
    loop {
        let Some(h) = read_header(src)? else {
            return Err(if skesks.is_empty() {
                Error::Malformed("no encrypted data packet")
            } else {
                Error::Truncated("no encrypted data packet after the session key packets")
            });
        };
        match h.tag {
            tag::SKESK => {
                if skesks.len() == MAX_SKESK {
                    return Err(Error::Limit("more than 64 SKESK packets"));
                }
                let mut body = [0u8; MAX_SKESK_LEN];
                let n = read_small_body(&mut *src, h.len, &mut body, "SKESK packet longer than 512 octets")?;
                match Skesk::parse(&body[..n]) {
                    Ok(s) => skesks.push(s),
                    Err(
                        e @ (Error::Unsupported(_)
                        | Error::UnsupportedS2k(_)
                        | Error::UnsupportedCipher(_)
                        | Error::UnsupportedAead(_)),
                    ) => {
                        unsupported.get_or_insert(e);
                    }
                    Err(e) => return Err(e),
                }
            }
            tag::PKESK => {
                if pkesks.len() == MAX_PKESK {
                    return Err(Error::Limit("more than 64 PKESK packets"));
                }
                let mut body = vec![0u8; MAX_PKESK_LEN];
                let n = read_small_body(&mut *src, h.len, &mut body, "PKESK packet longer than 4096 octets")?;
                // A PKESK this implementation cannot use (unknown version or
                // algorithm) is skipped: another packet may open the message.
                match Pkesk::parse(&body[..n]) {
                    Ok(p) => pkesks.push(p),
                    Err(_) => unreadable_pkesks += 1,
                }
            }
            tag::MARKER | tag::PADDING => BodyReader::new(&mut *src, h.len).skip_rest()?,
            tag::SEIPD => {
                return Ok(SessionPackets { skesks, pkesks, unreadable_pkesks, unsupported, seipd_len: h.len });
            }
            tag::SED => return Err(Error::Unsupported("encrypted data without integrity protection (SED)")),
            tag::LITERAL | tag::COMPRESSED => return Err(Error::Unsupported("the message is not encrypted")),
            _ => return Err(Error::Malformed("unexpected packet before the encrypted data")),
        }
    }
}

/// S2K work spent on one message, against [`S2kLimits::max_work_kib`].
struct Budget<'l> {
    limits: &'l S2kLimits,
    spent: u64,
}

impl Budget<'_> {
    /// Counts `cost` KiB of work, or refuses it if the budget would be exceeded.
    fn spend(&mut self, cost: u64) -> Result<()> {
        let total = self.spent.saturating_add(cost);
        if total > self.limits.max_work_kib {
            return Err(Error::LimitExceeded {
                limit: "max_work_kib (S2K work per message, KiB processed)",
                asked: total,
                allowed: self.limits.max_work_kib,
            });
        }
        self.spent = total;
        Ok(())
    }
}

/// The candidate session keys for a SEIPD packet of `version` (1 or 2).
///
/// RFC 9580 §5.3 pairs SKESK v6 with SEIPD v2 and SKESK v4 with SEIPD v1;
/// any other combination is refused. A v6 packet proves a password right
/// (its AEAD tag), so the first key it opens is the only candidate; a v4
/// packet cannot, so every password gives a candidate, tried on the data.
/// With a key, also the primary fingerprint of its certificate.
pub(crate) fn candidate_keys(
    packets: &SessionPackets,
    passwords: &[&[u8]],
    keys: &[Cert],
    limits: &S2kLimits,
    version: u8,
) -> Result<(Vec<SessionKey>, Option<Fingerprint>)> {
    // Secret keys first (RFC 9580 §5.1: v6 PKESK with SEIPD v2, v3 with v1);
    // a PKESK proves its key by the session key checksum.
    let mut key_err = None;
    if !keys.is_empty() {
        let want = if version == 2 { PkeskVersion::V6 } else { PkeskVersion::V3 };
        let paired: Vec<Pkesk> = packets.pkesks.iter().filter(|p| p.version == want).cloned().collect();
        match decrypt_pkesks_for(&paired, keys) {
            Ok((k, fp)) => return Ok((vec![k], Some(fp))),
            Err(Error::Key(KeyError::NoDecryptionKey { recipients })) if packets.unreadable_pkesks > 0 => {
                let unreadable = format!(
                    "{} public-key packet(s) that cannot be read (malformed, or of an unknown version or algorithm)",
                    packets.unreadable_pkesks
                );
                let recipients = if paired.is_empty() { unreadable } else { format!("{recipients}, and {unreadable}") };
                key_err = Some(KeyError::NoDecryptionKey { recipients }.into());
            }
            Err(e) => key_err = Some(e),
        }
        if passwords.is_empty() || packets.skesks.is_empty() {
            return Err(key_err.expect("set"));
        }
    }
    let from_passwords = password_keys(packets, passwords, limits, version).map_err(|e| match (key_err, &e) {
        (Some(k), Error::NoPasswordPacket) => k,
        _ => e,
    })?;
    Ok((from_passwords, None))
}

/// The candidates the passwords give.
fn password_keys(
    packets: &SessionPackets,
    passwords: &[&[u8]],
    limits: &S2kLimits,
    version: u8,
) -> Result<Vec<SessionKey>> {
    let wrong_pairing = match version {
        2 => packets.skesks.iter().any(|s| matches!(s, Skesk::V4 { .. })),
        _ => packets.skesks.iter().any(|s| matches!(s, Skesk::V6 { .. })),
    };
    if wrong_pairing {
        return Err(Error::Malformed("SKESK and SEIPD versions do not pair (RFC 9580 §5.3: v6 with v2, v4 with v1)"));
    }
    if packets.skesks.is_empty() {
        return Err(packets.unsupported.as_ref().map_or(Error::NoPasswordPacket, Error::replay));
    }
    let mut budget = Budget { limits, spent: 0 };
    let mut candidates = Vec::new();
    let mut first_err: Option<Error> = None;
    for pw in passwords {
        for s in &packets.skesks {
            // A packet above a per-packet limit is skipped (its error kept);
            // the budget for the whole message, once spent, ends the search.
            if let Err(e) = s.s2k().check_limits(limits) {
                first_err.get_or_insert(e);
                continue;
            }
            if let Err(e) = budget.spend(s.work_kib()) {
                return if candidates.is_empty() { Err(e) } else { Ok(candidates) };
            }
            match s.decrypt(pw, limits) {
                Ok(k) if matches!(s, Skesk::V6 { .. }) => return Ok(vec![k]),
                Ok(k) => candidates.push(k),
                Err(Error::WrongPassword) => {}
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
    }
    if candidates.is_empty() {
        return Err(first_err.unwrap_or(Error::WrongPassword));
    }
    Ok(candidates)
}
