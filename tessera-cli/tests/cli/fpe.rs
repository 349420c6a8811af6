//! The `tessera` binary: FPE vectors through the CLI, token formats, CSV,
//! keygen, and the failure contract (one line naming the problem, non-zero
//! exit, no output file).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn tessera(args: &[&str], stdin: &[u8]) -> Output {
    common::run_with_stdin(env!("CARGO_BIN_EXE_tessera"), args, stdin)
}

fn ok(args: &[&str], stdin: &[u8]) -> String {
    let out = tessera(args, stdin);
    assert!(out.status.success(), "tessera {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a command that must fail; returns its stderr (one line).
fn fails(args: &[&str], stdin: &[u8]) -> String {
    let out = tessera(args, stdin);
    assert!(!out.status.success(), "tessera {args:?} succeeded");
    assert!(out.stdout.is_empty() || !args.contains(&"--output"), "wrote to stdout");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line expected: {err}");
    err
}

fn key_file(dir: &Path, hex: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let p = dir.join(format!("key{}.hex", N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    std::fs::write(&p, format!("{hex}\n")).unwrap();
    p
}

const KEY: &str = "2B7E151628AED2A6ABF7158809CF4F3C";

#[test]
fn every_vector_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tessera/tests/vectors/fpe.json");
    let vectors: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for v in vectors.as_array().unwrap() {
        let s = |k: &str| v[k].as_str().unwrap();
        let key = key_file(dir.path(), s("key"));
        let alg = s("alg").to_lowercase();
        let args = |op: &'static str| {
            vec![
                "fpe",
                op,
                "--key-file",
                key.to_str().unwrap(),
                "--algorithm",
                &alg,
                "--alphabet",
                s("alphabet"),
                "--tweak",
                s("tweak"),
                // The NIST vectors of the withdrawn methods too.
                "--allow-withdrawn",
            ]
        };
        assert_eq!(ok(&args("encrypt"), format!("{}\n", s("pt")).as_bytes()), format!("{}\n", s("ct")), "{v}");
        assert_eq!(ok(&args("decrypt"), format!("{}\n", s("ct")).as_bytes()), format!("{}\n", s("pt")), "{v}");
    }
}

#[test]
fn passthrough_and_kept_digits() {
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path(), KEY);
    let k = key.to_str().unwrap();
    let args = ["--key-file", k, "--passthrough", "- ", "--keep-prefix", "6", "--keep-suffix", "4"];
    let input = "4111-1111-1111-1111\n5555 5555 5555 4444\r\n";
    let enc = ok(&[&["fpe", "encrypt"], &args[..]].concat(), input.as_bytes());
    let lines: Vec<&str> = enc.split_inclusive('\n').collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("4111-11") && lines[0].ends_with("-1111\n"), "{enc}");
    assert!(lines[1].starts_with("5555 55") && lines[1].ends_with(" 4444\r\n"), "{enc}");
    assert_ne!(enc, input);
    assert_eq!(ok(&[&["fpe", "decrypt"], &args[..]].concat(), enc.as_bytes()), input);
}

#[test]
fn csv_columns_and_everything_else_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path(), KEY);
    let k = key.to_str().unwrap();
    let input = "id,\"card\",acct,note\r\n1,4111111111111111,ab12cd34,\"hello, \"\"world\"\"\"\r\n2,\"5555555555554444\",zz99yy88,x\r\n";
    let common =
        ["--key-file", k, "--csv", "--columns", "card,acct", "--alphabet", "0123456789abcdefghijklmnopqrstuvwxyz"];
    let enc = ok(&[&["fpe", "encrypt"], &common[..]].concat(), input.as_bytes());
    let rows: Vec<&str> = enc.split("\r\n").collect();
    assert_eq!(rows[0], "id,\"card\",acct,note");
    assert!(rows[1].starts_with("1,") && rows[1].ends_with(",\"hello, \"\"world\"\"\""), "{enc}");
    assert!(rows[2].starts_with("2,\"") && rows[2][3..].contains("\",") && rows[2].ends_with(",x"), "{enc}");
    assert_ne!(rows[1], "1,4111111111111111,ab12cd34,\"hello, \"\"world\"\"\"");
    assert_eq!(ok(&[&["fpe", "decrypt"], &common[..]].concat(), enc.as_bytes()), input);
    let err = fails(&["fpe", "encrypt", "--key-file", k, "--csv", "--columns", "nope"], input.as_bytes());
    assert!(err.contains("\"nope\" is not in the CSV header"), "{err}");
}

