#!/usr/bin/env python3
"""Rotate a tokenized column of a Parquet table to a keyset's new primary key.

    tessera keyset add --keyset ks.tks --keyset-password-file pw --transform cards
    tessera keyset promote --keyset ks.tks --keyset-password-file pw --transform cards --version 2
    python examples/spark_rotate.py --keyset ks.tks --keyset-password-file pw \
        --transform cards --version 1 --columns card --input tokens.parquet --output rotated.parquet

Each value is decrypted under the key version that made it and encrypted
again under the primary, on the executors (the plaintext never leaves their
memory). The executors open the keyset themselves: the query plan holds only
its path and the password file's path, so both must be readable there (a
shared mount, or `--files` / `addFile`, then pass the bare names). For an FPE
transformation in external mode, `--version N` names the version the column
was made with; for one whose tweak is another field of the record,
`--tweaks COLUMN` names that field's column. The output is a new table; the
input is left as it was.
"""

import argparse
import os
import sys

from pyspark.sql import SparkSession

from tessera import spark as ts


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--input", required=True, help="Parquet table whose columns hold tokens or ciphertexts")
    p.add_argument("--output", required=True, help="Parquet output path (must not exist)")
    p.add_argument("--columns", required=True, help="comma-separated columns to rewrap")
    p.add_argument("--keyset", required=True, help="keyset file made by `tessera keyset`")
    p.add_argument("--transform", required=True, help="the transformation the columns were made with")
    pw = p.add_mutually_exclusive_group(required=True)
    pw.add_argument("--keyset-password-file", help="file holding the keyset's password")
    pw.add_argument("--keyset-password-env", help="environment variable holding it (on the executors)")
    p.add_argument("--version", type=int, help="the key version the values were made with (required with external FPE versions)")
    p.add_argument("--tweaks", help="column holding each row's tweak (a transformation made with --tweak-field)")
    p.add_argument("--master", default=os.environ.get("SPARK_MASTER", "local[2]"))
    return p.parse_args(argv)


def rotate(spark: SparkSession, a: argparse.Namespace) -> int:
    """Rewraps the columns; returns the number of rows written."""
    df = spark.read.parquet(a.input)
    out = ts.rewrap(
        df,
        [c.strip() for c in a.columns.split(",") if c.strip()],
        keyset=a.keyset,
        transform=a.transform,
        keyset_password_file=a.keyset_password_file,
        keyset_password_env=a.keyset_password_env,
        version=a.version,
        tweaks=a.tweaks,
    )
    out.write.mode("errorifexists").parquet(a.output)
    return spark.read.parquet(a.output).count()


def main(argv: list[str] | None = None) -> int:
    a = parse(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master(a.master).appName("tessera-rotate").config("spark.ui.enabled", "false").getOrCreate()
    )
    spark.sparkContext.setLogLevel("WARN")
    try:
        n = rotate(spark, a)
    finally:
        spark.stop()
    print(f"rewrapped {a.columns} of {n} rows to the primary key of {a.transform!r}: {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
