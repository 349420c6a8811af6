//! Which of tessera's x86-64 kernels this process may run: the CPU's
//! features, detected once, optionally capped by the `TESSERA_CPU`
//! environment variable.
//!
//! This module is the only place that asks the CPU (`is_x86_feature_detected!`);
//! every kernel choice asks it instead, so a cap set here lowers all of them
//! together. The features are read once, with the cap, into a cached value:
//! asking costs one atomic load.
//!
//! # Levels
//!
//! | [`Level`] | `TESSERA_CPU` | features it lets kernels use | kernels it adds |
//! |---|---|---|---|
//! | `Portable` | `portable` | none | every `aes::Aes` block on the `aes` crate (its own detection) |
//! | `AesNi` | `aesni` | AES-NI, SSSE3, SSE4.1 | the AES-NI schedule, every `aes::Aes` block on it (8 per batch): FF1/FF3 single values, AES-SIV (S2V and CTR), EAX, OpenPGP CFB (SEIPD v1); fused FPE batch rounds with scalar arithmetic (`AesNi`), SSE4.1 decimal conversion |
//! | `Avx2` | `avx2` | and AVX2 | FPE batch rounds (`Avx2`, fused `Avx2Ni`), AVX2 decimal conversion, AVX2 batch checks |
//! | `Vaes256` | `vaes256` | and VAES, FMA | `aes::Aes` block batches of 32, OCB on 256-bit VAES, AES-SIV CTR on VAES-256, fused FPE batch rounds on 256-bit VAES (`Vaes256`) |
//! | `Avx512` | `avx512` | and AVX-512 F, BW, DQ, VL, IFMA | `aes::Aes` block batches of 64, OCB on 512-bit VAES, AES-SIV CTR on VAES-512, FPE `Avx512` and fused `Vaes512` rounds, AVX-512 decimal conversion |
//!
//! A cap only lowers: a kernel runs when the CPU has its features *and*
//! the cap lets them through, never on a CPU without them. Kernels ask
//! through zero-sized proof tokens: `Token::get()` answers from the cached,
//! capped features, and every `#[target_feature]` kernel entry takes its
//! token by value, so it is called only where its features were found.
//! Each primitive takes its tokens once, when its key or tables are built.
//! Without a cap every kernel runs where the CPU has what it asks for:
//!
//! | token | features | kernels (where the token is taken) |
//! |---|---|---|
//! | `Sse41` | ssse3, sse4.1 | SSE4.1 decimal groups (`fpe::batch::x86::digit_quads::Dec128::new`) |
//! | `AesNi` | aes, sse4.1, ssse3 | the AES-NI schedule (`aes::ni::Keys`, expanded once by `aes::Aes::new`, the key's one schedule, its blocks on `aes::backend`'s AES-NI width, and borrowed by FF1/FF3 single values, AES-SIV S2V and CTR, EAX, OCB's VAES schedules, OpenPGP CFB); FPE `AesNi` rounds (`fpe::batch::Kernel::available`) |
//! | `Avx2` | avx2 | FPE `Avx2` rounds; AVX2 decimal groups (`Dec256::new`); batch checks compiled for AVX2 (`fpe::batch::wide`) |
//! | `Avx2Aes` | `AesNi` and avx2 | FPE fused `Avx2Ni` rounds |
//! | `Vaes256` | `Avx2Aes` and vaes, fma | OCB `Vaes256` (`aead::ocb::kernel::Kernel::available`); AES-SIV CTR and every `aes::Aes` block batch on VAES-256 (`aes::ni::Width::detect`); FPE fused `Vaes256` rounds |
//! | `Avx512` | avx512f, bw, dq, vl and avx2 | FPE `Avx512` rounds; AVX-512 decimal groups (`Dec512::new`) |
//! | `Vaes512` | `Avx2Aes`, `Avx512` and vaes | OCB `Vaes512`; AES-SIV CTR and every `aes::Aes` block batch on VAES-512 (its seal on 256-bit vectors with 32 registers) |
//! | `Vaes512Ifma` | `Vaes512` and avx512ifma | FPE fused `Vaes512` rounds |
//!
//! The `aes` crate serves `aes::Aes` only where the CPU (or the cap) has no
//! AES-NI; it then detects AES-NI itself (build with
//! `RUSTFLAGS='--cfg aes_backend="soft"'` for its software backend).
//!
//! Every CPU with AES-NI and SSE4.1 has SSSE3 (Westmere, Silvermont, Jaguar,
//! Bulldozer and later); `AesNi` asks for it too, so the decimal groups'
//! byte shuffles run wherever the level does.
//!
//! A CPU is at a level when it has that level's features, but VAES and IFMA
//! are not needed for `Avx512` (an AVX-512 CPU without VAES, such as
//! Skylake-SP, is at `Avx512` and runs the kernels its features allow).
//!
//! # The cap
//!
//! `TESSERA_CPU=portable|aesni|avx2|vaes256|avx512` (case-insensitive),
//! read once, when a kernel is first chosen. Any other value is ignored: the
//! machine's level applies. For example, to time the AVX2 kernels on an
//! AVX-512 machine: `TESSERA_CPU=avx2 target/release/examples/fpe_cputime`.
//! The crate's tests cap one thread at a time instead (a test-only
//! `with_cap`), never through the process environment.
//!
//! ```
//! use tessera::cpu::{self, Level};
//!
//! // The level kernels run at: the CPU's, lowered by TESSERA_CPU if set.
//! let level = cpu::level();
//! assert!(level <= cpu::detected());
//! assert_eq!("avx2".parse::<Level>(), Ok(Level::Avx2));
//! println!("running at {level} (CPU: {})", cpu::detected());
//! ```

