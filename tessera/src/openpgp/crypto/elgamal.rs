//! Elgamal session-key decryption (RFC 9580 §5.1.3, the encrypt-only
//! Elgamal of GnuPG's old keys): `m = c2 · c1^(p-1-x) mod p`, one
//! constant-time exponentiation (crypto-bigint), then the EME-PKCS1-v1_5
//! padding removed in constant time. Decryption only: Elgamal keys are
//! never made or encrypted to here.

use crypto_bigint::Resize as _;
use zeroize::Zeroizing;

use super::modulus::{exponent, prime_modulus, residue};
use super::{Mpi, eme};
use crate::openpgp::{Error, Result};

/// The padded session key of the Elgamal ciphertext (c1, c2) under the
/// key (p, x). Every failure after the key's own checks is
/// [`Error::SessionKeyDecryption`].
pub(crate) fn decrypt(p: &Mpi, x: &Mpi, c1: &Mpi, c2: &Mpi) -> Result<Zeroizing<Vec<u8>>> {
    let params = prime_modulus(p)?;
    let precision = params.bits_precision();
    let x = Zeroizing::new(exponent(x, precision)?);
    let one = crypto_bigint::BoxedUint::one().resize(precision);
    let p_minus_1 = params.modulus().as_ref().wrapping_sub(&one);
    if *x >= p_minus_1 {
        return Err(Error::Malformed("Elgamal secret exponent out of range"));
    }
    let (c1, c2) = match (residue(c1, &params), residue(c2, &params)) {
        (Some(c1), Some(c2)) => (c1, c2),
        _ => return Err(Error::SessionKeyDecryption),
    };
    // c1 = 1 or p-1 (orders 1 and 2) would make the result depend on x
    // only through its parity: a success or failure would leak that bit.
    let c1_value = c1.retrieve();
    if c1_value == one || c1_value == p_minus_1 {
        return Err(Error::SessionKeyDecryption);
    }
    // c1^(p-1) = 1 for p prime: c1^(p-1-x) is c1^-x without an inversion.
    let e = Zeroizing::new(p_minus_1.wrapping_sub(&*x));
    let m = Zeroizing::new((c2 * c1.pow(&e)).retrieve().to_be_bytes());
    let k = p.as_bytes().len();
    eme::decode(&m[m.len() - k..])
}
