//! The outputs of a batch call, one slice per message, and a reusable
//! batch of messages that owns its buffers.

use zeroize::Zeroize;

use super::{AesSiv, BatchAd, TAG_LEN, base64url};
use crate::Error;
use crate::wipe::reserve_wiped;

/// Iterates over the messages a batch call wrote into its output buffer,
/// in order: each `V || C` after [`AesSiv::seal_batch`], each plaintext
/// after [`AesSiv::open_batch`]. It does the offset arithmetic (16 bytes
/// more or less per message) so that callers need not.
///
/// Given `ends` that do not describe `out` (the batch call would have
/// refused them), it stops early instead of panicking.
///
/// ```
/// use tessera::siv::{AesSiv, BatchAd, BatchOutputs};
/// let siv = AesSiv::new(&[8u8; 32]).unwrap();
/// let ad: &[&[u8]] = &[b"users.name"];
/// let (data, ends) = (b"alicebob", [5, 8]);
/// let mut ct = vec![0u8; data.len() + 16 * ends.len()];
/// siv.seal_batch(BatchAd::Same(ad), data, &ends, &mut ct).unwrap();
/// let sealed: Vec<&[u8]> = BatchOutputs::sealed(&ct, &ends).collect();
/// assert_eq!(sealed[1], siv.seal(None, ad, b"bob").unwrap());
///
/// let cends = [21, 40];
/// let mut pt = vec![0u8; data.len()];
/// siv.open_batch(BatchAd::Same(ad), &ct, &cends, &mut pt).unwrap();
/// let opened: Vec<&[u8]> = BatchOutputs::opened(&pt, &cends).collect();
/// assert_eq!(opened, [&b"alice"[..], b"bob"]);
/// ```
#[derive(Debug, Clone)]
pub struct BatchOutputs<'a> {
    out: &'a [u8],
    ends: core::slice::Iter<'a, usize>,
    /// Messages yielded so far.
    done: usize,
    /// Where the next output starts in `out`.
    start: usize,
    sealed: bool,
    /// How many bytes longer (sealed) or shorter (opened) each output is than its message.
    per: usize,
}

impl<'a> BatchOutputs<'a> {
    /// The ciphertexts `V || C` that [`AesSiv::seal_batch`] wrote into
    /// `out`, for the plaintext `ends` it was given.
    ///
    /// ```
    /// use tessera::siv::{AesSiv, BatchAd, BatchOutputs};
    /// let siv = AesSiv::new(&[4u8; 32]).unwrap();
    /// let (data, ends) = (b"abcde", [2, 5]);
    /// let mut ct = [0u8; 5 + 32];
    /// siv.seal_batch(BatchAd::Same(&[]), data, &ends, &mut ct).unwrap();
    /// let sealed: Vec<&[u8]> = BatchOutputs::sealed(&ct, &ends).collect();
    /// assert_eq!(sealed[1], siv.seal(None, &[], b"cde").unwrap());
    /// let (cends, mut pt) = ([18, 37], [0u8; 5]);
    /// siv.open_batch(BatchAd::Same(&[]), &ct, &cends, &mut pt).unwrap();
    /// let opened: Vec<&[u8]> = BatchOutputs::opened(&pt, &cends).collect();
    /// assert_eq!(opened, [b"ab".as_slice(), b"cde"]);
    /// ```
    pub fn sealed(out: &'a [u8], ends: &'a [usize]) -> Self {
        BatchOutputs { out, ends: ends.iter(), done: 0, start: 0, sealed: true, per: TAG_LEN }
    }

    /// The plaintexts that [`AesSiv::open_batch`] wrote into `out`, for
    /// the ciphertext `ends` it was given.
    ///
    /// ```
    /// use tessera::siv::{AesSiv, BatchAd, BatchOutputs};
    /// let siv = AesSiv::new(&[4u8; 32]).unwrap();
    /// let (data, ends) = (b"abcde", [2, 5]);
    /// let mut ct = [0u8; 5 + 32];
    /// siv.seal_batch(BatchAd::Same(&[]), data, &ends, &mut ct).unwrap();
    /// let sealed: Vec<&[u8]> = BatchOutputs::sealed(&ct, &ends).collect();
    /// assert_eq!(sealed[1], siv.seal(None, &[], b"cde").unwrap());
    /// let (cends, mut pt) = ([18, 37], [0u8; 5]);
    /// siv.open_batch(BatchAd::Same(&[]), &ct, &cends, &mut pt).unwrap();
    /// let opened: Vec<&[u8]> = BatchOutputs::opened(&pt, &cends).collect();
    /// assert_eq!(opened, [b"ab".as_slice(), b"cde"]);
    /// ```
    pub fn opened(out: &'a [u8], ends: &'a [usize]) -> Self {
        Self::opened_after(out, ends, 0)
    }

