use super::*;

/// Upper-cases values; fails on the value `bad`; yields now and then so
/// that workers finish out of order.
struct Upper;
impl Transform for Upper {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        for i in 0..input.len() {
            let v = input.get(i);
            if v == b"bad" {
                return Err(ValueError { index: i, error: anyhow!("bad value") });
            }
            if v.first() == Some(&b'y') {
                std::thread::yield_now();
            }
            out.data.extend(v.iter().map(u8::to_ascii_uppercase));
            out.ends.push(out.data.len());
        }
        Ok(())
    }
}

fn upper<'a>() -> Result<Box<dyn Transform + Send + 'a>> {
    Ok(Box::new(Upper))
}

fn run_csv(input: &str, cols: &[&str]) -> Result<String> {
    let mut out = Vec::new();
    let cols: Vec<String> = cols.iter().map(|s| s.to_string()).collect();
    csv(&mut input.as_bytes(), &mut out, &cols, &mut Upper)?;
    Ok(String::from_utf8(out).unwrap())
}

#[test]
fn csv_keeps_other_bytes() {
    let input = "id,name,\"card\"\r\n1,\"a, \"\"b\"\"\",x1\r\n2,c,\"y\nz\"\n3,  d ,w";
    assert_eq!(
        run_csv(input, &["card"]).unwrap(),
        "id,name,\"card\"\r\n1,\"a, \"\"b\"\"\",X1\r\n2,c,\"Y\nZ\"\n3,  d ,W"
    );
    assert_eq!(
        run_csv(input, &["name", "card"]).unwrap(),
        "id,name,\"card\"\r\n1,\"A, \"\"B\"\"\",X1\r\n2,C,\"Y\nZ\"\n3,  D ,W"
    );
}

#[test]
fn csv_blank_lines_have_no_fields_and_are_copied() {
    // LF, CRLF and CR blank lines, several in a row, at the end, and in a
    // one-column file; line numbers still count them.
    let input = "id,card\n\n1,a\r\n\r\n\r2,b\r\r\n\n3,c\n\n";
    assert_eq!(run_csv(input, &["card"]).unwrap(), "id,card\n\n1,A\r\n\r\n\r2,B\r\r\n\n3,C\n\n");
    assert_eq!(run_csv("card\n\nx\n\ny", &["card"]).unwrap(), "card\n\nX\n\nY");
    let e = run_csv("id,card\n\n\r\n1,bad\n", &["card"]).unwrap_err().to_string();
    assert_eq!(e, "line 4, column \"card\": bad value");
    // A quoted empty field is a field, not a blank line.
    assert_eq!(run_csv("card\n\"\"\n", &["card"]).unwrap(), "card\n\"\"\n");
    let e = run_csv("id,card\n\"\"\n", &["card"]).unwrap_err().to_string();
    assert_eq!(e, "line 2: the record has 1 fields, the header 2");
}

#[test]
fn csv_errors_name_line_and_column() {
    let e = run_csv("id,card\n1,a\n2,\"x\ny\"\n3,bad\n", &["card"]).unwrap_err().to_string();
    assert_eq!(e, "line 5, column \"card\": bad value");
    let e = run_csv("id,card\n1\n", &["card"]).unwrap_err().to_string();
    assert_eq!(e, "line 2: the record has 1 fields, the header 2");
    let e = run_csv("id,card\n", &["nope"]).unwrap_err().to_string();
    assert_eq!(e, "column \"nope\" is not in the CSV header (a header of 2 fields)");
    assert!(run_csv("id,card\n1,\"open\n", &["card"]).is_err());
}

#[test]
fn lines_keep_terminators_and_name_lines() {
    let mut out = Vec::new();
    lines(&mut &b"ab\r\ncd\nef"[..], &mut out, &mut Upper).unwrap();
    assert_eq!(out, b"AB\r\nCD\nEF");
    let e = lines(&mut &b"ab\nbad\n"[..], &mut Vec::new(), &mut Upper).unwrap_err();
    assert_eq!(e.to_string(), "line 2: bad value");
}

/// Runs `input` on `threads` threads: the output written (also when it
/// fails) and the error, if any.
fn run_threads(input: &[u8], csv: bool, columns: &[&str], threads: usize) -> (Vec<u8>, Option<String>) {
    let columns: Vec<String> = columns.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    let mut input = input;
    let r = Layout::start(csv, &columns, &mut input, &mut out)
        .and_then(|layout| run(&layout, std::io::Cursor::new(input.to_vec()), &mut out, threads, upper));
    (out, r.err().map(|e| format!("{e:#}")))
}

/// `n` lines of mixed shapes: CRLF and LF endings, empty lines, values
/// that make workers yield.
fn mixed_lines(n: usize) -> Vec<u8> {
    let mut s = Vec::new();
    for i in 0..n {
        match i % 5 {
            0 => s.extend_from_slice(format!("x{i}\r\n").as_bytes()),
            1 => s.extend_from_slice(b"\n"),
            2 => s.extend_from_slice(format!("y{i}\n").as_bytes()),
            3 => s.extend_from_slice(b"\r\n"),
            _ => s.extend_from_slice(format!("z{i}\n").as_bytes()),
        }
    }
    s
}

