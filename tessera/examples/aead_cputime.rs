//! OCB's bulk kernels and AES-SIV's single-message path in CPU time (best
//! of 5): a check that, unlike wall-clock benchmarks, holds up on a busy
//! machine.
//!
//! `cargo run --release -p tessera --example aead_cputime -- ocb`: every OCB
//! kernel this CPU runs (forced), AES-128, 256 KiB and 64 MiB, seal and open
//! in place (open as open + seal less seal), GiB/s (the measurement behind `PREFER_512` in
//! `aead/ocb/kernel.rs`).
//!
//! `... aead_cputime -- siv`: AES-SIV-256, a 1000-byte message with 100
//! bytes of associated data, encrypted then decrypted: tessera, its
//! portable path, and `aes-siv` 0.8 (the shape of the `siv_1000B` bench),
//! beside the floor: 126 dependent AES blocks (S2V of 2016 bytes).
//!
//! Then (alone with `siv-mix`) tessera, `aes-siv`, the floor and
//! tessera's seal alone, sampled in turn: 15 rounds of one ~50 ms sample
//! each, so a drift in the machine's speed moves them all alike; the
//! median and best of each and the ratios of medians and of bests.
//!
//! Last (alone with `siv-wall`) the same three in short wall-clock samples
//! (2001 rounds of ~200 us): see [`siv_wall`].
//!
//! `... aead_cputime -- siv-parts`: the parts of that shape, sampled in
//! turn the same way: seal, S2V alone (seal less its CTR), open, one chain
//! of 63 blocks (S2V of 1008 bytes), and seal and open of 1 MiB.
//!
//! `... aead_cputime -- siv-calls [N]`: that tessera seal and open N times
//! (10 000) and nothing else, for `valgrind --tool=callgrind`.
//!
//! `... aead_cputime -- keyed-calls MODE [N] [SIZE]`: MODE (`ocb`, `eax`,
//! `gcm`, `siv`, `cmac`) built from a fresh 16-byte key (32 for `siv`),
//! then one seal and one open of SIZE bytes (1000), N times (10 000): key
//! setup and one message, for `valgrind --tool=callgrind`.

use std::hint::black_box;

use aes_siv::aead::inout::InOutBuf;
use aes_siv::siv::Aes128Siv;
use cmac::KeyInit;
use tessera::aead::{Aad, AeadInPlace, Eax, Gcm, Nonce, Ocb};
use tessera::siv::AesSiv;

/// The CPU time this thread has used, in seconds (Linux schedstat; the
/// wall clock since `t0` elsewhere).
fn thread_cpu(t0: std::time::Instant) -> f64 {
    match std::fs::read_to_string("/proc/thread-self/schedstat") {
        Ok(s) => s.split(' ').next().and_then(|ns| ns.parse::<f64>().ok()).unwrap_or(0.0) / 1e9,
        Err(_) => t0.elapsed().as_secs_f64(),
    }
}

/// The least CPU time of one call of `f` over 5 samples of `reps` calls
/// (each sample long beside the clock's resolution: on the VM measured,
/// thread CPU time moved in steps of about 4 ms).
fn best(reps: usize, mut f: impl FnMut()) -> f64 {
    let t0 = std::time::Instant::now();
    let mut least = f64::MAX;
    for _ in 0..5 {
        let start = thread_cpu(t0);
        for _ in 0..reps {
            f();
        }
        least = least.min((thread_cpu(t0) - start) / reps as f64);
    }
    least
}

fn ocb() {
    let (key, nonce, ad) = ([0x42u8; 16], [0x15u8; 15], [0xd4u8; 13]);
    println!("kernel     size      seal GiB/s  open GiB/s");
    for size in [256usize << 10, 64 << 20] {
        let reps = (2 << 30) / size;
        for name in Ocb::kernels().0 {
            let ocb = Ocb::new_with_kernel(&key, name).expect("a kernel this CPU runs");
            let n = || Nonce::assume_unique_for_key(&nonce);
            let mut buf = vec![0x5au8; size];
            let mut tag = ocb.seal_in_place_separate_tag(n(), Aad::new(&ad), &mut buf).unwrap();
            let seal = best(reps, || {
                tag = ocb.seal_in_place_separate_tag(n(), Aad::new(&ad), black_box(&mut buf)).unwrap();
            });
            // Opening in place restores the plaintext: each open is followed
            // by a seal that makes the ciphertext again, and the seal's own
            // time is taken off.
            let open_seal = best(reps, || {
                ocb.open_in_place_separate_tag(n(), Aad::new(&ad), black_box(&mut buf), &tag).unwrap();
                tag = ocb.seal_in_place_separate_tag(n(), Aad::new(&ad), black_box(&mut buf)).unwrap();
            });
            let open = open_seal - seal;
            let gib = |s: f64| size as f64 / s / (1u64 << 30) as f64;
            println!("{name:<10} {:>5} KiB  {:>10.2}  {:>10.2}", size >> 10, gib(seal), gib(open));
        }
    }
}

