//! `tessera demo`: tokenizes the bundled sample file with ephemeral keys,
//! shows lines before and after, restores them, and measures throughput.

use std::io::{BufWriter, Read, Write};
use std::time::Instant;

use anyhow::{Context, Result, ensure};
use clap::Args;
use tessera::Direction;
use tessera::fpe::{Alphabet, FF1, FF3_1, Fpe, TokenFormat, Tweaks};
use tessera::openpgp::{DecryptOptions, Decryptor, EncryptOptions, Encryptor};
use tessera::siv::{AesSiv, BatchAd};

use crate::demo_data::{SAMPLE, files_equal, peak_mib};
use crate::fpe_cmd::FpeTransform;
use crate::keygen::random_key;
use tessera_cli::records;

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Values in the throughput test.
    #[arg(long, default_value_t = 1_000_000)]
    pub values: usize,
    /// Size of the generated file for the OpenPGP part, in MiB.
    #[arg(long, default_value_t = 256)]
    pub file_mib: usize,
    /// Internal: only the OpenPGP file run, on DIR/data.bin with the
    /// password read from stdin (the demo starts itself with this, so that
    /// the run's peak memory is its own, not the rest of the demo's).
    #[arg(long, hide = true, value_name = "DIR")]
    pub file_run: Option<std::path::PathBuf>,
    /// Internal: only the OpenPGP keys part (sections 5 and 6), on
    /// DIR/data.bin, in a process of its own for the same reason.
    #[arg(long, hide = true, value_name = "DIR")]
    pub keys_run: Option<std::path::PathBuf>,
}

/// One CSV pass over `input`, transforming `column`.
fn pass(
    input: &[u8],
    column: &str,
    cipher: &dyn Fpe,
    format: &TokenFormat,
    tweak: &[u8],
    dir: Direction,
) -> Result<Vec<u8>> {
    let mut t = FpeTransform::new(cipher, format, tweak.to_vec(), dir)?;
    let mut out = Vec::with_capacity(input.len());
    records::csv(&mut &input[..], &mut out, &[column.to_string()], &mut t)?;
    Ok(out)
}

fn show(title: &str, data: &[u8]) {
    println!("  {title}:");
    for line in String::from_utf8_lossy(data).lines().take(4) {
        println!("    {line}");
    }
}