/// CSV records of mixed shapes: quotes, escaped quotes, commas and line
/// breaks inside quotes, CRLF and LF.
fn mixed_csv(n: usize) -> Vec<u8> {
    let mut s = b"id,\"name\",card\r\n".to_vec();
    for i in 0..n {
        let rec = match i % 4 {
            0 => format!("{i},\"a, \"\"q\"\"\",y{i}\r\n"),
            1 => format!("{i},plain,\"x\n{i}\"\n"),
            2 => format!("{i},,\r\n\n"),
            _ => format!("{i},\"\",\"z,{i}\"\n"),
        };
        s.extend_from_slice(rec.as_bytes());
    }
    s
}

#[test]
fn threads_give_the_same_output_and_errors() {
    let n = 3 * BATCH + 17;
    let mut cases: Vec<(Vec<u8>, bool, Vec<&str>)> = Vec::new();
    let lines = mixed_lines(n);
    cases.push((lines.clone(), false, vec![]));
    let mut no_final_newline = lines.clone();
    no_final_newline.extend_from_slice(b"last");
    cases.push((no_final_newline, false, vec![]));
    // An error in the middle of the second batch, and one in the first batch
    // with a later one too.
    for at in [BATCH + 100, 7] {
        let mut bad = mixed_lines(at);
        bad.extend_from_slice(b"bad\r\n");
        bad.extend_from_slice(&mixed_lines(n));
        bad.extend_from_slice(b"bad\n");
        cases.push((bad, false, vec![]));
    }
    let csv = mixed_csv(n);
    cases.push((csv.clone(), true, vec!["card"]));
    cases.push((csv.clone(), true, vec!["card", "name"]));
    let mut bad_csv = mixed_csv(2 * BATCH);
    bad_csv.extend_from_slice(b"9,\"bad\",bad\n");
    bad_csv.extend_from_slice(&csv[16..]);
    cases.push((bad_csv.clone(), true, vec!["name"]));
    cases.push((bad_csv.clone(), true, vec!["card"]));
    // A reading error (too few fields) in the third batch.
    let mut short = mixed_csv(2 * BATCH + 5);
    short.extend_from_slice(b"only-one-field\n");
    short.extend_from_slice(&csv[16..]);
    cases.push((short, true, vec!["card"]));
    let mut open_quote = mixed_csv(BATCH + 1);
    open_quote.extend_from_slice(b"1,\"never closed,x\n");
    cases.push((open_quote, true, vec!["card"]));
    // Batches cut by bytes: records of about a third of the cap, CR and
    // CRLF endings, quotes inside unquoted fields.
    let mut long = b"id,name,card\r".to_vec();
    for i in 0..40 {
        let name = "n".repeat(BATCH_BYTES / 3);
        let end = if i % 2 == 0 { "\r" } else { "\r\n" };
        long.extend_from_slice(format!("{i},{name}\"{i},y{i}{end}").as_bytes());
    }
    cases.push((long.clone(), true, vec!["card", "name"]));

    for (input, is_csv, cols) in &cases {
        let one = run_threads(input, *is_csv, cols, 1);
        for threads in [2, 4] {
            let many = run_threads(input, *is_csv, cols, threads);
            assert_eq!(one.1, many.1, "{threads} threads");
            assert!(one.0 == many.0, "output differs with {threads} threads");
        }
    }
    // The error cases do fail, where they should.
    assert_eq!(run_threads(&cases[2].0, false, &[], 2).1.unwrap(), format!("line {}: bad value", BATCH + 101));
    assert_eq!(run_threads(&cases[3].0, false, &[], 4).1.unwrap(), "line 8: bad value");
    let e = run_threads(&cases[6].0, true, &["name"], 4).1.unwrap();
    assert!(e.starts_with("line ") && e.ends_with(", column \"name\": bad value"), "{e}");
    let e = run_threads(&cases[8].0, true, &["card"], 2).1.unwrap();
    assert!(e.ends_with(": the record has 1 fields, the header 3"), "{e}");
    let e = run_threads(&cases[9].0, true, &["card"], 2).1.unwrap();
    assert!(e.ends_with("quoted field is not closed before the end of the input"), "{e}");
    // Without errors the output is the transformed input.
    let (out, err) = run_threads(&cases[0].0, false, &[], 4);
    assert_eq!((out, err), (cases[0].0.to_ascii_uppercase(), None));
    // The quote inside the unquoted name is kept as it was.
    let (out, err) = run_threads(&long, true, &["card"], 3);
    let expected = String::from_utf8(long).unwrap().replace(",y", ",Y");
    assert!(err.is_none() && out == expected.as_bytes(), "{err:?}");
}

