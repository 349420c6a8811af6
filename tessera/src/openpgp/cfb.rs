//! OpenPGP CFB mode (RFC 9580 §5.13.1: CFB-128 without resynchronisation,
//! as used by SEIPD v1 and the SKESK v4 encrypted session key).

use crate::aes::Aes;

/// A CFB stream: encrypts or decrypts any number of bytes in place.
pub(crate) struct Cfb {
    /// The key; its AES-NI schedule, where the CPU has AES-NI, runs the
    /// chains of whole blocks.
    aes: Aes,
    /// E(previous ciphertext block), with the bytes already used replaced
    /// by the ciphertext they produced.
    ks: [u8; 16],
    pos: usize,
}

impl std::fmt::Debug for Cfb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Cfb(..)")
    }
}

impl Cfb {
    /// CFB with an all-zero IV under `aes`: whole blocks on the AES-NI
    /// chain where `aes` has an AES-NI schedule (the CPU has AES-NI and the
    /// `TESSERA_CPU` cap lets it), else through the `aes` crate's cipher.
    pub(crate) fn new(aes: Aes) -> Self {
        let mut ks = [0u8; 16];
        aes.encrypt_block(&mut ks);
        Cfb { aes, ks, pos: 0 }
    }

    /// CFB with an all-zero IV under `key` (16, 24 or 32 octets), as [`Cfb::new`].
    pub(crate) fn with_key(key: &[u8]) -> Result<Self, crate::Error> {
        Ok(Cfb::new(Aes::new(key)?))
    }

    /// Encrypts `data` in place.
    pub(crate) fn encrypt(&mut self, data: &mut [u8]) {
        self.encrypt_from(None, data);
    }

    /// Encrypts `src` into `dst` (of the same length).
    pub(crate) fn encrypt_to(&mut self, src: &[u8], dst: &mut [u8]) {
        self.encrypt_from(Some(src), dst);
    }

    /// Encrypts `dst` in place, or `src` into it: byte by byte up to a
    /// block boundary, whole blocks on the chain, then the rest.
    fn encrypt_from(&mut self, src: Option<&[u8]>, dst: &mut [u8]) {
        debug_assert!(src.is_none_or(|s| s.len() == dst.len()));
        let head = if self.pos == 16 { 0 } else { (16 - self.pos).min(dst.len()) };
        self.encrypt_bytes(src.map(|s| &s[..head]), &mut dst[..head]);
        let whole = head + (dst.len() - head) / 16 * 16;
        if whole > head {
            // pos is 16: ks holds the last ciphertext block.
            let (s, d) = (src.map(|s| &s[head..whole]), &mut dst[head..whole]);
            self.ks = self.encrypt_blocks(s, d);
        }
        self.encrypt_bytes(src.map(|s| &s[whole..]), &mut dst[whole..]);
    }

    /// Whole blocks after the ciphertext block in `ks`; returns the last
    /// ciphertext block.
    fn encrypt_blocks(&self, src: Option<&[u8]>, dst: &mut [u8]) -> [u8; 16] {
        #[cfg(target_arch = "x86_64")]
        if let Some(keys) = self.aes.ni() {
            return crate::aes::ni_cfb::cfb(keys, &self.ks, src, dst, crate::Direction::Encrypt);
        }
        let mut c = self.ks;
        for (i, d) in dst.chunks_exact_mut(16).enumerate() {
            self.aes.encrypt_block(&mut c);
            let p = src.map_or(&*d, |s| &s[16 * i..16 * i + 16]);
            c = core::array::from_fn(|j| c[j] ^ p[j]);
            d.copy_from_slice(&c);
        }
        c
    }

    /// Byte at a time, from `src` or in place.
    fn encrypt_bytes(&mut self, src: Option<&[u8]>, dst: &mut [u8]) {
        for i in 0..dst.len() {
            if self.pos == 16 {
                self.aes.encrypt_block(&mut self.ks);
                self.pos = 0;
            }
            self.ks[self.pos] ^= src.map_or(dst[i], |s| s[i]);
            dst[i] = self.ks[self.pos];
            self.pos += 1;
        }
    }

    /// Decrypts `data` in place: byte by byte up to a block boundary,
    /// whole blocks side by side (each keystream block is the encryption of
    /// a known ciphertext block), then the rest.
    pub(crate) fn decrypt(&mut self, data: &mut [u8]) {
        let head = if self.pos == 16 { 0 } else { (16 - self.pos).min(data.len()) };
        self.decrypt_bytes(&mut data[..head]);
        let whole = head + (data.len() - head) / 16 * 16;
        if whole > head {
            // pos is 16: ks holds the last ciphertext block.
            self.ks = self.decrypt_blocks(&mut data[head..whole]);
        }
        self.decrypt_bytes(&mut data[whole..]);
    }

    /// Byte at a time.
    fn decrypt_bytes(&mut self, data: &mut [u8]) {
        for b in data {
            if self.pos == 16 {
                self.aes.encrypt_block(&mut self.ks);
                self.pos = 0;
            }
            let c = *b;
            *b ^= self.ks[self.pos];
            self.ks[self.pos] = c;
            self.pos += 1;
        }
    }

