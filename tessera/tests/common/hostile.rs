//! Hostile certificates, keyrings and signatures, as anyone can make them
//! from public data: floods of forged revocations, bindings, User IDs and
//! bare subkeys; RSA keys with huge moduli and exponents; expired
//! back-signatures; signatures naming no issuer. A forged signature carries
//! the right 2-octet digest prefix (computed from public data, no grinding)
//! and a signature value that does not verify, so only a public-key check
//! tells it from a real one.

use tessera::openpgp::crypto::{
    HashAlg, KeyType, Mpi, PublicKeyAlg, PublicMaterial, SecretMaterial, SigMaterial, generate as keypair,
};
use tessera::openpgp::key::{
    Cert, CertKey, GenerateOptions, KeyProfile, KeyVersion, PublicKey, Subkey, UserId, generate,
};
use tessera::openpgp::sig::hashing::{binding_digest, certification_digest, direct_key_digest};
use tessera::openpgp::sig::subpacket::write_area;
use tessera::openpgp::sig::{
    DocumentHasher, HashedFields, SigType, Signature, SignatureBuilder, Subpacket, SubpacketValue,
};

/// When the generated keys and signatures are made.
pub const CREATED: u32 = 1_700_000_000;
/// A time at which the generated certificates are judged.
pub const NOW: u64 = 1_700_100_000;

/// A fresh certificate of `profile` with one User ID (a signing primary and
/// an encryption subkey), public part only.
pub fn victim(profile: KeyProfile) -> Cert {
    victim_key(profile).to_public()
}

/// The same, with its secret parts (to sign with).
pub fn victim_key(profile: KeyProfile) -> Cert {
    let opts = GenerateOptions {
        profile,
        created: Some(CREATED),
        user_ids: vec!["Victim <victim@example.org>".into()],
        ..Default::default()
    };
    generate(&opts).expect("generate")
}