    /// The plaintexts of messages that each started with `skip` more bytes
    /// ([`AesSiv::open_batch_after`]).
    pub(crate) fn opened_after(out: &'a [u8], ends: &'a [usize], skip: usize) -> Self {
        BatchOutputs { out, ends: ends.iter(), done: 0, start: 0, sealed: false, per: TAG_LEN + skip }
    }
}

impl<'a> Iterator for BatchOutputs<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let end = *self.ends.next()?;
        let tags = (self.done + 1).checked_mul(self.per);
        let stop = tags.and_then(|t| if self.sealed { end.checked_add(t) } else { end.checked_sub(t) });
        let Some(item) = stop.and_then(|stop| self.out.get(self.start..stop)) else {
            // Not a batch's output: stop for good.
            self.ends = [].iter();
            return None;
        };
        self.start += item.len();
        self.done += 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.ends.len()))
    }
}

/// Messages gathered for one batch call, with the buffers for its output:
/// [`push`](Self::push) plaintexts (or ciphertexts), then
/// [`seal`](Self::seal) (or [`open`](Self::open)) them all in
/// one call and iterate over the results. The buffers are kept across
/// [`clear`](Self::clear), so a stream of batches stops allocating once
/// they have grown.
///
/// The buffers may hold plaintexts (the messages pushed to be sealed, the
/// outputs of an open): [`clear`](Self::clear) wipes those (messages it
/// opened are ciphertexts, and sealed outputs too: it leaves them), a
/// buffer that has to grow wipes its old allocation before freeing it,
/// and dropping the batch wipes both buffers whole. `Debug` shows only
/// the number of messages.
///
/// ```
/// use tessera::siv::{AesSiv, BatchAd, MessageBatch};
/// let siv = AesSiv::new(&[8u8; 32]).unwrap();
/// let ad: &[&[u8]] = &[b"users.name"];
/// let mut batch = MessageBatch::new();
/// batch.push(b"alice");
/// batch.push(b"bob");
/// let cts: Vec<Vec<u8>> = batch.seal(&siv, BatchAd::Same(ad)).unwrap().map(<[u8]>::to_vec).collect();
/// assert_eq!(cts[0], siv.seal(None, ad, b"alice").unwrap());
///
/// batch.clear();
/// cts.iter().for_each(|c| batch.push(c));
/// let pts: Vec<&[u8]> = batch.open(&siv, BatchAd::Same(ad)).unwrap().collect();
/// assert_eq!(pts, [&b"alice"[..], b"bob"]);
/// ```
#[derive(Default)]
pub struct MessageBatch {
    data: Vec<u8>,
    ends: Vec<usize>,
    out: Vec<u8>,
    /// `out` holds the plaintexts of a successful open (until a clear or a seal).
    plain_out: bool,
    /// `data[..cipher_len]` was opened (ciphertexts) or is wiped already:
    /// what clear need not wipe.
    cipher_len: usize,
}

impl core::fmt::Debug for MessageBatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MessageBatch").field("messages", &self.ends.len()).finish_non_exhaustive()
    }
}

impl Drop for MessageBatch {
    fn drop(&mut self) {
        // Whole capacities: once per batch, not per use.
        self.data.zeroize();
        self.out.zeroize();
    }
}

/// Resizes `v` to `len` bytes (new ones zero) through [`reserve_wiped`].
fn resize_wiped(v: &mut Vec<u8>, len: usize) {
    reserve_wiped(v, len.saturating_sub(v.len()));
    v.resize(len, 0);
}

