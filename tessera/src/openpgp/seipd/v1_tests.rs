//! SEIPD v1 sealing and opening on one thread and with the MDC's SHA-1 on
//! a second: the same octets for any split of the writes, and any flipped
//! bit rejected.

use std::io::{Read, Write};

use proptest::prelude::*;

use super::*;

const KEY: [u8; 32] = [0x3c; 32];

/// `len` octets of a xorshift stream from `seed`.
fn data(len: usize, seed: u64) -> Vec<u8> {
    let mut s = seed | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        })
        .collect()
}

/// The body sealed with the prefix block `random` on `threads`, written
/// in the pieces between `cuts`.
fn seal(plain: &[u8], threads: usize, random: [u8; BLOCK], cuts: &[usize]) -> Vec<u8> {
    let mut at: Vec<usize> = cuts.iter().map(|c| c % (plain.len() + 1)).chain([0, plain.len()]).collect();
    at.sort_unstable();
    at.dedup();
    let mut s = MdcSealer::start(Vec::new(), &KEY, threads, random).unwrap();
    for w in at.windows(2) {
        s.write_all(&plain[w[0]..w[1]]).unwrap();
    }
    s.finish().unwrap()
}

/// Opens `body` on `threads`, reading in pieces of `step` octets.
fn open(body: &[u8], threads: usize, step: usize) -> Result<Vec<u8>> {
    let prefix: &[u8; V1_PREFIX_LEN] = body[..V1_PREFIX_LEN].try_into().unwrap();
    let mut o = MdcOpener::with_threads(&body[V1_PREFIX_LEN..], &KEY, prefix, threads)?;
    let (mut out, mut buf) = (Vec::new(), vec![0u8; step]);
    loop {
        match o.read(&mut buf).map_err(Error::from_io)? {
            0 => return Ok(out),
            n => out.extend_from_slice(&buf[..n]),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Threaded sealing with any write sizes gives the octets of one
    /// `write_all` on one thread, and both openers read them back.
    #[test]
    fn same_octets_for_any_split_and_thread_count(
        len in prop_oneof![0usize..2000, 200_000usize..700_000],
        seed in any::<u64>(),
        random in any::<[u8; BLOCK]>(),
        cuts in proptest::collection::vec(any::<usize>(), 0..8),
        step in 1usize..100_000,
    ) {
        let plain = data(len, seed);
        let one = seal(&plain, 1, random, &[]);
        prop_assert_eq!(&seal(&plain, 2, random, &cuts), &one);
        prop_assert_eq!(&seal(&plain, 1, random, &cuts), &one);
        prop_assert_eq!(&open(&one, 1, step).unwrap(), &plain);
        prop_assert_eq!(&open(&one, 2, step).unwrap(), &plain);
    }

    /// A flipped bit anywhere after the prefix fails the MDC, on one
    /// thread or two.
    #[test]
    fn any_flipped_bit_is_rejected(
        len in prop_oneof![0usize..2000, 260_000usize..400_000],
        seed in any::<u64>(),
        at in any::<usize>(),
        bit in 0u8..8,
        threads in 1usize..3,
    ) {
        let plain = data(len, seed);
        let mut body = seal(&plain, threads, [7; BLOCK], &[]);
        let i = V1_PREFIX_LEN + at % (body.len() - V1_PREFIX_LEN);
        body[i] ^= 1 << bit;
        prop_assert!(matches!(open(&body, threads, 65_536), Err(Error::Authentication(_))));
    }
}

/// A message cut short is refused by the threaded opener too.
#[test]
fn truncation_is_rejected_with_a_hash_thread() {
    let plain = data(300_000, 5);
    let body = seal(&plain, 2, [1; BLOCK], &[]);
    for cut in [1, MDC_LEN, MDC_LEN + 1, 100_000] {
        assert!(open(&body[..body.len() - cut], 2, 4096).is_err(), "cut {cut}");
    }
}

/// A writer that fails once `left` octets are written.
struct FailsAfter {
    left: usize,
}

impl Write for FailsAfter {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        if b.len() > self.left {
            return Err(std::io::Error::other("disk full"));
        }
        self.left -= b.len();
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A failed write of the output poisons the sealer with the hash thread
/// running: every later write and `finish` fail.
#[test]
fn a_failed_output_poisons_the_threaded_sealer() {
    let plain = data(900_000, 3);
    let mut s = MdcSealer::start(FailsAfter { left: 500_000 }, &KEY, 2, [2; BLOCK]).unwrap();
    assert!(s.write_all(&plain).is_err());
    assert!(s.write_all(b"more").is_err());
    assert!(s.finish().is_err());
}