pub fn run(args: &DemoArgs) -> Result<()> {
    if let Some(dir) = &args.file_run {
        return file_run(dir, args.file_mib);
    }
    if let Some(dir) = &args.keys_run {
        return crate::demo_keys::keys_demo(&dir.join("data.bin"), args.file_mib);
    }
    println!("tessera demo: ephemeral keys and passwords, nothing is stored\n");
    let k1 = random_key(32)?;
    let k2 = random_key(16)?;
    let ff1 = || FF1::new(&k1, Alphabet::digits());
    let ff1_alnum = || FF1::new(&k1, Alphabet::alphanumeric());
    let ff1_128 = || FF1::new(&k2, Alphabet::digits());
    let card_fmt = TokenFormat::new().passthrough("-").keep_prefix(6).keep_suffix(4);
    let ssn_fmt = TokenFormat::new().passthrough("-");
    let tweak7 = b"tessera";

    let rows = SAMPLE.lines().count() - 1;
    println!("1. Tokenize {rows} rows of bundled fake customer data (tessera-cli/data/customers.csv):");
    println!("   card_number: FF1/AES-256, dashes kept, first 6 and last 4 digits in clear");
    println!("   account_id:  FF1/AES-256 over 0-9a-zA-Z");
    println!("   ssn:         FF1/AES-128, tweak \"tessera\", dashes kept\n");
    let t0 = Instant::now();
    let plain = TokenFormat::new();
    let a = pass(SAMPLE.as_bytes(), "card_number", &ff1()?, &card_fmt, b"card", Direction::Encrypt)?;
    let b = pass(&a, "account_id", &ff1_alnum()?, &plain, b"acct", Direction::Encrypt)?;
    let tokens = pass(&b, "ssn", &ff1_128()?, &ssn_fmt, tweak7, Direction::Encrypt)?;
    let enc_time = t0.elapsed();
    show("before", SAMPLE.as_bytes());
    show("after", &tokens);

    let t0 = Instant::now();
    let a = pass(&tokens, "ssn", &ff1_128()?, &ssn_fmt, tweak7, Direction::Decrypt)?;
    let b = pass(&a, "account_id", &ff1_alnum()?, &plain, b"acct", Direction::Decrypt)?;
    let back = pass(&b, "card_number", &ff1()?, &card_fmt, b"card", Direction::Decrypt)?;
    let dec_time = t0.elapsed();
    ensure!(back == SAMPLE.as_bytes(), "decryption did not restore the sample file");
    println!(
        "\n   restored all {rows} rows byte for byte (tokenize {:.1} ms, restore {:.1} ms, 3 columns)\n",
        enc_time.as_secs_f64() * 1e3,
        dec_time.as_secs_f64() * 1e3
    );

    let n = args.values;
    println!("2. Throughput on {n} random 16-digit values (one core):");
    let mut rng_state = u64::from_le_bytes(random_key(8)?[..8].try_into()?);
    let mut next = move || {
        // splitmix64: quick fake data, not for keys.
        rng_state = rng_state.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = rng_state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    };
    let data: Vec<u16> = (0..n * 16).map(|_| (next() % 10) as u16).collect();
    let ends: Vec<usize> = (1..=n).map(|i| i * 16).collect();
    let ciphers: [(&str, Box<dyn Fpe>, &[u8]); 2] =
        [("FF1  ", Box::new(ff1_128()?), b""), ("FF3-1", Box::new(FF3_1::new(&k2, Alphabet::digits())?), tweak7)];
    for (name, c, tweak) in ciphers {
        let mut work = data.clone();
        let t0 = Instant::now();
        for x in work.chunks_exact_mut(16) {
            c.encrypt_numerals(tweak, x)?;
        }
        let single = t0.elapsed().as_secs_f64();
        let mut batch = data.clone();
        let t0 = Instant::now();
        c.encrypt_batch(Tweaks::Same(tweak), &mut batch, &ends)?;
        let batched = t0.elapsed().as_secs_f64();
        ensure!(work == batch, "batch and single results differ");
        c.decrypt_batch(Tweaks::Same(tweak), &mut batch, &ends)?;
        ensure!(batch == data, "batch decryption did not restore the values");
        println!(
            "   {name} AES-128: one at a time {:>6.0} ns/value ({:>5.2} M/s); batch {:>5.1} ns/value ({:>6.2} M/s), {:.1}x",
            single * 1e9 / n as f64,
            n as f64 / single / 1e6,
            batched * 1e9 / n as f64,
            n as f64 / batched / 1e6,
            single / batched
        );
    }
    println!("\n   all values decrypted back to the originals.");
    println!("   FF3-1 is withdrawn (NIST SP 800-38G Rev 1, second draft): shown for the speed of reading");
    println!("   old tokens; `tessera fpe rewrap --from-algorithm ff3-1 ...` moves them to FF1.\n");
    siv_demo(n)?;
    openpgp_demo(args.file_mib)
}

fn siv_demo(n: usize) -> Result<()> {
    println!("3. AES-SIV (RFC 5297), deterministic authenticated encryption of the name column:");
    let siv = AesSiv::new(&random_key(32)?)?;
    let ad: &[&[u8]] = &[b"customers.name"];
    let names: Vec<&str> = SAMPLE.lines().skip(1).filter_map(|l| l.split(',').nth(1)).collect();
    for name in names.iter().take(3) {
        let ct = siv.seal(None, ad, name.as_bytes())?;
        let hex: String = ct.iter().take(12).map(|b| format!("{b:02x}")).collect();
        println!("   {name:<18} -> {hex}... ({} bytes: V || C)", ct.len());
    }
    let a = siv.seal(None, ad, names[0].as_bytes())?;
    ensure!(a == siv.seal(None, ad, names[0].as_bytes())?, "AES-SIV is deterministic");
    ensure!(siv.open(None, ad, &a)? == names[0].as_bytes(), "AES-SIV decryption restores the name");
    let mut tampered = a.clone();
    tampered[20] ^= 1;
    ensure!(siv.open(None, ad, &tampered).is_err(), "a flipped bit must fail verification");
    println!("   equal names give equal ciphertexts (joinable); one flipped bit fails verification");

    // Messages of 32 octets, sealed to TAG_LEN + 32.
    const MSG: usize = 32;
    const SEALED: usize = tessera::TAG_LEN + MSG;
    let msgs = n.min(200_000);
    let data: Vec<u8> = (0..msgs * MSG).map(|i| (i * 131 % 251) as u8).collect();
    let ends: Vec<usize> = (1..=msgs).map(|i| i * MSG).collect();
    let mut out = vec![0u8; msgs * SEALED];
    let t0 = Instant::now();
    for (i, m) in data.chunks_exact(MSG).enumerate() {
        siv.seal_into(None, ad, m, &mut out[i * SEALED..(i + 1) * SEALED])?;
    }
    let single = t0.elapsed().as_secs_f64();
    let mut batch = vec![0u8; out.len()];
    let t0 = Instant::now();
    siv.seal_batch(BatchAd::Same(ad), &data, &ends, &mut batch)?;
    let batched = t0.elapsed().as_secs_f64();
    ensure!(batch == out, "batch and single AES-SIV results differ");
    println!(
        "   {msgs} messages of 32 bytes: one at a time {:.0} ns/message, batch {:.0} ns/message ({:.1}x)\n",
        single * 1e9 / msgs as f64,
        batched * 1e9 / msgs as f64,
        single / batched
    );
    Ok(())
}

