//! The batch engine of FF1, FF3-1 and FF3: a batch is cut into runs of values of one length, a run
//! taken [`GROUP`] values at a time: parsed once, advanced round by round together ([`Kernel`]; with
//! one tweak, all rounds in registers: [`Kernel::fused`]), formatted once.

mod ahead;
#[doc(hidden)]
pub mod bench;
pub(crate) mod ends;
pub(crate) mod kernel;
#[cfg(test)]
mod levels_tests;
pub(crate) mod round;
pub(crate) mod slab;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

use self::ahead::Ahead;
pub(crate) use self::kernel::Kernel;
pub(crate) use self::round::GROUP;
use self::round::{AesKeys, BatchMod, Consts, Layout, Prefetch};
#[cfg(target_arch = "x86_64")]
use self::x86::decimal::Decimal;
#[cfg(target_arch = "x86_64")]
use self::x86::digits128;
use crate::Direction;
use crate::Error;
use crate::aes::{Aes, Block};
use crate::fpe::num::Radix;
use crate::fpe::{Tweaks, numerals_below};

/// Runs of fewer values go one value at a time (the single-value path is faster below it).
pub(crate) const MIN_RUN: usize = 5;

/// What a cipher fixes for one value length on the u64 path.
pub(crate) struct Plan<'a> {
    pub(crate) aes: &'a Aes,
    /// The AES-NI schedule of the same key, for the fused kernels.
    pub(crate) ni: Option<&'a AesKeys>,
    pub(crate) kernel: Kernel,
    pub(crate) rx: &'a Radix,
    /// Where the half goes in the block, how y is read, and the digit order.
    pub(crate) layout: Layout,
    /// The value length and the length of the first half A.
    pub(crate) n: usize,
    pub(crate) u: usize,
    /// Round i works modulo `m.0` (radix^u) when i is even, `m.1` (radix^v) when odd.
    pub(crate) m: (BatchMod, BatchMod),
    /// Round i's block is the value's base for i's parity ^ `terms[i]` ^ its half; `terms.len()` is
    /// the number of rounds (at most [`MAX_ROUNDS`]).
    pub(crate) terms: &'a [[u64; 2]],
}

/// The most Feistel rounds a cipher runs (FF1: 10, FF3: 8).
const MAX_ROUNDS: usize = 10;

/// One run for [`slab::Batched::run`]: [`MIN_RUN`] or more `values` of `len` numerals back to back, the
/// first being value `first` of the batch; ends and tweaks are checked, not numerals. `ahead` is what
/// the batch reads next.
pub(crate) struct Run<'a> {
    pub(crate) first: usize,
    pub(crate) values: &'a mut [u16],
    pub(crate) len: usize,
    pub(crate) ahead: Ahead<'a>,
}

/// Each value's constant block words for even and odd rounds: one pair for the run, or per index.
pub(crate) enum Bases<F> {
    Same([[u64; 2]; 2]),
    Each(F),
}

impl Bases<fn(usize) -> [[u64; 2]; 2]> {
    /// One pair for the whole run.
    pub(crate) fn same(bases: [[u64; 2]; 2]) -> Self {
        Bases::Same(bases)
    }
}

/// One group's state: both halves of every value, the bases by round parity, and the round's blocks.
struct Group {
    a: [u64; GROUP],
    b: [u64; GROUP],
    bases: [[[u64; 2]; GROUP]; 2],
    blocks: [Block; GROUP],
}

