//! `tessera-sop`: the Stateless OpenPGP command-line interface
//! (draft-dkg-openpgp-stateless-cli): `version`, `list-profiles`,
//! `generate-key`, `extract-cert`, `change-key-password`, `encrypt` (to
//! certificates and/or passwords, optionally signing), `decrypt` (with
//! keys, passwords and session keys at once, optionally verifying),
//! `sign`, `verify`, `inline-sign`, `inline-verify`, `inline-detach`,
//! `armor`, `dearmor`, and certificate management (`revoke-key`,
//! `merge-certs`, `update-key`, `certify-userid`, `validate-userid`);
//! `help [SUBCOMMAND]` and `SUBCOMMAND --help` print the usage on stdout
//! and exit 0. Unsupported options exit 37. Every failure exits with SOP's
//! code (19 missing argument, 29 cannot decrypt, 41 bad data, 67 key is
//! protected, 103 primary key bad, 107 User ID not bound, 109 key cannot
//! certify, ...).

#[path = "sop/armor.rs"]
mod armor;
#[path = "sop/certs.rs"]
mod certs;
#[path = "sop/decrypt.rs"]
mod decrypt;
#[path = "sop/encrypt.rs"]
mod encrypt;
#[path = "sop/help.rs"]
mod help;
#[path = "sop/keys.rs"]
mod keys;
#[path = "sop/sig.rs"]
mod sig;

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use tessera::fs::AtomicFile;
use tessera::openpgp::key::KeyError;
use tessera::openpgp::{EMPTY_PASSWORD, Error as PgpError};
use tessera_cli::io as shared;
use zeroize::Zeroizing;

const NO_SIGNATURE: u8 = 3;
const UNSUPPORTED_ASYMMETRIC_ALGO: u8 = 13;
const CERT_CANNOT_ENCRYPT: u8 = 17;
const MISSING_ARG: u8 = 19;
const INCOMPLETE_VERIFICATION: u8 = 23;
const CANNOT_DECRYPT: u8 = 29;
const PASSWORD_NOT_READABLE: u8 = 31;
const UNSUPPORTED_OPTION: u8 = 37;
const BAD_DATA: u8 = 41;
const EXPECTED_TEXT: u8 = 53;
const OUTPUT_EXISTS: u8 = 59;
const MISSING_INPUT: u8 = 61;
const KEY_IS_PROTECTED: u8 = 67;
const UNSUPPORTED_SUBCOMMAND: u8 = 69;
const UNSUPPORTED_SPECIAL_PREFIX: u8 = 71;
const AMBIGUOUS_INPUT: u8 = 73;
const KEY_CANNOT_SIGN: u8 = 79;
const INCOMPATIBLE_OPTIONS: u8 = 83;
const UNSUPPORTED_PROFILE: u8 = 89;

struct Fail(u8, String);

type R<T> = Result<T, Fail>;

fn fail<T>(code: u8, msg: impl Into<String>) -> R<T> {
    Err(Fail(code, msg.into()))
}

fn main() -> ExitCode {
    // Arguments that are not UTF-8 (a file name, a User ID) are refused
    // with SOP's bad-data code rather than a panic in `std::env::args`.
    let args: Result<Vec<String>, _> = std::env::args_os().skip(1).map(|a| a.into_string()).collect();
    let result = match args {
        Ok(args) => run(&args),
        Err(_) => Err(Fail(BAD_DATA, "an argument is not valid UTF-8".into())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail(code, msg)) => {
            eprintln!("tessera-sop: {msg}");
            ExitCode::from(code)
        }
    }
}

/// Splits `--name=value` / `--name value` options from positional arguments.
///
/// Hand-written rather than the `sop` crate's front end: that one drives a
/// backend through its own trait family (keys, certificates and signatures
/// as its types, draft 08's options) and decides output and exit codes
/// itself, while this parser is the only generic part here and each
/// subcommand lists the options it accepts (any other is 37).
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

