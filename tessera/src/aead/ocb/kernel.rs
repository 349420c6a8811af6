//! The OCB bulk kernels and their choice at run time.
//!
//! Every CPU runs the portable path (many blocks per call of the `aes`
//! crate's backend, in `ocb.rs`); x86-64 CPUs with VAES and AVX2 also run
//! the 256-bit kernel, and those with AVX-512F and VAES the 512-bit one
//! (one body for both widths, `ocb_vaes.rs`). [`Kernel::detect`] picks the fastest
//! measured on such a CPU (BENCHMARKS.md, `cargo bench --bench aead`,
//! `tessera-ocb-*` rows), and the tests run every kernel the CPU has
//! against the portable path.

use crate::aes::Block;

/// One implementation of OCB's complete blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// The AES backend (`aes::Aes`); every CPU.
    Portable,
    /// VAES on 256-bit vectors (VAES and AVX2).
    #[cfg(target_arch = "x86_64")]
    Vaes256,
    /// VAES on 512-bit vectors (AVX-512F and VAES).
    #[cfg(target_arch = "x86_64")]
    Vaes512,
}

impl Kernel {
    /// The kernel [`crate::aead::Ocb::new`] uses on this CPU.
    pub(crate) fn detect() -> Self {
        let all = Self::available();
        #[cfg(target_arch = "x86_64")]
        if PREFER_512 && all.contains(&Kernel::Vaes512) {
            return Kernel::Vaes512;
        }
        #[cfg(target_arch = "x86_64")]
        if all.contains(&Kernel::Vaes256) {
            return Kernel::Vaes256;
        }
        all[0]
    }

    /// Every kernel this CPU runs, the portable one first.
    pub(crate) fn available() -> Vec<Self> {
        #[allow(unused_mut)]
        let mut all = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if crate::cpu::Vaes256::get().is_some() {
                all.push(Kernel::Vaes256);
            }
            if crate::cpu::Vaes512::get().is_some() {
                all.push(Kernel::Vaes512);
            }
        }
        all
    }

    /// The kernel named `name` ("portable", "vaes256", "vaes512") if this CPU runs it.
    pub(crate) fn by_name(name: &str) -> Option<Self> {
        Self::available().into_iter().find(|k| k.name() == name)
    }

    /// The kernel's name, as [`Kernel::by_name`] takes it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Kernel::Vaes256 => "vaes256",
            #[cfg(target_arch = "x86_64")]
            Kernel::Vaes512 => "vaes512",
        }
    }

    /// The kernel's per-key tables, from the AES-NI schedule of `aes` (`l`
    /// is the OCB table L_i).
    pub(crate) fn expand(self, aes: &crate::aes::Aes, l: &[Block]) -> Bulk {
        match self {
            Kernel::Portable => Bulk::Portable,
            #[cfg(target_arch = "x86_64")]
            Kernel::Vaes256 => aes
                .ni()
                .and_then(|k| super::super::ocb_vaes::Vaes256::new(k, l))
                .map_or(Bulk::Portable, |v| Bulk::Vaes256(Box::new(v))),
            #[cfg(target_arch = "x86_64")]
            Kernel::Vaes512 => aes
                .ni()
                .and_then(|k| super::super::ocb_vaes::Vaes512::new(k, l))
                .map_or(Bulk::Portable, |v| Bulk::Vaes512(Box::new(v))),
        }
    }
}

/// Whether the 512-bit kernel is preferred where both VAES kernels run:
/// measured at least as fast as the 256-bit one in every row on the Xeon
/// of BENCHMARKS.md (`examples/aead_cputime ocb`, CPU time, best of 5,
/// AES-128: 256 KiB seal 13.9-15.2 vs 11.9-12.2 GiB/s, open 13.2-13.7 vs
/// 9.6-11.6; 64 MiB seal 7.7-8.1 vs 5.9-6.7, open 6.9-8.1 vs 6.5-6.7).
const PREFER_512: bool = true;

/// A kernel with its per-key tables (boxed: wiped on drop where they are,
/// never copied by moves).
#[derive(Clone, Debug)]
pub(crate) enum Bulk {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Vaes256(Box<super::super::ocb_vaes::Vaes256>),
    #[cfg(target_arch = "x86_64")]
    Vaes512(Box<super::super::ocb_vaes::Vaes512>),
}

impl Bulk {
    /// Encrypts (`seal`) or decrypts the leading complete blocks of `data`
    /// that the kernel takes, as blocks 1, 2, ... from Offset_0 = `off0`;
    /// returns the bytes done, the last offset and the plaintext checksum
    /// of those bytes; `None` when the kernel takes none of them.
    #[inline]
    #[allow(unused_variables)]
    pub(crate) fn run(
        &self,
        seal: bool,
        l: &[Block; 64],
        data: &mut [u8],
        off0: Block,
    ) -> Option<(usize, Block, Block)> {
        match self {
            Bulk::Portable => None,
            #[cfg(target_arch = "x86_64")]
            Bulk::Vaes256(v) if data.len() >= 256 => {
                Some(if seal { v.seal(l, data, 0, off0) } else { v.open(l, data, 0, off0) })
            }
            #[cfg(target_arch = "x86_64")]
            Bulk::Vaes512(v) if data.len() >= 512 => {
                Some(if seal { v.seal(l, data, 0, off0) } else { v.open(l, data, 0, off0) })
            }
            #[cfg(target_arch = "x86_64")]
            _ => None,
        }
    }
}
