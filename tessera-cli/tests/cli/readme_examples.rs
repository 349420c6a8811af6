//! The README's command-line examples run as written: every `sh` block of
//! its "Command line" section (keysets included), in order, as one bash
//! script with `set -euo pipefail`, in a directory holding the input files
//! the examples name, with `tessera` and `tessera-sop` first on PATH.

use std::path::Path;
use std::process::{Command, Stdio};

const README: &str = include_str!("../../../README.md");

/// The `sh` blocks between the `## Command line` heading and the next
/// second-level heading.
fn command_line_blocks(readme: &str) -> Vec<String> {
    let start = readme.find("\n## Command line").expect("README has a Command line section");
    let rest = &readme[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    let section = &rest[..end];
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in section.lines() {
        match (&mut current, line.trim_start()) {
            (None, "```sh") => current = Some(String::new()),
            (Some(_), "```") => blocks.push(current.take().unwrap()),
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(current.is_none(), "an sh block in the README is not closed");
    blocks
}

/// The files the examples read and do not make themselves: inputs, the
/// passwords, Bob's key, a Tink keyset, a password message.
const SETUP: &str = r#"
set -euo pipefail
printf '4111111111111111\n5500000000000004\n' > cards.txt
printf 'alice@example.org\nbob@example.org\n' > emails.txt
printf 'id,email\n1,alice@example.org\n' > users.csv
printf 'customer,card\nc-1,4111111111111111\nc-2,5500000000000004\n' > accounts.csv
printf 'account_id,iban\nacct0042,de44500105175407324931\n' > ibans.csv
printf 'id,card,dob,email\n1,4111-1111-1111-1111,1984-03-17,alice@example.org\n' > customers.csv
printf 'a message\n' > msg
printf 'Minutes of the meeting\nNo decisions.\n' > notes.txt
head -c 300000 /dev/urandom > big.iso
head -c 1000 /dev/urandom > secret.bin
printf 'a password for messages\n' > pw.txt
printf 'a password for keys\n' > kpw
printf 'another password for keys\n' > kpw2
printf 'a password for keysets\n' > pw
chmod 600 pw.txt kpw kpw2 pw
tessera encrypt --password-file pw.txt -o in.pgp secret.bin
tessera keygen --bytes 16 -o old.key
tessera fpe encrypt --key-file old.key --algorithm ff3-1 --allow-withdrawn --tweak 00112233445566 \
    < cards.txt > ff3_tokens.txt 2> /dev/null
tessera key generate --userid "Bob <bob@example.org>" --no-password -o bob.key
tessera key cert bob.key -o bob.cert
cat > tink.json <<'EOF'
{"primaryKeyId": 1234567, "key": [{"keyData": {"typeUrl": "type.googleapis.com/google.crypto.tink.AesSivKey",
 "value": "EkAAAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSYnKCkqKywtLi8wMTIzNDU2Nzg5Ojs8PT4/",
 "keyMaterialType": "SYMMETRIC"}, "status": "ENABLED", "keyId": 1234567, "outputPrefixType": "TINK"}]}
EOF
"#;

fn bin_dir() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_tessera")).parent().unwrap()
}

fn bash(dir: &Path, script: &str) -> std::process::Output {
    let path = format!("{}:{}", bin_dir().display(), std::env::var("PATH").unwrap_or_default());
    Command::new("bash")
        .args(["-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .expect("run bash")
}

#[test]
fn readme_command_line_examples_run_as_written() {
    let blocks = command_line_blocks(README);
    assert!(blocks.len() >= 3, "found {} sh blocks", blocks.len());
    let dir = tempfile::tempdir().unwrap();
    let setup = bash(dir.path(), SETUP);
    assert!(setup.status.success(), "setup failed: {}", String::from_utf8_lossy(&setup.stderr));
    // -x: the failing command is the last one traced on stderr.
    let script = format!("set -euxo pipefail\n{}", blocks.join("\n"));
    let out = bash(dir.path(), &script);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let tail: Vec<&str> = stderr.lines().rev().take(15).collect();
    assert!(out.status.success(), "a README example failed; last lines of stderr, newest first:\n{}", tail.join("\n"));
}

#[test]
fn the_blocks_are_found_in_order() {
    let readme = "# x\n## Command line\n```sh\na\n```\ntext\n### Sub\n```sh\nb\nc\n```\n```python\nno\n```\n## Python\n```sh\nno\n```\n";
    assert_eq!(command_line_blocks(readme), ["a\n", "b\nc\n"]);
}
