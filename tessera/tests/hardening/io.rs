//! Every streaming reader and writer of `openpgp`, driven by an adversarial
//! `Read`/`Write` (property tests): short reads and writes, `Interrupted`,
//! `WouldBlock`, one error at any offset, and (for the readers that read
//! their input directly) counts above the buffer's length.
//!
//! The property: no panic; the octets released are a prefix of the right
//! output; after an error, a later call either continues correctly (the
//! output ends complete) or fails again with the same message. Writers fail
//! for good after an error of their writer. (A Rust writer that reports more
//! octets written than given breaks `Write::write_all` in std itself, so the
//! writers are not given one; the Python adapters refuse such counts.)

use std::io::{self, BufReader, Read, Write};

use proptest::collection::vec;
use proptest::prelude::*;
use tessera::aead::Mode;
use tessera::openpgp::armor::{ArmorReader, ArmorWriter, MESSAGE};
use tessera::openpgp::packet::{BodyReader, PartialWriter, read_header, tag};
use tessera::openpgp::seipd::{ChunkOpener, ChunkSealer, MdcOpener, MdcSealer, V2Header};
use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, Profile, S2kChoice, SymAlg};

/// One step of the adversary.
#[derive(Debug, Clone, Copy)]
enum Act {
    /// Move at most this many octets (at least 1).
    Short(usize),
    Interrupted,
    WouldBlock,
    /// Report one octet more than the buffer holds (readers only).
    Overlong,
}

fn act(overlong: bool) -> impl Strategy<Value = Act> {
    let w = if overlong { 1 } else { 0 };
    prop_oneof![
        8 => (1usize..5000).prop_map(Act::Short),
        2 => Just(Act::Interrupted),
        2 => Just(Act::WouldBlock),
        w => Just(Act::Overlong),
    ]
}

/// An input or output that follows `script` (cyclically) and fails once,
/// with "injected", when `fail_at` octets have passed.
struct Adversary {
    data: Vec<u8>,
    pos: usize,
    script: Vec<Act>,
    step: usize,
    fail_at: Option<usize>,
}

impl Adversary {
    fn new(data: Vec<u8>, script: Vec<Act>, fail_at: Option<usize>) -> Self {
        Adversary { data, pos: 0, script, step: 0, fail_at }
    }

    /// The next action, or the injected error.
    fn next(&mut self) -> Result<Act, io::Error> {
        if self.fail_at.is_some_and(|f| f <= self.pos) {
            self.fail_at = None;
            return Err(io::Error::other("injected"));
        }
        let a = self.script[self.step % self.script.len()];
        self.step += 1;
        match a {
            Act::Interrupted => Err(io::ErrorKind::Interrupted.into()),
            Act::WouldBlock => Err(io::ErrorKind::WouldBlock.into()),
            a => Ok(a),
        }
    }
}

impl Read for Adversary {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let limit = match self.next()? {
            Act::Short(k) => k,
            _ => return Ok(buf.len() + 1),
        };
        let n = limit.min(buf.len()).min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl Write for Adversary {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let Act::Short(k) = self.next()? else { unreachable!("no over-long writes") };
        let n = k.min(buf.len());
        self.data.extend_from_slice(&buf[..n]);
        self.pos += n;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Reads `r` to its end or a final error, checking the property against
/// `want`. Returns whether the output came out whole.
fn drive(mut r: impl Read, want: &[u8]) -> Result<bool, TestCaseError> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1500];
    let mut last_err: Option<String> = None;
    let mut repeats = 0;
    let mut prev_typed = false;
    for _ in 0..1_000_000 {
        match r.read(&mut buf) {
            Ok(0) => {
                prop_assert_eq!(&out[..], want, "ended early or late");
                return Ok(true);
            }
            Ok(n) => {
                out.extend_from_slice(&buf[..n]);
                prop_assert!(want.starts_with(&out), "released octets that are not the output's");
                prop_assert!(!prev_typed, "data after a final error");
                last_err = None;
            }
            Err(e) if matches!(e.kind(), io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock) => {}
            Err(e) => {
                let e = tessera::openpgp::Error::from_io(e);
                // A typed error is final: it must come again, the same. An
                // I/O error from below may be followed by another one.
                let typed = !matches!(e, tessera::openpgp::Error::Io(_));
                let msg = e.to_string();
                match &last_err {
                    Some(prev) if *prev == msg => {
                        repeats += 1;
                        if repeats == 3 {
                            return Ok(false);
                        }
                    }
                    Some(prev) if prev_typed => prop_assert_eq!(prev, &msg, "a final error changed"),
                    _ => {
                        last_err = Some(msg);
                        prev_typed = typed;
                        repeats = 0;
                    }
                }
            }
        }
    }
    Err(TestCaseError::fail("no progress"))
}

