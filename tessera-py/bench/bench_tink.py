#!/usr/bin/env python3
"""tessera against Tink Python's DeterministicAead (AES-SIV) on the same
keyset and the same data (issue 13's benchmark).

    python tessera-py/bench/bench_tink.py [--rows 1000000] [--reps 3] [--cli target/release/tessera]

A Tink AES256_SIV keyset (TINK output prefix) is made with Tink, written as
Tink's JSON and imported with `tessera keyset import-tink`, so both sides use
the same key and write the same bytes (checked). Values: --rows random
32-byte values, associated data b"bench".

1. Python: Tink's `encrypt_deterministically` once per value (its Python API
   has no batch call) against tessera's `Keyset(...).transform("tink")`
   `encrypt_batch` on a pyarrow binary column; process CPU time.
2. Keyset against keyless: the same column through `tessera.AesSiv(key)`
   (raw V || C, no prefix) and through the keyset transformation, for
   encrypt, decrypt and rewrap (keyless rewrap: decrypt_batch then
   encrypt_batch); process CPU time.
3. End to end (with --cli): `tessera siv encrypt --keyset ... --lines` on a
   file of --rows lines (64 hex characters: the 32 bytes) against a Python
   program that reads the same lines and writes Tink's ciphertexts as
   unpadded base64url lines; each as a whole process (start-up, the keyset's
   password hash, reading and writing included), outputs compared byte for
   byte; CPU time of the child (user + sys) and wall time.

4. FPE keysets (always; no Tink counterpart): --rows card numbers
   (`4111-1111-1111-1111` shapes) through a `--template card` keyset
   transformation's encrypt_batch / decrypt_batch / rewrap_batch against the
   keyless `tessera.FF1` with the same format (6 + 4 digits kept, `-` and
   space in place); keyless rewrap = decrypt_batch then encrypt_batch.

Every figure is the best of --reps runs: the machine may be shared. The
keyset and keyless calls are timed in turn within each run, so both see the
same state of the process.
"""

import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

import pyarrow as pa

AD = b"bench"
PASSWORD = b"bench keyset password"

TINK_LINES = r"""
import base64, sys, tink
from tink import daead, secret_key_access
daead.register()
with open(sys.argv[1]) as f:
    p = tink.json_proto_keyset_format.parse(f.read(), secret_key_access.TOKEN).primitive(daead.DeterministicAead)
enc, b64, ad = p.encrypt_deterministically, base64.urlsafe_b64encode, bytes.fromhex(sys.argv[2])
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    out.write(b64(enc(line.rstrip(b"\n"), ad)).rstrip(b"=") + b"\n")
"""


def best(f, reps):
    """Best process CPU time of `reps` calls of `f` (one thread: one core)."""
    times = []
    for _ in range(reps):
        t0 = time.process_time()
        f()
        times.append(time.process_time() - t0)
    return min(times)


def pairs(cases, reps):
    """Best process CPU time of each of `cases` (name -> function), the
    functions called in turn `reps` times over, so that a keyset call and
    its keyless counterpart see the same state of the process."""
    res = {}
    for _ in range(reps):
        for name, f in cases.items():
            t0 = time.process_time()
            f()
            res[name] = min(res.get(name, float("inf")), time.process_time() - t0)
    return res


def child(args, stdin_path, stdout_path):
    """Runs a process; returns (CPU seconds user + sys, wall seconds)."""
    with open(stdin_path, "rb") as i, open(stdout_path, "wb") as o:
        t0 = time.perf_counter()
        p = subprocess.Popen(args, stdin=i, stdout=o)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"{args[0]} failed with {p.returncode}")
    return ru.ru_utime + ru.ru_stime, wall


def make_keyset(tmp, cli):
    import tink
    from tink import daead, secret_key_access

    daead.register()
    handle = tink.new_keyset_handle(daead.deterministic_aead_key_templates.AES256_SIV)
    tink_json = os.path.join(tmp, "tink.json")
    with open(tink_json, "w") as f:
        f.write(tink.json_proto_keyset_format.serialize(handle, secret_key_access.TOKEN))
    with open(tink_json) as f:
        raw_key = base64.b64decode(json.load(f)["key"][0]["keyData"]["value"])[-64:]
    pw = os.path.join(tmp, "pw")
    with open(pw, "wb") as f:
        f.write(PASSWORD)
    ks = os.path.join(tmp, "ks.tks")
    subprocess.run([cli, "keyset", "import-tink", "--cleartext", tink_json, "-o", ks, "--keyset-password-file", pw],
                   check=True)
    return handle.primitive(daead.DeterministicAead), tink_json, raw_key, ks, pw


def python_api(rows, reps, tink_p, raw_key, ks):
    import tessera

    values = [os.urandom(32) for _ in range(rows)]
    col = pa.array(values, pa.binary())
    t = tessera.Keyset.open(ks, password=PASSWORD).transform("tink")
    siv = tessera.AesSiv(raw_key)
    enc = t.encrypt_batch(col, ad=AD)
    assert enc.to_pylist()[:1000] == [tink_p.encrypt_deterministically(v, AD) for v in values[:1000]], "Tink disagrees"
    raw = siv.encrypt_batch(col, ad=[AD])
    assert enc[0].as_py()[5:] == raw[0].as_py()
    res = {"tink": best(lambda: [tink_p.encrypt_deterministically(v, AD) for v in values], reps)}
    res.update(pairs({
        "keyset encrypt": lambda: t.encrypt_batch(col, ad=AD),
        "keyless encrypt": lambda: siv.encrypt_batch(col, ad=[AD]),
        "keyset decrypt": lambda: t.decrypt_batch(enc, ad=AD),
        "keyless decrypt": lambda: siv.decrypt_batch(raw, ad=[AD]),
        "keyset rewrap": lambda: t.rewrap_batch(enc, ad=AD),
        "keyless rewrap": lambda: siv.encrypt_batch(siv.decrypt_batch(raw, ad=[AD]), ad=[AD]),
    }, reps))
    return res


