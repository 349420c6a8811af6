//! Many AES-SIV values at once through [`MessageBatch`]: the associated
//! data's part of S2V runs once per batch and up to 64 values share each
//! AES call, with the same results as one value at a time.

use crate::siv::{AesSiv, BatchAd, MessageBatch};

use super::super::error::{Error, Result};
use super::super::model::OutputPrefix;
use super::{SivKey, SivTransform, TINK_PREFIX_LEN, TINK_START_BYTE};

/// The bytes every ciphertext of `k` starts with (TINK: 0x01 and the key
/// ID; RAW: none), and how many there are.
fn prefix(k: &SivKey) -> ([u8; TINK_PREFIX_LEN], usize) {
    let mut p = [TINK_START_BYTE, 0, 0, 0, 0];
    p[1..].copy_from_slice(&k.id.to_be_bytes());
    (p, if k.prefix == OutputPrefix::Tink { TINK_PREFIX_LEN } else { 0 })
}

/// An error about value `index` of a batch.
fn at(index: usize) -> impl Fn(Error) -> Error {
    move |e| Error::Batch { index, source: Box::new(e) }
}

/// Appends one value to `out` and its end to `ends`.
fn append(out: &mut Vec<u8>, ends: &mut Vec<usize>, value: &[u8]) {
    out.extend_from_slice(value);
    ends.push(out.len());
}

