//! `Encryptor::copy_from` and `copy_from_file`, which read an input of
//! known length straight into the chunk buffers (from a file, on every
//! chunk worker): the literal packet is framed in the same pieces as one
//! `write_all` of the same data, every path round trips (one thread, chunk
//! workers, SEIPD v1, armor), an input that grows is copied whole, and one
//! that ends before its announced length is refused and leaves no usable
//! message.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};

use proptest::prelude::*;
use tessera::aead::Mode;
use tessera::fs::CopyError;
use tessera::openpgp::packet::{BodyReader, read_header, tag};
use tessera::openpgp::seipd::{ChunkOpener, V2Header, chunk_size};
use tessera::openpgp::{Decryptor, EncryptOptions, Encryptor, Profile, S2kChoice, SymAlg};

const PW: &[u8] = b"copy from";

fn opts(profile: Profile, chunk_octet: u8, threads: usize, armor: bool) -> EncryptOptions {
    EncryptOptions {
        profile,
        aead: Mode::Ocb,
        cipher: SymAlg::Aes128,
        chunk_octet,
        threads,
        armor,
        s2k: S2kChoice::Iterated { count_octet: 0 },
        ..EncryptOptions::default()
    }
}

fn data(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i as u32).wrapping_mul(2654435761).rotate_left(11) as u8).collect()
}

/// A reader of `data` that returns at most `most` octets a read and
/// `Interrupted` on every `every`-th call, as pipes and signals do.
struct Trickle<'a> {
    data: &'a [u8],
    most: usize,
    every: usize,
    calls: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.every > 0 && self.calls.is_multiple_of(self.every) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let k = buf.len().min(self.most).min(self.data.len());
        buf[..k].copy_from_slice(&self.data[..k]);
        self.data = &self.data[k..];
        Ok(k)
    }
}

fn trickle(data: &[u8], most: usize) -> Trickle<'_> {
    Trickle { data, most, every: 3, calls: 0 }
}

fn by_copy_from(plain: &[u8], len: u64, most: usize, o: &EncryptOptions) -> Vec<u8> {
    let mut enc = Encryptor::new(Vec::new(), &[PW], o).unwrap();
    assert_eq!(enc.copy_from(&mut trickle(plain, most), len).unwrap(), plain.len() as u64);
    enc.finish().unwrap()
}

fn by_one_write(plain: &[u8], o: &EncryptOptions) -> Vec<u8> {
    let mut enc = Encryptor::new(Vec::new(), &[PW], o).unwrap();
    enc.write_all(plain).unwrap();
    enc.finish().unwrap()
}

fn decrypt(msg: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    Decryptor::new(msg, &[PW]).unwrap().read_to_end(&mut out).unwrap();
    out
}

/// The body lengths of the literal packet inside a binary SEIPD v2
/// message (opened with its session key), parsed here independently of
/// the library's reader: partial pieces as `Err(size)`, the last as `Ok`.
fn literal_pieces(msg: &[u8]) -> Vec<Result<u32, u32>> {
    let key = Decryptor::new(msg, &[PW]).unwrap().session_key().key.clone();
    let mut r = msg;
    let h = read_header(&mut r).unwrap().unwrap();
    assert_eq!(h.tag, tag::SKESK);
    BodyReader::new(&mut r, h.len).skip_rest().unwrap();
    let h = read_header(&mut r).unwrap().unwrap();
    assert_eq!(h.tag, tag::SEIPD);
    let mut body = BodyReader::new(r, h.len);
    let mut head = [0u8; 36];
    body.read_exact(&mut head).unwrap();
    let header = V2Header::parse(head[1..].try_into().unwrap()).unwrap();
    let mut stream = Vec::new();
    ChunkOpener::new(body, &header, &key).unwrap().read_to_end(&mut stream).unwrap();
    assert_eq!(stream[0], 0xc0 | tag::LITERAL);
    let (mut pos, mut pieces) = (1, Vec::new());
    loop {
        let o = stream[pos] as usize;
        let (len, header_len, partial) = match o {
            0..=191 => (o, 1, false),
            192..=223 => (((o - 192) << 8) + stream[pos + 1] as usize + 192, 2, false),
            224..=254 => (1 << (o & 31), 1, true),
            _ => (u32::from_be_bytes(stream[pos + 1..pos + 5].try_into().unwrap()) as usize, 5, false),
        };
        pos += header_len + len;
        if !partial {
            pieces.push(Ok(len as u32));
            assert_eq!(pos, stream.len(), "nothing after the literal packet");
            return pieces;
        }
        pieces.push(Err(len as u32));
    }
}

