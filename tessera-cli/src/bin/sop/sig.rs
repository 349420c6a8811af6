//! SOP's signing subcommands: `sign`, `verify`, `inline-sign`,
//! `inline-verify`, `inline-detach`, with SOP's VERIFICATIONS lines and
//! exit codes (3 no valid signature, 41 bad data, 67 key is protected,
//! 79 key cannot sign, 53 expected text).

use std::io::{self, BufRead, BufReader, Read, Write};

use tessera::fs::{IO_BUFFER, Spool};
use tessera::openpgp::Error as PgpError;
use tessera::openpgp::armor::{ArmorWriter, MESSAGE};
use tessera::openpgp::sig::{
    ClearSigner, InlineSigner, InlineVerifier, Outcome, SigResult, SigType, Signer, Verifier, is_cleartext,
    read_cleartext, read_signatures, write_signatures,
};
use tessera_cli::signing::{now, timestamp};

use super::keys::{all_certs, key_passwords, secret_keys, signing_keys};
use super::{
    BAD_DATA, Fail, INCOMPATIBLE_OPTIONS, MISSING_ARG, NO_SIGNATURE, Opts, R, UNSUPPORTED_OPTION, Utf8Only, fail,
    io_fail, parse, pgp_fail, read_indirect, refs, text_fail,
};

/// The KEYS arguments (at least one), unlocked.
fn keys_from(o: &Opts) -> R<Vec<tessera::openpgp::key::Cert>> {
    if o.positional.is_empty() {
        return fail(MISSING_ARG, "give at least one secret key");
    }
    secret_keys(&o.positional, &refs(&key_passwords(o)?))
}

/// Stdin, checked to be UTF-8 for text signatures.
fn data_input(ty: SigType) -> Box<dyn Read> {
    let stdin = io::stdin().lock();
    if ty == SigType::Text { Box::new(Utf8Only::new(stdin)) } else { Box::new(stdin) }
}

fn sig_type(o: &Opts, allow_clear: bool) -> R<(SigType, bool)> {
    match o.value("as").unwrap_or("binary") {
        "binary" => Ok((SigType::Binary, false)),
        "text" => Ok((SigType::Text, false)),
        "clearsigned" if allow_clear => Ok((SigType::Text, true)),
        other => fail(UNSUPPORTED_OPTION, format!("--as={other}")),
    }
}

/// `sop sign`: detached signatures of stdin.
pub fn sign(rest: &[String]) -> R<()> {
    let o = parse(rest, &["as", "with-key-password", "micalg-out"], &["no-armor"])?;
    let (ty, _) = sig_type(&o, false)?;
    let micalg = o.value("micalg-out").map(|s| super::check_new_out("--micalg-out", s)).transpose()?;
    let keys = keys_from(&o)?;
    let sk = signing_keys(&keys, &[])?;
    let mut signer = Signer::new(&sk, ty, now() as u32).map_err(pgp_fail)?;
    io::copy(&mut data_input(ty), &mut signer).map_err(text_fail)?;
    let sigs = signer.finish().map_err(pgp_fail)?;
    if let Some(path) = micalg {
        let name = format!("pgp-{}", sigs[0].hash_alg().name().to_lowercase());
        super::write_new_file(path, name.as_bytes())?;
    }
    let mut stdout = io::stdout().lock();
    write_signatures(&mut stdout, &sigs, !o.has("no-armor")).map_err(pgp_fail)?;
    stdout.flush().map_err(io_fail)
}

/// `sop inline-sign`: a signed message (binary, text or cleartext).
pub fn inline_sign(rest: &[String]) -> R<()> {
    let o = parse(rest, &["as", "with-key-password"], &["no-armor"])?;
    let (ty, clear) = sig_type(&o, true)?;
    if clear && o.has("no-armor") {
        return fail(INCOMPATIBLE_OPTIONS, "--as=clearsigned cannot be combined with --no-armor");
    }
    let keys = keys_from(&o)?;
    let sk = signing_keys(&keys, &[])?;
    let signer = Signer::new(&sk, ty, now() as u32).map_err(pgp_fail)?;
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    let mut input = data_input(ty);
    if clear {
        let mut w = ClearSigner::new(&mut stdout, signer).map_err(pgp_fail)?;
        io::copy(&mut input, &mut w).map_err(text_fail)?;
        w.finish().map_err(pgp_fail)?;
    } else if o.has("no-armor") {
        let mut w = InlineSigner::new(&mut stdout, signer).map_err(pgp_fail)?;
        io::copy(&mut input, &mut w).map_err(text_fail)?;
        w.finish().map_err(pgp_fail)?;
    } else {
        let armor = ArmorWriter::new(&mut stdout, MESSAGE, signer.armor_crc()).map_err(io_fail)?;
        let mut w = InlineSigner::new(armor, signer).map_err(pgp_fail)?;
        io::copy(&mut input, &mut w).map_err(text_fail)?;
        w.finish().map_err(pgp_fail)?.finish().map_err(io_fail)?;
    }
    stdout.flush().map_err(io_fail)
}

