#!/usr/bin/env python3
"""Throughput of tessera's Python batch API against pure-Python peers.

    python tessera-py/bench/bench.py [--rows 1000000] [--sample 2000] [--spark]

1M random 16-digit values in a pyarrow array: FF1 and FF3-1 through
`encrypt_batch` (one call, one thread = one core), against the `ff3` package
(FF3-1, mysto) and `pyffx` (FFX), timed on --sample values and scaled. With
--spark, the same tokenization as a tessera.spark job in local[2] (Parquet in,
Parquet out), reported per core. Prints rows/s per core: single-threaded
runs are timed in process CPU time (immune to other load on a shared
machine); the Spark job in wall time divided by its cores.
"""

import argparse
import os
import random
import sys
import tempfile
import time

import pyarrow as pa

import tessera


def best(f, reps=3):
    """Best CPU time of this process (one thread: one core). CPU time, not
    wall time, so that other load on a shared machine does not count."""
    t = []
    for _ in range(reps):
        t0 = time.process_time()
        f()
        t.append(time.process_time() - t0)
    return min(t)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--sample", type=int, default=2000)
    p.add_argument("--spark", action="store_true")
    a = p.parse_args()

    rng = random.Random(7)
    values = ["".join(rng.choices("0123456789", k=16)) for _ in range(a.rows)]
    arr = pa.array(values, pa.string())
    key = bytes(range(16))
    tweak7 = bytes(7)
    ff1, ff31 = tessera.FF1(key), tessera.FF3_1(key)
    rows = {}

    t = best(lambda: ff1.encrypt_batch(arr))
    rows["tessera FF1 encrypt_batch"] = a.rows / t
    t = best(lambda: ff1.decrypt_batch(arr))
    rows["tessera FF1 decrypt_batch"] = a.rows / t
    t = best(lambda: ff31.encrypt_batch(arr, tweak=tweak7))
    rows["tessera FF3-1 encrypt_batch"] = a.rows / t
    sample = values[: a.sample]
    t = best(lambda: [ff1.encrypt(v) for v in sample])
    rows["tessera FF1 encrypt (one str per call)"] = len(sample) / t

    try:
        from ff3 import FF3Cipher

        c = FF3Cipher(key.hex(), tweak7.hex())
        t = best(lambda: [c.encrypt(v) for v in sample], reps=1)
        rows["ff3 (PyPI) FF3-1 encrypt"] = len(sample) / t
        # The same tokens.
        want = ff31.encrypt_batch(sample[:100], tweak=tweak7).to_pylist()
        assert [c.encrypt(v) for v in sample[:100]] == want, "ff3 package disagrees"
    except ImportError:
        print("(ff3 not installed)", file=sys.stderr)
    try:
        import pyffx

        e = pyffx.String(key, alphabet="0123456789", length=16)
        t = best(lambda: [e.encrypt(v) for v in sample], reps=1)
        rows["pyffx (PyPI) FFX encrypt"] = len(sample) / t
    except ImportError:
        print("(pyffx not installed)", file=sys.stderr)

    if a.spark:
        rows.update(spark_bench(values, key))

    print(f"{'what':45} {'rows/s per core':>16}")
    for k, v in rows.items():
        print(f"{k:45} {v:16,.0f}")
    for peer in ("ff3 (PyPI) FF3-1 encrypt", "pyffx (PyPI) FFX encrypt"):
        if peer in rows:
            mine = rows["tessera FF3-1 encrypt_batch"] if "ff3" in peer else rows["tessera FF1 encrypt_batch"]
            print(f"speed-up over {peer}: {mine / rows[peer]:,.0f}x")


def spark_bench(values, key):
    import pyarrow.parquet as pq
    from pyspark.sql import SparkSession

    from tessera import spark as ts

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    cores = 2
    spark = (SparkSession.builder.master(f"local[{cores}]").config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", str(cores)).getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    tmp = tempfile.mkdtemp()
    pq.write_table(pa.table({"id": pa.array(range(len(values)), pa.int64()), "card": pa.array(values)}),
                   f"{tmp}/in.parquet", row_group_size=len(values) // 4)
    with open(f"{tmp}/k", "w") as f:
        f.write(key.hex())
    df = spark.read.parquet(f"{tmp}/in.parquet")
    out = {}

    def job(name, frame):
        t0 = time.perf_counter()
        frame.write.mode("overwrite").parquet(f"{tmp}/{name}")
        return time.perf_counter() - t0

    job("warm", ts.encrypt(df, ["card"], "ff1", key_file=f"{tmp}/k"))
    ident = df.mapInArrow(lambda it: it, df.schema)
    t_id = min(job("id", ident) for _ in range(2))
    t_ff1 = min(job("ff1", ts.encrypt(df, ["card"], "ff1", key_file=f"{tmp}/k")) for _ in range(2))
    n = len(values)
    out[f"Spark local[{cores}] FF1 job, Parquet->Parquet"] = n / t_ff1 / cores
    out[f"Spark local[{cores}] identity mapInArrow job (overhead)"] = n / t_id / cores
    spark.stop()
    return out


if __name__ == "__main__":
    main()
