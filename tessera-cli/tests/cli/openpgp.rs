//! `tessera encrypt` / `tessera decrypt` through the binary: defaults,
//! failures that leave no output file, and interop in both directions with
//! GnuPG 2.2 and OpenPGP.js 6 (scripts/install-npm-peers).

use crate::common;
#[path = "../../../tessera/tests/common/quick_check.rs"]
mod quick_check;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn tessera() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
}

fn run(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null()).output().expect("run")
}

fn ok(cmd: &mut Command) -> Output {
    let o = run(cmd);
    assert!(o.status.success(), "{cmd:?} failed: {}", String::from_utf8_lossy(&o.stderr));
    o
}

fn data(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i as u32).wrapping_mul(2654435761).rotate_left(11) as u8).collect()
}

struct Dir {
    dir: tempfile::TempDir,
}

impl Dir {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        common::write_private(&dir.path().join("pw"), b"hunter2 with spaces\n");
        Dir { dir }
    }
    fn p(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn write(&self, name: &str, content: &[u8]) -> PathBuf {
        let p = self.p(name);
        common::write_private(&p, content);
        p
    }
}

const PASSWORD: &str = "hunter2 with spaces";
const CHEAP: [&str; 4] = ["--s2k", "iterated", "--s2k-count", "0"];

fn require_peers() -> bool {
    std::env::var_os("TESSERA_REQUIRE_PEERS").is_some()
}

#[test]
fn defaults_are_seipd_v2_ocb_aes256_chunk_12_argon2() {
    let d = Dir::new();
    let input = d.write("in.bin", &data(300_000));
    ok(tessera().args(["encrypt", "--password-file"]).arg(d.p("pw")).arg("-o").arg(d.p("ct")).arg(&input));
    let ct = std::fs::read(d.p("ct")).unwrap();
    // SKESK v6: new header 0xc3, length, 6, count, AES-256, OCB, S2K length 20, Argon2 t=3 p=4 m=16.
    assert_eq!(ct[0], 0xc3);
    let b = &ct[2..];
    assert_eq!(&b[..5], &[6, 3 + 20 + 15, 9, 2, 20]);
    assert_eq!(b[5], 4);
    assert_eq!(&b[22..25], &[3, 4, 16]);
    // SEIPD v2 (partial lengths): version 2, AES-256, OCB, chunk octet 12.
    let s = &ct[2 + ct[1] as usize..];
    assert_eq!(s[0], 0xc0 | 18);
    assert!((224..255).contains(&s[1]), "partial body length");
    assert_eq!(&s[2..6], &[2, 9, 2, 12]);
    ok(tessera().args(["decrypt", "--password-file"]).arg(d.p("pw")).arg("-o").arg(d.p("out")).arg(d.p("ct")));
    assert_eq!(std::fs::read(d.p("out")).unwrap(), data(300_000));
}

#[test]
fn every_option_round_trips_through_files_and_pipes() {
    let d = Dir::new();
    let plain = data(70_000);
    let input = d.write("in.bin", &plain);
    for aead in ["ocb", "eax", "gcm"] {
        for cipher in ["aes128", "aes192", "aes256"] {
            for (octet, armor) in [("0", false), ("4", true), ("16", false)] {
                let mut c = tessera();
                c.args(["encrypt", "--password-file"]).arg(d.p("pw"));
                c.args(["--aead", aead, "--cipher", cipher, "--chunk-size-octet", octet]).args(CHEAP);
                if armor {
                    c.arg("--armor");
                }
                c.arg("-o").arg(d.p("ct")).arg(&input);
                ok(&mut c);
                // Decrypt from stdin to stdout.
                let o = Command::new(env!("CARGO_BIN_EXE_tessera"))
                    .args(["decrypt", "--password-file"])
                    .arg(d.p("pw"))
                    .stdin(std::fs::File::open(d.p("ct")).unwrap())
                    .output()
                    .unwrap();
                assert!(o.status.success(), "{aead} {cipher} {octet}: {}", String::from_utf8_lossy(&o.stderr));
                assert_eq!(o.stdout, plain, "{aead} {cipher} {octet} armor={armor}");
            }
        }
    }
    for profile_args in [&["--profile", "rfc4880"][..], &["--profile", "rfc4880", "--armor"][..]] {
        ok(tessera()
            .args(["encrypt", "--password-file"])
            .arg(d.p("pw"))
            .args(profile_args)
            .args(CHEAP)
            .arg("-o")
            .arg(d.p("v1"))
            .arg(&input));
        let o = ok(tessera().args(["decrypt", "--password-file"]).arg(d.p("pw")).arg(d.p("v1")));
        assert_eq!(o.stdout, plain);
    }
}