impl SivTransform {
    /// Encrypts every message of `batch` under the primary with associated
    /// data `ad`, appending each ciphertext (prefix, then `V || C`) to `out`
    /// and its end to `ends`: the same bytes as [`encrypt`](Self::encrypt)
    /// on each.
    ///
    /// ```
    /// use tessera::keyset::{Keyset, SivParams, TransformParams};
    /// use tessera::siv::MessageBatch;
    /// let mut ks = Keyset::new();
    /// ks.add_transform("emails", TransformParams::Siv(SivParams::default())).unwrap();
    /// let siv = ks.siv("emails").unwrap();
    /// let mut batch = MessageBatch::new();
    /// batch.push(b"alice@example.com");
    /// batch.push(b"bob@example.com");
    /// let (mut out, mut ends) = (Vec::new(), Vec::new());
    /// siv.encrypt_batch(b"users.email", &mut batch, &mut out, &mut ends).unwrap();
    /// assert_eq!(out[..ends[0]], siv.encrypt(b"users.email", b"alice@example.com").unwrap()[..]);
    ///
    /// let mut cts = MessageBatch::new();
    /// cts.push(&out[..ends[0]]);
    /// cts.push(&out[ends[0]..ends[1]]);
    /// let (mut back, mut back_ends) = (Vec::new(), Vec::new());
    /// siv.decrypt_batch(b"users.email", &mut cts, &mut back, &mut back_ends).unwrap();
    /// assert_eq!(&back[back_ends[0]..], b"bob@example.com");
    /// ```
    pub fn encrypt_batch(
        &self,
        ad: &[u8],
        batch: &mut MessageBatch,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<()> {
        let (cipher, (p, n)) = self.sealing();
        Ok(batch.seal_append(cipher, BatchAd::Same(&[ad]), &p[..n], out, ends)?)
    }

    /// Encrypts every message of `batch` under the primary, as
    /// [`encrypt_batch`](Self::encrypt_batch), handing each ciphertext to
    /// `put` as its prefix (empty for a RAW key) and `V || C`, in order,
    /// straight from the batch's buffer (no copy in between).
    ///
    /// ```
    /// use tessera::keyset::{Keyset, SivParams, TransformParams};
    /// use tessera::siv::MessageBatch;
    /// let mut ks = Keyset::new();
    /// ks.add_transform("emails", TransformParams::Siv(SivParams::default())).unwrap();
    /// let siv = ks.siv("emails").unwrap();
    /// let mut batch = MessageBatch::new();
    /// batch.push(b"alice@example.com");
    /// let mut cts = Vec::new();
    /// siv.encrypt_batch_each(b"users.email", &mut batch, |prefix, ct| cts.push([prefix, ct].concat())).unwrap();
    /// assert_eq!(cts[0], siv.encrypt(b"users.email", b"alice@example.com").unwrap());
    /// ```
    pub fn encrypt_batch_each(
        &self,
        ad: &[u8],
        batch: &mut MessageBatch,
        mut put: impl FnMut(&[u8], &[u8]),
    ) -> Result<()> {
        let (cipher, (p, n)) = self.sealing();
        for ct in batch.seal(cipher, BatchAd::Same(&[ad]))? {
            put(&p[..n], ct);
        }
        Ok(())
    }

    /// Decrypts every message of `batch` (prefix, then `V || C`), appending
    /// each plaintext to `out` and its end to `ends`. When every message
    /// carries the TINK prefix of one enabled key they are opened together,
    /// straight into `out`; otherwise, or if one fails there, each goes
    /// through [`decrypt`](Self::decrypt), so the results are the same. An
    /// error is [`Error::Batch`] naming the first value that fails; `out`
    /// and `ends` are then left as they were.
    pub fn decrypt_batch(
        &self,
        ad: &[u8],
        batch: &mut MessageBatch,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<()> {
        if let Some(cipher) = self.common_tink_cipher(batch)
            && batch.open_append(cipher, BatchAd::Same(&[ad]), TINK_PREFIX_LEN, out, ends).is_ok()
        {
            return Ok(());
        }
        each(batch.messages(), |m| self.decrypt(ad, m), |pt| append(out, ends, pt))
    }

    /// Decrypts every message of `batch`, as
    /// [`decrypt_batch`](Self::decrypt_batch), handing each plaintext to
    /// `put` in order once all of them are known to open (on error `put`
    /// is not called).
    ///
    /// ```
    /// use tessera::keyset::{Keyset, SivParams, TransformParams};
    /// use tessera::siv::MessageBatch;
    /// let mut ks = Keyset::new();
    /// ks.add_transform("emails", TransformParams::Siv(SivParams::default())).unwrap();
    /// let siv = ks.siv("emails").unwrap();
    /// let mut batch = MessageBatch::new();
    /// batch.push(&siv.encrypt(b"ad", b"alice").unwrap());
    /// let mut pts = Vec::new();
    /// siv.decrypt_batch_each(b"ad", &mut batch, |pt| pts.push(pt.to_vec())).unwrap();
    /// assert_eq!(pts, [b"alice"]);
    /// ```
    pub fn decrypt_batch_each(&self, ad: &[u8], batch: &mut MessageBatch, put: impl FnMut(&[u8])) -> Result<()> {
        if let Some(cipher) = self.common_tink_cipher(batch)
            && let Ok(pts) = batch.open_after(cipher, BatchAd::Same(&[ad]), TINK_PREFIX_LEN)
        {
            pts.for_each(put);
            return Ok(());
        }
        // Not all under one TINK key, or one did not open under it: each as `decrypt` sees it.
        each(batch.messages(), |m| self.decrypt(ad, m), put)
    }

    /// Decrypts every message of `batch` and encrypts it again under the
    /// primary (as [`rewrap`](Self::rewrap) on each), appending the new
    /// ciphertexts to `out` and their ends to `ends`. When every message
    /// carries the TINK prefix of one enabled key they are opened and sealed
    /// again inside the batch, whose buffers alone hold the plaintexts;
    /// otherwise each goes through [`rewrap`](Self::rewrap). The plaintexts
    /// are zeroized before this returns, and `batch` is left empty. An error
    /// is [`Error::Batch`] naming the first value that fails; `out` and
    /// `ends` are then left as they were.
    ///
    /// ```
    /// use tessera::keyset::{Keyset, SivParams, TransformParams};
    /// use tessera::siv::MessageBatch;
    /// let mut ks = Keyset::new();
    /// ks.add_transform("emails", TransformParams::Siv(SivParams::default())).unwrap();
    /// let old = ks.siv("emails").unwrap().encrypt(b"ad", b"alice").unwrap();
    /// let v2 = ks.add_key("emails").unwrap();
    /// ks.promote("emails", v2).unwrap();
    /// let siv = ks.siv("emails").unwrap();
    /// let mut batch = MessageBatch::new();
    /// batch.push(&old);
    /// let (mut out, mut ends) = (Vec::new(), Vec::new());
    /// siv.rewrap_batch(b"ad", &mut batch, &mut out, &mut ends).unwrap();
    /// assert_eq!(out, siv.encrypt(b"ad", b"alice").unwrap());
    /// assert!(batch.is_empty());
    /// ```
    pub fn rewrap_batch(
        &self,
        ad: &[u8],
        batch: &mut MessageBatch,
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<()> {
        let (to, (p, n)) = self.sealing();
        let resealed = self.common_tink_cipher(batch).and_then(|from| {
            batch.reseal((from, TINK_PREFIX_LEN), (to, &p[..n]), BatchAd::Same(&[ad]), out, ends).ok()
        });
        let done = match resealed {
            // Opened: the seal's outcome (the batch now holds wiped plaintexts).
            Some(sealed) => sealed.map_err(Into::into),
            // Not all under one TINK key, or one did not open under it: each as `rewrap` sees it.
            None => each(batch.messages(), |m| self.rewrap(ad, m), |ct| append(out, ends, ct)),
        };
        batch.clear();
        done
    }

    /// The primary's cipher and the prefix of its ciphertexts.
    fn sealing(&self) -> (&AesSiv, ([u8; TINK_PREFIX_LEN], usize)) {
        let k = self.primary_key();
        (k.cipher.as_ref().expect("validated: the primary is enabled"), prefix(k))
    }

    /// The cipher of the one enabled TINK key every message's prefix names,
    /// if there is one.
    fn common_tink_cipher(&self, batch: &MessageBatch) -> Option<&AesSiv> {
        let mut msgs = batch.messages();
        let first = msgs.next()?;
        let id = tink_id(first)?;
        if !msgs.all(|m| tink_id(m) == Some(id)) {
            return None;
        }
        let mut keys = self.keys.iter().filter(|k| k.id == id && k.prefix == OutputPrefix::Tink);
        match (keys.next(), keys.next()) {
            (Some(k), None) => k.cipher.as_ref(),
            _ => None,
        }
    }
}

/// One message at a time through `f` (decrypt or rewrap); `put` sees the
/// results only once every one has succeeded.
fn each<'m, T: AsRef<[u8]>>(
    messages: impl Iterator<Item = &'m [u8]>,
    f: impl Fn(&[u8]) -> Result<T>,
    mut put: impl FnMut(&[u8]),
) -> Result<()> {
    let mut done = Vec::new();
    for (i, m) in messages.enumerate() {
        done.push(f(m).map_err(at(i))?);
    }
    done.iter().for_each(|r| put(r.as_ref()));
    Ok(())
}

/// The key ID in a TINK prefix (a message at least as long as prefix and V).
fn tink_id(m: &[u8]) -> Option<u32> {
    if m.len() < TINK_PREFIX_LEN + crate::siv::TAG_LEN || m[0] != TINK_START_BYTE {
        return None;
    }
    Some(u32::from_be_bytes(m[1..TINK_PREFIX_LEN].try_into().expect("4 bytes")))
}

#[cfg(test)]
mod tests {
    use super::super::super::{Keyset, SivParams, TransformParams};
    use super::*;

    fn batch_of(values: &[&[u8]]) -> MessageBatch {
        let mut b = MessageBatch::new();
        values.iter().for_each(|v| b.push(v));
        b
    }

    fn split(out: &[u8], ends: &[usize]) -> Vec<Vec<u8>> {
        let starts = std::iter::once(0).chain(ends.iter().copied());
        starts.zip(ends).map(|(s, &e)| out[s..e].to_vec()).collect()
    }

    #[test]
    fn batches_equal_one_at_a_time_across_rotation() {
        let mut ks = Keyset::new();
        let v1 = ks.add_transform("t", TransformParams::Siv(SivParams::default())).unwrap();
        let old = ks.siv("t").unwrap();
        let values: [&[u8]; 3] = [b"a", b"", b"a longer value of forty-odd bytes, more than a block"];
        let (mut out, mut ends) = (Vec::new(), Vec::new());
        old.encrypt_batch(b"ad", &mut batch_of(&values), &mut out, &mut ends).unwrap();
        let cts1 = split(&out, &ends);
        for (ct, v) in cts1.iter().zip(values) {
            assert_eq!(ct, &old.encrypt(b"ad", v).unwrap());
        }
        let v2 = ks.add_key("t").unwrap();
        ks.promote("t", v2).unwrap();
        let new = ks.siv("t").unwrap();
        assert_ne!(v1, v2);
        // A batch mixing both versions takes the one-at-a-time path.
        let mixed: Vec<Vec<u8>> = vec![cts1[0].clone(), new.encrypt(b"ad", b"b").unwrap(), cts1[2].clone()];
        let refs: Vec<&[u8]> = mixed.iter().map(Vec::as_slice).collect();
        let (mut pt, mut pt_ends) = (Vec::new(), Vec::new());
        new.decrypt_batch(b"ad", &mut batch_of(&refs), &mut pt, &mut pt_ends).unwrap();
        assert_eq!(split(&pt, &pt_ends), [values[0].to_vec(), b"b".to_vec(), values[2].to_vec()]);
        // Rewrap moves every value to the primary, as `rewrap` does.
        let (mut re, mut re_ends) = (Vec::new(), Vec::new());
        new.rewrap_batch(b"ad", &mut batch_of(&refs), &mut re, &mut re_ends).unwrap();
        for (r, m) in split(&re, &re_ends).iter().zip(&mixed) {
            assert_eq!(r, &new.rewrap(b"ad", m).unwrap());
            assert_eq!(tink_id(r), Some(v2));
        }
        // All under version 1: opened and sealed again inside the batch, appended after what `re` held.
        let refs1: Vec<&[u8]> = cts1.iter().map(Vec::as_slice).collect();
        let mut batch = batch_of(&refs1);
        new.rewrap_batch(b"ad", &mut batch, &mut re, &mut re_ends).unwrap();
        assert!(batch.is_empty());
        let all = split(&re, &re_ends);
        assert_eq!(all[3..], values.map(|v| new.encrypt(b"ad", v).unwrap()));
    }

    #[test]
    fn a_failing_value_is_named_and_nothing_is_returned() {
        let mut ks = Keyset::new();
        ks.add_transform("t", TransformParams::Siv(SivParams::default())).unwrap();
        let siv = ks.siv("t").unwrap();
        let (mut out, mut ends) = (Vec::new(), Vec::new());
        siv.encrypt_batch(b"ad", &mut batch_of(&[b"x", b"y", b"z"]), &mut out, &mut ends).unwrap();
        let mut cts = split(&out, &ends);
        cts[1][7] ^= 1;
        let refs: Vec<&[u8]> = cts.iter().map(Vec::as_slice).collect();
        let (mut pt, mut pt_ends) = (vec![9u8], vec![1]);
        let err = siv.decrypt_batch(b"ad", &mut batch_of(&refs), &mut pt, &mut pt_ends).unwrap_err();
        assert!(
            matches!(err, Error::Batch { index: 1, ref source } if matches!(**source, Error::NoMatchingKey { .. }))
        );
        assert_eq!((&pt, &pt_ends), (&vec![9u8], &vec![1]));
        let err = siv.rewrap_batch(b"ad", &mut batch_of(&refs), &mut pt, &mut pt_ends).unwrap_err();
        assert!(matches!(err, Error::Batch { index: 1, .. }), "{err:?}");
        assert_eq!((pt, pt_ends), (vec![9u8], vec![1]));
    }
}
