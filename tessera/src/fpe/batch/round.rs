//! What every batch kernel shares: the round modulus and its constants ([`BatchMod`], [`Consts`]),
//! the block [`Layout`], [`Prefetch`], and the portable kernel. No branch or index depends on a value.

use crate::Direction;
use crate::fpe::num::{Mod64, limb_residues};

/// Values a batch advances together per AES call.
pub(crate) const GROUP: usize = 64;
// The fused kernels take whole vectors of eight values.
const _: () = assert!(GROUP.is_multiple_of(8));

/// What a fused kernel asks for in L2 while it runs (the numerals and ends the batch reads next:
/// `ahead.rs`), a line at a time between its stages or all at once.
pub(crate) trait Prefetch {
    /// Asks for the next line, if any is left.
    fn line(&mut self);
    /// Asks for everything left.
    fn rest(&mut self);
    /// Asks for one `parts`-th of what is left, in whole lines rounded up (all of it when `parts` <= 1).
    fn part(&mut self, parts: usize);
}

/// Nothing to ask for.
impl Prefetch for () {
    fn line(&mut self) {}
    fn rest(&mut self) {}
    fn part(&mut self, _: usize) {}
}

/// The AES-NI key schedule the fused kernels run on (nothing elsewhere).
#[cfg(target_arch = "x86_64")]
pub(crate) type AesKeys = crate::aes::ni::Keys;
#[cfg(not(target_arch = "x86_64"))]
pub(crate) type AesKeys = ();

/// A round modulus with what every kernel needs precomputed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BatchMod {
    pub(crate) m: Mod64,
    /// 1 / m, rounded to nearest.
    pub(crate) inv: f64,
    /// 2^32, 2^64 and 2^96 mod m, when m <= [`LIMB_MODULI`] (the portable FF3 round's 32-bit limbs).
    pub(crate) limbs: Option<[u64; 3]>,
}

/// The largest modulus whose 128-bit y the portable FF3 round reduces by its 32-bit limbs:
/// y0 + y1 (2^32 mod m) + y2 (2^64 mod m) + y3 (2^96 mod m) < 2^64 for m <= 2^30.
pub(crate) const LIMB_MODULI: u64 = 1 << 30;

/// The f64 estimate of y / m (y < 2^64) is within one of the quotient when m >= 2^14; m < 2^52 keeps
/// the corrected remainder in (-m, 2m) inside an i64.
const VECTOR_MODULI: core::ops::Range<u64> = 1 << 16..1 << 52;

impl BatchMod {
    pub(crate) fn new(m: Mod64) -> Self {
        let mm = m.modulus();
        // 1/m rounded to nearest, as the estimates assume, whatever the host set.
        let _nearest = crate::fpe::rounding::Nearest::enter();
        BatchMod { m, inv: 1.0 / mm as f64, limbs: (mm <= LIMB_MODULI).then(|| limb_residues(mm)) }
    }

    /// Whether the vector kernels take this modulus in `layout`.
    pub(crate) fn vector(&self, layout: Layout) -> bool {
        let mm = self.m.modulus();
        // FF3's 128-bit y is reduced 32 bits at a time: m below 2^32.
        match layout {
            Layout::Ff1 => VECTOR_MODULI.contains(&mm),
            Layout::Ff1Y96 => false,
            Layout::Ff3 => VECTOR_MODULI.contains(&mm) && mm >> 32 == 0,
        }
    }
}

/// What a run with one tweak fixes for the fused kernels ([`Kernel::fused`](super::Kernel::fused)):
/// round i's block before the half goes in, and the moduli and their constants for even and odd rounds.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct Consts<'a> {
    pub(crate) blocks: &'a [[u64; 2]],
    pub(crate) m: [u64; 2],
    /// floor(2^64 / m) (the fused AVX-512 Barrett step).
    pub(crate) mu: [u64; 2],
    /// 2^32, 2^64 and 2^96 mod m (FF3's y in 32-bit limbs).
    pub(crate) r: [[u64; 3]; 2],
    pub(crate) layout: Layout,
    /// Whether the vector kernels take both moduli in this layout.
    pub(crate) vector: bool,
    /// FF1 moduli both at most [`FOLD_MODULI`] and not `vector`: the VAES-512 kernel folds y to 52 bits first (`mu` is
    /// then floor(2^52 / m)).
    pub(crate) fold: bool,
}

/// The largest FF1 modulus the VAES-512 kernel's folded reduction takes (y folded is below m·2^32,
/// which IFMA's 52 bits hold).
const FOLD_MODULI: u64 = 1 << 20;

impl<'a> Consts<'a> {
    pub(crate) fn new(blocks: &'a [[u64; 2]], (mu, mv): (&BatchMod, &BatchMod), layout: Layout) -> Self {
        let vector = mu.vector(layout) && mv.vector(layout);
        let m = [mu.m.modulus(), mv.m.modulus()];
        let fold = !vector && layout == Layout::Ff1 && m.iter().all(|&m| (2..=FOLD_MODULI).contains(&m));
        // The moduli are public (radix powers): a plain division is fine here.
        let r = m.map(limb_residues);
        let barrett = m.map(|m| ((1u128 << if fold { 52 } else { 64 }) / m as u128) as u64);
        Consts { blocks, m, mu: barrett, r, layout, vector, fold }
    }

