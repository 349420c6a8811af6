"""PySpark local[2]: tokenize 1,000,000 rows, write Parquet, read back, check
every row against the library, and decrypt back. No network is used."""

import os
import random
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import tessera

pytest.importorskip("pyspark")
pytest.importorskip("pandas")

pytestmark = pytest.mark.spark

ROWS = int(os.environ.get("TESSERA_SPARK_ROWS", "1000000"))


def make_table(n):
    rng = random.Random(42)
    cards = [None if i % 997 == 0 else "".join(rng.choices("0123456789", k=16)) for i in range(n)]
    names = [None if i % 1009 == 0 else f"user-{rng.randrange(10**9)}" for i in range(n)]
    return pa.table({"id": pa.array(range(n), pa.int64()), "card": pa.array(cards), "name": pa.array(names)})


def test_spark_tokenize_parquet_round_trip(spark, tmp_path):
    from tessera import spark as ts

    fpe_key, siv_key = bytes(range(16)), bytes(range(100, 164))
    (tmp_path / "fpe.key").write_text(fpe_key.hex() + "\n")
    table = make_table(ROWS)
    pq.write_table(table, tmp_path / "in.parquet", row_group_size=250_000)

    df = spark.read.parquet(str(tmp_path / "in.parquet"))
    siv_bc = spark.sparkContext.broadcast(siv_key)
    enc = ts.encrypt(df, ["card"], "ff1", key_file=str(tmp_path / "fpe.key"), tweak=b"cards")
    enc = ts.encrypt(enc, "name", "aes-siv", key=siv_bc, ad={"name": [b"users.name"]})
    plan = enc._jdf.queryExecution().toString()
    assert fpe_key.hex() not in plan and siv_key.hex() not in plan
    enc.write.parquet(str(tmp_path / "enc"))

    got = pq.read_table(tmp_path / "enc").sort_by("id")
    assert got.num_rows == ROWS and got.column_names == ["id", "card", "name"]
    assert got["id"].equals(table["id"])
    ff1, siv = tessera.FF1(fpe_key), tessera.AesSiv(siv_key)
    want_card = ff1.encrypt_batch(table["card"], tweak=b"cards")
    want_name = siv.encrypt_batch(table["name"], ad=[b"users.name"])
    assert got["card"].combine_chunks().cast(pa.string()).equals(want_card)
    assert got["name"].combine_chunks().cast(pa.string()).equals(want_name)
    assert got["card"].null_count == table["card"].null_count > 0

    back = ts.decrypt(spark.read.parquet(str(tmp_path / "enc")), ["card"], "ff1",
                      key_file=str(tmp_path / "fpe.key"), tweak=b"cards")
    back = ts.decrypt(back, ["name"], "aes-siv", key=siv_bc, ad={"name": [b"users.name"]})
    back.write.parquet(str(tmp_path / "back"))
    restored = pq.read_table(tmp_path / "back").sort_by("id")
    for c in ("card", "name"):
        assert restored[c].combine_chunks().cast(pa.string()).equals(table[c].combine_chunks())


def test_spark_refuses_raw_keys_and_bad_columns(spark):
    from tessera import spark as ts

    df = spark.createDataFrame([(1, "123456")], "id long, card string")
    with pytest.raises(TypeError):
        ts.encrypt(df, ["card"], "ff1", key=bytes(16))
    with pytest.raises(ValueError):
        ts.encrypt(df, ["nope"], "ff1", key_file="/nonexistent")
    with pytest.raises(TypeError):
        ts.encrypt(df, ["id"], "ff1", key_file="/nonexistent")
    with pytest.raises(ValueError):
        ts.encrypt(df, ["card"], "ff2", key_file="/nonexistent")


def test_spark_bad_value_fails_the_job(spark, tmp_path):
    from tessera import spark as ts

    (tmp_path / "k").write_text("00" * 16)
    df = spark.createDataFrame([(1, "123456"), (2, "12a456")], "id long, card string").coalesce(1)
    with pytest.raises(Exception, match="row 1"):
        ts.encrypt(df, ["card"], "ff1", key_file=str(tmp_path / "k")).collect()


def test_spark_migrates_ff3_1_tokens_of_the_ff3_package(spark, cli, tmp_path):
    """FF3-1 tokens as a Spark notebook with the `ff3` package made them move
    to a keyset's FF1 transformation, and decrypt to the original cards."""
    import subprocess

    from tessera import spark as ts

    ff3 = pytest.importorskip("ff3")
    n = min(ROWS, 200_000)
    key, tweak = bytes(range(16)), bytes.fromhex("d8e7920afa330a")
    (tmp_path / "old.key").write_text(key.hex())
    (tmp_path / "pw").write_text("s3cret\n")
    ks = str(tmp_path / "ks.tks")
    subprocess.run([cli, "keyset", "new", "-o", ks, "--keyset-password-file", str(tmp_path / "pw"),
                    "--transform", "cards", "--template", "digits"], check=True, capture_output=True)
    rng = random.Random(9)
    cards = [None if i % 101 == 0 else "".join(rng.choices("0123456789", k=16)) for i in range(n)]
    old = ff3.FF3Cipher(key.hex(), tweak.hex())
    table = pa.table({"id": pa.array(range(n), pa.int64()),
                      "card": pa.array([None if c is None else old.encrypt(c) for c in cards])})
    pq.write_table(table, tmp_path / "ff3.parquet")

    opts = dict(keyset=ks, keyset_password_file=str(tmp_path / "pw"), transform="cards")
    moved = ts.migrate(spark.read.parquet(str(tmp_path / "ff3.parquet")), ["card"], from_algorithm="ff3-1",
                       from_key_file=str(tmp_path / "old.key"), from_tweak=tweak, **opts)
    ts.decrypt(moved, ["card"], **opts).write.parquet(str(tmp_path / "back"))
    back = pq.read_table(tmp_path / "back").sort_by("id")
    assert back["card"].to_pylist() == cards
    with pytest.raises(ValueError, match="FPE"):
        ts.migrate(spark.read.parquet(str(tmp_path / "ff3.parquet")), ["card"], from_algorithm="aes-siv",
                   from_key_file=str(tmp_path / "old.key"), **opts)
