//! `sop decrypt [--with-password...] [--with-session-key...]
//! [--with-key-password...] [--session-key-out] [--verify-with...
//! --verifications-out] [--verify-not-before] [--verify-not-after]
//! [KEYS...]`: one pass over stdin, with every key, password and session
//! key given to the decryptor at once.

use std::io::{self, BufReader, Read, Write};

use tessera::fs::{CopyError, IO_BUFFER, Spool, copy};
use tessera::openpgp::key::Cert;
use tessera::openpgp::{
    DecryptOptions, Decryptor, Error as PgpError, LiteralInfo, SeipdVersion, SessionKey, SymAlg, VerifyingDecryptor,
};
use tessera_cli::signing::now;
use zeroize::Zeroizing;

use super::keys::{all_certs, key_passwords, read_secret_keys, unlock};
use super::sig::{verification_lines, window};
use super::{
    BAD_DATA, CANNOT_DECRYPT, Fail, INCOMPLETE_VERIFICATION, MISSING_ARG, NewOut, Opts, R, check_new_out, fail, flush,
    given_passwords, io_fail, parse, pgp_fail, read_indirect, refs, stdout, write_new_file,
};

/// What to check and report besides the plaintext.
struct Reports {
    session_key_out: Option<NewOut>,
    /// Certificates, the VERIFICATIONS file and the time window.
    verify: Option<(Vec<Cert>, NewOut, (u64, u64))>,
}

/// The decryption options, and why a key that could not be unlocked was
/// left out (reported, as 67, only if nothing else opens the message).
fn options(o: &Opts) -> R<(DecryptOptions, Option<Fail>)> {
    let mut session_keys = Vec::new();
    for spec in o.values("with-session-key") {
        session_keys.push(parse_session_key(&read_indirect("--with-session-key", spec)?)?);
    }
    let key_pws = key_passwords(o)?;
    let mut keys = Vec::new();
    let mut locked = None;
    for mut k in read_secret_keys(&o.positional)? {
        match unlock(&mut k, &refs(&key_pws)) {
            Ok(()) => keys.push(k),
            Err(e) => locked = locked.or(Some(e)),
        }
    }
    let opts = DecryptOptions {
        session_keys,
        keys,
        v1_stream_unauthenticated: true,
        max_decompressed_size: Some(DecryptOptions::TOOL_MAX_DECOMPRESSED_SIZE),
        // A command-line tool: chunks on every core, as `tessera decrypt`.
        threads: 0,
        ..DecryptOptions::default()
    };
    Ok((opts, locked))
}

fn reports(o: &Opts) -> R<Reports> {
    // SOP spells it --verifications-out (--verify-out in older drafts).
    let vout = o.value("verifications-out").or(o.value("verify-out"));
    let certs = o.values("verify-with");
    let verify = match (vout, certs.is_empty()) {
        (None, true) => None,
        (Some(_), true) => return fail(INCOMPLETE_VERIFICATION, "--verifications-out needs --verify-with"),
        (None, false) => return fail(INCOMPLETE_VERIFICATION, "--verify-with needs --verifications-out"),
        (Some(v), false) => {
            let certs: Vec<String> = certs.into_iter().map(String::from).collect();
            let path = check_new_out("--verifications-out", v)?;
            Some((all_certs(&certs)?, path, window(o, "verify-not-before", "verify-not-after")?))
        }
    };
    let session_key_out = o.value("session-key-out").map(|s| check_new_out("--session-key-out", s)).transpose()?;
    Ok(Reports { session_key_out, verify })
}

