//! Many independent AES-SIV messages at once (RFC 5297, interleaved).
//!
//! Messages are taken [`LANES`] at a time. Within a group, the CMAC chains
//! of S2V advance together (one AES backend call per step carries one block
//! of every message still running), and so do the CTR blocks. With the same
//! associated data for every message, the associated-data part of S2V is
//! computed once for the whole batch. Results are byte for byte those of
//! [`AesSiv::seal_into`] and [`AesSiv::open_into`].

use aes::cipher::consts::U16;
use aes::cipher::{BlockCipherEncBackend, BlockCipherEncClosure, BlockSizeUser};
use zeroize::Zeroize;

use super::ctr::{counter, enc_many};
use super::s2v::{Job, LANES, run_lanes};
use super::{AesSiv, MAX_AD, TAG_LEN};
use crate::Error;
use crate::aes::Block;
use crate::aes::block::{dbl, load, tags_equal, xor, xor_int};

/// The associated data of a batch.
///
/// A nonce, if used, is simply the last component (RFC 5297 section 3
/// treats it as one more associated-data component).
#[derive(Clone, Copy, Debug)]
///
/// ```
/// use tessera::siv::{AesSiv, BatchAd};
/// let siv = AesSiv::new(&[2u8; 32]).unwrap();
/// let (data, ends) = (b"ab", [1, 2]);
/// let mut out = [0u8; 2 + 32];
/// let rows: [&[u8]; 2] = [b"row-1", b"row-2"];
/// siv.seal_batch(BatchAd::PerValue(&rows), data, &ends, &mut out).unwrap();
/// assert_eq!(out[..17], siv.seal(None, &[b"row-1"], b"a").unwrap()[..]);
/// let comps: [&[&[u8]]; 2] = [&[b"t", b"row-1"], &[b"t", b"row-2"]];
/// siv.seal_batch(BatchAd::PerValueComponents(&comps), data, &ends, &mut out).unwrap();
/// assert_eq!(out[17..], siv.seal(None, &[b"t", b"row-2"], b"b").unwrap()[..]);
/// ```
pub enum BatchAd<'a> {
    /// The same components for every message (for example a table and
    /// column name). The associated-data part of S2V runs once per batch.
    Same(&'a [&'a [u8]]),
    /// Exactly one component per message: `PerValue(ad)` gives message `i`
    /// the single component `ad[i]` (a row id, a per-record nonce), as
    /// [`Tweaks::PerValue`](crate::fpe::Tweaks::PerValue) gives each FPE
    /// value its tweak.
    PerValue(&'a [&'a [u8]]),
    /// Any number of components per message: `PerValueComponents(ad)` gives
    /// message `i` the components `ad[i]`.
    PerValueComponents(&'a [&'a [&'a [u8]]]),
}

impl BatchAd<'_> {
    fn check(&self, n: usize) -> Result<(), Error> {
        match *self {
            BatchAd::Same(a) if a.len() > MAX_AD => Err(Error::TooManyAd { got: a.len(), max: MAX_AD }),
            BatchAd::PerValue(a) if a.len() != n => {
                Err(Error::Format("batch needs one associated-data component per message"))
            }
            BatchAd::PerValueComponents(a) if a.len() != n => {
                Err(Error::Format("batch needs one associated-data list per message"))
            }
            BatchAd::PerValueComponents(a) => match a.iter().position(|c| c.len() > MAX_AD) {
                Some(index) => Err(Error::at(index, Error::TooManyAd { got: a[index].len(), max: MAX_AD })),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }
}

/// Checks that `ends` rises within `data` and, for decryption, that every
/// message holds at least its 16-byte V.
fn check_ends(data: &[u8], ends: &[usize], min: usize) -> Result<(), Error> {
    crate::error::check_ends(data.len(), ends, |_, span| {
        if span.len() < min {
            return Err(Error::Format("AES-SIV ciphertext is shorter than its 16-byte synthetic IV"));
        }
        Ok(())
    })
}

/// One message's CTR work: V, where its input starts in `src`, where its
/// output starts in `dst`, and its length.
#[derive(Clone, Copy, Default)]
struct CtrItem {
    v: Block,
    src: usize,
    dst: usize,
    len: usize,
}

struct BatchCtr<'a> {
    items: &'a [CtrItem],
    src: &'a [u8],
    dst: &'a mut [u8],
}

impl BlockSizeUser for BatchCtr<'_> {
    type BlockSize = U16;
}

