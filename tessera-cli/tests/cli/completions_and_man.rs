//! `tessera completions SHELL` and `tessera man -o DIR`, generated from the
//! command-line definitions: every shell's script names the subcommands,
//! bash's parses and completes, and there is one man page per subcommand.

use std::path::Path;
use std::process::{Command, Output, Stdio};

const T: &str = env!("CARGO_BIN_EXE_tessera");

fn tessera(args: &[&str]) -> Output {
    Command::new(T).args(args).stdin(Stdio::null()).output().expect("run tessera")
}

fn ok(args: &[&str]) -> String {
    let o = tessera(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

/// The subcommand names listed under "Commands:" in `tessera [SUB] --help`
/// (without `help`).
fn subcommands(path: &[&str]) -> Vec<String> {
    let mut args = path.to_vec();
    args.push("--help");
    let help = ok(&args);
    let list = help.split("Commands:\n").nth(1).unwrap_or_else(|| panic!("no Commands: in {help}"));
    list.lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|n| n != "help")
        .collect()
}

#[test]
fn every_shell_gets_a_script_naming_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = ok(&["completions", shell]);
        for word in ["encrypt", "fpe", "rewrap", "keyset", "import-tink", "--profile", "completions"] {
            assert!(script.contains(word), "{shell} script does not name {word}");
        }
    }
    let e = tessera(&["completions", "tcsh"]);
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).contains("possible values: bash"));
}

#[test]
fn bash_script_parses_and_completes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tessera.bash");
    std::fs::write(&file, ok(&["completions", "bash"])).unwrap();
    let syntax = Command::new("bash").arg("-n").arg(&file).output().expect("run bash");
    assert!(syntax.status.success(), "bash -n: {}", String::from_utf8_lossy(&syntax.stderr));

    // What bash's programmable completion would offer after `tessera fp`
    // and after `tessera fpe encrypt --al`.
    let complete = |words: &str, cword: usize| {
        let script = format!(
            "source {}; COMP_WORDS=({words}); COMP_CWORD={cword}; COMP_LINE='{words}'; COMP_POINT=${{#COMP_LINE}}; \
             _tessera tessera \"${{COMP_WORDS[$COMP_CWORD]}}\" \"${{COMP_WORDS[$COMP_CWORD-1]}}\"; \
             echo \"${{COMPREPLY[@]}}\"",
            file.display()
        );
        let o = Command::new("bash").arg("-c").arg(script).output().expect("run bash");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap().split_whitespace().map(String::from).collect::<Vec<_>>()
    };
    assert_eq!(complete("tessera fp", 1), ["fpe"]);
    assert_eq!(complete("tessera fpe encrypt --al", 3), ["--algorithm", "--alphabet", "--allow-withdrawn"]);
}

#[test]
fn a_closed_pipe_is_one_error_line_not_a_panic() {
    // The bash script is larger than a pipe's buffer, so writing it to a
    // pipe whose reader is gone fails.
    let mut child = Command::new(T)
        .args(["completions", "bash"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tessera");
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("tessera: error: cannot write the completion script"), "{err}");
}

fn check_page(dir: &Path, name: &str) {
    let path = dir.join(format!("{name}.1"));
    let page = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}.1: {e}"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "{name}.1 is readable by everyone, as man pages are");
    }
    let th = page.lines().find(|l| l.starts_with(".TH ")).unwrap_or_else(|| panic!("{name}.1 has no .TH"));
    assert!(th.starts_with(&format!(".TH {name} 1 ")), "{name}.1: {th}");
    assert!(th.contains(concat!("\"tessera ", env!("CARGO_PKG_VERSION"), "\"")), "{name}.1: {th}");
    assert!(page.contains(".SH NAME\n") && page.contains(".SH SYNOPSIS\n"), "{name}.1");
}

#[test]
fn man_writes_one_page_per_subcommand() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("share/man/man1");
    let listed = ok(&["man", "-o", dir.to_str().unwrap()]);
    // A second run replaces the pages it wrote.
    assert_eq!(ok(&["man", "-o", dir.to_str().unwrap()]), listed);

    let mut expected = vec!["tessera".to_string()];
    for sub in subcommands(&[]) {
        expected.push(format!("tessera-{sub}"));
        let nested = tessera(&[&sub, "--help"]);
        if String::from_utf8_lossy(&nested.stdout).contains("Commands:\n") {
            expected.extend(subcommands(&[&sub]).into_iter().map(|n| format!("tessera-{sub}-{n}")));
        }
    }
    for name in ["tessera-encrypt", "tessera-fpe-encrypt", "tessera-keyset-import-tink", "tessera-man"] {
        assert!(expected.iter().any(|e| e == name), "{name} not among {expected:?}");
    }
    for name in &expected {
        check_page(&dir, name);
    }
    let mut written: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    written.sort();
    let mut want: Vec<String> = expected.iter().map(|n| format!("{n}.1")).collect();
    want.sort();
    assert_eq!(written, want, "one page per subcommand and nothing else");
    assert_eq!(listed.lines().count(), expected.len(), "stdout lists each page: {listed}");
    assert!(listed.lines().all(|l| Path::new(l).starts_with(&dir)), "{listed}");
}

#[test]
fn man_into_a_file_is_one_error_line() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("taken");
    std::fs::write(&file, b"not a directory").unwrap();
    let o = tessera(&["man", "-o", file.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("tessera: error: cannot create"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), b"not a directory");
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1, "nothing else written");
}
