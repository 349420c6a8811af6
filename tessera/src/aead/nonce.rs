//! The argument types of [`AeadInPlace`](super::AeadInPlace): a nonce that
//! says by its constructor that it is used once, and the associated data.

/// The nonce of one seal or open.
///
/// Neither `Clone` nor `Copy`, and taken by value: a `Nonce` serves one
/// call, and the constructor's name makes the caller state the rule every
/// AEAD mode depends on (as *ring*'s `Nonce` does). It borrows the bytes,
/// so any length a mode accepts fits (OCB 1..=15, EAX any, GCM 12); the
/// mode checks the length.
///
/// ```
/// use tessera::aead::{Aad, AeadInPlace, Nonce, Ocb};
/// let ocb = Ocb::new(&[1u8; 16])?;
/// let mut counter = [0u8; 15];
/// let mut buf = *b"first message";
/// counter[14] = 1;
/// let tag = ocb.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&counter), Aad::empty(), &mut buf)?;
/// ocb.open_in_place_separate_tag(Nonce::assume_unique_for_key(&counter), Aad::empty(), &mut buf, &tag)?;
/// assert_eq!(&buf, b"first message");
/// # Ok::<(), tessera::Error>(())
/// ```
#[derive(Debug)]
pub struct Nonce<'a>(&'a [u8]);

impl<'a> Nonce<'a> {
    /// The nonce `bytes`, which the caller promises are never used to seal
    /// another message under the same key.
    #[inline]
    ///
    /// ```
    /// use tessera::aead::Nonce;
    /// // OpenPGP's chunk nonces: an IV, then the chunk index (unique per key).
    /// let (iv, index) = ([7u8; 7], 3u64);
    /// let mut bytes = [0u8; 15];
    /// bytes[..7].copy_from_slice(&iv);
    /// bytes[7..].copy_from_slice(&index.to_be_bytes());
    /// assert_eq!(Nonce::assume_unique_for_key(&bytes).as_bytes().len(), 15);
    /// ```
    pub fn assume_unique_for_key(bytes: &'a [u8]) -> Self {
        Nonce(bytes)
    }

    /// The nonce's bytes (for implementations of the trait).
    ///
    /// ```
    /// use tessera::aead::Nonce;
    /// assert_eq!(Nonce::assume_unique_for_key(&[1, 2, 3]).as_bytes(), [1, 2, 3]);
    /// ```
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }
}

/// The associated data of one seal or open: authenticated, not encrypted.
///
/// ```
/// use tessera::aead::Aad;
/// assert_eq!(Aad::new(b"header").as_bytes(), b"header");
/// assert!(Aad::empty().as_bytes().is_empty());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Aad<'a>(&'a [u8]);

impl<'a> Aad<'a> {
    /// Associated data `bytes`.
    #[inline]
    ///
    /// ```
    /// assert_eq!(tessera::aead::Aad::new(&[0xd2, 2]).as_bytes(), [0xd2, 2]);
    /// ```
    pub fn new(bytes: &'a [u8]) -> Self {
        Aad(bytes)
    }

    /// No associated data.
    #[inline]
    ///
    /// ```
    /// assert_eq!(tessera::aead::Aad::empty().as_bytes(), b"");
    /// ```
    pub fn empty() -> Self {
        Aad(&[])
    }

    /// The associated data's bytes.
    ///
    /// ```
    /// assert_eq!(tessera::aead::Aad::new(b"ad").as_bytes(), b"ad");
    /// ```
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }
}
