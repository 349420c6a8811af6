//! `siv_decrypt`: AES-SIV and CMAC.

use tessera::siv::{AesSiv, BatchAd};
use tessera::{Cmac, Error};

use super::common::*;

/// AES-SIV open on arbitrary ciphertext and associated data (it must fail
/// and leave no plaintext behind), then the input sealed and opened in
/// every form (one-shot, into a buffer, in place, detached, batch), a
/// flipped bit refused, and CMAC one-shot against streaming.
///
/// Input: `[key/nonce][AD count]`, then per AD component a length octet
/// and the octets, then (with a nonce) a length octet and the nonce, then
/// the ciphertext.
pub fn siv_decrypt(data: &[u8]) {
    let mut d = data;
    let mode = take_u8(&mut d);
    let n_ad = take_u8(&mut d) as usize;
    let key_len = [32, 48, 64, 16][mode as usize & 3];
    let key: Vec<u8> = (0..key_len as u8).map(|i| i.wrapping_mul(0x3b) ^ 0x5c).collect();
    let ad: Vec<&[u8]> = (0..n_ad)
        .map(|_| {
            let l = take_u8(&mut d) as usize;
            take(&mut d, l)
        })
        .collect();
    let nonce = if mode & 4 != 0 {
        let l = take_u8(&mut d) as usize;
        Some(take(&mut d, l))
    } else {
        None
    };
    let ct = d;

    let siv = match AesSiv::new(&key) {
        Ok(s) => s,
        Err(_) => {
            assert!(!matches!(key_len, 32 | 48 | 64));
            return;
        }
    };
    let too_many = ad.len() + nonce.is_some() as usize > tessera::siv::MAX_AD;
    forged_input_fails(&siv, nonce, &ad, ct, too_many);
    // Seal -> open with the same inputs.
    let pt = ct;
    let sealed = siv.seal(nonce, &ad, pt);
    if too_many {
        assert!(matches!(sealed, Err(Error::TooManyAd { .. })), "{sealed:?}");
        return;
    }
    let sealed = sealed.expect("valid inputs");
    let (v, det) = every_seal_form_agrees(&siv, nonce, &ad, pt, &sealed);
    flipped_bits_fail(&siv, nonce, &ad, mode, &sealed, &v, &det);
    let cut = 1 + (mode as usize >> 4);
    batch_agrees(&siv, nonce, &ad, pt, cut);
    // CMAC: one call equals streaming in pieces.
    let cmac = Cmac::new(&key[..key_len / 2]).expect("AES key");
    let mut st = cmac.start();
    for p in pt.chunks(cut) {
        st.update(p);
    }
    assert_eq!(st.finalize(), cmac.mac(pt));
}

/// Opening forged input fails, and wipes.
fn forged_input_fails(siv: &AesSiv, nonce: Option<&[u8]>, ad: &[&[u8]], ct: &[u8], too_many: bool) {
    let opened = siv.open(nonce, ad, ct);
    assert!(opened.is_err() || (ct.len() >= 16 && !too_many));
    if ct.len() >= 16 {
        let mut out = vec![0xaau8; ct.len() - 16];
        match siv.open_into(nonce, ad, ct, &mut out) {
            Ok(n) => assert_eq!(Ok(&out[..n]), opened.as_deref()),
            Err(Error::Authentication) => assert!(out.iter().all(|&b| b == 0), "plaintext left after a failure"),
            Err(_) => {}
        }
        let mut buf = ct.to_vec();
        if siv.open_in_place(nonce, ad, &mut buf).is_err() {
            assert!(buf.iter().all(|&b| b == 0), "plaintext left after a failure");
        }
        if ct.len() > 16 {
            let mut short = vec![0u8; ct.len() - 17];
            assert!(siv.open_into(nonce, ad, ct, &mut short).is_err());
        }
    } else {
        assert!(siv.open_in_place(nonce, ad, &mut ct.to_vec()).is_err());
    }
}

/// `sealed` (from `seal`) opens to `pt`, and the in-place and detached
/// forms give the same octets; returns the detached (V, C).
fn every_seal_form_agrees(
    siv: &AesSiv,
    nonce: Option<&[u8]>,
    ad: &[&[u8]],
    pt: &[u8],
    sealed: &[u8],
) -> (tessera::aes::Block, Vec<u8>) {
    assert_eq!(sealed.len(), pt.len() + 16);
    assert_eq!(siv.open(nonce, ad, sealed).as_deref(), Ok(pt));
    let mut buf = vec![0u8; 16 + pt.len()];
    buf[16..].copy_from_slice(pt);
    siv.seal_in_place(nonce, ad, &mut buf).expect("valid inputs");
    assert_eq!(buf, sealed);
    assert_eq!(siv.open_in_place(nonce, ad, &mut buf).map(|p| p.to_vec()), Ok(pt.to_vec()));
    let mut det = pt.to_vec();
    let v = siv.seal_in_place_separate_tag(nonce, ad, &mut det).expect("valid inputs");
    assert_eq!(v[..], sealed[..16]);
    assert_eq!(det[..], sealed[16..]);
    assert_eq!(siv.s2v(nonce, ad, pt).expect("valid inputs"), v);
    (v, det)
}

/// Any flipped bit is refused, and the output wiped.
fn flipped_bits_fail(
    siv: &AesSiv,
    nonce: Option<&[u8]>,
    ad: &[&[u8]],
    mode: u8,
    sealed: &[u8],
    v: &tessera::aes::Block,
    det: &[u8],
) {
    let pt_len = sealed.len() - 16;
    let bit = (mode as usize >> 3) * 7919 % (8 * sealed.len());
    let mut bad = sealed.to_vec();
    bad[bit / 8] ^= 1 << (bit % 8);
    let mut out = vec![0x55u8; pt_len];
    assert_eq!(siv.open_into(nonce, ad, &bad, &mut out), Err(Error::Authentication));
    assert!(out.iter().all(|&b| b == 0));
    let mut det_bad = det.to_vec();
    if !det_bad.is_empty() {
        det_bad[0] ^= 0x80;
        assert!(siv.open_in_place_separate_tag(nonce, ad, &mut det_bad, v).is_err());
        assert!(det_bad.iter().all(|&b| b == 0));
    }
}

/// Batch: `pt` cut into messages of `cut` octets, with the same components
/// (the nonce last), equals one-at-a-time.
fn batch_agrees(siv: &AesSiv, nonce: Option<&[u8]>, ad: &[&[u8]], pt: &[u8], cut: usize) {
    let mut comps = ad.to_vec();
    comps.extend(nonce);
    let ends: Vec<usize> = (1..=pt.len().div_ceil(cut)).map(|i| (i * cut).min(pt.len())).collect();
    let mut out = vec![0u8; pt.len() + 16 * ends.len()];
    let n = siv.seal_batch(BatchAd::Same(&comps), pt, &ends, &mut out).expect("valid batch");
    assert_eq!(n, out.len());
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        let one = siv.seal(None, &comps, &pt[start..end]).expect("valid inputs");
        assert_eq!(out[start + 16 * i..end + 16 * (i + 1)], one[..], "batch message {i}");
        start = end;
    }
    let cends: Vec<usize> = ends.iter().enumerate().map(|(i, &e)| e + 16 * (i + 1)).collect();
    let mut back = vec![0u8; pt.len()];
    assert_eq!(siv.open_batch(BatchAd::Same(&comps), &out, &cends, &mut back), Ok(pt.len()));
    assert_eq!(back, pt);
}
