//! Secrets stay secret: `Debug` and error messages never show key bytes or
//! passwords, and key material is wiped when its owner is dropped, both
//! inline (AES schedules, CMAC subkeys, OCB tables) and on the heap (*ring*'s
//! GCM key, session keys).
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::mem::MaybeUninit;

use tessera::aead::{Aad, Aead, AeadInPlace, Eax, Gcm, Mode, Nonce, Ocb};
use tessera::aes::Aes;
use tessera::fpe::{Alphabet, FF1, FF3, FF3_1, Fpe, TextBatch, TokenFormat, Tweaks};
use tessera::keyset::{BatchTweaks, Keyset, Template};
use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor, S2kChoice, SessionKey};
use tessera::siv::{BatchAd, MessageBatch};
use tessera::{AesSiv, Cmac};

/// A 64-byte key whose every 16-byte window is distinctive.
const KEY: [u8; 64] = {
    let mut k = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        k[i] = (i as u8).wrapping_mul(73).wrapping_add(0x3d) ^ 0xa5;
        i += 1;
    }
    k
};
const PASSWORD: &[u8] = b"correct horse battery staple";

// ---- a global allocator that looks for a needle in every freed block ----

struct ScanAlloc;

thread_local! {
    static NEEDLE: Cell<Option<[u8; 16]>> = const { Cell::new(None) };
    static FOUND: Cell<u32> = const { Cell::new(0) };
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

// SAFETY: forwards to the system allocator; on dealloc it only reads the
// block that is being freed, before freeing it.
unsafe impl GlobalAlloc for ScanAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if let Ok(Some(needle)) = NEEDLE.try_with(|n| n.get()) {
            // SAFETY: ptr is a live block of layout.size() bytes owned by the
            // caller until the dealloc below.
            let block = unsafe { std::slice::from_raw_parts(ptr, layout.size()) };
            if contains(block, &needle) {
                let _ = FOUND.try_with(|f| f.set(f.get() + 1));
            }
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: ScanAlloc = ScanAlloc;

/// How many heap blocks freed while `f` runs contain `needle`.
fn freed_with(needle: &[u8], f: impl FnOnce()) -> u32 {
    NEEDLE.with(|n| n.set(Some(needle[..16].try_into().unwrap())));
    FOUND.with(|c| c.set(0));
    f();
    NEEDLE.with(|n| n.set(None));
    FOUND.with(|c| c.get())
}

/// Fills the stack below the caller with copies of `needle`, as earlier key
/// handling would, so that bytes a value leaves unused pick it up when the
/// value is built there and then moved.
#[inline(never)]
fn dirty_stack(needle: &[u8]) {
    let mut buf = [0u8; 64 << 10];
    for chunk in buf.chunks_mut(needle.len()) {
        chunk.copy_from_slice(&needle[..chunk.len()]);
    }
    std::hint::black_box(&mut buf);
}

/// Builds a `T` in a stack slot (padding bytes included: reading them after
/// the value is written is formally a read of uninitialised memory, which a
/// test can afford; not for Miri), checks that its bytes hold `needle` while it
/// lives (so the check below can fail), drops it in place and returns whether
/// the needle is still in the slot's bytes.
fn left_after_drop<T>(make: impl FnOnce() -> T, needle: &[u8]) -> Option<bool> {
    let mut slot = MaybeUninit::<T>::zeroed();
    dirty_stack(needle);
    slot.write(make());
    let p = slot.as_ptr().cast::<u8>();
    let bytes = || {
        (0..size_of::<T>())
            // SAFETY: p..p+size_of::<T>() is the slot in this stack frame, zeroed
            // first; it is read as plain bytes (as zeroize's own tests do).
            .map(|i| unsafe { std::ptr::read_volatile(p.add(i)) })
            .collect::<Vec<u8>>()
    };
    if !contains(&bytes(), needle) {
        return None; // this type or CPU keeps no copy of the key in the clear
    }
    // SAFETY: the slot was initialised by `write` above and is dropped once.
    unsafe { slot.assume_init_drop() };
    let after = bytes();
    if let Some(pos) = after.windows(needle.len()).position(|w| w == needle) {
        eprintln!(
            "needle at {pos} of {}: {:02x?}",
            after.len(),
            &after[pos.saturating_sub(16)..(pos + 48).min(after.len())]
        );
    }
    Some(contains(&after, needle))
}

/// A distinct 32-byte key per check, so that stale stack copies left by an
/// earlier check (moves are plain copies) cannot match a later one.
fn key_for(check: u8) -> [u8; 32] {
    let mut k = [0u8; 32];
    k.copy_from_slice(&KEY[..32]);
    k.iter_mut().for_each(|b| *b ^= check.wrapping_mul(0x5b));
    k
}

/// The bytes of a `T`'s stack slot after the value built there is dropped.
fn slot_after_drop<T>(make: impl FnOnce() -> T, needle: &[u8]) -> Vec<u8> {
    let mut slot = MaybeUninit::<T>::zeroed();
    dirty_stack(needle);
    slot.write(make());
    // SAFETY: initialised by `write` above, dropped once.
    unsafe { slot.assume_init_drop() };
    let p = slot.as_ptr().cast::<u8>();
    // SAFETY: as in `left_after_drop`.
    (0..size_of::<T>()).map(|i| unsafe { std::ptr::read_volatile(p.add(i)) }).collect()
}

/// `Aes` and `Aead` wipe every byte of themselves, not only the schedule.
#[test]
fn aes_and_aead_leave_only_zeros() {
    let k = key_for(20);
    assert!(slot_after_drop(|| Aes::new(&k[..16]).unwrap(), &k).iter().all(|&b| b == 0), "Aes-128");
    let k = key_for(21);
    assert!(slot_after_drop(|| Aes::new(&k).unwrap(), &k).iter().all(|&b| b == 0), "Aes-256");
    for (i, mode) in [Mode::Ocb, Mode::Eax, Mode::Gcm].into_iter().enumerate() {
        let k = key_for(22 + i as u8);
        let left = slot_after_drop(|| Aead::new(mode, &k).unwrap(), &k);
        assert!(left.iter().all(|&b| b == 0), "Aead {mode:?}");
    }
}

#[test]
fn inline_key_schedules_are_wiped_on_drop() {
    let mut checked = Vec::new();
    let mut check = |name: &str, left: Option<bool>| {
        assert_ne!(left, Some(true), "{name}: key material left in memory after drop");
        if left.is_some() {
            checked.push(name.to_string());
        }
    };
    let k = key_for(1);
    check("Aes-128", left_after_drop(|| Aes::new(&k[..16]).unwrap(), &k[..16]));
    let k = key_for(2);
    check("Aes-256", left_after_drop(|| Aes::new(&k).unwrap(), &k));
    let k = key_for(3);
    check("Cmac", left_after_drop(|| Cmac::new(&k[..16]).unwrap(), &k[..16]));
    let k = key_for(4);
    check("AesSiv-256", left_after_drop(|| AesSiv::new(&k).unwrap(), &k[..16]));
    let k = key_for(5);
    check("AesSiv-256 (CTR key)", left_after_drop(|| AesSiv::new(&k).unwrap(), &k[16..]));
    let k = key_for(6);
    check("Ocb", left_after_drop(|| Ocb::new(&k[..16]).unwrap(), &k[..16]));
    let k = key_for(7);
    check("Ocb portable", left_after_drop(|| Ocb::new_portable(&k[..16]).unwrap(), &k[..16]));
    let k = key_for(8);
    check("Eax", left_after_drop(|| Eax::new(&k[..16]).unwrap(), &k[..16]));
    let k = key_for(9);
    check("Gcm-192 (aes-gcm)", left_after_drop(|| Gcm::new(&k[..24]).unwrap(), &k[..16]));
    let k = key_for(10);
    check("Aead::Ocb", left_after_drop(|| Aead::new(Mode::Ocb, &k).unwrap(), &k[..16]));
    let k = key_for(14);
    check("Aead::Eax", left_after_drop(|| Aead::new(Mode::Eax, &k).unwrap(), &k[..16]));
    let k = key_for(11);
    check("FF1", left_after_drop(|| FF1::new(&k[..16], Alphabet::digits()).unwrap(), &k[..16]));
    // FF3 keys its AES with the reversed key.
    let k = key_for(12);
    let mut rev = k[..16].to_vec();
    rev.reverse();
    check("FF3-1", left_after_drop(|| FF3_1::new(&k[..16], Alphabet::digits()).unwrap(), &rev));
    let k = key_for(13);
    let mut rev = k[..16].to_vec();
    rev.reverse();
    check("FF3", left_after_drop(|| FF3::new(&k[..16], Alphabet::digits()).unwrap(), &rev));
    // With AES-NI (every x86-64 CI machine) the schedules hold the key as
    // round key 0; without it the bitsliced schedule does not.
    if tessera::cpu::level() >= tessera::cpu::Level::AesNi {
        assert!(checked.len() >= 10, "too few types keep a visible schedule: {checked:?}");
    }
}

#[test]
fn heap_secrets_are_wiped_before_they_are_freed() {
    // The scanner sees an unwiped copy (so the checks below can fail).
    assert_eq!(freed_with(&KEY, || drop(KEY[..16].to_vec())), 1);

    for key in [&KEY[..16], &KEY[..32]] {
        let found = freed_with(key, || {
            let gcm = Gcm::new(key).unwrap();
            let mut buf = [0u8; 64];
            let tag =
                gcm.seal_in_place_separate_tag(Nonce::assume_unique_for_key(&[1; 12]), Aad::empty(), &mut buf).unwrap();
            gcm.open_in_place_separate_tag(Nonce::assume_unique_for_key(&[1; 12]), Aad::empty(), &mut buf, &tag)
                .unwrap();
            let copy = gcm.clone();
            drop(gcm);
            drop(copy);
        });
        assert_eq!(
            found,
            0,
            "GCM ({}, {} bytes): key left in freed memory",
            Gcm::new(key).unwrap().backend(),
            key.len()
        );
    }

    let found = freed_with(&KEY, || {
        let sk = SessionKey { alg: None, key: zeroize::Zeroizing::new(KEY[..32].to_vec()) };
        let opts = DecryptOptions { session_key: Some(sk), ..DecryptOptions::default() };
        let copy = opts.clone();
        drop(opts);
        drop(copy);
    });
    assert_eq!(found, 0, "session key left in freed memory");

    // The password's copies inside the encryptor and decryptor.
    let found = freed_with(&PASSWORD[..16], || {
        let msg = encrypt(b"hello");
        let mut d = Decryptor::new(&msg[..], &[PASSWORD]).unwrap();
        std::io::copy(&mut d, &mut std::io::sink()).unwrap();
    });
    assert_eq!(found, 0, "password left in freed memory");
}

#[test]
fn message_batches_wipe_their_plaintexts() {
    const SECRET: &[u8; 16] = b"plain-text-16byt";
    let siv = AesSiv::new(&key_for(40)).unwrap();
    let ad: &[&[u8]] = &[b"users.name"];
    let mut cts = Vec::new();
    // Plaintexts pushed (the message buffer grows several times), sealed,
    // cleared; ciphertexts opened (the output buffer grows while it holds
    // plaintexts: more messages pushed after an open, opened again), dropped.
    let found = freed_with(SECRET, || {
        let mut batch = MessageBatch::new();
        for _ in 0..200 {
            batch.push(SECRET);
        }
        cts.extend(batch.seal(&siv, BatchAd::Same(ad)).unwrap().flatten());
        batch.clear();
        batch.push(&cts[..32]);
        assert!(batch.open(&siv, BatchAd::Same(ad)).unwrap().all(|p| p == SECRET));
        cts[32..].chunks(32).for_each(|c| batch.push(c));
        assert_eq!(batch.open(&siv, BatchAd::Same(ad)).unwrap().filter(|p| p == SECRET).count(), 200);
        assert!(!format!("{batch:?}").contains(&format!("{}, {}", SECRET[0], SECRET[1])), "Debug shows no plaintext");
        drop(batch);
    });
    assert_eq!(found, 0, "MessageBatch left a plaintext in freed memory");
}

#[test]
fn text_batches_wipe_their_plaintexts() {
    // Sixteen digits, and their numerals as the batch holds them (u16, little-endian).
    const DIGITS: &str = "3141592653589793";
    let needle: Vec<u8> = DIGITS.bytes().take(8).flat_map(|b| u16::from(b - b'0').to_le_bytes()).collect();
    let ff1 = FF1::new(&key_for(41)[..16], Alphabet::digits()).unwrap();
    let format = TokenFormat::new();
    let mut ks = Keyset::new();
    ks.add_transform("cards", Template::Digits.params()).unwrap();
    let fpe = ks.fpe("cards").unwrap();
    let values = vec![DIGITS; 300];
    let (mut tokens, mut ends) = (Vec::new(), Vec::new());
    fpe.encrypt_batch(BatchTweaks::Fixed, &values, &mut tokens, &mut ends).unwrap();
    let tokens = String::from_utf8(tokens).unwrap();
    let tokens: Vec<&str> = (0..values.len()).map(|i| &tokens[i * 16..(i + 1) * 16]).collect();
    // Plaintexts pushed into a sized batch then encrypted; tokens decrypted
    // by the keyset (its batch holds the plaintexts at the end); both dropped.
    let found = freed_with(&needle, || {
        let mut batch = TextBatch::new(&ff1, &format).unwrap();
        batch.reserve(values.len(), values.len() * DIGITS.len());
        values.iter().for_each(|v| batch.push(v).unwrap());
        batch.encrypt(Tweaks::Same(b"t")).unwrap();
        batch.clear();
        values.iter().for_each(|v| batch.push(v).unwrap());
        drop(batch);
        let (mut plain, mut ends) = (Vec::new(), Vec::new());
        fpe.decrypt_batch(BatchTweaks::Fixed, &tokens, None, &mut plain, &mut ends).unwrap();
        assert!(plain.starts_with(DIGITS.as_bytes()));
        plain.fill(0);
    });
    assert_eq!(found, 0, "a text batch left plaintext numerals in freed memory");
    // A format that keeps characters rebuilds each value in a scratch string:
    // a long value then a short one must not leave the long one's tail there.
    let format = TokenFormat::new().passthrough("-");
    let long = "3141-5926-5358-9793-2384-6264";
    let found = freed_with(&long.as_bytes()[10..26], || {
        let mut batch = TextBatch::new(&ff1, &format).unwrap();
        batch.reserve(2, long.len() + 8);
        batch.push(long).unwrap();
        batch.push("12-34-56").unwrap();
        let mut out = Vec::with_capacity(64);
        batch.append_utf8(0, &mut out).unwrap();
        batch.append_utf8(1, &mut out).unwrap();
        out.fill(0);
        drop(batch);
    });
    assert_eq!(found, 0, "a text batch left a rebuilt value in freed memory");
}

fn encrypt(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let opts = EncryptOptions { s2k: S2kChoice::Iterated { count_octet: 96 }, ..EncryptOptions::default() };
    let mut out = Vec::new();
    let mut e = Encryptor::new(&mut out, &[PASSWORD], &opts).unwrap();
    e.write_all(data).unwrap();
    e.finish().unwrap();
    out
}

/// Strings that would betray `key` in a formatted value: hex (both cases),
/// `[a, b, c` decimal slices, and the raw bytes as text.
fn betrays(text: &str, key: &[u8]) -> Option<String> {
    let head = &key[..8];
    let hex: String = head.iter().map(|b| format!("{b:02x}")).collect();
    let dec = head.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ");
    let dec_pretty = head.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(",\n");
    let lower = text.to_lowercase();
    [hex, dec]
        .into_iter()
        .find(|p| lower.contains(p.as_str()))
        .or_else(|| text.replace(' ', "").contains(&dec_pretty.replace(' ', "")).then(|| "pretty decimal".into()))
        .or_else(|| text.contains(String::from_utf8_lossy(head).as_ref()).then(|| "raw".into()))
}

#[test]
fn debug_never_shows_key_material() {
    let k16 = &KEY[..16];
    let k32 = &KEY[..32];
    let sk = SessionKey { alg: None, key: zeroize::Zeroizing::new(k32.to_vec()) };
    let msg = encrypt(b"hello");
    let dec = Decryptor::new(&msg[..], &[PASSWORD]).unwrap();
    let session = dec.session_key().key.to_vec();
    let mut sink = Vec::new();
    let enc = Encryptor::new(&mut sink, &[PASSWORD], &EncryptOptions::default()).unwrap();
    let shown: Vec<(&str, String, String)> = vec![
        ("Aes", format!("{:?}", Aes::new(k16).unwrap()), format!("{:#?}", Aes::new(k32).unwrap())),
        ("Cmac", format!("{:?}", Cmac::new(k16).unwrap()), format!("{:#?}", Cmac::new(k16).unwrap())),
        ("AesSiv", format!("{:?}", AesSiv::new(k32).unwrap()), format!("{:#?}", AesSiv::new(k32).unwrap())),
        ("Ocb", format!("{:?}", Ocb::new(k16).unwrap()), format!("{:#?}", Ocb::new_portable(k16).unwrap())),
        ("Eax", format!("{:?}", Eax::new(k16).unwrap()), format!("{:#?}", Eax::new(k16).unwrap())),
        ("Gcm", format!("{:?}", Gcm::new(k16).unwrap()), format!("{:#?}", Gcm::new(&KEY[..24]).unwrap())),
        (
            "Aead",
            format!("{:?}", Aead::new(Mode::Eax, k16).unwrap()),
            format!("{:#?}", Aead::new(Mode::Gcm, k32).unwrap()),
        ),
        (
            "FF1",
            format!("{:?}", FF1::new(k16, Alphabet::digits()).unwrap()),
            format!("{:#?}", FF1::with_radix(k16, 36).unwrap()),
        ),
        (
            "FF3-1",
            format!("{:?}", FF3_1::new(k16, Alphabet::digits()).unwrap()),
            format!("{:#?}", FF3_1::with_radix(k16, 10).unwrap()),
        ),
        ("FF3", format!("{:?}", FF3::new(k16, Alphabet::digits()).unwrap()), String::new()),
        ("SessionKey", format!("{sk:?}"), format!("{sk:#?}")),
        (
            "DecryptOptions",
            format!("{:?}", DecryptOptions { session_key: Some(sk.clone()), ..DecryptOptions::default() }),
            String::new(),
        ),
        ("Decryptor", format!("{dec:?}"), format!("{dec:#?}")),
        ("Encryptor", format!("{enc:?}"), format!("{enc:#?}")),
    ];
    for (name, a, b) in &shown {
        for text in [a, b] {
            for (what, key) in [("key", k32), ("session key", &session[..]), ("password", PASSWORD)] {
                if let Some(p) = betrays(text, key) {
                    panic!("{name} Debug shows the {what} ({p}): {text}");
                }
            }
        }
    }
    // The check itself works: a derived Debug of the bytes is caught.
    assert!(betrays(&format!("{:?}", &KEY[..16]), &KEY).is_some());
    assert!(betrays(&format!("{:#?}", &KEY[..16]), &KEY).is_some());
}

#[test]
fn errors_never_show_key_material() {
    let k32 = &KEY[..32];
    let mut errors = Vec::new();
    // Authentication failures.
    let siv = AesSiv::new(k32).unwrap();
    let mut out = [0u8; 16];
    errors.push(siv.open_into(None, &[b"ad"], &[0u8; 32], &mut out).unwrap_err().to_string());
    let ocb = Ocb::new(&KEY[..16]).unwrap();
    let mut buf = [0u8; 32];
    errors.push(
        ocb.open_in_place_separate_tag(Nonce::assume_unique_for_key(&[0; 12]), Aad::empty(), &mut buf, &[0; 16])
            .unwrap_err()
            .to_string(),
    );
    // Bad keys: the message names the length, not the bytes.
    errors.push(FF1::new(&KEY[..17], Alphabet::digits()).unwrap_err().to_string());
    errors.push(AesSiv::new(&KEY[..31]).unwrap_err().to_string());
    errors.push(Gcm::new(&KEY[..20]).unwrap_err().to_string());
    // FPE value errors.
    let ff1 = FF1::new(&KEY[..16], Alphabet::digits()).unwrap();
    errors.push(ff1.encrypt(b"", "12345x7890").unwrap_err().to_string());
    // OpenPGP: wrong password, a modified message, a wrong session key.
    let msg = encrypt(b"some plaintext that is long enough");
    errors.push(Decryptor::new(&msg[..], &[b"wrong password".as_slice()]).unwrap_err().to_string());
    let mut bad = msg.clone();
    let n = bad.len();
    bad[n - 20] ^= 1;
    let r = Decryptor::new(&bad[..], &[PASSWORD]).and_then(|mut d| {
        std::io::copy(&mut d, &mut std::io::sink()).map_err(tessera::openpgp::Error::from)?;
        Ok(())
    });
    errors.push(r.unwrap_err().to_string());
    let sk = SessionKey { alg: None, key: zeroize::Zeroizing::new(k32.to_vec()) };
    let opts = DecryptOptions { session_key: Some(sk), ..DecryptOptions::default() };
    let r = Decryptor::with_options(&msg[..], &[], &opts).and_then(|mut d| {
        std::io::copy(&mut d, &mut std::io::sink()).map_err(tessera::openpgp::Error::from)?;
        Ok(())
    });
    errors.push(r.unwrap_err().to_string());
    assert!(errors.iter().all(|e| !e.is_empty()));
    for e in &errors {
        for (what, key) in [("key", k32), ("password", PASSWORD)] {
            assert!(betrays(e, key).is_none(), "error shows the {what}: {e}");
        }
    }
}

/// `AtomicFile` buffers what it writes (keys and session keys from the CLI
/// and `tessera-sop`, armored secret keys): its buffer is wiped before it
/// is freed, whether the file is committed, fails to commit or is dropped.
#[test]
fn atomic_files_wipe_their_buffer() {
    use std::io::Write;
    use tessera::fs::AtomicFile;
    let dir = tempfile::tempdir().unwrap();
    let line = tessera::hex::encode_key(&KEY);
    let found = freed_with(line.as_bytes(), || {
        let mut f = AtomicFile::create(&dir.path().join("committed")).unwrap();
        f.write_all(line.as_bytes()).unwrap();
        f.commit().unwrap();
        let mut f = AtomicFile::create(&dir.path().join("committed")).unwrap();
        f.write_all(line.as_bytes()).unwrap();
        assert!(f.commit_new().is_err(), "the destination exists");
        let mut f = AtomicFile::create(&dir.path().join("dropped")).unwrap();
        f.write_all(line.as_bytes()).unwrap();
        drop(f);
    });
    assert_eq!(found, 0, "AtomicFile left what it wrote in freed memory");
    assert_eq!(std::fs::read(dir.path().join("committed")).unwrap(), line.as_bytes());
    assert!(!dir.path().join("dropped").exists());
}
