//! The batch output buffers: sealing, opening and resealing in place,
//! errors, and wiping.

use super::*;

const AD: &[&[u8]] = &[b"t.c"];

#[test]
fn outputs_match_one_message_at_a_time() {
    let siv = AesSiv::new(&[5u8; 48]).unwrap();
    let msgs: Vec<Vec<u8>> = (0..150).map(|n| (0..n).map(|i| (i * 7) as u8).collect()).collect();
    let mut batch = MessageBatch::new();
    msgs.iter().for_each(|m| batch.push(m));
    let cts: Vec<Vec<u8>> = batch.seal(&siv, BatchAd::Same(AD)).unwrap().map(<[u8]>::to_vec).collect();
    assert_eq!(cts.len(), msgs.len());
    for (m, c) in msgs.iter().zip(&cts) {
        assert_eq!(c, &siv.seal(None, AD, m).unwrap());
    }
    batch.clear();
    for c in &cts {
        let mut text = Vec::new();
        base64url::encode(c, &mut text);
        assert_eq!(batch.push_base64url(&text).unwrap(), c.len());
    }
    let pts: Vec<&[u8]> = batch.open(&siv, BatchAd::Same(AD)).unwrap().collect();
    assert_eq!(pts, msgs.iter().map(Vec::as_slice).collect::<Vec<_>>());
}

#[test]
fn errors_name_the_message_and_add_nothing() {
    let siv = AesSiv::new(&[5u8; 32]).unwrap();
    let mut batch = MessageBatch::new();
    batch.push(b"x");
    let ct = batch.seal(&siv, BatchAd::Same(AD)).unwrap().next().unwrap().to_vec();
    batch.clear();
    assert_eq!(batch.push_base64url(b"a="), Err(Error::Base64Url));
    assert!(batch.is_empty());
    batch.push(&ct);
    batch.push(&[0u8; 15]);
    let e = batch.open(&siv, BatchAd::Same(AD)).unwrap_err();
    assert!(matches!(e, Error::Batch { index: 1, ref source } if matches!(**source, Error::Format(_))), "{e:?}");
    batch.clear();
    batch.push(&ct);
    batch.push(&ct);
    assert!(matches!(batch.open(&siv, BatchAd::Same(&[b"other"])), Err(Error::Batch { index: 0, .. })));
    assert_eq!(batch.len(), 2);
}

#[test]
fn seal_and_open_append_after_what_out_holds() {
    let siv = AesSiv::new(&[5u8; 32]).unwrap();
    let mut batch = MessageBatch::new();
    let msg = |n: usize| vec![n as u8; n];
    (0..70).for_each(|n| batch.push(&msg(n)));
    for prefix in [&b""[..], b"\x01abcd"] {
        let (mut out, mut ends) = (b"kept".to_vec(), vec![4]);
        batch.seal_append(&siv, BatchAd::Same(AD), prefix, &mut out, &mut ends).unwrap();
        let values: Vec<&[u8]> = ends.windows(2).map(|w| &out[w[0]..w[1]]).collect();
        for (n, v) in values.iter().enumerate() {
            assert_eq!(*v, [prefix, &siv.seal(None, AD, &msg(n)).unwrap()].concat());
        }
        assert_eq!((&out[..4], values.len(), *ends.last().unwrap()), (&b"kept"[..], 70, out.len()));
        // And back, passing over the prefixes.
        let mut cts = MessageBatch::new();
        values.iter().for_each(|v| cts.push(v));
        let (mut pt, mut pt_ends) = (b"kept".to_vec(), vec![4]);
        cts.open_append(&siv, BatchAd::Same(AD), prefix.len(), &mut pt, &mut pt_ends).unwrap();
        let pts: Vec<&[u8]> = pt_ends.windows(2).map(|w| &pt[w[0]..w[1]]).collect();
        assert_eq!(pts, (0..70).map(msg).collect::<Vec<_>>());
        // A wrong associated data: nothing added.
        assert!(cts.open_append(&siv, BatchAd::Same(&[b"x"]), prefix.len(), &mut pt, &mut pt_ends).is_err());
        assert_eq!((pt.len(), pt_ends.len()), (*pt_ends.last().unwrap(), 71));
    }
    assert!(batch.seal_append(&siv, BatchAd::PerValue(&[]), b"", &mut Vec::new(), &mut Vec::new()).is_err());
}