use core::fmt;
use core::ops::BitOr;
use std::sync::OnceLock;

/// The environment variable that caps the level.
///
/// ```
/// assert_eq!(tessera::cpu::ENV, "TESSERA_CPU");
/// ```
pub const ENV: &str = "TESSERA_CPU";

/// How far up tessera's kernels may go, lowest first (see the module doc).
///
/// ```
/// use tessera::cpu::Level;
/// assert!(Level::Portable < Level::AesNi && Level::Vaes256 < Level::Avx512);
/// assert_eq!(Level::Avx512.to_string(), "avx512");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// No tessera x86-64 kernel.
    Portable,
    /// AES-NI, SSSE3 and SSE4.1.
    AesNi,
    /// And AVX2.
    Avx2,
    /// And VAES on 256-bit vectors, and FMA (every VAES CPU has it).
    Vaes256,
    /// And AVX-512 (F, BW, DQ, VL; with IFMA where present).
    Avx512,
}

impl Level {
    /// Every level, lowest first.
    ///
    /// ```
    /// assert_eq!(tessera::cpu::Level::ALL[0], tessera::cpu::Level::Portable);
    /// ```
    pub const ALL: [Level; 5] = [Level::Portable, Level::AesNi, Level::Avx2, Level::Vaes256, Level::Avx512];

    /// The name `TESSERA_CPU` takes.
    ///
    /// ```
    /// assert_eq!(tessera::cpu::Level::AesNi.name(), "aesni");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Level::Portable => "portable",
            Level::AesNi => "aesni",
            Level::Avx2 => "avx2",
            Level::Vaes256 => "vaes256",
            Level::Avx512 => "avx512",
        }
    }

    /// The features this level lets kernels use.
    fn allows(self) -> Features {
        let aes = Features::AES_NI;
        match self {
            Level::Portable => Features(0),
            Level::AesNi => aes | Features::SSSE3,
            Level::Avx2 => Level::AesNi.allows() | Features::AVX2,
            Level::Vaes256 => Level::Avx2.allows() | Features::VAES | Features::FMA,
            Level::Avx512 => Features(u16::MAX),
        }
    }

    /// The features a CPU needs to be at this level.
    fn needs(self) -> Features {
        match self {
            Level::Avx512 => Level::Avx2.allows() | Features::AVX512,
            l => l.allows(),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `TESSERA_CPU` value that names no level. (Display and Error by hand:
/// `scripts/check-ct` compiles this file alone, without dependencies.)
///
/// ```
/// let e = "avx".parse::<tessera::cpu::Level>().unwrap_err();
/// assert!(e.to_string().contains("\"avx\""));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown CPU level {:?} (portable, aesni, avx2, vaes256 or avx512)", self.0)
    }
}

impl std::error::Error for UnknownLevel {}

impl core::str::FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(s: &str) -> Result<Self, UnknownLevel> {
        let s = s.trim();
        Level::ALL.into_iter().find(|l| l.name().eq_ignore_ascii_case(s)).ok_or_else(|| UnknownLevel(s.into()))
    }
}