/// `seal_into` then `open_into` of the `siv` shape, `n` times and nothing
/// else: instructions per call under `valgrind --tool=callgrind`.
fn siv_calls(n: usize) {
    let s = AesSiv::new(&[0x2bu8; 32]).unwrap();
    let (pt, ad) = (vec![0x5au8; 1000], vec![0xa5u8; 100]);
    let (mut ct, mut back) = (vec![0u8; 1016], vec![0u8; 1000]);
    for _ in 0..n {
        s.seal_into(None, &[&ad], black_box(&pt), &mut ct).unwrap();
        s.open_into(None, &[&ad], black_box(&ct), &mut back).unwrap();
    }
    assert_eq!(back, pt);
}

/// `keyed-calls MODE [N] [SIZE]`: see the module docs.
fn keyed_calls(mode: &str, n: usize, size: usize) {
    let mut buf = vec![0x5au8; size];
    let ad = [0xa5u8; 100];
    for i in 0..n {
        let mut key = [0x2bu8; 32];
        key[0] = i as u8;
        let aead = |a: &dyn AeadInPlace, nonce: &[u8], buf: &mut [u8]| {
            let nn = || Nonce::assume_unique_for_key(nonce);
            let tag = a.seal_in_place_separate_tag(nn(), Aad::new(&ad), black_box(buf)).unwrap();
            a.open_in_place_separate_tag(nn(), Aad::new(&ad), black_box(buf), &tag).unwrap();
        };
        match mode {
            "ocb" => aead(&Ocb::new(&key[..16]).unwrap(), &[1; 15], &mut buf),
            "eax" => aead(&Eax::new(&key[..16]).unwrap(), &[1; 16], &mut buf),
            "gcm" => aead(&Gcm::new(&key[..16]).unwrap(), &[1; 12], &mut buf),
            "siv" => {
                let s = AesSiv::new(&key).unwrap();
                let mut ct = vec![0u8; size + 16];
                s.seal_into(None, &[&ad], black_box(&buf), &mut ct).unwrap();
                s.open_into(None, &[&ad], black_box(&ct), &mut buf).unwrap();
            }
            "cmac" => {
                black_box(tessera::Cmac::new(&key[..16]).unwrap().mac(black_box(&buf)));
            }
            _ => panic!("keyed-calls ocb|eax|gcm|siv|cmac [N] [SIZE]"),
        }
    }
    assert_eq!(buf, vec![0x5au8; size]);
}

