"""Several columns in one call, each through its own keyset transformation
(FPE and AES-SIV mixed): pyarrow, pandas and Polars tables give the bytes
of the CLI's one-pass CSV (`--columns card=cards,...`), and Spark the same
in one mapInArrow pass. Card tokens fail the Luhn check, date tokens are
dates in the range."""

import csv
import datetime
import io
import subprocess

import pyarrow as pa
import pytest

import tessera
from tessera.columns import decrypt_columns, encrypt_columns, rewrap_columns

PASSWORD = "columns pässword"
MAP = {"card": "cards", "email": "emails", "dob": "dates", "acct": "accts"}


def luhn_ok(s):
    digits = [int(c) for c in reversed(s) if c.isdigit()]
    return sum(d if i % 2 == 0 else (2 * d) // 10 + (2 * d) % 10 for i, d in enumerate(digits)) % 10 == 0


def card(i):
    body = f"4{(i * 7919993 + 17) % 10**14:014d}"
    full = next(body + str(c) for c in range(10) if luhn_ok(body + str(c)))
    return f"{full[:4]}-{full[4:8]}-{full[8:12]}-{full[12:]}"


ROWS = 3000
TABLE = pa.table(
    {
        "id": list(range(ROWS)),
        "email": [f"u{i}@example.org" if i % 11 else None for i in range(ROWS)],
        "card": [card(i) for i in range(ROWS)],
        "cust": [f"c{i % 13}" for i in range(ROWS)],
        "dob": [f"{1930 + i % 80}-{1 + i % 12:02d}-{1 + i % 28:02d}" for i in range(ROWS)],
        "acct": [f"{i * 31:08d}" for i in range(ROWS)],
    }
)


def run(cli, *args, stdin=None):
    return subprocess.run([cli, *args], input=stdin, capture_output=True, check=True).stdout


@pytest.fixture
def keyset(cli, tmp_path):
    ks, pw = tmp_path / "ks.tks", tmp_path / "pw"
    pw.write_text(PASSWORD + "\n")
    pw.chmod(0o600)
    base = ["--keyset", str(ks), "--keyset-password-file", str(pw)]
    run(cli, "keyset", "new", "-o", str(ks), "--keyset-password-file", str(pw), "--transform", "cards",
        "--template", "card", "--luhn", "fail")
    run(cli, "keyset", "new", *base, "--transform", "emails", "--siv")
    run(cli, "keyset", "new", *base, "--transform", "dates", "--template", "date")
    run(cli, "keyset", "new", *base, "--transform", "accts", "--template", "digits", "--tweak-field", "cust")
    return ks, pw, base


def via_cli(cli, base, table, columns):
    """The table through `tessera fpe encrypt --csv --columns ...`, read back as strings."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(table.column_names)
    for row in zip(*(table.column(c).to_pylist() for c in table.column_names)):
        w.writerow(["" if v is None else v for v in row])
    rows = [r for r in table.column_names if r in columns]
    spec = ",".join(f"{c}={columns[c]}" for c in rows)
    out = run(cli, "fpe", "encrypt", *base, "--csv", "--columns", spec, stdin=buf.getvalue().encode())
    return list(csv.DictReader(io.StringIO(out.decode())))


def test_one_call_matches_the_cli_pass_and_round_trips(cli, keyset):
    ks_path, pw, base = keyset
    ks = tessera.Keyset.open(ks_path, PASSWORD)
    enc = encrypt_columns(TABLE, ks, MAP, tweaks={"acct": "cust"})
    assert enc.column_names == TABLE.column_names
    assert enc["id"].equals(TABLE["id"]) and enc["cust"].equals(TABLE["cust"])
    cli_rows = via_cli(cli, base, TABLE.drop_columns(["email"]), {k: v for k, v in MAP.items() if k != "email"})
    for col in ("card", "dob", "acct"):
        assert enc[col].to_pylist() == [r[col] for r in cli_rows], col
    # AES-SIV is deterministic: the email column matches a CLI pass of its own (nulls stay null).
    emails = enc["email"].to_pylist()
    assert emails[0] is None and all(e is not None for i, e in enumerate(emails) if i % 11)
    cli_emails = via_cli(cli, base, TABLE.filter(pa.compute.is_valid(TABLE["email"])), {"email": "emails"})
    assert [e for e in emails if e is not None] == [r["email"] for r in cli_emails]
    assert not any(luhn_ok(c) for c in enc["card"].to_pylist())
    for d in enc["dob"].to_pylist():
        datetime.date.fromisoformat(d)
    back = decrypt_columns(enc, ks, MAP, tweaks={"acct": "cust"})
    assert back.equals(TABLE)
    # A RecordBatch, a pandas and a Polars frame give the same columns.
    batch = encrypt_columns(TABLE.to_batches()[0], ks, MAP, tweaks={"acct": "cust"})
    assert batch.to_pydict() == pa.Table.from_batches(enc.to_batches()).slice(0, batch.num_rows).to_pydict()
    pd = pytest.importorskip("pandas")
    frame = encrypt_columns(TABLE.to_pandas(), ks, MAP, tweaks={"acct": "cust"})
    assert isinstance(frame, pd.DataFrame)
    assert frame["card"].tolist() == enc["card"].to_pylist()
    assert frame["email"].tolist()[1:] == emails[1:] and frame["email"].isna()[0]
    pl = pytest.importorskip("polars")
    pframe = encrypt_columns(pl.from_arrow(TABLE), ks, MAP, tweaks={"acct": "cust"})
    assert isinstance(pframe, pl.DataFrame)
    assert pframe.select(["card", "dob", "acct"]).to_dict(as_series=False) == enc.select(["card", "dob", "acct"]).to_pydict()


def test_rewrap_and_errors_name_the_column_and_row(cli, keyset):
    ks_path, pw, base = keyset
    ks = tessera.Keyset.open(ks_path, PASSWORD)
    two = {"card": "cards", "email": "emails"}
    enc = encrypt_columns(TABLE, ks, two)
    for t in ("cards", "emails"):
        v = run(cli, "keyset", "add", *base, "--transform", t).decode().strip()
        run(cli, "keyset", "promote", *base, "--transform", t, "--version", v)
    ks = tessera.Keyset.open(ks_path, PASSWORD)
    moved = rewrap_columns(enc, ks, two, version=1)
    assert moved["card"].to_pylist() != enc["card"].to_pylist()
    assert moved.equals(encrypt_columns(TABLE, ks, two))
    bad = TABLE.set_column(4, "dob", pa.array(TABLE["dob"].to_pylist()[:5] + ["1999-02-30"] + TABLE["dob"].to_pylist()[6:]))
    with pytest.raises(tessera.TesseraError, match="column 'dob'") as e:
        encrypt_columns(bad, ks, {"card": "cards", "dob": "dates"})
    assert e.value.index == 5
    with pytest.raises(tessera.TesseraError, match="no transformation named 'nope'|\"nope\""):
        encrypt_columns(TABLE, ks, {"card": "nope"})
    with pytest.raises(KeyError, match="no column 'nope'"):
        encrypt_columns(TABLE, ks, {"nope": "cards"})
    with pytest.raises(TypeError, match="unknown option"):
        encrypt_columns(TABLE, ks, two, tweek=b"")


@pytest.mark.spark
def test_spark_one_pass_over_mixed_columns(cli, keyset, spark):
    from tessera import spark as ts

    ks_path, pw, _ = keyset
    ks = tessera.Keyset.open(ks_path, PASSWORD)
    small = TABLE.slice(0, 400)
    expected = encrypt_columns(small, ks, MAP, tweaks={"acct": "cust"})
    df = spark.createDataFrame(small.to_pandas()).coalesce(1)
    opts = dict(keyset=str(ks_path), keyset_password_file=str(pw), transform=MAP, tweaks={"acct": "cust"})
    enc = ts.encrypt(df, list(MAP), **opts).localCheckpoint()
    got = pa.Table.from_pandas(enc.orderBy("id").toPandas(), preserve_index=False)
    for col in MAP:
        assert got[col].to_pylist() == expected[col].to_pylist(), col
    back = ts.decrypt(enc, list(MAP), **opts).orderBy("id").toPandas()
    assert back["dob"].tolist() == small["dob"].to_pylist()
    assert back["card"].tolist() == small["card"].to_pylist()
