//! Line and CSV streaming in batches: values are gathered into flat buffers,
//! handed to a [`Transform`] in one call (so the library's batch paths see
//! thousands of values at once), and written back. Memory is bounded by the
//! batch size, whatever the input size.

use std::io::{BufRead, Write};

use anyhow::{Context, Result, anyhow, bail};

/// Where the values come from and go: stdin/stdout or files, whole lines
/// or named CSV columns. Shared by `tessera fpe` and `tessera siv`.
#[derive(clap::Args, Debug)]
pub struct RecordArgs {
    /// Read CSV with a header and transform only the columns named by --columns
    /// (other bytes are kept byte for byte).
    #[arg(long, requires = "columns")]
    pub csv: bool,
    /// Comma-separated column names (with --csv).
    #[arg(long, value_delimiter = ',', requires = "csv")]
    pub columns: Vec<String>,
    /// Input file (default: stdin).
    #[arg(long)]
    pub input: Option<std::path::PathBuf>,
    /// Output file (default: stdout); written only if everything succeeds.
    #[arg(long)]
    pub output: Option<std::path::PathBuf>,
}

/// Values per batch.
const BATCH: usize = tessera::BATCH_SIZE;

/// A batch of input values, back to back in `data`.
#[derive(Default)]
pub struct Values {
    pub data: Vec<u8>,
    pub spans: Vec<(usize, usize)>,
}

impl Values {
    pub fn get(&self, i: usize) -> &[u8] {
        let (a, b) = self.spans[i];
        &self.data[a..b]
    }
    pub fn len(&self) -> usize {
        self.spans.len()
    }
    fn clear(&mut self) {
        self.data.clear();
        self.spans.clear();
    }
    fn push(&mut self, v: &[u8]) {
        let a = self.data.len();
        self.data.extend_from_slice(v);
        self.spans.push((a, self.data.len()));
    }
}

/// The transformed values, back to back; `ends[i]` is where value `i` ends.
#[derive(Default)]
pub struct Outputs {
    pub data: Vec<u8>,
    pub ends: Vec<usize>,
}

impl Outputs {
    fn get(&self, i: usize) -> &[u8] {
        let a = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.data[a..self.ends[i]]
    }
    fn clear(&mut self) {
        self.data.clear();
        self.ends.clear();
    }
}

/// A failure tied to one value of a batch.
#[derive(Debug)]
pub struct ValueError {
    pub index: usize,
    pub error: anyhow::Error,
}

/// Turns a batch of values into a batch of outputs (one per value, in order).
pub trait Transform {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError>;
}

/// One value per line. Line terminators (`\n` or `\r\n`) are kept as they were.
pub fn lines(input: &mut dyn BufRead, out: &mut dyn Write, t: &mut dyn Transform) -> Result<u64> {
    let mut vals = Values::default();
    let mut outs = Outputs::default();
    let mut terms: Vec<&'static [u8]> = Vec::with_capacity(BATCH);
    let mut line = Vec::new();
    let mut line_no = 0u64;
    loop {
        vals.clear();
        terms.clear();
        let first = line_no + 1;
        while vals.len() < BATCH {
            line.clear();
            if input.read_until(b'\n', &mut line).context("cannot read input")? == 0 {
                break;
            }
            line_no += 1;
            let term: &'static [u8] = if line.ends_with(b"\r\n") {
                b"\r\n"
            } else if line.ends_with(b"\n") {
                b"\n"
            } else {
                b""
            };
            vals.push(&line[..line.len() - term.len()]);
            terms.push(term);
        }
        if vals.len() == 0 {
            return Ok(line_no);
        }
        outs.clear();
        t.apply(&vals, &mut outs).map_err(|e| anyhow!("line {}: {:#}", first + e.index as u64, e.error))?;
        for (i, term) in terms.iter().enumerate() {
            out.write_all(outs.get(i)).context("cannot write output")?;
            out.write_all(term).context("cannot write output")?;
        }
    }
}

/// Reads one CSV record (which may span lines inside quotes) into `rec`.
/// Returns the number of physical lines read (0 at end of input).
fn read_record(input: &mut dyn BufRead, rec: &mut Vec<u8>, line_no: u64) -> Result<u64> {
    rec.clear();
    let mut lines = 0;
    let mut quoted = false;
    loop {
        let start = rec.len();
        if input.read_until(b'\n', rec).context("cannot read input")? == 0 {
            if quoted {
                bail!("line {line_no}: quoted field is not closed before the end of the input");
            }
            return Ok(lines);
        }
        lines += 1;
        quoted ^= rec[start..].iter().filter(|&&b| b == b'"').count() % 2 == 1;
        if !quoted {
            return Ok(lines);
        }
    }
}

