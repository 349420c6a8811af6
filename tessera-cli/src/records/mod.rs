//! Line and CSV streaming in batches: values are gathered into flat buffers,
//! handed to a [`Transform`] in one call (so the library's batch paths see
//! thousands of values at once), and written back. Memory is bounded by the
//! batch size, whatever the input size: a batch ends at [`BATCH`] records or
//! once it holds [`BATCH_BYTES`] bytes of input, whichever comes first. A
//! record longer than that is a batch of its own, held whole with its value,
//! its output and the output record: several times its size (a 100 MiB line
//! took 580 MiB through `tessera siv --lines`, 780 MiB as a CSV field).
//!
//! Each batch goes through three steps: [`BatchReader::fill`] cuts it from
//! the input, [`Layout::render`] transforms its values and lays out its
//! output bytes, and the caller writes them. [`run`] does the steps one
//! after the other on one thread, or on several with [`pipeline`] (a reader,
//! workers, and a writer that keeps the input order).
//!
//! ```
//! use tessera_cli::records::{self, Layout, Outputs, Transform, ValueError, Values};
//!
//! struct Upper;
//! impl Transform for Upper {
//!     fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
//!         for i in 0..input.len() {
//!             out.data.extend(input.get(i).iter().map(u8::to_ascii_uppercase));
//!             out.ends.push(out.data.len());
//!         }
//!         Ok(())
//!     }
//! }
//! let mut out = Vec::new();
//! let make = || Ok(Box::new(Upper) as Box<dyn Transform + Send>);
//! records::run(&Layout::Lines, &b"ab\r\ncd"[..], &mut out, 2, make).unwrap();
//! assert_eq!(out, b"AB\r\nCD");
//! ```

mod csv;
mod per_column;
pub mod pipeline;
mod reader;
#[cfg(test)]
mod tests;

use std::io::{BufRead, Write};
use std::num::NonZeroUsize;

use anyhow::{Context, Result, anyhow, bail};

pub use csv::Columns;
pub use per_column::PerColumn;
pub use reader::BatchReader;

use crate::io::{Output, open_input};

/// Where the values come from and go: stdin/stdout or files, whole lines
/// or named CSV columns. Shared by `tessera fpe` and `tessera siv`.
#[derive(clap::Args, Debug)]
pub struct RecordArgs {
    /// Read CSV with a header and transform only the columns named by --columns
    /// (other bytes are kept byte for byte). Read as Python's csv reads it: a quote
    /// opens a field only at its start; LF, CRLF and CR end a record; a record
    /// whose field count differs from the header's is refused; a blank line (no fields) is copied as it is.
    #[arg(long, requires = "columns")]
    pub csv: bool,
    /// Comma-separated column names (with --csv).
    #[arg(long, value_delimiter = ',', requires = "csv")]
    pub columns: Vec<String>,
    /// Input file (default: stdin).
    #[arg(long)]
    pub input: Option<std::path::PathBuf>,
    /// Output file (default: stdout); written only if everything succeeds.
    #[arg(short = 'o', long)]
    pub output: Option<std::path::PathBuf>,
    /// Worker threads for lines and CSV (0 = one per core, the default; at most 1024); output
    /// keeps the input order. `siv` without --lines or --csv reads one message and ignores it.
    #[arg(long, value_name = "N", value_parser = crate::io::parse_threads)]
    pub threads: Option<usize>,
}

impl RecordArgs {
    /// `--threads`, or every core the system offers if it is 0 or not given.
    pub fn threads(&self) -> usize {
        match self.threads {
            Some(n) if n > 0 => n,
            _ => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        }
    }
}

/// The most records in a batch.
pub const BATCH: usize = tessera::BATCH_SIZE;

/// A batch takes no more records once it holds this many bytes of input
/// (records and values). 1 MiB keeps the many batches in flight on many
/// threads in tens of MiB whatever the record length, and still holds
/// 8,192 records of up to 128 bytes, so typical batches are cut by count.
pub const BATCH_BYTES: usize = 1 << 20;

/// A batch of input values, back to back in `data`.
#[derive(Default, Debug)]
pub struct Values {
    /// The values' bytes (and their records' tweak fields, if any).
    pub data: Vec<u8>,
    /// Where each value is in `data`.
    pub spans: Vec<(usize, usize)>,
    /// With a tweak column ([`Layout::tweak_column`]): where each value's
    /// tweak (its record's field) is in `data`; otherwise empty.
    pub tweaks: Vec<(usize, usize)>,
}