/// Days since 1970-01-01 of a civil date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A SOP DATE: `-` (no limit), `now`, or ISO 8601 `YYYY-MM-DD[THH:MM:SS[Z]]`.
pub fn parse_date(s: &str, none: u64) -> R<u64> {
    match s {
        "-" => return Ok(none),
        "now" => return Ok(now()),
        _ => {}
    }
    let bad = || Fail(UNSUPPORTED_OPTION, format!("cannot read the date {s}"));
    let num = |a: usize, b: usize| s.get(a..b).and_then(|x| x.parse::<i64>().ok()).ok_or_else(bad);
    let days = days_from_civil(num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let secs = if s.len() >= 19 { num(11, 13)? * 3600 + num(14, 16)? * 60 + num(17, 19)? } else { 0 };
    u64::try_from(days * 86_400 + secs).map_err(|_| bad())
}

/// The window of signature times that count: `before` and `after` are
/// the option names (`not-before`, or `verify-not-before` for decrypt).
pub fn window(o: &Opts, before: &str, after: &str) -> R<(u64, u64)> {
    Ok((parse_date(o.value(before).unwrap_or("-"), 0)?, parse_date(o.value(after).unwrap_or("now"), u64::MAX)?))
}

/// SOP VERIFICATIONS lines, one per good signature made inside `window`:
/// `TIME SIGNING-KEY-FPR PRIMARY-KEY-FPR mode:MODE`.
pub fn verification_lines(results: &[SigResult], (not_before, not_after): (u64, u64)) -> R<Vec<u8>> {
    let mut out = Vec::new();
    for r in results {
        let (Outcome::Good { cert, key, .. }, Some(sig)) = (&r.outcome, &r.signature) else { continue };
        let created = u64::from(sig.created().unwrap_or(0));
        if created < not_before || created > not_after {
            continue;
        }
        let mode = if sig.sig_type() == SigType::Text { "text" } else { "binary" };
        writeln!(out, "{} {key} {cert} mode:{mode}", timestamp(created)).map_err(io_fail)?;
    }
    Ok(out)
}

/// VERIFICATIONS of `verify` and `inline-verify`: exit 3 when none.
fn verifications(results: &[SigResult], o: &Opts) -> R<Vec<u8>> {
    let lines = verification_lines(results, window(o, "not-before", "not-after")?)?;
    if lines.is_empty() {
        let why: Vec<String> = results.iter().map(|r| format!("{:?}", r.outcome)).collect();
        return fail(NO_SIGNATURE, format!("no valid signature ({})", why.join("; ")));
    }
    Ok(lines)
}

/// `sop verify SIGNATURES CERTS...`: detached signatures over stdin.
pub fn verify(rest: &[String]) -> R<()> {
    let o = parse(rest, &["not-before", "not-after"], &[])?;
    let Some((sig_spec, cert_specs)) = o.positional.split_first() else {
        return fail(MISSING_ARG, "verify needs SIGNATURES and CERTS");
    };
    let raw = read_indirect("signatures", sig_spec)?;
    let sigs = read_signatures(raw.as_slice()).map_err(|e| Fail(BAD_DATA, e.to_string()))?;
    let certs = all_certs(cert_specs)?;
    let mut v = Verifier::new(sigs, &certs, now());
    io::copy(&mut io::stdin().lock(), &mut v).map_err(io_fail)?;
    let lines = verifications(&v.finish(), &o)?;
    let mut stdout = io::stdout().lock();
    stdout.write_all(&lines).map_err(io_fail)?;
    stdout.flush().map_err(io_fail)
}

/// `sop inline-verify CERTS...`: the data of a signed message (binary,
/// armored or cleartext), written only if a signature is good.
pub fn inline_verify(rest: &[String]) -> R<()> {
    let o = parse(rest, &["not-before", "not-after", "verifications-out"], &[])?;
    let certs = all_certs(&o.positional)?;
    // Checked now, written (0600, without replacing anything) only on success.
    let vout = o.value("verifications-out").map(|s| super::check_new_out("--verifications-out", s)).transpose()?;
    let mut input = BufReader::with_capacity(IO_BUFFER, io::stdin().lock());
    // Nothing reaches stdout before the signatures are checked.
    let mut spool = Spool::new().map_err(io_fail)?;
    let results = if is_cleartext(&mut input).map_err(pgp_fail)? {
        read_cleartext(input, &mut spool, &certs, now())
    } else {
        InlineVerifier::new(input, &certs, now()).and_then(|v| v.verify_to(&mut spool))
    }
    .map_err(|e| match e {
        PgpError::Malformed(_) | PgpError::Truncated(_) => Fail(BAD_DATA, e.to_string()),
        e => pgp_fail(e),
    })?;
    let lines = verifications(&results, &o)?;
    if let Some(path) = vout {
        super::write_new_file(path, &lines)?;
    }
    let mut stdout = io::stdout().lock();
    spool.release(&mut stdout).map_err(|e| io_fail(e.into_io()))?;
    stdout.flush().map_err(io_fail)
}

/// `sop inline-detach --signatures-out=SIGS`: the data to stdout, the
/// signatures to SIGS. The signatures are not checked.
pub fn inline_detach(rest: &[String]) -> R<()> {
    let o = parse(rest, &["signatures-out"], &["no-armor"])?;
    let spec = o.value("signatures-out").ok_or(Fail(MISSING_ARG, "inline-detach needs --signatures-out".into()))?;
    let path = super::check_new_out("--signatures-out", spec)?;
    let mut input = BufReader::with_capacity(IO_BUFFER, io::stdin().lock());
    let mut stdout = io::stdout().lock();
    let results = if is_cleartext(&mut input).map_err(pgp_fail)? {
        read_cleartext(input, &mut stdout, &[], now())
    } else {
        let input: Box<dyn BufRead> = Box::new(input);
        InlineVerifier::new(input, &[], now()).and_then(|v| v.verify_to(&mut stdout))
    }
    .map_err(|e| Fail(BAD_DATA, e.to_string()))?;
    let sigs: Vec<_> = results.into_iter().filter_map(|r| r.signature).collect();
    if sigs.is_empty() {
        return fail(BAD_DATA, "the message holds no signature");
    }
    let encoded = write_signatures(Vec::new(), &sigs, !o.has("no-armor")).map_err(pgp_fail)?;
    super::write_new_file(path, &encoded)?;
    stdout.flush().map_err(io_fail)
}
