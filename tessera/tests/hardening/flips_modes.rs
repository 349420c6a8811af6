//! Hardening: the AES-SIV and AEAD decryptors reject every single-bit flip
//! and every truncation of a valid message and release nothing (the
//! OpenPGP half is `hardening_flips.rs`).
//!
//! - AES-SIV, 32/48/64-byte keys: the single-message APIs (`decrypt`,
//!   `decrypt_into`, `decrypt_in_place`, `decrypt_in_place_detached`) and
//!   `decrypt_batch` with the three `BatchAd` forms; flips in V, C, every
//!   associated-data component and the nonce; cuts of V || C, of the
//!   components and of the nonce. On failure every output buffer is zero.
//! - OCB, EAX and GCM through `tessera::aead`, every key size: every bit of
//!   ciphertexts whose length ends in a partial block (47 and 80 bytes;
//!   `aead_props` already flips every bit of shorter messages and of the tag,
//!   nonce and AD), every cut of the ciphertext, the AD and the nonce.

use crate::common;

use common::{bits, flip, pattern};
use tessera::Error;
use tessera::aead::{Aad, Aead, AeadInPlace, Mode, Nonce, Tag};
use tessera::siv::{AesSiv, BatchAd};

// ---------------------------------------------------------------- AES-SIV

/// Asserts that every single-message decryption API rejects `ct` under
/// (`ad`, `nonce`) and leaves its output all zeros.
fn siv_rejects(siv: &AesSiv, ad: &[&[u8]], nonce: Option<&[u8]>, ct: &[u8], what: &str) {
    let n = ct.len().saturating_sub(16);
    let mut out = vec![0xa5u8; n];
    assert!(siv.open_into(nonce, ad, ct, &mut out).is_err(), "decrypt_into accepted {what}");
    assert!(out.iter().all(|&b| b == 0) || ct.len() < 16, "decrypt_into left output behind: {what}");
    assert!(siv.open(nonce, ad, ct).is_err(), "decrypt accepted {what}");
    let mut buf = ct.to_vec();
    assert!(siv.open_in_place(nonce, ad, &mut buf).is_err(), "decrypt_in_place accepted {what}");
    if ct.len() >= 16 {
        assert!(buf.iter().all(|&b| b == 0), "decrypt_in_place left output behind: {what}");
        let tag: [u8; 16] = ct[..16].try_into().unwrap();
        let mut body = ct[16..].to_vec();
        assert!(siv.open_in_place_separate_tag(nonce, ad, &mut body, &tag).is_err(), "detached accepted {what}");
        assert!(body.iter().all(|&b| b == 0), "decrypt_in_place_detached left output behind: {what}");
    } else {
        assert_eq!(buf, ct, "a too-short input is left as it was: {what}");
    }
}

#[test]
fn siv_single_message_apis_reject_every_flip_and_cut() {
    let nonce = pattern(12, 3);
    let (ad0, ad1, ad2) = (b"users.email".to_vec(), Vec::new(), pattern(17, 4));
    for klen in [32, 48, 64] {
        let siv = AesSiv::new(&pattern(klen, klen as u8)).unwrap();
        for n in [0, 1, 15, 16, 17, 40] {
            let pt = pattern(n, 5);
            let ads: [&[u8]; 3] = [&ad0, &ad1, &ad2];
            let ct = siv.seal(Some(&nonce), &ads, &pt).unwrap();
            assert_eq!(siv.open(Some(&nonce), &ads, &ct).unwrap(), pt);
            let what = |s: String| format!("AES-SIV-{} n={n}: {s}", klen * 8);
            for (i, m) in bits(ct.len()) {
                siv_rejects(&siv, &ads, Some(&nonce), &flip(&ct, i, m), &what(format!("V||C bit {m:#x} of byte {i}")));
            }
            for cut in 0..ct.len() {
                siv_rejects(&siv, &ads, Some(&nonce), &ct[..cut], &what(format!("V||C cut to {cut}")));
            }
            let mut longer = ct.clone();
            longer.push(0);
            siv_rejects(&siv, &ads, Some(&nonce), &longer, &what("V||C plus one byte".into()));
            for c in [0, 2] {
                let comp = ads[c];
                for (i, m) in bits(comp.len()) {
                    let bad = flip(comp, i, m);
                    let mut a = ads;
                    a[c] = &bad;
                    siv_rejects(&siv, &a, Some(&nonce), &ct, &what(format!("AD {c} bit {m:#x} of byte {i}")));
                }
                for cut in 0..comp.len() {
                    let mut a = ads;
                    a[c] = &comp[..cut];
                    siv_rejects(&siv, &a, Some(&nonce), &ct, &what(format!("AD {c} cut to {cut}")));
                }
            }
            for (i, m) in bits(nonce.len()) {
                siv_rejects(&siv, &ads, Some(&flip(&nonce, i, m)), &ct, &what(format!("nonce bit {m:#x} of {i}")));
            }
            for cut in 0..nonce.len() {
                siv_rejects(&siv, &ads, Some(&nonce[..cut]), &ct, &what(format!("nonce cut to {cut}")));
            }
            // Components dropped, added or reordered (the empty one too), and no nonce.
            let dropped: [&[u8]; 2] = [&ad0, &ad2];
            siv_rejects(&siv, &dropped, Some(&nonce), &ct, &what("empty AD component dropped".into()));
            let added: [&[u8]; 4] = [&ad0, &ad1, &ad2, &ad1];
            siv_rejects(&siv, &added, Some(&nonce), &ct, &what("empty AD component added".into()));
            let swapped: [&[u8]; 3] = [&ad2, &ad1, &ad0];
            siv_rejects(&siv, &swapped, Some(&nonce), &ct, &what("AD reordered".into()));
            siv_rejects(&siv, &ads, None, &ct, &what("nonce dropped".into()));
        }
    }
}

