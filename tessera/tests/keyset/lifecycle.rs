//! Keysets: rotation scenarios, the file at rest, bad input, and the
//! embedded FPE key-version construction.

use proptest::prelude::*;
use tessera::keyset::{
    BatchTweaks, Error, FpeAlgorithm, FpeParams, KeyStatus, KeyVersionMode, Keyset, Protection, SivParams, Template,
    TransformParams, TweakPolicy,
};
use tessera::openpgp::key::{Cert, GenerateOptions, KeyProfile, generate};
use tessera::openpgp::{EncryptOptions, S2kChoice};

fn fast() -> EncryptOptions {
    EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() }
}

fn embedded(template: Template) -> TransformParams {
    match template.params() {
        TransformParams::Fpe(p) => TransformParams::Fpe(FpeParams { key_version: KeyVersionMode::Embedded, ..p }),
        p => p,
    }
}

#[test]
fn external_rotation_v1_tokens_survive_promotion_and_rewrap() {
    let mut ks = Keyset::new();
    ks.add_transform("cards", Template::Card.params()).unwrap();
    let card = "4111 1111 1111 1111";
    let t1 = ks.fpe("cards").unwrap().encrypt(None, card).unwrap();
    assert_eq!(t1.len(), card.len());
    assert!(t1.starts_with("4111 11") && t1.ends_with(" 1111"));
    // Two random keys map one card's six middle digits alike once in 10^6:
    // the changes below are asserted for a pair of cards (once in 10^12).
    let card_b = "5500 0000 0000 0004";
    let t1_b = ks.fpe("cards").unwrap().encrypt(None, card_b).unwrap();
    let v2 = ks.add_key("cards").unwrap();
    assert_eq!(v2, 2);
    ks.promote("cards", 2).unwrap();
    let fpe = ks.fpe("cards").unwrap();
    assert_eq!(fpe.decrypt(None, &t1, Some(1)).unwrap().as_str(), card);
    let t2 = fpe.rewrap(None, &t1, Some(1)).unwrap();
    let t2_b = fpe.rewrap(None, &t1_b, Some(1)).unwrap();
    assert_ne!((&t2, &t2_b), (&t1, &t1_b));
    assert_eq!(t2, fpe.encrypt(None, card).unwrap());
    assert_eq!(fpe.decrypt(None, &t2, Some(2)).unwrap().as_str(), card);
    // Rewrapped output decrypts only under the primary.
    let under_v1 = |t: &str| fpe.decrypt(None, t, Some(1)).unwrap().to_string();
    assert_ne!((under_v1(&t2), under_v1(&t2_b)), (card.to_string(), card_b.to_string()));

    ks.disable("cards", 1).unwrap();
    let err = ks.fpe("cards").unwrap().decrypt(None, &t1, Some(1)).unwrap_err();
    assert!(matches!(err, Error::KeyDisabled { version: 1, .. }), "{err}");
    ks.destroy("cards", 1).unwrap();
    let err = ks.fpe("cards").unwrap().decrypt(None, &t1, Some(1)).unwrap_err();
    assert!(matches!(err, Error::KeyDestroyed { version: 1, .. }), "{err}");
    assert!(err.to_string().contains("version 1"));
}

#[test]
fn embedded_rotation_finds_the_version_in_the_token() {
    let mut ks = Keyset::new();
    ks.add_transform("digits", embedded(Template::Digits)).unwrap();
    let pt = "0123456789012";
    let mut tokens = vec![ks.fpe("digits").unwrap().encrypt(None, pt).unwrap()];
    for v in 2..=4 {
        assert_eq!(ks.add_key("digits").unwrap(), v);
        ks.promote("digits", v).unwrap();
        tokens.push(ks.fpe("digits").unwrap().encrypt(None, pt).unwrap());
    }
    let fpe = ks.fpe("digits").unwrap();
    for (i, t) in tokens.iter().enumerate() {
        assert_eq!(t.chars().count(), pt.len());
        assert_eq!(fpe.version_of(t, None).unwrap(), i as u32 + 1);
        assert_eq!(fpe.decrypt(None, t, None).unwrap().as_str(), pt);
        assert_eq!(fpe.rewrap(None, t, None).unwrap(), tokens[3]);
    }
    assert!(tokens[0].chars().all(|c| c.is_ascii_digit()), "slot 0 is the alphabet itself");
    assert!(!tokens[1].starts_with(|c: char| c.is_ascii_digit()));
    // Naming a different version than the token carries is an error.
    assert!(fpe.decrypt(None, &tokens[1], Some(3)).is_err());

    ks.disable("digits", 2).unwrap();
    ks.destroy("digits", 2).unwrap();
    let err = ks.fpe("digits").unwrap().decrypt(None, &tokens[1], None).unwrap_err();
    assert!(matches!(err, Error::KeyDestroyed { version: 2, .. }), "{err}");
}

