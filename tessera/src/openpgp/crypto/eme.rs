//! EME-PKCS1-v1_5 decoding (RFC 8017 §7.2.2 step 3, RFC 9580 §5.1.3) in
//! constant time: how long the padding is, and whether it is valid, shows
//! neither in the time taken nor in which error comes back.

use subtle::{Choice, ConditionallySelectable as _, ConstantTimeEq as _, ConstantTimeGreater as _};
use zeroize::Zeroizing;

use crate::openpgp::{Error, Result};

/// The message inside `em` = `00 || 02 || PS || 00 || M`, where PS is at
/// least eight non-zero octets. Any other form is
/// [`Error::SessionKeyDecryption`], decided only after every octet was
/// looked at the same way.
pub(crate) fn decode(em: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    if em.len() < 11 || em.len() > u32::MAX as usize {
        return Err(Error::SessionKeyDecryption);
    }
    let mut valid = em[0].ct_eq(&0) & em[1].ct_eq(&2);
    let mut found = Choice::from(0);
    let mut separator = 0u32;
    for (i, b) in em.iter().enumerate().skip(2) {
        let zero = b.ct_eq(&0);
        separator.conditional_assign(&(i as u32), zero & !found);
        found |= zero;
    }
    // PS is em[2..separator]: eight octets or more.
    valid &= found & separator.ct_gt(&9);
    if !bool::from(valid) {
        return Err(Error::SessionKeyDecryption);
    }
    Ok(Zeroizing::new(em[separator as usize + 1..].to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn em(ps: usize, m: &[u8]) -> Vec<u8> {
        [&[0, 2][..], &vec![0x5a; ps], &[0], m].concat()
    }

    #[test]
    fn reads_the_message_after_the_padding() {
        assert_eq!(*decode(&em(8, b"key")).unwrap(), b"key");
        assert_eq!(*decode(&em(100, b"")).unwrap(), b"");
        assert_eq!(*decode(&em(8, &[0, 1, 0])).unwrap(), [0, 1, 0]); // zeros inside M stay
    }

    #[test]
    fn refuses_every_malformed_padding_alike() {
        let good = em(20, b"key");
        let mut cases = vec![em(7, b"key"), good[..10].to_vec(), [&[0, 2][..], &[0x5a; 30]].concat()];
        for (i, v) in [(0, 1), (1, 1), (1, 0)] {
            let mut bad = good.clone();
            bad[i] = v;
            cases.push(bad);
        }
        for bad in cases {
            assert!(matches!(decode(&bad), Err(Error::SessionKeyDecryption)), "{bad:?}");
        }
    }
}
