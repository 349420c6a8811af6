//! String-to-key specifiers (RFC 9580 §3.7): simple, salted and
//! iterated+salted over SHA-1/SHA-2 (reading; iterated SHA-256 also for
//! writing) and Argon2id (type 4, §3.7.1.4).

use sha2::Digest;
use zeroize::Zeroizing;

use super::{Error, Result};

pub use super::HashAlg;

/// The hash of an S2K specifier: SHA-1 (reading only) and SHA2-224/256/384/512.
fn s2k_hash(id: u8) -> Result<HashAlg> {
    match HashAlg::from_id(id) {
        Ok(h @ (HashAlg::Sha1 | HashAlg::Sha224 | HashAlg::Sha256 | HashAlg::Sha384 | HashAlg::Sha512)) => Ok(h),
        _ => Err(Error::UnsupportedS2k("hash algorithm (SHA-1, SHA-224/256/384/512 are supported)")),
    }
}

/// A string-to-key specifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum S2k {
    /// Type 0: hash of the password (reading only).
    Simple {
        /// The hash.
        hash: HashAlg,
    },
    /// Type 1: hash of salt || password (reading only).
    Salted {
        /// The hash.
        hash: HashAlg,
        /// 8-octet salt.
        salt: [u8; 8],
    },
    /// Type 3: salt || password hashed repeatedly up to a coded octet count.
    Iterated {
        /// The hash.
        hash: HashAlg,
        /// 8-octet salt.
        salt: [u8; 8],
        /// Coded count: `(16 + (c & 15)) << ((c >> 4) + 6)` octets.
        count: u8,
    },
    /// Type 4: Argon2id, version 0x13 (RFC 9106).
    Argon2 {
        /// 16-octet salt.
        salt: [u8; 16],
        /// Passes.
        t: u8,
        /// Parallelism (lanes).
        p: u8,
        /// Memory exponent: 2^m KiB.
        m: u8,
    },
}

/// Limits applied when deriving keys from untrusted messages. Every limit
/// is checked before the work starts or memory is allocated; exceeding one
/// is [`Error::LimitExceeded`] naming it.
///
/// The defaults suit a service that decrypts messages from others: they
/// accept what current implementations write (RFC 9580's second Argon2
/// option, 64 MiB and 3 passes, as this crate, OpenPGP.js and Sequoia
/// write; GnuPG's iterated counts) with room to spare, and bound one
/// message to about a second of work. Raise `max_argon2_m` to 21 to read
/// messages made with the RFC's first option (2 GiB).
///
/// ```
/// use tessera::openpgp::{DecryptOptions, S2kLimits};
///
/// let opts = DecryptOptions {
///     limits: S2kLimits { max_argon2_m: 17, max_work_kib: 1 << 19, ..S2kLimits::default() },
///     ..DecryptOptions::default()
/// };
/// assert_eq!(opts.limits.max_argon2_t, 16);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct S2kLimits {
    /// Largest Argon2 memory exponent accepted (2^m KiB); default 18
    /// (256 MiB, four times the RFC's second recommended option).
    pub max_argon2_m: u8,
    /// Largest Argon2 pass count accepted; default 16.
    pub max_argon2_t: u8,
    /// Largest Argon2 parallelism (lanes) accepted; default 16.
    pub max_argon2_p: u8,
    /// Total S2K work for one message, over every password packet and every
    /// password tried, in KiB processed (Argon2 memory times passes, or
    /// octets hashed); default 2^20
    /// (one pass over 1 GiB, or 1 GiB hashed: about a second). A message
    /// can carry 64 password packets, so without this the per-packet limits
    /// would multiply. Once spent, no further packet is tried.
    pub max_work_kib: u64,
    /// Largest coded count octet of the iterated S2K accepted (RFC 9580
    /// §3.7.1.3); default 255 (65,011,712 octets hashed), since GnuPG
    /// calibrates its count to ~100 ms and often writes the maximum. A
    /// service that decrypts untrusted messages may lower it: a message can
    /// carry up to 64 password packets, each costing this much hashing.
    pub max_iterated_count: u8,
}

impl Default for S2kLimits {
    fn default() -> Self {
        S2kLimits::DEFAULT
    }
}

impl S2kLimits {
    /// The defaults ([`S2kLimits::default`]), usable in constants.
    ///
    /// ```
    /// const MEMORY: u64 = tessera::openpgp::S2kLimits::DEFAULT.max_argon2_memory();
    /// assert_eq!(MEMORY, 256 << 20);
    /// ```
    pub const DEFAULT: S2kLimits = S2kLimits {
        max_argon2_m: 18,
        max_argon2_t: 16,
        max_argon2_p: 16,
        max_work_kib: 1 << 20,
        max_iterated_count: 255,
    };