impl Plan<'_> {
    /// [`Plan::run`] on `run` of a batch, each value's bases from its tweak (checked) by `base`.
    pub(crate) fn run_tweaks(
        &self,
        tweaks: &Tweaks<'_>,
        run: Run<'_>,
        base: impl Fn(&[u8]) -> [[u64; 2]; 2],
        dir: Direction,
    ) -> Option<usize> {
        let Run { first, values, ahead, .. } = run;
        match tweaks {
            Tweaks::Same(t) => self.run(values, ahead, Bases::same(base(t)), dir),
            Tweaks::PerValue(ts) => self.run(values, ahead, Bases::Each(|j| base(ts[first + j])), dir),
        }
    }

    /// Encrypts or decrypts `data`, values of length `n` back to back whose numerals are not yet
    /// checked: `None` when all are done, `Some(k)` when a numeral not below the radix stopped it in
    /// value k or later (values `..k` done, the rest as given). Each group prefetches its share of `ahead`.
    pub(crate) fn run<F: FnMut(usize) -> [[u64; 2]; 2]>(
        &self,
        data: &mut [u16],
        ahead: Ahead<'_>,
        mut bases: Bases<F>,
        dir: Direction,
    ) -> Option<usize> {
        // The kernels' f64 estimates need round-to-nearest, whatever the host set.
        let _nearest = crate::fpe::rounding::Nearest::enter();
        let mut g = Group { a: [0; GROUP], b: [0; GROUP], bases: [[[0; 2]; GROUP]; 2], blocks: [[0; 16]; GROUP] };
        let rounds = self.terms.len();
        assert!(rounds <= MAX_ROUNDS, "at most {MAX_ROUNDS} rounds");
        // With one base pair, round i's block is a constant ^ the half.
        let mut blocks = [[0u64; 2]; MAX_ROUNDS];
        if let Bases::Same(pair) = bases {
            g.bases = pair.map(|b| [b; GROUP]);
            for (c, (t, i)) in blocks.iter_mut().zip(self.terms.iter().zip(0..)) {
                *c = [pair[i % 2][0] ^ t[0], pair[i % 2][1] ^ t[1]];
            }
        }
        let same = matches!(bases, Bases::Same(_));
        let consts = Consts::new(&blocks[..rounds], (&self.m.0, &self.m.1), self.layout);
        // Decimal values of up to 16 digits convert a group at a time (AVX-512, AVX2, SSE4.1).
        #[cfg(target_arch = "x86_64")]
        let dec = if self.rx.radix == 10 {
            Decimal::new(self.kernel.avx512(), self.n, self.u, self.big_endian())
        } else {
            None
        };
        #[cfg(target_arch = "x86_64")]
        let checks = dec.is_some();
        #[cfg(not(target_arch = "x86_64"))]
        let checks = false;
        if !checks && !wide(|| numerals_below(data, self.rx.radix)) {
            return Some(0);
        }
        for ((k, chunk), next) in data.chunks_mut(GROUP * self.n).enumerate().zip(ahead.groups(self.n)) {
            let count = chunk.len() / self.n;
            if let Bases::Each(f) = &mut bases {
                for j in 0..count {
                    [g.bases[0][j], g.bases[1][j]] = f(k * GROUP + j);
                }
            }
            #[cfg(target_arch = "x86_64")]
            if let Some(dec) = &dec {
                if !dec.parse_checked(chunk, &mut g.a, &mut g.b) {
                    return Some(k * GROUP);
                }
                self.rounds(&mut g, count, same.then_some(&consts), dir, next);
                dec.format(&g.a, &g.b, chunk);
                continue;
            }
            self.parse(chunk, &mut g);
            self.rounds(&mut g, count, same.then_some(&consts), dir, next);
            self.format(chunk, &g);
        }
        None
    }

    fn big_endian(&self) -> bool {
        self.layout != Layout::Ff3
    }

    /// NUM of both halves of every value in `chunk`.
    fn parse(&self, chunk: &[u16], g: &mut Group) {
        let (rx, n, u) = (self.rx, self.n, self.u);
        for j in 0..chunk.len() / n {
            (g.a[j], g.b[j]) = if self.big_endian() {
                num_halves::<true>(rx, chunk, j * n, n, u)
            } else {
                num_halves::<false>(rx, chunk, j * n, n, u)
            };
        }
    }

    /// STR of both halves of every value back into `chunk`, in the order [`str_halves`] needs.
    fn format(&self, chunk: &mut [u16], g: &Group) {
        let (rx, n, u) = (self.rx, self.n, self.u);
        if self.big_endian() {
            for j in (0..chunk.len() / n).rev() {
                str_halves::<true>(rx, chunk, j * n, n, u, (g.a[j], g.b[j]));
            }
        } else {
            for j in 0..chunk.len() / n {
                str_halves::<false>(rx, chunk, j * n, n, u, (g.a[j], g.b[j]));
            }
        }
    }

    /// The rounds for the group's first `n` values: even rounds update A, odd ones B. A fused kernel
    /// runs whole vectors of eight: the halves past `n` are left from earlier groups (or zero), below
    /// their moduli.
    fn rounds(&self, g: &mut Group, n: usize, same: Option<&Consts<'_>>, dir: Direction, mut next: Ahead<'_>) {
        let whole = n.next_multiple_of(8);
        if let Some(c) = same
            && self.kernel.fused(self.ni, c, &mut g.a[..whole], &mut g.b[..whole], dir, &mut next)
        {
            return;
        }
        next.rest();
        let rounds = self.terms.len();
        for r in 0..rounds {
            let i = dir.round(r, rounds);
            let (src, dst, m) =
                if i.is_multiple_of(2) { (&g.b, &mut g.a, &self.m.0) } else { (&g.a, &mut g.b, &self.m.1) };
            self.kernel.build(self.layout, &g.bases[i % 2][..n], self.terms[i], &src[..n], &mut g.blocks[..n]);
            self.aes.encrypt_blocks(&mut g.blocks[..n]);
            self.kernel.round(m, self.layout, &g.blocks[..n], &mut dst[..n], dir);
        }
    }
}