#[test]
fn bad_input_names_the_line_and_writes_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path(), KEY);
    let k = key.to_str().unwrap();
    let out = dir.path().join("out.txt");
    let o = out.to_str().unwrap();
    let input = dir.path().join("in.txt");
    let i = input.to_str().unwrap();
    let cases: [(&[u8], &str); 4] = [
        (b"123456789\n1234567890\n12345x7890\n", "line 3: character 'x' at position 5 is not in the alphabet"),
        (b"123456789\n12345\n", "line 2: length 5 is outside the domain 6..="),
        (b"123456789\n\n123456\n", "line 2: empty value"),
        (b"123456789\n99999999\xff\n", "line 2: value is not valid UTF-8"),
    ];
    for (data, want) in cases {
        std::fs::write(&input, data).unwrap();
        let err = fails(&["fpe", "encrypt", "--key-file", k, "--input", i, "--output", o], b"");
        assert!(err.contains(want), "{err:?} should contain {want:?}");
        assert!(!out.exists(), "output file left behind");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains("partial"))
            .collect();
        assert!(leftovers.is_empty(), "temporary file left behind");
    }
    // A good run creates the file.
    std::fs::write(&input, "0123456789\n").unwrap();
    ok(&["fpe", "encrypt", "--key-file", k, "--input", i, "--output", o, "--tweak", "39383736353433323130"], b"");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "6124200773\n");
}

#[test]
fn bad_keys_and_options_are_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "00112233445566778899aabbccddeeffzz";
    let bad = key_file(dir.path(), secret);
    let err = fails(&["fpe", "encrypt", "--key-file", bad.to_str().unwrap()], b"123456\n");
    assert!(err.contains("does not hold a hex key"), "{err}");
    assert!(!err.contains("001122"), "key material in error: {err}");
    let short = key_file(dir.path(), "00112233445566778899aabbccddee");
    let err = fails(&["fpe", "encrypt", "--key-file", short.to_str().unwrap()], b"123456\n");
    assert!(err.contains("key is 15 bytes"), "{err}");
    assert!(!err.contains("001122"), "key material in error: {err}");
    let err = fails(&["fpe", "encrypt", "--key-file", "/nonexistent/key"], b"123456\n");
    assert!(err.contains("cannot read key file /nonexistent/key"), "{err}");
    let key = key_file(dir.path(), KEY);
    let k = key.to_str().unwrap();
    let err = fails(
        &["fpe", "encrypt", "--key-file", k, "--algorithm", "ff3-1", "--allow-withdrawn", "--tweak", "0011"],
        b"123456\n",
    );
    assert!(err.contains("tweak is 2 bytes; expected 7"), "{err}");
    let err = fails(&["fpe", "encrypt", "--key-file", k, "--alphabet", "0120"], b"123456\n");
    assert!(err.contains("repeats a character"), "{err}");
    let err = fails(&["fpe", "encrypt", "--key-file", k, "--passthrough", "5"], b"123456\n");
    assert!(err.contains("also in the alphabet"), "{err}");
}

#[test]
fn large_input_streams_in_batches() {
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path(), KEY);
    let k = key.to_str().unwrap();
    let mut input = String::new();
    for i in 0..50_000u64 {
        input.push_str(&format!("{:016}\n", i.wrapping_mul(0x9e3779b97f4a7c15) % 10_000_000_000_000_000));
    }
    let enc = ok(&["fpe", "encrypt", "--key-file", k, "--tweak", "abcd"], input.as_bytes());
    assert_eq!(enc.lines().count(), 50_000);
    assert_eq!(ok(&["fpe", "decrypt", "--key-file", k, "--tweak", "abcd"], enc.as_bytes()), input);
    // Same as the library, value by value, on a sample.
    use tessera::fpe::{Alphabet, FF1, Fpe};
    let ff1 = FF1::new(&hex::decode(KEY).unwrap(), Alphabet::digits()).unwrap();
    for (p, c) in input.lines().zip(enc.lines()).step_by(997) {
        assert_eq!(ff1.encrypt(&[0xab, 0xcd], p).unwrap(), c);
    }
}

#[test]
fn keygen_writes_fresh_keys_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.hex");
    let p = path.to_str().unwrap();
    ok(&["keygen", "--bytes", "32", "-o", p], b"");
    let key = std::fs::read_to_string(&path).unwrap();
    assert_eq!(key.trim().len(), 64);
    assert!(key.trim().bytes().all(|b| b.is_ascii_hexdigit()));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let err = fails(&["keygen", "--bytes", "32", "-o", p], b"");
    assert!(err.contains("never overwritten"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), key);
    let a = ok(&["keygen", "--bytes", "16"], b"");
    let b = ok(&["keygen", "--bytes", "16"], b"");
    assert_eq!(a.trim().len(), 32);
    assert_ne!(a, b);
    assert!(fails(&["keygen", "--bytes", "20"], b"").contains("--bytes must be"));
    // A generated key works.
    ok(&["fpe", "encrypt", "--key-file", p], b"123456\n");
}

