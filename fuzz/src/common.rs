//! What the harnesses share: the fixed password, session key and limits,
//! a reader that hands out input in pieces, draining a stream, and taking
//! parameters off the front of the input.

use std::io::{self, BufRead, Read};

use tessera::openpgp::s2k::S2kLimits;

/// The password of `decrypt_password` (and of its seeds).
pub const PASSWORD: &[u8] = b"password";

/// The session key of `decrypt_session_key` (and of its seeds): the first
/// 16, 24 or 32 octets, by cipher.
pub const SESSION_KEY: [u8; 32] = [
    0x5e, 0x55, 0x10, 0x4e, 0x4b, 0x45, 0x59, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xf0, 0x0f, 0x1e, 0x2d,
    0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0,
];

/// The salt of the SEIPD v2 packets `decrypt_session_key` builds.
pub const V2_SALT: [u8; 32] = [0x33; 32];

/// Output read from one message is counted but no longer kept past this
/// (a compressed packet may expand ~1000 times).
pub const KEEP_OUTPUT: usize = 4 << 20;
/// ... and reading stops here.
pub const MAX_OUTPUT: usize = 16 << 20;

/// Total S2K work (octets hashed, or Argon2 KiB times passes) a message
/// may ask of `decrypt_password` before the harness skips it.
pub const S2K_BUDGET: u64 = 4 << 20;

/// Argon2 limits of the decrypting targets: 1 MiB, 4 passes.
pub const FUZZ_LIMITS: S2kLimits =
    S2kLimits { max_argon2_m: 10, max_argon2_t: 4, max_iterated_count: 96, ..S2kLimits::UNLIMITED };

/// A `BufRead` over a slice that hands out at most `piece` octets per
/// `fill_buf`/`read`, to exercise every streaming boundary.
pub struct Pieces<'a> {
    pub data: &'a [u8],
    pub piece: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.piece).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

impl BufRead for Pieces<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(&self.data[..self.piece.min(self.data.len())])
    }
    fn consume(&mut self, amt: usize) {
        let avail = self.piece.min(self.data.len());
        assert!(amt <= avail, "consume({amt}) after fill_buf returned {avail} octets");
        self.data = &self.data[amt..];
    }
}

/// What reading a stream to its end gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It ended cleanly (the output, cut at `KEEP_OUTPUT`, and its length).
    Ok(Vec<u8>, usize),
    /// It failed.
    Err,
}

impl Outcome {
    pub fn is_ok(&self) -> bool {
        matches!(self, Outcome::Ok(..))
    }
}

/// Reads `r` to its end with reads of `step` octets, keeping at most
/// `KEEP_OUTPUT` octets. After the end, another read must give 0 again.
pub fn drain<R: Read + ?Sized>(r: &mut R, step: usize) -> Outcome {
    let mut kept = Vec::new();
    let mut total = 0usize;
    let mut buf = vec![0u8; step.max(1)];
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                assert!(n <= buf.len(), "read returned {n} for a buffer of {}", buf.len());
                let keep = n.min(KEEP_OUTPUT - kept.len());
                kept.extend_from_slice(&buf[..keep]);
                total += n;
                if total >= MAX_OUTPUT {
                    return Outcome::Ok(kept, total);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return Outcome::Err,
        }
    }
    match r.read(&mut buf) {
        Ok(0) => Outcome::Ok(kept, total),
        other => panic!("a read after the end returned {other:?}"),
    }
}

/// Splits `n` off the front of `data` (or all of it).
pub fn take<'a>(data: &mut &'a [u8], n: usize) -> &'a [u8] {
    let (head, tail) = data.split_at(n.min(data.len()));
    *data = tail;
    head
}

pub fn take_u8(data: &mut &[u8]) -> u8 {
    take(data, 1).first().copied().unwrap_or(0)
}

pub fn take_u24(data: &mut &[u8]) -> u32 {
    let b = take(data, 3);
    (0..3).map(|i| (b.get(i).copied().unwrap_or(0) as u32) << (8 * i)).sum()
}
