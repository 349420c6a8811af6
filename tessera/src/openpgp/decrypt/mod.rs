//! The streaming [`Decryptor`]: finds the session key ([`super::session`]),
//! opens the SEIPD packet by its version, and reads the literal data
//! through [`super::message`].

use std::cell::RefCell;
use std::io::{self, BufRead, Read};
use std::rc::Rc;

use subtle::ConstantTimeEq;

use super::armor::{ArmorReader, is_armored};
use super::file_input::FileAt;
use super::key::Fingerprint;
use super::message::{Message, Signatures};
use super::packet::{BodyReader, push_zeroizing, read_exact, read_full};
pub use super::plain::LiteralInfo;
use super::plain::{ReadAhead, SeipdBody, Src, is_typed};
use super::poison::Poison;
use super::seipd::{
    ChunkOpener, ChunkSource, MDC_LEN, MdcOpener, ParOpener, V1_PREFIX_LEN, V2_HEADER_LEN, V2Header, chunk_size,
    thread_count, worth_it,
};
use super::session::{SessionPackets, candidate_keys, read_session_packets};
use super::{Error, Result, SeipdVersion, SessionKey};
use crate::TAG_LEN;
use crate::aes::Aes;

mod from_file;
mod options;
pub use options::DecryptOptions;

/// Decrypts an OpenPGP message (binary or armored, SEIPD v1 or v2) as a
/// stream, with passwords and/or secret keys ([`DecryptOptions::keys`]).
///
/// [`Decryptor::new`] reads the session key packets, finds the session key
/// and reads up to the start of the literal data. Reading then yields the
/// literal data; for SEIPD v2 each chunk is released only after its tag
/// verifies, and `Ok(0)` (the end) only after the final tag verifies. An
/// error from `read` means the message is damaged, truncated or forged:
/// discard everything read from it. After an error, `read` either fails
/// again with the same error or, for an I/O error of the input that left
/// nothing half-read (`WouldBlock`, say), continues where it stopped.
///
/// ```
/// use std::io::{Read, Write};
/// use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, S2kChoice};
///
/// let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
/// let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts).unwrap();
/// enc.write_all(b"data").unwrap();
/// let message = enc.finish().unwrap();
///
/// let opts = DecryptOptions { max_decompressed_size: Some(1 << 30), ..DecryptOptions::default() };
/// let mut dec = Decryptor::with_options(message.as_slice(), &[b"wrong".as_slice(), b"pw"], &opts).unwrap();
/// let mut out = Vec::new();
/// dec.read_to_end(&mut out).unwrap();
/// assert_eq!(out, b"data");
/// ```
pub struct Decryptor<'a> {
    message: Message<'a>,
    state: SeipdState<'a>,
}

impl std::fmt::Debug for Decryptor<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decryptor")
            .field("literal", self.message.literal())
            .field("version", &self.state.version)
            .finish_non_exhaustive()
    }
}

/// Octets of unverified SEIPD v1 plaintext read at a time when buffering.
const V1_READ: usize = 8192;

/// A SEIPD packet opened: its plaintext packet stream and what opened it.
pub(crate) struct Opened<'a> {
    pub(crate) plain: Src<'a>,
    pub(crate) state: SeipdState<'a>,
    /// The primary fingerprint of the certificate whose key opened it.
    pub(crate) recipient: Option<Fingerprint>,
}

/// What a decrypting reader keeps of the SEIPD packet it opened.
pub(crate) struct SeipdState<'a> {
    pub(crate) session_key: SessionKey,
    pub(crate) version: SeipdVersion,
    /// A streamed v1 message's MDC reader, to finish and check when a
    /// packet inside it fails to parse.
    pub(crate) v1: Option<SharedMdc<'a>>,
    /// The error every read after a failure repeats.
    pub(crate) poison: Poison,
}

impl<'a> SeipdState<'a> {
    fn new(session_key: SessionKey, version: SeipdVersion, v1: Option<SharedMdc<'a>>) -> Self {
        SeipdState { session_key, version, v1, poison: Poison::default() }
    }

    /// `e` settled (for a v1 stream, the MDC's verdict comes first).
    pub(crate) fn settle(&self, e: Error) -> Error {
        settle(self.v1.as_ref(), e)
    }

