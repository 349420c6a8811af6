//! DSA signature verification (FIPS 186-4 §4.7, RFC 9580 §5.2.3.2) through
//! the `dsa` crate. Verification only: DSA keys are never made or used to
//! sign here.

use crypto_bigint::{BoxedUint, Resize as _};
use dsa::signature::hazmat::PrehashVerifier as _;

use super::modulus::require_min;
use super::{HashAlg, Mpi};
use crate::openpgp::{Error, Result};

/// The parameter sizes (L, N) of FIPS 186-4 §4.2 accepted: L = 1024 is
/// too small, and the `dsa` crate knows no others.
const SIZES: [(usize, usize); 3] = [(2048, 224), (2048, 256), (3072, 256)];

/// `m` as an integer of `bits` precision; larger is `too_large`.
fn uint(m: &Mpi, bits: u32, too_large: Error) -> Result<BoxedUint> {
    if m.bits() > bits as usize {
        return Err(too_large);
    }
    Ok(BoxedUint::from_be_slice_vartime(m.as_bytes()).resize(bits))
}

/// Verifies the DSA signature (r, s) over `digest` with the key
/// (p, q, g, y). The digest is truncated to its left-most N bits (N the
/// size of q), as FIPS 186-4 §4.6 says; a digest shorter than q is
/// refused (RFC 9580 §5.2.3.2: the hash must be at least N bits).
pub(crate) fn verify(key: [&Mpi; 4], hash: HashAlg, digest: &[u8], r: &Mpi, s: &Mpi) -> Result<()> {
    let [p, q, g, y] = key;
    require_min(p.bits())?;
    if !SIZES.contains(&(p.bits(), q.bits())) {
        return Err(Error::Unsupported("DSA parameter sizes other than (2048, 224), (2048, 256) and (3072, 256)"));
    }
    if hash.digest_len() * 8 < q.bits() {
        return Err(Error::BadSignature);
    }
    let (lp, lq) = (p.as_bytes().len() as u32 * 8, q.as_bytes().len().div_ceil(8) as u32 * 64);
    let (pp, qq) = (BoxedUint::from_be_slice_vartime(p.as_bytes()), BoxedUint::from_be_slice_vartime(q.as_bytes()));
    if q.as_bytes().last().is_none_or(|b| b & 1 == 0) {
        return Err(Error::Malformed("DSA subgroup order is even"));
    }
    let malformed = |_| Error::Malformed("DSA public key");
    let key_part = || Error::Malformed("DSA public value larger than its modulus");
    let g = uint(g, lp, key_part())?;
    let components = dsa::Components::from_components(pp.resize(lp), qq.resize(lq), g).map_err(malformed)?;
    let key = dsa::VerifyingKey::from_components(components, uint(y, lp, key_part())?).map_err(malformed)?;
    let (r, s) = (uint(r, lq, Error::BadSignature)?, uint(s, lq, Error::BadSignature)?);
    let sig = dsa::Signature::from_components(r, s).ok_or(Error::BadSignature)?;
    key.verify_prehash(digest, &sig).map_err(|_| Error::BadSignature)
}
