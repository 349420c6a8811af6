//! S2V (RFC 5297 section 2.4): a vector of strings to one 128-bit value.
//!
//! ```text
//! D = CMAC(0^128)                                  (cached per key)
//! for each component S_i but the last: D = dbl(D) xor CMAC(S_i)
//! if len(S_n) >= 16: T = S_n xorend D              (D onto the last 16 bytes)
//! else:              T = dbl(D) xor pad(S_n)
//! V = CMAC(T)
//! ```
//!
//! Every CMAC here is a [`Job`]: a run of message blocks taken in place
//! (`prefix`) and one or two final blocks already combined with D and the
//! CMAC subkey (`tail`). The plaintext is never copied: at most the last 32
//! bytes, which D overlaps, are assembled on the stack. [`run_lanes`]
//! advances up to [`LANES`] independent jobs together, one AES backend batch
//! per step, which is how the batch API and the associated-data components
//! of a single message fill the AES pipeline.

use aes::cipher::consts::U16;
use aes::cipher::{BlockCipherEncBackend, BlockCipherEncClosure, BlockSizeUser};

use super::ctr::enc_many;
use crate::aes::block::{dbl, enc, load, pad, xor, xor_int};
use crate::aes::{Aes, Block};
use crate::cmac::Cmac;
#[cfg(target_arch = "x86_64")]
use crate::cmac::ni::Blocks;

/// Independent CMAC chains advanced together.
pub(crate) const LANES: usize = 64;

/// One CMAC computation from a zero chaining value: `prefix` (a multiple of
/// 16 bytes, taken in place) then `tail[..ntail]`.
#[derive(Clone, Copy)]
pub(crate) struct Job<'a> {
    pub prefix: &'a [u8],
    pub tail: [Block; 2],
    pub ntail: usize,
}

impl<'a> Job<'a> {
    pub const EMPTY: Job<'static> = Job { prefix: &[], tail: [[0; 16]; 2], ntail: 0 };

    /// The whole CMAC of `data` (RFC 4493 section 2.4).
    #[inline(always)]
    pub fn cmac(mac: &Cmac, data: &'a [u8]) -> Self {
        let full = data.len().saturating_sub(1) / 16 * 16;
        Job { prefix: &data[..full], tail: [mac.last_block(&data[full..]), [0; 16]], ntail: 1 }
    }

    /// The final CMAC of S2V, over `T` built from the last component `s`
    /// and `d` (the D of all earlier components).
    #[inline(always)]
    pub fn last(mac: &Cmac, d: &Block, s: &'a [u8]) -> Self {
        let n = s.len();
        if n < 16 {
            // T = dbl(D) xor pad(S_n): one complete block, so K1.
            let t = xor_int(&dbl(d), &pad(s));
            return Job { prefix: &[], tail: [xor_int(&t, mac.k1()), [0; 16]], ntail: 1 };
        }
        let (r, p) = (n % 16, Self::last_prefix_len(n));
        if r == 0 {
            // D covers exactly the last block.
            let t = xor_int(&load(&s[p..]), d);
            return Job { prefix: &s[..p], tail: [xor_int(&t, mac.k1()), [0; 16]], ntail: 1 };
        }
        // D straddles the last complete block and the partial one.
        let mut t = [0u8; 32];
        t[..16 + r].copy_from_slice(&s[p..]);
        let x = xor_int(&load(&t[r..]), d);
        t[r..16 + r].copy_from_slice(&x);
        Job { prefix: &s[..p], tail: [load(&t), xor_int(&pad(&t[16..16 + r]), mac.k2())], ntail: 2 }
    }

    /// Length of the part of the last component that [`Job::last`] takes in
    /// place (the blocks D does not touch); it does not depend on D.
    #[inline(always)]
    pub fn last_prefix_len(n: usize) -> usize {
        if n < 16 { 0 } else { (n - 16) / 16 * 16 }
    }

    /// All the job's blocks, for the AES-NI kernels.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn blocks_ni(&self) -> Blocks<'_> {
        Blocks { prefix: self.prefix, tail: &self.tail[..self.ntail] }
    }

    /// The final blocks alone, for the AES-NI kernels.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn tail_ni(&self) -> Blocks<'_> {
        Blocks { prefix: &[], tail: &self.tail[..self.ntail] }
    }

    /// Number of AES blocks of the job.
    #[inline(always)]
    fn blocks(&self) -> usize {
        self.prefix.len() / 16 + self.ntail
    }

    /// Message block `s` of the job.
    #[inline(always)]
    fn block(&self, s: usize) -> Block {
        let pb = self.prefix.len() / 16;
        if s < pb { load(&self.prefix[16 * s..]) } else { self.tail[s - pb] }
    }

    /// Continues the chain `x` from block `s` to the end.
    #[inline(always)]
    fn finish<B: BlockCipherEncBackend<BlockSize = U16>>(&self, backend: &B, mut x: Block, s: usize) -> Block {
        let pb = self.prefix.len() / 16;
        if s < pb {
            for m in self.prefix[16 * s..].chunks_exact(16) {
                x = enc(backend, xor(&x, &load(m)));
            }
        }
        for m in &self.tail[s.saturating_sub(pb)..self.ntail] {
            x = enc(backend, xor(&x, m));
        }
        x
    }
}

struct Lanes<'a, 'b> {
    jobs: &'a [Job<'b>],
    out: &'a mut [Block],
}

impl BlockSizeUser for Lanes<'_, '_> {
    type BlockSize = U16;
}