/// Keystream blocks generated per backend call: two per message of a full
/// group of short messages.
const KS: usize = 2 * LANES;

/// `d = s ^ keystream`, whole blocks with one vector XOR each.
#[inline(always)]
fn xor_blocks(d: &mut [u8], s: &[u8], ks: &[Block]) {
    let full = d.len() / 16;
    for ((d, s), k) in d.chunks_exact_mut(16).zip(s.chunks_exact(16)).zip(ks) {
        d.copy_from_slice(&xor(&load(s), k));
    }
    for (j, b) in d[16 * full..].iter_mut().enumerate() {
        *b = s[16 * full + j] ^ ks[full][j];
    }
}

/// XORs `ks`, which holds exactly the keystream blocks of `items` in
/// order, into their outputs.
#[inline(always)]
fn xor_items(items: &[CtrItem], ks: &[Block], src: &[u8], dst: &mut [u8]) {
    let mut k = 0;
    for it in items {
        let nb = it.len.div_ceil(16);
        xor_blocks(&mut dst[it.dst..it.dst + it.len], &src[it.src..it.src + it.len], &ks[k..k + nb]);
        k += nb;
    }
}

#[inline(always)]
fn counters(q: u128, first: usize, ks: &mut [Block]) {
    for (b, blk) in ks.iter_mut().enumerate() {
        *blk = q.wrapping_add((first + b) as u128).to_be_bytes();
    }
}

impl BlockCipherEncClosure for BatchCtr<'_> {
    #[inline(always)]
    fn call<B: BlockCipherEncBackend<BlockSize = U16>>(self, backend: &B) {
        let mut ks = [[0u8; 16]; KS];
        // Keystream for items[first..i] is pending in ks[..k].
        let (mut k, mut first) = (0, 0);
        for (i, it) in self.items.iter().enumerate() {
            let nb = it.len.div_ceil(16);
            if k + nb > KS {
                enc_many(backend, &mut ks[..k]);
                xor_items(&self.items[first..i], &ks[..k], self.src, self.dst);
                (k, first) = (0, i);
                if nb > KS {
                    // A long message: alone, KS blocks at a time.
                    let q = counter(&it.v);
                    let d = self.dst[it.dst..it.dst + it.len].chunks_mut(16 * KS);
                    for (c, (d, s)) in d.zip(self.src[it.src..it.src + it.len].chunks(16 * KS)).enumerate() {
                        let n = d.len().div_ceil(16);
                        counters(q, c * KS, &mut ks[..n]);
                        enc_many(backend, &mut ks[..n]);
                        xor_blocks(d, s, &ks[..n]);
                    }
                    first = i + 1;
                    continue;
                }
            }
            counters(counter(&it.v), 0, &mut ks[k..k + nb]);
            k += nb;
        }
        enc_many(backend, &mut ks[..k]);
        xor_items(&self.items[first..], &ks[..k], self.src, self.dst);
    }
}

impl AesSiv {
    /// D after the associated data of messages `g0..g0 + d.len()`.
    fn batch_d(&self, ad: BatchAd<'_>, same: &Block, g0: usize, d: &mut [Block]) {
        if let BatchAd::Same(_) = ad {
            d.fill(*same);
            return;
        }
        let mut jobs = [Job::EMPTY; LANES];
        let mut macs = [[0u8; 16]; LANES];
        match ad {
            BatchAd::Same(_) => unreachable!("handled above"),
            BatchAd::PerValue(a) => {
                for (job, c) in jobs.iter_mut().zip(&a[g0..g0 + d.len()]) {
                    *job = Job::cmac(&self.mac, c);
                }
                run_lanes(self.mac.aes(), &jobs[..d.len()], &mut macs);
                for (d, m) in d.iter_mut().zip(&macs) {
                    *d = xor_int(&self.d0_dbl, m);
                }
            }
            BatchAd::PerValueComponents(a) => {
                let a = &a[g0..g0 + d.len()];
                d.fill(self.d0);
                let most = a.iter().map(|c| c.len()).max().unwrap_or(0);
                // Component c of every message that has one, side by side.
                let mut who = [0u8; LANES];
                for c in 0..most {
                    let mut n = 0;
                    for (i, comps) in a.iter().enumerate() {
                        if let Some(s) = comps.get(c) {
                            jobs[n] = Job::cmac(&self.mac, s);
                            who[n] = i as u8;
                            n += 1;
                        }
                    }
                    run_lanes(self.mac.aes(), &jobs[..n], &mut macs);
                    for (&i, m) in who[..n].iter().zip(&macs) {
                        d[i as usize] = xor_int(&dbl(&d[i as usize]), m);
                    }
                }
            }
        }
    }