impl MessageBatch {
    /// An empty batch.
    ///
    /// ```
    /// use tessera::siv::{AesSiv, BatchAd, MessageBatch};
    /// let siv = AesSiv::new(&[4u8; 32]).unwrap();
    /// let mut batch = MessageBatch::new();
    /// assert!(batch.is_empty());
    /// batch.push(b"alice");
    /// batch.push(b"bob");
    /// assert_eq!(batch.len(), 2);
    /// let sealed: Vec<Vec<u8>> = batch.seal(&siv, BatchAd::Same(&[b"users"])).unwrap().map(<[u8]>::to_vec).collect();
    /// batch.clear();
    /// sealed.iter().for_each(|c| batch.push(c));
    /// let opened: Vec<&[u8]> = batch.open(&siv, BatchAd::Same(&[b"users"])).unwrap().collect();
    /// assert_eq!(opened, [b"alice".as_slice(), b"bob"]);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of messages pushed since the last [`clear`](Self::clear).
    ///
    /// ```
    /// use tessera::siv::{AesSiv, BatchAd, MessageBatch};
    /// let siv = AesSiv::new(&[4u8; 32]).unwrap();
    /// let mut batch = MessageBatch::new();
    /// assert!(batch.is_empty());
    /// batch.push(b"alice");
    /// batch.push(b"bob");
    /// assert_eq!(batch.len(), 2);
    /// let sealed: Vec<Vec<u8>> = batch.seal(&siv, BatchAd::Same(&[b"users"])).unwrap().map(<[u8]>::to_vec).collect();
    /// batch.clear();
    /// sealed.iter().for_each(|c| batch.push(c));
    /// let opened: Vec<&[u8]> = batch.open(&siv, BatchAd::Same(&[b"users"])).unwrap().collect();
    /// assert_eq!(opened, [b"alice".as_slice(), b"bob"]);
    /// ```
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no message was pushed since the last [`clear`](Self::clear).
    ///
    /// ```
    /// use tessera::siv::{AesSiv, BatchAd, MessageBatch};
    /// let siv = AesSiv::new(&[4u8; 32]).unwrap();
    /// let mut batch = MessageBatch::new();
    /// assert!(batch.is_empty());
    /// batch.push(b"alice");
    /// batch.push(b"bob");
    /// assert_eq!(batch.len(), 2);
    /// let sealed: Vec<Vec<u8>> = batch.seal(&siv, BatchAd::Same(&[b"users"])).unwrap().map(<[u8]>::to_vec).collect();
    /// batch.clear();
    /// sealed.iter().for_each(|c| batch.push(c));
    /// let opened: Vec<&[u8]> = batch.open(&siv, BatchAd::Same(&[b"users"])).unwrap().collect();
    /// assert_eq!(opened, [b"alice".as_slice(), b"bob"]);
    /// ```
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Forgets every message (keeping the buffers' capacity), wiping first
    /// what may hold plaintexts: the messages not opened, and the outputs
    /// of an open.
    ///
    /// ```
    /// use tessera::siv::{AesSiv, BatchAd, MessageBatch};
    /// let siv = AesSiv::new(&[4u8; 32]).unwrap();
    /// let mut batch = MessageBatch::new();
    /// assert!(batch.is_empty());
    /// batch.push(b"alice");
    /// batch.push(b"bob");
    /// assert_eq!(batch.len(), 2);
    /// let sealed: Vec<Vec<u8>> = batch.seal(&siv, BatchAd::Same(&[b"users"])).unwrap().map(<[u8]>::to_vec).collect();
    /// batch.clear();
    /// sealed.iter().for_each(|c| batch.push(c));
    /// let opened: Vec<&[u8]> = batch.open(&siv, BatchAd::Same(&[b"users"])).unwrap().collect();
    /// assert_eq!(opened, [b"alice".as_slice(), b"bob"]);
    /// ```
    pub fn clear(&mut self) {
        // Only what may hold plaintexts: messages not opened since they were
        // pushed, and the outputs of an open. The rest of each buffer was
        // never written or is wiped already (a buffer shrinks only here,
        // after its wipe). zeroize 1.9 fills slices with vector stores
        // behind an optimisation barrier, as fast as memset.
        let opened = self.cipher_len.min(self.data.len());
        self.data[opened..].zeroize();
        if self.plain_out {
            self.out[..].zeroize();
        }
        (self.plain_out, self.cipher_len) = (false, 0);
        self.data.clear();
        self.ends.clear();
    }

    /// Opens every message with `from.0` (each starting with `from.1`
    /// bytes to pass over, as [`open_after`](Self::open_after)) and seals
    /// each plaintext again with `to.0`, with the same associated data,
    /// appending each new `to.1 || V || C` (a prefix, then the ciphertext)
    /// to `out` and its end to `ends`, as [`seal_append`](Self::seal_append).
    /// The plaintexts are only ever in the batch's own buffers, and the
    /// bytes that held them are wiped before this returns, whether it
    /// succeeds or not. On error `out` and `ends` are left as they were; if
    /// a message does not open, the error names it and the batch is
    /// unchanged. After a successful open, the batch's messages are the
    /// wiped plaintexts (all zero bytes). The outer error is the open's
    /// (the batch unchanged: it can be tried another way), the inner one
    /// the seal's (the plaintexts already wiped).
    ///
    /// No buffer that held a plaintext grows (so none is freed unwiped):
    /// the output buffer receiving them is sized before they are written,
    /// and is then wiped and becomes the message buffer, which is only
    /// cleared before more messages are pushed.
    pub(crate) fn reseal(
        &mut self,
        from: (&AesSiv, usize),
        to: (&AesSiv, &[u8]),
        ad: BatchAd<'_>,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<Result<(), Error>, Error> {
        let (skip, head) = (from.1, from.1 + TAG_LEN);
        // On failure open_batch zeroes what it wrote.
        self.open_after(from.0, ad, skip)?;
        for (i, end) in self.ends.iter_mut().enumerate() {
            *end -= head * (i + 1);
        }
        // The plaintexts become the messages (the ciphertexts' buffer is left unused).
        core::mem::swap(&mut self.data, &mut self.out);
        let sealed = self.seal_append(to.0, ad, to.1, out, ends);
        // zeroize 1.9 fills slices with vector stores behind an optimisation
        // barrier (as fast as memset here), so only the used length costs.
        self.data[..].zeroize();
        // The outputs are ciphertexts now, and the messages wiped.
        (self.plain_out, self.cipher_len) = (false, self.data.len());
        Ok(sealed)
    }

    /// Adds a message: a plaintext to encrypt or a `V || C` to decrypt.
    ///
    /// ```
    /// use tessera::siv::{AesSiv, BatchAd, MessageBatch};
    /// let siv = AesSiv::new(&[4u8; 32]).unwrap();
    /// let mut batch = MessageBatch::new();
    /// assert!(batch.is_empty());
    /// batch.push(b"alice");
    /// batch.push(b"bob");
    /// assert_eq!(batch.len(), 2);
    /// let sealed: Vec<Vec<u8>> = batch.seal(&siv, BatchAd::Same(&[b"users"])).unwrap().map(<[u8]>::to_vec).collect();
    /// batch.clear();
    /// sealed.iter().for_each(|c| batch.push(c));
    /// let opened: Vec<&[u8]> = batch.open(&siv, BatchAd::Same(&[b"users"])).unwrap().collect();
    /// assert_eq!(opened, [b"alice".as_slice(), b"bob"]);
    /// ```
    pub fn push(&mut self, message: &[u8]) {
        reserve_wiped(&mut self.data, message.len());
        self.data.extend_from_slice(message);
        self.ends.push(self.data.len());
    }

    /// Adds a message given as unpadded base64url text ([`base64url`]) and
    /// returns its length in bytes. Text that is not base64url is an error
    /// ([`Error::Base64Url`]) and adds nothing.
    ///
    /// ```
    /// use tessera::siv::MessageBatch;
    /// let mut batch = MessageBatch::new();
    /// assert_eq!(batch.push_base64url(b"aGk").unwrap(), 2); // "hi"
    /// assert!(batch.push_base64url(b"a=").is_err());
    /// assert_eq!(batch.len(), 1);
    /// ```
    pub fn push_base64url(&mut self, text: &[u8]) -> Result<usize, Error> {
        let start = self.data.len();
        // Room for the decoded bytes (at most 3 per 4 characters, rounded up).
        reserve_wiped(&mut self.data, text.len().div_ceil(4).saturating_mul(3));
        if let Err(e) = base64url::decode(text, &mut self.data) {
            self.data[start..].zeroize();
            self.data.truncate(start);
            return Err(e);
        }
        self.ends.push(self.data.len());
        Ok(self.data.len() - start)
    }

    /// The messages pushed since the last [`clear`](Self::clear), in order.
    pub(crate) fn messages(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(s, &e)| &self.data[s..e])
    }