#[test]
fn same_pieces_as_one_write_on_every_path() {
    for chunk_octet in [0, 3, 12] {
        let c = chunk_size(chunk_octet);
        for n in [0, 1, 505, 506, 507, 511, 512, 1000, c - 1, c, c + 1, 3 * c + 5, (1 << 20) + 3] {
            let plain = data(n);
            for threads in [1, 2] {
                let o = opts(Profile::Rfc9580, chunk_octet, threads, false);
                let fast = by_copy_from(&plain, n as u64, 70_000, &o);
                assert_eq!(decrypt(&fast), plain, "n={n} chunk={c} threads={threads}");
                let pieces = literal_pieces(&fast);
                assert_eq!(pieces, literal_pieces(&by_one_write(&plain, &o)), "n={n} chunk={c}");
                if let Some(Err(first)) = pieces.first() {
                    assert!(*first >= 512, "the first partial piece is at least 512 octets");
                }
            }
        }
    }
}

#[test]
fn v1_and_armor_round_trip() {
    for (profile, armor) in [(Profile::Rfc4880, false), (Profile::Rfc4880, true), (Profile::Rfc9580, true)] {
        for n in [0, 700, 100_000, (1 << 19) + 9] {
            let plain = data(n);
            let msg = by_copy_from(&plain, n as u64, 1 << 20, &opts(profile, 12, 1, armor));
            assert_eq!(decrypt(&msg), plain, "{profile:?} armor={armor} n={n}");
        }
    }
}

#[test]
fn an_input_that_grows_is_copied_whole() {
    let plain = data(600_000);
    for len in [0, 1, 511, 4096, 300_001, 599_999] {
        for threads in [1, 2] {
            let msg = by_copy_from(&plain, len, 65_536, &opts(Profile::Rfc9580, 12, threads, false));
            assert_eq!(decrypt(&msg), plain, "announced {len}");
        }
    }
}

#[test]
fn an_input_shorter_than_announced_is_refused_and_poisons() {
    // Short inside a piece, and short in the tail under 512 octets.
    for (have, announced) in [(0, 10_000), (100, 2000), (700, 800), (300_000, 300_001), (600_000, 1 << 20)] {
        for (profile, threads) in [(Profile::Rfc9580, 1), (Profile::Rfc9580, 2), (Profile::Rfc4880, 1)] {
            let plain = data(have);
            let mut enc = Encryptor::new(Vec::new(), &[PW], &opts(profile, 12, threads, false)).unwrap();
            match enc.copy_from(&mut trickle(&plain, 4096), announced) {
                Err(CopyError::Read(e)) => {
                    assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
                    assert!(e.to_string().contains("shrink"), "{e}");
                }
                r => panic!("{have} of {announced}: {r:?}"),
            }
            assert!(enc.write_all(b"more").is_err(), "poisoned after {have} of {announced}");
            assert!(enc.finish().is_err());
        }
    }
}