    /// Sets [`S2kLimits::max_argon2_m`] to the largest exponent whose
    /// memory (2^m KiB) fits in `bytes` (at least 2^3 KiB, Argon2's least).
    ///
    /// ```
    /// use tessera::openpgp::S2kLimits;
    ///
    /// assert_eq!(S2kLimits::default().with_max_argon2_memory(256 << 20).max_argon2_m, 18);
    /// assert_eq!(S2kLimits::default().with_max_argon2_memory(300 << 20).max_argon2_m, 18);
    /// ```
    pub fn with_max_argon2_memory(mut self, bytes: u64) -> Self {
        let kib = (bytes / 1024).max(8);
        self.max_argon2_m = (63 - kib.leading_zeros()).min(31) as u8;
        self
    }

    /// No limits: for specifiers the caller chose itself (encryption),
    /// never for untrusted messages.
    pub const UNLIMITED: S2kLimits = S2kLimits {
        max_argon2_m: 31,
        max_argon2_t: 255,
        max_argon2_p: 255,
        max_work_kib: u64::MAX,
        max_iterated_count: 255,
    };

    /// The limits as the command line and the Python package take them, as
    /// sizes in octets: Argon2 memory (rounded down to a power of two, as
    /// [`with_max_argon2_memory`](Self::with_max_argon2_memory)), passes,
    /// lanes, and the total work (octets processed, kept in KiB).
    ///
    /// ```
    /// use tessera::openpgp::S2kLimits;
    ///
    /// let d = S2kLimits::default();
    /// let l = S2kLimits::from_sizes(d.max_argon2_memory(), d.max_argon2_t, d.max_argon2_p, d.max_work());
    /// assert_eq!((l.max_argon2_m, l.max_work_kib), (d.max_argon2_m, d.max_work_kib));
    /// assert_eq!(S2kLimits::from_sizes(1 << 30, 1, 1, 4096).max_argon2_m, 20);
    /// ```
    pub fn from_sizes(max_argon2_memory: u64, max_argon2_t: u8, max_argon2_p: u8, max_work: u64) -> Self {
        S2kLimits { max_argon2_t, max_argon2_p, max_work_kib: max_work / 1024, ..S2kLimits::default() }
            .with_max_argon2_memory(max_argon2_memory)
    }

    /// [`max_argon2_m`](Self::max_argon2_m) as octets of memory (2^m KiB;
    /// `u64::MAX` beyond what a `u64` holds). 256 MiB by default.
    ///
    /// ```
    /// assert_eq!(tessera::openpgp::S2kLimits::default().max_argon2_memory(), 256 << 20);
    /// ```
    pub const fn max_argon2_memory(&self) -> u64 {
        if self.max_argon2_m < 54 { 1024 << self.max_argon2_m } else { u64::MAX }
    }

    /// [`max_work_kib`](Self::max_work_kib) as octets (saturating). 1 GiB
    /// by default.
    ///
    /// ```
    /// assert_eq!(tessera::openpgp::S2kLimits::default().max_work(), 1 << 30);
    /// ```
    pub const fn max_work(&self) -> u64 {
        self.max_work_kib.saturating_mul(1024)
    }
}

fn exceeded(limit: &'static str, asked: u64, allowed: u64) -> Error {
    Error::LimitExceeded { limit, asked, allowed }
}

/// Decodes the iteration count octet (RFC 9580 §3.7.1.3).
pub fn decode_count(c: u8) -> usize {
    (16usize + (c as usize & 15)) << ((c >> 4) + 6)
}

impl S2k {
    /// Parses a specifier at the start of `data`; returns it and its length.
    pub fn parse(data: &[u8]) -> Result<(S2k, usize)> {
        let short = Error::Malformed("S2K specifier is cut short");
        let ty = *data.first().ok_or(Error::Malformed("S2K specifier is cut short"))?;
        match ty {
            0 => {
                let h = *data.get(1).ok_or(short)?;
                Ok((S2k::Simple { hash: s2k_hash(h)? }, 2))
            }
            1 => {
                let d = data.get(..10).ok_or(short)?;
                Ok((S2k::Salted { hash: s2k_hash(d[1])?, salt: d[2..10].try_into().expect("8") }, 10))
            }
            3 => {
                let d = data.get(..11).ok_or(short)?;
                Ok((S2k::Iterated { hash: s2k_hash(d[1])?, salt: d[2..10].try_into().expect("8"), count: d[10] }, 11))
            }
            4 => {
                let d = data.get(..20).ok_or(short)?;
                Ok((S2k::Argon2 { salt: d[1..17].try_into().expect("16"), t: d[17], p: d[18], m: d[19] }, 20))
            }
            101 => Err(Error::UnsupportedS2k("GNU extension (a secret key stub), not a password")),
            _ => Err(Error::UnsupportedS2k("unknown specifier type")),
        }
    }

