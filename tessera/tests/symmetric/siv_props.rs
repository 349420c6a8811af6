//! Property tests: AES-SIV against the RustCrypto `aes-siv` crate and
//! AES-CMAC against the `cmac` crate on random inputs, and the batch API
//! against one message at a time.

use aes_siv::KeyInit;
use aes_siv::siv::CmacSiv;
use cmac::Mac;
use proptest::prelude::*;
use tessera::Error;
use tessera::cmac::Cmac;
use tessera::siv::{AesSiv, BatchAd};

/// `aes-siv` 0.8's V || C, for every key size (it has aliases for
/// AES-SIV-256 and -512 only; AES-SIV-384 is `CmacSiv<Aes192>`).
fn peer_encrypt(key: &[u8], comps: &[&[u8]], pt: &[u8]) -> Vec<u8> {
    match key.len() {
        32 => CmacSiv::<aes::Aes128>::new_from_slice(key).unwrap().encrypt(comps, pt).unwrap(),
        48 => CmacSiv::<aes::Aes192>::new_from_slice(key).unwrap().encrypt(comps, pt).unwrap(),
        64 => CmacSiv::<aes::Aes256>::new_from_slice(key).unwrap().encrypt(comps, pt).unwrap(),
        _ => unreachable!(),
    }
}

fn peer_cmac(key: &[u8], msg: &[u8]) -> Vec<u8> {
    fn go<M: Mac + KeyInit>(key: &[u8], msg: &[u8]) -> Vec<u8> {
        let mut m = <M as KeyInit>::new_from_slice(key).unwrap();
        m.update(msg);
        m.finalize().into_bytes().to_vec()
    }
    match key.len() {
        16 => go::<cmac::Cmac<aes::Aes128>>(key, msg),
        24 => go::<cmac::Cmac<aes::Aes192>>(key, msg),
        32 => go::<cmac::Cmac<aes::Aes256>>(key, msg),
        _ => unreachable!(),
    }
}

fn key(sizes: &'static [usize]) -> impl Strategy<Value = Vec<u8>> {
    prop::sample::select(sizes).prop_flat_map(|n| prop::collection::vec(any::<u8>(), n))
}

/// Lengths biased towards block boundaries.
fn len(max: usize) -> impl Strategy<Value = usize> {
    prop_oneof![
        0..=max,
        (0..=max / 16, -1i64..=1).prop_map(move |(k, d)| ((16 * k) as i64 + d).clamp(0, max as i64) as usize)
    ]
}

fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    len(max).prop_flat_map(|n| prop::collection::vec(any::<u8>(), n))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn siv_matches_aes_siv_crate(
        key in key(&[32, 48, 64]),
        ad in prop::collection::vec(bytes(80), 0..6),
        nonce in prop::option::of(bytes(24)),
        pt in bytes(1000),
    ) {
        let siv = AesSiv::new(&key).unwrap();
        let ad: Vec<&[u8]> = ad.iter().map(|a| a.as_slice()).collect();
        let ours = siv.seal(nonce.as_deref(), &ad, &pt).unwrap();
        let mut comps = ad.clone();
        comps.extend(nonce.as_deref());
        prop_assert_eq!(&ours, &peer_encrypt(&key, &comps, &pt));
        prop_assert_eq!(siv.open(nonce.as_deref(), &ad, &ours).unwrap(), pt);
    }

    #[test]
    fn cmac_matches_cmac_crate(key in key(&[16, 24, 32]), msg in bytes(600), cut in any::<prop::sample::Index>()) {
        let cmac = Cmac::new(&key).unwrap();
        let want = peer_cmac(&key, &msg);
        prop_assert_eq!(cmac.mac(&msg).to_vec(), want.clone());
        let cut = cut.index(msg.len() + 1);
        let mut st = cmac.start();
        st.update(&msg[..cut]);
        st.update(&msg[cut..]);
        prop_assert_eq!(st.finalize().to_vec(), want);
    }

    #[test]
    fn tampering_is_detected(
        key in key(&[32, 48, 64]),
        ad in bytes(40),
        pt in bytes(100),
        flip in any::<prop::sample::Index>(),
        bit in 0u8..8,
    ) {
        let siv = AesSiv::new(&key).unwrap();
        let mut ct = siv.seal(None, &[&ad], &pt).unwrap();
        let i = flip.index(ct.len());
        ct[i] ^= 1 << bit;
        let mut out = vec![0xffu8; pt.len()];
        prop_assert_eq!(siv.open_into(None, &[&ad], &ct, &mut out), Err(Error::Authentication));
        prop_assert!(out.iter().all(|&b| b == 0));
    }
}

