//! Standard vectors for AES-SIV (RFC 5297 Appendix A, the AES-SIV-512
//! vectors of miscreant) and AES-CMAC (RFC 4493 section 4), in every API
//! form, plus the zero-allocation and tamper-detection properties.

use crate::common;

use common::unhex;
use serde_json::Value;
use tessera::Error;
use tessera::cmac::Cmac;
use tessera::siv::{AesSiv, BatchAd};

struct Case {
    name: String,
    key: Vec<u8>,
    ad: Vec<Vec<u8>>,
    nonce: Option<Vec<u8>>,
    pt: Vec<u8>,
    out: Vec<u8>,
    trace: Option<Value>,
}

fn cases() -> Vec<Case> {
    let v = common::vectors("siv.json");
    v["siv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Case {
            name: c["name"].as_str().unwrap().to_string(),
            key: unhex(c["key"].as_str().unwrap()),
            ad: c["ad"].as_array().unwrap().iter().map(|a| unhex(a.as_str().unwrap())).collect(),
            nonce: c["nonce"].as_str().map(unhex),
            pt: unhex(c["pt"].as_str().unwrap()),
            out: unhex(c["out"].as_str().unwrap()),
            trace: c.get("s2v_trace").cloned(),
        })
        .collect()
}

fn refs(ad: &[Vec<u8>]) -> Vec<&[u8]> {
    ad.iter().map(|a| a.as_slice()).collect()
}

#[test]
fn siv_vectors_all_forms() {
    let cases = cases();
    assert_eq!(cases.len(), 4);
    for c in &cases {
        let siv = AesSiv::new(&c.key).unwrap();
        let ad = refs(&c.ad);
        let nonce = c.nonce.as_deref();
        let name = &c.name;

        // V || C into a vector and into a caller buffer.
        assert_eq!(siv.seal(nonce, &ad, &c.pt).unwrap(), c.out, "{name}");
        let mut out = vec![0u8; c.out.len() + 5];
        assert_eq!(siv.seal_into(nonce, &ad, &c.pt, &mut out).unwrap(), c.out.len());
        assert_eq!(out[..c.out.len()], c.out, "{name}");

        // In place, V || C layout.
        let mut buf = vec![0u8; 16];
        buf.extend_from_slice(&c.pt);
        siv.seal_in_place(nonce, &ad, &mut buf).unwrap();
        assert_eq!(buf, c.out, "{name}");
        assert_eq!(siv.open_in_place(nonce, &ad, &mut buf).unwrap(), c.pt, "{name}");

        // Detached.
        let mut buf = c.pt.clone();
        let v = siv.seal_in_place_separate_tag(nonce, &ad, &mut buf).unwrap();
        assert_eq!(v[..], c.out[..16], "{name}");
        assert_eq!(buf, c.out[16..], "{name}");
        siv.open_in_place_separate_tag(nonce, &ad, &mut buf, &v).unwrap();
        assert_eq!(buf, c.pt, "{name}");

        // Decrypt forms.
        assert_eq!(siv.open(nonce, &ad, &c.out).unwrap(), c.pt, "{name}");
        let mut p = vec![0u8; c.pt.len()];
        assert_eq!(siv.open_into(nonce, &ad, &c.out, &mut p).unwrap(), c.pt.len());
        assert_eq!(p, c.pt, "{name}");

        // The nonce is exactly the last associated-data component.
        let mut all = ad.clone();
        all.extend(nonce);
        assert_eq!(siv.seal(None, &all, &c.pt).unwrap(), c.out, "{name}");

        // A batch of one, and of many copies.
        let mut bout = vec![0u8; c.out.len() * 3];
        let ends = [c.pt.len(), 2 * c.pt.len(), 3 * c.pt.len()];
        siv.seal_batch(BatchAd::Same(&all), &c.pt.repeat(3), &ends, &mut bout).unwrap();
        assert_eq!(bout, c.out.repeat(3), "{name}");
        let mut back = vec![0u8; c.pt.len() * 3];
        let cends = [c.out.len(), 2 * c.out.len(), 3 * c.out.len()];
        siv.open_batch(BatchAd::Same(&all), &bout, &cends, &mut back).unwrap();
        assert_eq!(back, c.pt.repeat(3), "{name}");
    }
}

#[test]
fn rfc5297_a1_s2v_trace() {
    let c = cases().into_iter().find(|c| c.trace.is_some()).expect("a case with s2v_trace");
    let t = c.trace.unwrap();
    let k1 = Cmac::new(&c.key[..16]).unwrap();
    assert_eq!(k1.mac(&[0u8; 16]).to_vec(), unhex(t["cmac_zero"].as_str().unwrap()));
    assert_eq!(k1.mac(&c.ad[0]).to_vec(), unhex(t["cmac_ad"].as_str().unwrap()));
    let siv = AesSiv::new(&c.key).unwrap();
    let v = siv.s2v(None, &refs(&c.ad), &c.pt).unwrap();
    assert_eq!(v.to_vec(), unhex(t["cmac_final"].as_str().unwrap()));
}

