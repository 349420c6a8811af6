//! `tessera-sop --help`, `tessera-sop help [SUBCOMMAND]` and
//! `tessera-sop SUBCOMMAND --help`: the usage of every subcommand, on
//! stdout.

/// Each subcommand: its name, its options and arguments, what it does.
const SUBCOMMANDS: &[(&str, &str, &str)] = &[
    (
        "version",
        "[--backend|--extended|--sop-spec]",
        "Print the version of tessera-sop, of its backend or of the SOP draft it follows.",
    ),
    ("list-profiles", "generate-key|encrypt", "List the profiles a subcommand takes with --profile."),
    (
        "generate-key",
        "[--no-armor] [--profile=rfc9580|rfc4880|rfc9980|rfc9980-high|rfc9980-v4] [--with-key-password=PW] [--signing-only] [USERID...]",
        "Write a new secret key to stdout.",
    ),
    ("extract-cert", "[--no-armor] < KEYS", "Write the certificates of the secret keys on stdin."),
    (
        "change-key-password",
        "[--no-armor] [--old-key-password=PW...] [--new-key-password=PW] < KEYS",
        "Reprotect the secret keys on stdin with a new password (none: unprotected).",
    ),
    (
        "encrypt",
        "[--no-armor] [--as=binary|text] [--profile=P] [--with-password=PW...] [--sign-with=KEYS...]\n          \
         [--with-key-password=PW...] [CERTS...]",
        "Encrypt stdin to certificates and/or passwords, optionally signing it.",
    ),
    (
        "decrypt",
        "[--with-password=PW...] [--with-session-key=SK...] [--session-key-out=F] [--with-key-password=PW...]\n          \
         [--verifications-out=F --verify-with=CERTS...] [--verify-not-before=D] [--verify-not-after=D] [KEYS...]",
        "Decrypt the message on stdin with keys, passwords or session keys, optionally verifying it.",
    ),
    (
        "sign",
        "[--no-armor] [--as=binary|text] [--micalg-out=F] [--with-key-password=PW...] KEYS...",
        "Write a detached signature of stdin.",
    ),
    (
        "verify",
        "[--not-before=D] [--not-after=D] SIGNATURES CERTS...",
        "Check detached SIGNATURES of stdin; print the good ones (exit 3 if none).",
    ),
    (
        "inline-sign",
        "[--no-armor] [--as=binary|text|clearsigned] [--with-key-password=PW...] KEYS...",
        "Write stdin as a signed message or a cleartext signature.",
    ),
    (
        "inline-verify",
        "[--not-before=D] [--not-after=D] [--verifications-out=F] CERTS...",
        "Check an inline-signed message on stdin and write its text (exit 3 if no good signature).",
    ),
    (
        "inline-detach",
        "[--no-armor] --signatures-out=F",
        "Split an inline-signed message into its text (stdout) and its signatures.",
    ),
    (
        "revoke-key",
        "[--no-armor] [--with-key-password=PW...] < KEYS",
        "Write the certificates of the secret keys on stdin, revoked (a hard revocation).",
    ),
    (
        "merge-certs",
        "[--no-armor] CERTS... < CERTS",
        "Write the certificates on stdin with what CERTS hold of them merged in.",
    ),
    (
        "update-key",
        "[--no-armor] [--signing-only] [--no-added-capabilities] [--with-key-password=PW...]\n          \
         [--merge-certs=CERTS...] < KEYS",
        "Renew stale self-signatures of the keys on stdin; add an encryption subkey if none.",
    ),
    (
        "certify-userid",
        "[--no-armor] --userid=USERID... [--with-key-password=PW...] [--no-require-self-sig] KEYS... < CERTS",
        "Certify the User IDs of the certificates on stdin with KEYS.",
    ),
    (
        "validate-userid",
        "[--addr-spec-only] [--validate-at=D] USERID CERTS... < CERTS",
        "Exit 0 if the certificates on stdin bind USERID, certified by one of CERTS (else 107).",
    ),
    ("armor", "", "ASCII-armor the OpenPGP data on stdin."),
    ("dearmor", "", "Remove the ASCII armor of the OpenPGP data on stdin."),
];

const DESIGNATORS: &str = "PW, SK, KEYS, CERTS: a file name, @ENV:NAME or @FD:N (Linux);
F: a new file or @FD:N (Linux); other @ designators exit 71.";

/// The usage of every subcommand.
pub fn all() -> String {
    let mut s =
        String::from("tessera-sop SUBCOMMAND [OPTIONS] [ARGS]: Stateless OpenPGP (draft-dkg-openpgp-stateless-cli)\n");
    for (name, usage, _) in SUBCOMMANDS {
        s.push_str(format!("  {name} {usage}").trim_end());
        s.push('\n');
    }
    s.push_str("  help [SUBCOMMAND] | SUBCOMMAND --help: the usage of every subcommand, or of one\n");
    s.push_str(DESIGNATORS);
    s
}

/// The usage of `name`, if it is a subcommand tessera-sop implements.
pub fn one(name: &str) -> Option<String> {
    let (name, usage, what) = SUBCOMMANDS.iter().find(|(n, _, _)| *n == name)?;
    let mut s = format!("Usage: tessera-sop {name} {usage}").trim_end().to_string();
    s.push_str(&format!("\n\n{what}"));
    if ["PW", "SK", "KEYS", "CERTS", "=F"].iter().any(|d| usage.contains(d)) {
        s.push_str(&format!("\n\n{DESIGNATORS}"));
    }
    Some(s)
}

/// Whether `args` (a subcommand's arguments) ask for help: `--help`
/// before any `--`.
pub fn asked(args: &[String]) -> bool {
    args.iter().take_while(|a| *a != "--").any(|a| a == "--help")
}
