//! `tessera-sop`: the Stateless OpenPGP command-line interface
//! (draft-dkg-openpgp-stateless-cli), the subset that needs no keys:
//! `version`, `list-profiles`, `encrypt --with-password`, `decrypt
//! --with-password / --with-session-key / --session-key-out`, `armor`,
//! `dearmor`. Everything else exits with SOP's codes (69 unsupported
//! subcommand, 37 unsupported option, 19 missing argument, 29 cannot
//! decrypt, 41 bad data, ...).

#[path = "sop/sig.rs"]
mod sig;

use std::io::{self, BufReader, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tessera::openpgp::armor::{ArmorReader, ArmorWriter, MESSAGE, is_armored};
use tessera::openpgp::{
    DecryptOptions, Decryptor, EMPTY_PASSWORD, EncryptOptions, Encryptor, Error as PgpError, Profile, S2kChoice,
    SeipdVersion, SessionKey, SymAlg,
};
use tessera_cli::io::{self as shared, CopyError};
use zeroize::Zeroizing;

const MISSING_ARG: u8 = 19;
const CANNOT_DECRYPT: u8 = 29;
const PASSWORD_NOT_READABLE: u8 = 31;
const UNSUPPORTED_OPTION: u8 = 37;
const BAD_DATA: u8 = 41;
const UNSUPPORTED_SUBCOMMAND: u8 = 69;
const UNSUPPORTED_PROFILE: u8 = 89;
const OUTPUT_EXISTS: u8 = 59;
const MISSING_INPUT: u8 = 61;

struct Fail(u8, String);

type R<T> = Result<T, Fail>;

fn fail<T>(code: u8, msg: impl Into<String>) -> R<T> {
    Err(Fail(code, msg.into()))
}

const PROFILES: [(&str, &str); 2] = [
    ("rfc9580", "SKESK v6 + SEIPD v2 (AES-256-OCB, Argon2); the default"),
    ("rfc4880", "SKESK v4 + SEIPD v1 (AES-256-CFB + MDC, iterated S2K), for GnuPG 2.2 and older peers"),
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail(code, msg)) => {
            eprintln!("tessera-sop: {msg}");
            ExitCode::from(code)
        }
    }
}

/// Splits `--name=value` / `--name value` options from positional arguments.
struct Opts {
    flags: Vec<(String, Option<String>)>,
    positional: Vec<String>,
}

fn parse(args: &[String], with_value: &[&str], flags: &[&str]) -> R<Opts> {
    let mut o = Opts { flags: Vec::new(), positional: Vec::new() };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            o.positional.extend(args[i + 1..].iter().cloned());
            break;
        }
        if let Some(rest) = a.strip_prefix("--") {
            let (name, value) = match rest.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (rest.to_string(), None),
            };
            if with_value.contains(&name.as_str()) {
                let value = match value {
                    Some(v) => v,
                    None => {
                        i += 1;
                        args.get(i).cloned().ok_or(Fail(MISSING_ARG, format!("--{name} needs a value")))?
                    }
                };
                o.flags.push((name, Some(value)));
            } else if flags.contains(&name.as_str()) {
                o.flags.push((name, value));
            } else {
                return fail(UNSUPPORTED_OPTION, format!("unsupported option --{name}"));
            }
        } else {
            o.positional.push(a.clone());
        }
        i += 1;
    }
    Ok(o)
}

impl Opts {
    fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|(n, _)| n == name)
    }
    fn values(&self, name: &str) -> Vec<&str> {
        self.flags.iter().filter(|(n, _)| n == name).filter_map(|(_, v)| v.as_deref()).collect()
    }
    fn value(&self, name: &str) -> Option<&str> {
        self.values(name).last().copied()
    }
}

