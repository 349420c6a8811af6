//! `tessera inspect [FILE|-]`: the packets of OpenPGP data and what it is,
//! as the library reports them (never a secret, never message content);
//! times in ISO 8601 UTC, text from packets escaped for the terminal.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use tessera::openpgp::crypto::PublicKeyAlg;
use tessera::openpgp::inspect::{
    Detail, Framing, KeyFacts, KeyHandle, KeyInfo, KeySummary, Limits, Packet, Protection, S2kInfo, Summary,
    compression_name, escape, inspect, key_flag_names, pk_alg_name, sig_type_name, subpacket_name, tag_name,
};
use tessera::openpgp::key::PublicKey;
use tessera::openpgp::sig::{OnePassSig, OpsIssuer, Signature, SubpacketValue};
use tessera_cli::io::{file_path, open_input};
use tessera_cli::signing::timestamp;

#[derive(Args, Debug)]
pub struct InspectArgs {
    /// The file to look into (binary, armored or cleartext-signed; `-` or nothing: stdin).
    pub file: Option<PathBuf>,
    /// Print the report as one JSON object (times as ISO 8601 UTC strings).
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &InspectArgs) -> Result<()> {
    let name = file_path(a.file.as_deref()).map_or("stdin".into(), |p| p.display().to_string());
    let input = open_input(a.file.as_deref())?;
    let report = inspect(input, &Limits::default()).with_context(|| format!("{name} is not readable OpenPGP data"))?;
    let mut w = std::io::stdout().lock();
    if a.json {
        writeln!(w, "{:#}", crate::inspect_json::report(&name, &report))?;
        return Ok(());
    }
    match &report.armor {
        Some(kind) => writeln!(w, "{name}: armored ({})", escape(kind.as_bytes()))?,
        None => writeln!(w, "{name}: binary")?,
    }
    if let Some(c) = &report.cleartext {
        let hashes: Vec<&str> = c.hashes.iter().map(|h| h.name()).collect();
        let hash = if hashes.is_empty() { String::new() } else { format!(", Hash: {}", hashes.join(", ")) };
        writeln!(w, "Cleartext signed text: {} lines{hash}", c.lines)?;
    }
    for p in &report.packets {
        packet(&mut w, p)?;
    }
    writeln!(w)?;
    summary(&mut w, &report.summary)?;
    Ok(())
}

fn handle(h: &KeyHandle) -> String {
    match h {
        KeyHandle::KeyId(id) => format!("key ID {id}"),
        KeyHandle::Fingerprint(fp) => format!("fingerprint {fp}"),
    }
}

fn packet(w: &mut impl Write, p: &Packet) -> std::io::Result<()> {
    let pad = "  ".repeat(p.depth);
    let header = if p.new_format { "new header" } else { "legacy header" };
    let framing = match p.framing {
        Framing::Fixed => "",
        Framing::Partial => ", partial lengths",
        Framing::Indeterminate => ", indeterminate length",
    };
    let len = p.body_len.map(|n| format!(", {n} octets")).unwrap_or_default();
    writeln!(w, "{pad}{} (tag {}), {header}{framing}{len}", tag_name(p.tag), p.tag)?;
    let pad = format!("{pad}    ");
    for line in detail(&p.detail) {
        writeln!(w, "{pad}{line}")?;
    }
    Ok(())
}

fn s2k(s: &S2kInfo) -> String {
    match s {
        S2kInfo::Simple(h) => format!("S2K simple, {}", h.name()),
        S2kInfo::Salted(h) => format!("S2K salted, {}", h.name()),
        S2kInfo::Iterated { hash, octets } => format!("S2K iterated and salted, {}, {octets} octets", hash.name()),
        S2kInfo::Argon2 { t, p, m } => format!("S2K Argon2id, t={t}, p={p}, m=2^{m} KiB"),
    }
}