impl Values {
    /// Value `i`.
    pub fn get(&self, i: usize) -> &[u8] {
        let (a, b) = self.spans[i];
        &self.data[a..b]
    }
    /// The tweak of value `i` (its record's tweak field), if the layout has a tweak column.
    pub fn tweak(&self, i: usize) -> Option<&[u8]> {
        self.tweaks.get(i).map(|&(a, b)| &self.data[a..b])
    }
    /// The number of values.
    pub fn len(&self) -> usize {
        self.spans.len()
    }
    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
    fn clear(&mut self) {
        self.data.clear();
        self.spans.clear();
        self.tweaks.clear();
    }
    fn push(&mut self, v: &[u8]) {
        let span = self.append(v);
        self.spans.push(span);
    }
    /// Appends bytes to `data`, returning their span.
    fn append(&mut self, v: &[u8]) -> (usize, usize) {
        let a = self.data.len();
        self.data.extend_from_slice(v);
        (a, self.data.len())
    }
}

/// The transformed values, back to back; `ends[i]` is where value `i` ends.
#[derive(Default, Debug)]
pub struct Outputs {
    /// The outputs' bytes.
    pub data: Vec<u8>,
    /// Where each output ends in `data`.
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
    /// The value's index in the batch.
    pub index: usize,
    /// What went wrong.
    pub error: anyhow::Error,
}

/// Turns a batch of values into a batch of outputs (one per value, in order).
pub trait Transform {
    /// Appends one output per value of `input` to `out`, or names the first value that failed.
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError>;
}

/// What a record is: a line, or a CSV record with some columns transformed.
#[derive(Debug, Clone)]
pub enum Layout {
    /// One value per line; terminators (`\n`, `\r\n`, none at the end) are kept.
    Lines,
    /// CSV after its header: the named columns are transformed, every other
    /// byte (other fields, quoting, line endings) is copied unchanged.
    Csv(Columns),
}

/// A record of a batch: where it is in [`Batch::raw`] and its first line.
#[derive(Debug, Clone, Copy)]
struct Rec {
    start: usize,
    end: usize,
    line: u64,
    /// A CSV record that is a blank line: no fields (as Python's `csv`
    /// reads it), copied through unchanged.
    blank: bool,
}

/// One batch on its way through: the values, what surrounds them, and the
/// output bytes once rendered. Its buffers are reused from batch to batch.
#[derive(Default, Debug)]
pub struct Batch {
    vals: Values,
    /// Lines: each line's terminator; CSV: each record as read.
    raw: Vec<u8>,
    recs: Vec<Rec>,
    /// CSV: each record's raw field spans in `raw`, one record after the
    /// other (each has as many fields as the header).
    fields: Vec<(usize, usize)>,
    outs: Outputs,
    /// The output bytes of the batch, once rendered.
    rendered: Vec<u8>,
}

impl Batch {
    fn clear(&mut self) {
        self.vals.clear();
        self.recs.clear();
        self.fields.clear();
        self.outs.ends.clear();
        for v in [&mut self.vals.data, &mut self.raw, &mut self.outs.data, &mut self.rendered] {
            v.clear();
            // A huge record's buffers are not kept for the batches after it.
            if v.capacity() > 2 * BATCH_BYTES {
                v.shrink_to(BATCH_BYTES);
            }
        }
    }

    /// The bytes of input it holds.
    fn input_bytes(&self) -> usize {
        self.raw.len() + self.vals.data.len()
    }
}

impl Layout {
    /// Lines, or CSV whose header is read from `input` (and copied to `out`).
    pub fn start<R: BufRead + ?Sized>(
        csv: bool,
        columns: &[String],
        input: &mut R,
        out: &mut dyn Write,
    ) -> Result<Self> {
        Ok(if csv { Layout::Csv(Columns::from_header(input, out, columns)?) } else { Layout::Lines })
    }

    /// Reads the CSV column `name` of each record as the tweak of its
    /// values ([`Values::tweak`]). It must be in the header and not be one
    /// of the transformed columns (its bytes are the same before and after).
    pub fn tweak_column(&mut self, name: &str) -> Result<()> {
        self.tweak_columns(&[Some(name)])
    }

    /// As [`tweak_column`](Self::tweak_column), one column (or none) per
    /// transformed column, in the order they were named; with one entry,
    /// for all of them. A value whose column takes no tweak gets an empty one.
    pub fn tweak_columns(&mut self, names: &[Option<&str>]) -> Result<()> {
        match (self, names.iter().flatten().next()) {
            (_, None) => Ok(()),
            (Layout::Lines, Some(name)) => {
                bail!("the tweak comes from the field {name:?} of each record: give --csv and --columns")
            }
            (Layout::Csv(cols), Some(_)) => cols.set_tweaks(names),
        }
    }

    /// Transforms the batch's values with `t` and lays out its output
    /// bytes; a failure names the value's line (and column).
    pub fn render(&self, b: &mut Batch, t: &mut dyn Transform) -> Result<()> {
        b.outs.clear();
        b.rendered.clear();
        t.apply(&b.vals, &mut b.outs).map_err(|e| self.locate(b, e))?;
        match self {
            Layout::Lines => {
                for (i, r) in b.recs.iter().enumerate() {
                    b.rendered.extend_from_slice(b.outs.get(i));
                    b.rendered.extend_from_slice(&b.raw[r.start..r.end]);
                }
            }
            Layout::Csv(cols) => cols.render(b),
        }
        Ok(())
    }

