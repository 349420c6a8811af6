//! The packet encodings of the legacy Curve25519 keys (RFC 9580 §5.5.5.5,
//! §5.5.5.6): points prefixed with 0x40, secrets held as big-endian MPIs.

use zeroize::Zeroizing;

use super::Mpi;
use crate::openpgp::Result;

/// A native 32-octet point as the packet's MPI (0x40 || point).
pub(crate) fn legacy_point(native: &[u8; 32]) -> Mpi {
    let mut v = [0u8; 33];
    v[0] = 0x40;
    v[1..].copy_from_slice(native);
    Mpi::new(&v)
}

/// The native X25519 secret of a Curve25519Legacy ECDH key (the packet
/// holds it reversed, as a big-endian MPI).
pub(crate) fn curve25519_legacy_secret(scalar: &Mpi) -> Result<Zeroizing<[u8; 32]>> {
    let be = scalar.to_padded(32, "Curve25519Legacy secret longer than 32 bytes")?;
    let mut native = Zeroizing::new([0u8; 32]);
    native.copy_from_slice(&be);
    native.reverse();
    Ok(native)
}

/// The native Ed25519 seed of an EdDSALegacy key.
pub(crate) fn eddsa_legacy_seed(seed: &Mpi) -> Result<Zeroizing<[u8; 32]>> {
    let be = seed.to_padded(32, "EdDSALegacy secret longer than 32 bytes")?;
    let mut native = Zeroizing::new([0u8; 32]);
    native.copy_from_slice(&be);
    Ok(native)
}