fn detail(d: &Detail) -> Vec<String> {
    match d {
        Detail::Pkesk(k) => {
            let to = k.recipient.as_ref().map_or("anonymous recipient".into(), handle);
            vec![format!("version {}, {}, to {to}", k.version, pk_alg_name(k.alg))]
        }
        Detail::Skesk(k) => {
            let aead = k.aead.map(|m| format!(", {}", m.name())).unwrap_or_default();
            vec![format!("version {}, {}{aead}", k.version, k.cipher.name()), s2k(&k.s2k)]
        }
        Detail::Seipd(s) => {
            let mut v = vec![format!("version {}", s.version)];
            if let Some((cipher, aead, chunk)) = s.v2 {
                v[0] += &format!(", {}, {}, chunk size {chunk} octets", cipher.name(), aead.name());
            }
            v.push(format!("{} octets encrypted (not decrypted)", s.encrypted_len));
            v
        }
        Detail::Sed => vec!["no integrity protection (not decrypted)".into()],
        Detail::Compressed(alg) => vec![format!("algorithm {}", compression_name(*alg))],
        Detail::OnePassSig(o) => vec![one_pass(o)],
        Detail::Signature(s) => signature(s),
        Detail::Literal { format, file_name, date, data_len } => {
            let date = if *date == 0 { "none".into() } else { timestamp(u64::from(*date)) };
            vec![
                format!("format {}, file name \"{}\", date {date}", escape(&[*format]), escape(file_name)),
                format!("{data_len} octets of data (not shown)"),
            ]
        }
        Detail::Key(k) => key(k),
        Detail::UserId(u) => vec![format!("\"{}\"", escape(u))],
        Detail::Opaque => Vec::new(),
        Detail::Unknown => vec!["unknown packet type, skipped".into()],
        Detail::Unreadable(e) => vec![format!("not readable here: {e}")],
        _ => Vec::new(),
    }
}

fn one_pass(o: &OnePassSig) -> String {
    let by = match &o.issuer {
        OpsIssuer::KeyId(id) => format!("key ID {id}"),
        OpsIssuer::Fingerprint(fp) => format!("fingerprint {fp}"),
    };
    let last = if o.last { ", last" } else { "" };
    let (ty, alg) = (sig_type_name(o.sig_type), pk_alg_name(o.pk_alg));
    format!("version {}, {ty}, {alg}, {}, by {by}{last}", o.version, o.hash_alg.name())
}

fn signature(s: &Signature) -> Vec<String> {
    let (ty, alg) = (sig_type_name(s.sig_type()), pk_alg_name(s.pk_alg()));
    let mut v = vec![format!("version {}, {ty}, {alg}, {}", s.version(), s.hash_alg().name())];
    if let Some(c) = s.created() {
        let exp = s.sig_expiration().filter(|&e| e != 0);
        let exp = exp.map(|e| format!(", expires {}", timestamp(u64::from(c) + u64::from(e)))).unwrap_or_default();
        v.push(format!("created {}{exp}", timestamp(c.into())));
    }
    for p in s.hashed().iter().chain(s.unhashed()) {
        match &p.value {
            SubpacketValue::IssuerFingerprint(fp) => v.push(format!("issuer fingerprint {fp}")),
            SubpacketValue::Issuer(id) => v.push(format!("issuer key ID {id}")),
            SubpacketValue::IntendedRecipient(fp) => v.push(format!("intended recipient {fp}")),
            SubpacketValue::SignersUserId(u) => v.push(format!("signer's user ID \"{}\"", escape(u))),
            SubpacketValue::RevocationReason { code, text } => {
                v.push(format!("reason for revocation {code}: \"{}\"", escape(text)));
            }
            _ => {}
        }
    }
    if let Some(f) = s.key_flags() {
        v.push(format!("key flags: {}", flags(f)));
    }
    if let Some(e) = s.key_expiration().filter(|&e| e != 0) {
        v.push(format!("key validity period: {} from the key's creation", period(e)));
    }
    for (area, subs) in [("hashed", s.hashed()), ("unhashed", s.unhashed())] {
        let names: Vec<String> = subs
            .iter()
            .map(|p| format!("{}{}", subpacket_name(p.kind()), if p.critical { " (critical)" } else { "" }))
            .collect();
        if !names.is_empty() {
            v.push(format!("{area} subpackets: {}", names.join(", ")));
        }
    }
    v
}