/// A set of CPU features (one bit each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Features(u16);

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // asked for on x86-64 only
impl Features {
    const AES: Features = Features(1);
    const SSE41: Features = Features(1 << 1);
    const AVX2: Features = Features(1 << 2);
    const VAES: Features = Features(1 << 3);
    const AVX512F: Features = Features(1 << 4);
    const AVX512BW: Features = Features(1 << 5);
    const AVX512DQ: Features = Features(1 << 6);
    const AVX512VL: Features = Features(1 << 7);
    const AVX512IFMA: Features = Features(1 << 8);
    const FMA: Features = Features(1 << 9);
    const SSSE3: Features = Features(1 << 10);
    /// AES-NI as the crate's schedule needs it: AES and SSE4.1.
    const AES_NI: Features = Features(Self::AES.0 | Self::SSE41.0);
    /// AVX-512 F, BW, DQ and VL.
    const AVX512: Features = Features(Self::AVX512F.0 | Self::AVX512BW.0 | Self::AVX512DQ.0 | Self::AVX512VL.0);

    /// These features and `other`'s (`|` in constants).
    const fn union(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }

    const fn contains(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }

    /// What this CPU has (nothing off x86-64).
    fn of_cpu() -> Features {
        #[allow(unused_mut)]
        let mut f = Features(0);
        #[cfg(target_arch = "x86_64")]
        {
            use std::is_x86_feature_detected as has;
            let all = [
                (has!("aes"), Features::AES),
                (has!("sse4.1"), Features::SSE41),
                (has!("ssse3"), Features::SSSE3),
                (has!("avx2"), Features::AVX2),
                (has!("vaes"), Features::VAES),
                (has!("avx512f"), Features::AVX512F),
                (has!("avx512bw"), Features::AVX512BW),
                (has!("avx512dq"), Features::AVX512DQ),
                (has!("avx512vl"), Features::AVX512VL),
                (has!("avx512ifma"), Features::AVX512IFMA),
                (has!("fma"), Features::FMA),
            ];
            for (yes, bit) in all {
                if yes {
                    f = f | bit;
                }
            }
        }
        f
    }

    /// The highest level whose features all of these are.
    fn level(self) -> Level {
        Level::ALL.into_iter().rev().find(|l| self.contains(l.needs())).unwrap_or(Level::Portable)
    }
}

impl BitOr for Features {
    type Output = Features;

    fn bitor(self, rhs: Features) -> Features {
        Features(self.0 | rhs.0)
    }
}

/// The CPU's features, and those left after the cap.
struct State {
    cpu: Features,
    usable: Features,
}

fn state() -> &'static State {
    static STATE: OnceLock<State> = OnceLock::new();
    STATE.get_or_init(|| {
        let cpu = Features::of_cpu();
        // An unknown value is ignored (documented): no panic, no cap.
        let cap = std::env::var(ENV).ok().and_then(|v| v.parse::<Level>().ok()).unwrap_or(Level::Avx512);
        State { cpu, usable: Features(cpu.0 & cap.allows().0) }
    })
}

#[cfg(test)]
std::thread_local! {
    /// A test's own cap on this thread (see [`with_cap`]).
    static TEST_CAP: core::cell::Cell<Level> = const { core::cell::Cell::new(Level::Avx512) };
}

/// The features kernels may use on this thread.
#[inline]
fn usable() -> Features {
    let usable = state().usable;
    #[cfg(test)]
    let usable = Features(usable.0 & TEST_CAP.with(|c| c.get()).allows().0);
    usable
}

