"""The timing part of scripts/bench-duckdb: python bench-duckdb.py EXTENSION ROWS MIGRATE_ROWS."""

import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import duckdb
import pyarrow as pa
from ff3 import FF3Cipher

import tessera

KEY = "2b7e151628aed2a6abf7158809cf4f3c"
TWEAK = "d8e7920afa330a"
PASSWORD = "bench"


def cli(*args):
    subprocess.run([os.environ["TESSERA_CLI"], *args], check=True, capture_output=True)


def make_keyset(d):
    """legacy: FF3-1 with KEY and TWEAK (what the ff3 package uses); numbers: FF1."""
    ks, pw, js = d / "ks.tks", d / "pw", d / "ks.json"
    pw.write_text(PASSWORD)
    pw.chmod(0o600)
    cli("keyset", "new", "-o", str(js), "--insecure-cleartext", "--transform", "legacy", "--algorithm", "ff3-1",
        "--allow-withdrawn", "--tweak", TWEAK, "--template", "digits")
    doc = json.loads(js.read_text())
    doc["transforms"][0]["params"]["key_bytes"] = 16
    doc["transforms"][0]["keys"][0]["material"] = KEY
    js.write_text(json.dumps(doc))
    cli("encrypt", "--password-file", str(pw), "-o", str(ks), str(js))
    js.unlink()
    cli("keyset", "new", "--keyset", str(ks), "--keyset-password-file", str(pw), "--transform", "numbers",
        "--template", "digits")
    return ks, pw


def timed(con, sql, runs=1):
    """The best of `runs` wall times of `sql`."""
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        con.execute(sql).fetchall()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    ext, rows, migrate_rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    warnings.simplefilter("ignore", DeprecationWarning)  # FF3-1 on purpose: the peer's method
    d = Path(tempfile.mkdtemp())
    ks, pw = make_keyset(d)
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{ext}'")
    con.execute(f"SET tessera_keyset = '{ks}'; SET tessera_keyset_password_file = '{pw}'")
    con.execute("SET tessera_allow_withdrawn = true")
    con.execute("SELECT tessera_encrypt('numbers', '123456')").fetchall()  # unseals the keyset once, untimed
    con.execute(f"CREATE TABLE t AS SELECT lpad(CAST(CAST(random() * 1e16 AS BIGINT) AS VARCHAR), 16, '0') AS v "
                f"FROM range({rows})")

    old = FF3Cipher(KEY, TWEAK)
    opened = tessera.Keyset.open(ks, password=PASSWORD)
    legacy, numbers = opened.transform("legacy"), opened.transform("numbers")
    con.create_function("ff3_encrypt", lambda a: pa.array([old.encrypt(v) for v in a.to_pylist()]),
                        ["VARCHAR"], "VARCHAR", type="arrow")
    con.create_function("ff3_decrypt", lambda a: pa.array([old.decrypt(v) for v in a.to_pylist()]),
                        ["VARCHAR"], "VARCHAR", type="arrow")
    con.create_function("py_ff3_1", lambda a: legacy.encrypt_batch(a), ["VARCHAR"], "VARCHAR", type="arrow")
    con.create_function("py_ff1", lambda a: numbers.encrypt_batch(a), ["VARCHAR"], "VARCHAR", type="arrow")

    def total(expr, table="t"):
        return timed(con, f"SELECT sum(length({expr})) FROM {table}", runs=3)

    # The ff3 package's UDF runs about 100 s per million rows: it takes the
    # first FF3_ROWS rows, once, and its time is scaled to the whole table.
    ff3_rows = min(rows, int(os.environ.get("FF3_ROWS", "1000000")))
    con.execute(f"CREATE TABLE t_ff3 AS SELECT v FROM t LIMIT {ff3_rows}")
    threads = con.execute("SELECT current_setting('threads')").fetchone()[0]
    print(f"DuckDB {duckdb.__version__}, {rows} rows of 16 digits, {threads} threads; best of 3 runs "
          f"(the ff3 UDF: one run over {ff3_rows} rows, scaled x{rows / ff3_rows:g})")
    ext_ff3 = total("tessera_encrypt('legacy', v)")
    py_ff3 = timed(con, "SELECT sum(length(ff3_encrypt(v))) FROM t_ff3") * rows / ff3_rows
    py_tessera_ff3 = total("py_ff3_1(v)")
    # Each ratio: the UDF's time over the extension's (how many times faster the extension is).
    print(f"FF3-1  extension {ext_ff3:8.2f} s | UDF ff3 package {py_ff3:8.2f} s ({py_ff3 / ext_ff3:6.1f}x) "
          f"| UDF tessera batch {py_tessera_ff3:8.2f} s ({py_tessera_ff3 / ext_ff3:5.1f}x)")
    ext_ff1 = total("tessera_encrypt('numbers', v)")
    py_ff1 = total("py_ff1(v)")
    print(f"FF1    extension {ext_ff1:8.2f} s | UDF tessera batch {py_ff1:8.2f} s ({py_ff1 / ext_ff1:5.1f}x)")
    # What each side pays apart from FPE: DuckDB making a 16-character string
    # per row (upper), and a Python Arrow UDF that returns its input.
    con.create_function("py_identity", lambda a: a, ["VARCHAR"], "VARCHAR", type="arrow")
    print(f"no FPE: upper(v) {total('upper(v)'):8.2f} s | identity Arrow UDF {total('py_identity(v)'):8.2f} s | "
          f"sum(length(v)) {total('v'):8.2f} s")
    same = con.execute("SELECT count(*) FROM t WHERE tessera_encrypt('legacy', v) <> py_ff3_1(v) "
                   "OR tessera_encrypt('numbers', v) <> py_ff1(v)").fetchone()[0]
    assert same == 0, f"{same} rows differ between the extension and the Python package"

    con.execute(f"CREATE TABLE m AS SELECT v FROM t LIMIT {migrate_rows}")
    t = time.perf_counter()
    con.execute("CREATE TABLE old AS SELECT v, ff3_encrypt(v) AS tok FROM m")
    made = time.perf_counter() - t
    migrate = timed(con, "CREATE TABLE moved AS SELECT v, tessera_rewrap('legacy', 'numbers', tok) AS tok FROM old")
    separate = timed(con, "CREATE TABLE apart AS SELECT tessera_encrypt('numbers', ff3_decrypt(tok)) AS tok FROM old")
    wrong = con.execute("SELECT count(*) FROM moved WHERE tessera_decrypt('numbers', tok) <> v").fetchone()[0]
    assert wrong == 0, f"{wrong} migrated tokens do not decrypt to their originals"
    n = con.execute("SELECT count(*) FROM moved").fetchone()[0]
    print(f"migrate {n} ff3 tokens (made in {made:.2f} s) FF3-1 -> FF1: tessera_rewrap {migrate:8.2f} s | "
          f"ff3 decrypt UDF + tessera_encrypt {separate:8.2f} s ({separate / migrate:5.1f}x); all decrypt to the originals")


if __name__ == "__main__":
    main()