#[test]
fn embedded_slots_limit_live_versions() {
    let mut ks = Keyset::new();
    ks.add_transform("d", embedded(Template::Digits)).unwrap();
    assert_eq!(ks.fpe("d").unwrap().embedded_slots(), Some(6));
    for _ in 2..=6 {
        ks.add_key("d").unwrap();
    }
    let err = ks.add_key("d").unwrap_err();
    assert!(err.to_string().contains("slot"), "{err}");
    ks.disable("d", 2).unwrap();
    ks.destroy("d", 2).unwrap();
    assert_eq!(ks.add_key("d").unwrap(), 8); // 7 was refused, 8 takes version 2's slot
}

#[test]
fn embedded_mode_is_refused_where_impossible() {
    let mut ks = Keyset::new();
    let err = ks.add_transform("a", embedded(Template::Alphanumeric)).unwrap_err();
    assert!(matches!(err, Error::EmbeddingImpossible { .. }), "{err}");
    assert!(ks.transforms().is_empty(), "a refused transformation is not added");
}

#[test]
fn email_template_keeps_the_domain_and_separators() {
    let mut ks = Keyset::new();
    ks.add_transform("mail", Template::EmailLocal.params()).unwrap();
    let fpe = ks.fpe("mail").unwrap();
    let t = fpe.encrypt(None, "john.smith+news@example.com").unwrap();
    assert!(t.ends_with("@example.com") && t.as_bytes()[4] == b'.' && t.as_bytes()[10] == b'+', "{t}");
    assert_eq!(fpe.decrypt(None, &t, None).unwrap().as_str(), "john.smith+news@example.com");
}

#[test]
fn tweak_policies() {
    let mut p = FpeParams::new("0123456789");
    p.algorithm = FpeAlgorithm::Ff3_1;
    p.tweak = TweakPolicy::Call;
    let mut ks = Keyset::new();
    ks.add_transform("t", TransformParams::Fpe(p.clone())).unwrap();
    let fpe = ks.fpe("t").unwrap();
    assert!(matches!(fpe.encrypt(None, "123456789").unwrap_err(), Error::Tweak { .. }));
    let a = fpe.encrypt(Some(&[1; 7]), "123456789").unwrap();
    assert_ne!(a, fpe.encrypt(Some(&[2; 7]), "123456789").unwrap());
    assert_eq!(fpe.decrypt(Some(&[1; 7]), &a, None).unwrap().as_str(), "123456789");
    // FF3-1 needs a 7-byte fixed tweak.
    p.tweak = TweakPolicy::Fixed { hex: "00".into() };
    assert!(matches!(ks.add_transform("u", TransformParams::Fpe(p)).unwrap_err(), Error::Invalid(_)));
}