    /// Reports `e` (settled) now and on every later read.
    pub(crate) fn fail(&mut self, e: Error) -> io::Error {
        let e = self.settle(e);
        self.poison.set(e)
    }
}

impl<'a> Decryptor<'a> {
    /// Opens `input` with any of `passwords`.
    ///
    /// ```
    /// use std::io::Read;
    /// use tessera::openpgp::{Decryptor, Error};
    /// // RFC 9580 Appendix A.9: an OCB-encrypted message, password "password".
    /// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_ocb.asc"));
    /// let mut out = Vec::new();
    /// Decryptor::new(message.as_bytes(), &[b"password".as_slice()])?.read_to_end(&mut out)?;
    /// assert_eq!(out, b"Hello, world!");
    /// assert!(matches!(Decryptor::new(message.as_bytes(), &[b"guess".as_slice()]), Err(Error::WrongPassword)));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn new<R: BufRead + 'a>(input: R, passwords: &[&[u8]]) -> Result<Self> {
        Self::with_options(input, passwords, &DecryptOptions::default())
    }

    /// Opens `input` with any of `passwords` (or `opts.session_key`).
    ///
    /// ```
    /// use tessera::openpgp::{DecryptOptions, Decryptor, Error};
    /// // RFC 9580 A.12.3 asks for 2 GiB of Argon2 memory (m = 21), above the
    /// // default limit (m = 18): refused before any memory is allocated.
    /// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_a12_3_argon2_aes256.asc"));
    /// let opts = DecryptOptions::default();
    /// let err = Decryptor::with_options(message.as_bytes(), &[b"password".as_slice()], &opts).unwrap_err();
    /// assert!(matches!(err, Error::LimitExceeded { asked: 2_097_152, allowed: 262_144, .. })); // KiB
    /// ```
    pub fn with_options<R: BufRead + 'a>(input: R, passwords: &[&[u8]], opts: &DecryptOptions) -> Result<Self> {
        Self::open(input, None, passwords, opts)
    }

    /// [`Decryptor::with_options`] of `input`, which is `at`'s file read at
    /// offsets if `at` is given.
    pub(crate) fn open<R: BufRead + 'a>(
        input: R,
        at: Option<FileAt<'a>>,
        passwords: &[&[u8]],
        opts: &DecryptOptions,
    ) -> Result<Self> {
        let opened = open_message(input, at, passwords, opts, opts.threads)?;
        let message = match Message::open(opened.plain, opts.max_decompressed_size, Signatures::Skip) {
            Ok(found) => found,
            Err(e) => return Err(opened.state.settle(e)),
        };
        Ok(Decryptor { message, state: opened.state })
    }

    /// The literal data packet's metadata.
    ///
    /// ```
    /// use std::io::Write;
    /// use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, S2kChoice};
    /// let opts = EncryptOptions { filename: b"a.txt".to_vec(), date: 1_700_000_000, s2k: S2kChoice::Iterated { count_octet: 96 }, ..Default::default() };
    /// let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
    /// enc.write_all(b"data")?;
    /// let message = enc.finish()?;
    /// let dec = Decryptor::new(message.as_slice(), &[b"pw".as_slice()])?;
    /// assert_eq!((dec.literal().filename.as_slice(), dec.literal().date), (b"a.txt".as_slice(), 1_700_000_000));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn literal(&self) -> &LiteralInfo {
        self.message.literal()
    }

    /// The session key that opened the message, with its cipher.
    ///
    /// ```
    /// use tessera::openpgp::{Decryptor, SymAlg};
    /// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_eax.asc"));
    /// let dec = Decryptor::new(message.as_bytes(), &[b"password".as_slice()])?;
    /// // RFC 9580 A.9.1's session key, with the cipher its SEIPD v2 packet names.
    /// assert_eq!(dec.session_key().key[..4], [0x38, 0x81, 0xba, 0xfe]);
    /// assert_eq!(dec.session_key().alg, Some(SymAlg::Aes128));
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn session_key(&self) -> &SessionKey {
        &self.state.session_key
    }

    /// Which SEIPD version the message used.
    ///
    /// ```
    /// use tessera::openpgp::{Decryptor, SeipdVersion};
    /// let message = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/openpgp/rfc9580_gcm.asc"));
    /// let dec = Decryptor::new(message.as_bytes(), &[b"password".as_slice()])?;
    /// assert_eq!(dec.seipd_version(), SeipdVersion::V2);
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn seipd_version(&self) -> SeipdVersion {
        self.state.version
    }
}

