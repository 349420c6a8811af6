"""Keysets in Spark and Polars: opened where the work runs, never carried in
the plan (the pickled batch function holds no key and no password), and the
example Spark job that rotates a Parquet column to a new primary key."""

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import tessera
from tessera._keysets import KeysetRef

REPO = Path(__file__).resolve().parents[2]
CARDS = [f"4{i:03d}-1111-2222-{i:04d}" for i in range(200)] + [None]
PASSWORD = "keyset pässword"


def run(cli, *args):
    return subprocess.run([cli, *args], capture_output=True, check=True).stdout


@pytest.fixture
def keyset(cli, tmp_path):
    """A sealed keyset: `cards` (FPE, embedded versions) and `emails` (AES-SIV)."""
    ks, pw = tmp_path / "ks.tks", tmp_path / "pw"
    pw.write_text(PASSWORD + "\n")
    base = ["--keyset", str(ks), "--keyset-password-file", str(pw)]
    run(cli, "keyset", "new", "-o", str(ks), "--keyset-password-file", str(pw), "--transform", "cards",
        "--template", "card", "--key-version", "embedded")
    run(cli, "keyset", "new", *base, "--transform", "emails", "--siv")
    return ks, pw, base


def siv_key(cli, base):
    """The AES-SIV key bytes of `emails` (from a Tink cleartext export)."""
    doc = json.loads(run(cli, "keyset", "export-tink", "--cleartext", *base, "--transform", "emails"))
    return base64.b64decode(doc["key"][0]["keyData"]["value"])[-64:]


def test_batch_function_pickles_without_keys_or_password(cli, keyset):
    cloudpickle = pytest.importorskip("pyspark.cloudpickle")
    from tessera import spark as ts

    ks, pw, base = keyset
    spec = ts.KeysetColumns.from_options(ks, {"card": "cards", "email": "emails"}, keyset_password_file=pw)
    fn = ts._batch_function(spec, ["id", "card", "email"], [1, 2], "encrypt")
    blob = cloudpickle.dumps(fn)
    key = siv_key(cli, base)
    assert len(key) == 64
    for secret in (key, key.hex().encode(), base64.b64encode(key), PASSWORD.encode(), ks.read_bytes()[-64:]):
        assert secret not in blob
    assert str(ks).encode() in blob
    # Raw passwords are refused; the executor-side function works after unpickling.
    with pytest.raises(TypeError, match="Broadcast"):
        KeysetRef(str(ks), password=PASSWORD)
    with pytest.raises(ValueError, match="exactly one"):
        KeysetRef(str(ks))
    batch = pa.record_batch({"id": pa.array([1, 2]), "card": pa.array(CARDS[:2]),
                             "email": pa.array(["a@x", None])})
    [out] = list(cloudpickle.loads(blob)(iter([batch])))
    t = tessera.Keyset.open(ks, password=PASSWORD)
    assert out["card"].to_pylist() == t.transform("cards").encrypt_batch(CARDS[:2]).to_pylist()
    assert t.transform("emails").decrypt_batch(out["email"]).to_pylist() == ["a@x", None]


def test_password_sources(keyset, monkeypatch):
    ks, pw, _ = keyset
    monkeypatch.setenv("TESSERA_TEST_KS_PW", PASSWORD)
    by_file = KeysetRef(str(ks), password_file=str(pw)).transform("cards").encrypt("4111-1111-1111-1111")
    by_env = KeysetRef(str(ks), password_env="TESSERA_TEST_KS_PW").transform("cards").encrypt("4111-1111-1111-1111")
    assert by_file == by_env
    with pytest.raises(ValueError, match="NOT_SET_ANYWHERE"):
        KeysetRef(str(ks), password_env="NOT_SET_ANYWHERE").open()
    pw.write_text("wrong\n")
    with pytest.raises(tessera.InvalidKeyError, match="wrong password"):
        KeysetRef(str(ks), password_file=str(pw)).open()