/// A signature packet body assembled by hand (v4 or v6 after `version`):
/// its digest computed by `digest_of`, its value made by `value` from the
/// digest.
pub fn raw_sig(
    version: u8,
    ty: SigType,
    pk_alg: PublicKeyAlg,
    hash: HashAlg,
    hashed: &[Subpacket],
    digest_of: impl FnOnce(&HashedFields<'_>) -> Vec<u8>,
    value: impl FnOnce(&[u8]) -> SigMaterial,
) -> Signature {
    let area = write_area(hashed);
    let salt = if version == 6 { vec![0x5a; hash.v6_salt_len()] } else { Vec::new() };
    let fields = HashedFields { version, sig_type: ty, pk_alg, hash_alg: hash, hashed_area: &area, salt: &salt };
    let digest = digest_of(&fields);
    let mut body = vec![version, ty.id(), pk_alg.id(), hash.id()];
    for a in [&area[..], &[]] {
        if version == 6 {
            body.extend_from_slice(&(a.len() as u32).to_be_bytes());
        } else {
            body.extend_from_slice(&(a.len() as u16).to_be_bytes());
        }
        body.extend_from_slice(a);
    }
    body.extend_from_slice(&digest[..2]);
    if version == 6 {
        body.push(salt.len() as u8);
        body.extend_from_slice(&salt);
    }
    value(&digest).serialize(&mut body);
    Signature::parse(&body).expect("a hand-made signature parses")
}

/// A signature value of `signer`'s algorithm that verifies nothing.
pub fn garbage_value(signer: &PublicKey) -> SigMaterial {
    match signer.material() {
        PublicMaterial::Rsa { n, .. } => {
            let mut s = vec![0x5a; n.as_bytes().len()];
            s[0] = 0x01;
            SigMaterial::Rsa { s: Mpi::new(&s) }
        }
        PublicMaterial::Ed448(_) => SigMaterial::Ed448([0x5a; 114]),
        PublicMaterial::EdDsaLegacy { .. } => {
            SigMaterial::EdDsaLegacy { r: Mpi::new(&[0x5a; 32]), s: Mpi::new(&[0x5a; 32]) }
        }
        PublicMaterial::Ecdsa { .. } => SigMaterial::Ecdsa { r: Mpi::new(&[0x5a; 32]), s: Mpi::new(&[0x5a; 32]) },
        _ => SigMaterial::Ed25519([0x5a; 64]),
    }
}

/// What a forged self-signature is over.
#[derive(Clone, Copy)]
pub enum Over<'a> {
    /// The primary key (direct key signatures and key revocations).
    Direct,
    /// A User ID.
    UserId(&'a [u8]),
    /// A subkey.
    Subkey(&'a PublicKey),
}

/// The hash a forged signature by `signer` uses.
fn hash_for(signer: &PublicKey) -> HashAlg {
    match signer.version() {
        KeyVersion::V6 => HashAlg::Sha512,
        _ => HashAlg::Sha256,
    }
}

/// A self-signature of type `ty` by `primary` over `over`, made at
/// `created` with `extra` hashed subpackets, that does not verify.
pub fn forged(primary: &PublicKey, ty: SigType, over: Over<'_>, created: u32, extra: &[Subpacket]) -> Signature {
    let mut hashed = vec![
        Subpacket::critical(SubpacketValue::CreationTime(created)),
        Subpacket::new(SubpacketValue::IssuerFingerprint(primary.fingerprint())),
    ];
    hashed.extend_from_slice(extra);
    raw_sig(
        primary.version().id(),
        ty,
        primary.alg(),
        hash_for(primary),
        &hashed,
        |f| match over {
            Over::Direct => direct_key_digest(f, primary),
            Over::UserId(uid) => certification_digest(f, primary, uid),
            Over::Subkey(sub) => binding_digest(f, primary, sub),
        },
        |_| garbage_value(primary),
    )
}

/// A Reason for Revocation subpacket.
pub fn reason(code: u8) -> Subpacket {
    Subpacket::new(SubpacketValue::RevocationReason { code, text: b"forged".to_vec() })
}

/// `key`'s certificate with a real key revocation of reason `code` made at
/// `at` (signed by its primary key).
pub fn revoked_by_owner(key: &Cert, code: u8, at: u32) -> Cert {
    let (pk, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret().expect("unlocked"));
    let revocation = SignatureBuilder::new(SigType::KeyRevocation, at)
        .subpacket(Subpacket::new(SubpacketValue::RevocationReason { code, text: Vec::new() }))
        .sign_direct_key(pk, secret)
        .expect("revocation");
    let mut c = key.to_public();
    c.direct_sigs.push(revocation);
    c
}

/// `cert` with `n` forged "key compromised" key revocations, each made at
/// another time.
pub fn flood_key_revocations(cert: &Cert, n: u32) -> Cert {
    let mut c = cert.clone();
    let pk = cert.primary.public();
    c.direct_sigs.extend((0..n).map(|i| forged(pk, SigType::KeyRevocation, Over::Direct, CREATED + i, &[reason(2)])));
    c
}

/// `cert` with `n` forged "key compromised" revocations of its first
/// subkey.
pub fn flood_subkey_revocations(cert: &Cert, n: u32) -> Cert {
    let mut c = cert.clone();
    let pk = cert.primary.public();
    let sub = cert.subkeys[0].key.public().clone();
    c.subkeys[0]
        .sigs
        .extend((0..n).map(|i| forged(pk, SigType::SubkeyRevocation, Over::Subkey(&sub), CREATED + i, &[reason(2)])));
    c
}

/// `cert` with `n` forged certifications of its first User ID and `n`
/// forged direct key signatures, newer than the real ones.
pub fn flood_bindings(cert: &Cert, n: u32) -> Cert {
    let mut c = cert.clone();
    let pk = cert.primary.public();
    let uid = cert.user_ids[0].value.clone();
    for i in 0..n {
        let t = CREATED + 10 + i;
        c.user_ids[0].sigs.push(forged(pk, SigType::Certification(0x13), Over::UserId(&uid), t, &[]));
        c.direct_sigs.push(forged(pk, SigType::DirectKey, Over::Direct, t, &[]));
    }
    c
}

/// `cert` with `n` more User IDs, each with a forged certification.
pub fn flood_user_ids(cert: &Cert, n: u32) -> Cert {
    let mut c = cert.clone();
    let pk = cert.primary.public();
    for i in 0..n {
        let value = format!("Forged {i} <forged{i}@example.org>").into_bytes();
        let sig = forged(pk, SigType::Certification(0x13), Over::UserId(&value), CREATED + 20, &[]);
        c.user_ids.push(UserId { value, sigs: vec![sig] });
    }
    c
}

/// A harmless hashed subpacket that makes the `i`-th forged copy distinct
/// (identical copies are checked once).
pub fn distinct(i: u32) -> Subpacket {
    Subpacket::new(SubpacketValue::SignersUserId(format!("copy {i}").into_bytes()))
}

/// `cert` with a User ID of almost 1 MB (the largest packet a certificate
/// may hold) appended, with 300 distinct forged certifications: each costs
/// the hashing of the User ID again.
pub fn with_huge_forged_user_id(cert: &Cert) -> Cert {
    let mut c = cert.clone();
    let pk = cert.primary.public();
    let mut value = b"Huge <huge@example.org> ".to_vec();
    value.resize((1 << 20) - 64, b'x');
    let sigs = (0..300)
        .map(|i| forged(pk, SigType::Certification(0x13), Over::UserId(&value), CREATED + 1, &[distinct(i)]))
        .collect();
    c.user_ids.push(UserId { value, sigs });
    c
}

/// `n` fresh public keys of `ty`, made at [`CREATED`].
pub fn bare_keys(version: KeyVersion, ty: KeyType, n: usize) -> Vec<PublicKey> {
    (0..n).map(|_| PublicKey::new(version, CREATED, keypair(ty).expect("keypair").0).expect("key")).collect()
}

/// `cert` with `n` subkeys of the primary key's algorithm and no binding.
pub fn with_bare_subkeys(cert: &Cert, n: usize) -> Cert {
    let pk = cert.primary.public();
    let ty = match pk.alg() {
        PublicKeyAlg::EdDsaLegacy => KeyType::EdDsaLegacy,
        _ => KeyType::Ed25519,
    };
    let mut c = cert.clone();
    c.subkeys.extend(
        bare_keys(pk.version(), ty, n).into_iter().map(|k| Subkey { key: CertKey::Public(k), sigs: Vec::new() }),
    );
    c
}

/// A v4 RSA key of `bits` bits with public exponent `e`: a modulus of
/// random-looking odd octets, no secret (nobody could sign with it).
pub fn rsa_key(bits: usize, e: u64) -> PublicKey {
    let mut n: Vec<u8> = (0..bits / 8).map(|i| (i as u8).wrapping_mul(151).wrapping_add(17)).collect();
    n[0] |= 0x80;
    *n.last_mut().expect("octets") |= 1;
    let e = Mpi::new(&e.to_be_bytes());
    PublicKey::new(KeyVersion::V4, CREATED, PublicMaterial::Rsa { n: Mpi::new(&n), e }).expect("RSA key")
}

/// A certificate of `primary` (an RSA key nobody can sign with) with one
/// User ID, `n` forged certifications of it and `n` forged revocations.
pub fn rsa_flood(primary: &PublicKey, n: u32) -> Cert {
    let uid = b"Huge <huge@example.org>".to_vec();
    let mut packets = Vec::new();
    put(&mut packets, 6, primary.body());
    for i in 0..n {
        let sig = forged(primary, SigType::KeyRevocation, Over::Direct, CREATED + i, &[reason(2)]);
        put(&mut packets, 2, &sig.to_bytes());
    }
    put(&mut packets, 13, &uid);
    for i in 0..n {
        let sig = forged(primary, SigType::Certification(0x13), Over::UserId(&uid), CREATED + i, &[]);
        put(&mut packets, 2, &sig.to_bytes());
    }
    Cert::from_bytes(&packets).expect("the flood parses")
}

/// Appends a packet in the new format, its length in five octets.
pub fn put(out: &mut Vec<u8>, tag: u8, body: &[u8]) {
    out.extend_from_slice(&[0xc0 | tag, 0xff]);
    out.extend_from_slice(&(body.len() as u32).to_be_bytes());
    out.extend_from_slice(body);
}

/// A key (secret parts kept) with a signing subkey whose back-signature
/// expires at `CREATED + back_life` while its binding does not, and the
/// subkey's secret.
pub fn signing_subkey_with_expiring_backsig(back_life: u32) -> (Cert, SecretMaterial) {
    subkey_bound_with(Some(0x02), BackSig::Expiring(back_life))
}

/// The primary-key binding signature (back-signature) a subkey's binding
/// embeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackSig {
    /// None at all.
    Missing,
    /// One that does not expire.
    Lasting,
    /// One that expires this many seconds after [`CREATED`].
    Expiring(u32),
}

/// A key (secret parts kept) with an Ed25519 subkey (an algorithm that can
/// sign) bound with key flags `key_flags` (`None`: no Key Flags subpacket)
/// and the back-signature `back`, and the subkey's secret.
pub fn subkey_bound_with(key_flags: Option<u8>, back: BackSig) -> (Cert, SecretMaterial) {
    let mut key = victim_key(KeyProfile::Rfc9580);
    let primary = key.primary.public().clone();
    let primary_secret = key.primary.secret().expect("secret").secret().expect("unlocked").clone();
    let (sub_public, sub_secret) = keypair(KeyType::Ed25519).expect("keypair");
    let sub = PublicKey::new(KeyVersion::V6, CREATED, sub_public).expect("key");
    let mut binding = SignatureBuilder::new(SigType::SubkeyBinding, CREATED);
    if let Some(f) = key_flags {
        binding = binding.subpacket(Subpacket::new(SubpacketValue::KeyFlags(vec![f])));
    }
    if back != BackSig::Missing {
        let mut builder = SignatureBuilder::new(SigType::PrimaryKeyBinding, CREATED);
        if let BackSig::Expiring(life) = back {
            builder = builder.subpacket(Subpacket::new(SubpacketValue::SigExpiration(life)));
        }
        let back = builder.sign_primary_key_binding(&primary, &sub, &sub_secret).expect("back-signature");
        binding = binding.subpacket(Subpacket::new(SubpacketValue::EmbeddedSignature(back.to_bytes())));
    }
    let binding = binding.sign_subkey_binding(&primary, &primary_secret, &sub).expect("binding");
    key.subkeys.push(Subkey { key: CertKey::Public(sub), sigs: vec![binding] });
    (key, sub_secret)
}

/// `n` certificates (v6, Ed25519), public parts.
pub fn keyring(n: usize) -> Vec<Cert> {
    (0..n).map(|_| victim(KeyProfile::Rfc9580)).collect()
}

/// A binary signature over `data` by `key`'s primary key (its secret
/// present) that names no issuer: neither Issuer nor Issuer Fingerprint.
pub fn issuerless_signature(key: &Cert, data: &[u8], created: u32) -> Signature {
    signature_with(key, data, &[Subpacket::critical(SubpacketValue::CreationTime(created))])
}

/// A binary signature over `data` by `key`'s primary key (its secret
/// present) with exactly the hashed subpackets `hashed`.
pub fn signature_with(key: &Cert, data: &[u8], hashed: &[Subpacket]) -> Signature {
    let (public, secret) = (key.primary.public(), key.primary.secret().expect("secret").secret().expect("unlocked"));
    raw_sig(
        public.version().id(),
        SigType::Binary,
        public.alg(),
        hash_for(public),
        hashed,
        |f| {
            let mut h = DocumentHasher::new(f);
            h.update(data);
            h.finish(f)
        },
        |digest| tessera::openpgp::crypto::sign(secret, public.material(), hash_for(public), digest).expect("sign"),
    )
}