    /// D for [`BatchAd::Same`] (the AES-SIV D of those components), else
    /// unused.
    fn batch_same_d(&self, ad: BatchAd<'_>) -> Block {
        match ad {
            BatchAd::Same(a) => self.fold_d(None, a),
            _ => [0; 16],
        }
    }

    /// Encrypts many messages at once. `data` holds the plaintexts back to
    /// back and `ends[i]` is where message `i` ends (message 0 is
    /// `data[..ends[0]]`). Each output `V || C` is 16 bytes longer than its
    /// plaintext and the outputs are written back to back into `out`:
    /// message `i`'s starts at `ends[i - 1] + 16 * i`. Returns the total
    /// written, `ends.last() + 16 * ends.len()`. Allocates nothing.
    ///
    /// Identical to calling [`AesSiv::seal_into`] on each message (with
    /// `nonce = None`; a nonce is just the last component in `ad`), several
    /// times faster for short messages: up to 64 messages share every AES
    /// call.
    ///
    /// Errors, before anything is written: [`Error::BufferTooSmall`],
    /// [`Error::TooManyAd`], [`Error::Format`] for an `ad` of the wrong
    /// count, [`Error::Batch`] naming a message whose end is out of order.
    ///
    /// ```
    /// use tessera::siv::{AesSiv, BatchAd};
    /// let siv = AesSiv::new(&[8u8; 32]).unwrap();
    /// let data = b"alicebobcarol";
    /// let ends = [5, 8, 13];
    /// let mut out = vec![0u8; data.len() + 16 * ends.len()];
    /// let n = siv.seal_batch(BatchAd::Same(&[b"users.name"]), data, &ends, &mut out).unwrap();
    /// assert_eq!(n, out.len());
    /// assert_eq!(out[21..40], siv.seal(None, &[b"users.name"], b"bob").unwrap()[..]);
    ///
    /// // And back: the ends of the ciphertexts are 16 bytes per message further.
    /// let cends = [21, 40, 61];
    /// let mut back = vec![0u8; data.len()];
    /// siv.open_batch(BatchAd::Same(&[b"users.name"]), &out, &cends, &mut back).unwrap();
    /// assert_eq!(&back, data);
    /// ```
    pub fn seal_batch(&self, ad: BatchAd<'_>, data: &[u8], ends: &[usize], out: &mut [u8]) -> Result<usize, Error> {
        self.seal_batch_after(ad, data, ends, &[], out)
    }

    /// [`seal_batch`](Self::seal_batch) writing `prefix` (a key ID prefix)
    /// before each `V || C`: message `i`'s output starts at
    /// `ends[i - 1] + (prefix.len() + 16) * i`.
    pub(crate) fn seal_batch_after(
        &self,
        ad: BatchAd<'_>,
        data: &[u8],
        ends: &[usize],
        prefix: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        check_ends(data, ends, 0)?;
        ad.check(ends.len())?;
        let head = prefix.len() + TAG_LEN;
        let total = ends.last().map_or(0, |&e| e + head * ends.len());
        if out.len() < total {
            return Err(Error::BufferTooSmall { got: out.len(), needed: total });
        }
        let same = self.batch_same_d(ad);
        let mut d = [[0u8; 16]; LANES];
        let mut v = [[0u8; 16]; LANES];
        let mut jobs = [Job::EMPTY; LANES];
        let mut items = [CtrItem::default(); LANES];
        for g0 in (0..ends.len()).step_by(LANES) {
            let g = (ends.len() - g0).min(LANES);
            self.batch_d(ad, &same, g0, &mut d[..g]);
            for k in 0..g {
                let i = g0 + k;
                let start = if i == 0 { 0 } else { ends[i - 1] };
                jobs[k] = Job::last(&self.mac, &d[k], &data[start..ends[i]]);
                items[k] = CtrItem { v: [0; 16], src: start, dst: start + head * (i + 1), len: ends[i] - start };
            }
            run_lanes(self.mac.aes(), &jobs[..g], &mut v);
            for (it, v) in items[..g].iter_mut().zip(&v) {
                it.v = *v;
                // A few bytes: a loop, not a call to memcpy.
                for (o, p) in out[it.dst - head..].iter_mut().zip(prefix) {
                    *o = *p;
                }
                out[it.dst - TAG_LEN..it.dst].copy_from_slice(v);
            }
            self.ctr.with_enc_backend(BatchCtr { items: &items[..g], src: data, dst: out });
        }
        d.zeroize();
        Ok(total)
    }