def test_polars_keyset_expressions(cli, keyset):
    pl = pytest.importorskip("polars")
    from tessera import polars as tp

    ks, pw, base = keyset
    opts = dict(keyset=ks, transform="cards", keyset_password_file=pw)
    lf = pl.LazyFrame({"card": CARDS, "email": ["e@x"] * len(CARDS)})
    enc = lf.with_columns(tp.encrypt("card", **opts), tp.encrypt("email", keyset=ks, transform="emails",
                                                                   keyset_password_file=pw, ad=b"t")).collect()
    t1 = tessera.Keyset.open(ks, password=PASSWORD).transform("cards")
    assert enc["card"].to_list() == t1.encrypt_batch(CARDS).to_pylist()
    run(cli, "keyset", "add", *base, "--transform", "cards")
    run(cli, "keyset", "promote", *base, "--transform", "cards", "--version", "2")
    rot = enc.lazy().with_columns(tp.rewrap("card", **opts)).collect()
    assert rot["card"].to_list() != enc["card"].to_list()
    back = rot.lazy().with_columns(tp.decrypt("card", **opts),
                                   tp.decrypt("email", keyset=ks, transform="emails", keyset_password_file=pw,
                                              ad=b"t")).collect()
    assert back["card"].to_list() == CARDS and back["email"].to_list() == ["e@x"] * len(CARDS)
    with pytest.raises(TypeError, match="transform"):
        tp.encrypt("card", keyset=ks, keyset_password_file=pw)


# Two customers share a card: each row's tweak is its customer field.
ACCOUNTS = {"card": ["4111-1111-1111-1111", "4111-1111-1111-1111", None, "5500 0000 0000 0004"],
            "customer": ["c-17", "c-42", None, "c-17"]}


@pytest.fixture
def acct_keyset(cli, keyset):
    """`keyset` plus `acct`: FPE cards whose tweak is the record's `customer` field (external versions)."""
    ks, pw, base = keyset
    run(cli, "keyset", "new", *base, "--transform", "acct", "--template", "card", "--tweak-field", "customer")
    return ks, pw, base


def acct_tokens(ks, cards=ACCOUNTS["card"], customers=ACCOUNTS["customer"]):
    t = tessera.Keyset.open(ks, password=PASSWORD).transform("acct")
    return t.encrypt_batch(pa.array(cards), tweaks=pa.array(customers)).to_pylist()


def test_polars_tweaks_from_another_column(cli, acct_keyset):
    pl = pytest.importorskip("polars")
    from tessera import polars as tp

    ks, pw, base = acct_keyset
    opts = dict(keyset=ks, transform="acct", keyset_password_file=pw, tweaks="customer")
    df = pl.DataFrame(ACCOUNTS)
    enc = df.lazy().with_columns(tp.encrypt("card", **opts)).collect()
    assert enc.columns == ["card", "customer"] and enc["customer"].to_list() == ACCOUNTS["customer"]
    # Each row's own tweak: acct_tokens (not asserted unequal for the shared
    # card: with a random key the two tweaks agree once in 10^6).
    assert enc["card"].to_list() == acct_tokens(ks)
    assert enc["card"][2] is None
    back = enc.lazy().with_columns(tp.decrypt(pl.col("card"), **opts)).collect()
    assert back["card"].to_list() == ACCOUNTS["card"]
    # Rotation: each row rewrapped with its own tweak, from version 1 (external mode).
    run(cli, "keyset", "add", *base, "--transform", "acct")
    run(cli, "keyset", "promote", *base, "--transform", "acct", "--version", "2")
    rot = enc.with_columns(tp.rewrap("card", **opts, version=1))
    assert rot["card"].to_list() == acct_tokens(ks) != enc["card"].to_list()
    # A null tweak beside a value, tweaks of another length, or tweak= with tweaks=: errors.
    nulls = pl.DataFrame({"card": ACCOUNTS["card"], "customer": ["c-17", None, None, "c-17"]})
    with pytest.raises(Exception, match="the tweak of this row is null"):
        nulls.with_columns(tp.encrypt("card", **opts))
    with pytest.raises(Exception, match="tweaks= has 2 rows; the values have 4"):
        df.select(tp.encrypt("card", **{**opts, "tweaks": pl.col("customer").head(2)}))
    with pytest.raises(Exception, match="not both"):
        df.with_columns(tp.encrypt("card", **opts, tweak=b"c-17"))


