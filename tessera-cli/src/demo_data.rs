//! What both parts of the demo use: the bundled sample records, peak
//! memory, and comparing two files.

use std::io::{BufReader, Read};

use anyhow::Result;
use tessera::fs::IO_BUFFER;

/// Octets in a MiB, the unit of `--mib`.
pub(crate) const MIB: usize = 1 << 20;

/// The bundled customer records the FPE part tokenizes.
pub(crate) const SAMPLE: &str = include_str!("../data/customers.csv");

/// Peak resident memory (VmHWM) in MiB, after resetting it if `reset`.
pub(crate) fn peak_mib(reset: bool) -> Option<f64> {
    if reset {
        // Linux: writing 5 to clear_refs resets the peak resident size.
        let _ = std::fs::write("/proc/self/clear_refs", "5");
    }
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 = status.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Whether the files `a` and `b` hold the same bytes.
pub(crate) fn files_equal(a: &std::path::Path, b: &std::path::Path) -> Result<bool> {
    let (mut x, mut y) = (BufReader::new(std::fs::File::open(a)?), BufReader::new(std::fs::File::open(b)?));
    let (mut p, mut q) = (vec![0u8; IO_BUFFER], vec![0u8; IO_BUFFER]);
    loop {
        let n = x.read(&mut p)?;
        if n == 0 {
            return Ok(y.read(&mut q)? == 0);
        }
        y.read_exact(&mut q[..n]).map_err(|_| anyhow::anyhow!("length differs"))?;
        if p[..n] != q[..n] {
            return Ok(false);
        }
    }
}