#[test]
fn siv_rotation_tink_and_raw() {
    let mut ks = Keyset::new();
    let v1 = ks.add_transform("e", TransformParams::Siv(SivParams::default())).unwrap();
    let c1 = ks.siv("e").unwrap().encrypt(b"ad", b"hello").unwrap();
    assert_eq!(c1[1..5], v1.to_be_bytes());
    let v2 = ks.add_key("e").unwrap();
    ks.promote("e", v2).unwrap();
    let siv = ks.siv("e").unwrap();
    assert_eq!(&siv.decrypt(b"ad", &c1).unwrap()[..], b"hello");
    assert!(siv.decrypt(b"other", &c1).is_err());
    let c2 = siv.rewrap(b"ad", &c1).unwrap();
    assert_eq!(c2[1..5], v2.to_be_bytes());
    assert_eq!(siv.decrypt_with_id(b"ad", &c2).unwrap().1, v2);
    ks.disable("e", v1).unwrap();
    assert!(matches!(ks.siv("e").unwrap().decrypt(b"ad", &c1).unwrap_err(), Error::KeyDisabled { .. }));
    ks.destroy("e", v1).unwrap();
    assert!(matches!(ks.siv("e").unwrap().decrypt(b"ad", &c1).unwrap_err(), Error::KeyDestroyed { .. }));

    let mut raw = Keyset::new();
    let p = SivParams { output_prefix: tessera::keyset::OutputPrefix::Raw, key_bytes: 64 };
    raw.add_transform("r", TransformParams::Siv(p)).unwrap();
    let c = raw.siv("r").unwrap().encrypt(b"", b"x").unwrap();
    assert_eq!(c.len(), 17);
    let k2 = raw.add_key("r").unwrap();
    raw.promote("r", k2).unwrap();
    assert_eq!(&raw.siv("r").unwrap().decrypt(b"", &c).unwrap()[..], b"x");
}

#[test]
fn primary_cannot_be_disabled_or_destroyed() {
    let mut ks = Keyset::new();
    ks.add_transform("c", Template::Ssn.params()).unwrap();
    assert!(matches!(ks.disable("c", 1).unwrap_err(), Error::Rotation(_)));
    assert!(matches!(ks.destroy("c", 1).unwrap_err(), Error::Rotation(_)));
    assert!(matches!(ks.promote("c", 9).unwrap_err(), Error::UnknownVersion { version: 9, .. }));
    assert!(matches!(ks.fpe("nope").unwrap_err(), Error::UnknownTransform(_)));
    assert!(matches!(ks.siv("c").unwrap_err(), Error::WrongKind { .. }));
}

#[test]
fn file_round_trip_sealed_and_destroyed_key_gone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ks.tks");
    let mut ks = Keyset::new();
    ks.add_transform("cards", Template::Card.params()).unwrap();
    ks.add_key("cards").unwrap();
    ks.promote("cards", 2).unwrap();
    ks.disable("cards", 1).unwrap();
    ks.destroy("cards", 1).unwrap();
    ks.save_with(&path, Protection::Password(b"pw"), &fast()).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_ne!(bytes[0], b'{', "sealed by default");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let back = Keyset::open(&path, Protection::Password(b"pw")).unwrap();
    let t = back.transform("cards").unwrap();
    assert_eq!(t.primary, 2);
    assert_eq!(t.key(1).unwrap().status, KeyStatus::Destroyed);
    assert!(!t.key(1).unwrap().has_material());
    let json = back.to_json().unwrap();
    let text = std::str::from_utf8(&json).unwrap();
    assert_eq!(text.matches("\"material\"").count(), 1, "only version 2 holds key bytes");
    assert!(matches!(Keyset::open(&path, Protection::Password(b"no")).unwrap_err(), Error::Sealed(_)));
    assert!(matches!(Keyset::open(&path, Protection::InsecureCleartext).unwrap_err(), Error::Protection(_)));
    let clear = dir.path().join("clear.json");
    back.save(&clear, Protection::InsecureCleartext).unwrap();
    assert!(matches!(Keyset::open(&clear, Protection::Password(b"pw")).unwrap_err(), Error::Protection(_)));
    assert_eq!(Keyset::open(&clear, Protection::InsecureCleartext).unwrap().transforms().len(), 1);
}

fn member(profile: KeyProfile, name: &str) -> Cert {
    generate(&GenerateOptions { profile, user_ids: vec![format!("{name} <{name}@example.org>")], ..Default::default() })
        .unwrap()
}