#[test]
fn rfc4493_examples() {
    let v = common::vectors("siv.json");
    let c = &v["cmac_rfc4493_aes128"];
    let cmac = Cmac::new(&unhex(c["key"].as_str().unwrap())).unwrap();
    let (k1, k2) = cmac.subkeys();
    assert_eq!(k1.to_vec(), unhex(c["k1"].as_str().unwrap()));
    assert_eq!(k2.to_vec(), unhex(c["k2"].as_str().unwrap()));
    let cases = c["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    for case in cases {
        let msg = unhex(case["msg"].as_str().unwrap());
        let tag = unhex(case["tag"].as_str().unwrap());
        assert_eq!(cmac.mac(&msg).to_vec(), tag, "len {}", msg.len());
        // Incrementally, split everywhere.
        for cut in 0..=msg.len() {
            let mut st = cmac.start();
            st.update(&msg[..cut]);
            st.update(&msg[cut..]);
            assert_eq!(st.finalize().to_vec(), tag, "len {} cut {cut}", msg.len());
        }
        // Byte by byte.
        let mut st = cmac.start();
        msg.iter().for_each(|b| st.update(core::slice::from_ref(b)));
        assert_eq!(st.finalize().to_vec(), tag);
    }
}

#[test]
fn zero_allocations_on_caller_buffers() {
    let cmac = Cmac::new(&[1u8; 16]).unwrap();
    let siv = AesSiv::new(&[2u8; 64]).unwrap();
    let data = vec![0x5au8; 5000];
    let ad: [&[u8]; 3] = [b"table", b"column", &data[..300]];
    let mut out = vec![0u8; 5100];
    let mut back = vec![0u8; 5100];
    let mut bout = vec![0u8; 5000 + 16 * 200];
    let mut bback = vec![0u8; 5000];
    let ends: Vec<usize> = (1..=200).map(|i| i * 25).collect();
    let cends: Vec<usize> = (1..=200).map(|i| i * 41).collect();
    let per: Vec<&[u8]> = (0..200).map(|i| &data[..i % 40]).collect();
    let per_many: Vec<[&[u8]; 2]> = (0..200).map(|i| [&data[..i % 7], &data[..i % 33]]).collect();
    let per_many: Vec<&[&[u8]]> = per_many.iter().map(|a| &a[..]).collect();
    for n in [0usize, 1, 15, 16, 17, 100, 1000, 4999] {
        let ((), allocs) = common::count_allocs(|| {
            let _ = cmac.mac(&data[..n]);
            let mut st = cmac.start();
            st.update(&data[..n / 2]);
            st.update(&data[n / 2..n]);
            let _ = st.finalize();

            let len = siv.seal_into(Some(b"nonce"), &ad, &data[..n], &mut out).unwrap();
            siv.open_into(Some(b"nonce"), &ad, &out[..len], &mut back).unwrap();
            let v = siv.seal_in_place_separate_tag(None, &ad, &mut back[..n]).unwrap();
            siv.open_in_place_separate_tag(None, &ad, &mut back[..n], &v).unwrap();
            siv.seal_in_place(None, &[], &mut out[..n + 16]).unwrap();
            siv.open_in_place(None, &[], &mut out[..n + 16]).unwrap();
            // Failure paths too.
            assert_eq!(siv.open_into(None, &ad, &out[..len], &mut back), Err(Error::Authentication));

            for ad in [BatchAd::Same(&ad), BatchAd::PerValue(&per), BatchAd::PerValueComponents(&per_many)] {
                siv.seal_batch(ad, &data, &ends, &mut bout).unwrap();
                siv.open_batch(ad, &bout, &cends, &mut bback).unwrap();
            }
        });
        assert_eq!(allocs, 0, "n={n}");
    }
}