#[test]
fn reseal_moves_to_the_new_key_and_wipes_every_plaintext_byte() {
    let (old, new) = (AesSiv::new(&[5u8; 32]).unwrap(), AesSiv::new(&[6u8; 64]).unwrap());
    let msgs: Vec<Vec<u8>> = (0..100).map(|n| vec![0xC3; n]).collect();
    let mut batch = MessageBatch::new();
    for round in 0..2 {
        // The second round reuses buffers that held the first's plaintexts,
        // and its messages start with a 5-byte prefix to pass over.
        let skip = 5 * round;
        batch.clear();
        for m in &msgs[round * 10..] {
            batch.push(&[&[9u8; 5][..skip], &old.seal(None, AD, m).unwrap()].concat());
        }
        let (mut out, mut ends) = (Vec::new(), vec![0]);
        batch.reseal((&old, skip), (&new, b"pre"), BatchAd::Same(AD), &mut out, &mut ends).unwrap().unwrap();
        let cts: Vec<&[u8]> = ends.windows(2).map(|w| &out[w[0]..w[1]]).collect();
        assert_eq!(cts.len(), 100 - round * 10);
        for (c, m) in cts.iter().zip(&msgs[round * 10..]) {
            assert_eq!(*c, [&b"pre"[..], &new.seal(None, AD, m).unwrap()].concat());
        }
        // Every byte that held a plaintext (its whole used length) is zero.
        let total: usize = msgs[round * 10..].iter().map(Vec::len).sum();
        assert_eq!(batch.data.len(), total);
        assert!(batch.data.iter().all(|&b| b == 0));
        assert!(batch.messages().all(|m| m.iter().all(|&b| b == 0)));
    }
    // A message that does not open: named, and the batch is unchanged.
    batch.clear();
    batch.push(&old.seal(None, AD, b"x").unwrap());
    batch.push(&new.seal(None, AD, b"y").unwrap());
    let before = batch.data.clone();
    let (mut out, mut ends) = (b"kept".to_vec(), vec![4]);
    let e = batch.reseal((&old, 0), (&new, b""), BatchAd::Same(AD), &mut out, &mut ends).unwrap_err();
    assert!(matches!(e, Error::Batch { index: 1, .. }), "{e:?}");
    assert_eq!((batch.data.clone(), batch.len()), (before, 2));
    assert_eq!((out, ends), (b"kept".to_vec(), vec![4]));
    assert!(batch.out.iter().all(|&b| b == 0));
}

#[test]
fn outputs_stop_on_ends_that_do_not_fit() {
    let out = [0u8; 40];
    assert_eq!(BatchOutputs::sealed(&out, &[4, 100]).map(<[u8]>::len).collect::<Vec<_>>(), [20]);
    assert_eq!(BatchOutputs::sealed(&out, &[30, 2]).count(), 0);
    assert_eq!(BatchOutputs::opened(&out, &[15]).count(), 0);
    assert_eq!(BatchOutputs::opened(&out, &[16, 40]).map(<[u8]>::len).collect::<Vec<_>>(), [0, 8]);
    assert_eq!(BatchOutputs::opened(&out, &[usize::MAX]).count(), 0);
    assert_eq!(BatchOutputs::sealed(&out, &[]).count(), 0);
}

#[test]
fn clear_wipes_the_outputs_of_an_open_and_growth_keeps_the_contents() {
    let siv = AesSiv::new(&[7u8; 32]).unwrap();
    let mut batch = MessageBatch::new();
    let msgs: Vec<Vec<u8>> = (1..50).map(|n| vec![0xA5; n]).collect();
    // Pushed one by one: the message buffer grows through reserve_wiped.
    msgs.iter().for_each(|m| batch.push(m));
    let cts: Vec<Vec<u8>> = batch.seal(&siv, BatchAd::Same(AD)).unwrap().map(<[u8]>::to_vec).collect();
    batch.clear();
    cts.iter().for_each(|c| batch.push(c));
    let opened: Vec<Vec<u8>> = batch.open(&siv, BatchAd::Same(AD)).unwrap().map(<[u8]>::to_vec).collect();
    assert_eq!(opened, msgs);
    let used = batch.out.len();
    assert!(batch.out.contains(&0xA5));
    batch.clear();
    assert_eq!(batch.out.len(), used, "the output buffer keeps its length for the next resize");
    assert!(batch.out.iter().all(|&b| b == 0), "the plaintexts of the open are wiped");
    assert!(batch.is_empty());
    // A base64url push that fails adds nothing (and its partial bytes are wiped).
    batch.push(b"x");
    assert!(batch.push_base64url(b"aGVsbG8=").is_err());
    assert_eq!(batch.data, b"x");
    // Growing keeps what a buffer holds.
    let mut v = b"abc".to_vec();
    reserve_wiped(&mut v, 1000);
    assert!(v.capacity() >= 1003);
    assert_eq!(v, b"abc");
    resize_wiped(&mut v, 2);
    assert_eq!(v, b"ab");
}
