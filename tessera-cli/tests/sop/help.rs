//! `tessera-sop --help`, `tessera-sop help [SUBCOMMAND]` and
//! `tessera-sop SUBCOMMAND --help`: exit 0 with the usage on stdout and
//! nothing consumed or written; subcommands it does not implement stay 69.

use crate::common;

use common::sop::{sop, sop_code};

const IMPLEMENTED: [&str; 19] = [
    "version",
    "list-profiles",
    "generate-key",
    "extract-cert",
    "change-key-password",
    "encrypt",
    "decrypt",
    "sign",
    "verify",
    "inline-sign",
    "inline-verify",
    "inline-detach",
    "revoke-key",
    "merge-certs",
    "update-key",
    "certify-userid",
    "validate-userid",
    "armor",
    "dearmor",
];

fn help_ok(args: &[&str]) -> String {
    let o = sop(args, b"");
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn help_lists_every_subcommand() {
    for args in [&["--help"][..], &["help"]] {
        let text = help_ok(args);
        for name in IMPLEMENTED {
            assert!(text.lines().any(|l| l.starts_with(&format!("  {name}"))), "{args:?} lacks {name}:\n{text}");
        }
    }
}

#[test]
fn each_subcommand_has_its_help() {
    for name in IMPLEMENTED {
        let usage = format!("Usage: tessera-sop {name}");
        let after = help_ok(&[name, "--help"]);
        assert!(after.starts_with(&usage), "{name} --help:\n{after}");
        assert_eq!(help_ok(&["help", name]), after, "help {name}");
    }
    // --help wins over the other arguments, which are neither read nor
    // checked: no password file, no key, an option the subcommand lacks.
    let text = help_ok(&["encrypt", "--with-password=missing-file", "--no-such-option", "--help"]);
    assert!(text.contains("--with-password=PW") && text.contains("[CERTS...]"), "{text}");
    let text = help_ok(&["sign", "--help", "missing.key"]);
    assert!(text.contains("KEYS..."), "{text}");
}

#[test]
fn help_for_what_is_not_implemented_is_69() {
    sop_code(&["frobnicate", "--help"], b"", 69);
    sop_code(&["help", "no-such-subcommand"], b"", 69);
    // After `--`, --help is an argument like any other: here a key file that does not exist.
    sop_code(&["sign", "--", "--help"], b"", 61);
}
