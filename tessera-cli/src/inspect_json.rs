//! `tessera inspect --json`: the same report as JSON, for scripts. Times
//! are ISO 8601 UTC strings; text from packets is escaped as in the text
//! output (control characters and bidirectional overrides as `\u{..}`).

use serde_json::{Value, json};
use tessera::openpgp::inspect::{
    Detail, Framing, KeyFacts, KeyHandle, KeyInfo, Packet, Protection, Report, S2kInfo, Summary, compression_name,
    escape, key_flag_names, pk_alg_name, sig_type_name, subpacket_name, tag_name,
};
use tessera::openpgp::sig::{OpsIssuer, Signature};
use tessera_cli::signing::timestamp;

/// The report of `name` as one JSON value.
pub fn report(name: &str, r: &Report) -> Value {
    json!({
        "file": name,
        "armor": r.armor.as_ref().map(|k| escape(k.as_bytes())),
        "cleartext": r.cleartext.as_ref().map(|c| json!({
            "hashes": c.hashes.iter().map(|h| h.name()).collect::<Vec<_>>(),
            "lines": c.lines,
        })),
        "packets": r.packets.iter().map(packet).collect::<Vec<_>>(),
        "summary": summary(&r.summary),
    })
}

fn time(t: u64) -> Value {
    Value::String(timestamp(t))
}

fn handle(h: &KeyHandle) -> Value {
    match h {
        KeyHandle::KeyId(id) => json!({ "key_id": id.to_string() }),
        KeyHandle::Fingerprint(fp) => json!({ "fingerprint": fp.to_hex() }),
    }
}

fn s2k(s: &S2kInfo) -> Value {
    match s {
        S2kInfo::Simple(h) => json!({ "type": "simple", "hash": h.name() }),
        S2kInfo::Salted(h) => json!({ "type": "salted", "hash": h.name() }),
        S2kInfo::Iterated { hash, octets } => json!({ "type": "iterated", "hash": hash.name(), "octets": octets }),
        S2kInfo::Argon2 { t, p, m } => json!({ "type": "argon2id", "t": t, "p": p, "m": m }),
    }
}

fn packet(p: &Packet) -> Value {
    let framing = match p.framing {
        Framing::Fixed => "fixed",
        Framing::Partial => "partial",
        Framing::Indeterminate => "indeterminate",
    };
    let mut v = json!({
        "tag": p.tag,
        "name": tag_name(p.tag),
        "header": if p.new_format { "new" } else { "legacy" },
        "framing": framing,
        "body_len": p.body_len,
        "depth": p.depth,
    });
    if let (Value::Object(o), Value::Object(fields)) = (&mut v, detail(&p.detail)) {
        o.extend(fields);
    }
    v
}

fn detail(d: &Detail) -> Value {
    match d {
        Detail::Pkesk(k) => json!({
            "version": k.version, "algorithm": pk_alg_name(k.alg), "recipient": k.recipient.as_ref().map(handle),
        }),
        Detail::Skesk(k) => json!({
            "version": k.version, "cipher": k.cipher.name(), "aead": k.aead.map(|m| m.name()), "s2k": s2k(&k.s2k),
        }),
        Detail::Seipd(s) => json!({
            "version": s.version,
            "cipher": s.v2.map(|(c, _, _)| c.name()),
            "aead": s.v2.map(|(_, m, _)| m.name()),
            "chunk_size": s.v2.map(|(_, _, n)| n),
            "encrypted_len": s.encrypted_len,
        }),
        Detail::Compressed(alg) => json!({ "algorithm": compression_name(*alg) }),
        Detail::OnePassSig(o) => json!({
            "version": o.version,
            "type": sig_type_name(o.sig_type),
            "algorithm": pk_alg_name(o.pk_alg),
            "hash": o.hash_alg.name(),
            "issuer": match &o.issuer {
                OpsIssuer::KeyId(id) => json!({ "key_id": id.to_string() }),
                OpsIssuer::Fingerprint(fp) => json!({ "fingerprint": fp.to_hex() }),
            },
            "last": o.last,
        }),
        Detail::Signature(s) => signature(s),
        Detail::Literal { format, file_name, date, data_len } => json!({
            "format": escape(&[*format]),
            "file_name": escape(file_name),
            "date": (*date != 0).then(|| time(u64::from(*date))),
            "data_len": data_len,
        }),
        Detail::Key(k) => key(k),
        Detail::UserId(u) => json!({ "user_id": escape(u) }),
        Detail::Unreadable(e) => json!({ "unreadable": e.to_string() }),
        Detail::Unknown => json!({ "unknown": true }),
        _ => json!({}),
    }
}

