//! Errors that stick. A reader or writer whose state an error may have left
//! half-updated (a partly read length, a chunk sealed but not written)
//! must not continue from that state: it reports the same error again on
//! every later call. `Interrupted` changes nothing and is never recorded.

use std::io;

use super::Error;

/// The first error of a reader or writer, replayed on every later call.
#[derive(Debug, Default)]
pub(crate) struct Poison(Option<Error>);

impl Poison {
    /// `Ok` while no error has been recorded, else a copy of that error.
    pub(crate) fn check(&self) -> io::Result<()> {
        match &self.0 {
            None => Ok(()),
            Some(e) => Err(e.replay().into_io()),
        }
    }

    /// Passes `r` through, recording its error (unless `Interrupted`).
    pub(crate) fn record<T>(&mut self, r: io::Result<T>) -> io::Result<T> {
        r.map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                return e;
            }
            let e = match Error::from_io(e) {
                Error::Io(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    Error::Io(io::Error::other(format!("{e} (where the stream cannot resume)")))
                }
                e => e,
            };
            self.0 = Some(e.replay());
            e.into_io()
        })
    }

    /// As [`Poison::record`], but an `Interrupted` error is recorded too:
    /// for a write after which the state has moved on (a chunk sealed in
    /// place, a piece announced), where a retry would repeat the step.
    pub(crate) fn record_final<T>(&mut self, r: io::Result<T>) -> io::Result<T> {
        self.record(r.map_err(|e| match e.kind() {
            io::ErrorKind::Interrupted => io::Error::other(format!("{e} (where the stream cannot resume)")),
            _ => e,
        }))
    }

    /// Records a typed error and returns it as an `io::Error`.
    pub(crate) fn set(&mut self, e: Error) -> io::Error {
        self.record::<()>(Err(e.into_io())).unwrap_err()
    }
}

/// One `read` of `r`, with a count above `buf.len()` (a broken reader)
/// turned into an error instead of a slice panic later.
pub(crate) fn read_checked<R: io::Read + ?Sized>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let n = r.read(buf)?;
    if n > buf.len() {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "a reader returned more bytes than asked for"));
    }
    Ok(n)
}