/// A file on stdin is read at offsets, by every chunk worker, from where
/// stdin's position is (what a shell that read part of it left), and the
/// same from a path, from a pipe and on one thread.
#[test]
fn files_on_stdin_from_their_position_on_every_thread_count() {
    use std::io::{Seek, SeekFrom};
    let d = Dir::new();
    let plain = data(3_000_017);
    let input = d.write("in.bin", &plain);
    for threads in ["1", "2", "4"] {
        for skip in [0u64, 1000] {
            let mut stdin = std::fs::File::open(&input).unwrap();
            stdin.seek(SeekFrom::Start(skip)).unwrap();
            let o = tessera()
                .args(["encrypt", "--password-file"])
                .arg(d.p("pw"))
                .args(CHEAP)
                .args(["--threads", threads])
                .stdin(stdin)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let ct = d.write("ct", &o.stdout);
            let o = ok(tessera().args(["decrypt", "--password-file"]).arg(d.p("pw")).arg(&ct));
            assert!(o.stdout == plain[skip as usize..], "threads={threads} skip={skip}");
        }
    }
    // stdin is left at its end: what follows in the shell reads nothing more.
    assert_stdin_left_at_end(&d, "encrypt --s2k iterated --s2k-count 0", &input);
    let mut c = tessera();
    c.args(["encrypt", "--password-file"]).arg(d.p("pw")).args(CHEAP).arg(&input);
    let by_path = ok(&mut c).stdout;
    let mut child = tessera()
        .args(["encrypt", "--password-file"])
        .arg(d.p("pw"))
        .args(CHEAP)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let feeder = std::thread::spawn({
        let plain = plain.clone();
        move || std::io::Write::write_all(&mut pipe, &plain).unwrap()
    });
    let by_pipe = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(by_pipe.status.success());
    for ct in [by_path, by_pipe.stdout] {
        let ct = d.write("ct", &ct);
        assert!(ok(tessera().args(["decrypt", "--password-file"]).arg(d.p("pw")).arg(&ct)).stdout == plain);
    }
}

#[test]
fn decrypts_files_on_stdin_from_their_position_on_every_thread_count() {
    use std::io::{Seek, SeekFrom};
    let d = Dir::new();
    let plain = data(3_000_017);
    let input = d.write("in.bin", &plain);
    let ct = ok(tessera().args(["encrypt", "--password-file"]).arg(d.p("pw")).args(CHEAP).arg(&input)).stdout;
    let prefixed = d.write("prefixed", &[&b"something else first"[..], &ct].concat());
    let ct_path = d.write("ct", &ct);
    for threads in ["1", "2", "4"] {
        let mut stdin = std::fs::File::open(&prefixed).unwrap();
        stdin.seek(SeekFrom::Start(20)).unwrap();
        let mut c = tessera();
        let o = c.args(["decrypt", "--password-file"]).arg(d.p("pw")).args(["--threads", threads]).stdin(stdin);
        let o = o.output().unwrap();
        assert!(o.status.success() && o.stdout == plain, "stdin, threads={threads}");
        let mut c = tessera();
        c.args(["decrypt", "--password-file"]).arg(d.p("pw")).args(["--threads", threads]).arg(&ct_path);
        assert!(ok(&mut c).stdout == plain, "--input, threads={threads}");
    }
    // Cut anywhere: an error, and no output file (at every core: at offsets).
    for cut in [40, ct.len() / 2, ct.len() - 17, ct.len() - 1] {
        let cut_path = d.write("cut", &ct[..cut]);
        assert_fails_without_output(&d, &cut_path, &d.p("pw"), "");
    }
    // stdin is left at the message's end.
    assert_stdin_left_at_end(&d, "decrypt", &ct_path);
    // A pipe is read as a stream.
    let mut child = tessera()
        .args(["decrypt", "--password-file"])
        .arg(d.p("pw"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || std::io::Write::write_all(&mut pipe, &ct).unwrap());
    let o = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(o.status.success() && o.stdout == plain, "{}", String::from_utf8_lossy(&o.stderr));
}

/// Runs `tessera SUBCOMMAND --password-file pw` in a shell with stdin from
/// `input`, then `wc -c` on the same stdin: tessera must leave it at its end.
fn assert_stdin_left_at_end(d: &Dir, subcommand: &str, input: &Path) {
    let script = format!(
        "{{ \"$0\" {subcommand} --password-file {} >/dev/null; wc -c; }} < {}",
        d.p("pw").display(),
        input.display()
    );
    let o = ok(Command::new("sh").arg("-c").arg(&script).arg(env!("CARGO_BIN_EXE_tessera")));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "0", "{subcommand}");
}

