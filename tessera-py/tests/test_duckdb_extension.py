"""The DuckDB extension (scripts/build-duckdb-extension) loaded into the
`duckdb` Python package: its FPE and AES-SIV results equal the CLI's and the
Python package's on the same keyset, NULLs stay NULL, every bad input is one
error naming the row and no result, the password comes from a file or an
environment variable, and tokens of the `ff3` package migrate from an FF3-1
transformation to FF1 in SQL. The extension is built by scripts/test-python
($TESSERA_DUCKDB_EXTENSION); this file builds nothing."""

import base64
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
KEY = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
TWEAK7 = bytes.fromhex("d8e7920afa330a")
PASSWORD = "s3cret"
CARDS = ["4111111111111111", "5500000000000004", None, "6304000000000000018", "6011000000000004"]
EMAILS = ["alice@example.com", None, "bob@example.com", "", "carol@example.org"]


def required(what):
    if os.environ.get("TESSERA_REQUIRE_DUCKDB"):
        pytest.fail(f"TESSERA_REQUIRE_DUCKDB is set but {what}")
    pytest.skip(what)


@pytest.fixture(scope="module")
def extension():
    env = os.environ.get("TESSERA_DUCKDB_EXTENSION")
    path = Path(env) if env else REPO / "target" / "debug" / "tessera.duckdb_extension"
    if not path.is_file():
        required(f"no extension at {path} (scripts/build-duckdb-extension)")
    try:
        import duckdb  # noqa: F401
    except ImportError:
        required("the duckdb package is not installed")
    return path


def run(cli, *args, stdin=b""):
    return subprocess.run([cli, *args], input=stdin, capture_output=True, check=True).stdout


def lines(values):
    return "".join(v + "\n" for v in values).encode()


@pytest.fixture(scope="module")
def keyset(cli, tmp_path_factory):
    """cards (FF1, card template), numbers (FF1 digits), emails (AES-SIV) and
    legacy: FF3-1 with KEY and TWEAK7, the key the `ff3` tokens were made with
    (written as cleartext JSON, then sealed as a keyset file is)."""
    d = tmp_path_factory.mktemp("duckdb")
    ks, pw, js = d / "ks.tks", d / "pw", d / "ks.json"
    pw.write_text(PASSWORD + "\n")
    pw.chmod(0o600)
    run(cli, "keyset", "new", "-o", str(js), "--insecure-cleartext", "--transform", "legacy", "--algorithm",
        "ff3-1", "--allow-withdrawn", "--tweak", TWEAK7.hex(), "--template", "digits")
    doc = json.loads(js.read_text())
    doc["transforms"][0]["params"]["key_bytes"] = 16
    doc["transforms"][0]["keys"][0]["material"] = KEY.hex()
    js.write_text(json.dumps(doc))
    run(cli, "encrypt", "--password-file", str(pw), "--s2k", "iterated", "--s2k-count", "96", "-o", str(ks), str(js))
    base = ["--keyset", str(ks), "--keyset-password-file", str(pw)]
    run(cli, "keyset", "new", *base, "--transform", "cards", "--template", "card")
    run(cli, "keyset", "new", *base, "--transform", "numbers", "--template", "digits")
    run(cli, "keyset", "new", *base, "--transform", "emails", "--siv")
    return ks, pw, base


def copy(keyset, d):
    """A copy of the keyset to change, and its CLI options."""
    ks0, pw, _ = keyset
    ks = d / "changed.tks"
    ks.write_bytes(ks0.read_bytes())
    return ks, pw, ["--keyset", str(ks), "--keyset-password-file", str(pw)]


def primary(cli, base, name):
    """The primary version of `name`, as `tessera keyset list` shows it."""
    listing = run(cli, "keyset", "list", *base).decode().splitlines()
    start = next(i for i, line in enumerate(listing) if line.startswith(name + ":"))
    for line in listing[start + 1:]:
        if not line.startswith(" "):
            break
        if "primary" in line.split():
            return line.split()[1]
    raise AssertionError(f"no primary version of {name} in {listing}")