    /// Appends the encoded specifier to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            S2k::Simple { hash } => out.extend_from_slice(&[0, hash.id()]),
            S2k::Salted { hash, salt } => {
                out.extend_from_slice(&[1, hash.id()]);
                out.extend_from_slice(salt);
            }
            S2k::Iterated { hash, salt, count } => {
                out.extend_from_slice(&[3, hash.id()]);
                out.extend_from_slice(salt);
                out.push(*count);
            }
            S2k::Argon2 { salt, t, p, m } => {
                out.push(4);
                out.extend_from_slice(salt);
                out.extend_from_slice(&[*t, *p, *m]);
            }
        }
    }

    /// The encoded length.
    pub fn encoded_len(&self) -> usize {
        match self {
            S2k::Simple { .. } => 2,
            S2k::Salted { .. } => 10,
            S2k::Iterated { .. } => 11,
            S2k::Argon2 { .. } => 20,
        }
    }

    /// The work of deriving a `key_len`-octet key, in KiB processed: for
    /// Argon2, passes times memory; for the hashed specifiers, the octets
    /// hashed (rounded up to KiB, at least 1) times the hash contexts the
    /// key needs. An approximation of time: both run at roughly a GiB a
    /// second.
    pub fn work_kib(&self, key_len: usize) -> u64 {
        let hashed = |hash: HashAlg, count: usize| {
            let contexts = key_len.div_ceil(hash.digest_len()).max(1) as u64;
            (count as u64).div_ceil(1024).max(1) * contexts
        };
        match self {
            S2k::Simple { hash } | S2k::Salted { hash, .. } => hashed(*hash, 0),
            S2k::Iterated { hash, count, .. } => hashed(*hash, decode_count(*count)),
            S2k::Argon2 { t, m, .. } => (*t as u64) << (*m).min(63),
        }
    }

    /// Checks the specifier's parameters against the per-packet limits.
    pub fn check_limits(&self, limits: &S2kLimits) -> Result<()> {
        match self {
            S2k::Iterated { count, .. } if *count > limits.max_iterated_count => Err(exceeded(
                "max_iterated_count (iterated S2K count octet)",
                *count as u64,
                limits.max_iterated_count as u64,
            )),
            S2k::Argon2 { m, .. } if *m > limits.max_argon2_m => Err(exceeded(
                "max_argon2_m (Argon2 memory, KiB)",
                1u64 << (*m).min(63),
                1u64 << limits.max_argon2_m.min(63),
            )),
            S2k::Argon2 { t, .. } if *t > limits.max_argon2_t => {
                Err(exceeded("max_argon2_t (Argon2 passes)", *t as u64, limits.max_argon2_t as u64))
            }
            S2k::Argon2 { p, .. } if *p > limits.max_argon2_p => {
                Err(exceeded("max_argon2_p (Argon2 lanes)", *p as u64, limits.max_argon2_p as u64))
            }
            _ => Ok(()),
        }
    }

    /// Derives a `key_len`-byte key (at most 64) from `password`.
    pub fn derive(&self, password: &[u8], key_len: usize, limits: &S2kLimits) -> Result<Zeroizing<Vec<u8>>> {
        self.check_limits(limits)?;
        let mut key = Zeroizing::new(vec![0u8; key_len]);
        match self {
            S2k::Simple { hash } => hashed(*hash, &[], password, 0, &mut key),
            S2k::Salted { hash, salt } => hashed(*hash, salt, password, 0, &mut key),
            S2k::Iterated { hash, salt, count } => hashed(*hash, salt, password, decode_count(*count), &mut key),
            S2k::Argon2 { salt, t, p, m } => {
                if *t == 0 || *p == 0 || *m >= 32 || (1u64 << *m) < 8 * *p as u64 {
                    return Err(Error::Malformed("Argon2 S2K parameters (RFC 9580 §3.7.1.4)"));
                }
                let params = argon2::Params::new(1u32 << *m, *t as u32, *p as u32, Some(key_len))
                    .map_err(|_| Error::Malformed("Argon2 S2K parameters"))?;
                argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params)
                    .hash_password_into(password, salt, &mut key)
                    .map_err(|_| Error::Malformed("Argon2 S2K parameters"))?;
            }
        }
        Ok(key)
    }
}