/// Reads the session key packets and opens the SEIPD packet: the
/// decrypted packet stream, whose end verifies the final tag (or MDC).
/// With `at`, `input` reads that file at offsets (a binary message's
/// SEIPD v2 body may then be read by the chunk workers).
pub(crate) fn open_message<'a, R: BufRead + 'a>(
    mut input: R,
    at: Option<FileAt<'a>>,
    passwords: &[&[u8]],
    opts: &DecryptOptions,
    chunk_threads: usize,
) -> Result<Opened<'a>> {
    let armored = is_armored(&mut input)?;
    let mut src: Src<'a> = if armored { Box::new(ArmorReader::new(input)) } else { Box::new(input) };
    let packets = read_session_packets(&mut src)?;
    let mut body = SeipdBody::new(BodyReader::new(src, packets.seipd_len), at.filter(|_| !armored));
    let mut version = [0u8; 1];
    read_exact(&mut body, &mut version, "SEIPD packet")?;
    if !matches!(version[0], 1 | 2) {
        return Err(Error::Unsupported("SEIPD version (1 and 2 are supported)"));
    }
    let (keys, recipient) = session_keys(&packets, passwords, opts, version[0])?;
    // With a recipient, the key's session key is the first candidate; the
    // message is that key's only if this candidate opened it (a session key
    // of `opts.session_keys` may have instead, the key's being wrong).
    let from_key = recipient.and_then(|fp| Some((fp, keys.first()?.key.clone())));
    let mut opened = if version[0] == 2 {
        open_v2(body, keys, chunk_threads)?
    } else {
        open_v1(body, keys, opts, thread_count(chunk_threads))?
    };
    opened.recipient = from_key
        .and_then(|(fp, key)| bool::from(key.as_slice().ct_eq(opened.state.session_key.key.as_slice())).then_some(fp));
    Ok(opened)
}

/// The candidate keys: the caller's session key, or those the keys and
/// passwords give (refusing SKESK versions that do not pair with SEIPD
/// `version`) followed by `opts.session_keys`; with a key, also the primary
/// fingerprint of its certificate.
fn session_keys(
    packets: &SessionPackets,
    pw: &[&[u8]],
    opts: &DecryptOptions,
    version: u8,
) -> Result<(Vec<SessionKey>, Option<Fingerprint>)> {
    if let Some(k) = &opts.session_key {
        return Ok((vec![k.clone()], None));
    }
    if opts.session_keys.is_empty() {
        return candidate_keys(packets, pw, &opts.keys, &opts.limits, version);
    }
    let (mut found, recipient) = if opts.keys.is_empty() && pw.is_empty() {
        (Vec::new(), None)
    } else {
        candidate_keys(packets, pw, &opts.keys, &opts.limits, version).unwrap_or_default()
    };
    found.extend(opts.session_keys.iter().cloned());
    Ok((found, recipient))
}

/// SEIPD v2: the header names the cipher; a candidate of that key length
/// opens the chunks (v6 password packets prove their key; with several
/// unproven candidates, [`pick_by_first_chunk`] decides).
fn open_v2<'a>(mut body: SeipdBody<'a>, keys: Vec<SessionKey>, threads: usize) -> Result<Opened<'a>> {
    let mut h = [0u8; V2_HEADER_LEN];
    read_exact(&mut body, &mut h, "SEIPD v2 header")?;
    let header = V2Header::parse(&h)?;
    let mut fit: Vec<SessionKey> = keys
        .into_iter()
        .filter(|k| k.key.len() == header.cipher.key_len() && k.alg.is_none_or(|a| a == header.cipher))
        .collect();
    let (sk, body): (SessionKey, Box<dyn ChunkSource + 'a>) = match fit.len() {
        0 => return Err(Error::WrongPassword),
        1 => (fit.remove(0), Box::new(body)),
        _ => pick_by_first_chunk(body, &header, fit)?,
    };
    let threads = thread_count(threads);
    let plain: Box<dyn Read + 'a> = if worth_it(threads, &header, true) {
        Box::new(ParOpener::new(body, &header, &sk.key, threads)?)
    } else {
        Box::new(ChunkOpener::new(body, &header, &sk.key)?)
    };
    let session_key = SessionKey { alg: Some(header.cipher), key: sk.key };
    Ok(Opened { plain, state: SeipdState::new(session_key, SeipdVersion::V2, None), recipient: None })
}