    /// Encrypts every message with [`AesSiv::seal_batch`]; yields each
    /// `V || C` in order.
    ///
    /// ```
    /// use tessera::siv::{AesSiv, BatchAd, MessageBatch};
    /// let siv = AesSiv::new(&[4u8; 32]).unwrap();
    /// let mut batch = MessageBatch::new();
    /// assert!(batch.is_empty());
    /// batch.push(b"alice");
    /// batch.push(b"bob");
    /// assert_eq!(batch.len(), 2);
    /// let sealed: Vec<Vec<u8>> = batch.seal(&siv, BatchAd::Same(&[b"users"])).unwrap().map(<[u8]>::to_vec).collect();
    /// batch.clear();
    /// sealed.iter().for_each(|c| batch.push(c));
    /// let opened: Vec<&[u8]> = batch.open(&siv, BatchAd::Same(&[b"users"])).unwrap().collect();
    /// assert_eq!(opened, [b"alice".as_slice(), b"bob"]);
    /// ```
    pub fn seal(&mut self, siv: &AesSiv, ad: BatchAd<'_>) -> Result<BatchOutputs<'_>, Error> {
        resize_wiped(&mut self.out, self.data.len() + TAG_LEN * self.ends.len());
        siv.seal_batch(ad, &self.data, &self.ends, &mut self.out)?;
        // Every output byte was overwritten (the outputs are longer than the messages).
        (self.plain_out, self.cipher_len) = (false, 0);
        Ok(BatchOutputs::sealed(&self.out, &self.ends))
    }

    /// Encrypts every message as [`seal`](Self::seal) does, but straight
    /// into `out` after what it holds, each as `prefix || V || C`, and
    /// appends each one's end to `ends`. On error both are left as they were.
    pub(crate) fn seal_append(
        &self,
        siv: &AesSiv,
        ad: BatchAd<'_>,
        prefix: &[u8],
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<(), Error> {
        let head = (prefix.len() + TAG_LEN) as isize;
        self.append_with(head, out, ends, |data, ends, out| siv.seal_batch_after(ad, data, ends, prefix, out))
    }

    /// Decrypts every message as [`open_after`](Self::open_after) does,
    /// but straight into `out` after what it holds, and appends each
    /// plaintext's end to `ends`. On error both are left as they were (what
    /// was written is zeroed first).
    pub(crate) fn open_append(
        &self,
        siv: &AesSiv,
        ad: BatchAd<'_>,
        skip: usize,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<(), Error> {
        let head = -((skip + TAG_LEN) as isize);
        // On failure open_batch zeroes what it wrote.
        self.append_with(head, out, ends, |data, ends, out| siv.open_batch_after(ad, data, ends, skip, out))
    }

    /// Runs a batch call writing into `out` past what it holds, each output
    /// `grow` bytes longer than its message; appends their ends to `ends`.
    fn append_with(
        &self,
        grow: isize,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
        call: impl FnOnce(&[u8], &[usize], &mut [u8]) -> Result<usize, Error>,
    ) -> Result<(), Error> {
        let base = out.len();
        let len = (self.data.len() as isize).saturating_add(grow * self.ends.len() as isize);
        out.resize(base + len.max(0) as usize, 0);
        if let Err(e) = call(&self.data, &self.ends, &mut out[base..]) {
            out.truncate(base);
            return Err(e);
        }
        ends.extend(
            self.ends.iter().enumerate().map(|(i, &end)| (base + end).wrapping_add_signed(grow * (i as isize + 1))),
        );
        Ok(())
    }

    /// Verifies and decrypts every message with [`AesSiv::open_batch`]
    /// (all or nothing; [`Error::Batch`] names the first message that fails);
    /// yields each plaintext in order.
    ///
    /// ```
    /// use tessera::siv::{AesSiv, BatchAd, MessageBatch};
    /// let siv = AesSiv::new(&[4u8; 32]).unwrap();
    /// let mut batch = MessageBatch::new();
    /// assert!(batch.is_empty());
    /// batch.push(b"alice");
    /// batch.push(b"bob");
    /// assert_eq!(batch.len(), 2);
    /// let sealed: Vec<Vec<u8>> = batch.seal(&siv, BatchAd::Same(&[b"users"])).unwrap().map(<[u8]>::to_vec).collect();
    /// batch.clear();
    /// sealed.iter().for_each(|c| batch.push(c));
    /// let opened: Vec<&[u8]> = batch.open(&siv, BatchAd::Same(&[b"users"])).unwrap().collect();
    /// assert_eq!(opened, [b"alice".as_slice(), b"bob"]);
    /// ```
    pub fn open(&mut self, siv: &AesSiv, ad: BatchAd<'_>) -> Result<BatchOutputs<'_>, Error> {
        self.open_after(siv, ad, 0)
    }

    /// [`open`](Self::open) on messages that each start with `skip` bytes
    /// to pass over (a key ID prefix) before `V || C`.
    pub(crate) fn open_after(&mut self, siv: &AesSiv, ad: BatchAd<'_>, skip: usize) -> Result<BatchOutputs<'_>, Error> {
        // Messages shorter than V make this too small; open_batch names them.
        resize_wiped(&mut self.out, self.data.len().saturating_sub((TAG_LEN + skip) * self.ends.len()));
        siv.open_batch_after(ad, &self.data, &self.ends, skip, &mut self.out)?;
        (self.plain_out, self.cipher_len) = (true, self.data.len());
        Ok(BatchOutputs::opened_after(&self.out, &self.ends, skip))
    }
}

#[cfg(test)]
#[path = "outputs_tests.rs"]
mod tests;
