//! Unit tests of the SIV internals: S2V's lanes against the RFC's loop.

use super::*;

#[test]
fn send_sync_and_debug_hides_keys() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<AesSiv>();
    assert_send_sync::<Cmac>();
    let siv = AesSiv::new(&[0xab; 64]).unwrap();
    let s = format!("{siv:?} {:?}", siv.mac);
    assert_eq!(s, "AesSiv(AES-SIV-512, ..) Cmac(AES-256, ..)");
}

#[test]
fn lanes_and_sequential_s2v_agree() {
    let siv = AesSiv::new(&[9u8; 32]).unwrap();
    let data: Vec<u8> = (0..300u32).map(|i| (i * 31 + 7) as u8).collect();
    let comps: Vec<&[u8]> = (0..130).map(|i| &data[i % 7..(i % 7) + (i * 13) % 200]).collect();
    for n_ad in [0, 1, 2, 5, 63, 64, 65, 126] {
        for n in [0, 1, 15, 16, 17, 31, 32, 33, 48, 100, 250] {
            let s = &data[..n];
            let ad = &comps[..n_ad];
            // Reference: the RFC's loop, one component at a time.
            let mut d = siv.mac.mac(&[0; 16]);
            for c in ad {
                d = crate::aes::block::xor(&dbl(&d), &siv.mac.mac(c));
            }
            let t: Vec<u8> = if n >= 16 {
                let mut t = s.to_vec();
                t[n - 16..].iter_mut().zip(d).for_each(|(a, b)| *a ^= b);
                t
            } else {
                crate::aes::block::xor(&dbl(&d), &crate::aes::block::pad(s)).to_vec()
            };
            let want = siv.mac.mac(&t);
            assert_eq!(siv.s2v(None, ad, s).unwrap(), want, "n_ad={n_ad} n={n}");
            assert_eq!(siv.fold_d(None, ad), d);
            assert_eq!(siv.fold_d_lanes(ad.iter().copied()), d);
        }
    }
    assert!(matches!(siv.s2v(None, &comps[..127], b""), Err(Error::TooManyAd { got: 127, max: 126 })));
    assert!(matches!(siv.s2v(Some(b"n"), &comps[..126], b""), Err(Error::TooManyAd { got: 127, .. })));
}
