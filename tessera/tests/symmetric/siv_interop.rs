//! Cross-checks AES-SIV and AES-CMAC against pycryptodome (`AES.MODE_SIV`,
//! `CMAC`) and pyca/cryptography (`AESSIV`), in one Python process for all
//! cases.
//!
//! The interpreter is `$TESSERA_PYTHON`, else `<workspace>/.venv/bin/python`
//! (made by `scripts/install-peers`). Without one the test prints a skip
//! line, unless `TESSERA_REQUIRE_PEERS` is set, in which case it fails.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use rand::rngs::StdRng;
use rand::{Rng, RngCore, SeedableRng};
use serde_json::{Value, json};
use tessera::cmac::Cmac;
use tessera::siv::AesSiv;

const SCRIPT: &str = r#"
import sys, json
from Crypto.Cipher import AES
from Crypto.Hash import CMAC
from cryptography.hazmat.primitives.ciphers.aead import AESSIV
from cryptography.exceptions import InvalidTag

req = json.load(sys.stdin)
out = {"siv": [], "cmac": []}
for c in req["siv"]:
    key = bytes.fromhex(c["key"])
    ad = [bytes.fromhex(a) for a in c["ad"]]
    nonce = None if c["nonce"] is None else bytes.fromhex(c["nonce"])
    pt = bytes.fromhex(c["pt"])
    ours = bytes.fromhex(c["ours"])
    kw = {} if nonce is None else {"nonce": nonce}
    comps = ad + ([] if nonce is None else [nonce])

    e = AES.new(key, AES.MODE_SIV, **kw)
    for a in ad:
        e.update(a)
    ct, tag = e.encrypt_and_digest(pt)

    d = AES.new(key, AES.MODE_SIV, **kw)
    for a in ad:
        d.update(a)
    try:
        pyc_dec = d.decrypt_and_verify(ours[16:], ours[:16]).hex()
    except ValueError:
        pyc_dec = None
    try:
        crypt_dec = AESSIV(key).decrypt(ours, comps).hex()
    except InvalidTag:
        crypt_dec = None

    out["siv"].append({
        "pycryptodome": (tag + ct).hex(),
        "cryptography": AESSIV(key).encrypt(pt, comps).hex(),
        "pycryptodome_dec": pyc_dec,
        "cryptography_dec": crypt_dec,
    })
for c in req["cmac"]:
    m = CMAC.new(bytes.fromhex(c["key"]), msg=bytes.fromhex(c["msg"]), ciphermod=AES)
    out["cmac"].append(m.hexdigest())
json.dump(out, sys.stdout)
"#;

/// The interpreter with the peers installed, or `None` (after printing why)
/// when the test should be skipped.
fn python() -> Option<PathBuf> {
    let required = std::env::var_os("TESSERA_REQUIRE_PEERS").is_some();
    let candidates: Vec<PathBuf> = match std::env::var_os("TESSERA_PYTHON") {
        Some(p) => vec![p.into()],
        None => vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python")],
    };
    for p in &candidates {
        let ok = Command::new(p)
            .args(["-c", "import Crypto.Cipher.AES, cryptography.hazmat.primitives.ciphers.aead"])
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(p.clone());
        }
    }
    assert!(
        !required,
        "TESSERA_REQUIRE_PEERS is set but no Python with pycryptodome and cryptography at {candidates:?}"
    );
    println!("skipped: no Python with pycryptodome and cryptography ({candidates:?}); run scripts/install-peers");
    None
}

fn run_python(py: &PathBuf, req: &Value) -> Value {
    let mut child = Command::new(py)
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start python");
    let input = serde_json::to_vec(req).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("python output");
    writer.join().unwrap().expect("write to python");
    assert!(out.status.success(), "python failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("python json")
}

fn bytes(rng: &mut StdRng, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rng.fill_bytes(&mut v);
    v
}

/// Plaintext lengths 0..=1000: every length up to 64, then each side of
/// every block boundary, then 1000.
fn lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=64).collect();
    for k in 5..=62 {
        v.extend([16 * k - 1, 16 * k, 16 * k + 1]);
    }
    v.push(1000);
    v
}

/// One AES-SIV case and our output for it.
struct Case {
    key: Vec<u8>,
    ad: Vec<Vec<u8>>,
    nonce: Option<Vec<u8>>,
    pt: Vec<u8>,
    ours: Vec<u8>,
}

