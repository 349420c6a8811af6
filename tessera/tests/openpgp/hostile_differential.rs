//! Verification outcomes of tessera and Sequoia (pysequoia) side by side,
//! over generated certificates and signatures: floods of forged
//! revocations, bindings, User IDs and bare subkeys; soft and hard
//! revocations before and after a signature; expired back-signatures,
//! keys and signatures; subkeys bound by someone else; signatures naming no
//! issuer. Every case where the two disagree is named in `DIFFERENCES`
//! with its reason (SECURITY.md, "Where tessera and Sequoia differ"), and
//! those cases must still differ: the list stays true.

use crate::common;

use common::hostile::*;
use tessera::openpgp::crypto::HashAlg;
use tessera::openpgp::key::{Cert, KeyProfile};
use tessera::openpgp::sig::{
    SigType, Signature, SignatureBuilder, Signer, SigningKey, Subpacket, SubpacketValue, Verifier,
};

const DATA: &[u8] = b"the same data for both\n";

/// Cases where tessera and Sequoia disagree on purpose, and why.
const DIFFERENCES: &[(&str, &str)] = &[(
    "issuer-less signature by a keyring certificate",
    "tessera tries a signature naming no issuer against the keys that claim to sign \
     (at most 4 such signatures per message); Sequoia looks keys up by issuer only",
)];

struct Case {
    name: String,
    certs: Vec<Cert>,
    sig: Signature,
}

fn sign_at(keys: &[SigningKey<'_>], at: u32) -> Signature {
    let mut s = Signer::new(&keys[..1], SigType::Binary, at).expect("signer");
    s.update(DATA);
    s.finish().expect("sign").remove(0)
}

fn signed(key: &Cert, at: u32) -> Signature {
    sign_at(&SigningKey::from_cert(key, u64::from(at)).expect("signing key"), at)
}

fn floods(cases: &mut Vec<Case>) {
    for profile in [KeyProfile::Rfc9580, KeyProfile::Rfc4880] {
        let key = victim_key(profile);
        let public = key.to_public();
        let sig = signed(&key, CREATED + 100);
        let p = format!("{profile:?}");
        let mut add = |name: &str, cert: Cert| {
            cases.push(Case { name: format!("{p}: {name}"), certs: vec![cert], sig: sig.clone() })
        };
        add("clean certificate", public.clone());
        add("500 forged key revocations", flood_key_revocations(&public, 500));
        add("500 forged subkey revocations", flood_subkey_revocations(&public, 500));
        add("300 forged newer bindings", flood_bindings(&public, 300));
        add("100 forged User IDs", flood_user_ids(&public, 100));
        add("200 bare subkeys", with_bare_subkeys(&public, 200));
    }
}

fn revocations(cases: &mut Vec<Case>) {
    for (code, what) in [(0u8, "no reason"), (1, "superseded"), (2, "compromised"), (3, "retired")] {
        let key = victim_key(KeyProfile::Rfc9580);
        for (when, rev_at) in [("after", CREATED + 200), ("before", CREATED + 50)] {
            cases.push(Case {
                name: format!("revocation ({what}) made {when} the signature"),
                certs: vec![revoked_by_owner(&key, code, rev_at)],
                sig: signed(&key, CREATED + 100),
            });
        }
    }
}

fn bindings(cases: &mut Vec<Case>) {
    let (key, sub_secret) = signing_subkey_with_expiring_backsig(1000);
    let sub = key.subkeys.last().expect("subkey").key.public();
    let keys = [SigningKey { public: sub, secret: &sub_secret, hash: HashAlg::Sha512 }];
    for (when, at) in
        [("while its back-signature lived", CREATED + 500), ("after its back-signature expired", CREATED + 2000)]
    {
        cases.push(Case {
            name: format!("subkey signature {when}"),
            certs: vec![key.to_public()],
            sig: sign_at(&keys, at),
        });
    }
    // A subkey bound by another key's signature: not this certificate's.
    let (mut stolen, sub_secret) = signing_subkey_with_expiring_backsig(1_000_000);
    let mallory = victim_key(KeyProfile::Rfc9580);
    let last = stolen.subkeys.len() - 1;
    let sub = stolen.subkeys[last].key.public().clone();
    let (mpk, msecret) =
        (mallory.primary.public(), mallory.primary.secret().expect("secret").secret().expect("unlocked"));
    let by_mallory = SignatureBuilder::new(SigType::SubkeyBinding, CREATED)
        .subpacket(Subpacket::new(SubpacketValue::KeyFlags(vec![0x02])))
        .sign_subkey_binding(mpk, msecret, &sub)
        .expect("binding");
    stolen.subkeys[last].sigs = vec![by_mallory];
    let keys = [SigningKey { public: &sub, secret: &sub_secret, hash: HashAlg::Sha512 }];
    cases.push(Case {
        name: "subkey bound by another key".into(),
        certs: vec![stolen.to_public()],
        sig: sign_at(&keys, CREATED + 10),
    });
}

fn expiry_and_issuers(cases: &mut Vec<Case>) {
    let opts = tessera::openpgp::key::GenerateOptions {
        created: Some(CREATED),
        expires_in: Some(1000),
        user_ids: vec!["E <e@example.org>".into()],
        ..Default::default()
    };
    let key = tessera::openpgp::key::generate(&opts).expect("generate");
    let sig = signed(&key, CREATED + 500);
    cases.push(Case { name: "signature made before the key expired".into(), certs: vec![key.to_public()], sig });
    let keys = [SigningKey {
        hash: HashAlg::Sha512,
        ..SigningKey::from_cert(&key, u64::from(CREATED) + 1).expect("signing key")[0]
    }];
    let sig = sign_at(&keys, CREATED + 2000);
    cases.push(Case { name: "signature made after the key expired".into(), certs: vec![key.to_public()], sig });
    let signer = victim_key(KeyProfile::Rfc9580);
    let mut ring = keyring(20);
    ring.push(signer.to_public());
    let sig = issuerless_signature(&signer, DATA, CREATED + 10);
    cases.push(Case { name: "issuer-less signature by a keyring certificate".into(), certs: ring.clone(), sig });
    let stranger = victim_key(KeyProfile::Rfc9580);
    let sig = issuerless_signature(&stranger, DATA, CREATED + 10);
    cases.push(Case { name: "issuer-less signature by a stranger".into(), certs: ring, sig });
}

#[test]
fn tessera_and_sequoia_agree_except_where_named() {
    let Some(py) = common::peer_python("pysequoia") else { return };
    let mut cases = Vec::new();
    floods(&mut cases);
    revocations(&mut cases);
    bindings(&mut cases);
    expiry_and_issuers(&mut cases);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("clock").as_secs();
    let pairs: Vec<_> = cases.iter().map(|c| (c.certs.as_slice(), &c.sig)).collect();
    let sequoia = common::sequoia_verifies(&py, &pairs, DATA);
    let mut report = Vec::new();
    for (c, theirs) in cases.iter().zip(sequoia) {
        let mut v = Verifier::new(vec![c.sig.clone()], &c.certs, now);
        v.update(DATA);
        let ours = v.finish()[0].is_good();
        eprintln!("{}: tessera {ours}, Sequoia {theirs}", c.name);
        let named = DIFFERENCES.iter().any(|(n, _)| *n == c.name);
        if (ours != theirs) != named {
            report.push(format!(
                "{}: tessera {ours}, Sequoia {theirs}{}",
                c.name,
                if named { " (named as a difference)" } else { "" }
            ));
        }
    }
    assert!(report.is_empty(), "unexpected outcomes:\n{}", report.join("\n"));
}