#[test]
fn sealed_to_certificates_signed_by_a_member_each_member_opens_it() {
    let (alice, bob, eve) =
        (member(KeyProfile::Rfc9580, "alice"), member(KeyProfile::Rfc4880, "bob"), member(KeyProfile::Rfc9580, "eve"));
    let team = [alice.to_public(), bob.to_public()];
    let as_member = |key: &Cert| -> Vec<Cert> { vec![key.clone()] };
    let mut ks = Keyset::new();
    ks.add_transform("cards", Template::Card.params()).unwrap();
    let token = ks.fpe("cards").unwrap().encrypt(None, "4111-1111-1111-1111").unwrap();
    let alice_keys = as_member(&alice);
    let sealed = ks.to_bytes(Protection::Certificates { recipients: &team, keys: &alice_keys }).unwrap();
    assert_ne!(sealed[0], b'{');
    assert!(!String::from_utf8_lossy(&sealed).contains("material"), "no cleartext JSON in the sealed file");
    for key in [&alice, &bob] {
        let keys = as_member(key);
        let back = Keyset::from_bytes(&sealed, Protection::Certificates { recipients: &team, keys: &keys }).unwrap();
        assert_eq!(back.fpe("cards").unwrap().decrypt(None, &token, None).unwrap().as_str(), "4111-1111-1111-1111");
    }
    // An outsider cannot open it.
    let eve_keys = as_member(&eve);
    let outsider = Protection::Certificates { recipients: &team, keys: &eve_keys };
    assert!(matches!(Keyset::from_bytes(&sealed, outsider).unwrap_err(), Error::Sealed(_)));
    // An outsider holding only the team's certificates cannot replace it:
    // the file must be signed by a member.
    let forged = ks.to_bytes(Protection::Certificates { recipients: &team, keys: &eve_keys }).unwrap();
    let bob_keys = as_member(&bob);
    let e = Keyset::from_bytes(&forged, Protection::Certificates { recipients: &team, keys: &bob_keys }).unwrap_err();
    assert!(matches!(e, Error::Sealed(_)), "{e}");
    // Unsigned (password-less, certificate-only) files are refused too.
    let opts = EncryptOptions { recipients: team.to_vec(), ..EncryptOptions::default() };
    let mut enc = tessera::openpgp::Encryptor::new(Vec::new(), &[], &opts).unwrap();
    std::io::Write::write_all(&mut enc, &ks.to_json().unwrap()).unwrap();
    let unsigned = enc.finish().unwrap();
    let e = Keyset::from_bytes(&unsigned, Protection::Certificates { recipients: &team, keys: &bob_keys }).unwrap_err();
    assert!(matches!(e, Error::Sealed(_)), "{e}");
    // What each side needs.
    let no_key = Protection::Certificates { recipients: &team, keys: &[] };
    assert!(matches!(Keyset::from_bytes(&sealed, no_key).unwrap_err(), Error::Protection(_)));
    assert!(matches!(ks.to_bytes(no_key).unwrap_err(), Error::Protection(_)));
    let no_team = Protection::Certificates { recipients: &[], keys: &bob_keys };
    assert!(matches!(Keyset::from_bytes(&sealed, no_team).unwrap_err(), Error::Protection(_)));
    assert!(matches!(ks.to_bytes(no_team).unwrap_err(), Error::Protection(_)));
    assert!(matches!(Keyset::from_bytes(&sealed, Protection::Password(b"pw")).unwrap_err(), Error::Sealed(_)));
    let clear = ks.to_bytes(Protection::InsecureCleartext).unwrap();
    let with_keys = Protection::Certificates { recipients: &team, keys: &alice_keys };
    assert!(matches!(Keyset::from_bytes(&clear, with_keys).unwrap_err(), Error::Protection(_)));
}

fn json_of(ks: &Keyset) -> serde_json::Value {
    serde_json::from_slice(&ks.to_json().unwrap()).unwrap()
}

fn reread(v: &serde_json::Value) -> Result<Keyset, Error> {
    Keyset::from_json(v.to_string().as_bytes())
}

