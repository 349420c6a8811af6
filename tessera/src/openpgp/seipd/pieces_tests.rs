//! The runs a [`PieceMap`] finds against the body the framing holds: every
//! length encoding, pieces down to one octet, runs beyond a job's limit,
//! and files cut anywhere.

use std::io::Write;
use std::sync::Arc;

use super::{MAX_SEGMENTS, PieceMap};
use crate::openpgp::Error;

/// A piece of a framed body: partial (2^k octets) or the final one, its
/// length in the encoding of `octets` (1, 2 or 5).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Piece {
    Partial(u32),
    Final { octets: usize },
}

/// `body` framed as `pieces` say (the final piece takes the rest).
pub(crate) fn frame(body: &[u8], pieces: &[Piece]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = body;
    for p in pieces {
        match *p {
            Piece::Partial(k) => {
                out.push(224 + k as u8);
                let (now, later) = rest.split_at(1 << k);
                out.extend_from_slice(now);
                rest = later;
            }
            Piece::Final { octets } => {
                let n = rest.len();
                match octets {
                    1 => out.push(u8::try_from(n).expect("under 192")),
                    2 => out.extend_from_slice(&[(((n - 192) >> 8) + 192) as u8, (n - 192) as u8]),
                    _ => {
                        out.push(255);
                        out.extend_from_slice(&(n as u32).to_be_bytes());
                    }
                }
                out.extend_from_slice(rest);
                return out;
            }
        }
    }
    unreachable!("a framing ends with its final piece")
}

fn body(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 31 + i / 251) as u8).collect()
}

/// `framed` in a file after `skip` octets of something else.
fn file_with(skip: usize, framed: &[u8]) -> Arc<std::fs::File> {
    let mut f = tempfile::tempfile().unwrap();
    f.write_all(&vec![0xAA; skip]).unwrap();
    f.write_all(framed).unwrap();
    Arc::new(f)
}

/// Reads the whole body through `map` in steps of the given sizes (cycled),
/// checking `has` before each step; returns what was read.
fn read_all(map: &mut PieceMap, steps: &[usize]) -> crate::openpgp::Result<Vec<u8>> {
    let mut got = Vec::new();
    for &step in steps.iter().cycle() {
        let mut buf = vec![0u8; step];
        let more = map.has(step as u64)?;
        let (runs, n) = map.take(step, &mut buf)?;
        assert_eq!(more, n == step, "has({step}) against what take found");
        if let Some(r) = runs {
            r.read_into(map.file(), &mut buf).unwrap();
        }
        got.extend_from_slice(&buf[..n]);
        if n < step {
            assert!(map.ended());
            return Ok(got);
        }
    }
    unreachable!()
}

fn framings() -> Vec<(usize, Vec<Piece>)> {
    use Piece::*;
    vec![
        (0, vec![Final { octets: 1 }]),
        (100, vec![Final { octets: 1 }]),
        (5000, vec![Final { octets: 2 }]),
        (5000, vec![Final { octets: 5 }]),
        (70_000, vec![Final { octets: 5 }]),
        (1024 + 191, vec![Partial(10), Final { octets: 1 }]),
        (1024 + 8383, vec![Partial(10), Final { octets: 2 }]),
        (1024 + 1024, vec![Partial(10), Partial(10), Final { octets: 1 }]),
        // One-octet pieces: a step spans many runs (more than a job takes).
        (512 + 40 + 3, [vec![Partial(9)], vec![Partial(0); 40], vec![Final { octets: 1 }]].concat()),
        (1 << 17, vec![Partial(16), Partial(15), Partial(14), Partial(14), Final { octets: 1 }]),
        (2048 + 12, vec![Partial(11), Final { octets: 5 }]),
    ]
}

#[test]
fn runs_give_the_body_the_framing_holds() {
    for (n, pieces) in framings() {
        let b = body(n);
        let framed = frame(&b, &pieces);
        for skip in [0, 7] {
            for steps in [&[1usize][..], &[16], &[17, 5, 300], &[4096], &[1 << 18]] {
                let file = file_with(skip, &framed);
                let mut map = PieceMap::new(file, skip as u64, 0, true).unwrap();
                let got = read_all(&mut map, steps).unwrap();
                assert_eq!(got, b, "{n} octets, steps {steps:?}");
                assert_eq!(map.end(), (skip + framed.len()) as u64, "the end of {n} octets");
            }
        }
    }
}

#[test]
fn a_step_over_more_runs_than_a_job_takes_is_read_here() {
    let b = body(512 + 40 + 3);
    let pieces = [vec![Piece::Partial(9)], vec![Piece::Partial(0); 40], vec![Piece::Final { octets: 1 }]].concat();
    let file = file_with(0, &frame(&b, &pieces));
    let mut map = PieceMap::new(file, 0, 0, true).unwrap();
    let mut buf = vec![0u8; 520];
    // 512 octets in one run, then eight one-octet runs: a job's worth.
    let (runs, n) = map.take(512 + MAX_SEGMENTS - 1, &mut buf).unwrap();
    assert!(runs.is_some() && n == 512 + MAX_SEGMENTS - 1);
    // Nine runs: read here, into the buffer.
    let (runs, n) = map.take(MAX_SEGMENTS + 1, &mut buf).unwrap();
    assert!(runs.is_none(), "more runs than a job names are read by the caller");
    assert_eq!(&buf[..n], &b[512 + MAX_SEGMENTS - 1..512 + 2 * MAX_SEGMENTS]);
}

#[test]
fn a_cut_file_is_a_truncated_body() {
    let b = body(1024 + 300);
    let framed = frame(&b, &[Piece::Partial(10), Piece::Final { octets: 2 }]);
    for cut in 0..framed.len() {
        let file = file_with(3, &framed[..cut]);
        let mut map = PieceMap::new(file, 3, 0, true).unwrap();
        match read_all(&mut map, &[100]) {
            Err(Error::Truncated(_)) => {}
            other => panic!("cut at {cut}: {:?}", other.map(|v| v.len())),
        }
    }
}

#[test]
fn a_body_that_starts_inside_a_piece() {
    // The stream reader already read the first header and 10 octets.
    let b = body(1024 + 50);
    let framed = frame(&b, &[Piece::Partial(10), Piece::Final { octets: 1 }]);
    let file = file_with(0, &framed);
    let mut map = PieceMap::new(file, 11, 1024 - 10, true).unwrap();
    assert_eq!(read_all(&mut map, &[64]).unwrap(), &b[10..]);
}