fn assert_fails_without_output(d: &Dir, ct: &Path, pw: &Path, needle: &str) {
    let out = d.p("should-not-exist");
    let o = run(tessera().args(["decrypt", "--password-file"]).arg(pw).arg("-o").arg(&out).arg(ct));
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "{needle:?} not in {err:?}");
    assert!(!err.contains(PASSWORD), "the password is never printed");
    assert!(!out.exists(), "no output file after a failure");
    let leftovers: Vec<_> = std::fs::read_dir(d.dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files removed");
}

#[test]
fn password_from_the_environment() {
    let d = Dir::new();
    let plain = data(5_000);
    let input = d.write("in.bin", &plain);
    let mut c = tessera();
    c.args(["encrypt", "--password-env", "TESSERA_TEST_PW"]).args(CHEAP).arg("-o").arg(d.p("ct")).arg(&input);
    ok(c.env("TESSERA_TEST_PW", PASSWORD));
    // The file form strips one trailing newline; the variable is taken as is.
    let o = ok(tessera().args(["decrypt", "--password-file"]).arg(d.p("pw")).arg(d.p("ct")));
    assert_eq!(o.stdout, plain);
    let o = ok(tessera()
        .args(["decrypt", "--password-env", "TESSERA_TEST_PW"])
        .arg(d.p("ct"))
        .env("TESSERA_TEST_PW", PASSWORD));
    assert_eq!(o.stdout, plain);
    let o = run(tessera()
        .args(["decrypt", "--password-env", "TESSERA_TEST_PW"])
        .arg(d.p("ct"))
        .env_remove("TESSERA_TEST_PW"));
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("environment variable TESSERA_TEST_PW is not set"));
    let o = run(tessera()
        .args(["decrypt", "--password-env", "TESSERA_TEST_PW"])
        .arg(d.p("ct"))
        .env("TESSERA_TEST_PW", "wrong"));
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("wrong password") && !err.contains(PASSWORD), "{err}");
}

#[test]
fn failures_name_the_problem_and_write_nothing() {
    let d = Dir::new();
    let plain = data(600_000);
    let input = d.write("in.bin", &plain);
    for profile in ["rfc9580", "rfc4880"] {
        ok(tessera()
            .args(["encrypt", "--password-file"])
            .arg(d.p("pw"))
            .args(["--profile", profile, "--chunk-size-octet", "10"])
            .args(CHEAP)
            .arg("-o")
            .arg(d.p("ct"))
            .arg(&input));
        let ct = std::fs::read(d.p("ct")).unwrap();
        // v1: a wrong password whose key passes the quick check (1 in
        // 65,536) is reported as a modified message (quick_check.rs).
        let mut wrong = quick_check::failing_password(&ct, "hunter3");
        wrong.push(b'\n');
        let wrong = d.write("wrong", &wrong);
        assert_fails_without_output(&d, &d.p("ct"), &wrong, "wrong password");
        // A byte modified in the last part of the data (after earlier chunks verified).
        let mut bad = ct.clone();
        let k = bad.len() - 100;
        bad[k] ^= 1;
        let bad = d.write("bad", &bad);
        assert_fails_without_output(&d, &bad, &d.p("pw"), "authentication failed");
        // Truncated at a chunk boundary region and in the middle.
        for cut in [ct.len() - 16, ct.len() / 2, 40] {
            let t = d.write("cut", &ct[..cut]);
            let o = run(tessera().args(["decrypt", "--password-file"]).arg(d.p("pw")).arg("-o").arg(d.p("x")).arg(&t));
            assert!(!o.status.success(), "{profile} cut {cut}");
            assert!(!d.p("x").exists());
        }
    }
    let o = run(tessera().args(["decrypt", "--password-file"]).arg(d.p("missing")).arg(&input));
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("password file"));
    let o = run(tessera()
        .args(["encrypt", "--password-file"])
        .arg(d.p("pw"))
        .args(["--profile", "rfc4880", "--s2k", "argon2"])
        .arg(&input));
    assert!(!o.status.success());
    let o = run(tessera()
        .args(["encrypt", "--password-file"])
        .arg(d.p("pw"))
        .args(["--chunk-size-octet", "17"])
        .arg(&input));
    assert!(!o.status.success());
}

// ---- GnuPG 2.2 ----

fn gpg() -> Option<PathBuf> {
    let ok = Command::new("gpg").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if ok {
        return Some(PathBuf::from("gpg"));
    }
    if require_peers() {
        panic!("gpg missing: run scripts/install-npm-peers");
    }
    eprintln!("skipped: gpg not installed (scripts/install-npm-peers)");
    None
}