#[test]
fn bad_keysets_are_clear_errors() {
    let mut ks = Keyset::new();
    ks.add_transform("c", Template::Card.params()).unwrap();
    ks.add_key("c").unwrap();
    let good = json_of(&ks);
    assert!(reread(&good).is_ok());

    let mut v = good.clone();
    v["version"] = 2.into();
    assert!(matches!(reread(&v).unwrap_err(), Error::NewerFormat { found: 2, supported: 1 }));
    let mut v = good.clone();
    v["transforms"][0]["keys"][1]["id"] = 1.into();
    assert!(reread(&v).unwrap_err().to_string().contains("key ID 1 twice"));
    let mut v = good.clone();
    v["transforms"][0]["primary"] = 7.into();
    assert!(reread(&v).unwrap_err().to_string().contains("no primary"));
    let mut v = good.clone();
    v["transforms"][0]["keys"][0]["status"] = "disabled".into();
    assert!(reread(&v).unwrap_err().to_string().contains("not enabled"));
    let mut v = good.clone();
    v["transforms"][0]["params"]["kind"] = "rsa".into();
    assert!(matches!(reread(&v).unwrap_err(), Error::Malformed(_)));
    let mut v = good.clone();
    v["transforms"][0]["keys"][0]["material"] = "00".into();
    assert!(reread(&v).unwrap_err().to_string().contains("wrong size"));
    let mut v = good.clone();
    let t = v["transforms"][0].clone();
    v["transforms"].as_array_mut().unwrap().push(t);
    assert!(matches!(reread(&v).unwrap_err(), Error::DuplicateTransform(_)));

    let text = good.to_string();
    for cut in [1, text.len() / 2, text.len() - 1] {
        let err = Keyset::from_json(&text.as_bytes()[..cut]).unwrap_err();
        assert!(matches!(err, Error::Malformed(_)), "{err}");
        assert!(!err.to_string().contains("material\":\""), "no key bytes in messages");
    }
    let sealed = ks.to_bytes_with(Protection::Password(b"pw"), &fast()).unwrap();
    assert!(Keyset::from_bytes(&sealed[..sealed.len() - 10], Protection::Password(b"pw")).is_err());
}