/// SOP indirect data (the draft's special designators): `@ENV:NAME`,
/// `@FD:N` (Linux; elsewhere 71) or a file name. Any other argument that
/// starts with `@` is a special designator this implementation does not
/// handle: 71 (UNSUPPORTED_SPECIAL_PREFIX), never read as a file. A
/// designator that also names an existing file is 73 (AMBIGUOUS_INPUT).
fn read_indirect(what: &str, spec: &str) -> R<Zeroizing<Vec<u8>>> {
    if spec.starts_with('@') {
        if std::fs::symlink_metadata(spec).is_ok() {
            return fail(AMBIGUOUS_INPUT, format!("{what}: {spec} is a special designator and also a file"));
        }
        if let Some(fd) = fd_number(spec) {
            // Room for any password or key up front, so that growing leaves
            // no copy of a secret in freed memory.
            let mut data = Zeroizing::new(Vec::with_capacity(tessera::fs::IO_BUFFER));
            open_fd(what, spec, fd, false)?
                .read_to_end(&mut data)
                .map_err(|e| Fail(MISSING_INPUT, format!("{what}: cannot read {spec}: {e}")))?;
            return Ok(data);
        }
        let Some(var) = spec.strip_prefix("@ENV:") else {
            return fail(UNSUPPORTED_SPECIAL_PREFIX, format!("{what}: {spec}: only @ENV: and @FD: are supported"));
        };
        return shared::env_bytes(var)
            .map(Zeroizing::new)
            .ok_or(Fail(MISSING_INPUT, format!("{what}: environment variable {var} is not set")));
    }
    std::fs::read(spec).map(Zeroizing::new).map_err(|e| Fail(MISSING_INPUT, format!("{what}: cannot read {spec}: {e}")))
}

/// The descriptor number of an `@FD:N` designator (N in ASCII digits).
fn fd_number(spec: &str) -> Option<u32> {
    let n = spec.strip_prefix("@FD:")?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok()
}

/// Opens the inherited file descriptor `fd` through `/dev/fd/N` (a new
/// open of the same pipe or file: a file is read from its start, and
/// written at its end), for reading or for writing. A descriptor that is
/// not open is 61 (MISSING_INPUT) for input, 1 for output.
#[cfg(target_os = "linux")]
fn open_fd(what: &str, spec: &str, fd: u32, write: bool) -> R<std::fs::File> {
    let path = format!("/dev/fd/{fd}");
    let code = if write { 1 } else { MISSING_INPUT };
    std::fs::OpenOptions::new()
        .read(!write)
        .append(write)
        .open(path)
        .map_err(|e| Fail(code, format!("{what}: cannot open {spec}: {e}")))
}

/// `@FD:` is handled on Linux only: 71 (UNSUPPORTED_SPECIAL_PREFIX).
#[cfg(not(target_os = "linux"))]
fn open_fd(what: &str, spec: &str, _fd: u32, _write: bool) -> R<std::fs::File> {
    fail(UNSUPPORTED_SPECIAL_PREFIX, format!("{what}: {spec}: @FD: is supported on Linux only"))
}

/// An output of SOP such as `--session-key-out`, prepared when the option
/// is read, before any input is consumed. A file must not exist (59) and
/// its directory must take a new file (a temporary one, created 0600, is
/// made there now); `@FD:N` is an inherited descriptor, opened now.
/// [`write_new_file`] fills it (and moves a file into place without
/// replacing anything); on failure no file is left behind.
struct NewOut {
    what: String,
    to: OutTarget,
}

enum OutTarget {
    File(AtomicFile),
    Fd(std::fs::File),
}

fn check_new_out(what: &str, spec: &str) -> R<NewOut> {
    if let Some(fd) = fd_number(spec) {
        return Ok(NewOut { what: what.to_string(), to: OutTarget::Fd(open_fd(what, spec, fd, true)?) });
    }
    // `@ENV:` cannot take output; other prefixes are not handled.
    if spec.starts_with('@') {
        return fail(
            UNSUPPORTED_SPECIAL_PREFIX,
            format!("{what}: {spec}: only @FD: designators are supported for output"),
        );
    }
    let path = PathBuf::from(spec);
    if std::fs::symlink_metadata(&path).is_ok() {
        return fail(OUTPUT_EXISTS, format!("{what}: {spec} already exists"));
    }
    let tmp = AtomicFile::create(&path).map_err(|e| Fail(1, format!("{what}: cannot create {spec}: {e}")))?;
    Ok(NewOut { what: what.to_string(), to: OutTarget::File(tmp) })
}

