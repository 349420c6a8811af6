//! Which key version a keyset operation uses when the value does not say:
//! external FPE versions are never guessed among several enabled ones, a
//! rewrap must be able to name its source and must not start from the
//! primary, a version is disabled before it is destroyed, and RAW AES-SIV
//! keys are each tried (SIV authenticates, so trying is safe).

use tessera::keyset::{
    BatchTweaks, Error, FpeParams, KeyStatus, KeyVersionMode, Keyset, OutputPrefix, SivParams, Template,
    TransformParams,
};

const CARDS: [&str; 3] = ["4111-1111-1111-1111", "5500 0000 0000 0004", "4000-0566-5566-5556"];

fn cards(mode: KeyVersionMode) -> TransformParams {
    let TransformParams::Fpe(p) = Template::Card.params() else { unreachable!() };
    TransformParams::Fpe(FpeParams { key_version: mode, ..p })
}

/// A card transformation with tokens made by version 1, then version 2
/// added (and promoted when `promote`).
fn rotated(mode: KeyVersionMode, promote: bool) -> (Keyset, Vec<String>) {
    let mut ks = Keyset::new();
    ks.add_transform("cards", cards(mode)).unwrap();
    let fpe = ks.fpe("cards").unwrap();
    let tokens = CARDS.iter().map(|c| fpe.encrypt(None, c).unwrap()).collect();
    assert_eq!(ks.add_key("cards").unwrap(), 2);
    if promote {
        ks.promote("cards", 2).unwrap();
    }
    (ks, tokens)
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn external_decrypt_without_a_version_is_refused_while_several_are_enabled() {
    // One enabled version: nothing to choose between.
    let mut single = Keyset::new();
    single.add_transform("cards", cards(KeyVersionMode::External)).unwrap();
    let fpe = single.fpe("cards").unwrap();
    let t = fpe.encrypt(None, CARDS[0]).unwrap();
    assert_eq!(fpe.decrypt(None, &t, None).unwrap().as_str(), CARDS[0]);

    for promote in [false, true] {
        let (mut ks, old) = rotated(KeyVersionMode::External, promote);
        let fpe = ks.fpe("cards").unwrap();
        let err = fpe.decrypt(None, &old[0], None).unwrap_err();
        assert!(matches!(&err, Error::VersionAmbiguous { enabled, .. } if enabled == &[1, 2]), "{err}");
        let msg = err.to_string();
        assert!(msg.contains("(1, 2)") && msg.contains("name the version that made the tokens"), "{msg}");
        assert!(matches!(fpe.check_decrypt(None), Err(Error::VersionAmbiguous { .. })));
        fpe.check_decrypt(Some(1)).unwrap();
        let (mut out, mut ends) = (b"kept".to_vec(), vec![4]);
        let err = fpe.decrypt_batch(BatchTweaks::Fixed, &refs(&old), None, &mut out, &mut ends).unwrap_err();
        assert!(matches!(err, Error::VersionAmbiguous { .. }), "{err}");
        assert_eq!((&out[..], &ends[..]), (&b"kept"[..], &[4][..]), "nothing written");
        // Named, it decrypts.
        assert_eq!(fpe.decrypt(None, &old[0], Some(1)).unwrap().as_str(), CARDS[0]);
        let (mut out, mut ends) = (Vec::new(), Vec::new());
        fpe.decrypt_batch(BatchTweaks::Fixed, &refs(&old), Some(1), &mut out, &mut ends).unwrap();
        assert_eq!(&out[..ends[0]], CARDS[0].as_bytes());
        // Once the other version is disabled, the one enabled version is used.
        let other = if promote { 1 } else { 2 };
        ks.disable("cards", other).unwrap();
        let fpe = ks.fpe("cards").unwrap();
        let fresh = fpe.encrypt(None, CARDS[1]).unwrap();
        assert_eq!(fpe.decrypt(None, &fresh, None).unwrap().as_str(), CARDS[1]);
        fpe.check_decrypt(None).unwrap();
    }
}

#[test]
fn external_rewrap_needs_the_source_version_and_not_the_primary() {
    // Version 2 added but not promoted: a rewrap from 1 would give the tokens back.
    let (ks, old) = rotated(KeyVersionMode::External, false);
    let fpe = ks.fpe("cards").unwrap();
    let err = fpe.rewrap(None, &old[0], Some(1)).unwrap_err();
    assert!(matches!(err, Error::RewrapFromPrimary { version: 1, .. }), "{err}");
    assert!(err.to_string().contains("promote the new version"), "{err}");
    let err = fpe.rewrap_batch(BatchTweaks::Fixed, &refs(&old), Some(1), &mut Vec::new(), &mut Vec::new());
    assert!(matches!(err.unwrap_err(), Error::RewrapFromPrimary { version: 1, .. }));

    let (ks, old) = rotated(KeyVersionMode::External, true);
    let fpe = ks.fpe("cards").unwrap();
    // No version: nothing tells which one made the tokens.
    let err = fpe.rewrap(None, &old[0], None).unwrap_err();
    assert!(matches!(err, Error::RewrapSourceUnknown { primary: 2, .. }), "{err}");
    assert!(err.to_string().contains("needs the version that made the tokens"), "{err}");
    let (mut out, mut ends) = (Vec::new(), Vec::new());
    let err = fpe.rewrap_batch(BatchTweaks::Fixed, &refs(&old), None, &mut out, &mut ends).unwrap_err();
    assert!(matches!(err, Error::RewrapSourceUnknown { .. }), "{err}");
    assert!(out.is_empty() && ends.is_empty());
    // The primary as the source.
    let err = fpe.rewrap(None, &old[0], Some(2)).unwrap_err();
    assert!(matches!(err, Error::RewrapFromPrimary { version: 2, .. }), "{err}");
    // The old version named: moved to the primary.
    let new = fpe.rewrap(None, &old[0], Some(1)).unwrap();
    assert_eq!(new, fpe.encrypt(None, CARDS[0]).unwrap());
    assert_eq!(fpe.decrypt(None, &new, Some(2)).unwrap().as_str(), CARDS[0]);
    fpe.rewrap_batch(BatchTweaks::Fixed, &refs(&old), Some(1), &mut out, &mut ends).unwrap();
    assert_eq!(&out[..ends[0]], new.as_bytes());
}

#[test]
fn embedded_rewrap_reads_the_version_and_refuses_the_primary_as_source() {
    let (ks, old) = rotated(KeyVersionMode::Embedded, false);
    let fpe = ks.fpe("cards").unwrap();
    let err = fpe.rewrap(None, &old[0], Some(1)).unwrap_err();
    assert!(matches!(err, Error::RewrapFromPrimary { version: 1, .. }), "{err}");

    let (ks, old) = rotated(KeyVersionMode::Embedded, true);
    let fpe = ks.fpe("cards").unwrap();
    fpe.check_decrypt(None).unwrap();
    fpe.check_rewrap(None).unwrap();
    let new = fpe.rewrap(None, &old[0], None).unwrap();
    assert_eq!(fpe.version_of(&new, None).unwrap(), 2);
    // A token already under the primary comes back as it is: a rewrap can run twice.
    assert_eq!(fpe.rewrap(None, &new, None).unwrap(), new);
    assert_eq!(fpe.decrypt(None, &old[0], None).unwrap().as_str(), CARDS[0]);
    assert_eq!(fpe.decrypt(None, &new, None).unwrap().as_str(), CARDS[0]);
    let err = fpe.rewrap(None, &new, Some(2)).unwrap_err();
    assert!(matches!(err, Error::RewrapFromPrimary { version: 2, .. }), "{err}");
}

#[test]
fn destroy_takes_a_disabled_version_only() {
    for mode in [KeyVersionMode::External, KeyVersionMode::Embedded] {
        let (mut ks, old) = rotated(mode, true);
        let err = ks.destroy("cards", 1).unwrap_err();
        assert!(matches!(err, Error::DestroyEnabled { version: 1, .. }), "{err}");
        assert!(err.to_string().contains("disable it first"), "{err}");
        assert_eq!(ks.transform("cards").unwrap().key(1).unwrap().status, KeyStatus::Enabled);
        assert!(ks.transform("cards").unwrap().key(1).unwrap().has_material(), "nothing destroyed");
        assert_eq!(ks.fpe("cards").unwrap().decrypt(None, &old[0], Some(1)).unwrap().as_str(), CARDS[0]);
        assert!(matches!(ks.destroy("cards", 2).unwrap_err(), Error::Rotation(_)), "the primary");
        ks.disable("cards", 1).unwrap();
        ks.destroy("cards", 1).unwrap();
        let k = ks.transform("cards").unwrap().key(1).unwrap();
        assert!(k.status == KeyStatus::Destroyed && !k.has_material());
        // Again: nothing to do, as in Tink.
        ks.destroy("cards", 1).unwrap();
        assert!(matches!(ks.enable("cards", 1).unwrap_err(), Error::KeyDestroyed { version: 1, .. }));
    }
    // AES-SIV keys follow the same rule.
    let mut ks = Keyset::new();
    let v1 = ks.add_transform("e", TransformParams::Siv(SivParams::default())).unwrap();
    let v2 = ks.add_key("e").unwrap();
    ks.promote("e", v2).unwrap();
    assert!(matches!(ks.destroy("e", v1).unwrap_err(), Error::DestroyEnabled { .. }));
    ks.disable("e", v1).unwrap();
    ks.destroy("e", v1).unwrap();
}

#[test]
fn raw_siv_keys_are_each_tried_and_a_failure_names_them() {
    let mut ks = Keyset::new();
    let p = SivParams { output_prefix: OutputPrefix::Raw, key_bytes: 64 };
    let k1 = ks.add_transform("r", TransformParams::Siv(p)).unwrap();
    let c1 = ks.siv("r").unwrap().encrypt(b"ad", b"one").unwrap();
    let k2 = ks.add_key("r").unwrap();
    ks.promote("r", k2).unwrap();
    let c2 = ks.siv("r").unwrap().encrypt(b"ad", b"two").unwrap();
    let k3 = ks.add_key("r").unwrap();
    let siv = ks.siv("r").unwrap();
    // Three enabled RAW keys, no prefix: each is tried, the one that
    // authenticates the ciphertext opens it.
    let (pt, id) = siv.decrypt_with_id(b"ad", &c1).unwrap();
    assert_eq!((&pt[..], id), (&b"one"[..], k1));
    assert_eq!(siv.decrypt_with_id(b"ad", &c2).unwrap().1, k2);
    let moved = siv.rewrap(b"ad", &c1).unwrap();
    assert_eq!(siv.decrypt_with_id(b"ad", &moved).unwrap().1, k2);
    // None of them: the error says which keys were tried and why none fit.
    let err = siv.decrypt(b"other", &c1).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, Error::NoMatchingKey { .. }), "{msg}");
    for k in [k1, k2, k3] {
        assert!(msg.contains(&format!("RAW key {k}")), "{msg}");
    }
    assert!(msg.contains("wrong key, associated data or modified ciphertext"), "{msg}");
    // A disabled RAW key is not tried, and the error says so.
    ks.disable("r", k1).unwrap();
    let err = ks.siv("r").unwrap().decrypt(b"ad", &c1).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, Error::NoMatchingKey { .. }), "{msg}");
    assert!(msg.contains(&format!("RAW key {k1} not tried (disabled)")), "{msg}");
    ks.destroy("r", k1).unwrap();
    let msg = ks.siv("r").unwrap().decrypt(b"ad", &c1).unwrap_err().to_string();
    assert!(msg.contains(&format!("RAW key {k1} not tried (destroyed)")), "{msg}");
}