/// Two cases per plaintext length: keys of every size, 0..5 associated
/// data components of lengths around the block size, and a nonce in a
/// third of them.
fn siv_cases(rng: &mut StdRng) -> Vec<Case> {
    let ad_lens = [0usize, 1, 15, 16, 17, 31, 32, 33, 48, 100];
    let mut cases = Vec::new();
    for (i, n) in lengths().into_iter().enumerate() {
        for rep in 0..2 {
            let j = 2 * i + rep;
            let key = bytes(rng, [32, 48, 64][j % 3]);
            let n_ad = (j / 3) % 6;
            let ad: Vec<Vec<u8>> = (0..n_ad)
                .map(|_| {
                    let len = if rng.random_bool(0.5) {
                        ad_lens[rng.random_range(0..ad_lens.len())]
                    } else {
                        rng.random_range(0..70)
                    };
                    bytes(rng, len)
                })
                .collect();
            // pycryptodome refuses an empty nonce, so 1..=24 bytes.
            let nonce = (j / 18 % 2 == 1).then(|| {
                let len = rng.random_range(1..=24);
                bytes(rng, len)
            });
            let pt = bytes(rng, n);
            let siv = AesSiv::new(&key).unwrap();
            let refs: Vec<&[u8]> = ad.iter().map(|a| a.as_slice()).collect();
            let ours = siv.seal(nonce.as_deref(), &refs, &pt).unwrap();
            cases.push(Case { key, ad, nonce, pt, ours });
        }
    }
    cases
}

/// The peers' answers for `cases` match ours both ways.
fn check_siv(cases: &[Case], siv_resp: &[Value]) {
    assert_eq!(siv_resp.len(), cases.len());
    let mut key_sizes = [0usize; 3];
    for (c, r) in cases.iter().zip(siv_resp) {
        let what = format!(
            "key {} bytes, {} AD, nonce {:?}, pt {} bytes",
            c.key.len(),
            c.ad.len(),
            c.nonce.as_ref().map(|n| n.len()),
            c.pt.len()
        );
        let ours = hex::encode(&c.ours);
        assert_eq!(r["pycryptodome"].as_str().unwrap(), ours, "pycryptodome encrypt: {what}");
        assert_eq!(r["cryptography"].as_str().unwrap(), ours, "cryptography AESSIV encrypt: {what}");
        let pt = hex::encode(&c.pt);
        assert_eq!(r["pycryptodome_dec"].as_str(), Some(pt.as_str()), "pycryptodome decrypts ours: {what}");
        assert_eq!(r["cryptography_dec"].as_str(), Some(pt.as_str()), "cryptography decrypts ours: {what}");
        // And we decrypt theirs (the same bytes, parsed from their output).
        let theirs = hex::decode(r["cryptography"].as_str().unwrap()).unwrap();
        let refs: Vec<&[u8]> = c.ad.iter().map(|a| a.as_slice()).collect();
        let siv = AesSiv::new(&c.key).unwrap();
        assert_eq!(siv.open(c.nonce.as_deref(), &refs, &theirs).unwrap(), c.pt, "decrypt theirs: {what}");
        key_sizes[c.key.len() / 16 - 2] += 1;
    }
    assert!(key_sizes.iter().all(|&k| k > 100), "{key_sizes:?}");
}

#[test]
fn siv_and_cmac_match_pycryptodome_and_cryptography() {
    let Some(py) = python() else { return };
    let seed = std::env::var("TESSERA_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5157_0001u64);
    println!("seed {seed} (set TESSERA_SEED to vary)");
    let mut rng = StdRng::seed_from_u64(seed);
    let cases = siv_cases(&mut rng);
    let mut macs = Vec::new();
    for n in (0..=200).chain([255, 256, 257, 1000, 4096, 4097]) {
        let key = bytes(&mut rng, [16, 24, 32][n % 3]);
        let msg = bytes(&mut rng, n);
        let ours = Cmac::new(&key).unwrap().mac(&msg);
        macs.push((key, msg, ours));
    }

    let req = json!({
        "siv": cases.iter().map(|c| json!({
            "key": hex::encode(&c.key),
            "ad": c.ad.iter().map(hex::encode).collect::<Vec<_>>(),
            "nonce": c.nonce.as_ref().map(hex::encode),
            "pt": hex::encode(&c.pt),
            "ours": hex::encode(&c.ours),
        })).collect::<Vec<_>>(),
        "cmac": macs.iter().map(|(k, m, _)| json!({"key": hex::encode(k), "msg": hex::encode(m)})).collect::<Vec<_>>(),
    });
    let resp = run_python(&py, &req);
    check_siv(&cases, resp["siv"].as_array().unwrap());

    let cmac_resp = resp["cmac"].as_array().unwrap();
    assert_eq!(cmac_resp.len(), macs.len());
    for ((key, msg, ours), theirs) in macs.iter().zip(cmac_resp) {
        assert_eq!(
            theirs.as_str().unwrap(),
            hex::encode(ours),
            "CMAC key {} bytes, msg {} bytes",
            key.len(),
            msg.len()
        );
    }
    println!(
        "checked {} AES-SIV cases and {} CMAC cases against pycryptodome and cryptography",
        cases.len(),
        macs.len()
    );
}
