//! The cap: parsing, that it only lowers, and every level's kernels
//! against the portable level through the whole public API.

use super::*;
use crate::aead::{Aad, Aead, AeadInPlace, Mode, Nonce, Ocb};
use crate::fpe::{FF1, FF3_1, Fpe, Tweaks};
use crate::siv::AesSiv;

#[test]
fn levels_parse_print_and_order() {
    for (i, l) in Level::ALL.into_iter().enumerate() {
        assert_eq!(l.name().parse::<Level>(), Ok(l));
        assert_eq!(l.to_string().to_uppercase().parse::<Level>(), Ok(l), "case-insensitive");
        assert_eq!(format!(" {l}\n").parse::<Level>(), Ok(l), "trimmed");
        assert!(Level::ALL[..i].iter().all(|&lower| lower < l));
    }
    for bad in ["", "avx", "avx-512", "sse2", "native"] {
        assert_eq!(bad.parse::<Level>(), Err(UnknownLevel(bad.into())));
    }
}

/// Each cap lets through only its own features, and no more than the CPU has.
#[test]
fn the_cap_only_lowers() {
    let cpu = Features::of_cpu();
    assert_eq!(with_cap(Level::Avx512, level), state().usable.level());
    for cap in Level::ALL {
        with_cap(cap, || {
            assert!(level() <= cap && level() <= detected(), "{cap}");
            assert_eq!(level(), Features(cpu.0 & state().usable.0 & cap.allows().0).level());
            // Each feature and the lowest level that lets it through.
            let lowest = [
                (Features::AES, Level::AesNi),
                (Features::SSE41, Level::AesNi),
                (Features::SSSE3, Level::AesNi),
                (Features::AVX2, Level::Avx2),
                (Features::VAES, Level::Vaes256),
                (Features::FMA, Level::Vaes256),
                (Features::AVX512F, Level::Avx512),
                (Features::AVX512BW, Level::Avx512),
                (Features::AVX512DQ, Level::Avx512),
                (Features::AVX512VL, Level::Avx512),
                (Features::AVX512IFMA, Level::Avx512),
            ];
            for (f, min) in lowest {
                let through = cap >= min && state().usable.contains(f);
                assert_eq!(has(f), through, "{cap} {f:?}");
                assert!(!has(f) || cpu.contains(f), "never more than the CPU has");
            }
        });
    }
    assert_eq!(with_cap(Level::Portable, level), Level::Portable);
}

/// The OCB kernel each level chooses.
#[test]
fn each_level_chooses_its_ocb_kernel() {
    for cap in Level::ALL {
        let (names, chosen) = with_cap(cap, Ocb::kernels);
        let want = if has(Vaes512::FEATURES) && cap >= Level::Avx512 {
            "vaes512"
        } else if has(Vaes256::FEATURES) && cap >= Level::Vaes256 {
            "vaes256"
        } else {
            "portable"
        };
        assert_eq!(chosen, want, "{cap}");
        assert!(cap >= Level::Vaes256 || names == ["portable"], "{cap}: {names:?}");
    }
}

/// Deterministic test bytes.
fn bytes(n: usize, seed: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 31 + seed * 7 + (i >> 5)) as u8).collect()
}

/// FF1 and FF3-1 on decimal values one at a time and in batches: lengths
/// the AVX2 and AVX-512 decimal groups take (up to 16), others, 200 values
/// (several groups and a partial one); every output and its decryption.
fn fpe_outputs() -> Vec<Vec<u16>> {
    let key = bytes(16, 1);
    let ciphers: [(Box<dyn Fpe>, &[u8]); 2] = [
        (Box::new(FF1::with_radix(&key, 10).unwrap()), b"tweak"),
        (Box::new(FF3_1::with_radix(&key, 10).unwrap()), &[1, 2, 3, 4, 5, 6, 7]),
    ];
    let mut out = Vec::new();
    for (fpe, tweak) in &ciphers {
        for n in [6usize, 9, 12, 16, 19, 24] {
            let count = 200;
            let plain: Vec<u16> = bytes(n * count, n).iter().map(|&b| u16::from(b) % 10).collect();
            let ends: Vec<usize> = (1..=count).map(|j| j * n).collect();
            let mut batch = plain.clone();
            fpe.encrypt_batch(Tweaks::Same(tweak), &mut batch, &ends).unwrap();
            for (j, value) in plain.chunks(n).take(20).enumerate() {
                let mut one = value.to_vec();
                fpe.encrypt_numerals(tweak, &mut one).unwrap();
                assert_eq!(one, batch[j * n..(j + 1) * n], "one value against the batch, n {n}");
            }
            out.push(batch.clone());
            fpe.decrypt_batch(Tweaks::Same(tweak), &mut batch, &ends).unwrap();
            assert_eq!(batch, plain, "batch round trip, n {n}");
        }
    }
    out
}

/// AES-SIV seal and open, and OCB, EAX and GCM chunks, at lengths around
/// every kernel's block groups (VAES-512 CTR: 32 blocks; OCB: 8W blocks).
fn aead_outputs() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let lens = (0..70).chain([255, 256, 511, 512, 513, 1000, 4096 + 17, 65536 + 3]);
    for kl in [32usize, 64] {
        let siv = AesSiv::new(&bytes(kl, kl)).unwrap();
        for n in lens.clone() {
            let (pt, ad) = (bytes(n, 3), bytes(n % 40, 4));
            let ct = siv.seal(None, &[&ad], &pt).unwrap();
            assert_eq!(siv.open(None, &[&ad], &ct).unwrap(), pt, "SIV, len {n}");
            out.push(ct);
        }
    }
    for (mode, kl) in [(Mode::Ocb, 16), (Mode::Ocb, 32), (Mode::Eax, 16), (Mode::Gcm, 32)] {
        let aead = Aead::new(mode, &bytes(kl, 9)).unwrap();
        let nonce = bytes(mode.nonce_len(), 5);
        for n in lens.clone() {
            let pt = bytes(n, 6);
            let mut buf = pt.clone();
            let nc = || Nonce::assume_unique_for_key(&nonce);
            let tag = aead.seal_in_place_separate_tag(nc(), Aad::new(b"ad"), &mut buf).unwrap();
            out.push([&buf[..], &tag[..]].concat());
            aead.open_in_place_separate_tag(nc(), Aad::new(b"ad"), &mut buf, &tag).unwrap();
            assert_eq!(buf, pt, "{mode:?} len {n}");
        }
    }
    out
}

/// Every level the CPU reaches gives the portable level's bytes (the
/// kernels chosen differ level by level: see `the_cap_only_lowers`).
#[test]
fn every_level_matches_portable() {
    let (fpe, aead) = with_cap(Level::Portable, || (fpe_outputs(), aead_outputs()));
    for cap in Level::ALL.into_iter().filter(|&l| l > Level::Portable && l <= detected()) {
        with_cap(cap, || {
            assert!(fpe_outputs() == fpe, "FPE at {cap}");
            assert!(aead_outputs() == aead, "AEAD at {cap}");
        });
    }
}

/// This module stays the only one that asks the CPU: a new call site
/// elsewhere would escape the cap (and the tests per level).
#[test]
fn no_other_source_file_detects_features() {
    fn walk(dir: &std::path::Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("cpu.rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                if text.contains(concat!("is_x86_feature", "_detected")) {
                    found.push(path.display().to_string());
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut found);
    assert!(found.is_empty(), "ask crate::cpu instead in {found:?}");
}