/// Messages, per-message components and the three `BatchAd` forms.
#[derive(Debug, Clone)]
struct Batch {
    key: Vec<u8>,
    msgs: Vec<Vec<u8>>,
    same: Vec<Vec<u8>>,
    each: Vec<Vec<u8>>,
    per: Vec<Vec<Vec<u8>>>,
}

fn batch() -> impl Strategy<Value = Batch> {
    (0usize..200).prop_flat_map(|n| {
        (
            key(&[32, 48, 64]),
            prop::collection::vec(prop_oneof![40 => bytes(70), 4 => bytes(700), 1 => bytes(5000)], n),
            prop::collection::vec(bytes(40), 0..4),
            prop::collection::vec(bytes(40), n),
            prop::collection::vec(prop::collection::vec(bytes(40), 0..4), n),
        )
            .prop_map(|(key, msgs, same, each, per)| Batch { key, msgs, same, each, per })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn batch_equals_one_at_a_time(b in batch()) {
        let siv = AesSiv::new(&b.key).unwrap();
        let data: Vec<u8> = b.msgs.concat();
        let ends: Vec<usize> = b.msgs.iter().scan(0, |e, m| { *e += m.len(); Some(*e) }).collect();
        let cends: Vec<usize> = ends.iter().enumerate().map(|(i, e)| e + 16 * (i + 1)).collect();
        let same: Vec<&[u8]> = b.same.iter().map(|a| a.as_slice()).collect();
        let each: Vec<&[u8]> = b.each.iter().map(|a| a.as_slice()).collect();
        let per: Vec<Vec<&[u8]>> = b.per.iter().map(|p| p.iter().map(|a| a.as_slice()).collect()).collect();
        let per: Vec<&[&[u8]]> = per.iter().map(|p| p.as_slice()).collect();
        let forms = [BatchAd::Same(&same), BatchAd::PerValue(&each), BatchAd::PerValueComponents(&per)];
        for (f, ad) in forms.into_iter().enumerate() {
            let comps = |i: usize| -> Vec<&[u8]> {
                match f { 0 => same.clone(), 1 => vec![each[i]], _ => per[i].to_vec() }
            };
            let want: Vec<u8> = b.msgs.iter().enumerate()
                .flat_map(|(i, m)| siv.seal(None, &comps(i), m).unwrap())
                .collect();
            let mut out = vec![0u8; data.len() + 16 * ends.len() + 3];
            let n = siv.seal_batch(ad, &data, &ends, &mut out).unwrap();
            prop_assert_eq!(n, want.len());
            prop_assert_eq!(&out[..n], &want[..], "form {}", f);

            let mut back = vec![0u8; data.len()];
            prop_assert_eq!(siv.open_batch(ad, &want, &cends, &mut back).unwrap(), data.len());
            prop_assert_eq!(&back, &data);

            // One tampered message: all or nothing, the first bad index named.
            if !b.msgs.is_empty() {
                let victim = b.msgs.len() / 2;
                let mut bad = want.clone();
                bad[cends[victim] - 1] ^= 0x40;
                let mut back = vec![0xaau8; data.len()];
                let err = siv.open_batch(ad, &bad, &cends, &mut back).unwrap_err();
                let ok = matches!(err, Error::Batch { index, ref source } if index == victim && **source == Error::Authentication);
                prop_assert!(ok, "unexpected error {:?}", err);
                prop_assert!(back.iter().all(|&x| x == 0));
            }
        }
    }
}