/// Writes `data` to the prepared output `out` (a file is moved into place).
fn write_new_file(out: NewOut, data: &[u8]) -> R<()> {
    let NewOut { what, to } = out;
    match to {
        OutTarget::Fd(mut fd) => fd.write_all(data).map_err(|e| Fail(1, format!("{what}: cannot write: {e}"))),
        OutTarget::File(mut tmp) => {
            let path = tmp.path().display().to_string();
            tmp.write_all(data).map_err(|e| Fail(1, format!("{what}: cannot write {path}: {e}")))?;
            tmp.commit_new().map_err(|e| Fail(OUTPUT_EXISTS, format!("{what}: cannot create {path}: {e}")))
        }
    }
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

/// A password that protects something new (`encrypt --with-password`,
/// `generate-key --with-key-password`, `change-key-password
/// --new-key-password`): UTF-8, trailing whitespace removed, not empty.
fn new_password(what: &str, spec: &str) -> R<Zeroizing<Vec<u8>>> {
    let pw = password(read_indirect(what, spec)?)?;
    let trimmed = trim_trailing_ws(&pw);
    if trimmed.is_empty() {
        return fail(PASSWORD_NOT_READABLE, format!("{what} {spec}: {EMPTY_PASSWORD}"));
    }
    Ok(Zeroizing::new(trimmed.to_vec()))
}

/// Passwords that may open something (`--with-password` of `decrypt`,
/// `--with-key-password`): each as given and, if different, with trailing
/// whitespace removed, as SOP asks.
fn given_passwords(o: &Opts, name: &str) -> R<Vec<Zeroizing<Vec<u8>>>> {
    let mut out = Vec::new();
    for spec in o.values(name) {
        let pw = read_indirect(&format!("--{name}"), spec)?;
        let trimmed = trim_trailing_ws(&pw);
        if trimmed.len() != pw.len() {
            out.push(Zeroizing::new(trimmed.to_vec()));
        }
        out.push(pw);
    }
    Ok(out)
}

fn refs(v: &[Zeroizing<Vec<u8>>]) -> Vec<&[u8]> {
    v.iter().map(|p| p.as_slice()).collect()
}

fn io_fail(e: io::Error) -> Fail {
    Fail(1, e.to_string())
}

fn pgp_fail(e: PgpError) -> Fail {
    match e {
        PgpError::WrongPassword | PgpError::NoPasswordPacket | PgpError::SessionKeyDecryption => {
            Fail(CANNOT_DECRYPT, e.to_string())
        }
        PgpError::Key(KeyError::NoDecryptionKey { .. }) | PgpError::KeyTooSmall { .. } => {
            Fail(CANNOT_DECRYPT, e.to_string())
        }
        PgpError::Key(KeyError::Locked(_) | KeyError::WrongKeyPassword(_)) => Fail(KEY_IS_PROTECTED, e.to_string()),
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
        return fail(UNSUPPORTED_SUBCOMMAND, "no subcommand given (see tessera-sop help)");
    };
    if help::asked(rest) && cmd != "help" {
        return print_help(Some(cmd));
    }
    match cmd.as_str() {
        "version" => version(rest),
        "list-profiles" => list_profiles(rest),
        "generate-key" => keys::generate_key(rest),
        "extract-cert" => keys::extract_cert(rest),
        "change-key-password" => keys::change_key_password(rest),
        "encrypt" => encrypt::encrypt(rest),
        "decrypt" => decrypt::decrypt(rest),
        "armor" => armor::armor(rest),
        "dearmor" => armor::dearmor(rest),
        "sign" => sig::sign(rest),
        "verify" => sig::verify(rest),
        "inline-sign" => sig::inline_sign(rest),
        "inline-verify" => sig::inline_verify(rest),
        "inline-detach" => sig::inline_detach(rest),
        "revoke-key" => certs::revoke_key(rest),
        "merge-certs" => certs::merge_certs(rest),
        "update-key" => certs::update_key(rest),
        "certify-userid" => certs::certify_userid(rest),
        "validate-userid" => certs::validate_userid(rest),
        "--help" => print_help(None),
        "help" => match rest {
            [] => print_help(None),
            [sub] => print_help(Some(sub)),
            _ => fail(UNSUPPORTED_OPTION, "help takes at most one subcommand"),
        },
        other => fail(UNSUPPORTED_SUBCOMMAND, format!("unsupported subcommand {other}")),
    }
}

/// Prints the usage of `sub`, or of every subcommand; a subcommand
/// tessera-sop does not implement is 69.
fn print_help(sub: Option<&str>) -> R<()> {
    let text = match sub {
        None => help::all(),
        Some(name) => help::one(name)
            .ok_or(Fail(UNSUPPORTED_SUBCOMMAND, format!("{name}: not a subcommand tessera-sop implements")))?,
    };
    println!("{text}");
    Ok(())
}

pub type Stdout = io::BufWriter<io::StdoutLock<'static>>;

fn stdout() -> Stdout {
    io::BufWriter::with_capacity(tessera::fs::IO_BUFFER, io::stdout().lock())
}

fn flush(mut out: Stdout) -> R<()> {
    out.flush().map_err(|e| Fail(1, e.to_string()))
}

fn version(rest: &[String]) -> R<()> {
    let o = parse(rest, &[], &["backend", "extended", "sop-spec"])?;
    if o.has("sop-spec") {
        println!("~draft-dkg-openpgp-stateless-cli-16");
    } else if o.has("backend") {
        println!("tessera {}", env!("CARGO_PKG_VERSION"));
    } else if o.has("extended") {
        println!(
            "tessera-sop {}\ntessera {} (RFC 9580 and RFC 4880 OpenPGP: Ed25519/X25519 keys, AES, Argon2)",
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
    let profiles: &[(&str, &str)] = match o.positional.first().map(String::as_str) {
        Some("encrypt") => &encrypt::PROFILES,
        Some("generate-key") => &keys::PROFILES,
        Some(other) => {
            return fail(UNSUPPORTED_PROFILE, format!("{other} has no profiles (encrypt and generate-key do)"));
        }
        None => return fail(MISSING_ARG, "list-profiles needs a subcommand name"),
    };
    for (n, d) in profiles {
        println!("{n}: {d}");
    }
    Ok(())
}

/// SOP's `--profile` of `encrypt` and `generate-key`: a listed name, or
/// `default` (the first).
fn profile_name<'a>(o: &'a Opts, profiles: &[(&'a str, &str)]) -> R<&'a str> {
    match o.value("profile") {
        None | Some("default") => Ok(profiles[0].0),
        Some(p) if profiles.iter().any(|(n, _)| *n == p) => Ok(p),
        Some(p) => fail(UNSUPPORTED_PROFILE, format!("unknown profile {p} (see list-profiles)")),
    }
}

/// Reads all of `input` as UTF-8 text only (SOP `--as=text`), failing with
/// 53 at the first invalid sequence; streams, holding back at most the
/// three octets of a character cut by a read.
struct Utf8Only<R> {
    inner: R,
    pending: Vec<u8>,
}

impl<R: Read> Utf8Only<R> {
    fn new(inner: R) -> Self {
        Utf8Only { inner, pending: Vec::new() }
    }
}

impl<R: Read> Read for Utf8Only<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let bad = || io::Error::new(io::ErrorKind::InvalidData, "the input is not UTF-8 text");
        let n = self.inner.read(buf)?;
        if n == 0 {
            return if self.pending.is_empty() { Ok(0) } else { Err(bad()) };
        }
        let mut check = std::mem::take(&mut self.pending);
        check.extend_from_slice(&buf[..n]);
        if let Err(e) = std::str::from_utf8(&check) {
            if e.error_len().is_some() {
                return Err(bad());
            }
            self.pending = check[e.valid_up_to()..].to_vec();
        }
        Ok(n)
    }
}

/// Maps a copy error of a [`Utf8Only`] input to 53, others to 1.
fn text_fail(e: io::Error) -> Fail {
    if e.kind() == io::ErrorKind::InvalidData {
        Fail(EXPECTED_TEXT, "--as=text needs UTF-8 input".into())
    } else {
        io_fail(e)
    }
}