/// Several candidate keys for a SEIPD v2 body, none proven: reads the
/// first chunk, its tag and the next tag's worth (or the whole body, if
/// shorter), and keeps the first candidate under which that much
/// authenticates. The octets read are put back in front of the rest
/// (freed once the opener has read them: no second chunk buffer held
/// while the message is read).
/// None fits: [`Error::WrongPassword`].
fn pick_by_first_chunk<'a>(
    mut body: SeipdBody<'a>,
    header: &V2Header,
    keys: Vec<SessionKey>,
) -> Result<(SessionKey, Box<dyn ChunkSource + 'a>)> {
    let mut first = vec![0u8; chunk_size(header.chunk_octet) + 2 * TAG_LEN];
    let n = read_full(&mut body, &mut first)?;
    first.truncate(n);
    for k in keys {
        let mut probe = zeroize::Zeroizing::new([0u8; 1]);
        if ChunkOpener::new(first.as_slice(), header, &k.key)?.read(&mut probe[..]).is_ok() {
            return Ok((k, Box::new(ReadAhead::new(first, body))));
        }
    }
    Err(Error::WrongPassword)
}

/// SEIPD v1: picks the key (see [`DecryptOptions::v1_quick_check`]), then
/// buffers the plaintext until the MDC verifies, or streams it.
fn open_v1<'a>(
    mut body: SeipdBody<'a>,
    keys: Vec<SessionKey>,
    opts: &DecryptOptions,
    threads: usize,
) -> Result<Opened<'a>> {
    let mut prefix = [0u8; V1_PREFIX_LEN];
    read_exact(&mut body, &mut prefix, "SEIPD v1 prefix")?;
    // v1 takes its cipher from the session key: it must name one whose key
    // length matches.
    let named: Vec<SessionKey> =
        keys.into_iter().filter(|k| k.alg.is_some_and(|a| a.key_len() == k.key.len())).collect();
    // Every distinct key that passes the quick check (a wrong one does 1
    // time in 65,536), else (without the check) the first.
    let mut passing: Vec<SessionKey> = Vec::new();
    for k in named.iter().filter(|k| quick_check(&k.key, &prefix)) {
        if !passing.iter().any(|p| bool::from(p.key.as_slice().ct_eq(k.key.as_slice()))) {
            passing.push(k.clone());
        }
    }
    if passing.is_empty() {
        if opts.v1_quick_check {
            return Err(Error::WrongPassword);
        }
        passing.extend(named.first().cloned());
    }
    let Some(first) = passing.first().cloned() else { return Err(Error::WrongPassword) };
    if opts.v1_stream_unauthenticated {
        let opener = MdcOpener::with_threads(body, &first.key, &prefix, threads)?;
        let shared = SharedMdc(Rc::new(RefCell::new(opener)));
        let plain = Box::new(SharedMdc(Rc::clone(&shared.0)));
        let state = SeipdState::new(first, SeipdVersion::V1, Some(shared));
        return Ok(Opened { plain, state, recipient: None });
    }
    let (sk, all) = if passing.len() == 1 {
        let all = buffer_v1(&mut MdcOpener::with_threads(body, &first.key, &prefix, threads)?, opts.v1_buffer_limit)?;
        (first, all)
    } else {
        first_whose_mdc_verifies(body, &prefix, passing, opts.v1_buffer_limit)?
    };
    let state = SeipdState::new(sk, SeipdVersion::V1, None);
    Ok(Opened { plain: Box::new(io::Cursor::new(all)), state, recipient: None })
}

