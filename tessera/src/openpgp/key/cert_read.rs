//! Reading certificates and secret keys: binary or armored input, several
//! in one file, the packet sequence assembled into [`Cert`]s (RFC 9580 §10.1,
//! §10.2), bounded in packet size and count.

use std::io::{BufRead, Read};

use zeroize::Zeroizing;

use super::super::armor::{ArmorReader, is_armored};
use super::super::packet::{BodyLen, BodyReader, push_zeroizing, read_full, read_header, tag};
use super::super::sig::{SigType, Signature};
use super::super::{Error, Result};
use super::cert::{CertKey, Subkey, UserId, key_tag};
use super::check_cache::CheckCache;
use super::{Cert, KeyError, PublicKey, SecretKey};

/// Largest key-related packet read (a 16384-bit RSA secret key is ~4.5 KiB;
/// a User ID or signature is far smaller).
const MAX_PACKET: u64 = 1 << 20;
/// Octets of a key packet body read at a time (into a zeroizing buffer).
const READ_CHUNK: usize = 4096;
/// Most packets read from one input.
const MAX_PACKETS: usize = 100_000;

/// Reads one packet body (bounded by [`MAX_PACKET`]) into a zeroizing
/// buffer: it may be a secret key.
pub(crate) fn read_body<R: Read>(r: &mut R, len: BodyLen) -> Result<Zeroizing<Vec<u8>>> {
    let mut body = BodyReader::new(r, len);
    let mut v = Zeroizing::new(Vec::new());
    let mut chunk = Zeroizing::new([0u8; READ_CHUNK]);
    loop {
        let n = read_full(&mut (&mut body).take(MAX_PACKET - v.len() as u64), &mut chunk[..])?;
        if n == 0 {
            break;
        }
        push_zeroizing(&mut v, &chunk[..n]);
    }
    if !body.is_done() {
        return Err(Error::Limit("key packet larger than 1 MiB"));
    }
    Ok(v)
}

/// Where the next signature goes.
enum Slot {
    Direct,
    UserId,
    Subkey,
    Skip,
}

/// Packet types 40 to 63 are not critical (RFC 9580 §4.3): one of them
/// that is unknown is skipped with the signatures that follow it; an
/// unknown type below 40 makes the input malformed.
const FIRST_NON_CRITICAL_TAG: u8 = 40;

/// Whether a key packet body is of a version other than 4 and 6 (and so
/// skipped with what belongs to it, RFC 9580 §5.5.2).
fn unknown_key_version(body: &[u8]) -> bool {
    !matches!(body.first(), Some(4 | 6))
}

/// Builds certificates from a packet sequence.
#[derive(Default)]
struct Assembler {
    certs: Vec<Cert>,
    slot: Option<Slot>,
    /// Set after a primary key of an unknown version: everything up to the
    /// next primary key belongs to it and is skipped.
    skipping_cert: bool,
    /// Why the first skipped primary key was skipped (the error when no
    /// certificate is left).
    skipped: Option<Error>,
}

impl Assembler {
    fn current(&mut self) -> Result<&mut Cert> {
        self.certs.last_mut().ok_or(Error::Malformed("key material before any primary key"))
    }

