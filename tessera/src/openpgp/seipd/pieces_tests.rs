//! The runs a [`PieceMap`] finds against the body the framing holds: every
//! length encoding, pieces down to one octet, runs beyond a job's limit,
//! and files cut anywhere.

use std::io::Write;
use std::sync::Arc;

use super::{Ahead, MAX_RUNS, PieceMap};
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

/// Reads the whole body through `map` in steps of the given sizes (cycled);
/// a step over more runs than a job names is taken an octet at a time.
/// Returns what was read and whether any step was fragmented.
fn read_all(map: &mut PieceMap, steps: &[usize]) -> crate::openpgp::Result<(Vec<u8>, bool)> {
    let (mut got, mut fragmented) = (Vec::new(), false);
    for &step in steps.iter().cycle() {
        let ahead = map.ahead(step as u64, 0)?;
        let step = if ahead == Ahead::Stream { 1 } else { step };
        fragmented |= ahead == Ahead::Stream;
        let mut buf = vec![0u8; step];
        let n = map.read_into(step, &mut buf)?;
        assert_eq!(ahead == Ahead::Short, n < step, "ahead({step}) against what take found");
        got.extend_from_slice(&buf[..n]);
        if n < step {
            let (_, left, more) = map.place();
            assert!(left == 0 && !more, "a short take ends the body");
            return Ok((got, fragmented));
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
                let (got, fragmented) = read_all(&mut map, steps).unwrap();
                assert_eq!(got, b, "{n} octets, steps {steps:?}");
                assert_eq!(map.place().0, (skip + framed.len()) as u64, "the end of {n} octets");
                let tiny = pieces.iter().filter(|p| matches!(p, Piece::Partial(0))).count();
                assert_eq!(fragmented, tiny > 0 && steps[0] > MAX_RUNS, "{n} octets, steps {steps:?}");
            }
        }
    }
}

#[test]
fn a_step_over_more_runs_than_a_job_names_is_read_as_a_stream() {
    let b = body(512 + 40 + 3);
    let pieces = [vec![Piece::Partial(9)], vec![Piece::Partial(0); 40], vec![Piece::Final { octets: 1 }]].concat();
    let file = file_with(0, &frame(&b, &pieces));
    let map = PieceMap::new(file, 0, 0, true).unwrap();
    // 512 octets in one run, then one-octet runs: a job names sixteen; the
    // extra octets after a job may take more.
    let most = 512 + MAX_RUNS as u64 - 1;
    assert_eq!(map.ahead(most, 0).unwrap(), Ahead::Whole);
    assert_eq!(map.ahead(most, 16).unwrap(), Ahead::Whole);
    assert_eq!(map.ahead(most + 1, 0).unwrap(), Ahead::Stream);
    // The end of the body within at most sixteen runs, or not.
    assert_eq!(map.ahead(most - 24, 100).unwrap(), Ahead::Stream);
    // Asking does not move it.
    assert_eq!(map.place(), (0, 0, true));
}

#[test]
fn a_cut_file_is_a_truncated_body() {
    let b = body(1024 + 300);
    let framed = frame(&b, &[Piece::Partial(10), Piece::Final { octets: 2 }]);
    for cut in 0..framed.len() {
        let file = file_with(3, &framed[..cut]);
        let mut map = PieceMap::new(file, 3, 0, true).unwrap();
        match read_all(&mut map, &[100]).map(|r| r.0) {
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
    assert_eq!(read_all(&mut map, &[64]).unwrap().0, &b[10..]);
}

/// A job's look-ahead: named by runs (one an octet over one-octet pieces,
/// past the sixteen of the job's own), read but not taken.
#[test]
fn take_ahead_names_the_look_ahead_without_taking_it() {
    let b = body(512 + 40 + 3);
    let pieces = [vec![Piece::Partial(9)], vec![Piece::Partial(0); 40], vec![Piece::Final { octets: 1 }]].concat();
    let file = file_with(5, &frame(&b, &pieces));
    let mut map = PieceMap::new(file.clone(), 5, 0, true).unwrap();
    let job = 512 + MAX_RUNS - 1;
    assert_eq!(map.ahead(job as u64, 16).unwrap(), Ahead::Whole);
    let (runs, n) = map.take_ahead(job, 16).unwrap();
    assert_eq!(n, job + 16);
    let mut buf = vec![0u8; n];
    runs.read_into(&file, &mut buf).unwrap();
    assert!(buf == b[..n], "the job's octets and the sixteen after them");
    // The next take starts with the look-ahead.
    let mut next = vec![0u8; 16];
    assert_eq!(map.read_into(16, &mut next).unwrap(), 16);
    assert_eq!(next, b[job..job + 16]);
}