fn cumulative(lens: impl IntoIterator<Item = usize>) -> Vec<usize> {
    lens.into_iter()
        .scan(0, |s, l| {
            *s += l;
            Some(*s)
        })
        .collect()
}

/// `decrypt_batch` must fail naming message `index` and leave `out` zero.
fn batch_rejects(siv: &AesSiv, ad: BatchAd<'_>, data: &[u8], ends: &[usize], index: usize, what: &str) {
    let total = ends.last().map_or(0, |e| e.saturating_sub(16 * ends.len()));
    let mut out = vec![0xa5u8; total];
    match siv.open_batch(ad, data, ends, &mut out) {
        Err(Error::Batch { index: i, source }) => {
            assert_eq!(i, index, "{what}: wrong message named");
            if *source == Error::Authentication {
                assert!(out.iter().all(|&b| b == 0), "{what}: output left behind");
            } else {
                // Refused before decrypting anything (a message shorter than V).
                assert!(out.iter().all(|&b| b == 0xa5), "{what}: output written");
            }
        }
        r => panic!("{what}: {r:?}"),
    }
}

#[test]
fn siv_batch_rejects_every_flip_and_cut_naming_the_message() {
    let lens = [0usize, 5, 16, 17, 33];
    let msgs: Vec<Vec<u8>> = lens.iter().enumerate().map(|(i, &n)| pattern(n, i as u8)).collect();
    let data: Vec<u8> = msgs.concat();
    let pt_ends = cumulative(lens);
    let ct_ends = cumulative(lens.iter().map(|n| n + 16));
    let same_c: [&[u8]; 2] = [b"table", b""];
    let ids: Vec<Vec<u8>> = (0..lens.len()).map(|i| format!("row-{i}").into_bytes()).collect();
    let each: Vec<&[u8]> = ids.iter().map(|v| v.as_slice()).collect();
    let per_store: Vec<Vec<&[u8]>> =
        (0..lens.len()).map(|i| vec![&b"t"[..], &ids[i][..], &b""[..]][..i % 3 + 1].to_vec()).collect();
    let per: Vec<&[&[u8]]> = per_store.iter().map(|v| v.as_slice()).collect();
    for klen in [32, 48, 64] {
        let siv = AesSiv::new(&pattern(klen, 9)).unwrap();
        for form in 0..3 {
            let ad = match form {
                0 => BatchAd::Same(&same_c),
                1 => BatchAd::PerValue(&each),
                _ => BatchAd::PerValueComponents(&per),
            };
            let mut ct = vec![0u8; *ct_ends.last().unwrap()];
            siv.seal_batch(ad, &data, &pt_ends, &mut ct).unwrap();
            let mut back = vec![0u8; data.len()];
            siv.open_batch(ad, &ct, &ct_ends, &mut back).unwrap();
            assert_eq!(back, data);
            let what = |s: String| format!("AES-SIV-{} batch form {form}: {s}", klen * 8);
            let owner = |i: usize| ct_ends.iter().position(|&e| i < e).unwrap();
            for (i, m) in bits(ct.len()) {
                batch_rejects(&siv, ad, &flip(&ct, i, m), &ct_ends, owner(i), &what(format!("bit {m:#x} of byte {i}")));
            }
            // Message j cut to every length (with the ends moved): shorter than V is a
            // format error, longer an authentication error; both name message j.
            for j in 0..lens.len() {
                let start = if j == 0 { 0 } else { ct_ends[j - 1] };
                for l in 0..lens[j] + 16 {
                    let mut d = ct[..start + l].to_vec();
                    d.extend_from_slice(&ct[ct_ends[j]..]);
                    let cut = lens[j] + 16 - l;
                    let ends: Vec<usize> =
                        ct_ends.iter().enumerate().map(|(k, &e)| if k < j { e } else { e - cut }).collect();
                    batch_rejects(&siv, ad, &d, &ends, j, &what(format!("message {j} cut to {l}")));
                }
            }
            // Flips and cuts in the associated data name the first message they reach.
            match form {
                0 => same_ad_rejected(&siv, &same_c, &ct, &ct_ends, &what),
                1 => per_value_ad_rejected(&siv, &each, &ct, &ct_ends, &what),
                _ => components_ad_rejected(&siv, &per, &ct, &ct_ends, &what),
            }
        }
    }
}