fn hashed(hash: HashAlg, salt: &[u8], password: &[u8], count: usize, key: &mut [u8]) {
    match hash {
        HashAlg::Sha1 => hashed_with::<sha1::Sha1>(salt, password, count, key),
        HashAlg::Sha224 => hashed_with::<sha2::Sha224>(salt, password, count, key),
        HashAlg::Sha256 => hashed_with::<sha2::Sha256>(salt, password, count, key),
        HashAlg::Sha384 => hashed_with::<sha2::Sha384>(salt, password, count, key),
        HashAlg::Sha512 => hashed_with::<sha2::Sha512>(salt, password, count, key),
        HashAlg::Sha3_256 => hashed_with::<sha3::Sha3_256>(salt, password, count, key),
        HashAlg::Sha3_512 => hashed_with::<sha3::Sha3_512>(salt, password, count, key),
    }
}

/// Octets of salt || password copies the iterated S2K hashes per update
/// (at least one copy).
const PATTERN_LEN: usize = 4096;

/// RFC 9580 §3.7.1: as many hash contexts as the key needs, context i
/// preloaded with i zero octets; each hashes `count` octets of the repeated
/// salt || password (at least one full copy).
fn hashed_with<D: Digest>(salt: &[u8], password: &[u8], count: usize, key: &mut [u8]) {
    let unit_len = salt.len() + password.len();
    // The repeated pattern, in a buffer of whole copies, so the hash sees
    // large updates.
    let copies = (PATTERN_LEN / unit_len.max(1)).max(1);
    let mut pattern = Zeroizing::new(Vec::with_capacity(copies * unit_len));
    for _ in 0..copies {
        pattern.extend_from_slice(salt);
        pattern.extend_from_slice(password);
    }
    let total = count.max(unit_len);
    let mut filled = 0;
    let mut ctx = 0;
    while filled < key.len() {
        let mut h = D::new();
        for _ in 0..ctx {
            h.update([0u8]);
        }
        let mut left = total;
        while left > 0 {
            let n = left.min(pattern.len());
            h.update(&pattern[..n]);
            left -= n;
        }
        let out = h.finalize();
        let n = out.len().min(key.len() - filled);
        key[filled..filled + n].copy_from_slice(&out[..n]);
        filled += n;
        ctx += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_coding() {
        assert_eq!(decode_count(0), 1024);
        assert_eq!(decode_count(0xff), 65_011_712);
        assert_eq!(decode_count(96), 65536);
    }

    #[test]
    fn parse_write_round_trip() {
        for s in [
            S2k::Simple { hash: HashAlg::Sha256 },
            S2k::Salted { hash: HashAlg::Sha1, salt: [1; 8] },
            S2k::Iterated { hash: HashAlg::Sha512, salt: [2; 8], count: 0xff },
            S2k::Argon2 { salt: [3; 16], t: 3, p: 4, m: 16 },
        ] {
            let mut v = Vec::new();
            s.write(&mut v);
            assert_eq!(v.len(), s.encoded_len());
            assert_eq!(S2k::parse(&v).unwrap(), (s, v.len()));
            assert!(S2k::parse(&v[..v.len() - 1]).is_err());
        }
    }

    #[test]
    fn argon2_limits() {
        let s = S2k::Argon2 { salt: [0; 16], t: 1, p: 4, m: 30 };
        assert!(matches!(s.derive(b"x", 16, &S2kLimits::default()), Err(Error::LimitExceeded { .. })));
        let s = S2k::Argon2 { salt: [0; 16], t: 1, p: 4, m: 2 };
        assert!(matches!(s.derive(b"x", 16, &S2kLimits::default()), Err(Error::Malformed(_))));
    }

    #[test]
    fn simple_is_plain_hash_and_long_keys_use_preloaded_contexts() {
        let k = S2k::Simple { hash: HashAlg::Sha1 }.derive(b"abc", 32, &S2kLimits::default()).unwrap();
        let h0 = sha1::Sha1::digest(b"abc");
        let h1 = sha1::Sha1::digest(b"\0abc");
        assert_eq!(&k[..20], &h0[..]);
        assert_eq!(&k[20..], &h1[..12]);
    }
}
