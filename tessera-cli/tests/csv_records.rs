//! `tessera fpe --csv` and `tessera siv --csv` on files that other CSV
//! readers (Python's `csv`, RFC 4180) read one way: tessera reads them the
//! same way or refuses them; it never writes a value of a named column in
//! clear with exit code 0, and its errors print nothing from the file.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn tessera(args: &[&str], stdin: &[u8]) -> Output {
    common::run_with_stdin(env!("CARGO_BIN_EXE_tessera"), args, stdin)
}

fn key_file(dir: &Path) -> PathBuf {
    let p = dir.join("key.hex");
    std::fs::write(&p, "2B7E151628AED2A6ABF7158809CF4F3C\n").unwrap();
    p
}

/// `fpe encrypt --csv --columns COLUMNS` at 1 and 3 threads.
fn encrypt_csv(columns: &str, input: &[u8]) -> [Output; 2] {
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path());
    ["1", "3"].map(|t| {
        let args =
            ["fpe", "encrypt", "--key-file", key.to_str().unwrap(), "--csv", "--columns", columns, "--threads", t];
        tessera(&args, input)
    })
}

/// The output of a run that must succeed, the same at 1 and 3 threads.
fn encrypted(columns: &str, input: &[u8]) -> String {
    let [one, three] = encrypt_csv(columns, input);
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    assert_eq!(one.stdout, three.stdout);
    assert!(three.status.success());
    String::from_utf8(one.stdout).unwrap()
}

/// The one-line error of a run that must fail, the same at 1 and 3
/// threads; it must not contain `clear`.
fn refused(columns: &str, input: &[u8], clear: &[&str]) -> String {
    let [one, three] = encrypt_csv(columns, input);
    assert!(!one.status.success() && !three.status.success());
    assert_eq!(one.stderr, three.stderr);
    let err = String::from_utf8(one.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    for c in clear {
        assert!(!err.contains(c), "the error prints {c}: {err}");
    }
    err
}

/// Checks that `out` is `input` with each value of `cards` replaced by a
/// different value of the same length, and every other byte kept.
fn only_cards_changed(input: &str, out: &str, cards: &[&str]) {
    assert_eq!(input.len(), out.len(), "{out:?}");
    let mut expected = input.to_string();
    for c in cards {
        let at = input.find(c).unwrap();
        assert_ne!(&out[at..at + c.len()], *c, "{c} written in clear: {out:?}");
        expected.replace_range(at..at + c.len(), &out[at..at + c.len()]);
    }
    assert_eq!(out, expected);
}

#[test]
fn a_quote_inside_an_unquoted_field_is_a_literal_character() {
    let input = "id,card,note\n1,1111111111,5\" screen\n2,2222222222,ok\n3,3333333333,7\" tablet\n4,4444444444,ok\n";
    let out = encrypted("card", input.as_bytes());
    only_cards_changed(input, &out, &["1111111111", "2222222222", "3333333333", "4444444444"]);
}

#[test]
fn a_closing_quote_followed_by_more_text_is_refused_with_its_line() {
    let input = "id,card,note\n1,1111111111,x\n2,2222222222,\"5\" screen\"\n3,3333333333,y\n";
    let err = refused("card", input.as_bytes(), &["2222222222", "screen"]);
    assert!(err.contains("line 3: a closing quote is followed by"), "{err}");
}

#[test]
fn cr_lf_and_crlf_each_end_a_record_and_are_kept() {
    let input = "id,card,note\r1,1111111111,x\r2,2222222222,y\r\n3,3333333333,\"a\rb\r\nc\"\n4,4444444444,z\r";
    let out = encrypted("card", input.as_bytes());
    only_cards_changed(input, &out, &["1111111111", "2222222222", "3333333333", "4444444444"]);
    // Lines are counted the same way: CR, LF and CRLF each end one.
    let bad = "id,card\r1,1111111\r\n\"x\ry\r\nz\",2222222\n3,12a4\r";
    let err = refused("card", bad.as_bytes(), &[]);
    assert!(err.starts_with("tessera: error: line 6, column \"card\""), "{err}");
}

#[test]
fn a_missing_column_error_prints_nothing_from_the_file() {
    // Without a header (or misread), the first record is data.
    let err = refused("card", b"1,x,1111111111\n2,y,2222222222\n", &["1111111111", "x"]);
    assert!(err.contains("column \"card\" is not in the CSV header (a header of 3 fields)"), "{err}");
}

#[test]
fn a_row_with_more_or_fewer_fields_than_the_header_is_refused() {
    let more = "name,card\nDoe,4000000000000002\nSmith, John,4111111111111111\n";
    let err = refused("card", more.as_bytes(), &["4111111111111111", "Smith"]);
    assert!(err.ends_with("line 3: the record has 3 fields, the header 2\n"), "{err}");
    let fewer = "name,card,x\nDoe,4000000000000002,1\nSmith\n";
    let err = refused("card", fewer.as_bytes(), &["Smith"]);
    assert!(err.ends_with("line 3: the record has 1 fields, the header 3\n"), "{err}");
}

#[test]
fn a_byte_order_mark_is_kept_and_not_part_of_the_first_name() {
    let input = "\u{FEFF}card,\"id\"\r\n1111111111,\"123456\"\r\n";
    let out = encrypted("card,id", input.as_bytes());
    assert!(out.starts_with("\u{FEFF}card,\"id\"\r\n") && !out.ends_with(",\"123456\"\r\n"), "{out:?}");
    only_cards_changed(input, &out, &["1111111111", "123456"]);
}

#[test]
fn line_numbers_count_a_header_that_spans_two_lines() {
    let err = refused("card\nnumber", b"id,\"card\nnumber\",x\n1,12a4,y\n", &[]);
    assert!(err.contains("line 3, column"), "{err}");
}

#[test]
fn the_first_error_in_input_order_is_reported() {
    // A bad value, then an unclosed quote in the same batch.
    let input = "id,card\n1,12a4\n2,1111111111\n3,\"2222222222\n";
    let err = refused("card", input.as_bytes(), &[]);
    assert!(err.contains("line 2, column \"card\""), "{err}");
}

/// Counts the bytes allocated by this test binary, and their peak.
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering};

    pub struct Counting;

    pub static NOW: AtomicUsize = AtomicUsize::new(0);
    pub static PEAK: AtomicUsize = AtomicUsize::new(0);

    // SAFETY: forwards to the system allocator; only counts bytes.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, l: Layout) -> *mut u8 {
            let n = NOW.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(n, Ordering::Relaxed);
            // SAFETY: same layout as asked.
            unsafe { System.alloc(l) }
        }
        unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
            NOW.fetch_sub(l.size(), Ordering::Relaxed);
            // SAFETY: allocated by `alloc` with this layout.
            unsafe { System.dealloc(p, l) }
        }
    }
}

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// `count` lines of `len - 1` letters and a newline (or CSV records of
/// `len` bytes with `csv`), made on the fly.
struct Lines {
    len: usize,
    left: usize,
    pos: usize,
    csv: bool,
}

