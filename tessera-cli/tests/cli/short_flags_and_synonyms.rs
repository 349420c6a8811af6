//! The short flags and synonyms gpg and sq users type: `-a` (armor),
//! `-b`/`--detach-sign`, `--clearsign`, `--textmode`, `-o` for fpe and
//! siv; each gives what its long form gives.

use std::path::Path;
use std::process::{Command, Stdio};

const T: &str = env!("CARGO_BIN_EXE_tessera");

fn ok(d: &Path, args: &[&str]) -> Vec<u8> {
    let o = Command::new(T).args(args).current_dir(d).stdin(Stdio::null()).output().expect("run tessera");
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

fn read(d: &Path, name: &str) -> Vec<u8> {
    std::fs::read(d.join(name)).unwrap()
}

#[test]
fn gpg_spellings_work_as_the_long_forms() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["key", "generate", "--no-password", "--userid", "A <a@example.org>", "-o", "a.key"]);
    ok(d, &["key", "cert", "a.key", "-o", "a.cert"]);
    std::fs::write(d.join("text"), "hello\n").unwrap();

    let armored = ok(d, &["encrypt", "-a", "-r", "a.cert", "text"]);
    assert!(armored.starts_with(b"-----BEGIN PGP MESSAGE-----\n"));
    std::fs::write(d.join("m.asc"), &armored).unwrap();
    assert_eq!(ok(d, &["decrypt", "-i", "a.key", "m.asc"]), b"hello\n");

    let signed = ok(d, &["sign", "-a", "-i", "a.key", "text"]);
    assert!(signed.starts_with(b"-----BEGIN PGP MESSAGE-----\n"));
    for (args, begins) in [
        (&["sign", "-i", "a.key", "-b", "-a", "-o", "s1", "text"][..], &b"-----BEGIN PGP SIGNATURE-----\n"[..]),
        (&["sign", "-i", "a.key", "--detach-sign", "--armor", "-o", "s2", "text"], b"-----BEGIN PGP SIGNATURE-----\n"),
        (&["sign", "-i", "a.key", "--clearsign", "-o", "s3", "text"], b"-----BEGIN PGP SIGNED MESSAGE-----\n"),
        (&["sign", "-i", "a.key", "--textmode", "-a", "-o", "s4", "text"], b"-----BEGIN PGP MESSAGE-----\n"),
    ] {
        ok(d, args);
        let out = args[args.iter().position(|a| *a == "-o").unwrap() + 1];
        assert!(read(d, out).starts_with(begins), "{args:?}");
    }
    for detached in ["s1", "s2"] {
        let said =
            String::from_utf8(ok(d, &["verify", "--signer", "a.cert", "--signature", detached, "text"])).unwrap();
        assert!(said.starts_with("good signature by "), "{said}");
    }
    ok(d, &["verify", "--signer", "a.cert", "-o", "back", "s3"]);
    assert_eq!(read(d, "back"), b"hello\n");

    // fpe and siv take -o for --output.
    ok(d, &["keygen", "--bytes", "32", "-o", "k"]);
    std::fs::write(d.join("cards"), "4111111111111111\n").unwrap();
    ok(d, &["fpe", "encrypt", "--key-file", "k", "--input", "cards", "-o", "tokens"]);
    ok(d, &["fpe", "decrypt", "--key-file", "k", "--input", "tokens", "-o", "cards2"]);
    assert_eq!(read(d, "cards2"), read(d, "cards"));
    ok(d, &["siv", "encrypt", "--key-file", "k", "--input", "text", "-o", "text.siv"]);
    ok(d, &["siv", "decrypt", "--key-file", "k", "--input", "text.siv", "-o", "text2"]);
    assert_eq!(read(d, "text2"), b"hello\n");
}