const KEY: [u8; 16] = [3; 16];

fn header() -> V2Header {
    V2Header { cipher: SymAlg::Aes128, aead: Mode::Eax, chunk_octet: 2, salt: [6; 32] }
}

fn plain(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 31 + i / 7) as u8).collect()
}

fn seal_v2(p: &[u8]) -> Vec<u8> {
    let mut s = ChunkSealer::new(Vec::new(), &header(), &KEY).unwrap();
    s.write_all(p).unwrap();
    s.finish().unwrap()
}

fn seal_v1(p: &[u8]) -> Vec<u8> {
    let mut s = MdcSealer::new(Vec::new(), &KEY).unwrap();
    s.write_all(p).unwrap();
    s.finish().unwrap()
}

fn message(p: &[u8], profile: Profile, armor: bool) -> Vec<u8> {
    let opts = EncryptOptions {
        profile,
        armor,
        chunk_octet: 3,
        s2k: S2kChoice::Iterated { count_octet: 0 },
        ..EncryptOptions::default()
    };
    let mut e = Encryptor::new(Vec::new(), &[b"pw".as_slice()], &opts).unwrap();
    e.write_all(p).unwrap();
    e.finish().unwrap()
}

fn partial_packet(p: &[u8]) -> Vec<u8> {
    let mut w = PartialWriter::new(Vec::new(), tag::LITERAL);
    w.write_all(p).unwrap();
    w.finish().unwrap()
}

fn armored(p: &[u8]) -> Vec<u8> {
    let mut w = ArmorWriter::new(Vec::new(), MESSAGE, true).unwrap();
    w.write_all(p).unwrap();
    w.finish().unwrap()
}

fn config() -> ProptestConfig {
    ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() }
}