fn siv() {
    let key = [0x2bu8; 32];
    let (pt, ad) = (vec![0x5au8; 1000], vec![0xa5u8; 100]);
    let (mut ct, mut back) = (vec![0u8; 1016], vec![0u8; 1000]);
    let reps = 200_000;
    for (name, s) in
        [("tessera", AesSiv::new(&key).unwrap()), ("tessera-portable", AesSiv::new_portable(&key).unwrap())]
    {
        let t = best(reps, || {
            let n = s.seal_into(None, &[&ad], black_box(&pt), &mut ct).unwrap();
            s.open_into(None, &[&ad], &ct[..n], &mut back).unwrap();
        });
        println!("{name:<18} {:.3} us", t * 1e6);
        let seal = best(reps, || {
            s.seal_into(None, &[&ad], black_box(&pt), &mut ct).unwrap();
        });
        let open = best(reps, || {
            s.open_into(None, &[&ad], black_box(&ct), &mut back).unwrap();
        });
        let ct0 = s.seal(None, &[], &pt).unwrap();
        let open0 = best(reps, || {
            s.open_into(None, &[], black_box(&ct0), &mut back).unwrap();
        });
        println!(
            "{:<18} seal {:.3} us, open {:.3} us, open without AD {:.3} us",
            "",
            seal * 1e6,
            open * 1e6,
            open0 * 1e6
        );
    }
    let big = vec![0x5au8; 1 << 20];
    let (mut big_ct, mut big_back) = (vec![0u8; big.len() + 16], vec![0u8; big.len()]);
    let ours = AesSiv::new(&key).unwrap();
    ours.seal_into(None, &[&ad], &big, &mut big_ct).unwrap();
    let t = best(200, || {
        ours.open_into(None, &[&ad], black_box(&big_ct), &mut big_back).unwrap();
    });
    let s = best(200, || {
        ours.seal_into(None, &[&ad], black_box(&big), &mut big_ct).unwrap();
    });
    println!("{:<18} seal {:.1} us, open {:.1} us", "tessera 1 MiB", s * 1e6, t * 1e6);
    // The floor: encryption and decryption each need one CMAC chain over
    // the message's 63 blocks, one after the other (decryption's chain
    // reads what encryption's CTR wrote): 126 dependent blocks, as S2V of
    // 2016 bytes without associated data is.
    let long = vec![0x5au8; 2016];
    let t = best(reps, || {
        black_box(ours.s2v(None, &[], black_box(&long)).unwrap());
    });
    println!("{:<18} {:.3} us", "floor: 126 blocks", t * 1e6);
    let mut peer = Aes128Siv::new_from_slice(&key).unwrap();
    let t = best(reps, || {
        let (v, c) = ct.split_at_mut(16);
        let tag = peer.encrypt_inout_detached([&ad], InOutBuf::new(black_box(&pt), c).unwrap()).unwrap();
        v.copy_from_slice(&tag);
        peer.decrypt_inout_detached([&ad], InOutBuf::new(c, &mut back).unwrap(), &tag).unwrap();
    });
    println!("{:<18} {:.3} us", "aes-siv-0.8", t * 1e6);
    siv_mix();
    siv_wall();
}

/// CPU seconds per call of each of `fs`, sampled in turn `rounds` times
/// (each sample about `ms` milliseconds of calls, the count calibrated
/// once per function).
fn interleaved(rounds: usize, ms: f64, fs: &mut [&mut dyn FnMut()]) -> Vec<Vec<f64>> {
    let t0 = std::time::Instant::now();
    // Calibrated in CPU time (a wall-clock calibration that the scheduler
    // interrupts makes samples too short to measure).
    let reps: Vec<usize> = fs
        .iter_mut()
        .map(|f| {
            let (start, mut calls) = (thread_cpu(t0), 0usize);
            while thread_cpu(t0) - start < 0.02 {
                for _ in 0..100 {
                    f();
                }
                calls += 100;
            }
            ((ms / 1e3) / ((thread_cpu(t0) - start) / calls as f64)) as usize
        })
        .collect();
    let mut out = vec![Vec::with_capacity(rounds); fs.len()];
    for _ in 0..rounds {
        for ((f, &n), o) in fs.iter_mut().zip(&reps).zip(&mut out) {
            let start = thread_cpu(t0);
            for _ in 0..n {
                f();
            }
            o.push((thread_cpu(t0) - start) / n as f64);
        }
    }
    out
}

/// The `siv` shape's contenders, each owning its key and buffers: tessera's
/// seal + open (AES-SIV-256, 1000 bytes with 100 bytes of associated data),
/// `aes-siv`'s, and the floor (126 dependent AES blocks: S2V of 2016 bytes).
fn siv_contenders() -> [Box<dyn FnMut()>; 3] {
    let key = [0x2bu8; 32];
    let (pt, ad) = (vec![0x5au8; 1000], vec![0xa5u8; 100]);
    let (mut ct, mut back) = (vec![0u8; 1016], vec![0u8; 1000]);
    let (mut ct2, mut back2) = (ct.clone(), back.clone());
    let ours = AesSiv::new(&key).unwrap();
    let mut peer = Aes128Siv::new_from_slice(&key).unwrap();
    let long = vec![0x5au8; 2016];
    let (pt2, ad2, floor) = (pt.clone(), ad.clone(), ours.clone());
    let tessera = move || {
        let n = ours.seal_into(None, &[&ad], black_box(&pt), &mut ct).unwrap();
        ours.open_into(None, &[&ad], &ct[..n], &mut back).unwrap();
    };
    let aes_siv = move || {
        let (v, c) = ct2.split_at_mut(16);
        let tag = peer.encrypt_inout_detached([&ad2], InOutBuf::new(black_box(&pt2), c).unwrap()).unwrap();
        v.copy_from_slice(&tag);
        peer.decrypt_inout_detached([&ad2], InOutBuf::new(c, &mut back2).unwrap(), &tag).unwrap();
    };
    let floor = move || {
        black_box(floor.s2v(None, &[], black_box(&long)).unwrap());
    };
    [Box::new(tessera), Box::new(aes_siv), Box::new(floor)]
}