fn gpg_cmd(gpg: &Path, home: &Path) -> Command {
    let mut c = Command::new(gpg);
    c.arg("--homedir").arg(home).args(["--batch", "--quiet", "--no-tty", "--pinentry-mode", "loopback"]);
    c.args(["--passphrase", PASSWORD]);
    c
}

#[test]
fn gnupg_both_directions() {
    let Some(gpg) = gpg() else { return };
    let d = Dir::new();
    let home = d.p("gnupg");
    std::fs::create_dir(&home).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let plain = data(1_000_003);
    let input = d.write("in.bin", &plain);
    // gpg --symmetric: default (compressed), each cipher, armored, uncompressed.
    for extra in [
        &[][..],
        &["--cipher-algo", "AES128"][..],
        &["--cipher-algo", "AES192", "--compress-algo", "zip"][..],
        &["--armor", "--compress-algo", "zlib"][..],
        &["--compress-algo", "none"][..],
    ] {
        let ct = d.p("g.pgp");
        let _ = std::fs::remove_file(&ct);
        ok(gpg_cmd(&gpg, &home).arg("--symmetric").args(extra).arg("-o").arg(&ct).arg(&input));
        // SEIPD v1 opened with the MDC's SHA-1 inline and on its own thread.
        for threads in ["1", "2"] {
            let out = d.p("g.out");
            let _ = std::fs::remove_file(&out);
            let mut c = tessera();
            c.args(["decrypt", "--threads", threads, "--password-file"]).arg(d.p("pw"));
            ok(c.arg("-o").arg(&out).arg(&ct));
            assert_eq!(std::fs::read(&out).unwrap(), plain, "gpg {extra:?}, {threads} threads");
        }
    }
    // tessera --profile rfc4880 read by gpg, sealed with the MDC's SHA-1
    // inline and on its own thread.
    for (cipher, armor, threads) in [("aes256", false, "1"), ("aes128", true, "2"), ("aes192", false, "0")] {
        let ct = d.p("t.pgp");
        let mut c = tessera();
        c.args(["encrypt", "--threads", threads, "--password-file"]).arg(d.p("pw"));
        c.args(["--profile", "rfc4880", "--cipher", cipher]);
        if armor {
            c.arg("--armor");
        }
        ok(c.arg("-o").arg(&ct).arg(&input));
        let out = d.p("t.out");
        let _ = std::fs::remove_file(&out);
        ok(gpg_cmd(&gpg, &home).arg("--decrypt").arg("-o").arg(&out).arg(&ct));
        assert_eq!(std::fs::read(&out).unwrap(), plain, "gpg reads rfc4880 {cipher} armor={armor} threads={threads}");
    }
}

// ---- OpenPGP.js 6 ----

fn openpgp_js() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tessera/tests/js");
    let ok = dir.join("node_modules/openpgp").is_dir()
        && Command::new("node").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if ok {
        return Some(dir.join("pgp.mjs"));
    }
    if require_peers() {
        panic!("OpenPGP.js missing: run scripts/install-npm-peers");
    }
    eprintln!("skipped: OpenPGP.js not installed (scripts/install-npm-peers)");
    None
}