/// SOP indirect data: `@ENV:NAME`, `@FD:N` (unsupported) or a file name.
fn read_indirect(what: &str, spec: &str) -> R<Zeroizing<Vec<u8>>> {
    if let Some(var) = spec.strip_prefix("@ENV:") {
        return shared::env_bytes(var)
            .map(Zeroizing::new)
            .ok_or(Fail(MISSING_INPUT, format!("{what}: environment variable {var} is not set")));
    }
    if spec.starts_with("@FD:") {
        return fail(UNSUPPORTED_OPTION, format!("{what}: @FD: is not supported"));
    }
    std::fs::read(spec).map(Zeroizing::new).map_err(|e| Fail(MISSING_INPUT, format!("{what}: cannot read {spec}: {e}")))
}

/// SOP's outputs such as `--session-key-out` must not exist yet: checked
/// first, so that no work is done in vain, and again when written.
fn check_new_out(what: &str, spec: &str) -> R<PathBuf> {
    if spec.starts_with('@') {
        return fail(UNSUPPORTED_OPTION, format!("{what}: special designators are not supported"));
    }
    let path = PathBuf::from(spec);
    if std::fs::symlink_metadata(&path).is_ok() {
        return fail(OUTPUT_EXISTS, format!("{what}: {spec} already exists"));
    }
    Ok(path)
}

/// Writes `data` to a new file at `path`, readable by its owner only: into
/// a temporary file beside it (created 0600), moved into place without
/// replacing anything. On any failure nothing is left behind.
fn write_new_file(what: &str, path: &Path, data: &[u8]) -> R<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let io_fail = |e: io::Error| Fail(1, format!("{what}: cannot write {}: {e}", path.display()));
    let mut tmp = tempfile::Builder::new().prefix(".tessera-sop-").tempfile_in(dir).map_err(io_fail)?;
    tmp.write_all(data).map_err(io_fail)?;
    tmp.as_file().sync_all().map_err(io_fail)?;
    tmp.persist_noclobber(path)
        .map_err(|e| Fail(OUTPUT_EXISTS, format!("{what}: cannot create {}: {}", path.display(), e.error)))?;
    Ok(())
}

fn password(raw: Zeroizing<Vec<u8>>) -> R<Zeroizing<Vec<u8>>> {
    if std::str::from_utf8(&raw).is_err() {
        return fail(PASSWORD_NOT_READABLE, "the password is not UTF-8");
    }
    Ok(raw)
}

fn trim_trailing_ws(pw: &[u8]) -> &[u8] {
    let end = pw.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
    &pw[..end]
}

fn pgp_fail(e: PgpError) -> Fail {
    match e {
        PgpError::WrongPassword | PgpError::NoPasswordPacket => Fail(CANNOT_DECRYPT, e.to_string()),
        PgpError::UnsupportedCipher(_)
        | PgpError::UnsupportedAead(_)
        | PgpError::UnsupportedS2k(_)
        | PgpError::Unsupported(_) => Fail(CANNOT_DECRYPT, e.to_string()),
        PgpError::Io(io) if io.kind() == io::ErrorKind::BrokenPipe => Fail(1, "broken pipe".into()),
        e => Fail(BAD_DATA, e.to_string()),
    }
}

fn run(args: &[String]) -> R<()> {
    let Some((cmd, rest)) = args.split_first() else {
        return fail(
            UNSUPPORTED_SUBCOMMAND,
            "no subcommand given (version, list-profiles, encrypt, decrypt, armor, dearmor)",
        );
    };
    match cmd.as_str() {
        "version" => version(rest),
        "list-profiles" => list_profiles(rest),
        "encrypt" => encrypt(rest),
        "decrypt" => decrypt(rest),
        "armor" => armor(rest),
        "dearmor" => dearmor(rest),
        "sign" => sig::sign(rest),
        "verify" => sig::verify(rest),
        "inline-sign" => sig::inline_sign(rest),
        "inline-verify" => sig::inline_verify(rest),
        "inline-detach" => sig::inline_detach(rest),
        "generate-key"
        | "extract-cert"
        | "change-key-password"
        | "revoke-key"
        | "merge-certs"
        | "update-key"
        | "certify-userid"
        | "validate-userid" => {
            fail(UNSUPPORTED_SUBCOMMAND, format!("{cmd} needs keys: unsupported (tessera-sop does passwords only)"))
        }
        "--help" | "help" => {
            println!(
                "tessera-sop: version | list-profiles encrypt | encrypt --with-password=FILE [--no-armor] [--profile=rfc9580|rfc4880] | decrypt --with-password=FILE [--with-session-key=FILE] [--session-key-out=FILE] | armor | dearmor"
            );
            Ok(())
        }
        other => fail(UNSUPPORTED_SUBCOMMAND, format!("unsupported subcommand {other}")),
    }
}