impl BlockCipherEncClosure for Lanes<'_, '_> {
    #[inline(always)]
    fn call<B: BlockCipherEncBackend<BlockSize = U16>>(self, backend: &B) {
        let n = self.jobs.len();
        // Longest first, so the lanes still running are always a prefix.
        let mut order = [0u8; LANES];
        for (i, o) in order[..n].iter_mut().enumerate() {
            *o = i as u8;
        }
        let key = |j: &u8| core::cmp::Reverse(self.jobs[*j as usize].blocks());
        // Batches of equal-length messages are common: skip the sort then.
        if !order[..n].is_sorted_by_key(key) {
            order[..n].sort_unstable_by_key(key);
        }
        let mut x = [[0u8; 16]; LANES];
        let mut active = n;
        let mut s = 0;
        while active > 1 {
            for (k, xk) in x[..active].iter_mut().enumerate() {
                *xk = xor(xk, &self.jobs[order[k] as usize].block(s));
            }
            enc_many(backend, &mut x[..active]);
            s += 1;
            while active > 0 && self.jobs[order[active - 1] as usize].blocks() <= s {
                active -= 1;
            }
        }
        if active == 1 {
            // One chain left: finish it with the chaining value in a register.
            x[0] = self.jobs[order[0] as usize].finish(backend, x[0], s);
        }
        for (k, xk) in x[..n].iter().enumerate() {
            self.out[order[k] as usize] = *xk;
        }
    }
}

/// Runs up to [`LANES`] independent CMAC jobs together; `out[i]` receives
/// the chaining value at the end of `jobs[i]` (its tag when the job has a
/// tail).
pub(crate) fn run_lanes(aes: &Aes, jobs: &[Job<'_>], out: &mut [Block]) {
    debug_assert!(jobs.len() <= LANES && out.len() >= jobs.len());
    if !jobs.is_empty() {
        aes.with_enc_backend(Lanes { jobs, out });
    }
}

/// Continues the chain `x` with the blocks of `job`.
pub(crate) fn run_one(aes: &Aes, x: Block, job: &Job<'_>) -> Block {
    struct One<'a, 'b> {
        x: &'a mut Block,
        job: &'a Job<'b>,
    }
    impl BlockSizeUser for One<'_, '_> {
        type BlockSize = U16;
    }
    impl BlockCipherEncClosure for One<'_, '_> {
        #[inline(always)]
        fn call<B: BlockCipherEncBackend<BlockSize = U16>>(self, backend: &B) {
            *self.x = self.job.finish(backend, *self.x, 0);
        }
    }
    let mut x = x;
    aes.with_enc_backend(One { x: &mut x, job });
    x
}

/// S2V of one message: the associated data's D, then the plaintext's chain.
impl super::AesSiv {
    /// CMAC under K1 of one component, through the AES-NI path if any.
    #[inline]
    pub(super) fn cmac(&self, c: &[u8]) -> Block {
        #[cfg(target_arch = "x86_64")]
        if let Some(ni) = self.ni() {
            return ni.chain([0; 16], Job::cmac(&self.mac, c).blocks_ni());
        }
        self.mac.mac(c)
    }

    /// D after the components `ad` then `nonce` (the AD part of S2V).
    pub(super) fn fold_d(&self, nonce: Option<&[u8]>, ad: &[&[u8]]) -> Block {
        match (ad, nonce) {
            ([], None) => self.d0,
            (&[c], None) | ([], Some(c)) => xor_int(&self.d0_dbl, &self.cmac(c)),
            _ => self.fold_d_lanes(ad.iter().copied().chain(nonce)),
        }
    }

    /// D after every component in `comps`, one component's CMAC per lane.
    pub(super) fn fold_d_lanes<'a>(&self, comps: impl Iterator<Item = &'a [u8]>) -> Block {
        let mut d = self.d0;
        let mut first = true;
        let mut jobs = [Job::EMPTY; LANES];
        let mut macs = [[0u8; 16]; LANES];
        let mut comps = comps.peekable();
        while comps.peek().is_some() {
            let mut n = 0;
            for (job, c) in jobs.iter_mut().zip(&mut comps) {
                *job = Job::cmac(&self.mac, c);
                n += 1;
            }
            run_lanes(self.mac.aes(), &jobs[..n], &mut macs);
            for m in &macs[..n] {
                let dd = if first { self.d0_dbl } else { dbl(&d) };
                d = xor_int(&dd, m);
                first = false;
            }
        }
        d
    }

    /// S2V with the component count already checked: D from the
    /// associated data (independent CMACs side by side when there are
    /// several), then the chain over the plaintext, taken in place.
    ///
    /// The associated data's CMACs do not depend on the plaintext, so the
    /// out-of-order core already overlaps them with the start of the
    /// plaintext's chain; running that chain in a lane beside them was
    /// measured no faster.
    ///
    /// With AES-NI the chain over the plaintext's blocks that D does not
    /// touch starts from zero beside the associated data's CMAC (round by
    /// round when there is one component before the plaintext), and takes
    /// D only for its last one or two blocks.
    pub(super) fn s2v_unchecked(&self, nonce: Option<&[u8]>, ad: &[&[u8]], s: &[u8]) -> Block {
        #[cfg(target_arch = "x86_64")]
        if let Some(ni) = self.ni() {
            return ni.s2v(self, nonce, ad, s);
        }
        let d = self.fold_d(nonce, ad);
        run_one(self.mac.aes(), [0; 16], &Job::last(&self.mac, &d, s))
    }
}