fn node(script: &Path, args: &[&str], input: &Path) -> Vec<u8> {
    let o = Command::new("node").arg(script).args(args).stdin(std::fs::File::open(input).unwrap()).output().unwrap();
    assert!(o.status.success(), "node {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

#[test]
fn openpgp_js_both_directions() {
    let Some(js) = openpgp_js() else { return };
    let d = Dir::new();
    let plain = data(300_001);
    let input = d.write("in.bin", &plain);
    // OpenPGP.js writes, tessera reads.
    for (aead, chunk, s2k, armor, cipher) in [
        ("ocb", "6", "argon2", "1", "aes256"),
        ("eax", "0", "iterated", "0", "aes128"),
        ("gcm", "12", "iterated", "1", "aes192"),
        ("ocb", "16", "iterated", "0", "aes128"),
        ("none", "6", "iterated", "0", "aes256"),
    ] {
        let ct = node(&js, &["encrypt", PASSWORD, aead, chunk, s2k, armor, cipher], &input);
        let ct = d.write("js.pgp", &ct);
        let o = ok(tessera().args(["decrypt", "--password-file"]).arg(d.p("pw")).arg(&ct));
        assert_eq!(o.stdout, plain, "OpenPGP.js {aead} chunk {chunk} {s2k} armor {armor} {cipher}");
    }
    // tessera writes, OpenPGP.js reads.
    for (aead, chunk, s2k, armor, cipher) in [
        ("ocb", "12", "argon2", true, "aes256"),
        ("eax", "0", "iterated", false, "aes128"),
        ("gcm", "4", "iterated", true, "aes192"),
        ("ocb", "16", "iterated", false, "aes256"),
    ] {
        let mut c = tessera();
        c.args(["encrypt", "--password-file"]).arg(d.p("pw"));
        c.args(["--aead", aead, "--chunk-size-octet", chunk, "--s2k", s2k, "--cipher", cipher]);
        if s2k == "iterated" {
            c.args(["--s2k-count", "96"]);
        }
        if armor {
            c.arg("--armor");
        }
        ok(c.arg("-o").arg(d.p("t.pgp")).arg(&input));
        let back = node(&js, &["decrypt", PASSWORD], &d.p("t.pgp"));
        assert_eq!(back, plain, "OpenPGP.js reads tessera {aead} {chunk} {s2k} armor {armor} {cipher}");
    }
    // rfc4880 profile too.
    ok(tessera()
        .args(["encrypt", "--password-file"])
        .arg(d.p("pw"))
        .args(["--profile", "rfc4880"])
        .args(CHEAP)
        .arg("-o")
        .arg(d.p("v1.pgp"))
        .arg(&input));
    assert_eq!(node(&js, &["decrypt", PASSWORD], &d.p("v1.pgp")), plain);
}

// ---- tessera-sop ----

fn sop(args: &[&str], stdin: &[u8]) -> Output {
    common::run_with_stdin(env!("CARGO_BIN_EXE_tessera-sop"), args, stdin)
}

#[test]
fn sop_subset_and_exit_codes() {
    let d = Dir::new();
    let pw = d.p("pw");
    let pw = pw.to_str().unwrap();
    let plain = data(100_000);
    let o = sop(&["version"], b"");
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).starts_with("tessera-sop "));
    let o = sop(&["list-profiles", "encrypt"], b"");
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("rfc9580: "));
    for profile in ["rfc9580", "rfc4880"] {
        let p = format!("--profile={profile}");
        let w = format!("--with-password={pw}");
        let ct = sop(&["encrypt", &w, &p], &plain);
        assert!(ct.status.success(), "{}", String::from_utf8_lossy(&ct.stderr));
        assert!(ct.stdout.starts_with(b"-----BEGIN PGP MESSAGE-----"));
        let skf = d.p(&format!("sk-{profile}"));
        let skarg = format!("--session-key-out={}", skf.display());
        let o = sop(&["decrypt", &w, &skarg], &ct.stdout);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(o.stdout, plain);
        let sk = std::fs::read_to_string(&skf).unwrap();
        assert!(sk.starts_with("9:"), "{sk}");
        let o = sop(&["decrypt", &format!("--with-session-key={}", skf.display())], &ct.stdout);
        assert_eq!(o.stdout, plain, "{profile} with the session key");
        // dearmor | armor round trip, and binary output with --no-armor.
        let bin = sop(&["dearmor"], &ct.stdout).stdout;
        assert!(bin[0] & 0x80 != 0);
        let again = sop(&["armor"], &bin).stdout;
        assert_eq!(sop(&["decrypt", &w], &again).stdout, plain);
        let nb = sop(&["encrypt", &w, "--no-armor", &p], &plain);
        assert!(nb.stdout[0] & 0x80 != 0);
        assert_eq!(sop(&["decrypt", &w], &nb.stdout).stdout, plain);
        // v1: "nope" unless its key passes the quick check (1 in 65,536; then
        // the error is bad data, 41, as for a modified message).
        let nope = quick_check::failing_password(&ct.stdout, "nope");
        let wrong = d.write("wrong", &nope);
        let o = sop(&["decrypt", &format!("--with-password={}", wrong.display())], &ct.stdout);
        assert_eq!(o.status.code(), Some(29), "{profile}: cannot decrypt");
        assert!(o.stdout.is_empty());
    }
    assert_eq!(sop(&["sign"], b"").status.code(), Some(19), "sign needs a key");
    assert_eq!(sop(&["frobnicate"], b"").status.code(), Some(69));
    assert_eq!(sop(&["encrypt", "--frob"], b"").status.code(), Some(37));
    assert_eq!(sop(&["encrypt"], b"x").status.code(), Some(19));
    assert_eq!(sop(&["decrypt"], b"x").status.code(), Some(19));
    assert_eq!(sop(&["decrypt", &format!("--with-password={pw}")], b"garbage").status.code(), Some(41));
    assert_eq!(sop(&["encrypt", &format!("--with-password={pw}"), "--profile=nope"], b"x").status.code(), Some(89));
}
