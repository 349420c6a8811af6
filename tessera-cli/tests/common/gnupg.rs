//! GnuPG 2.2 as a test peer: a temporary home and the `gpg` command with
//! the options every batch use needs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The password of the keys GnuPG makes in these tests.
pub const GPG_PASSWORD: &str = "gpg key password";

/// A fresh GnuPG home (mode 0700) in `dir`, or `None` (after
/// [`super::skip_peer`]) when gpg is missing.
pub fn home(dir: &Path) -> Option<PathBuf> {
    if !Command::new("gpg").arg("--version").output().is_ok_and(|o| o.status.success()) {
        super::skip_peer("gpg");
        return None;
    }
    let home = dir.join("gnupg");
    std::fs::create_dir(&home).unwrap();
    #[cfg(unix)]
    std::fs::set_permissions(&home, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    Some(home)
}

/// `gpg` in batch mode on `home`, with [`GPG_PASSWORD`] for its own keys.
pub fn gpg(home: &Path) -> Command {
    let mut c = Command::new("gpg");
    c.arg("--homedir").arg(home);
    c.args(["--batch", "--no-tty", "--pinentry-mode", "loopback", "--trust-model", "always"]);
    c.args(["--passphrase", GPG_PASSWORD]);
    c
}

/// Runs `cmd`, expecting success.
pub fn gpg_ok(cmd: &mut Command, what: &str) -> Output {
    let o = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(o.status.success(), "{what}: {}", String::from_utf8_lossy(&o.stderr));
    o
}

/// The `--with-colons` listing of `who`'s public keys, with signatures checked.
pub fn colons(home: &Path, who: &str) -> String {
    let o = gpg_ok(gpg(home).args(["--with-colons", "--check-sigs", who]), "gpg --check-sigs");
    String::from_utf8(o.stdout).unwrap()
}