#[test]
fn debug_never_shows_key_bytes() {
    let mut ks = Keyset::new();
    ks.add_transform("s", Template::Siv.params()).unwrap();
    let json = ks.to_json().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let hex = v["transforms"][0]["keys"][0]["material"].as_str().unwrap().to_string();
    assert_eq!(hex.len(), 128);
    for shown in [format!("{ks:?}"), format!("{:?}", ks.siv("s").unwrap()), format!("{:?}", ks.transforms())] {
        assert!(!shown.contains(&hex[..16]), "{shown}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Embedded mode: every version's tokens keep the value's length and
    /// decrypt after rotation; another keyset returns the plaintext only
    /// where its own key maps it to the same token (once in 10^digits).
    #[test]
    fn embedded_round_trip_every_version(
        digits in "[0-9]{6,20}",
        dashes in proptest::collection::vec(0usize..20, 0..3),
        versions in 1u32..=6,
    ) {
        let mut value = digits.clone();
        for d in dashes {
            let at = value.char_indices().nth(d % value.len()).map_or(0, |(i, _)| i);
            value.insert(at, '-');
        }
        let mut ks = Keyset::new();
        ks.add_transform("t", embedded(Template::Ssn)).unwrap();
        let mut tokens = vec![ks.fpe("t").unwrap().encrypt(None, &value).unwrap()];
        for v in 2..=versions {
            ks.add_key("t").unwrap();
            ks.promote("t", v).unwrap();
            tokens.push(ks.fpe("t").unwrap().encrypt(None, &value).unwrap());
        }
        let fpe = ks.fpe("t").unwrap();
        let mut other_ks = Keyset::new();
        other_ks.add_transform("t", embedded(Template::Ssn)).unwrap();
        for _ in 2..=6 {
            other_ks.add_key("t").unwrap();
        }
        let other = other_ks.fpe("t").unwrap();
        let mut coincidences = 0;
        for (i, t) in tokens.iter().enumerate() {
            prop_assert_eq!(t.chars().count(), value.chars().count());
            prop_assert_eq!(fpe.version_of(t, None).unwrap(), i as u32 + 1);
            let back = fpe.decrypt(None, t, None).unwrap();
            prop_assert_eq!(back.as_str(), value.as_str());
            // Another keyset's key of that version maps the value to the
            // same token once in 10^digits (10^-6 for six digits): then,
            // and only then, it decrypts the token to the value.
            let wrong = other.decrypt(None, t, None);
            if wrong.is_ok_and(|w| w.as_str() == value) {
                let mut same_key = other_ks.clone();
                same_key.promote("t", i as u32 + 1).unwrap();
                prop_assert_eq!(&same_key.fpe("t").unwrap().encrypt(None, &value).unwrap(), t);
                coincidences += 1;
            }
        }
        // Twice in one case would be once in 10^12: keys that do not matter.
        prop_assert!(coincidences <= 1, "{} of {} tokens open under another keyset", coincidences, tokens.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// The batch path gives what one value at a time gives, both ways,
    /// embedded or external, with kept characters or a kept tail.
    #[test]
    fn batches_equal_one_at_a_time(
        values in proptest::collection::vec("[0-9]{3}-[0-9]{2}-[0-9]{4}", 1..40),
        mode in prop_oneof![Just(KeyVersionMode::External), Just(KeyVersionMode::Embedded)],
        template in prop_oneof![Just(Template::Ssn), Just(Template::Card), Just(Template::EmailLocal)],
    ) {
        let values: Vec<String> = match template {
            Template::Card => values.iter().map(|v| format!("4111 1111 {v}")).collect(),
            Template::EmailLocal => values.iter().map(|v| format!("{v}@example.com")).collect(),
            _ => values,
        };
        let TransformParams::Fpe(mut p) = template.params() else { unreachable!() };
        if template != Template::EmailLocal {
            p.key_version = mode;
        }
        let mut ks = Keyset::new();
        ks.add_transform("t", TransformParams::Fpe(p)).unwrap();
        ks.add_key("t").unwrap();
        ks.promote("t", 2).unwrap();
        let fpe = ks.fpe("t").unwrap();
        let refs: Vec<&str> = values.iter().map(String::as_str).collect();
        let (mut out, mut ends) = (Vec::new(), Vec::new());
        fpe.encrypt_batch(BatchTweaks::Fixed, &refs, &mut out, &mut ends).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut start = 0;
        let mut tokens = Vec::new();
        for (v, &end) in values.iter().zip(&ends) {
            prop_assert_eq!(&text[start..end], fpe.encrypt(None, v).unwrap());
            tokens.push(text[start..end].to_string());
            start = end;
        }
        let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let (mut back, mut ends) = (Vec::new(), Vec::new());
        fpe.decrypt_batch(BatchTweaks::Fixed, &refs, Some(2), &mut back, &mut ends).unwrap();
        let back = String::from_utf8(back).unwrap();
        let mut start = 0;
        for (v, &end) in values.iter().zip(&ends) {
            prop_assert_eq!(&back[start..end], v.as_str());
            start = end;
        }
    }
}

#[test]
fn batch_errors_name_the_value() {
    let mut ks = Keyset::new();
    ks.add_transform("d", Template::Digits.params()).unwrap();
    let fpe = ks.fpe("d").unwrap();
    let err =
        fpe.encrypt_batch(BatchTweaks::Fixed, &["1234567", "12a4567"], &mut Vec::new(), &mut Vec::new()).unwrap_err();
    assert!(matches!(err, Error::Crypto(tessera::Error::Batch { index: 1, .. })), "{err}");
    let err = fpe.encrypt_batch(BatchTweaks::Fixed, &["1234567", "12"], &mut Vec::new(), &mut Vec::new()).unwrap_err();
    assert!(matches!(err, Error::Crypto(tessera::Error::Batch { index: 1, .. })), "{err}");
}

/// A keyset sealed to a post-quantum team (RFC 9980: a v6 ML-DSA-65+Ed25519
/// key and a v4 key with an ML-KEM-768+X25519 subkey): signed with the
/// composite signature, opened by each member.
#[test]
fn sealed_to_post_quantum_certificates() {
    let (alice, bob) = (member(KeyProfile::Rfc9980, "alice"), member(KeyProfile::Rfc9980V4, "bob"));
    let team = [alice.to_public(), bob.to_public()];
    let mut ks = Keyset::new();
    ks.add_transform("cards", Template::Card.params()).unwrap();
    let token = ks.fpe("cards").unwrap().encrypt(None, "4111-1111-1111-1111").unwrap();
    let sealed =
        ks.to_bytes(Protection::Certificates { recipients: &team, keys: std::slice::from_ref(&alice) }).unwrap();
    for key in [&alice, &bob] {
        let keys = [key.clone()];
        let back = Keyset::from_bytes(&sealed, Protection::Certificates { recipients: &team, keys: &keys }).unwrap();
        assert_eq!(back.fpe("cards").unwrap().decrypt(None, &token, None).unwrap().as_str(), "4111-1111-1111-1111");
    }
}