/// `mib` MiB of quick pseudo-random data (an LCG: fake data, not for keys).
fn demo_data(mib: usize) -> Vec<u8> {
    let mut data = vec![0u8; mib << 20];
    let mut s = 0x243f_6a88_85a3_08d3u64;
    for c in data.chunks_exact_mut(8) {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        c.copy_from_slice(&s.to_le_bytes());
    }
    data
}

/// Encrypts `data` into memory and decrypts it back with `threads`
/// (0: one per core); returns the seconds each way after the password
/// hashing, which runs once per message whatever its size.
fn in_memory(data: &[u8], pw: &[&[u8]], threads: usize) -> Result<(f64, f64)> {
    // Both buffers are touched before the clock starts: the first write to
    // a fresh page is a page fault, and at 64 MiB those faults took 10x the
    // encryption's own time (2 GB/s instead of the library's speed).
    let mut out = vec![1u8; data.len() + (data.len() >> 8) + 4096];
    out.clear();
    let opts = EncryptOptions { threads, ..EncryptOptions::default() };
    let mut e = Encryptor::new(out, pw, &opts)?;
    let t0 = Instant::now();
    for piece in data.chunks(256 << 10) {
        e.write_all(piece)?;
    }
    let ct = e.finish()?;
    let enc = t0.elapsed().as_secs_f64();
    let opts = DecryptOptions { threads, ..DecryptOptions::default() };
    let mut d = Decryptor::with_options(&ct[..], pw, &opts)?;
    let mut back = vec![1u8; data.len()];
    let t0 = Instant::now();
    d.read_exact(&mut back)?;
    ensure!(d.read(&mut [0u8; 1])? == 0, "the decrypted message is longer than the original");
    let dec = t0.elapsed().as_secs_f64();
    ensure!(back == data, "the decrypted data differs from the original");
    Ok((enc, dec))
}

fn openpgp_demo(mib: usize) -> Result<()> {
    println!("4. OpenPGP (RFC 9580) streaming: SEIPD v2, AES-256-OCB, 256 KiB chunks, Argon2 password:");
    let data = demo_data(mib);
    let password = random_key(16)?;
    let pw: &[&[u8]] = &[&password];
    // In memory the message and its decryption are held whole: 64 MiB is
    // plenty to measure, and keeps the demo's memory small.
    let mem = &data[..data.len().min(64 << 20)];
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (label, threads) in [("1 thread", 1), ("all cores", 0)] {
        if threads == 0 && cores == 1 {
            break;
        }
        let label = if threads == 0 { format!("{label} ({cores})") } else { label.to_string() };
        let (enc, dec) = in_memory(mem, pw, threads)?;
        println!(
            "   library, in memory, {label}: {} MiB encrypt {:.2} GB/s, decrypt {:.2} GB/s (after Argon2)",
            mem.len() >> 20,
            mem.len() as f64 / enc / 1e9,
            mem.len() as f64 / dec / 1e9
        );
    }

    let dir = tempfile::tempdir().context("cannot create a temporary directory")?;
    let plain = dir.path().join("data.bin");
    std::fs::write(&plain, &data)?;
    drop(data);
    // The file run and the keys part in processes of their own (this
    // binary, `--file-run` and `--keys-run`): the in-memory part above left
    // this process's peak at its own high-water mark, so a peak measured
    // here would not be theirs.
    sub_run("--file-run", dir.path(), mib, &password)?;
    sub_run("--keys-run", dir.path(), mib, &[])
}

