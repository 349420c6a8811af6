//! Plaintext read straight into a sealer's buffers: one copy of the data
//! fewer than `write_all` from a buffer of the caller's.

use std::fs::File;
use std::io::{self, Read};

use crate::fs::CopyError;
use crate::openpgp::poison::read_checked;

/// Where plaintext of a known length comes from: a stream, read in order,
/// or a file read at offsets, which chunk workers can share.
pub(crate) enum Source<'a> {
    /// Read in order.
    Stream(&'a mut dyn Read),
    /// Read at this offset of the file, which moves on as it is read.
    File(&'a File, u64),
}

impl Source<'_> {
    /// One read into the non-empty `buf` (retried if interrupted) that must
    /// not meet the end of the input.
    pub(crate) fn read_some(&mut self, buf: &mut [u8]) -> Result<usize, CopyError> {
        loop {
            let r = match self {
                Source::Stream(r) => read_checked(*r, buf),
                Source::File(f, at) => read_at(f, buf, *at),
            };
            return match r {
                Ok(0) => Err(CopyError::Read(shrank())),
                Ok(k) => {
                    if let Source::File(_, at) = self {
                        *at += k as u64;
                    }
                    Ok(k)
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => Err(CopyError::Read(e)),
            };
        }
    }

    /// Fills `buf` whole.
    pub(crate) fn read_exact(&mut self, buf: &mut [u8]) -> Result<(), CopyError> {
        let mut done = 0;
        while done < buf.len() {
            done += self.read_some(&mut buf[done..])?;
        }
        Ok(())
    }
}

/// Whether this platform has positioned reads that threads can share
/// ([`Source::File`] is made only where it does).
pub(crate) const POSITIONED_READS: bool = cfg!(any(unix, windows));

/// One positioned read (on Windows it moves the file's own position,
/// which no caller here relies on).
pub(crate) fn read_at(f: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    #[cfg(unix)]
    let n = std::os::unix::fs::FileExt::read_at(f, buf, at)?;
    #[cfg(windows)]
    let n = std::os::windows::fs::FileExt::seek_read(f, buf, at)?;
    #[cfg(not(any(unix, windows)))]
    let n = {
        let _ = (f, buf, at);
        return Err(io::Error::new(io::ErrorKind::Unsupported, "no positioned reads on this platform"));
    };
    if n > buf.len() {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "a read returned more bytes than asked for"));
    }
    Ok(n)
}

/// The error of an input that ends before the length it was said to have.
pub(crate) fn shrank() -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "the input ended before its announced length (did the file shrink while being read?)",
    )
}

/// A buffer filled in place: a sealer's plaintext chunk, or the MDC hash
/// thread's next buffer.
pub(crate) trait Room {
    /// The free part of the buffer being filled (a full chunk is sealed
    /// first, so it is never empty).
    fn room(&mut self) -> io::Result<&mut [u8]>;

    /// Takes the first `n` octets of the last [`Room::room`] as written.
    fn advance(&mut self, n: usize) -> io::Result<()>;

    /// Reads exactly `n` octets of `from` into the buffers, as many per
    /// read as there is room for. An input that ends sooner is a
    /// [`CopyError::Read`] of kind `UnexpectedEof`.
    fn fill_from(&mut self, from: &mut Source<'_>, n: u64) -> Result<(), CopyError> {
        fill_in_order(self, from, n)
    }
}

/// [`Room::fill_from`] on the caller's thread.
pub(crate) fn fill_in_order<W: Room + ?Sized>(to: &mut W, from: &mut Source<'_>, mut n: u64) -> Result<(), CopyError> {
    while n > 0 {
        let room = to.room().map_err(CopyError::Write)?;
        let want = room.len().min(usize::try_from(n).unwrap_or(usize::MAX));
        let got = from.read_some(&mut room[..want])?;
        to.advance(got).map_err(CopyError::Write)?;
        n -= got as u64;
    }
    Ok(())
}

/// Writes `data` through `to`'s buffers, as `write_all`.
pub(crate) fn write_through<W: Room + ?Sized>(to: &mut W, mut data: &[u8]) -> io::Result<()> {
    while !data.is_empty() {
        let room = to.room()?;
        let k = room.len().min(data.len());
        room[..k].copy_from_slice(&data[..k]);
        to.advance(k)?;
        data = &data[k..];
    }
    Ok(())
}

/// `Write` for a sealer that is a [`Room`] with a [`Poison`](crate::openpgp::poison::Poison)
/// in `self.poison` and its output in `self.inner`: writes go through the
/// sealer's buffers ([`write_through`]), `flush` reaches the output, and
/// after a failure every call fails the same way.
macro_rules! write_over_room {
    ($sealer:ident) => {
        impl<W: std::io::Write> std::io::Write for $sealer<W> {
            fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
                self.write_all(data)?;
                Ok(data.len())
            }

            fn write_all(&mut self, data: &[u8]) -> std::io::Result<()> {
                self.poison.check()?;
                $crate::openpgp::seipd::write_through(self, data)
            }

            fn flush(&mut self) -> std::io::Result<()> {
                self.poison.check()?;
                let r = self.inner.flush();
                self.poison.record(r)
            }
        }
    };
}
pub(crate) use write_over_room;
