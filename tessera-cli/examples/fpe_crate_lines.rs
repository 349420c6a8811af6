//! The `fpe` crate (FF1) behind the same line interface as `tessera fpe
//! encrypt` with the default alphabet, for the CLI comparison in
//! BENCHMARKS.md: `cargo run --release --example fpe_crate_lines -- KEYFILE < in > out`.

use std::io::{BufRead, BufWriter, Write};

use fpe::ff1::{FF1, FlexibleNumeralString};

fn main() {
    let path = std::env::args().nth(1).expect("usage: fpe_crate_lines KEYFILE");
    let hex: String = std::fs::read_to_string(path).expect("key file").split_whitespace().collect();
    let key: Vec<u8> =
        (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect();
    let ff1 = FF1::<aes::Aes128>::new(&key, 10).expect("radix");
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("read");
        let x: Vec<u16> = line.bytes().map(|b| (b - b'0') as u16).collect();
        let y: Vec<u16> = ff1.encrypt(b"", &FlexibleNumeralString::from(x)).expect("encrypt").into();
        let s: String = y.iter().map(|&d| char::from(b'0' + d as u8)).collect();
        writeln!(out, "{s}").expect("write");
    }
}
