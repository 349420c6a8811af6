//! `sop encrypt [--as] [--profile] [--with-password...] [--sign-with...]
//! [--with-key-password...] [CERTS...]`: one pass over stdin, to
//! certificates and/or passwords, signing inside the encryption when
//! `--sign-with` is given.

use std::io::{self, Read, Seek, Write};

use tessera::openpgp::key::{Cert, KeyError};
use tessera::openpgp::sig::{SigType, Signer};
use tessera::openpgp::{EncryptOptions, Encryptor, Error as PgpError, Profile, S2kChoice, SigningEncryptor};
use tessera_cli::signing::now;

use super::keys::{certs_from, key_passwords, secret_keys, signing_keys};
use super::{
    CERT_CANNOT_ENCRYPT, Fail, MISSING_ARG, R, UNSUPPORTED_ASYMMETRIC_ALGO, UNSUPPORTED_OPTION, Utf8Only, fail, flush,
    io_fail, new_password, parse, pgp_fail, profile_name, refs, stdout, text_fail,
};

/// The profiles of `encrypt`, the default first.
pub const PROFILES: [(&str, &str); 2] = [
    ("rfc9580", "SEIPD v2 (AEAD) when every certificate announces it, v6 PKESK/SKESK, Argon2; the default"),
    ("rfc4880", "SEIPD v1 (CFB + MDC), v3 PKESK, v4 SKESK with iterated S2K, for GnuPG 2.2 and older peers"),
];

/// A certificate that cannot be encrypted to is 17 (a key under 2048 bits
/// too), one whose algorithm is not supported 13; anything else as usual.
fn encrypt_fail(e: PgpError) -> Fail {
    match e {
        PgpError::Key(
            KeyError::NoEncryptionKey { .. }
            | KeyError::Expired { .. }
            | KeyError::Revoked { .. }
            | KeyError::NoValidSelfSignature { .. },
        )
        | PgpError::KeyTooSmall { .. } => Fail(CERT_CANNOT_ENCRYPT, e.to_string()),
        PgpError::UnsupportedPublicKeyAlg(_) | PgpError::UnsupportedCurve => {
            Fail(UNSUPPORTED_ASYMMETRIC_ALGO, e.to_string())
        }
        e => pgp_fail(e),
    }
}

pub fn encrypt(rest: &[String]) -> R<()> {
    let o = parse(rest, &["with-password", "profile", "as", "with-key-password", "sign-with"], &["no-armor"])?;
    let mut passwords = Vec::new();
    for spec in o.values("with-password") {
        passwords.push(new_password("--with-password", spec)?);
    }
    let mut recipients: Vec<Cert> = Vec::new();
    for spec in &o.positional {
        recipients.extend(certs_from(spec)?);
    }
    if passwords.is_empty() && recipients.is_empty() {
        return fail(MISSING_ARG, "encrypt needs CERTS or --with-password");
    }
    // The names in PROFILES are the library's (`Profile::NAMES`).
    let profile: Profile = profile_name(&o, &PROFILES)?.parse().map_err(pgp_fail)?;
    let text = match o.value("as").unwrap_or("binary") {
        "binary" => false,
        "text" => true,
        a => return fail(UNSUPPORTED_OPTION, format!("--as={a}")),
    };
    let sign_with: Vec<String> = o.values("sign-with").into_iter().map(String::from).collect();
    let key_pws = key_passwords(&o)?;
    let signers = secret_keys(&sign_with, &refs(&key_pws))?;
    let signing = signing_keys(&signers, &recipients)?;
    let opts = EncryptOptions {
        armor: !o.has("no-armor"),
        recipients,
        // A command-line tool: chunks on every core, as `tessera encrypt`.
        threads: 0,
        ..EncryptOptions::for_profile(profile, None, S2kChoice::DEFAULT_COUNT_OCTET).map_err(pgp_fail)?
    };
    let stdin = io::stdin().lock();
    let input: Box<dyn Read> = if text { Box::new(Utf8Only::new(stdin)) } else { Box::new(stdin) };
    let signer = if signing.is_empty() {
        None
    } else {
        let ty = if text { SigType::Text } else { SigType::Binary };
        Some(Signer::new(&signing, ty, now() as u32).map_err(pgp_fail)?)
    };
    let mut out = stdout();
    if text {
        // The input is checked as it is read: a failure (53) after the
        // first 64 KiB must not leave on stdout a message that only lacks
        // its end. The ciphertext waits in a temporary file until then.
        let mut spool = io::BufWriter::new(tempfile::tempfile().map_err(io_fail)?);
        encrypt_to(&mut spool, input, &refs(&passwords), &opts, signer)?;
        let mut spool = spool.into_inner().map_err(|e| io_fail(e.into_error()))?;
        spool.rewind().map_err(io_fail)?;
        io::copy(&mut spool, &mut out).map_err(io_fail)?;
        return flush(out);
    }
    match encrypt_to(&mut out, input, &refs(&passwords), &opts, signer) {
        Ok(()) => flush(out),
        Err(e) => {
            // What is still buffered (all of it, for a short input) is
            // dropped rather than written: the message is incomplete.
            drop(out.into_parts());
            Err(e)
        }
    }
}

fn encrypt_to(
    out: &mut dyn Write,
    mut input: Box<dyn Read>,
    pw: &[&[u8]],
    opts: &EncryptOptions,
    signer: Option<Signer<'_>>,
) -> R<()> {
    match signer {
        None => {
            let mut enc = Encryptor::new(out, pw, opts).map_err(encrypt_fail)?;
            io::copy(&mut input, &mut enc).map_err(text_fail)?;
            enc.finish().map_err(pgp_fail)?;
        }
        Some(signer) => {
            let mut enc = SigningEncryptor::new(out, pw, opts, signer).map_err(encrypt_fail)?;
            io::copy(&mut input, &mut enc).map_err(text_fail)?;
            enc.finish().map_err(pgp_fail)?;
        }
    }
    Ok(())
}
