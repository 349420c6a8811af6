//! CSV syntax (RFC 4180 as files have it): records that may span lines
//! inside quotes, field spans, quoting and unquoting. Everything here works
//! on raw bytes so that untouched fields are copied byte for byte.

use std::io::{BufRead, Write};

use anyhow::{Context, Result, bail};

/// Reads one CSV record (which may span lines inside quotes) into `rec`,
/// terminator included. Returns the number of physical lines read (0 at end
/// of input); `line_no` (the record's first line) names an unclosed quote.
pub(super) fn read_record<R: BufRead + ?Sized>(input: &mut R, rec: &mut Vec<u8>, line_no: u64) -> Result<u64> {
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
pub(super) fn split_fields(rec: &[u8], spans: &mut Vec<(usize, usize)>) {
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
pub(super) fn unquote(raw: &[u8], out: &mut Vec<u8>) {
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
pub(super) fn write_field(v: &[u8], was_quoted: bool, out: &mut Vec<u8>) {
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

/// Splits a line or record into its body and its terminator (`\r\n`, `\n`
/// or nothing at the end of the input).
pub(super) fn strip_terminator(rec: &[u8]) -> (&[u8], &[u8]) {
    let t = if rec.ends_with(b"\r\n") {
        2
    } else if rec.ends_with(b"\n") {
        1
    } else {
        0
    };
    rec.split_at(rec.len() - t)
}

/// The columns to transform, found in the header.
#[derive(Debug, Clone)]
pub struct Columns {
    /// Every column's name, as the header has it (unquoted, trimmed).
    pub(super) names: Vec<String>,
    /// Indexes of the columns to transform, ascending, without repeats.
    pub(super) targets: Vec<usize>,
    /// The index of the column holding each record's tweak, if any.
    pub(super) tweak: Option<usize>,
}

impl Columns {
    /// Reads the header record, finds `columns` in it and copies it to
    /// `out` unchanged.
    pub fn from_header<R: BufRead + ?Sized>(input: &mut R, out: &mut dyn Write, columns: &[String]) -> Result<Self> {
        let mut rec = Vec::new();
        if read_record(input, &mut rec, 1)? == 0 {
            bail!("the CSV input is empty; a header line naming the columns is needed");
        }
        let (header, _) = strip_terminator(&rec);
        let mut spans = Vec::new();
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
        Ok(Columns { names, targets, tweak: None })
    }

    /// Makes column `name` the tweak of each record's values.
    pub(super) fn set_tweak(&mut self, name: &str) -> Result<()> {
        let Some(i) = self.names.iter().position(|n| n == name) else {
            bail!("the tweak column {name:?} is not in the CSV header ({})", self.names.join(", "));
        };
        if self.targets.contains(&i) {
            bail!("column {name:?} holds the tweak of each record: it cannot be transformed itself");
        }
        self.tweak = Some(i);
        Ok(())
    }

    /// The name of the column of value `index` in a batch (each record
    /// gives one value per target column, in column order).
    pub(super) fn name_of_value(&self, index: usize) -> &str {
        &self.names[self.targets[index % self.targets.len()]]
    }
}
