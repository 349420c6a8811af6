"""The measurements of scripts/bench-tokenize (see there); prints Markdown."""

import os
import platform
import random
import subprocess
import tempfile
import time
from pathlib import Path

import pyarrow as pa
from ff3 import FF3Cipher

import tessera

TESSERA = os.environ["TESSERA"]
ROWS = int(os.environ["ROWS"])
KEY = "2b7e151628aed2a6abf7158809cf4f3c"
TWEAK = "d8e7920afa330a"


def luhn_ok(s):
    digits = [int(c) for c in reversed(s) if c.isdigit()]
    return sum(d if i % 2 == 0 else (2 * d) // 10 + (2 * d) % 10 for i, d in enumerate(digits)) % 10 == 0


def cards(n):
    rng = random.Random(37)
    out = []
    for _ in range(n):
        body = "4" + "".join(rng.choice("0123456789") for _ in range(14))
        out.append(next(body + c for c in "0123456789" if luhn_ok(body + c)))
    return out


def cpu():
    model = flags = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name") and model == "?":
                model = line.split(":", 1)[1].strip()
            if line.startswith("flags") and flags == "?":
                have = set(line.split(":", 1)[1].split())
                flags = " ".join(x for x in ("aes", "vaes", "avx2", "avx512f", "avx512bw", "sha_ni", "vpclmulqdq") if x in have)
    return f"{model}, {os.cpu_count()} cores, flags: {flags}"


def timed(cmd, stdin_path=None, stdout_path=None):
    start = time.perf_counter()
    with open(stdin_path, "rb") if stdin_path else open(os.devnull, "rb") as i, \
            open(stdout_path, "wb") if stdout_path else open(os.devnull, "wb") as o:
        subprocess.run(cmd, stdin=i, stdout=o, check=True, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def best(f, runs=3):
    return min(f() for _ in range(runs))


def keyset(d):
    pw = d / "pw"
    pw.write_text("bench password\n")
    pw.chmod(0o600)
    ks = d / "ks.tks"
    base = ["--keyset", str(ks), "--keyset-password-file", str(pw)]
    new = [TESSERA, "keyset", "new", "--keyset-password-file", str(pw)]
    subprocess.run([*new, "-o", str(ks), "--transform", "cards", "--template", "digits"], check=True, capture_output=True)
    subprocess.run([*new, "--keyset", str(ks), "--transform", "pans", "--template", "card", "--luhn", "fail"],
                   check=True, capture_output=True)
    subprocess.run([*new, "--keyset", str(ks), "--transform", "dates", "--template", "date"], check=True, capture_output=True)
    subprocess.run([*new, "--keyset", str(ks), "--transform", "cards_plain", "--template", "card"], check=True, capture_output=True)
    subprocess.run([*new, "--keyset", str(ks), "--transform", "emails", "--siv"], check=True, capture_output=True)
    return ks, pw, base


def migration(d, ks, pw, base):
    values = cards(ROWS)
    c = FF3Cipher(KEY, TWEAK)
    t = time.perf_counter()
    ff3_tokens = [c.encrypt(v) for v in values]
    ff3_encrypt = time.perf_counter() - t
    (d / "ff3.txt").write_text("\n".join(ff3_tokens) + "\n")
    (d / "old.key").write_text(KEY)
    # The separate way: ff3 decrypts to a plaintext file, then tessera encrypts it to FF1.
    t = time.perf_counter()
    plain = [c.decrypt(x) for x in ff3_tokens]
    (d / "plain.txt").write_text("\n".join(plain) + "\n")
    ff3_decrypt = time.perf_counter() - t
    assert plain == values
    enc = best(lambda: timed([TESSERA, "fpe", "encrypt", *base, "--transform", "cards"], d / "plain.txt", d / "ff1_sep.txt"))
    rewrap = [TESSERA, "fpe", "rewrap", "--from-key-file", str(d / "old.key"), "--from-algorithm", "ff3-1",
              "--from-tweak", TWEAK, *base, "--transform", "cards"]
    cli = best(lambda: timed(rewrap, d / "ff3.txt", d / "ff1.txt"))
    ff1 = (d / "ff1.txt").read_text().split()
    assert ff1 == (d / "ff1_sep.txt").read_text().split()
    timed([TESSERA, "fpe", "decrypt", *base, "--transform", "cards"], d / "ff1.txt", d / "back.txt")
    assert (d / "back.txt").read_text().split() == values
    # Python: one migrate_batch call on an Arrow array.
    tr = tessera.Keyset.open(ks, "bench password").transform("cards")
    src = tessera.FF3_1(bytes.fromhex(KEY))
    arr = pa.array(ff3_tokens)
    def py():
        t = time.perf_counter()
        out = tr.migrate_batch(arr, src, source_tweak=bytes.fromhex(TWEAK))
        el = time.perf_counter() - t
        assert out.to_pylist() == ff1
        return el
    py_time = best(py)
    # Spark local[2]: migrate_columns over a DataFrame of the tokens.
    from pyspark.sql import SparkSession

    from tessera import spark as ts

    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.execution.arrow.maxRecordsPerBatch", "65536").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.createDataFrame(pa.table({"id": list(range(ROWS)), "card": ff3_tokens}).to_pandas()).repartition(2).cache()
    df.count()
    opts = dict(from_algorithm="ff3-1", from_key_file=str(d / "old.key"), from_tweak=bytes.fromhex(TWEAK),
                keyset=str(ks), keyset_password_file=str(pw), transform="cards")
    def sp():
        t = time.perf_counter()
        out = ts.migrate(df, ["card"], **opts).orderBy("id").select("card").toPandas()["card"].tolist()
        el = time.perf_counter() - t
        assert out == ff1
        return el
    spark_time = best(sp, 2)
    spark.stop()
    sep = ff3_decrypt + enc
    n = f"{ROWS:,}"
    print(f"### FF3-1 tokens of the `ff3` package moved to FF1 ({n} card numbers)\n")
    print("| path | time | tokens/s | vs separate |")
    print("|---|---:|---:|---:|")
    rows = [
        ("`ff3` encrypt (how the tokens were made; for scale)", ff3_encrypt),
        ("separate: `ff3` decrypt to a file, then `tessera fpe encrypt`", sep),
        ("`tessera fpe rewrap --from-algorithm ff3-1 ...` (one pass)", cli),
        ("Python `KeysetTransform.migrate_batch` (one Arrow array)", py_time),
        ("Spark local[2] `tessera.spark.migrate` (incl. collect)", spark_time),
    ]
    for what, s in rows:
        print(f"| {what} | {s:.2f} s | {ROWS / s:,.0f} | {sep / s:.1f}x |")
    print(f"\nEvery path gives the same FF1 tokens, which decrypt to the originals. "
          f"`tessera fpe encrypt` alone: {enc:.2f} s; `ff3` decrypt alone: {ff3_decrypt:.2f} s.\n")


def columns(d, base):
    rng = random.Random(7)
    pans = cards(ROWS)
    path = d / "customers.csv"
    with open(path, "w") as f:
        f.write("id,card,name,dob,email,city\n")
        for i, p in enumerate(pans):
            dob = f"{1930 + rng.randrange(80)}-{1 + rng.randrange(12):02d}-{1 + rng.randrange(28):02d}"
            f.write(f"{i},{p[:4]}-{p[4:8]}-{p[8:12]}-{p[12:]},Name {i},{dob},user{i}@example.org,City {i % 97}\n")
    size = path.stat().st_size
    print(f"### One CSV pass over three columns ({ROWS:,} records, {size / 2**20:.0f} MiB)\n")
    print("dob: date template; email: AES-SIV; card: the card template (6 + 4 digits kept), or with its")
    print("tokens failing the Luhn check (`--luhn fail`: about ten FF1 calls per card, cycle walking).\n")
    print("| columns | one pass per column (3 processes, file to file) | one `--columns` pass | speed-up |")
    print("|---|---:|---:|---:|")
    for card in ("cards_plain", "pans"):
        spec = [f"card={card}", "dob=dates", "email=emails"]
        one = [TESSERA, "fpe", "encrypt", *base, "--csv", "--columns", ",".join(spec)]
        t_one = best(lambda: timed(one, path, d / "one.csv"))
        def each():
            total, src = 0.0, path
            for i, col in enumerate(spec):
                out = d / f"each{i}.csv"
                total += timed([TESSERA, "fpe", "encrypt", *base, "--csv", "--columns", col], src, out)
                src = out
            return total
        t_each = best(each)
        assert (d / "one.csv").read_bytes() == (d / "each2.csv").read_bytes()
        print(f"| `{','.join(spec)}` | {t_each:.2f} s | {t_one:.2f} s | {t_each / t_one:.1f}x |")
    print("\nOutputs byte-identical to the chained single-column passes. Each process opens the sealed keyset")
    print("(Argon2id, about 0.13 s here) once.\n")


def main():
    print(f"Machine: {cpu()}; {platform.python_version()}; run `scripts/bench-tokenize {ROWS}`.\n")
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        ks, pw, base = keyset(d)
        columns(d, base)
        migration(d, ks, pw, base)


if __name__ == "__main__":
    main()
