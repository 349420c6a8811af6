//! Multiprecision integers (RFC 9580 §3.2) and the small field readers the
//! algorithm-specific key, signature and PKESK fields are made of.

use zeroize::Zeroize;

use crate::openpgp::{Error, Result};

/// Largest MPI accepted, in bits (RSA-16384 and then some).
pub const MAX_MPI_BITS: usize = 16384 + 64;

/// A multiprecision integer: big-endian magnitude without leading zero
/// bytes (the empty vector is zero). Zeroized on drop when it holds a
/// secret (see [`SecretMaterial`](super::SecretMaterial)).
///
/// ```
/// use tessera::openpgp::crypto::Mpi;
/// let mut input: &[u8] = &[0x00, 0x09, 0x01, 0xff];
/// let m = Mpi::parse(&mut input).unwrap();
/// assert_eq!(m.as_bytes(), &[0x01, 0xff]);
/// let mut out = Vec::new();
/// m.serialize(&mut out);
/// assert_eq!(out, [0x00, 0x09, 0x01, 0xff]);
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Zeroize)]
pub struct Mpi(Vec<u8>);

impl std::fmt::Debug for Mpi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mpi({} bits)", self.bits())
    }
}

impl Mpi {
    /// An MPI from big-endian bytes (leading zero bytes are dropped).
    ///
    /// ```
    /// use tessera::openpgp::crypto::Mpi;
    /// assert_eq!(Mpi::new(&[0, 0, 1, 0]).as_bytes(), [1, 0]);
    /// ```
    pub fn new(bytes: &[u8]) -> Mpi {
        let start = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
        Mpi(bytes[start..].to_vec())
    }

    /// Reads an MPI: a two-octet bit count, then the bytes. Leading zero
    /// bytes, if a sloppy encoder wrote them, are dropped.
    ///
    /// ```
    /// use tessera::openpgp::crypto::Mpi;
    /// let mut input: &[u8] = &[0x00, 0x01, 0x01, 0xaa];
    /// assert_eq!(Mpi::parse(&mut input)?.bits(), 1);
    /// assert_eq!(input, [0xaa]); // the rest
    /// assert!(Mpi::parse(&mut &[0x00, 0x10, 0x01][..]).is_err()); // 16 bits announced, 8 present
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn parse(input: &mut &[u8]) -> Result<Mpi> {
        let bits = usize::from(u16::from_be_bytes(take_array(input, "MPI length")?));
        if bits > MAX_MPI_BITS {
            return Err(Error::Limit("MPI larger than 16384 bits"));
        }
        let bytes = take(input, bits.div_ceil(8), "MPI")?;
        Ok(Mpi::new(bytes))
    }

    /// Writes the bit count and the bytes.
    ///
    /// ```
    /// use tessera::openpgp::crypto::Mpi;
    /// let mut out = Vec::new();
    /// Mpi::new(&[0x7f, 0x00]).serialize(&mut out);
    /// assert_eq!(out, [0x00, 0x0f, 0x7f, 0x00]);
    /// ```
    pub fn serialize(&self, out: &mut Vec<u8>) {
        let bits = self.bits() as u16;
        out.extend_from_slice(&bits.to_be_bytes());
        out.extend_from_slice(&self.0);
    }

    /// The magnitude, big-endian, without leading zeros.
    ///
    /// ```
    /// use tessera::openpgp::crypto::Mpi;
    /// assert_eq!(Mpi::new(&[0, 5]).as_bytes(), [5]);
    /// assert!(Mpi::new(&[0, 0]).as_bytes().is_empty()); // zero
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The magnitude left-padded with zeros to `len` bytes, or an error if
    /// it does not fit.
    ///
    /// ```
    /// use tessera::openpgp::crypto::Mpi;
    /// let m = Mpi::new(&[1, 2]);
    /// assert_eq!(*m.to_padded(4, "scalar")?, [0, 0, 1, 2]);
    /// assert!(m.to_padded(1, "scalar").is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn to_padded(&self, len: usize, what: &'static str) -> Result<zeroize::Zeroizing<Vec<u8>>> {
        if self.0.len() > len {
            return Err(Error::Malformed(what));
        }
        let mut v = zeroize::Zeroizing::new(vec![0u8; len]);
        v[len - self.0.len()..].copy_from_slice(&self.0);
        Ok(v)
    }

    /// Number of significant bits.
    ///
    /// ```
    /// use tessera::openpgp::crypto::Mpi;
    /// assert_eq!(Mpi::new(&[0x01, 0x00]).bits(), 9);
    /// ```
    pub fn bits(&self) -> usize {
        match self.0.first() {
            None => 0,
            Some(&b) => self.0.len() * 8 - b.leading_zeros() as usize,
        }
    }

    /// Length of the serialized form (two octets plus the bytes).
    ///
    /// ```
    /// use tessera::openpgp::crypto::Mpi;
    /// let m = Mpi::new(&[0x01, 0x00]);
    /// let mut out = Vec::new();
    /// m.serialize(&mut out);
    /// assert_eq!(m.serialized_len(), out.len());
    /// ```
    pub fn serialized_len(&self) -> usize {
        2 + self.0.len()
    }
}

/// Takes `n` bytes off the front of `input`; checks before touching them.
pub(crate) fn take<'a>(input: &mut &'a [u8], n: usize, what: &'static str) -> Result<&'a [u8]> {
    if input.len() < n {
        return Err(Error::Truncated(what));
    }
    let (head, rest) = input.split_at(n);
    *input = rest;
    Ok(head)
}

/// Takes a fixed-size array off the front of `input`.
pub(crate) fn take_array<const N: usize>(input: &mut &[u8], what: &'static str) -> Result<[u8; N]> {
    let mut a = [0u8; N];
    a.copy_from_slice(take(input, N, what)?);
    Ok(a)
}

/// Takes one octet.
pub(crate) fn take_u8(input: &mut &[u8], what: &'static str) -> Result<u8> {
    Ok(take_array::<1>(input, what)?[0])
}

/// Reads a one-octet length then that many bytes (OIDs, the KDF parameters,
/// the wrapped keys of ECDH and X25519/X448 PKESKs).
pub(crate) fn take_len_prefixed<'a>(input: &mut &'a [u8], what: &'static str) -> Result<&'a [u8]> {
    let len = take_u8(input, what)?;
    take(input, usize::from(len), what)
}

/// Writes a one-octet length then the bytes.
pub(crate) fn put_len_prefixed(out: &mut Vec<u8>, bytes: &[u8]) {
    debug_assert!(bytes.len() < 256);
    out.push(bytes.len() as u8);
    out.extend_from_slice(bytes);
}