def connect(extension, ks, pw=None, env=None):
    import duckdb

    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{extension}'")
    con.execute(f"SET tessera_keyset = '{ks}'")
    if pw:
        con.execute(f"SET tessera_keyset_password_file = '{pw}'")
    if env:
        con.execute(f"SET tessera_keyset_password_env = '{env}'")
    return con


def column(con, sql, values):
    con.execute("CREATE OR REPLACE TABLE t AS SELECT * FROM (SELECT unnest(?::VARCHAR[]) AS v)", [values])
    return [r[0] for r in con.execute(sql.replace("{t}", "t")).fetchall()]


def b64(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def test_fpe_and_siv_equal_the_cli_and_python_with_nulls_kept(cli, extension, keyset):
    ks, pw, base = keyset
    con = connect(extension, ks, pw=pw)
    tokens = column(con, "SELECT tessera_encrypt('cards', v) FROM {t}", CARDS)
    assert tokens[2] is None
    present = [c for c in CARDS if c is not None]
    cli_tokens = run(cli, "fpe", "encrypt", *base, "--transform", "cards", stdin=lines(present)).decode().split()
    assert [t for t in tokens if t is not None] == cli_tokens
    assert column(con, "SELECT tessera_decrypt('cards', v) FROM {t}", tokens) == CARDS

    cts = column(con, "SELECT tessera_encrypt('emails', v) FROM {t}", EMAILS)
    assert cts[1] is None
    sent = [e for e in EMAILS if e is not None]
    cli_cts = run(cli, "siv", "encrypt", *base, "--transform", "emails", "--lines", stdin=lines(sent)).decode()
    assert [c for c in cts if c is not None] == cli_cts.splitlines()
    assert column(con, "SELECT tessera_decrypt('emails', v) FROM {t}", cts) == EMAILS

    tessera = pytest.importorskip("tessera")
    pa = pytest.importorskip("pyarrow")
    opened = tessera.Keyset.open(ks, password=PASSWORD)
    assert opened.transform("cards").encrypt_batch(pa.array(CARDS)).to_pylist() == tokens
    siv = opened.transform("emails")
    assert [b64(siv.encrypt(e.encode())) for e in sent] == [c for c in cts if c is not None]


def test_rewrap_after_rotation_equals_the_cli(cli, extension, keyset, tmp_path):
    ks, pw, base = copy(keyset, tmp_path)
    con = connect(extension, ks, pw=pw)
    tokens = column(con, "SELECT tessera_encrypt('cards', v) FROM {t}", CARDS)
    cts = column(con, "SELECT tessera_encrypt('emails', v) FROM {t}", EMAILS)
    for name in ("cards", "emails"):
        v = run(cli, "keyset", "add", *base, "--transform", name).decode().split()[-1]
        run(cli, "keyset", "promote", *base, "--transform", name, "--version", v)
    # The edited file is opened again; FPE tokens do not name their version.
    with pytest.raises(Exception, match=r"tessera_rewrap: .*version"):
        column(con, "SELECT tessera_rewrap('cards', v) FROM {t}", tokens)
    moved = column(con, "SELECT tessera_rewrap('cards', v, 1) FROM {t}", tokens)
    present = [t for t in tokens if t is not None]
    cli_moved = run(cli, "fpe", "rewrap", *base, "--transform", "cards", "--version", "1", stdin=lines(present))
    assert [m for m in moved if m is not None] == cli_moved.decode().split()
    assert moved[2] is None and moved != tokens
    assert column(con, "SELECT tessera_decrypt('cards', v, 2) FROM {t}", moved) == CARDS
    rewrapped = column(con, "SELECT tessera_rewrap('emails', v) FROM {t}", cts)
    assert rewrapped != cts and rewrapped[1] is None
    assert column(con, "SELECT tessera_decrypt('emails', v) FROM {t}", rewrapped) == EMAILS
    sent = [e for e in EMAILS if e is not None]
    cli_cts = run(cli, "siv", "encrypt", *base, "--transform", "emails", "--lines", stdin=lines(sent)).decode()
    assert [c for c in rewrapped if c is not None] == cli_cts.splitlines()


def test_password_from_an_environment_variable(extension, keyset, monkeypatch):
    ks, _, _ = keyset
    monkeypatch.setenv("TESSERA_DUCKDB_TEST_PASSWORD", PASSWORD)
    con = connect(extension, ks, env="TESSERA_DUCKDB_TEST_PASSWORD")
    tokens = column(con, "SELECT tessera_encrypt('numbers', v) FROM {t}", ["123456", None, "9876543210"])
    assert column(con, "SELECT tessera_decrypt('numbers', v) FROM {t}", tokens) == ["123456", None, "9876543210"]
    con.execute("SET tessera_keyset_password_file = 'also'")
    with pytest.raises(Exception, match="not both"):
        column(con, "SELECT tessera_encrypt('numbers', v) FROM {t}", ["123456"])


@pytest.mark.parametrize(
    "sql, values, message",
    [
        ("SELECT tessera_encrypt('nope', v) FROM {t}", ["123456"], r'no transformation named "nope"'),
        ("SELECT tessera_encrypt('numbers', v) FROM {t}", ["123456", None, "12x456"], r"numbers'\): row 3: .*alphabet"),
        ("SELECT tessera_decrypt('emails', v) FROM {t}", ["AAAA"], r"emails'\): row 1"),
        ("SELECT tessera_encrypt(v, v) FROM {t}", ["123456"], r"must be a constant string"),
        ("SELECT tessera_encrypt('legacy', v) FROM {t}", ["123456"], r"withdrawn.*tessera_allow_withdrawn"),
        ("SELECT tessera_rewrap('emails', 'numbers', v) FROM {t}", ["x"], r"AES-SIV, not FPE"),
        ("SELECT tessera_decrypt('emails', v, 1) FROM {t}", ["x"], r"give no version"),
        # A token the target's domain cannot hold (card: 6 + 4 digits kept, at least 6 encrypted).
        ("SELECT tessera_rewrap('legacy', 'cards', v) FROM {t}", ["4111111111111111", "12345678"],
         r"tessera_rewrap\('legacy', 'cards'\): row 2: .*domain"),
    ],
)
def test_bad_input_is_one_error_and_no_result(extension, keyset, sql, values, message):
    ks, pw, _ = keyset
    con = connect(extension, ks, pw=pw)
    with pytest.raises(Exception, match=message):
        column(con, sql, values)


def test_wrong_password_and_missing_settings(extension, keyset, tmp_path):
    ks, _, _ = keyset
    wrong = tmp_path / "wrong"
    wrong.write_text("not it\n")
    con = connect(extension, ks, pw=wrong)
    with pytest.raises(Exception, match=r"tessera_encrypt: cannot open keyset .* with the password file"):
        column(con, "SELECT tessera_encrypt('numbers', v) FROM {t}", ["123456"])
    con = connect(extension, ks)
    with pytest.raises(Exception, match="no keyset password"):
        column(con, "SELECT tessera_encrypt('numbers', v) FROM {t}", ["123456"])


def test_a_destroyed_version_is_an_error(cli, extension, keyset, tmp_path):
    ks, pw, base = copy(keyset, tmp_path)
    con = connect(extension, ks, pw=pw)
    cts = column(con, "SELECT tessera_encrypt('emails', v) FROM {t}", ["a", "b"])
    v1 = primary(cli, base, "emails")
    v2 = run(cli, "keyset", "add", *base, "--transform", "emails").decode().split()[-1]
    run(cli, "keyset", "promote", *base, "--transform", "emails", "--version", v2)
    run(cli, "keyset", "disable", *base, "--transform", "emails", "--version", v1)
    run(cli, "keyset", "destroy", *base, "--transform", "emails", "--version", v1)
    with pytest.raises(Exception, match=r"emails'\): row 1: .*destroyed"):
        column(con, "SELECT tessera_decrypt('emails', v) FROM {t}", cts)
    tokens = column(con, "SELECT tessera_encrypt('cards', v) FROM {t}", CARDS)
    v2 = run(cli, "keyset", "add", *base, "--transform", "cards").decode().split()[-1]
    run(cli, "keyset", "promote", *base, "--transform", "cards", "--version", v2)
    run(cli, "keyset", "disable", *base, "--transform", "cards", "--version", "1")
    run(cli, "keyset", "destroy", *base, "--transform", "cards", "--version", "1")
    with pytest.raises(Exception, match=r"cards'\): row 1: .*destroyed"):
        column(con, "SELECT tessera_decrypt('cards', v, 1) FROM {t}", tokens)


def test_ff3_tokens_migrate_to_ff1_in_sql(extension, keyset):
    ff3 = pytest.importorskip("ff3")
    import random

    ks, pw, _ = keyset
    r = random.Random(5)
    values = ["".join(r.choice("0123456789") for _ in range(r.randint(6, 19))) for _ in range(5000)]
    old = ff3.FF3Cipher(KEY.hex(), TWEAK7.hex())
    tokens = [old.encrypt(v) for v in values]
    con = connect(extension, ks, pw=pw)
    # Reading FF3-1 needs no opt-in.
    assert column(con, "SELECT tessera_decrypt('legacy', v) FROM {t}", tokens) == values
    moved = column(con, "SELECT tessera_rewrap('legacy', 'numbers', v) FROM {t}", tokens[:3] + [None] + tokens[3:])
    assert moved[3] is None
    moved = moved[:3] + moved[4:]
    assert column(con, "SELECT tessera_decrypt('numbers', v) FROM {t}", moved) == values
    assert column(con, "SELECT tessera_encrypt('numbers', v) FROM {t}", values) == moved
    con.execute("SET tessera_allow_withdrawn = true")
    assert column(con, "SELECT tessera_encrypt('legacy', v) FROM {t}", values[:100]) == tokens[:100]


def test_chunks_on_several_threads_equal_the_python_package(extension, keyset):
    tessera = pytest.importorskip("tessera")
    ks, pw, _ = keyset
    con = connect(extension, ks, pw=pw)
    con.execute("SET threads = 4")
    # Three row groups of DuckDB's 122,880 rows: scanned in parallel, in chunks of 2,048.
    con.execute("CREATE TABLE big AS SELECT i, CASE WHEN i % 7 = 0 THEN NULL "
                "ELSE lpad(CAST(i * 7919 AS VARCHAR), 12, '0') END AS v FROM range(300000) r(i)")
    con.execute("CREATE TABLE tok AS SELECT i, v, tessera_encrypt('numbers', v) AS t FROM big")
    got = con.sql("SELECT v, t FROM tok ORDER BY i").to_arrow_table()
    want = tessera.Keyset.open(ks, password=PASSWORD).transform("numbers").encrypt_batch(got.column("v"))
    assert want.to_pylist() == got.column("t").to_pylist()
    bad = con.execute("SELECT count(*) FROM tok WHERE tessera_decrypt('numbers', t) IS DISTINCT FROM v").fetchone()
    assert bad == (0,)


def test_installed_once_it_loads_by_name(extension, keyset, tmp_path):
    import duckdb

    ks, pw, _ = keyset
    con = duckdb.connect(config={"allow_unsigned_extensions": "true", "extension_directory": str(tmp_path)})
    con.execute(f"INSTALL '{extension}'")
    con.execute("LOAD tessera")
    con.execute(f"SET tessera_keyset = '{ks}'; SET tessera_keyset_password_file = '{pw}'")
    token = con.execute("SELECT tessera_encrypt('numbers', '123456')").fetchone()[0]
    assert con.execute("SELECT tessera_decrypt('numbers', ?)", [token]).fetchone() == ("123456",)
    # The footer's version is the workspace's.
    version = re.search(r'^version = "(.*)"', (REPO / "Cargo.toml").read_text(), re.M).group(1)
    assert con.execute("SELECT extension_version FROM duckdb_extensions() WHERE extension_name = 'tessera'"
                       ).fetchone() == (f"v{version}",)