    /// Whether both moduli are at most `max`.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn below(&self, max: u64) -> bool {
        self.m.iter().all(|&m| m <= max)
    }
}

/// How a round's half enters its AES block (two little-endian 64-bit words), and how y is read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// FF1 with d = 8: the half is xored into the block's last 8 bytes big-endian; y is the output's
    /// first 8 bytes big-endian.
    Ff1,
    /// FF1 with d = 12: as [`Layout::Ff1`], but y is the first 12 bytes (portable only).
    Ff1Y96,
    /// FF3-1 and FF3 (the block is REVB(P)): the half is xored into the first 8 bytes little-endian; y
    /// is all 16 bytes little-endian.
    Ff3,
}

/// The portable block builder (also compiled for AVX2 and AVX-512).
#[inline(always)]
pub(crate) fn build_portable(layout: Layout, bases: &[[u64; 2]], term: [u64; 2], x: &[u64], blocks: &mut [[u8; 16]]) {
    #[inline(always)]
    fn go(bases: &[[u64; 2]], x: &[u64], blocks: &mut [[u8; 16]], f: impl Fn([u64; 2], u64) -> [u64; 2]) {
        for ((blk, &b), &x) in blocks.iter_mut().zip(bases).zip(x) {
            let [q0, q1] = f(b, x);
            blk[..8].copy_from_slice(&q0.to_le_bytes());
            blk[8..].copy_from_slice(&q1.to_le_bytes());
        }
    }
    match layout {
        Layout::Ff1 | Layout::Ff1Y96 => go(bases, x, blocks, |b, x| [b[0] ^ term[0], b[1] ^ term[1] ^ x.swap_bytes()]),
        Layout::Ff3 => go(bases, x, blocks, |b, x| [b[0] ^ term[0] ^ x, b[1] ^ term[1]]),
    }
}

/// The scalar kernel (also the vector kernels' tails): [`round_limbs`] for FF3 when
/// m <= [`LIMB_MODULI`], else [`round_portable`].
pub(crate) fn round_scalar(m: &BatchMod, layout: Layout, blocks: &[[u8; 16]], x: &mut [u64], dir: Direction) {
    match (layout, &m.limbs) {
        (Layout::Ff3, Some(r)) => round_limbs(&m.m, r, blocks, x, dir),
        _ => round_portable(&m.m, layout, blocks, x, dir),
    }
}

/// The portable kernel: y read from each block as `layout` says and reduced, then a masked modular
/// add or subtract; one branch-free loop per layout and direction.
pub(crate) fn round_portable(m: &Mod64, layout: Layout, blocks: &[[u8; 16]], x: &mut [u64], dir: Direction) {
    if dir.is_encrypt() { round_dir::<true>(m, layout, blocks, x) } else { round_dir::<false>(m, layout, blocks, x) }
}

/// [`round_portable`] in one direction (`ENC`: encrypting).
#[inline(always)]
fn round_dir<const ENC: bool>(m: &Mod64, layout: Layout, blocks: &[[u8; 16]], x: &mut [u64]) {
    match layout {
        Layout::Ff1 => update::<ENC>(m, blocks, x, |b| m.rem64(u64::from_be_bytes(word(b, 0)))),
        Layout::Ff1Y96 => update::<ENC>(m, blocks, x, |b| m.reduce96(u128::from_be_bytes(*b) >> 32)),
        Layout::Ff3 => update::<ENC>(m, blocks, x, |b| m.reduce(u128::from_le_bytes(*b))),
    }
}

/// The FF3 round for m <= [`LIMB_MODULI`] (`r` = 2^32, 2^64 and 2^96 mod m): y by [`rem_limbs`].
pub(crate) fn round_limbs(m: &Mod64, r: &[u64; 3], blocks: &[[u8; 16]], x: &mut [u64], dir: Direction) {
    let y = |b: &[u8; 16]| rem_limbs(m, r, u64::from_le_bytes(word(b, 0)), u64::from_le_bytes(word(b, 8)));
    if dir.is_encrypt() { update::<true>(m, blocks, x, y) } else { update::<false>(m, blocks, x, y) }
}

/// `x[j] = x[j] +- y(blocks[j]) mod m` for every j (`ENC`: add).
#[inline(always)]
fn update<const ENC: bool>(m: &Mod64, blocks: &[[u8; 16]], x: &mut [u64], y: impl Fn(&[u8; 16]) -> u64) {
    for (t, blk) in x.iter_mut().zip(blocks) {
        let y = y(blk);
        *t = if ENC { m.add(*t, y) } else { m.sub(*t, y) };
    }
}

/// Bytes `at..at + 8` of a block.
#[inline(always)]
fn word(b: &[u8; 16], at: usize) -> [u8; 8] {
    b[at..at + 8].try_into().expect("8 bytes")
}

/// `(hi · 2^64 + lo) mod m` for m <= [`LIMB_MODULI`], `r` = 2^32, 2^64 and 2^96 mod m: the four 32-bit limbs
/// weighted by their residues sum below 2^64, and one Barrett step finishes.
#[inline(always)]
pub(crate) fn rem_limbs(m: &Mod64, r: &[u64; 3], lo: u64, hi: u64) -> u64 {
    let sum = (lo & 0xffff_ffff) + (lo >> 32) * r[0] + (hi & 0xffff_ffff) * r[1] + (hi >> 32) * r[2];
    m.rem64(sum)
}