type Stdout = io::BufWriter<io::StdoutLock<'static>>;

fn stdout() -> Stdout {
    io::BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

fn flush(mut out: Stdout) -> R<()> {
    out.flush().map_err(|e| Fail(1, e.to_string()))
}

fn version(rest: &[String]) -> R<()> {
    let o = parse(rest, &[], &["backend", "extended", "sop-spec"])?;
    if o.has("sop-spec") {
        println!("~draft-dkg-openpgp-stateless-cli-11");
    } else if o.has("backend") {
        println!("tessera {}", env!("CARGO_PKG_VERSION"));
    } else if o.has("extended") {
        println!(
            "tessera-sop {}\ntessera {} (RFC 9580 password-based encryption only)",
            env!("CARGO_PKG_VERSION"),
            env!("CARGO_PKG_VERSION")
        );
    } else {
        println!("tessera-sop {}", env!("CARGO_PKG_VERSION"));
    }
    Ok(())
}

fn list_profiles(rest: &[String]) -> R<()> {
    let o = parse(rest, &[], &[])?;
    match o.positional.first().map(String::as_str) {
        Some("encrypt") => {
            for (n, d) in PROFILES {
                println!("{n}: {d}");
            }
            Ok(())
        }
        Some(_) => fail(UNSUPPORTED_PROFILE, "profiles exist only for encrypt"),
        None => fail(MISSING_ARG, "list-profiles needs a subcommand name"),
    }
}

fn encrypt(rest: &[String]) -> R<()> {
    let o = parse(rest, &["with-password", "profile", "as", "with-key-password", "sign-with"], &["no-armor"])?;
    if o.has("sign-with") || o.has("with-key-password") {
        return fail(UNSUPPORTED_OPTION, "signing needs keys; tessera-sop handles passwords only");
    }
    if !o.positional.is_empty() {
        return fail(UNSUPPORTED_OPTION, "encrypting to certificates is not supported (passwords only)");
    }
    let pws = o.values("with-password");
    if pws.is_empty() {
        return fail(MISSING_ARG, "encrypt needs --with-password (certificates are not supported)");
    }
    let mut passwords = Vec::new();
    for spec in pws {
        let pw = password(read_indirect("--with-password", spec)?)?;
        let trimmed = trim_trailing_ws(&pw);
        if trimmed.is_empty() {
            return fail(PASSWORD_NOT_READABLE, format!("--with-password {spec}: {EMPTY_PASSWORD}"));
        }
        passwords.push(Zeroizing::new(trimmed.to_vec()));
    }
    let profile = match o.value("profile").unwrap_or("rfc9580") {
        "rfc9580" | "default" => Profile::Rfc9580,
        "rfc4880" | "compatibility" => Profile::Rfc4880,
        p => return fail(UNSUPPORTED_PROFILE, format!("unknown profile {p} (see list-profiles encrypt)")),
    };
    if let Some(a) = o.value("as")
        && !matches!(a, "binary" | "text")
    {
        return fail(UNSUPPORTED_OPTION, format!("--as={a}"));
    }
    let opts = EncryptOptions {
        profile,
        armor: !o.has("no-armor"),
        s2k: if profile == Profile::Rfc4880 { S2kChoice::Iterated { count_octet: 255 } } else { S2kChoice::default() },
        ..EncryptOptions::default()
    };
    let refs: Vec<&[u8]> = passwords.iter().map(|p| &p[..]).collect();
    let mut out = stdout();
    let mut enc = Encryptor::new(&mut out, &refs, &opts).map_err(pgp_fail)?;
    io::copy(&mut io::stdin().lock(), &mut enc).map_err(|e| Fail(1, format!("cannot encrypt: {e}")))?;
    enc.finish().map_err(pgp_fail)?;
    flush(out)
}

/// What `decrypt` was given: passwords (each also with trailing
/// whitespace trimmed, as SOP asks) and session keys.
struct DecryptInputs {
    passwords: Vec<Zeroizing<Vec<u8>>>,
    session_keys: Vec<SessionKey>,
    session_key_out: Option<PathBuf>,
}

fn decrypt_inputs(rest: &[String]) -> R<DecryptInputs> {
    let o = parse(
        rest,
        &[
            "with-password",
            "with-session-key",
            "session-key-out",
            "verify-with",
            "verifications-out",
            "with-key-password",
            "verify-not-before",
            "verify-not-after",
            "verify-out",
        ],
        &[],
    )?;
    if o.has("verify-with") || o.has("verifications-out") || o.has("verify-out") || o.has("with-key-password") {
        return fail(UNSUPPORTED_OPTION, "verification and keys are not supported (passwords only)");
    }
    if !o.positional.is_empty() {
        return fail(UNSUPPORTED_OPTION, "secret keys are not supported (passwords only)");
    }
    let mut passwords = Vec::new();
    for spec in o.values("with-password") {
        let pw = read_indirect("--with-password", spec)?;
        let trimmed = trim_trailing_ws(&pw).to_vec();
        if trimmed.len() != pw.len() {
            passwords.push(Zeroizing::new(trimmed));
        }
        passwords.push(pw);
    }
    let mut session_keys = Vec::new();
    for spec in o.values("with-session-key") {
        let raw = read_indirect("--with-session-key", spec)?;
        session_keys.push(parse_session_key(&raw)?);
    }
    if passwords.is_empty() && session_keys.is_empty() {
        return fail(MISSING_ARG, "decrypt needs --with-password or --with-session-key");
    }
    let session_key_out = o.value("session-key-out").map(|s| check_new_out("--session-key-out", s)).transpose()?;
    Ok(DecryptInputs { passwords, session_keys, session_key_out })
}

fn decrypt(rest: &[String]) -> R<()> {
    let inputs = decrypt_inputs(rest)?;
    let refs: Vec<&[u8]> = inputs.passwords.iter().map(|p| &p[..]).collect();
    let mut input: Box<dyn io::BufRead> = Box::new(BufReader::with_capacity(1 << 16, io::stdin().lock()));
    // Several candidates (session keys, then passwords) need the input
    // again: keep it in a temporary file.
    let tries = inputs.session_keys.len() + usize::from(!refs.is_empty());
    let mut spool = None;
    if tries > 1 {
        let mut f = tempfile::tempfile().map_err(|e| Fail(1, e.to_string()))?;
        io::copy(&mut input, &mut f).map_err(|e| Fail(1, e.to_string()))?;
        spool = Some(f);
    }
    let mut last = Fail(CANNOT_DECRYPT, "no session key or password fits".into());
    let mut candidates: Vec<Option<SessionKey>> = inputs.session_keys.into_iter().map(Some).collect();
    if !refs.is_empty() {
        candidates.push(None);
    }
    for cand in candidates {
        let src: Box<dyn io::BufRead> = match &mut spool {
            Some(f) => {
                f.rewind().map_err(|e| Fail(1, e.to_string()))?;
                Box::new(BufReader::new(f.try_clone().map_err(|e| Fail(1, e.to_string()))?))
            }
            None => std::mem::replace(&mut input, Box::new(io::empty())),
        };
        let opts = DecryptOptions {
            session_key: cand,
            v1_stream_unauthenticated: true,
            max_decompressed_size: Some(DecryptOptions::TOOL_MAX_DECOMPRESSED_SIZE),
            ..DecryptOptions::default()
        };
        match Decryptor::with_options(src, &refs, &opts) {
            Ok(dec) => return decrypt_out(dec, inputs.session_key_out.as_deref()),
            Err(e) => last = pgp_fail(e),
        }
    }
    Err(last)
}

/// Writes the plaintext (v2: chunk by chunk as they verify; v1: only once
/// the MDC verified), then the session key, if asked, now that it opened
/// the whole message.
fn decrypt_out(mut dec: Decryptor<'_>, session_key_out: Option<&Path>) -> R<()> {
    let mut out = stdout();
    if dec.seipd_version() == SeipdVersion::V1 {
        let mut tmp = tempfile::tempfile().map_err(|e| Fail(1, e.to_string()))?;
        io::copy(&mut dec, &mut tmp).map_err(|e| pgp_fail(PgpError::from_io(e)))?;
        tmp.rewind().map_err(|e| Fail(1, e.to_string()))?;
        io::copy(&mut tmp, &mut out).map_err(|e| Fail(1, e.to_string()))?;
    } else {
        shared::copy(&mut dec, &mut out).map_err(|e| match e {
            CopyError::Read(e) => pgp_fail(PgpError::from_io(e)),
            CopyError::Write(e) => Fail(1, e.to_string()),
        })?;
    }
    if let Some(path) = session_key_out {
        let sk = dec.session_key();
        let line = Zeroizing::new(format!("{}:{}\n", sk.alg.map_or(0, SymAlg::id), hex_upper(&sk.key)));
        write_new_file("--session-key-out", path, line.as_bytes())?;
    }
    flush(out)
}

fn armor(rest: &[String]) -> R<()> {
    let o = parse(rest, &["label"], &[])?;
    if o.has("label") {
        return fail(UNSUPPORTED_OPTION, "--label");
    }
    let mut input = BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut out = stdout();
    if is_armored(&mut input).map_err(pgp_fail)? {
        // Already armored: pass through unchanged (idempotent).
        io::copy(&mut input, &mut out).map_err(|e| Fail(1, e.to_string()))?;
    } else {
        let mut w = ArmorWriter::new(&mut out, MESSAGE, false).map_err(|e| Fail(1, e.to_string()))?;
        io::copy(&mut input, &mut w).map_err(|e| Fail(1, e.to_string()))?;
        w.finish().map_err(|e| Fail(1, e.to_string()))?;
    }
    flush(out)
}

fn dearmor(rest: &[String]) -> R<()> {
    parse(rest, &[], &[])?;
    let mut input = BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut out = stdout();
    if is_armored(&mut input).map_err(pgp_fail)? {
        let mut r = ArmorReader::new(input);
        io::copy(&mut r, &mut out).map_err(|e| pgp_fail(PgpError::from_io(e)))?;
    } else {
        io::copy(&mut input, &mut out).map_err(|e| Fail(1, e.to_string()))?;
    }
    flush(out)
}

fn hex_upper(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02X}")).collect()
}