fn signature(s: &Signature) -> Value {
    let subpackets = |subs: &[tessera::openpgp::sig::Subpacket]| {
        subs.iter().map(|p| json!({ "name": subpacket_name(p.kind()), "critical": p.critical })).collect::<Vec<_>>()
    };
    let created = s.created();
    let expires = created.zip(s.sig_expiration().filter(|&e| e != 0)).map(|(c, e)| time(u64::from(c) + u64::from(e)));
    json!({
        "version": s.version(),
        "type": sig_type_name(s.sig_type()),
        "algorithm": pk_alg_name(s.pk_alg()),
        "hash": s.hash_alg().name(),
        "created": created.map(|c| time(c.into())),
        "expires": expires,
        "issuer_fingerprints": s.issuer_fingerprints().map(|f| f.to_hex()).collect::<Vec<_>>(),
        "issuer_key_ids": s.issuer_key_ids().map(|id| id.to_string()).collect::<Vec<_>>(),
        "key_flags": s.key_flags().map(key_flag_names),
        "key_expires_after_seconds": s.key_expiration().filter(|&e| e != 0),
        "hashed_subpackets": subpackets(s.hashed()),
        "unhashed_subpackets": subpackets(s.unhashed()),
    })
}

fn key(k: &KeyInfo) -> Value {
    let p = &k.public;
    let protection = k.secret.map(|s| match s {
        Protection::Unprotected => json!({ "locked": false }),
        Protection::Password { usage, cipher, aead, s2k: s } => json!({
            "locked": true, "s2k_usage": usage, "cipher": cipher.name(), "aead": aead.map(|m| m.name()), "s2k": s2k(&s),
        }),
    });
    json!({
        "version": p.version().id(),
        "subkey": k.subkey,
        "algorithm": pk_alg_name(p.alg()),
        "curve": p.material().curve().map(|c| c.name()),
        "bits": p.material().bits(),
        "created": time(p.created().into()),
        "fingerprint": p.fingerprint().to_hex(),
        "key_id": p.key_id().to_string(),
        "secret": protection,
    })
}

fn facts(k: &KeyFacts) -> Value {
    json!({
        "fingerprint": k.fingerprint.to_hex(),
        "algorithm": pk_alg_name(k.alg),
        "bits": k.bits,
        "created": time(k.created.into()),
        "expires": k.expires.map(time),
        "key_flags": k.flags.map(key_flag_names),
    })
}

fn summary(s: &Summary) -> Value {
    let handles = |hs: &[KeyHandle]| hs.iter().map(handle).collect::<Vec<_>>();
    match s {
        Summary::Certificates(keys) | Summary::SecretKeys(keys) => json!({
            "kind": if matches!(s, Summary::SecretKeys(_)) { "secret keys" } else { "certificates" },
            "keys": keys.iter().map(|k| json!({
                "primary": facts(&k.primary),
                "user_ids": k.user_ids.iter().map(|u| escape(u)).collect::<Vec<_>>(),
                "subkeys": k.subkeys.iter().map(facts).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        }),
        Summary::EncryptedMessage { recipients, passwords } => json!({
            "kind": "encrypted message",
            "recipients": recipients.iter().map(|r| r.as_ref().map(handle)).collect::<Vec<_>>(),
            "passwords": passwords,
        }),
        Summary::SignedMessage { signers } => json!({ "kind": "signed message", "signers": handles(signers) }),
        Summary::LiteralMessage => json!({ "kind": "literal message" }),
        Summary::DetachedSignatures { signers } => {
            json!({ "kind": "detached signatures", "signers": handles(signers) })
        }
        Summary::CleartextSigned { signers } => json!({ "kind": "cleartext signed", "signers": handles(signers) }),
        _ => json!({ "kind": "other" }),
    }
}