#[test]
fn read_errors_and_broken_readers_are_errors() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("disk on fire"));
            }
            let k = buf.len().min(self.0);
            self.0 -= k;
            Ok(k)
        }
    }
    let mut enc = Encryptor::new(Vec::new(), &[PW], &opts(Profile::Rfc9580, 12, 1, false)).unwrap();
    match enc.copy_from(&mut Failing(5000), 1 << 20) {
        Err(CopyError::Read(e)) => assert!(e.to_string().contains("disk on fire")),
        r => panic!("{r:?}"),
    }
    assert!(enc.finish().is_err());

    struct Liar;
    impl Read for Liar {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            Ok(buf.len() + 1)
        }
    }
    let mut enc = Encryptor::new(Vec::new(), &[PW], &opts(Profile::Rfc9580, 12, 1, false)).unwrap();
    assert!(matches!(enc.copy_from(&mut Liar, 1 << 20), Err(CopyError::Read(_))));
    assert!(enc.finish().is_err());

    // All or nothing: a failure after the announced length poisons too.
    let mut enc = Encryptor::new(Vec::new(), &[PW], &opts(Profile::Rfc9580, 12, 2, false)).unwrap();
    assert!(matches!(enc.copy_from(&mut Failing(5000), 1000), Err(CopyError::Read(_))));
    assert!(enc.write_all(b"more").is_err() && enc.finish().is_err());

    // A length no input can have is an error, not an overflow.
    for len in [u64::MAX, u64::MAX - 3] {
        let mut enc = Encryptor::new(Vec::new(), &[PW], &opts(Profile::Rfc9580, 12, 1, false)).unwrap();
        match enc.copy_from(&mut &b"abc"[..], len) {
            Err(CopyError::Read(e)) => assert_eq!(e.kind(), io::ErrorKind::InvalidInput),
            r => panic!("{r:?}"),
        }
    }
}

/// An output whose `write_all` is interrupted once: the chunk was sealed
/// in place, so the encryptor must not seal it again on the next call
/// (with GCM that would write the plaintext out in the clear).
#[test]
fn an_interrupted_write_is_final() {
    struct Hiccup {
        out: Vec<u8>,
        hiccups: usize,
    }
    impl Write for Hiccup {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.write_all(b).map(|()| b.len())
        }
        fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
            if b.len() > 1000 && self.hiccups > 0 {
                self.hiccups -= 1;
                return Err(io::ErrorKind::Interrupted.into());
            }
            self.out.extend_from_slice(b);
            Ok(())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let pattern = b"PLAINTEXT-PATTERN-".repeat(1000);
    for (mode, profile) in [(Mode::Gcm, Profile::Rfc9580), (Mode::Eax, Profile::Rfc9580), (Mode::Ocb, Profile::Rfc4880)]
    {
        for threads in [1, 2] {
            let o = EncryptOptions { aead: mode, ..opts(profile, 6, threads, false) };
            let mut out = Hiccup { out: Vec::new(), hiccups: 1 };
            {
                let mut enc = Encryptor::new(&mut out, &[PW], &o).unwrap();
                let mut failed = false;
                for _ in 0..4 {
                    failed |= enc.write_all(&pattern).is_err();
                }
                failed |= enc.finish().is_err();
                assert!(failed, "{mode:?} {profile:?} threads={threads}");
            }
            let leaked = out.out.windows(18).any(|w| w == b"PLAINTEXT-PATTERN-");
            assert!(!leaked, "plaintext written out: {mode:?} {profile:?} threads={threads}");
        }
    }
}

fn temp_file(plain: &[u8]) -> File {
    let mut f = tempfile::tempfile().unwrap();
    f.write_all(plain).unwrap();
    f.rewind().unwrap();
    f
}

