//! Round-to-nearest for the batch kernels' f64 quotient estimates, which assume it (another SSE
//! rounding mode would give ciphertexts that do not decrypt); [`Nearest`] sets it for a batch run.
#![allow(unsafe_code)]

/// Round-to-nearest while alive; the caller's MXCSR back on drop.
pub(crate) struct Nearest {
    /// The caller's MXCSR when it must be put back.
    #[cfg(target_arch = "x86_64")]
    saved: Option<u32>,
}

/// MXCSR's rounding-control field (bits 13-14); 0 is round-to-nearest.
#[cfg(target_arch = "x86_64")]
const ROUNDING: u32 = 0b11 << 13;

impl Nearest {
    /// Sets round-to-nearest if the thread is in another mode.
    pub(crate) fn enter() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            let old = read();
            if old & ROUNDING == 0 {
                return Nearest { saved: None };
            }
            write(old & !ROUNDING);
            Nearest { saved: Some(old) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Nearest {}
    }
}

impl Drop for Nearest {
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if let Some(old) = self.saved {
            write(old);
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn read() -> u32 {
    let mut csr = 0u32;
    // SAFETY: stmxcsr stores the 4-byte MXCSR into `csr`, a valid, aligned u32 on this stack frame;
    // SSE is part of x86-64.
    unsafe { core::arch::asm!("stmxcsr [{}]", in(reg) &mut csr, options(nostack, preserves_flags)) };
    csr
}

#[cfg(target_arch = "x86_64")]
fn write(csr: u32) {
    // SAFETY: ldmxcsr loads MXCSR from `csr`, a valid u32; the values written are the caller's own MXCSR or
    // it with the rounding field cleared, so no reserved bit is set (which would fault).
    unsafe { core::arch::asm!("ldmxcsr [{}]", in(reg) &csr, options(nostack, preserves_flags, readonly)) };
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    #[test]
    fn sets_nearest_and_restores_the_callers_mode() {
        let start = read();
        for rc in 0..4u32 {
            write((start & !ROUNDING) | (rc << 13));
            {
                let _n = Nearest::enter();
                assert_eq!(read() & ROUNDING, 0, "round-to-nearest inside (mode {rc})");
                let third = core::hint::black_box(2.0f64) / core::hint::black_box(3.0f64);
                assert_eq!(third.to_bits(), 0x3fe5_5555_5555_5555, "nearest rounding of 2/3");
            }
            // Control bits only: the division above sets the sticky inexact flag.
            let control = |csr: u32| csr & !0x3f;
            assert_eq!(
                control(read()),
                control((start & !ROUNDING) | (rc << 13)),
                "the caller's mode back (mode {rc})"
            );
        }
        write(start);
    }
}