/// Splits a record (terminator removed) into raw field spans.
fn split_fields(rec: &[u8], spans: &mut Vec<(usize, usize)>) {
    spans.clear();
    let mut quoted = false;
    let mut start = 0;
    for (i, &b) in rec.iter().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => {
                spans.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    spans.push((start, rec.len()));
}

/// The value of a raw field: outer quotes removed and `""` unescaped.
fn unquote(raw: &[u8], out: &mut Vec<u8>) {
    if raw.len() >= 2 && raw[0] == b'"' && raw[raw.len() - 1] == b'"' {
        let inner = &raw[1..raw.len() - 1];
        let mut i = 0;
        while i < inner.len() {
            out.push(inner[i]);
            i += if inner[i] == b'"' && inner.get(i + 1) == Some(&b'"') { 2 } else { 1 };
        }
    } else {
        out.extend_from_slice(raw);
    }
}

/// Writes a value as a CSV field, quoted if it was quoted or needs to be.
fn write_field(v: &[u8], was_quoted: bool, out: &mut Vec<u8>) {
    if was_quoted || v.iter().any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r')) {
        out.push(b'"');
        for &b in v {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(v);
    }
}

fn strip_terminator(rec: &[u8]) -> (&[u8], &[u8]) {
    let t = if rec.ends_with(b"\r\n") {
        2
    } else if rec.ends_with(b"\n") {
        1
    } else {
        0
    };
    rec.split_at(rec.len() - t)
}

/// CSV with a header: the named columns are transformed, every other byte
/// (other fields, quoting, line endings) is copied unchanged.
pub fn csv(input: &mut dyn BufRead, out: &mut dyn Write, columns: &[String], t: &mut dyn Transform) -> Result<u64> {
    let mut rec = Vec::new();
    let mut spans = Vec::new();
    let mut line_no = 1u64;
    if read_record(input, &mut rec, line_no)? == 0 {
        bail!("the CSV input is empty; a header line naming the columns is needed");
    }
    let (header, _) = strip_terminator(&rec);
    split_fields(header, &mut spans);
    let names: Vec<String> = spans
        .iter()
        .map(|&(a, b)| {
            let mut v = Vec::new();
            unquote(&header[a..b], &mut v);
            String::from_utf8_lossy(&v).trim().to_string()
        })
        .collect();
    let mut targets: Vec<usize> = Vec::new();
    for c in columns {
        match names.iter().position(|n| n == c) {
            Some(i) => targets.push(i),
            None => bail!("column {c:?} is not in the CSV header ({})", names.join(", ")),
        }
    }
    targets.sort_unstable();
    targets.dedup();
    out.write_all(&rec).context("cannot write output")?;
    line_no += 1;

    // A batch of records: raw bytes, their field spans, and starting lines.
    let mut raw = Vec::new();
    let mut rec_spans: Vec<(usize, usize)> = Vec::new(); // into raw
    let mut rec_lines: Vec<u64> = Vec::new();
    let mut vals = Values::default();
    let mut val_rec: Vec<usize> = Vec::new();
    let mut outs = Outputs::default();
    let mut buf = Vec::new();
    let mut tmp = Vec::new();
    loop {
        raw.clear();
        rec_spans.clear();
        rec_lines.clear();
        vals.clear();
        val_rec.clear();
        while rec_spans.len() < BATCH {
            let n = read_record(input, &mut rec, line_no)?;
            if n == 0 {
                break;
            }
            let (body, _) = strip_terminator(&rec);
            split_fields(body, &mut spans);
            for &c in &targets {
                let Some(&(a, b)) = spans.get(c) else {
                    bail!(
                        "line {line_no}: the record has {} fields; column {:?} is field {}",
                        spans.len(),
                        names[c],
                        c + 1
                    );
                };
                tmp.clear();
                unquote(&body[a..b], &mut tmp);
                vals.push(&tmp);
                val_rec.push(rec_spans.len());
            }
            let a = raw.len();
            raw.extend_from_slice(&rec);
            rec_spans.push((a, raw.len()));
            rec_lines.push(line_no);
            line_no += n;
        }
        if rec_spans.is_empty() {
            return Ok(line_no - 1);
        }
        outs.clear();
        t.apply(&vals, &mut outs).map_err(|e| {
            let r = val_rec[e.index];
            anyhow!("line {}, column {:?}: {:#}", rec_lines[r], names[targets[e.index % targets.len()]], e.error)
        })?;
        let mut v = 0;
        buf.clear();
        for &(ra, rb) in &rec_spans {
            let (body, term) = strip_terminator(&raw[ra..rb]);
            split_fields(body, &mut spans);
            let mut next_target = targets.iter().peekable();
            for (f, &(a, b)) in spans.iter().enumerate() {
                if f > 0 {
                    buf.push(b',');
                }
                if next_target.peek() == Some(&&f) {
                    next_target.next();
                    write_field(outs.get(v), body.get(a) == Some(&b'"'), &mut buf);
                    v += 1;
                } else {
                    buf.extend_from_slice(&body[a..b]);
                }
            }
            buf.extend_from_slice(term);
        }
        out.write_all(&buf).context("cannot write output")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Upper;
    impl Transform for Upper {
        fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
            for i in 0..input.len() {
                let v = input.get(i);
                if v == b"bad" {
                    return Err(ValueError { index: i, error: anyhow!("bad value") });
                }
                out.data.extend(v.iter().map(u8::to_ascii_uppercase));
                out.ends.push(out.data.len());
            }
            Ok(())
        }
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
    fn csv_errors_name_line_and_column() {
        let e = run_csv("id,card\n1,a\n2,\"x\ny\"\n3,bad\n", &["card"]).unwrap_err().to_string();
        assert_eq!(e, "line 5, column \"card\": bad value");
        let e = run_csv("id,card\n1\n", &["card"]).unwrap_err().to_string();
        assert!(e.starts_with("line 2: the record has 1 fields"), "{e}");
        assert!(run_csv("id,card\n", &["nope"]).unwrap_err().to_string().contains("not in the CSV header (id, card)"));
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
}