pub fn decrypt(rest: &[String]) -> R<()> {
    let o = parse(
        rest,
        &[
            "with-password",
            "with-session-key",
            "session-key-out",
            "verify-with",
            "verifications-out",
            "verify-out",
            "with-key-password",
            "verify-not-before",
            "verify-not-after",
        ],
        &[],
    )?;
    let reports = reports(&o)?;
    let passwords = given_passwords(&o, "with-password")?;
    let (opts, mut locked) = options(&o)?;
    if passwords.is_empty() && opts.session_keys.is_empty() && opts.keys.is_empty() {
        return Err(
            locked.unwrap_or(Fail(MISSING_ARG, "decrypt needs KEYS, --with-password or --with-session-key".into()))
        );
    }
    // Nothing opened the message: a locked key may have been the one.
    let mut open_fail = |e| match pgp_fail(e) {
        Fail(CANNOT_DECRYPT, msg) => locked.take().unwrap_or(Fail(CANNOT_DECRYPT, msg)),
        f => f,
    };
    let pw = refs(&passwords);
    let input = BufReader::with_capacity(IO_BUFFER, io::stdin().lock());
    let mut out = stdout();
    let (session_key, verifications) = match reports.verify {
        None => {
            let mut dec = Decryptor::with_options(input, &pw, &opts).map_err(&mut open_fail)?;
            let (version, text) = (dec.seipd_version(), is_text(dec.literal()));
            write_plaintext(&mut dec, version, text, &mut out)?;
            (dec.session_key().clone(), None)
        }
        Some((certs, path, window)) => {
            let mut dec = VerifyingDecryptor::new(input, &pw, &opts, &certs, now()).map_err(&mut open_fail)?;
            let (version, text) = (dec.seipd_version(), is_text(dec.literal()));
            write_plaintext(&mut dec, version, text, &mut out)?;
            let sk = dec.session_key().clone();
            // The exit code does not depend on the signatures: an empty
            // VERIFICATIONS says none was good.
            let results = dec.finish_results().map_err(pgp_fail)?;
            (sk, Some((path, verification_lines(&results, window)?)))
        }
    };
    if let Some((path, lines)) = verifications {
        write_new_file(path, &lines)?;
    }
    if let Some(path) = reports.session_key_out {
        let alg = session_key.alg.map_or(0, SymAlg::id);
        let hex = Zeroizing::new(tessera::hex::encode_key(&session_key.key).to_ascii_uppercase());
        let line = Zeroizing::new(format!("{alg}:{}\n", *hex));
        write_new_file(path, line.as_bytes())?;
    }
    flush(out)
}

/// Text literal data (`t`, `u`) is stored with CR LF line endings (RFC
/// 9580 §5.9: "converted to native line endings by the receiving
/// implementation"), so that `encrypt --as=text` gives back what was
/// given, as GnuPG does.
fn is_text(info: &LiteralInfo) -> bool {
    matches!(info.format, b't' | b'u')
}

/// Writes the plaintext (v2: chunk by chunk as they verify; v1: only once
/// the MDC verified, held in a temporary file until then), text with its
/// line endings made LF.
fn write_plaintext(dec: &mut dyn Read, version: SeipdVersion, text: bool, out: &mut super::Stdout) -> R<()> {
    let mut out = LfLines { inner: out, text, cr: false, scratch: Vec::new() };
    let copied = if version == SeipdVersion::V1 { Spool::copy(dec, &mut out) } else { copy(dec, &mut out) };
    copied.map_err(|e| match e {
        CopyError::Read(e) => pgp_fail(PgpError::from_io(e)),
        CopyError::Write(e) | CopyError::Spool(e) => io_fail(e),
    })?;
    out.finish().map_err(io_fail)
}

/// Writes text with every CR LF made LF (a CR not followed by LF stays),
/// across any split of the input; anything else as it is.
struct LfLines<'a> {
    inner: &'a mut super::Stdout,
    text: bool,
    /// The last octet given was a CR, held back.
    cr: bool,
    scratch: Vec<u8>,
}

impl LfLines<'_> {
    /// Writes a CR still held back.
    fn finish(self) -> io::Result<()> {
        if self.cr { self.inner.write_all(b"\r") } else { Ok(()) }
    }
}

impl Write for LfLines<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.text {
            return self.inner.write(buf);
        }
        self.scratch.clear();
        for &b in buf {
            if self.cr && b != b'\n' {
                self.scratch.push(b'\r');
            }
            self.cr = b == b'\r';
            if !self.cr {
                self.scratch.push(b);
            }
        }
        self.inner.write_all(&self.scratch)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// SOP session key: `ALGO:HEX` (decimal algorithm id).
fn parse_session_key(raw: &[u8]) -> R<SessionKey> {
    let text = std::str::from_utf8(raw).map_err(|_| Fail(BAD_DATA, "session key is not text".into()))?.trim();
    let (alg, hexs) = text.split_once(':').ok_or(Fail(BAD_DATA, "session key must be ALGO:HEX".into()))?;
    let alg: u8 = alg.parse().map_err(|_| Fail(BAD_DATA, "session key algorithm must be a number".into()))?;
    let key =
        Zeroizing::new(tessera::hex::decode(hexs).map_err(|_| Fail(BAD_DATA, "session key must be ALGO:HEX".into()))?);
    let alg =
        if alg == 0 { None } else { Some(SymAlg::from_id(alg).map_err(|e| Fail(CANNOT_DECRYPT, e.to_string()))?) };
    if alg.is_some_and(|a| a.key_len() != key.len()) {
        return fail(BAD_DATA, "session key length does not match its algorithm");
    }
    Ok(SessionKey { alg, key })
}