/// A key expiration time (seconds after the key's creation) in words.
fn period(secs: u32) -> String {
    if secs.is_multiple_of(86_400) { format!("{} days", secs / 86_400) } else { format!("{secs} seconds") }
}

fn flags(f: u8) -> String {
    let names = key_flag_names(f);
    if names.is_empty() { "none".into() } else { names.join(", ") }
}

fn algorithm(k: &PublicKey) -> String {
    let m = k.material();
    match (m.curve(), k.alg()) {
        (Some(c), _) => format!("{} {}", pk_alg_name(k.alg()), c.name()),
        (None, PublicKeyAlg::Rsa | PublicKeyAlg::RsaEncryptOnly | PublicKeyAlg::RsaSignOnly) => {
            format!("{} {} bits", pk_alg_name(k.alg()), m.bits())
        }
        (None, alg) => pk_alg_name(alg).into(),
    }
}

fn key(k: &KeyInfo) -> Vec<String> {
    let p = &k.public;
    let mut v = vec![
        format!("version {}, {}, created {}", p.version().id(), algorithm(p), timestamp(p.created().into())),
        format!("fingerprint {}", p.fingerprint()),
        format!("key ID {}", p.key_id()),
    ];
    match &k.secret {
        None => {}
        Some(Protection::Unprotected) => v.push("secret fields: not protected by a password (not shown)".into()),
        Some(Protection::Password { usage, cipher, aead, s2k: s }) => {
            let aead = aead.map(|m| format!(", {}", m.name())).unwrap_or_default();
            v.push(format!("secret fields: locked (S2K usage {usage}, {}{aead}), not shown", cipher.name()));
            v.push(s2k(s));
        }
    }
    v
}

fn summary(w: &mut impl Write, s: &Summary) -> std::io::Result<()> {
    let handles = |hs: &[KeyHandle]| hs.iter().map(handle).collect::<Vec<_>>().join("; ");
    match s {
        Summary::Certificates(keys) | Summary::SecretKeys(keys) => {
            let what = if matches!(s, Summary::SecretKeys(_)) { "secret key" } else { "OpenPGP certificate" };
            for k in keys {
                key_summary(w, what, k)?;
            }
            Ok(())
        }
        Summary::EncryptedMessage { recipients, passwords } => {
            writeln!(w, "Encrypted message: {passwords} password(s), {} recipient(s)", recipients.len())?;
            for r in recipients {
                writeln!(w, "  to {}", r.as_ref().map_or("anonymous recipient".into(), handle))?;
            }
            Ok(())
        }
        Summary::SignedMessage { signers } => writeln!(w, "Signed message, signed by {}", handles(signers)),
        Summary::LiteralMessage => writeln!(w, "Unsigned, unencrypted message"),
        Summary::DetachedSignatures { signers } => writeln!(w, "Detached signature(s) by {}", handles(signers)),
        Summary::CleartextSigned { signers } => writeln!(w, "Cleartext signed text, signed by {}", handles(signers)),
        _ => writeln!(w, "OpenPGP packets (not a certificate, key, message or signature)"),
    }
}

fn key_summary(w: &mut impl Write, what: &str, k: &KeySummary) -> std::io::Result<()> {
    writeln!(w, "{what} {}", k.primary.fingerprint)?;
    facts(w, "primary key", &k.primary)?;
    for u in &k.user_ids {
        writeln!(w, "  user ID \"{}\"", escape(u))?;
    }
    for s in &k.subkeys {
        facts(w, &format!("subkey {}", s.fingerprint), s)?;
    }
    writeln!(w, "  (flags and expiry as the self-signatures say; not verified)")
}

fn facts(w: &mut impl Write, what: &str, k: &KeyFacts) -> std::io::Result<()> {
    let (alg, bits, created) = (pk_alg_name(k.alg), k.bits, timestamp(k.created.into()));
    writeln!(w, "  {what}: {alg} ({bits} bits), created {created}")?;
    let caps = k.flags.map_or("no key flags".into(), flags);
    let exp = k.expires.map_or("does not expire".into(), |e| format!("expires {}", timestamp(e)));
    writeln!(w, "    {caps}; {exp}")
}