/// Tessera's seal + open of the `siv` shape, the peer's, the floor and
/// tessera's seal alone, sampled in turn (see the module's documentation).
fn siv_mix() {
    let [mut tessera, mut aes_siv, mut floor] = siv_contenders();
    let ours = AesSiv::new(&[0x2bu8; 32]).unwrap();
    let (pt, ad, mut seal_ct) = (vec![0x5au8; 1000], vec![0xa5u8; 100], vec![0u8; 1016]);
    let mut seal = || {
        ours.seal_into(None, &[&ad], black_box(&pt), &mut seal_ct).unwrap();
    };
    let rounds = 15;
    let mut t = interleaved(rounds, 50.0, &mut [&mut *tessera, &mut *aes_siv, &mut *floor, &mut seal]);
    let stats: Vec<(f64, f64)> = t
        .iter_mut()
        .map(|s| {
            s.sort_by(f64::total_cmp);
            (s[s.len() / 2], s[0])
        })
        .collect();
    println!(
        "interleaved, {rounds} rounds of ~50 ms samples each, us per seal + open (seal alone last; median / best):"
    );
    for (name, (med, least)) in ["tessera", "aes-siv-0.8", "floor: 126 blocks", "tessera seal"].iter().zip(&stats) {
        println!("{name:<18} {:.3} / {:.3}", med * 1e6, least * 1e6);
    }
    let ((tm, tb), (pm, pb), (fm, fb)) = (stats[0], stats[1], stats[2]);
    println!(
        "ratio aes-siv / tessera: {:.2}x of medians, {:.2}x of bests; tessera / floor: {:.2} of medians, {:.2} of bests",
        pm / tm,
        pb / tb,
        tm / fm,
        tb / fb
    );
}

/// The `siv-mix` shape (tessera, `aes-siv`, the floor) sampled in turn in
/// short wall-clock samples: 2001 rounds of ~200 us each. Thread CPU time
/// moves in steps of milliseconds on the VM measured, which leaves a 50 ms
/// sample a few percent uncertain; a 200 us sample is read to the
/// nanosecond, and one that the scheduler interrupted is an outlier that
/// the quartiles drop. Prints each one's lower quartile and median, and the
/// median of the per-round ratios (each round's samples are adjacent).
fn siv_wall() {
    let [mut tessera, mut aes_siv, mut floor] = siv_contenders();
    let fs: &mut [&mut dyn FnMut()] = &mut [&mut *tessera, &mut *aes_siv, &mut *floor];
    let (t0, rounds) = (std::time::Instant::now(), 2001);
    let now = || t0.elapsed().as_secs_f64();
    let reps: Vec<usize> = fs
        .iter_mut()
        .map(|f| {
            let (start, mut calls) = (now(), 0usize);
            while now() - start < 0.02 {
                for _ in 0..100 {
                    f();
                }
                calls += 100;
            }
            (200e-6 / ((now() - start) / calls as f64)) as usize
        })
        .collect();
    let mut t = vec![Vec::with_capacity(rounds); fs.len()];
    for _ in 0..rounds {
        for ((f, &n), o) in fs.iter_mut().zip(&reps).zip(&mut t) {
            let start = now();
            for _ in 0..n {
                f();
            }
            o.push((now() - start) / n as f64 * 1e9);
        }
    }
    let quartiles = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        (v[v.len() / 4], v[v.len() / 2])
    };
    let ratio = |a: usize, b: usize| quartiles(&(0..rounds).map(|r| t[a][r] / t[b][r]).collect::<Vec<_>>()).1;
    println!("wall clock, {rounds} rounds of ~200 us samples each, ns per seal + open (lower quartile / median):");
    for (name, v) in ["tessera", "aes-siv-0.8", "floor: 126 blocks"].iter().zip(&t) {
        let (low, med) = quartiles(v);
        println!("{name:<18} {low:.1} / {med:.1}");
    }
    println!("median of per-round ratios: aes-siv / tessera {:.3}x, tessera / floor {:.3}", ratio(1, 0), ratio(0, 2));
}

