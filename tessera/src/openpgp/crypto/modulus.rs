//! What DSA, Elgamal and RSA share: moduli of 2048 bits at least, and the
//! conversion of MPIs to crypto-bigint integers.

use crypto_bigint::BoxedUint;
use crypto_bigint::modular::{BoxedMontyForm, BoxedMontyParams};
use crypto_bigint::{Odd, Resize as _};

use super::Mpi;
use crate::openpgp::{Error, Result};

/// Smallest modulus of RSA, DSA and Elgamal keys accepted for any use, in
/// bits (RFC 9580 §12.4 and §12.5; Sequoia's standard policy agrees).
pub(crate) const MIN_BITS: usize = 2048;

/// Largest DSA or Elgamal modulus accepted, in bits.
pub(crate) const MAX_BITS: usize = 8192;

/// Refuses a key whose modulus has fewer than [`MIN_BITS`] bits.
pub(crate) fn require_min(bits: usize) -> Result<()> {
    if bits < MIN_BITS { Err(Error::KeyTooSmall { bits, min: MIN_BITS }) } else { Ok(()) }
}

/// The modulus `p` of a DSA or Elgamal key, checked for size and oddness,
/// with its Montgomery parameters.
pub(crate) fn prime_modulus(p: &Mpi) -> Result<BoxedMontyParams> {
    require_min(p.bits())?;
    if p.bits() > MAX_BITS {
        return Err(Error::Limit("DSA or Elgamal modulus larger than 8192 bits"));
    }
    let p = Odd::new(BoxedUint::from_be_slice_vartime(p.as_bytes()))
        .into_option()
        .ok_or(Error::Malformed("even DSA or Elgamal modulus"))?;
    Ok(BoxedMontyParams::new_vartime(p))
}

/// `m` as an integer of `params`' precision, when it lies in 1..p.
pub(crate) fn residue(m: &Mpi, params: &BoxedMontyParams) -> Option<BoxedMontyForm> {
    let precision = params.bits_precision();
    if m.bits() == 0 || m.bits() > precision as usize {
        return None;
    }
    let x = BoxedUint::from_be_slice_vartime(m.as_bytes()).resize(precision);
    (x < *params.modulus().as_ref()).then(|| BoxedMontyForm::new(x, params))
}

/// `m` as an integer of `bits` precision (a secret exponent: its size is
/// public, its value is not looked at).
pub(crate) fn exponent(m: &Mpi, bits: u32) -> Result<BoxedUint> {
    if m.bits() > bits as usize {
        return Err(Error::Malformed("secret exponent larger than the modulus"));
    }
    Ok(BoxedUint::from_be_slice_vartime(m.as_bytes()).resize(bits))
}

/// Whether `y = g^x mod p`: the check that the secret exponent of a DSA or
/// Elgamal key belongs to its public key (constant time in `x`).
pub(crate) fn secret_matches(p: &Mpi, g: &Mpi, y: &Mpi, x: &Mpi) -> Result<bool> {
    let params = prime_modulus(p)?;
    let g = residue(g, &params).ok_or(Error::Malformed("DSA or Elgamal generator out of range"))?;
    let x = exponent(x, params.bits_precision())?;
    let derived = g.pow(&x).retrieve();
    Ok(Mpi::new(&derived.to_be_bytes()) == *y)
}