    /// Whole blocks after the ciphertext block in `ks`; returns the last
    /// ciphertext block. Without AES-NI, 64 blocks at a time through the
    /// `aes` crate's many-block call.
    fn decrypt_blocks(&self, mut data: &mut [u8]) -> [u8; 16] {
        #[cfg(target_arch = "x86_64")]
        if let Some(keys) = self.aes.ni() {
            return crate::aes::ni_cfb::cfb(keys, &self.ks, None, data, crate::Direction::Decrypt);
        }
        let mut prev = self.ks;
        while !data.is_empty() {
            let mut scratch = [[0u8; 16]; 64];
            let k = (data.len() / 16).min(64);
            scratch[0] = prev;
            for j in 1..k {
                scratch[j].copy_from_slice(&data[(j - 1) * 16..j * 16]);
            }
            self.aes.encrypt_blocks(&mut scratch[..k]);
            prev.copy_from_slice(&data[(k - 1) * 16..k * 16]);
            for (j, ks) in scratch[..k].iter().enumerate() {
                for (d, s) in data[j * 16..j * 16 + 16].iter_mut().zip(ks) {
                    *d ^= s;
                }
            }
            data = &mut data[k * 16..];
        }
        prev
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decrypt_inverts_encrypt_for_any_split() {
        let data: Vec<u8> = (0..3000).map(|i| (i * 13) as u8).collect();
        let aes = Aes::new(&[9u8; 32]).unwrap();
        let mut ct = data.clone();
        let mut e = Cfb::new(aes.clone());
        for p in ct.chunks_mut(37) {
            e.encrypt(p);
        }
        for split in [1usize, 5, 16, 17, 1024, 3000] {
            let mut pt = ct.clone();
            let mut d = Cfb::new(aes.clone());
            for p in pt.chunks_mut(split) {
                d.decrypt(p);
            }
            assert_eq!(pt, data, "split {split}");
        }
        // CFB-128 of a zero IV: first block is P0 ^ E(0).
        let mut z = [0u8; 16];
        aes.encrypt_block(&mut z);
        assert_eq!(ct[0], data[0] ^ z[0]);
    }

    /// Capped at the portable level (as `TESSERA_CPU=portable`), the
    /// stream takes no AES-NI schedule and gives the same octets.
    #[test]
    fn the_cpu_cap_reaches_the_chain() {
        use crate::cpu::{Level, with_cap};
        let key = [0x17u8; 32];
        let data: Vec<u8> = (0..1000).map(|i| (i * 31) as u8).collect();
        let run = || {
            let mut c = Cfb::with_key(&key).unwrap();
            let mut ct = data.clone();
            c.encrypt(&mut ct);
            #[cfg(target_arch = "x86_64")]
            let kernel = c.aes.ni().is_some();
            #[cfg(not(target_arch = "x86_64"))]
            let kernel = false;
            (ct, kernel)
        };
        let (portable, kernel) = with_cap(Level::Portable, run);
        assert!(!kernel);
        assert_eq!(portable, run().0);
    }

    /// Splits `len` at the cut points `cuts` (sorted, deduplicated, inside).
    fn pieces(len: usize, cuts: &[usize]) -> Vec<(usize, usize)> {
        let mut at: Vec<usize> = cuts.iter().map(|c| c % (len + 1)).collect();
        at.extend([0, len]);
        at.sort_unstable();
        at.dedup();
        at.windows(2).map(|w| (w[0], w[1])).collect()
    }

    proptest::proptest! {
        /// Any split of the writes, in place or from another buffer, on the
        /// AES-NI chain or the portable blocks, gives the one-shot ciphertext.
        #[test]
        fn encryption_is_independent_of_write_sizes(
            key_len in proptest::sample::select(vec![16usize, 24, 32]),
            data in proptest::collection::vec(proptest::num::u8::ANY, 0..700),
            cuts in proptest::collection::vec(0usize..1000, 0..12),
        ) {
            let key: Vec<u8> = (0..key_len as u8).map(|i| i ^ 0xa5).collect();
            let mut one = data.clone();
            Cfb::new(Aes::new(&key).unwrap()).encrypt(&mut one);
            let portable_aes = crate::cpu::with_cap(crate::cpu::Level::Portable, || Aes::new(&key).unwrap());
            let (mut chain, mut portable) = (Cfb::with_key(&key).unwrap(), Cfb::new(portable_aes));
            let (mut a, mut b) = (data.clone(), vec![0u8; data.len()]);
            for (s, e) in pieces(data.len(), &cuts) {
                chain.encrypt(&mut a[s..e]);
                portable.encrypt_to(&data[s..e], &mut b[s..e]);
            }
            proptest::prop_assert_eq!(&a, &one);
            proptest::prop_assert_eq!(&b, &one);
            let mut back = one.clone();
            let mut d = Cfb::with_key(&key).unwrap();
            for (s, e) in pieces(data.len(), &cuts) {
                d.decrypt(&mut back[s..e]);
            }
            proptest::prop_assert_eq!(back, data);
        }
    }
}