/// Runs this binary as `demo --file-mib MIB FLAG DIR` with `stdin` as its
/// input, and waits for it to succeed.
fn sub_run(flag: &str, dir: &std::path::Path, mib: usize, stdin: &[u8]) -> Result<()> {
    std::io::stdout().flush()?;
    let mut child = std::process::Command::new(std::env::current_exe()?)
        .args(["demo", "--file-mib", &mib.to_string(), flag])
        .arg(dir)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start the demo's {flag}"))?;
    child.stdin.take().context("no stdin for the sub-run")?.write_all(stdin)?;
    ensure!(child.wait()?.success(), "the demo's {flag} failed");
    Ok(())
}

/// Peak resident memory (MiB) since the last reset, then reset.
fn phase_peak(peaks: &mut Vec<f64>) {
    peaks.extend(peak_mib(false));
    peak_mib(true);
}

/// The file-to-file part of the OpenPGP demo, in its own process: encrypts
/// `dir/data.bin` to `dir/data.pgp` and back to `dir/data.out` with the
/// password read from stdin, and prints times and peak resident memory,
/// streaming alone (reset after each Argon2) and with Argon2's 64 MiB.
fn file_run(dir: &std::path::Path, mib: usize) -> Result<()> {
    let mut password = zeroize::Zeroizing::new(Vec::new());
    std::io::stdin().read_to_end(&mut password)?;
    let pw: &[&[u8]] = &[&password];
    let (plain, enc, dec) = (dir.join("data.bin"), dir.join("data.pgp"), dir.join("data.out"));
    let (mut kdf_peaks, mut stream_peaks) = (Vec::new(), Vec::new());
    peak_mib(true);
    let opts = EncryptOptions { threads: 0, ..EncryptOptions::default() };
    let t0 = Instant::now();
    let input = std::fs::File::open(&plain)?;
    let mut e = Encryptor::new(BufWriter::new(std::fs::File::create(&enc)?), pw, &opts)?;
    let kdf = t0.elapsed().as_secs_f64();
    phase_peak(&mut kdf_peaks);
    // As `tessera encrypt` does: every chunk worker reads its own chunks.
    e.copy_from_file(&input)?;
    e.finish()?.flush()?;
    let enc_time = t0.elapsed().as_secs_f64();
    phase_peak(&mut stream_peaks);

    let t0 = Instant::now();
    let opts = DecryptOptions { threads: 0, ..DecryptOptions::default() };
    // As `tessera decrypt` does: every chunk worker reads its own chunks.
    let sealed = std::fs::File::open(&enc)?;
    let mut d = Decryptor::from_file(&sealed, pw, &opts)?;
    let dec_kdf = t0.elapsed().as_secs_f64();
    phase_peak(&mut kdf_peaks);
    let mut out = BufWriter::new(std::fs::File::create(&dec)?);
    tessera::fs::copy(&mut d, &mut out)?;
    out.flush()?;
    let dec_time = t0.elapsed().as_secs_f64();
    phase_peak(&mut stream_peaks);

    ensure!(files_equal(&plain, &dec)?, "the decrypted file differs from the original");
    let size = (mib << 20) as f64;
    println!(
        "   file to file ({mib} MiB temporary files, so the disk's speed is part of it): encrypt {enc_time:.2} s, \
         decrypt {dec_time:.2} s; after Argon2 ({kdf:.2} s each way) {:.2} and {:.2} GB/s; output identical",
        size / (enc_time - kdf) / 1e9,
        size / (dec_time - dec_kdf) / 1e9
    );
    let max = |v: &[f64]| v.iter().copied().reduce(f64::max);
    if let (Some(s), Some(k)) = (max(&stream_peaks), max(&kdf_peaks)) {
        println!(
            "   peak resident memory of the file run (a process of its own): {s:.1} MiB while streaming, \
             {:.1} MiB counting Argon2's 64 MiB, which is freed before the data flows\n",
            s.max(k)
        );
    }
    Ok(())
}
