//! OpenPGP CFB mode (RFC 9580 §5.13.1: CFB-128 without resynchronisation,
//! as used by SEIPD v1 and the SKESK v4 encrypted session key).

use crate::aes::Aes;

/// A CFB stream: encrypts or decrypts any number of bytes in place.
pub(crate) struct Cfb {
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
    /// CFB with an all-zero IV.
    pub(crate) fn new(aes: Aes) -> Self {
        let mut ks = [0u8; 16];
        aes.encrypt_block(&mut ks);
        Cfb { aes, ks, pos: 0 }
    }

    pub(crate) fn encrypt(&mut self, data: &mut [u8]) {
        for b in data {
            if self.pos == 16 {
                self.aes.encrypt_block(&mut self.ks);
                self.pos = 0;
            }
            self.ks[self.pos] ^= *b;
            *b = self.ks[self.pos];
            self.pos += 1;
        }
    }

    pub(crate) fn decrypt(&mut self, mut data: &mut [u8]) {
        // Byte at a time up to a block boundary.
        while !data.is_empty() && (self.pos != 16 || data.len() < 16) {
            if self.pos == 16 {
                self.aes.encrypt_block(&mut self.ks);
                self.pos = 0;
            }
            let c = data[0];
            data[0] ^= self.ks[self.pos];
            self.ks[self.pos] = c;
            self.pos += 1;
            data = &mut data[1..];
        }
        // Whole blocks, 64 at a time through the parallel AES path: the
        // keystream of block j is E(C[j-1]) and all C are known.
        while data.len() >= 16 {
            let mut scratch = [[0u8; 16]; 64];
            let k = (data.len() / 16).min(64);
            scratch[0] = self.ks;
            for j in 1..k {
                scratch[j].copy_from_slice(&data[(j - 1) * 16..j * 16]);
            }
            self.aes.encrypt_blocks(&mut scratch[..k]);
            let mut last = [0u8; 16];
            last.copy_from_slice(&data[(k - 1) * 16..k * 16]);
            for (j, ks) in scratch[..k].iter().enumerate() {
                for (d, s) in data[j * 16..j * 16 + 16].iter_mut().zip(ks) {
                    *d ^= s;
                }
            }
            self.ks = last;
            self.pos = 16;
            data = &mut data[k * 16..];
        }
        if !data.is_empty() {
            self.decrypt(data);
        }
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
}