/// SOP session key: `ALGO:HEX` (decimal algorithm id).
fn parse_session_key(raw: &[u8]) -> R<SessionKey> {
    let text = std::str::from_utf8(raw).map_err(|_| Fail(BAD_DATA, "session key is not text".into()))?.trim();
    let (alg, hexs) = text.split_once(':').ok_or(Fail(BAD_DATA, "session key must be ALGO:HEX".into()))?;
    let alg: u8 = alg.parse().map_err(|_| Fail(BAD_DATA, "session key algorithm must be a number".into()))?;
    if hexs.len() % 2 != 0 || !hexs.bytes().all(|c| c.is_ascii_hexdigit()) {
        return fail(BAD_DATA, "session key must be ALGO:HEX");
    }
    let key: Vec<u8> =
        (0..hexs.len()).step_by(2).map(|i| u8::from_str_radix(&hexs[i..i + 2], 16).expect("hex")).collect();
    let alg =
        if alg == 0 { None } else { Some(SymAlg::from_id(alg).map_err(|e| Fail(CANNOT_DECRYPT, e.to_string()))?) };
    if alg.is_some_and(|a| a.key_len() != key.len()) {
        return fail(BAD_DATA, "session key length does not match its algorithm");
    }
    Ok(SessionKey { alg, key: Zeroizing::new(key) })
}