/// A key file that cannot be written whole (a file size limit of 0 makes
/// the write fail with EFBIG) is an error and leaves nothing behind: no
/// empty or partial key file under the name, no temporary file.
#[cfg(target_os = "linux")]
#[test]
fn keygen_leaves_no_key_file_when_the_write_fails() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.hex");
    let script = "trap '' XFSZ; ulimit -f 0; exec \"$0\" keygen --bytes 64 -o \"$1\"";
    let out = std::process::Command::new("sh")
        .args(["-c", script, env!("CARGO_BIN_EXE_tessera"), path.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("cannot write"), "{err}");
    assert!(!path.exists(), "a key file was left behind: {:?}", std::fs::read(&path));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "a temporary file was left behind");
}

#[test]
fn key_from_the_environment_never_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path(), KEY);
    let input = dir.path().join("in.txt");
    std::fs::write(&input, "0123456789\n").unwrap();
    let run = |args: &[&str], value: Option<&str>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"));
        c.args(args).arg("--input").arg(&input).env_remove("TESSERA_TEST_KEY");
        if let Some(v) = value {
            c.env("TESSERA_TEST_KEY", v);
        }
        c.output().unwrap()
    };
    let env_args = ["fpe", "encrypt", "--key-env", "TESSERA_TEST_KEY"];
    let from_file = run(&["fpe", "encrypt", "--key-file", key.to_str().unwrap()], None);
    let from_env = run(&env_args, Some(&format!(" {KEY}\n")));
    assert!(from_env.status.success(), "{}", String::from_utf8_lossy(&from_env.stderr));
    // NIST SP 800-38G FF1 sample 1.
    assert_eq!(from_env.stdout, b"2433477484\n");
    assert_eq!(from_env.stdout, from_file.stdout);

    let failure = |o: Output| {
        assert!(!o.status.success());
        String::from_utf8(o.stderr).unwrap()
    };
    let err = failure(run(&env_args, None));
    assert!(err.contains("environment variable TESSERA_TEST_KEY is not set"), "{err}");
    let err = failure(run(&env_args, Some("00112233445566778899aabbccddeeffzz")));
    assert!(err.contains("environment variable TESSERA_TEST_KEY does not hold a hex key"), "{err}");
    assert!(!err.contains("001122"), "key material in error: {err}");
    let err = failure(run(&["fpe", "encrypt", "--key-file", key.to_str().unwrap(), "--key-env", "X"], None));
    assert!(err.contains("cannot be used with"), "{err}");
    let err = failure(run(&["fpe", "encrypt"], None));
    assert!(err.contains("--key-file") && err.contains("--key-env"), "{err}");
}

#[test]
fn threads_keep_order_line_endings_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path(), KEY);
    let k = key.to_str().unwrap();
    // More than two batches, CRLF and LF, no final newline.
    let mut lines = String::new();
    for i in 0..20_000u64 {
        let term = if i % 3 == 0 { "\r\n" } else { "\n" };
        lines.push_str(&format!("{:012}{term}", i * 7919));
    }
    lines.push_str("123456789"); // no final newline
    let mut csv = String::from("id,\"card\",note\r\n");
    for i in 0..20_000u64 {
        csv.push_str(&format!("{i},\"{:016}\",\"a, \"\"b\"\"\nc\"\r\n", i * 104_729));
    }
    let run = |extra: &[&str], input: &str, threads: &str| {
        let mut args = vec!["fpe", "encrypt", "--key-file", k, "--threads", threads];
        args.extend_from_slice(extra);
        tessera(&args, input.as_bytes())
    };
    for (extra, input) in [(&[][..], &lines), (&["--csv", "--columns", "card"][..], &csv)] {
        let one = run(extra, input, "1");
        assert!(one.status.success());
        for threads in ["2", "4"] {
            assert_eq!(run(extra, input, threads).stdout, one.stdout, "--threads {threads}");
        }
    }
    // An error in the middle: the same message, and no output file.
    let mut bad = lines.clone();
    let at = bad[150_000..].find('\n').unwrap() + 150_001;
    bad.insert_str(at, "12x4567\n");
    let line = bad[..at].matches('\n').count() + 1;
    let out = dir.path().join("out.txt");
    let o = out.to_str().unwrap();
    let one = fails(&["fpe", "encrypt", "--key-file", k, "--threads", "1", "--output", o], bad.as_bytes());
    assert_eq!(one, format!("tessera: error: line {line}: character 'x' at position 2 is not in the alphabet\n"));
    for threads in ["2", "4"] {
        let many = fails(&["fpe", "encrypt", "--key-file", k, "--threads", threads, "--output", o], bad.as_bytes());
        assert_eq!(many, one);
        assert!(!out.exists());
    }
}