/// `BatchAd::Same`: a flipped or dropped component names message 0.
fn same_ad_rejected(siv: &AesSiv, same: &[&[u8]; 2], ct: &[u8], ct_ends: &[usize], what: &dyn Fn(String) -> String) {
    for (i, m) in bits(same[0].len()) {
        let bad = flip(same[0], i, m);
        let a: [&[u8]; 2] = [&bad, b""];
        batch_rejects(siv, BatchAd::Same(&a), ct, ct_ends, 0, &what(format!("AD bit {m:#x} of {i}")));
    }
    let a: [&[u8]; 1] = [b"table"];
    batch_rejects(siv, BatchAd::Same(&a), ct, ct_ends, 0, &what("empty component dropped".into()));
}

/// `BatchAd::PerValue`: a flipped or cut string names its message.
fn per_value_ad_rejected(siv: &AesSiv, each: &[&[u8]], ct: &[u8], ct_ends: &[usize], what: &dyn Fn(String) -> String) {
    for j in 0..each.len() {
        for (i, m) in bits(each[j].len()) {
            let bad = flip(each[j], i, m);
            let mut e = each.to_vec();
            e[j] = &bad;
            batch_rejects(siv, BatchAd::PerValue(&e), ct, ct_ends, j, &what(format!("id {j} bit {i}")));
        }
        let mut e = each.to_vec();
        e[j] = &each[j][..each[j].len() - 1];
        batch_rejects(siv, BatchAd::PerValue(&e), ct, ct_ends, j, &what(format!("id {j} cut")));
    }
}

/// `BatchAd::PerValueComponents`: a flipped or dropped component names its message.
fn components_ad_rejected(
    siv: &AesSiv,
    per: &[&[&[u8]]],
    ct: &[u8],
    ct_ends: &[usize],
    what: &dyn Fn(String) -> String,
) {
    for j in 0..per.len() {
        for c in 0..per[j].len() {
            for (i, m) in bits(per[j][c].len()) {
                let bad = flip(per[j][c], i, m);
                let mut comps = per[j].to_vec();
                comps[c] = &bad;
                let mut p = per.to_vec();
                p[j] = &comps;
                let w = what(format!("message {j} component {c} bit {i}"));
                batch_rejects(siv, BatchAd::PerValueComponents(&p), ct, ct_ends, j, &w);
            }
        }
        let comps = &per[j][..per[j].len() - 1];
        let mut p = per.to_vec();
        p[j] = comps;
        let w = what(format!("message {j} last component dropped"));
        batch_rejects(siv, BatchAd::PerValueComponents(&p), ct, ct_ends, j, &w);
    }
}

// ------------------------------------------------------------ OCB/EAX/GCM

#[test]
fn aead_rejects_every_flip_and_cut() {
    for mode in [Mode::Ocb, Mode::Eax, Mode::Gcm] {
        for kl in [16, 24, 32] {
            let aead = Aead::new(mode, &pattern(kl, 1)).unwrap();
            for len in [47, 80] {
                let nonce = pattern(mode.nonce_len(), 2);
                let ad = pattern(21, 3);
                let pt = pattern(len, 4);
                let mut ct = pt.clone();
                let tag = aead
                    .seal_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(&ad), &mut ct)
                    .unwrap();
                let what = format!("{mode:?} AES-{} len {len}", kl * 8);
                let rejects = |nonce: &[u8], ad: &[u8], c: &[u8], t: &Tag, why: String| {
                    let mut buf = c.to_vec();
                    match aead.open_in_place_separate_tag(
                        Nonce::assume_unique_for_key(nonce),
                        Aad::new(ad),
                        &mut buf,
                        t,
                    ) {
                        Err(Error::Authentication) => {
                            assert!(buf.iter().all(|&b| b == 0), "{what} {why}: not wiped")
                        }
                        Err(Error::NonceLength { .. }) => assert_eq!(buf, c, "{what} {why}: changed"),
                        r => panic!("{what} {why}: {r:?}"),
                    }
                };
                for (i, m) in bits(len) {
                    rejects(&nonce, &ad, &flip(&ct, i, m), &tag, format!("ciphertext bit {m:#x} of byte {i}"));
                }
                for cut in 0..len {
                    rejects(&nonce, &ad, &ct[..cut], &tag, format!("ciphertext cut to {cut}"));
                }
                for cut in 0..ad.len() {
                    rejects(&nonce, &ad[..cut], &ct, &tag, format!("AD cut to {cut}"));
                }
                for cut in 0..nonce.len() {
                    rejects(&nonce[..cut], &ad, &ct, &tag, format!("nonce cut to {cut}"));
                }
                rejects(&[nonce.as_slice(), &[0]].concat(), &ad, &ct, &tag, "nonce plus a byte".into());
                let mut buf = ct.clone();
                aead.open_in_place_separate_tag(Nonce::assume_unique_for_key(&nonce), Aad::new(&ad), &mut buf, &tag)
                    .unwrap();
                assert_eq!(buf, pt);
            }
        }
    }
}