    /// Starts a certificate at its primary key packet; one of an unknown
    /// version is skipped with everything that belongs to it.
    fn start_cert(&mut self, t: u8, body: &[u8]) -> Result<()> {
        let parsed = if t == key_tag::SECRET_KEY {
            SecretKey::parse(body, false).map(CertKey::Secret)
        } else {
            PublicKey::parse_packet(body).map(CertKey::Public)
        };
        self.skipping_cert = false;
        let primary = match parsed {
            Ok(key) => key,
            Err(e) if unknown_key_version(body) => {
                self.skipped = self.skipped.take().or(Some(e));
                self.skipping_cert = true;
                self.slot = Some(Slot::Skip);
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        self.certs.push(Cert {
            primary,
            direct_sigs: Vec::new(),
            user_ids: Vec::new(),
            subkeys: Vec::new(),
            checked: CheckCache::default(),
            unsupported_subkey: None,
        });
        self.slot = Some(Slot::Direct);
        Ok(())
    }

    fn add(&mut self, t: u8, body: &[u8]) -> Result<()> {
        let primary = matches!(t, key_tag::PUBLIC_KEY | key_tag::SECRET_KEY);
        if self.skipping_cert && !primary {
            return match t {
                key_tag::PUBLIC_SUBKEY | key_tag::SECRET_SUBKEY | key_tag::USER_ID | key_tag::USER_ATTRIBUTE => Ok(()),
                tag::SIGNATURE | key_tag::TRUST | tag::MARKER | tag::PADDING => Ok(()),
                _ if t >= FIRST_NON_CRITICAL_TAG => Ok(()),
                _ => Err(Error::Malformed("unexpected packet in a certificate or key")),
            };
        }
        match t {
            key_tag::PUBLIC_KEY | key_tag::SECRET_KEY => self.start_cert(t, body)?,
            key_tag::PUBLIC_SUBKEY | key_tag::SECRET_SUBKEY => {
                let parsed = if t == key_tag::SECRET_SUBKEY {
                    SecretKey::parse(body, true).map(CertKey::Secret)
                } else {
                    PublicKey::parse_packet(body).map(CertKey::Public)
                };
                let cert = self.current()?;
                match parsed {
                    Ok(key) => {
                        cert.subkeys.push(Subkey { key, sigs: Vec::new() });
                        self.slot = Some(Slot::Subkey);
                    }
                    // A subkey of an algorithm or version not supported here
                    // (unknown algorithms or curves, v3...) is skipped with its signatures.
                    Err(Error::Unsupported(_) | Error::UnsupportedPublicKeyAlg(_) | Error::UnsupportedCurve) => {
                        // Version, creation time, then the algorithm (v4 and v6).
                        if !unknown_key_version(body) {
                            cert.unsupported_subkey = cert.unsupported_subkey.or(body.get(5).copied());
                        }
                        self.slot = Some(Slot::Skip)
                    }
                    Err(e) => return Err(e),
                }
            }
            key_tag::USER_ID => {
                self.current()?.user_ids.push(UserId { value: body.to_vec(), sigs: Vec::new() });
                self.slot = Some(Slot::UserId);
            }
            key_tag::USER_ATTRIBUTE => {
                self.current()?;
                self.slot = Some(Slot::Skip);
            }
            tag::SIGNATURE => {
                let slot = self.slot.as_ref().ok_or(Error::Malformed("signature before any key"))?;
                // A signature this implementation cannot read (v3, unknown
                // algorithms, malformed fields) is dropped: it could never
                // count, and one bad signature must not hide the certificate.
                let Ok(sig) = Signature::parse(body) else { return Ok(()) };
                // Key revocations and direct-key signatures are about the
                // primary key wherever they stand (a revocation certificate
                // appended to a certificate follows its last subkey).
                if matches!(sig.sig_type(), SigType::KeyRevocation | SigType::DirectKey) {
                    self.current()?.direct_sigs.push(sig);
                    return Ok(());
                }
                match slot {
                    Slot::Direct => self.current()?.direct_sigs.push(sig),
                    Slot::UserId => self.current()?.user_ids.last_mut().expect("slot").sigs.push(sig),
                    Slot::Subkey => self.current()?.subkeys.last_mut().expect("slot").sigs.push(sig),
                    Slot::Skip => {}
                }
            }
            key_tag::TRUST | tag::MARKER | tag::PADDING => {}
            _ if t >= FIRST_NON_CRITICAL_TAG => {
                self.current()?;
                self.slot = Some(Slot::Skip);
            }
            _ => return Err(Error::Malformed("unexpected packet in a certificate or key")),
        }
        Ok(())
    }
}

fn read_packets<R: Read>(r: &mut R, asm: &mut Assembler) -> Result<()> {
    let mut count = 0;
    while let Some(h) = read_header(r)? {
        count += 1;
        if count > MAX_PACKETS {
            return Err(Error::Limit("too many packets in a key file"));
        }
        let body = read_body(r, h.len)?;
        asm.add(h.tag, &body)?;
    }
    Ok(())
}

impl Cert {
    /// Reads every certificate and secret key in `input`: binary packets, or
    /// one or more armored blocks.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// // A keyring: two armored blocks in one input.
    /// let ring = [
    ///     include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc")),
    ///     include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc")),
    /// ]
    /// .concat();
    /// let certs = Cert::read_all(ring.as_bytes())?;
    /// assert_eq!(certs.len(), 2);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn read_all<R: BufRead>(mut input: R) -> Result<Vec<Cert>> {
        let mut asm = Assembler::default();
        if is_armored(&mut input)? {
            // Text after the last block (a mail's signature line) is not
            // another block.
            let mut first = true;
            loop {
                let mut block = ArmorReader::new(&mut input);
                if !first && !block.has_block()? {
                    break;
                }
                read_packets(&mut block, &mut asm)?;
                first = false;
                if !is_armored(&mut input)? || input.fill_buf().map_err(Error::from_io)?.is_empty() {
                    break;
                }
            }
        } else {
            read_packets(&mut input, &mut asm)?;
        }
        if asm.certs.is_empty() {
            return Err(asm.skipped.unwrap_or(KeyError::NoKey.into()));
        }
        Ok(asm.certs)
    }

    /// Reads exactly one certificate or secret key.
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// let one = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/alice_cert.asc"));
    /// assert!(Cert::read_one(one.as_bytes()).is_ok());
    /// let two = [one, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/bob_cert.asc"))].concat();
    /// assert!(Cert::read_one(two.as_bytes()).is_err());
    /// ```
    pub fn read_one<R: BufRead>(input: R) -> Result<Cert> {
        let mut all = Self::read_all(input)?;
        if all.len() != 1 {
            return Err(Error::InvalidOption("expected exactly one key or certificate"));
        }
        Ok(all.remove(0))
    }

    /// Parses one from bytes (binary or armored).
    ///
    /// ```
    /// use tessera::openpgp::key::Cert;
    /// # let a3_cert = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/keys/rfc9580_a3_v6_cert.asc"));
    /// let cert = Cert::from_bytes(a3_cert)?; // RFC 9580 A.3
    /// let binary = cert.to_bytes()?;
    /// assert_eq!(Cert::from_bytes(&binary)?.fingerprint(), cert.fingerprint());
    /// assert!(Cert::from_bytes(b"not a key").is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn from_bytes(data: &[u8]) -> Result<Cert> {
        Self::read_one(data)
    }
}
