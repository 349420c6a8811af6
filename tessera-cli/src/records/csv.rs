//! CSV syntax (RFC 4180 as files have it): records that may span lines
//! inside quotes, field spans, quoting and unquoting. Everything here works
//! on raw bytes so that untouched fields are copied byte for byte.
//!
//! The reading is that of Python's `csv` module and other RFC 4180 readers,
//! and refuses what they would read another way: a `"` opens a quoted field
//! only at the start of a field (elsewhere it is a literal character); after
//! the closing quote only a comma or the end of the record may follow; LF,
//! CRLF and CR alone each end a record (and each counts as one line), and a
//! line break inside quotes is data.

use std::io::{BufRead, Write};

use anyhow::{Context, Result, bail};

/// The UTF-8 byte order mark that some programs put at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where the reader is inside a record.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// At the start of a field.
    FieldStart,
    /// Inside a field that did not start with a quote.
    Unquoted,
    /// Inside a quoted field.
    Quoted,
    /// Just after a quote inside a quoted field: the closing quote, or the
    /// first half of an escaped `""`.
    QuoteInQuoted,
}

/// Reads one CSV record, terminator (LF, CRLF, CR or none at the end of the
/// input) included, and appends its bytes to `buf`; `spans` gets its fields'
/// raw spans in `buf` (quotes included). Returns the number of lines it
/// spans (line breaks inside quotes count), `None` at the end of the input.
/// Errors name the line (`line_no` is the record's first line) and never
/// hold bytes of the input.
pub(super) fn read_record<R: BufRead + ?Sized>(
    input: &mut R,
    buf: &mut Vec<u8>,
    spans: &mut Vec<(usize, usize)>,
    line_no: u64,
) -> Result<Option<u64>> {
    spans.clear();
    let (start, mut state, mut field) = (buf.len(), State::FieldStart, buf.len());
    // Line breaks inside quotes so far, and whether the last byte was a CR.
    let (mut inner_lines, mut after_cr) = (0u64, false);
    loop {
        let chunk = input.fill_buf().context("cannot read input")?;
        if chunk.is_empty() {
            return match state {
                State::Quoted => bail!("line {line_no}: quoted field is not closed before the end of the input"),
                _ if buf.len() == start => Ok(None),
                _ => {
                    spans.push((field, buf.len()));
                    Ok(Some(inner_lines + 1))
                }
            };
        }
        let mut end = None;
        let mut used = chunk.len();
        for (i, &b) in chunk.iter().enumerate() {
            let at = buf.len() + i;
            state = match (state, b) {
                (State::Quoted, b'"') => State::QuoteInQuoted,
                (State::Quoted, b'\r') => {
                    inner_lines += 1;
                    State::Quoted
                }
                (State::Quoted, b'\n') => {
                    inner_lines += u64::from(!after_cr);
                    State::Quoted
                }
                (State::Quoted, _) | (State::QuoteInQuoted, b'"') => State::Quoted,
                (_, b',') => {
                    spans.push((field, at));
                    field = at + 1;
                    State::FieldStart
                }
                (_, b'\r' | b'\n') => {
                    end = Some((at, b));
                    used = i + 1;
                    break;
                }
                (State::FieldStart, b'"') => State::Quoted,
                (State::QuoteInQuoted, _) => bail!(
                    "line {}: a closing quote is followed by a character other than a comma or a line end",
                    line_no + inner_lines
                ),
                (State::FieldStart | State::Unquoted, _) => State::Unquoted,
            };
            after_cr = b == b'\r';
        }
        buf.extend_from_slice(&chunk[..used]);
        input.consume(used);
        if let Some((body_end, b)) = end {
            spans.push((field, body_end));
            if b == b'\r' && input.fill_buf().context("cannot read input")?.first() == Some(&b'\n') {
                buf.push(b'\n');
                input.consume(1);
            }
            return Ok(Some(inner_lines + 1));
        }
    }
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

/// Splits a line into its body and its terminator (`\r\n`, `\n` or nothing
/// at the end of the input).
pub(super) fn strip_terminator(line: &[u8]) -> (&[u8], &[u8]) {
    let t = if line.ends_with(b"\r\n") {
        2
    } else if line.ends_with(b"\n") {
        1
    } else {
        0
    };
    line.split_at(line.len() - t)
}

/// Reads a UTF-8 byte order mark at the start of `input`, if there is one,
/// and copies it to `out`. Refuses the first bytes of one without the rest.
fn copy_bom<R: BufRead + ?Sized>(input: &mut R, out: &mut dyn Write) -> Result<()> {
    let mut matched = 0;
    while matched < BOM.len() {
        match input.fill_buf().context("cannot read input")?.first() {
            Some(&b) if b == BOM[matched] => input.consume(1),
            _ if matched == 0 => return Ok(()),
            _ => bail!("line 1: the input starts with part of a UTF-8 byte order mark"),
        }
        matched += 1;
    }
    out.write_all(BOM).context("cannot write output")
}

/// The columns to transform, found in the header.
#[derive(Debug, Clone)]
pub struct Columns {
    /// Every column's name, as the header has it (unquoted, trimmed).
    pub(super) names: Vec<String>,
    /// Indexes of the columns to transform, in the order they were named,
    /// without repeats: each record gives one value per target, in this order.
    pub(super) targets: Vec<usize>,
    /// Positions in `targets`, by ascending column index (the order fields
    /// are written back in).
    pub(super) order: Vec<usize>,
    /// Per target, the index of the column holding each record's tweak for
    /// it, if any; empty when no target takes a tweak.
    pub(super) tweaks: Vec<Option<usize>>,
    /// The number of lines the header spans (line breaks inside quotes count).
    pub(super) header_lines: u64,
}

impl Columns {
    /// Reads the header record, finds `columns` in it and copies it to
    /// `out` unchanged. A UTF-8 byte order mark before it is copied too, and
    /// is not part of the first column's name. A column named twice is
    /// transformed once.
    pub fn from_header<R: BufRead + ?Sized>(input: &mut R, out: &mut dyn Write, columns: &[String]) -> Result<Self> {
        copy_bom(input, out)?;
        let (mut rec, mut spans) = (Vec::new(), Vec::new());
        let Some(header_lines) = read_record(input, &mut rec, &mut spans, 1)? else {
            bail!("the CSV input is empty; a header line naming the columns is needed");
        };
        let names: Vec<String> = spans
            .iter()
            .map(|&(a, b)| {
                let mut v = Vec::new();
                unquote(&rec[a..b], &mut v);
                String::from_utf8_lossy(&v).trim().to_string()
            })
            .collect();
        let mut cols = Columns { names, targets: Vec::new(), order: Vec::new(), tweaks: Vec::new(), header_lines };
        for c in columns {
            let i = cols.position(c, "column")?;
            if !cols.targets.contains(&i) {
                cols.targets.push(i);
            }
        }
        cols.order = (0..cols.targets.len()).collect();
        cols.order.sort_unstable_by_key(|&k| cols.targets[k]);
        out.write_all(&rec).context("cannot write output")?;
        Ok(cols)
    }

    /// The index of column `name`. The error names `name` and how many
    /// fields the header has, but nothing of the header itself: when the
    /// file has no header, or is not read as its writer meant, those are
    /// data.
    fn position(&self, name: &str, what: &str) -> Result<usize> {
        match self.names.iter().position(|n| n == name) {
            Some(i) => Ok(i),
            None => bail!("{what} {name:?} is not in the CSV header (a header of {} fields)", self.names.len()),
        }
    }

    /// Makes column `tweaks[k]` (if any) the tweak of the values of target
    /// `k`; one name stands for every target.
    pub(super) fn set_tweaks(&mut self, tweaks: &[Option<&str>]) -> Result<()> {
        let mut found = Vec::with_capacity(self.targets.len());
        for k in 0..self.targets.len() {
            let name = if tweaks.len() == 1 { tweaks[0] } else { tweaks.get(k).copied().flatten() };
            let Some(name) = name else {
                found.push(None);
                continue;
            };
            let i = self.position(name, "the tweak column")?;
            if self.targets.contains(&i) {
                bail!("column {name:?} holds the tweak of each record: it cannot be transformed itself");
            }
            found.push(Some(i));
        }
        self.tweaks = if found.iter().any(Option::is_some) { found } else { Vec::new() };
        Ok(())
    }

    /// The name of the column of value `index` in a batch (each record
    /// gives one value per target column, in the order they were named).
    pub(super) fn name_of_value(&self, index: usize) -> &str {
        &self.names[self.targets[index % self.targets.len()]]
    }
}