/// (length of the plaintext, the adversary's script, where it fails).
fn setup(overlong: bool) -> impl Strategy<Value = (usize, Vec<Act>, Option<usize>)> {
    // Every script moves some octets, or nothing could ever progress.
    let script = (1usize..5000, vec(act(overlong), 0..12)).prop_map(|(k, mut v)| {
        v.insert(0, Act::Short(k));
        v
    });
    (0usize..3000, script, prop_oneof![Just(None), (0usize..4000).prop_map(Some)])
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn chunk_opener((n, script, fail_at) in setup(true)) {
        let p = plain(n);
        let adv = Adversary::new(seal_v2(&p), script, fail_at);
        drive(ChunkOpener::new(adv, &header(), &KEY).unwrap(), &p)?;
    }

    #[test]
    fn mdc_opener((n, script, fail_at) in setup(true)) {
        let p = plain(n);
        let ct = seal_v1(&p);
        let (prefix, rest) = ct.split_at(18);
        let adv = Adversary::new(rest.to_vec(), script, fail_at);
        drive(MdcOpener::with_prefix(adv, &KEY, prefix.try_into().unwrap()).unwrap(), &p)?;
    }

    #[test]
    fn body_reader((n, script, fail_at) in setup(true)) {
        let p = plain(n);
        let pkt = partial_packet(&p);
        let mut r = pkt.as_slice();
        let h = read_header(&mut r).unwrap().unwrap();
        let adv = Adversary::new(r.to_vec(), script, fail_at);
        drive(BodyReader::new(adv, h.len), &p)?;
    }

    #[test]
    fn armor_reader((n, script, fail_at) in setup(false), cap in 1usize..200) {
        let p = plain(n);
        let adv = Adversary::new(armored(&p), script, fail_at);
        drive(ArmorReader::new(BufReader::with_capacity(cap, adv)), &p)?;
    }

    #[test]
    fn decryptor(
        (n, script, fail_at) in setup(false),
        which in 0usize..5,
        cap in 1usize..300,
    ) {
        let p = plain(n * 40);
        let (profile, armor, stream) =
            [(Profile::Rfc9580, false, false), (Profile::Rfc9580, true, false), (Profile::Rfc4880, false, false),
             (Profile::Rfc4880, false, true), (Profile::Rfc4880, true, true)][which];
        let adv = Adversary::new(message(&p, profile, armor), script, fail_at);
        let opts = DecryptOptions { v1_stream_unauthenticated: stream, ..DecryptOptions::default() };
        // The constructor reads headers that cannot resume: it may fail.
        if let Ok(d) = Decryptor::with_options(BufReader::with_capacity(cap, adv), &[b"pw".as_slice()], &opts) {
            drive(d, &p)?;
        }
    }

    #[test]
    fn writers((n, script, fail_at) in setup(false), which in 0usize..6) {
        let p = plain(n * 20);
        let sink = Adversary::new(Vec::new(), script, fail_at);
        let result = match which {
            0 => write_through(ChunkSealer::new(sink, &header(), &KEY).unwrap(), &p, |w| w.finish()),
            1 => write_through(MdcSealer::new(sink, &KEY).unwrap(), &p, |w| w.finish()),
            2 => write_through(PartialWriter::new(sink, tag::LITERAL), &p, |w| w.finish()),
            3 => match ArmorWriter::new(sink, MESSAGE, false) {
                Ok(w) => write_through(w, &p, |w| w.finish()),
                Err(_) => return Ok(()),
            },
            _ => {
                let opts = EncryptOptions {
                    profile: if which == 4 { Profile::Rfc9580 } else { Profile::Rfc4880 },
                    chunk_octet: 2,
                    armor: which == 5,
                    s2k: S2kChoice::Iterated { count_octet: 0 },
                    ..EncryptOptions::default()
                };
                match Encryptor::new(sink, &[b"pw".as_slice()], &opts) {
                    Ok(e) => write_through(e, &p, |e| e.finish().map_err(io::Error::from)),
                    Err(_) => return Ok(()),
                }
            }
        };
        // Without an error the output decodes to the input.
        if let Some(out) = result? {
            let back = match which {
                0 => read_to_end(ChunkOpener::new(out.as_slice(), &header(), &KEY).unwrap()),
                1 => read_to_end(MdcOpener::with_prefix(&out[18..], &KEY, out[..18].try_into().unwrap()).unwrap()),
                2 => {
                    let mut r = out.as_slice();
                    let h = read_header(&mut r).unwrap().unwrap();
                    read_to_end(BodyReader::new(r, h.len))
                }
                3 => read_to_end(ArmorReader::new(out.as_slice())),
                _ => read_to_end(Decryptor::new(out.as_slice(), &[b"pw".as_slice()]).unwrap()),
            };
            prop_assert_eq!(back, p);
        }
    }
}

fn read_to_end(mut r: impl Read) -> Vec<u8> {
    let mut v = Vec::new();
    r.read_to_end(&mut v).unwrap();
    v
}

/// Writes `p` in pieces, then finishes. `Ok(Some(output))` when nothing
/// failed; `Ok(None)` when a write failed and every later call (writes and
/// the finish) failed with the same message.
fn write_through<W: Write>(
    mut w: W,
    p: &[u8],
    finish: impl FnOnce(W) -> io::Result<Adversary>,
) -> Result<Option<Vec<u8>>, TestCaseError> {
    let mut first: Option<String> = None;
    for chunk in p.chunks(333) {
        match w.write_all(chunk) {
            Ok(()) => prop_assert!(first.is_none(), "a write succeeded after an error"),
            Err(e) => {
                let msg = e.to_string();
                prop_assert_eq!(first.get_or_insert_with(|| msg.clone()), &msg);
            }
        }
    }
    match (finish(w), first) {
        (Ok(a), None) => Ok(Some(a.data)),
        (Ok(_), Some(e)) => Err(TestCaseError::fail(format!("finished after the error {e}"))),
        (Err(e), Some(first)) => {
            prop_assert_eq!(first, e.to_string());
            Ok(None)
        }
        (Err(_), None) => Ok(None),
    }
}
