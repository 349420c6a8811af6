//! What the OpenPGP commands say when something fails: one line naming
//! the problem and, where there is one, the flag that changes it; and the
//! `--hash` values of the signing commands.

use std::io;

use anyhow::anyhow;
use clap::builder::PossibleValue;
use tessera::fs::CopyError;
use tessera::openpgp::Error as PgpError;
use tessera::openpgp::crypto::HashAlg;
use tessera::openpgp::key::KeyError;
use tessera_cli::named;

/// `--hash`: the names of the hashes new signatures may use.
pub(crate) fn hash_parser() -> impl clap::builder::TypedValueParser<Value = HashAlg> {
    named::<HashAlg>(HashAlg::SIGNING.map(|h| PossibleValue::new(h.name())))
}

/// One line that says what went wrong and what to do.
pub fn explain(e: PgpError) -> anyhow::Error {
    match e {
        PgpError::WrongPassword => {
            anyhow!(
                "wrong password: it opens none of the message's password packets (check the password file or variable)"
            )
        }
        PgpError::Authentication(what) => anyhow!(
            "authentication failed ({what}): the message was modified, damaged or cut short; nothing from it can be trusted"
        ),
        PgpError::Truncated(what) => {
            anyhow!("the message is truncated ({what}): the file was cut short; get a complete copy")
        }
        PgpError::NoPasswordPacket => {
            anyhow!("the message is not password-encrypted (it is for a public key, or not encrypted)")
        }
        PgpError::Key(KeyError::Locked(fp)) => {
            anyhow!("the secret key {fp} is locked: give its password with --key-password-file FILE")
        }
        PgpError::Io(e) => anyhow!("I/O error: {e}"),
        e @ PgpError::LimitExceeded { limit, .. } => {
            let flag = LIMIT_FLAGS.iter().find(|(name, _)| limit.starts_with(name)).map(|(_, flag)| *flag);
            match flag {
                Some(flag) => anyhow!("{e}; raise {flag} only for messages from someone you trust"),
                None => anyhow!("{e}"),
            }
        }
        e => anyhow!("{e}"),
    }
}

/// The library's limit names and the flags that set them.
const LIMIT_FLAGS: [(&str, &str); 5] = [
    ("max_argon2_m", "--max-argon2-memory"),
    ("max_argon2_t", "--max-argon2-passes"),
    ("max_argon2_p", "--max-argon2-lanes"),
    ("max_work_kib", "--max-s2k-work"),
    ("max_decompressed_size", "--max-decompressed-size"),
];

/// Maps an I/O error that may carry an OpenPGP error.
fn explain_io(e: io::Error) -> anyhow::Error {
    explain(PgpError::from_io(e))
}

/// Maps a failed copy into an encryptor.
pub fn explain_encrypt_copy(e: CopyError) -> anyhow::Error {
    match e {
        CopyError::Read(e) => anyhow!("cannot read input: {e}"),
        e => anyhow!("cannot encrypt: {e}"),
    }
}

/// Maps a failed copy out of a decryptor: a read error carries the
/// decryptor's OpenPGP error.
pub fn explain_copy(e: CopyError) -> anyhow::Error {
    match e {
        CopyError::Read(e) => explain_io(e),
        CopyError::Write(e) => anyhow::Error::from(e).context("cannot write output"),
        e @ CopyError::Spool(_) => anyhow!("{e}"),
    }
}
