//! Options of the [`Decryptor`](super::Decryptor): limits, session keys,
//! secret keys, SEIPD v1 handling, threads.

#[cfg(doc)]
use crate::openpgp::Error;
use crate::openpgp::key::Cert;
use crate::openpgp::{S2kLimits, SessionKey};

/// Default of [`DecryptOptions::v1_buffer_limit`]: 64 MiB.
const V1_BUFFER_LIMIT: usize = 64 << 20;

/// Options of [`Decryptor::with_options`](super::Decryptor::with_options).
///
/// ```
/// use std::io::{Read, Write};
/// use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, S2kChoice};
/// # let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
/// # let mut enc = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts)?;
/// # enc.write_all(b"data")?;
/// # let message = enc.finish()?;
/// // Open once with the password; later, with the session key alone (SOP's
/// // `--with-session-key`): no password hashing at all.
/// let session_key = Decryptor::new(message.as_slice(), &[b"pw".as_slice()])?.session_key().clone();
/// let opts = DecryptOptions { session_key: Some(session_key), ..DecryptOptions::default() };
/// let mut out = Vec::new();
/// Decryptor::with_options(message.as_slice(), &[], &opts)?.read_to_end(&mut out)?;
/// assert_eq!(out, b"data");
/// # Ok::<(), tessera::openpgp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DecryptOptions {
    /// Limits on the S2K work a message may ask for.
    pub limits: S2kLimits,
    /// Use this session key instead of passwords (SOP `--with-session-key`).
    pub session_key: Option<SessionKey>,
    /// Session keys to try besides the keys and passwords (SOP `decrypt`
    /// given several of `--with-session-key`, `--with-password` and keys at
    /// once), after the candidates from `keys` and passwords, which their
    /// packets prove. A session key is not proven by anything before the
    /// data: SEIPD v1 picks the first that passes the quick check; SEIPD v2,
    /// when several candidates fit the message's cipher, the first under
    /// which the first chunk authenticates (that chunk is read ahead: one
    /// chunk of memory more while the candidates are tried and until the
    /// opener has read it). Ignored when `session_key` is set.
    pub session_keys: Vec<SessionKey>,
    /// Secret keys to open the message's PKESK packets with (unlocked:
    /// see [`Cert::unlock`]); packets that name one of them are tried
    /// first, then anonymous ones against every key, then the passwords.
    pub keys: Vec<Cert>,
    /// Most octets the compressed data packets of a message may decompress
    /// to, every nested layer counted (`None`: no limit). Exceeding it is
    /// [`Error::LimitExceeded`]. The command-line
    /// tools set a finite default; a library caller writing to disk should
    /// too, since a small message can decompress to about a thousand times
    /// its size.
    pub max_decompressed_size: Option<u64>,
    /// SEIPD v1 (CFB + MDC) can only be authenticated at its end. By
    /// default the decryptor reads a v1 message whole into memory, up to
    /// this many octets, before releasing anything.
    pub v1_buffer_limit: usize,
    /// Instead, stream a v1 message, releasing plaintext **before** the MDC
    /// is checked (the end of input still fails if it does not verify).
    /// Only for callers that hold the output back until the end, such as a
    /// temporary file renamed on success. The packets inside are parsed
    /// from unverified plaintext, so any failure there is held back until
    /// the rest of the message has been read: if the MDC does not verify,
    /// the error is [`Error::Authentication`] whatever the plaintext held (no
    /// format oracle); only a message whose MDC verifies reports what is
    /// wrong inside it.
    pub v1_stream_unauthenticated: bool,
    /// SEIPD v1 repeats two random octets at the start so that a wrong key
    /// shows at once (the "quick check"): a wrong password is then reported
    /// as [`Error::WrongPassword`] before any data is decrypted. Reporting it
    /// apart from an MDC failure is an oracle (Mister and Zuccherato, 2005:
    /// about 2^15 forged messages reveal two plaintext octets of a block) for
    /// a service that decrypts attacker-modified v1 messages and shows which
    /// error occurred. Set this to `false` in such services: the first
    /// candidate key is then used without the check and the MDC alone
    /// decides, so both failures end in the same [`Error::Authentication`]. With
    /// several candidate keys (several passwords or v4 password packets),
    /// the keys whose quick check passes are used, else the first. A wrong
    /// key passes the check with probability 2^-16; when more than one
    /// passes, the ciphertext is held (within `v1_buffer_limit`) and each is
    /// tried until one's MDC verifies, so a right key after a lucky wrong
    /// one still opens the message (with `v1_stream_unauthenticated`, only
    /// the first is tried). Default `true` (what GnuPG does; SEIPD v2 has
    /// no quick check).
    pub v1_quick_check: bool,
    /// Threads opening SEIPD v2 chunks (default 1: on the caller's thread,
    /// no thread is spawned; 0: one per core). With more than one, worker
    /// threads open chunks with at most 4 MiB of chunks in flight; that
    /// pays off for messages of many chunks (256 KiB each by default), so
    /// a caller decrypting large files or streams asks for it, as the
    /// `tessera` command line does. Either way a chunk is released only
    /// after its tag verifies, in order. SEIPD v1 is decrypted on the
    /// caller's thread; with more than one, its MDC's SHA-1 runs on a
    /// second one beside it.
    ///
    /// ```
    /// use tessera::openpgp::DecryptOptions;
    /// assert_eq!(DecryptOptions::default().threads, 1);
    /// let all_cores = DecryptOptions { threads: 0, ..DecryptOptions::default() };
    /// # let _ = all_cores;
    /// ```
    pub threads: usize,
}

impl DecryptOptions {
    /// The decompressed size limit of the command-line tools and the Python
    /// file functions (16 GiB): generous for real data, finite against a
    /// compressed message that would fill a disk.
    ///
    /// ```
    /// use tessera::openpgp::DecryptOptions;
    /// let opts = DecryptOptions { max_decompressed_size: Some(DecryptOptions::TOOL_MAX_DECOMPRESSED_SIZE), ..Default::default() };
    /// assert_eq!(opts.max_decompressed_size, Some(1 << 34));
    /// ```
    pub const TOOL_MAX_DECOMPRESSED_SIZE: u64 = 16 << 30;
}

impl Default for DecryptOptions {
    fn default() -> Self {
        DecryptOptions {
            limits: S2kLimits::default(),
            session_key: None,
            session_keys: Vec::new(),
            keys: Vec::new(),
            max_decompressed_size: None,
            v1_buffer_limit: V1_BUFFER_LIMIT,
            v1_stream_unauthenticated: false,
            v1_quick_check: true,
            threads: 1,
        }
    }
}
