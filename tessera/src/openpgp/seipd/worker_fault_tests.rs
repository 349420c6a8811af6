//! A chunk worker that fails (a panic, or a thread gone without an answer):
//! the decryption fails, after the chunks before it and nothing else, and
//! never ends as if the chunks in flight had not been there.

use std::sync::Arc;

use super::V2Header;
use super::pool::{ChunkPool, FAULT, Fault, Op};
use super::from_file_tests::{PW, Rng, data, encrypt, file, one_piece, released, stream};
use super::threads::chunk_key;
use crate::TAG_LEN;
use crate::aead::Mode;
use crate::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, SymAlg};

const CHUNK: usize = 1 << 16;

/// Sets the fault for the pools this thread makes until dropped.
struct Faulty;

impl Faulty {
    fn new(f: Fault) -> Self {
        FAULT.set(Some(f));
        Faulty
    }
}

impl Drop for Faulty {
    fn drop(&mut self) {
        FAULT.set(None);
    }
}

/// A message of `chunks` whole chunks of 64 KiB and a short last one, its
/// SEIPD body in one piece: the message, and the file offset of chunk
/// `i`'s first octet for each `i`.
fn message(chunks: usize, seed: u64) -> (Vec<u8>, impl Fn(usize) -> usize) {
    let plain = data(&mut Rng(seed), chunks * CHUNK + 100);
    let (msg, body_at) = one_piece(&encrypt(&plain, 10));
    (msg, move |i| body_at + 36 + i * (CHUNK + TAG_LEN))
}

/// What the one-thread stream releases when chunk `bad` does not verify.
fn released_before(msg: &[u8], chunk_at: usize) -> Vec<u8> {
    let mut bad = msg.to_vec();
    bad[chunk_at + 5] ^= 1;
    let (got, _) = stream(&bad);
    assert!(got.1.is_some(), "a changed chunk fails");
    got.0
}

#[test]
fn a_worker_panic_fails_its_chunk_and_the_pool_goes_on() {
    let header = V2Header { cipher: SymAlg::Aes128, aead: Mode::Ocb, chunk_octet: 0, salt: [3; 32] };
    let key = chunk_key(&header, &[5; 16]).unwrap();
    let len = 64 + TAG_LEN;
    let mut pool = {
        let _f = Faulty::new(Fault::PanicAt(1));
        // One worker: were the panic not caught, no chunk after it would come back.
        ChunkPool::new(Arc::clone(&key), Op::Seal, 1, 3, len)
    };
    for _ in 0..3 {
        let buf = pool.buffer().unwrap();
        pool.submit(buf, 64, None).unwrap();
    }
    let got: Vec<_> = (0..3).map(|_| pool.take().map(|d| (d.index, d.ok, d.panicked, d.buf.len()))).collect();
    assert_eq!(got, [Some((0, true, false, len)), Some((1, false, true, len)), Some((2, true, false, len))]);
    assert!(pool.take().is_none() && pool.in_flight() == 0);
}

#[test]
fn a_worker_panic_fails_the_decryption_after_the_chunks_before_it() {
    let (msg, chunk_at) = message(8, 21);
    let before = released_before(&msg, chunk_at(3));
    for threads in [2, 4] {
        let f = file(0, &msg);
        let _fault = Faulty::new(Fault::PanicAt(3));
        let mut dec = Decryptor::from_file(&f, &[PW], &DecryptOptions { threads, ..Default::default() }).unwrap();
        let mut out = Vec::new();
        let err = std::io::Read::read_to_end(&mut dec, &mut out).unwrap_err().to_string();
        assert!(err.contains("worker panicked"), "{threads} threads: {err}");
        assert!(out == before, "{threads} threads: released {} octets, not the {} before chunk 3", out.len(), before.len());
        assert!(std::io::Read::read(&mut dec, &mut [0u8; 16]).is_err(), "{threads} threads: the error is final");
    }
}

/// Every worker gone (as threads that died outside the panic guard) with
/// chunks in flight, once this thread has read the last chunk and the
/// final tag: an error, not the last chunk after the chunks before the
/// gap (the final tag would verify: it counts the chunks handed out).
#[test]
fn workers_gone_with_chunks_in_flight_is_an_error_not_a_gap() {
    // Two workers, four buffers: chunks 0..3 go out, then the last is read here.
    let (msg, chunk_at) = message(4, 22);
    let before = released_before(&msg, chunk_at(1));
    let f = file(0, &msg);
    let _fault = Faulty::new(Fault::ExitFrom(1));
    let got = released(Decryptor::from_file(&f, &[PW], &DecryptOptions { threads: 2, ..Default::default() }));
    assert_eq!(got.1.as_deref(), Some("invalid option: a chunk worker stopped"));
    assert!(got.0 == before, "released {} octets, not the {} before chunk 1", got.0.len(), before.len());
}

/// A worker thread the operating system refuses, once data flows: the
/// decryption and the encryption fail, and every later call fails the
/// same way (no call may go on as if the chunk handed out had been taken).
#[test]
fn a_refused_worker_thread_is_a_final_error() {
    use std::io::{Read, Write};
    let (msg, _) = message(4, 23);
    let _fault = Faulty::new(Fault::RefuseSecondThread);
    let opts = DecryptOptions { threads: 2, ..Default::default() };
    // Opening reads up to the literal data, which hands chunks out already.
    let first = match Decryptor::with_options(msg.as_slice(), &[PW], &opts) {
        Err(e) => e.to_string(),
        Ok(mut dec) => {
            let mut buf = vec![0u8; 1 << 20];
            let first = dec.read(&mut buf).unwrap_err().to_string();
            assert_eq!(dec.read(&mut buf).unwrap_err().to_string(), first, "the error is final");
            first
        }
    };
    assert!(first.contains("cannot start a chunk worker thread"), "{first}");

    let opts = EncryptOptions { threads: 2, chunk_octet: 10, ..EncryptOptions::default() };
    let mut enc = Encryptor::new(Vec::new(), &[PW], &opts).unwrap();
    let chunk = vec![7u8; CHUNK];
    let first = (0..4).find_map(|_| enc.write_all(&chunk).err()).expect("a write fails").to_string();
    assert!(first.contains("cannot start a chunk worker thread"), "{first}");
    assert!(enc.write_all(&chunk).is_err() && enc.finish().is_err(), "the error is final");
}