/// Whether kernels may use every feature in `f`: the CPU has them and the
/// cap lets them through. Kernels ask through the tokens below.
#[inline]
fn has(f: Features) -> bool {
    usable().contains(f)
}

/// Declares zero-sized proof tokens: a value exists only if [`has`] said yes
/// to the token's features, so a kernel entry that takes one by value may
/// call the `#[target_feature]` body compiled for those features.
macro_rules! tokens {
    ($($(#[$doc:meta])* $name:ident = $features:expr;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) struct $name(());

        #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
        impl $name {
            /// The features this token proves.
            const FEATURES: Features = $features;

            /// The token, if the CPU has its features and the cap lets them through.
            #[inline]
            pub(crate) fn get() -> Option<Self> {
                has(Self::FEATURES).then_some($name(()))
            }
        }
    )*};
}

tokens! {
    /// SSSE3 and SSE4.1: the SSE decimal groups.
    Sse41 = Features::SSSE3.union(Features::SSE41);
    /// AES-NI, SSSE3 and SSE4.1: the AES-NI schedule and every kernel on it.
    AesNi = Features::AES_NI.union(Features::SSSE3);
    /// AVX2: the AVX2 batch rounds, decimal groups and checks.
    Avx2 = Features::AVX2;
    /// AES-NI with AVX2: the FPE `Avx2Ni` level (AVX2 rounds, AES-NI fused rounds).
    Avx2Aes = AesNi::FEATURES.union(Features::AVX2);
    /// AES-NI, AVX2, VAES and FMA: the 256-bit VAES kernels (OCB, SIV's CTR, FPE).
    Vaes256 = Avx2Aes::FEATURES.union(Features::VAES).union(Features::FMA);
    /// AVX-512 F, BW, DQ, VL and AVX2: the AVX-512 batch rounds and decimal groups.
    Avx512 = Features::AVX512.union(Features::AVX2);
    /// AES-NI, AVX2, VAES and AVX-512 F, BW, DQ, VL: the 512-bit VAES kernels (OCB, SIV's CTR).
    Vaes512 = Avx2Aes::FEATURES.union(Features::VAES).union(Features::AVX512);
    /// [`Vaes512`] and AVX-512 IFMA: the fused `Vaes512` FPE rounds.
    Vaes512Ifma = Vaes512::FEATURES.union(Features::AVX512IFMA);
}

/// Declares that each wider token proves the narrower one's features
/// (checked at compile time): `Narrow::from(wide)`.
macro_rules! narrows {
    ($($wide:ident => $($narrow:ident),+;)*) => {$($(
        impl From<$wide> for $narrow {
            #[inline]
            fn from(_: $wide) -> $narrow {
                const { assert!($wide::FEATURES.contains($narrow::FEATURES)) };
                $narrow(())
            }
        }
    )+)*};
}

narrows! {
    AesNi => Sse41;
    Avx2Aes => AesNi, Avx2;
    Vaes256 => AesNi, Avx2, Avx2Aes;
    Avx512 => Avx2;
    Vaes512 => AesNi, Avx2Aes, Avx512;
    Vaes512Ifma => AesNi, Avx512, Vaes512;
}

/// The level kernels run at: the CPU's, lowered by `TESSERA_CPU`.
///
/// ```
/// assert!(tessera::cpu::level() <= tessera::cpu::detected());
/// ```
pub fn level() -> Level {
    usable().level()
}

/// The CPU's level, whatever the cap.
///
/// ```
/// use tessera::cpu::{Level, detected};
/// println!("this CPU: {} (of {:?})", detected(), Level::ALL);
/// ```
pub fn detected() -> Level {
    state().cpu.level()
}

/// Runs `f` with kernels on this thread capped at `cap` (tests only: the
/// same as `TESSERA_CPU`, without touching the process environment).
#[cfg(test)]
pub(crate) fn with_cap<R>(cap: Level, f: impl FnOnce() -> R) -> R {
    let before = TEST_CAP.with(|c| c.replace(cap));
    let out = f();
    TEST_CAP.with(|c| c.set(before));
    out
}

#[cfg(test)]
#[path = "cpu_tests.rs"]
mod tests;