#[test]
fn a_batch_ends_at_the_byte_cap_and_a_longer_record_goes_alone() {
    let mut quarter = vec![b'a'; BATCH_BYTES / 4 - 1];
    quarter.push(b'\n');
    let mut input = quarter.repeat(8);
    input.extend_from_slice(&[b'b'; 3 * BATCH_BYTES]);
    input.push(b'\n');
    input.extend_from_slice(&quarter);
    let mut source = &input[..];
    let mut reader = BatchReader::new(&mut source, &Layout::Lines);
    let (mut b, mut sizes) = (Batch::default(), Vec::new());
    while reader.fill(&mut b).unwrap() {
        sizes.push(b.recs.len());
    }
    assert_eq!(sizes, [4, 4, 1, 1]);
    // The huge record's buffer was not kept for the batch after it.
    assert!(b.vals.data.capacity() <= 2 * BATCH_BYTES, "{}", b.vals.data.capacity());
}

#[test]
fn a_large_input_keeps_a_bounded_number_of_batches_in_flight() {
    let batches = 60;
    let input = b"ab\ny\n".repeat(batches * BATCH / 2);
    for threads in [2, 3] {
        let workers = (0..threads).map(|_| upper()).collect::<Result<Vec<_>>>().unwrap();
        let mut out = Vec::new();
        let source = std::io::Cursor::new(input.clone());
        let report = pipeline::run(&Layout::Lines, source, &mut out, workers).unwrap();
        assert_eq!(report.batches, batches as u64);
        assert_eq!(report.lines, (batches * BATCH) as u64);
        assert!(report.buffers <= pipeline::in_flight_limit(threads), "{report:?}");
        assert_eq!(out, input.to_ascii_uppercase());
    }
}

#[test]
fn a_failing_writer_stops_every_thread() {
    struct Full(usize);
    impl Write for Full {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if self.0 < b.len() {
                return Err(std::io::Error::other("disk full"));
            }
            self.0 -= b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let input = b"value\n".repeat(20 * BATCH);
    let e = run(&Layout::Lines, std::io::Cursor::new(input), &mut Full(3 * BATCH * 6), 3, upper).unwrap_err();
    assert_eq!(format!("{e:#}"), "cannot write output: disk full");
}

/// Writes each value as `value@tweak` (its record's tweak field).
struct WithTweak;
impl Transform for WithTweak {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        for i in 0..input.len() {
            let tweak = input.tweak(i).ok_or_else(|| ValueError { index: i, error: anyhow!("no tweak") })?;
            out.data.extend_from_slice(input.get(i));
            out.data.push(b'@');
            out.data.extend_from_slice(tweak);
            out.ends.push(out.data.len());
        }
        Ok(())
    }
}

/// CSV with `tweak` as the tweak column, on `threads` threads.
fn run_tweaked(input: &[u8], columns: &[&str], tweak: &str, threads: usize) -> Result<String> {
    let columns: Vec<String> = columns.iter().map(|s| s.to_string()).collect();
    let (mut out, mut input) = (Vec::new(), input);
    let mut layout = Layout::start(true, &columns, &mut input, &mut out)?;
    layout.tweak_column(tweak)?;
    run(&layout, std::io::Cursor::new(input.to_vec()), &mut out, threads, || {
        Ok(Box::new(WithTweak) as Box<dyn Transform + Send>)
    })?;
    Ok(String::from_utf8(out).unwrap())
}

#[test]
fn a_tweak_column_gives_each_value_its_records_field() {
    let input = b"id,card,cust,other\r\n1,a,\"x,\"\"y\"\"\",b\r\n2,c,z,\"d\"\n3,e,,f\n";
    for threads in [1, 2] {
        assert_eq!(
            run_tweaked(input, &["card", "other"], "cust", threads).unwrap(),
            "id,card,cust,other\r\n1,\"a@x,\"\"y\"\"\",\"x,\"\"y\"\"\",\"b@x,\"\"y\"\"\"\r\n2,c@z,z,\"d@z\"\n3,e@,,f@\n"
        );
    }
    // Many batches: every value keeps its own record's tweak.
    let mut big = b"card,t\n".to_vec();
    (0..2 * BATCH + 3).for_each(|i| big.extend_from_slice(format!("v{i},t{i}\n").as_bytes()));
    let out = run_tweaked(&big, &["card"], "t", 2).unwrap();
    assert!(out.lines().skip(1).enumerate().all(|(i, l)| l == format!("v{i}@t{i},t{i}")));
    // A record without the tweak field names its line; the column must
    // exist, must not be transformed, and needs CSV.
    let e = run_tweaked(b"card,x,t\n1,2,3\n4,5\n", &["card"], "t", 2).unwrap_err().to_string();
    assert_eq!(e, "line 3: the record has 2 fields, the header 3");
    let e = run_tweaked(b"card,x\n1,2\n", &["card"], "t", 1).unwrap_err().to_string();
    assert_eq!(e, "the tweak column \"t\" is not in the CSV header (a header of 2 fields)");
    let e = run_tweaked(b"card,t\n1,2\n", &["card", "t"], "t", 1).unwrap_err().to_string();
    assert!(e.contains("cannot be transformed itself"), "{e}");
    let mut lines = Layout::Lines;
    assert!(lines.tweak_column("t").unwrap_err().to_string().contains("--csv"));
}
