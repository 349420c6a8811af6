//! What FF1 and FF3 both hold for one key: the AES schedule (the AES-NI one
//! when the CPU has AES-NI), the batch round kernel for this CPU, and the
//! radix. It builds each length's
//! [`batch::Plan`].

use super::batch;
use super::batch::Kernel;
use super::batch::round::{BatchMod, Layout};
use super::num::Radix;
use crate::Error;
use crate::aes::Aes;

pub(super) struct Keyed {
    /// The key's one schedule: the AES-NI one (which the single-value and
    /// fused batch paths borrow) where the CPU has it, else the `aes` crate's.
    pub(super) aes: Aes,
    /// The batch round arithmetic for this CPU.
    pub(super) kernel: Kernel,
    pub(super) rx: Radix,
}

impl Keyed {
    /// The schedules of `key` (16, 24 or 32 bytes) for a radix already checked.
    pub(super) fn new(key: &[u8], radix: u32) -> Result<Self, Error> {
        Ok(Keyed { aes: Aes::new(key)?, kernel: Kernel::detect(), rx: Radix::new(radix) })
    }

    /// Every block through the `aes` crate and the portable batch rounds,
    /// as on CPUs without AES-NI.
    pub(super) fn without_aes_ni(&mut self) {
        #[cfg(target_arch = "x86_64")]
        self.aes.drop_ni();
        self.kernel = Kernel::Portable;
    }

    /// The AES-NI schedule, where the CPU has AES-NI.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) fn ni(&self) -> Option<&crate::aes::ni::Keys> {
        self.aes.ni()
    }

    /// The batch plan for values of length `n` whose first half has `u`
    /// numerals (see [`batch::Plan`] for the rest).
    pub(super) fn plan<'a>(
        &'a self,
        layout: Layout,
        (n, u): (usize, usize),
        m: (BatchMod, BatchMod),
        terms: &'a [[u64; 2]],
    ) -> batch::Plan<'a> {
        batch::Plan {
            aes: &self.aes,
            #[cfg(target_arch = "x86_64")]
            ni: self.ni(),
            #[cfg(not(target_arch = "x86_64"))]
            ni: None,
            kernel: self.kernel,
            rx: &self.rx,
            layout,
            n,
            u,
            m,
            terms,
        }
    }
}