    /// Decrypts many `V || C` messages at once: `data` holds them back to
    /// back, `ends[i]` is where message `i` ends, and the plaintexts are
    /// written back to back into `out` (message `i`'s starts at
    /// `ends[i - 1] - 16 * i`). Returns the total plaintext length,
    /// `ends.last() - 16 * ends.len()`. Allocates nothing on success.
    ///
    /// All or nothing: if any message fails verification, all of
    /// `out[..total]` is zeroed and the error is [`Error::Batch`] naming
    /// the first failing message, with [`Error::Authentication`] inside.
    /// Identical results to [`AesSiv::open_into`] on each message.
    ///
    /// ```
    /// use tessera::{Error, siv::{AesSiv, BatchAd}};
    /// let siv = AesSiv::new(&[8u8; 32]).unwrap();
    /// let ids: [&[u8]; 2] = [b"row-1", b"row-2"];
    /// let mut ct = vec![0u8; 2 * 16 + 6];
    /// siv.seal_batch(BatchAd::PerValue(&ids), b"123456", &[3, 6], &mut ct).unwrap();
    /// let mut pt = [0u8; 6];
    /// siv.open_batch(BatchAd::PerValue(&ids), &ct, &[19, 38], &mut pt).unwrap();
    /// assert_eq!(&pt, b"123456");
    /// // Swapped row ids: message 0 no longer verifies, nothing is released.
    /// let swapped: [&[u8]; 2] = [b"row-2", b"row-1"];
    /// let err = siv.open_batch(BatchAd::PerValue(&swapped), &ct, &[19, 38], &mut pt).unwrap_err();
    /// assert!(matches!(err, Error::Batch { index: 0, .. }));
    /// assert_eq!(pt, [0u8; 6]);
    /// ```
    pub fn open_batch(&self, ad: BatchAd<'_>, data: &[u8], ends: &[usize], out: &mut [u8]) -> Result<usize, Error> {
        self.open_batch_after(ad, data, ends, 0, out)
    }

    /// [`open_batch`](Self::open_batch) on messages that each start with
    /// `skip` bytes to pass over (a key ID prefix) before `V || C`.
    pub(crate) fn open_batch_after(
        &self,
        ad: BatchAd<'_>,
        data: &[u8],
        ends: &[usize],
        skip: usize,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let head = skip + TAG_LEN;
        check_ends(data, ends, head)?;
        ad.check(ends.len())?;
        let total = ends.last().map_or(0, |&e| e - head * ends.len());
        if out.len() < total {
            return Err(Error::BufferTooSmall { got: out.len(), needed: total });
        }
        let same = self.batch_same_d(ad);
        let mut d = [[0u8; 16]; LANES];
        let mut v = [[0u8; 16]; LANES];
        let mut items = [CtrItem::default(); LANES];
        let mut failed = None;
        'groups: for g0 in (0..ends.len()).step_by(LANES) {
            let g = (ends.len() - g0).min(LANES);
            for (k, it) in items[..g].iter_mut().enumerate() {
                let i = g0 + k;
                let start = if i == 0 { 0 } else { ends[i - 1] };
                it.v = load(&data[start + skip..]);
                it.src = start + head;
                it.dst = start - head * i;
                it.len = ends[i] - it.src;
            }
            self.ctr.with_enc_backend(BatchCtr { items: &items[..g], src: data, dst: out });
            self.batch_d(ad, &same, g0, &mut d[..g]);
            let mut jobs = [Job::EMPTY; LANES];
            for (k, it) in items[..g].iter().enumerate() {
                jobs[k] = Job::last(&self.mac, &d[k], &out[it.dst..it.dst + it.len]);
            }
            run_lanes(self.mac.aes(), &jobs[..g], &mut v);
            for (k, (it, v)) in items[..g].iter().zip(&v).enumerate() {
                if !tags_equal(v, &it.v) {
                    failed = Some(g0 + k);
                    break 'groups;
                }
            }
        }
        d.zeroize();
        v.zeroize();
        match failed {
            None => Ok(total),
            Some(index) => {
                out[..total].zeroize();
                Err(Error::at(index, Error::Authentication))
            }
        }
    }
}
