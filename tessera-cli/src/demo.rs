//! `tessera demo`: tokenizes the bundled sample file with ephemeral keys,
//! shows lines before and after, restores them, and measures throughput.

use std::time::Instant;

use anyhow::{Result, ensure};
use clap::Args;
use tessera::fpe::{Alphabet, FF1, FF3_1, Fpe, TokenFormat, Tweaks};

use crate::fpe_cmd::FpeTransform;
use crate::keygen::random_key;
use crate::records;

const SAMPLE: &str = include_str!("../data/customers.csv");

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Values in the throughput test.
    #[arg(long, default_value_t = 1_000_000)]
    pub values: usize,
}

/// One CSV pass over `input`, transforming `column`.
fn pass(
    input: &[u8],
    column: &str,
    cipher: Box<dyn Fpe>,
    format: TokenFormat,
    tweak: &[u8],
    enc: bool,
) -> Result<Vec<u8>> {
    let mut t = FpeTransform::new(cipher, format, tweak.to_vec(), enc);
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
    println!("tessera demo: format-preserving encryption with ephemeral keys (nothing is stored)\n");
    let k1 = random_key(32)?;
    let k2 = random_key(16)?;
    let ff1 = || FF1::new(&k1, Alphabet::digits());
    let ff1_alnum = || FF1::new(&k1, Alphabet::alphanumeric());
    let ff3 = || FF3_1::new(&k2, Alphabet::digits());
    let card_fmt = TokenFormat::new().passthrough("-").keep_prefix(6).keep_suffix(4);
    let ssn_fmt = TokenFormat::new().passthrough("-");
    let tweak7 = b"tessera";

    let rows = SAMPLE.lines().count() - 1;
    println!("1. Tokenize {rows} rows of bundled fake customer data (tessera-cli/data/customers.csv):");
    println!("   card_number: FF1/AES-256, dashes kept, first 6 and last 4 digits in clear");
    println!("   account_id:  FF1/AES-256 over 0-9a-zA-Z");
    println!("   ssn:         FF3-1/AES-128, tweak \"tessera\", dashes kept\n");
    let t0 = Instant::now();
    let a = pass(SAMPLE.as_bytes(), "card_number", Box::new(ff1()?), card_fmt.clone(), b"card", true)?;
    let b = pass(&a, "account_id", Box::new(ff1_alnum()?), TokenFormat::new(), b"acct", true)?;
    let tokens = pass(&b, "ssn", Box::new(ff3()?), ssn_fmt.clone(), tweak7, true)?;
    let enc_time = t0.elapsed();
    show("before", SAMPLE.as_bytes());
    show("after", &tokens);

    let t0 = Instant::now();
    let a = pass(&tokens, "ssn", Box::new(ff3()?), ssn_fmt, tweak7, false)?;
    let b = pass(&a, "account_id", Box::new(ff1_alnum()?), TokenFormat::new(), b"acct", false)?;
    let back = pass(&b, "card_number", Box::new(ff1()?), card_fmt, b"card", false)?;
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
        [("FF1  ", Box::new(FF1::new(&k2, Alphabet::digits())?), b""), ("FF3-1", Box::new(ff3()?), tweak7)];
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
    Ok(())
}