def fpe_python(rows, reps, cli, tmp):
    import tessera

    pw = os.path.join(tmp, "pw")
    ks = os.path.join(tmp, "cards.tks")
    subprocess.run([cli, "keyset", "new", "-o", ks, "--keyset-password-file", pw, "--transform", "cards",
                    "--template", "card"], check=True, capture_output=True)
    t = tessera.Keyset.open(ks, password=PASSWORD).transform("cards")
    ff1 = tessera.FF1(os.urandom(32), "0123456789", passthrough=" -", keep_prefix=6, keep_suffix=4)
    digits = [f"{int.from_bytes(os.urandom(8), 'big') % 10**16:016d}" for _ in range(rows)]
    col = pa.array([f"{d[:4]}-{d[4:8]}-{d[8:12]}-{d[12:]}" for d in digits])
    enc, raw = t.encrypt_batch(col), ff1.encrypt_batch(col)
    # Version 2 promoted: rewrap moves version 1's tokens (external versions: named) to it.
    for op in (["add"], ["promote", "--version", "2"]):
        subprocess.run([cli, "keyset", op[0], "--keyset", ks, "--keyset-password-file", pw, "--transform", "cards",
                        *op[1:]], check=True, capture_output=True)
    t = tessera.Keyset.open(ks, password=PASSWORD).transform("cards")
    assert t.decrypt_batch(enc, version=1).equals(col) and ff1.decrypt_batch(raw).equals(col)
    return pairs({
        "keyset encrypt": lambda: t.encrypt_batch(col),
        "keyless encrypt": lambda: ff1.encrypt_batch(col),
        "keyset decrypt": lambda: t.decrypt_batch(enc, version=1),
        "keyless decrypt": lambda: ff1.decrypt_batch(raw),
        "keyset rewrap": lambda: t.rewrap_batch(enc, version=1),
        "keyless rewrap": lambda: ff1.encrypt_batch(ff1.decrypt_batch(raw)),
    }, reps)


def report(title, rows, reps, r):
    print(f"{title}, {rows:,} values, CPU seconds (best of {reps}):")
    for k, v in r.items():
        print(f"  {k:18} {v:7.3f} s  {v / rows * 1e9:7.0f} ns/value")
    if "tink" in r:
        print(f"  tessera keyset encrypt_batch vs Tink: {r['tink'] / r['keyset encrypt']:.1f}x")
    for op in ("encrypt", "decrypt", "rewrap"):
        print(f"  keyset {op} / keyless {op}: {r['keyset ' + op] / r['keyless ' + op]:.3f}")


def end_to_end(rows, reps, cli, tink_json, ks, pw, tmp):
    lines = os.path.join(tmp, "lines")
    with open(lines, "wb") as f:
        f.write(b"".join(os.urandom(32).hex().encode() + b"\n" for _ in range(rows)))
    mine = [cli, "siv", "encrypt", "--keyset", ks, "--keyset-password-file", pw, "--lines", "--ad", AD.hex()]
    theirs = [sys.executable, "-c", TINK_LINES, tink_json, AD.hex()]
    out_m, out_t = os.path.join(tmp, "out.tessera"), os.path.join(tmp, "out.tink")
    res = {}
    for name, args, out in [("tessera CLI", mine, out_m), ("Tink Python", theirs, out_t)]:
        runs = [child(args, lines, out) for _ in range(reps)]
        res[name] = (min(r[0] for r in runs), min(r[1] for r in runs))
    with open(out_m, "rb") as a, open(out_t, "rb") as b:
        assert a.read() == b.read(), "tessera and Tink outputs differ"
    return res


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--cli", default=os.environ.get("TESSERA_CLI", "target/release/tessera"))
    p.add_argument("--python-only", action="store_true", help="skip the end-to-end comparison")
    p.add_argument("--cli-only", action="store_true", help="only the end-to-end comparison (no tessera module)")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tink_p, tink_json, raw_key, ks, pw = make_keyset(tmp, a.cli)
        if not a.cli_only:
            report("Python API, AES-SIV, 32-byte values", a.rows, a.reps,
                   python_api(a.rows, a.reps, tink_p, raw_key, ks))
            report("Python API, FPE, card numbers", a.rows, a.reps, fpe_python(a.rows, a.reps, a.cli, tmp))
        if a.python_only:
            return
        e = end_to_end(a.rows, a.reps, a.cli, tink_json, ks, pw, tmp)
        print(f"End to end, {a.rows:,} lines, whole process (best of {a.reps}): CPU s, wall s")
        for k, (cpu, wall) in e.items():
            print(f"  {k:12} {cpu:7.3f} {wall:7.3f}")
        cpu = e["Tink Python"][0] / e["tessera CLI"][0]
        wall = e["Tink Python"][1] / e["tessera CLI"][1]
        print(f"  tessera siv encrypt --keyset --lines vs Tink: {cpu:.1f}x (CPU), {wall:.1f}x (wall)")


if __name__ == "__main__":
    main()