/// Medians and bests of [`interleaved`] samples, in microseconds.
fn medians(mut t: Vec<Vec<f64>>) -> Vec<(f64, f64)> {
    t.iter_mut()
        .map(|s| {
            s.sort_by(f64::total_cmp);
            (s[s.len() / 2] * 1e6, s[0] * 1e6)
        })
        .collect()
}

/// The parts of tessera's seal and open of the `siv` shape, sampled in
/// turn: what seal adds to S2V (its CTR) and open to one chain.
fn siv_parts() {
    let ours = AesSiv::new(&[0x2bu8; 32]).unwrap();
    let (pt, ad, chain) = (vec![0x5au8; 1000], vec![0xa5u8; 100], vec![0x5au8; 1008]);
    let (mut ct, mut back) = (vec![0u8; 1016], vec![0u8; 1000]);
    ours.seal_into(None, &[&ad], &pt, &mut ct).unwrap();
    let big = vec![0x5au8; 1 << 20];
    let (mut big_ct, mut big_back) = (vec![0u8; big.len() + 16], vec![0u8; big.len()]);
    ours.seal_into(None, &[&ad], &big, &mut big_ct).unwrap();
    let (mut seal_ct, mut big_out) = (ct.clone(), big_ct.clone());
    let mut seal = || {
        ours.seal_into(None, &[&ad], black_box(&pt), &mut seal_ct).unwrap();
    };
    let mut s2v = || {
        black_box(ours.s2v(None, &[&ad], black_box(&pt)).unwrap());
    };
    let mut open = || {
        ours.open_into(None, &[&ad], black_box(&ct), &mut back).unwrap();
    };
    let mut one_chain = || {
        black_box(ours.s2v(None, &[], black_box(&chain)).unwrap());
    };
    let mut big_seal = || {
        ours.seal_into(None, &[&ad], black_box(&big), &mut big_out).unwrap();
    };
    let mut big_open = || {
        ours.open_into(None, &[&ad], black_box(&big_ct), &mut big_back).unwrap();
    };
    let fs: [&mut dyn FnMut(); 6] = [&mut seal, &mut s2v, &mut open, &mut one_chain, &mut big_seal, &mut big_open];
    let stats = medians(interleaved(15, 50.0, &mut { fs }));
    println!("interleaved, 15 rounds of ~50 ms samples each, us per call (median / best):");
    let names = ["seal 1000 B", "S2V alone", "open 1000 B", "chain: 63 blocks", "seal 1 MiB", "open 1 MiB"];
    for (name, (med, least)) in names.iter().zip(&stats) {
        println!("{name:<18} {med:.3} / {least:.3}");
    }
    let (seal, s2v, open, chain) = (stats[0].0, stats[1].0, stats[2].0, stats[3].0);
    println!(
        "seal - S2V {:.3} us, S2V - chain {:.3} us, open - chain {:.3} us (medians)",
        seal - s2v,
        s2v - chain,
        open - chain
    );
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("ocb") => ocb(),
        Some("siv") => siv(),
        Some("siv-mix") => siv_mix(),
        Some("siv-parts") => siv_parts(),
        Some("siv-wall") => siv_wall(),
        Some("siv-calls") => siv_calls(std::env::args().nth(2).and_then(|n| n.parse().ok()).unwrap_or(10_000)),
        Some("keyed-calls") => {
            let arg = |i: usize, d: usize| std::env::args().nth(i).and_then(|n| n.parse().ok()).unwrap_or(d);
            keyed_calls(&std::env::args().nth(2).unwrap_or_default(), arg(3, 10_000), arg(4, 1000))
        }
        _ => eprintln!(
            "usage: aead_cputime ocb|siv|siv-mix|siv-parts|siv-wall|siv-calls [N]|keyed-calls MODE [N] [SIZE]"
        ),
    }
}
