//! Passwords typed at the terminal: asked for only when standard input is
//! a terminal and no file or variable gave one, read without echo (the
//! `rpassword` crate, which reads the terminal itself), and asked twice for
//! a new secret. Without a terminal, the error names the flag that gives
//! the password instead.

use std::io::IsTerminal;

use anyhow::{Context, Result, bail};
use zeroize::Zeroizing;

/// Whether a password may be asked for: standard input is a terminal (a
/// person is there; data on stdin or a script is never prompted).
pub fn can_ask() -> bool {
    std::io::stdin().is_terminal()
}

/// Asks for the existing secret `what` ("the password of key F") on the
/// terminal; without one, the error says to give `flag`.
pub fn ask(what: &str, flag: &str) -> Result<Zeroizing<Vec<u8>>> {
    if !can_ask() {
        bail!("{what} is needed: give {flag} (stdin is not a terminal to ask on)");
    }
    read(&format!("Enter {what}: "))
}

/// Asks for the new secret `what` twice on the terminal and refuses when
/// the two differ; without a terminal, the error says to give `flag`.
pub fn ask_new(what: &str, flag: &str) -> Result<Zeroizing<Vec<u8>>> {
    let first = ask(what, flag)?;
    let again = read(&format!("Repeat {what}: "))?;
    if first != again {
        bail!("the two passwords typed differ; nothing was done");
    }
    Ok(first)
}

/// One line read from the terminal without echo, after `prompt`.
fn read(prompt: &str) -> Result<Zeroizing<Vec<u8>>> {
    let line = Zeroizing::new(rpassword::prompt_password(prompt).context("cannot read a password from the terminal")?);
    if line.is_empty() {
        bail!("{}", tessera::openpgp::EMPTY_PASSWORD);
    }
    Ok(Zeroizing::new(line.as_bytes().to_vec()))
}

/// Warns on stderr, as ssh does, when the secret file `path` (`what`:
/// "password file", "secret key file") may be read or changed by its group
/// or others. Nothing on systems without Unix modes.
pub fn warn_if_open(path: &std::path::Path, what: &str) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(m) = std::fs::metadata(path)
            && m.is_file()
            && m.permissions().mode() & 0o077 != 0
        {
            eprintln!(
                "warning: {what} {} is open to group or others (mode {:04o}); make it private: chmod 600 {}",
                path.display(),
                m.permissions().mode() & 0o7777,
                path.display()
            );
        }
    }
    #[cfg(not(unix))]
    let _ = (path, what);
}