#[test]
fn any_flipped_bit_fails_and_wipes() {
    let siv = AesSiv::new(&[7u8; 32]).unwrap();
    let ad1 = vec![0x11u8; 20];
    let ad2 = vec![0x22u8; 3];
    for n in [0usize, 1, 15, 16, 17, 33] {
        let pt: Vec<u8> = (0..n as u8).collect();
        let ad: [&[u8]; 2] = [&ad1, &ad2];
        let ct = siv.seal(Some(b"nonce"), &ad, &pt).unwrap();
        // Every bit of V and C.
        for bit in 0..ct.len() * 8 {
            let mut bad = ct.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            let mut out = vec![0xeeu8; n];
            assert_eq!(siv.open_into(Some(b"nonce"), &ad, &bad, &mut out), Err(Error::Authentication));
            assert!(out.iter().all(|&b| b == 0), "output not wiped, bit {bit}");
            let mut inplace = bad.clone();
            assert!(siv.open_in_place(Some(b"nonce"), &ad, &mut inplace).is_err());
            assert!(inplace.iter().all(|&b| b == 0));
            let (v, c) = bad.split_at(16);
            let mut det = c.to_vec();
            assert!(siv.open_in_place_separate_tag(Some(b"nonce"), &ad, &mut det, v.try_into().unwrap()).is_err());
            assert!(det.iter().all(|&b| b == 0));
        }
        // Every bit of every associated-data component, the nonce included.
        for which in 0..3 {
            let len = [ad1.len(), ad2.len(), 5][which];
            for bit in 0..len * 8 {
                let (mut a1, mut a2, mut nonce) = (ad1.clone(), ad2.clone(), b"nonce".to_vec());
                [&mut a1, &mut a2, &mut nonce][which][bit / 8] ^= 1 << (bit % 8);
                let mut out = vec![0xeeu8; n];
                let r = siv.open_into(Some(&nonce), &[&a1[..], &a2[..]], &ct, &mut out);
                assert_eq!(r, Err(Error::Authentication), "component {which} bit {bit}");
                assert!(out.iter().all(|&b| b == 0));
            }
        }
        // Dropping, adding or reordering components fails too.
        let (a1, a2): (&[u8], &[u8]) = (&ad1, &ad2);
        assert!(siv.open(Some(b"nonce"), &[a1], &ct).is_err());
        assert!(siv.open(Some(b"nonce"), &[a2, a1], &ct).is_err());
        assert!(siv.open(None, &[a1, a2], &ct).is_err());
        assert!(siv.open(None, &[a1, a2, b"nonce"], &ct).is_ok());
    }
}

#[test]
fn errors() {
    assert!(matches!(AesSiv::new(&[0u8; 33]), Err(Error::KeyLength { got: 33, .. })));
    assert!(matches!(AesSiv::new(&[0u8; 16]), Err(Error::KeyLength { got: 16, .. })));
    assert!(matches!(Cmac::new(&[0u8; 17]), Err(Error::KeyLength { got: 17, .. })));
    let siv = AesSiv::new(&[0u8; 32]).unwrap();
    let mut small = [0u8; 20];
    assert_eq!(siv.seal_into(None, &[], &[0u8; 5], &mut small), Err(Error::BufferTooSmall { got: 20, needed: 21 }));
    assert!(matches!(siv.open(None, &[], &[0u8; 15]), Err(Error::Format(_))));
    assert!(matches!(siv.seal_in_place(None, &[], &mut [0u8; 15]), Err(Error::BufferTooSmall { .. })));
    let many = vec![&b"x"[..]; 127];
    assert_eq!(siv.seal(None, &many, b""), Err(Error::TooManyAd { got: 127, max: 126 }));
    assert_eq!(siv.seal(Some(b"n"), &many[..126], b""), Err(Error::TooManyAd { got: 127, max: 126 }));
    assert!(siv.seal(None, &many[..126], b"").is_ok());
    // Batches: bad ends, short ciphertexts, AD count, output size.
    let mut out = [0u8; 100];
    let e = siv.seal_batch(BatchAd::Same(&[]), &[0u8; 10], &[5, 3], &mut out).unwrap_err();
    assert!(matches!(e, Error::Batch { index: 1, .. }));
    let e = siv.open_batch(BatchAd::Same(&[]), &[0u8; 40], &[20, 30], &mut out).unwrap_err();
    assert!(matches!(e, Error::Batch { index: 1, .. }));
    let e = siv.seal_batch(BatchAd::PerValue(&[b"a"]), &[0u8; 10], &[5, 10], &mut out).unwrap_err();
    assert!(matches!(e, Error::Format(_)));
    let e = siv.seal_batch(BatchAd::Same(&[]), &[0u8; 80], &[40, 80], &mut out).unwrap_err();
    assert_eq!(e, Error::BufferTooSmall { got: 100, needed: 112 });
    let per: Vec<&[&[u8]]> = vec![&[], &many];
    let e = siv.seal_batch(BatchAd::PerValueComponents(&per), &[0u8; 10], &[5, 10], &mut out).unwrap_err();
    assert!(matches!(e, Error::Batch { index: 1, .. }));
    // Empty batch.
    assert_eq!(siv.seal_batch(BatchAd::Same(&[]), &[], &[], &mut []), Ok(0));
    assert_eq!(siv.open_batch(BatchAd::Same(&[]), &[], &[], &mut []), Ok(0));
}