#[test]
fn files_on_every_path_from_their_position() {
    let c = chunk_size(12);
    for n in [0, 1000, c - 1, c, c + 1, 5 * c, 9 * c + 333, (1 << 22) + 1] {
        let plain = data(n);
        for threads in [1, 2, 3] {
            for skip in [0, 1000] {
                let o = opts(Profile::Rfc9580, 12, threads, false);
                let mut f = temp_file(&plain);
                f.seek(SeekFrom::Start(skip.min(n) as u64)).unwrap();
                let mut enc = Encryptor::new(Vec::new(), &[PW], &o).unwrap();
                let read = enc.copy_from_file(&f).unwrap();
                let msg = enc.finish().unwrap();
                let rest = &plain[skip.min(n)..];
                assert_eq!(read, rest.len() as u64);
                assert_eq!(f.stream_position().unwrap(), n as u64, "the position is left at the end");
                assert_eq!(decrypt(&msg), rest, "n={n} threads={threads} skip={skip}");
                assert_eq!(literal_pieces(&msg), literal_pieces(&by_one_write(rest, &o)), "n={n} threads={threads}");
            }
        }
    }
    for profile in [Profile::Rfc4880, Profile::Rfc9580] {
        let plain = data(3 * c + 7);
        let mut enc = Encryptor::new(Vec::new(), &[PW], &opts(profile, 12, 2, true)).unwrap();
        enc.copy_from_file(&temp_file(&plain)).unwrap();
        assert_eq!(decrypt(&enc.finish().unwrap()), plain, "{profile:?} armored");
    }
}

/// An output (kept in `out`) that changes the input file once `after`
/// octets are written: truncates it to `to` octets, or appends `to` octets.
struct Meddler {
    file: File,
    out: Vec<u8>,
    after: usize,
    truncate: bool,
    to: usize,
}

impl Write for Meddler {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        let written = self.out.len();
        if written < self.after && written + b.len() >= self.after {
            if self.truncate {
                self.file.set_len(self.to as u64)?;
            } else {
                self.file.write_all(&data(self.to))?;
            }
        }
        self.out.extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_file_that_shrinks_while_read_is_refused_and_one_that_grows_is_read_whole() {
    let plain = data(64 << 20);
    for (profile, threads) in [(Profile::Rfc9580, 1), (Profile::Rfc9580, 2), (Profile::Rfc4880, 1)] {
        let f = temp_file(&plain);
        let file = f.try_clone().unwrap();
        let meddler = Meddler { file, out: Vec::new(), after: 1 << 20, truncate: true, to: 3 << 20 };
        let mut enc = Encryptor::new(meddler, &[PW], &opts(profile, 12, threads, false)).unwrap();
        match enc.copy_from_file(&f) {
            Err(CopyError::Read(e)) => assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof, "{e}"),
            r => panic!("threads={threads}: {r:?}"),
        }
        assert!(enc.finish().is_err(), "no final tag after a short file");

        // Appended to (through its own descriptor) while it is read.
        let named = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(named.path(), &plain[..8 << 20]).unwrap();
        let file = File::options().append(true).open(named.path()).unwrap();
        let meddler = Meddler { file, out: Vec::new(), after: 1 << 20, truncate: false, to: 5000 };
        let mut enc = Encryptor::new(meddler, &[PW], &opts(Profile::Rfc9580, 12, threads, false)).unwrap();
        assert_eq!(enc.copy_from_file(&File::open(named.path()).unwrap()).unwrap(), (8 << 20) + 5000);
        let mut want = plain[..8 << 20].to_vec();
        want.extend_from_slice(&data(5000));
        assert_eq!(decrypt(&enc.finish().unwrap().out), want, "threads={threads}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn any_length_any_reads_round_trip(
        n in 0usize..300_000,
        announced in 0usize..300_000,
        most in 1usize..100_000,
        chunk_octet in 0u8..13,
        threads in 1usize..3,
    ) {
        let plain = data(n);
        let o = opts(Profile::Rfc9580, chunk_octet, threads, false);
        if announced <= n {
            prop_assert_eq!(decrypt(&by_copy_from(&plain, announced as u64, most, &o)), plain);
        } else {
            let mut enc = Encryptor::new(Vec::new(), &[PW], &o).unwrap();
            prop_assert!(enc.copy_from(&mut trickle(&plain, most), announced as u64).is_err());
            prop_assert!(enc.finish().is_err());
        }
    }
}