/// Several keys pass SEIPD v1's quick check: the ciphertext is held whole
/// (within `limit` and the MDC) and each key is tried in turn until one's
/// MDC verifies, so a wrong password that passes the check by chance does
/// not hide a right one given after it. None verifies: the first key's error.
fn first_whose_mdc_verifies(
    mut body: SeipdBody<'_>,
    prefix: &[u8; V1_PREFIX_LEN],
    keys: Vec<SessionKey>,
    limit: usize,
) -> Result<(SessionKey, zeroize::Zeroizing<Vec<u8>>)> {
    let sealed = buffer_v1(&mut body, limit.saturating_add(MDC_LEN))?;
    let mut first_error = None;
    for k in keys {
        match MdcOpener::without_quick_check(sealed.as_slice(), &k.key, prefix)
            .and_then(|mut o| buffer_v1(&mut o, limit))
        {
            Ok(all) => return Ok((k, all)),
            Err(e @ Error::Authentication(_)) => {
                first_error.get_or_insert(e);
            }
            Err(e) => return Err(e),
        }
    }
    Err(first_error.unwrap_or(Error::WrongPassword))
}

/// Reads a v1 plaintext whole (its end verifies the MDC). Every buffer it
/// passes through is wiped when dropped, including those left by growth.
fn buffer_v1(opener: &mut impl Read, limit: usize) -> Result<zeroize::Zeroizing<Vec<u8>>> {
    let mut all = zeroize::Zeroizing::new(Vec::new());
    let mut chunk = zeroize::Zeroizing::new([0u8; V1_READ]);
    loop {
        let n = read_full(opener, &mut chunk[..])?;
        if n == 0 {
            return Ok(all);
        }
        if all.len() + n > limit {
            return Err(Error::LimitExceeded {
                limit: "v1_buffer_limit (a SEIPD v1 message is held whole until its MDC verifies; octets)",
                asked: (all.len() + n) as u64,
                allowed: limit as u64,
            });
        }
        push_zeroizing(&mut all, &chunk[..n]);
    }
}

/// Checks the repeated octets of a SEIPD v1 prefix under `key`.
fn quick_check(key: &[u8], prefix: &[u8; V1_PREFIX_LEN]) -> bool {
    let Ok(aes) = Aes::new(key) else { return false };
    let mut p = *prefix;
    super::cfb::Cfb::new(aes).decrypt(&mut p);
    p[V1_PREFIX_LEN - 4..V1_PREFIX_LEN - 2] == p[V1_PREFIX_LEN - 2..]
}

/// A streamed v1 message's MDC reader, shared between the packet parser
/// above it and the [`Decryptor`], which finishes it when parsing fails.
pub(crate) struct SharedMdc<'a>(Rc<RefCell<MdcOpener<SeipdBody<'a>>>>);

impl Read for SharedMdc<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.0.try_borrow_mut() {
            Ok(mut r) => r.read(buf),
            Err(_) => Err(Error::Authentication("MDC").into_io()),
        }
    }
}

/// The error to report for `e`, met while parsing the plaintext of a
/// streamed v1 message: that plaintext is not authenticated yet, so the
/// rest of the message is read first. If the MDC (or the input) fails,
/// that error is reported, the same whatever the plaintext held; only if
/// it verifies is `e` reported. Without a v1 stream, `e` as is.
pub(crate) fn settle(v1: Option<&SharedMdc<'_>>, e: Error) -> Error {
    match finish_v1(v1) {
        Ok(()) => e,
        Err(x) => x,
    }
}

/// Reads a streamed v1 message to its end, which verifies the MDC (or
/// fails). Without a v1 stream, nothing to do.
pub(crate) fn finish_v1(v1: Option<&SharedMdc<'_>>) -> Result<()> {
    let Some(SharedMdc(mdc)) = v1 else { return Ok(()) };
    let Ok(mut mdc) = mdc.try_borrow_mut() else { return Err(Error::Authentication("MDC")) };
    io::copy(&mut *mdc, &mut io::sink()).map(drop).map_err(Error::from_io)
}

impl Read for Decryptor<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.state.poison.check()?;
        // The end comes only after the rest of the plaintext stream has
        // been read, which verifies the final tag (or MDC).
        match self.message.read(buf) {
            Ok(n) => Ok(n),
            // An I/O error of the input below leaves every layer intact (those
            // that cannot resume replay their own typed error): retryable.
            Err(e) if !is_typed(&e) => Err(e),
            Err(e) => Err(self.state.fail(Error::from_io(e))),
        }
    }
}
