//! Cutting the input into batches of records: lines, or CSV records with
//! their target fields' values copied out.

use std::io::BufRead;

use anyhow::{Context, Result, bail};

use super::{BATCH, BATCH_BYTES, Batch, Columns, Layout, Rec, csv};

/// Cuts the input into batches of up to [`BATCH`] records and about
/// [`BATCH_BYTES`] bytes.
pub struct BatchReader<'a, R: ?Sized> {
    input: &'a mut R,
    layout: &'a Layout,
    /// The number of the next line to read.
    line_no: u64,
    spans: Vec<(usize, usize)>,
    tmp: Vec<u8>,
    /// A reading error met after some records of a batch: reported by the
    /// next [`BatchReader::fill`], after the batch (and its own errors).
    pending: Option<anyhow::Error>,
}

impl<R: ?Sized> std::fmt::Debug for BatchReader<'_, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchReader").field("layout", self.layout).field("line_no", &self.line_no).finish()
    }
}

impl<'a, R: BufRead + ?Sized> BatchReader<'a, R> {
    /// Reads records of `layout` from `input` (after the CSV header).
    pub fn new(input: &'a mut R, layout: &'a Layout) -> Self {
        let line_no = match layout {
            Layout::Lines => 1,
            Layout::Csv(cols) => 1 + cols.header_lines,
        };
        BatchReader { input, layout, line_no, spans: Vec::new(), tmp: Vec::new(), pending: None }
    }

    /// The number of lines read so far (the header included).
    pub fn lines_read(&self) -> u64 {
        self.line_no - 1
    }

    /// Refills `b` with the next records; `false` at the end of the input.
    /// A reading error after some records ends the batch there and is
    /// returned by the next call, so that errors come in input order.
    pub fn fill(&mut self, b: &mut Batch) -> Result<bool> {
        b.clear();
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        while b.recs.len() < BATCH && b.input_bytes() < BATCH_BYTES {
            let more = match self.layout {
                Layout::Lines => self.read_line(b),
                Layout::Csv(cols) => self.read_csv_record(cols, b),
            };
            match more {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) if b.recs.is_empty() => return Err(e),
                Err(e) => {
                    self.pending = Some(e);
                    break;
                }
            }
        }
        Ok(!b.recs.is_empty())
    }

    /// Reads a line straight into the batch's values; its terminator goes
    /// to `raw`.
    fn read_line(&mut self, b: &mut Batch) -> Result<bool> {
        let a = b.vals.data.len();
        if self.input.read_until(b'\n', &mut b.vals.data).context("cannot read input")? == 0 {
            return Ok(false);
        }
        let (body, term) = csv::strip_terminator(&b.vals.data[a..]);
        let (z, start) = (a + body.len(), b.raw.len());
        b.raw.extend_from_slice(term);
        b.vals.data.truncate(z);
        b.vals.spans.push((a, z));
        b.recs.push(Rec { start, end: b.raw.len(), line: self.line_no, blank: false });
        self.line_no += 1;
        Ok(true)
    }

    /// Reads a CSV record straight into the batch's `raw`, and copies its
    /// target fields' values (and tweak) to the batch's values.
    fn read_csv_record(&mut self, cols: &Columns, b: &mut Batch) -> Result<bool> {
        let start = b.raw.len();
        let Some(lines) = csv::read_record(self.input, &mut b.raw, &mut self.spans, self.line_no)? else {
            return Ok(false);
        };
        // Nothing before the line end: a blank line, with no fields.
        let blank = matches!(self.spans[..], [(a, z)] if a == start && z == a);
        if blank {
            b.recs.push(Rec { start, end: b.raw.len(), line: self.line_no, blank });
            self.line_no += lines;
            return Ok(true);
        }
        if self.spans.len() != cols.names.len() {
            bail!("line {}: the record has {} fields, the header {}", self.line_no, self.spans.len(), cols.names.len());
        }
        for (k, &c) in cols.targets.iter().enumerate() {
            let (a, z) = self.spans[c];
            self.tmp.clear();
            csv::unquote(&b.raw[a..z], &mut self.tmp);
            b.vals.push(&self.tmp);
            if let Some(t) = cols.tweaks.get(k) {
                self.tmp.clear();
                if let Some(t) = *t {
                    let (a, z) = self.spans[t];
                    csv::unquote(&b.raw[a..z], &mut self.tmp);
                }
                let span = b.vals.append(&self.tmp);
                b.vals.tweaks.push(span);
            }
        }
        b.fields.extend_from_slice(&self.spans);
        b.recs.push(Rec { start, end: b.raw.len(), line: self.line_no, blank });
        self.line_no += lines;
        Ok(true)
    }
}