@pytest.mark.spark
def test_spark_tweaks_from_another_column(cli, acct_keyset, spark, tmp_path):
    from tessera import spark as ts

    ks, pw, base = acct_keyset
    opts = dict(keyset=str(ks), transform="acct", keyset_password_file=str(pw), tweaks="customer")
    rows = list(zip(range(4), ACCOUNTS["card"], ACCOUNTS["customer"]))
    df = spark.createDataFrame(rows, "id long, card string, customer string").coalesce(1)
    # Materialized: the plan would otherwise encrypt again under the primary of the moment.
    enc = ts.encrypt(df, ["card"], **opts).localCheckpoint()
    got = enc.orderBy("id").collect()
    assert [r.card for r in got] == acct_tokens(ks)
    assert [r.customer for r in got] == ACCOUNTS["customer"]
    back = ts.decrypt(enc, "card", **opts).orderBy("id").collect()
    assert [r.card for r in back] == ACCOUNTS["card"]
    run(cli, "keyset", "add", *base, "--transform", "acct")
    run(cli, "keyset", "promote", *base, "--transform", "acct", "--version", "2")
    rot = ts.rewrap(enc, ["card"], **opts, version=1).orderBy("id").collect()
    assert [r.card for r in rot] == acct_tokens(ks) != [r.card for r in got]
    # The same through the example job, in this session: `spark_rotate.py --tweaks customer`.
    sys.path.insert(0, str(REPO / "examples"))
    try:
        import spark_rotate
    finally:
        sys.path.pop(0)
    enc.write.parquet(str(tmp_path / "acct.parquet"))
    args = spark_rotate.parse(["--input", str(tmp_path / "acct.parquet"), "--output", str(tmp_path / "rot.parquet"),
                               "--columns", "card", "--keyset", str(ks), "--keyset-password-file", str(pw),
                               "--transform", "acct", "--version", "1", "--tweaks", "customer"])
    assert spark_rotate.rotate(spark, args) == 4
    by_example = pq.read_table(tmp_path / "rot.parquet").sort_by("id")["card"].to_pylist()
    assert by_example == acct_tokens(ks)
    # A null tweak beside a value fails the job, naming the row.
    nulls = spark.createDataFrame([(0, "4111-1111-1111-1111", "c-1"), (1, "4111-1111-1111-1111", None)],
                                  "id long, card string, customer string").coalesce(1)
    with pytest.raises(Exception, match="the tweak of this row is null") as e:
        ts.encrypt(nulls, ["card"], **opts).collect()
    assert "row 1" in str(e.value)
    # Refused on the driver: a missing tweak column, a transformed one, tweak= beside tweaks=.
    with pytest.raises(ValueError, match="tweak column 'nope' is not in the DataFrame"):
        ts.encrypt(df, ["card"], **{**opts, "tweaks": "nope"})
    with pytest.raises(ValueError, match="is one of the columns to transform"):
        ts.encrypt(df, ["card", "customer"], **opts)
    with pytest.raises(TypeError, match="tweak column 'id' is bigint"):
        ts.encrypt(df, ["card"], **{**opts, "tweaks": "id"})
    with pytest.raises(ValueError, match="not both"):
        ts.encrypt(df, ["card"], **opts, tweak=b"c-1")


@pytest.mark.spark
def test_spark_rotate_example(cli, keyset, tmp_path):
    pytest.importorskip("pyspark")
    ks, pw, base = keyset
    t1 = tessera.Keyset.open(ks, password=PASSWORD).transform("cards")
    tokens = t1.encrypt_batch(pa.array(CARDS))
    table = pa.table({"id": pa.array(range(len(CARDS)), pa.int64()), "card": tokens})
    pq.write_table(table, tmp_path / "tokens.parquet")
    run(cli, "keyset", "add", *base, "--transform", "cards")
    run(cli, "keyset", "promote", *base, "--transform", "cards", "--version", "2")

    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable,
               SPARK_LOCAL_IP="127.0.0.1")
    out = tmp_path / "rotated.parquet"
    args = [sys.executable, str(REPO / "examples" / "spark_rotate.py"), "--input", str(tmp_path / "tokens.parquet"),
            "--output", str(out), "--columns", "card", "--keyset", str(ks), "--keyset-password-file", str(pw),
            "--transform", "cards", "--master", "local[2]"]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "rewrapped card of 201 rows" in done.stdout

    got = pq.read_table(out).sort_by("id")
    t2 = tessera.Keyset.open(ks, password=PASSWORD).transform("cards")
    assert t2.primary == 2
    rotated = got["card"].combine_chunks()
    assert rotated.to_pylist() == t2.encrypt_batch(pa.array(CARDS)).to_pylist()
    assert rotated.to_pylist() != tokens.to_pylist()
    assert t2.decrypt_batch(rotated).to_pylist() == CARDS
    # Writing over an existing table is refused.
    again = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
    assert again.returncode != 0