impl std::io::Read for Lines {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut n = 0;
        while n < buf.len() && self.left > 0 {
            buf[n] = match self.pos {
                p if p == self.len - 1 => b'\n',
                1 if self.csv => b',',
                _ => b'a',
            };
            (n, self.pos) = (n + 1, self.pos + 1);
            if self.pos == self.len {
                (self.pos, self.left) = (0, self.left - 1);
            }
        }
        Ok(n)
    }
}

/// Copies each value.
struct Copy;
impl tessera_cli::records::Transform for Copy {
    fn apply(
        &mut self,
        input: &tessera_cli::records::Values,
        out: &mut tessera_cli::records::Outputs,
    ) -> Result<(), tessera_cli::records::ValueError> {
        for i in 0..input.len() {
            out.data.extend_from_slice(input.get(i));
            out.ends.push(out.data.len());
        }
        Ok(())
    }
}

#[test]
fn long_records_on_four_threads_take_a_bounded_amount_of_memory() {
    use std::sync::atomic::Ordering;
    use tessera_cli::records::{self, Layout, Transform};
    const INPUT: usize = 64 << 20;
    for (len, csv) in [(2048, false), (4096, false), (2048, true)] {
        let lines = Lines { len, left: INPUT / len, pos: 0, csv };
        let mut input = std::io::BufReader::new(std::io::Read::chain(&b"a,b\n"[..], lines));
        let mut out = std::io::sink();
        let layout = Layout::start(csv, &["b".to_string()], &mut input, &mut out).unwrap();
        if !csv {
            let mut header = String::new();
            std::io::BufRead::read_line(&mut input, &mut header).unwrap();
        }
        let base = counting::NOW.load(Ordering::Relaxed);
        counting::PEAK.store(base, Ordering::Relaxed);
        let make = || Ok(Box::new(Copy) as Box<dyn Transform + Send>);
        let read = records::run(&layout, input, &mut out, 4, make).unwrap();
        assert_eq!(read, (INPUT / len) as u64 + u64::from(csv));
        let peak = counting::PEAK.load(Ordering::Relaxed) - base;
        // 10 batches in flight (2N + 2), each of about 1 MiB of input with
        // its values, outputs and output bytes: 42 MiB when written
        // (217 MiB when batches were bounded by records only).
        assert!(peak < 48 << 20, "peak {} MiB for {len}-byte records (csv: {csv})", peak >> 20);
    }
}