    /// The error of value `e.index`, prefixed with where the value is.
    fn locate(&self, b: &Batch, e: ValueError) -> anyhow::Error {
        match self {
            Layout::Lines => anyhow!("line {}: {:#}", b.recs[e.index].line, e.error),
            Layout::Csv(cols) => {
                // The record of that value, blank lines (no values) skipped.
                let nth = e.index / cols.targets.len();
                let line = b.recs.iter().filter(|r| !r.blank).nth(nth).map_or(0, |r| r.line);
                anyhow!("line {line}, column {:?}: {:#}", cols.name_of_value(e.index), e.error)
            }
        }
    }
}

impl Columns {
    /// Puts each record back together with its target fields replaced;
    /// blank lines are copied as they are.
    fn render(&self, b: &mut Batch) {
        let mut v = 0;
        let mut fields = b.fields.chunks_exact(self.names.len());
        for r in &b.recs {
            if r.blank {
                b.rendered.extend_from_slice(&b.raw[r.start..r.end]);
                continue;
            }
            // Every other record has the header's number of fields.
            let Some(fields) = fields.next() else { break };
            // The bytes up to each target field are copied, then its output.
            let mut copied = r.start;
            for &k in &self.order {
                let (a, z) = fields[self.targets[k]];
                b.rendered.extend_from_slice(&b.raw[copied..a]);
                csv::write_field(b.outs.get(v + k), a < z && b.raw[a] == b'"', &mut b.rendered);
                copied = z;
            }
            v += self.targets.len();
            b.rendered.extend_from_slice(&b.raw[copied..r.end]);
        }
    }
}

/// Transforms `input` (after the header, whose layout is `layout`) into
/// `out` on `threads` threads: with one, reading, transforming and writing
/// take turns on this thread; with more, see [`pipeline::run`]. The output
/// and any error are the same either way. Returns the number of lines read.
pub fn run<'a, R, F>(layout: &Layout, mut input: R, out: &mut dyn Write, threads: usize, mut make: F) -> Result<u64>
where
    R: BufRead + Send + 'static,
    F: FnMut() -> Result<Box<dyn Transform + Send + 'a>>,
{
    if threads <= 1 {
        return sequential(layout, BatchReader::new(&mut input, layout), out, &mut *make()?);
    }
    let workers = (0..threads).map(|_| make()).collect::<Result<Vec<_>>>()?;
    Ok(pipeline::run(layout, input, out, workers)?.lines)
}

/// Reads, transforms and writes one batch after the other on this thread.
fn sequential<R: BufRead + ?Sized>(
    layout: &Layout,
    mut reader: BatchReader<'_, R>,
    out: &mut dyn Write,
    t: &mut dyn Transform,
) -> Result<u64> {
    let mut b = Batch::default();
    while reader.fill(&mut b)? {
        layout.render(&mut b, t)?;
        out.write_all(&b.rendered).context("cannot write output")?;
    }
    Ok(reader.lines_read())
}

/// One value per line, on this thread. Line terminators (`\n` or `\r\n`)
/// are kept as they were. Returns the number of lines.
pub fn lines<R: BufRead + ?Sized>(input: &mut R, out: &mut dyn Write, t: &mut dyn Transform) -> Result<u64> {
    sequential(&Layout::Lines, BatchReader::new(input, &Layout::Lines), out, t)
}

/// CSV with a header, on this thread: the named columns are transformed,
/// every other byte is copied unchanged. Returns the number of lines.
pub fn csv<R: BufRead + ?Sized>(
    input: &mut R,
    out: &mut dyn Write,
    columns: &[String],
    t: &mut dyn Transform,
) -> Result<u64> {
    let layout = Layout::start(true, columns, input, out)?;
    sequential(&layout, BatchReader::new(input, &layout), out, t)
}

/// `tessera fpe`/`siv` on lines or CSV: makes a first transform (so that
/// its errors come before any input is read), opens `--input` and
/// `--output`, runs the records through transforms from `make` on
/// `--threads` threads, and commits the output only if everything
/// succeeded. With `--csv`, `columns` are the columns transformed (the
/// names of `--columns`), and `tweak_columns` name the columns holding
/// each record's tweak (see [`Layout::tweak_columns`]).
pub fn process<'a, F>(args: &RecordArgs, columns: &[String], tweak_columns: &[Option<&str>], mut make: F) -> Result<()>
where
    F: FnMut() -> Result<Box<dyn Transform + Send + 'a>>,
{
    let mut first = Some(make()?);
    let mut input = open_input(args.input.as_deref())?;
    let mut out = Output::create(args.output.as_deref())?;
    let mut layout = Layout::start(args.csv, columns, &mut input, &mut out)?;
    layout.tweak_columns(tweak_columns)?;
    let make = || first.take().map_or_else(&mut make, Ok);
    run(&layout, input, &mut out, args.threads(), make)?;
    out.commit()
}