/// Whether both halves take the vector decimal conversions.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn decimal(rx: &Radix, n: usize, u: usize) -> bool {
    rx.radix == 10 && u <= 16 && n - u <= 16
}

/// NUM of both halves of the value `buf[s..s + n]` (A is its first `u` numerals), most significant
/// numeral first when `BE` (FF1), last otherwise (FF3). The decimal path may read around the value.
#[inline(always)]
pub(crate) fn num_halves<const BE: bool>(rx: &Radix, buf: &[u16], s: usize, n: usize, u: usize) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    if decimal(rx, n, u) {
        return (digits128::num::<BE>(buf, s, u), digits128::num::<BE>(buf, s + u, n - u));
    }
    let (xa, xb) = buf[s..s + n].split_at(u);
    if BE { (rx.num_be64(xa), rx.num_be64(xb)) } else { (rx.num_le64(xa), rx.num_le64(xb)) }
}

/// STR of both halves into the value `buf[s..s + n]` (see [`num_halves`]). The decimal path also
/// writes zeros below the value when `BE`, above it otherwise (never outside `buf`): several values
/// are written in descending (`BE`) or ascending order of position.
#[inline(always)]
pub(crate) fn str_halves<const BE: bool>(
    rx: &Radix,
    buf: &mut [u16],
    s: usize,
    n: usize,
    u: usize,
    (a, b): (u64, u64),
) {
    #[cfg(target_arch = "x86_64")]
    if decimal(rx, n, u) {
        if BE {
            digits128::put::<true>(buf, s + u, n - u, b);
            digits128::put::<true>(buf, s, u, a);
        } else {
            digits128::put::<false>(buf, s, u, a);
            digits128::put::<false>(buf, s + u, n - u, b);
        }
        return;
    }
    let (xa, xb) = buf[s..s + n].split_at_mut(u);
    if BE {
        rx.str_be64(a, xa);
        rx.str_be64(b, xb);
    } else {
        rx.str_le64(a, xa);
        rx.str_le64(b, xb);
    }
}

/// Calls `f(index of its first value, its values back to back, their length)` for each run of
/// consecutive values of one length. `data` starts at numeral `origin` of the batch and holds the
/// values `ends` (checked by [`check_ends`](ends::check_ends)), the first being value `first`. `f`
/// returns `Some(k)` when it did only the run's first `k` values: then the result is the batch
/// index of the first value not done (`None`: all were done).
pub(crate) fn for_each_run(
    data: &mut [u16],
    ends: &[usize],
    (origin, first): (usize, usize),
    mut f: impl FnMut(usize, &mut [u16], usize) -> Result<Option<usize>, Error>,
) -> Result<Option<usize>, Error> {
    let (mut rest, mut start, mut i) = (data, origin, 0);
    while i < ends.len() {
        let len = ends[i] - start;
        let mut j = i + 1;
        // Whole stretches of 64 values of this length first (vectorises).
        while j + 64 <= ends.len()
            && ends[j..j + 64].iter().zip(&ends[j - 1..]).fold(true, |same, (&e, &s)| same & (e.wrapping_sub(s) == len))
        {
            j += 64;
        }
        while j < ends.len() && ends[j] - ends[j - 1] == len {
            j += 1;
        }
        let (run, r) = core::mem::take(&mut rest).split_at_mut(ends[j - 1] - start);
        rest = r;
        if let Some(k) = f(first + i, run, len)? {
            return Ok(Some(first + i + k));
        }
        (start, i) = (ends[j - 1], j);
    }
    Ok(None)
}

/// A run of values of length `len` done one at a time by `each(index in the run, value)`, after a
/// check of its numerals against `radix` (a bad one: nothing done, `Some(0)`).
pub(crate) fn each_value(
    run: &mut [u16],
    len: usize,
    radix: u32,
    mut each: impl FnMut(usize, &mut [u16]) -> Result<(), Error>,
) -> Result<Option<usize>, Error> {
    if !wide(|| numerals_below(run, radix)) {
        return Ok(Some(0));
    }
    for (j, x) in run.chunks_mut(len.max(1)).enumerate() {
        each(j, x)?;
    }
    Ok(None)
}

/// `f()`, compiled for AVX2 when the CPU has it (its loops vectorise wider).
#[inline(always)]
#[allow(unsafe_code)]
pub(super) fn wide<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        fn avx2<R>(_: crate::cpu::Avx2, f: impl FnOnce() -> R) -> R {
            f()
        }
        if let Some(t) = crate::cpu::Avx2::get() {
            // SAFETY: `t` proves AVX2.
            return unsafe { avx2(t, f) };
        }
    }
    f()
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
