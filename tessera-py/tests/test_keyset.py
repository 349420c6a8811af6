"""tessera.Keyset on keyset files made by the CLI: rotation, rewrap of
columns, and agreement with `tessera fpe|siv --keyset` value for value."""

import subprocess

import pyarrow as pa
import pytest

import tessera

CARDS = ["4111-1111-1111-1111", "5500 0000 0000 0004", None, "4000-0566-5566-5556"]


def run(cli, *args, stdin=b""):
    return subprocess.run([cli, *args], input=stdin, capture_output=True, check=True).stdout


@pytest.fixture
def keyset(cli, tmp_path):
    """A keyset with an embedded-version card transformation at version 1
    and an AES-SIV one, sealed with a password."""
    ks, pw = tmp_path / "ks.tks", tmp_path / "pw"
    pw.write_text("s3cret\n")
    base = ["--keyset-password-file", str(pw)]
    run(cli, "keyset", "new", "-o", str(ks), *base, "--transform", "cards", "--template", "card",
        "--key-version", "embedded")
    run(cli, "keyset", "new", "--keyset", str(ks), *base, "--transform", "emails", "--siv")
    return ks, pw, base


def test_fpe_rotation_and_rewrap_of_a_column(cli, keyset):
    ks, pw, base = keyset
    t = tessera.Keyset.open(ks, password="s3cret").transform("cards")
    v1 = t.encrypt_batch(pa.array(CARDS))
    assert v1[2].as_py() is None
    assert [len(x) for x in v1.to_pylist() if x] == [len(x) for x in CARDS if x]
    plain = [c for c in CARDS if c]
    cli_tokens = run(cli, "fpe", "encrypt", "--keyset", str(ks), *base,
                     stdin="\n".join(plain).encode() + b"\n").decode().splitlines()
    assert [x for x in v1.to_pylist() if x] == cli_tokens
    run(cli, "keyset", "add", "--keyset", str(ks), *base, "--transform", "cards")
    run(cli, "keyset", "promote", "--keyset", str(ks), *base, "--transform", "cards", "--version", "2")
    t2 = tessera.Keyset.open(ks, password=b"s3cret").transform("cards")
    assert t2.primary == 2
    assert t2.decrypt_batch(v1).to_pylist() == CARDS
    v2 = t2.rewrap_batch(v1)
    assert v2.to_pylist() == t2.encrypt_batch(pa.array(CARDS)).to_pylist()
    assert v2.to_pylist() != v1.to_pylist()
    assert t2.decrypt(v2[0].as_py()) == CARDS[0]
    assert t2.rewrap(v1[0].as_py()) == v2[0].as_py()


def test_siv_values_and_columns(keyset):
    ks, _, _ = keyset
    t = tessera.Keyset.open(ks, password="s3cret").transform("emails")
    ct = t.encrypt(b"alice@example.com", ad=b"users")
    assert ct[0] == 1 and len(ct) == 5 + 16 + 17  # Tink prefix, key ID, V || C
    assert t.decrypt(ct, ad=b"users") == b"alice@example.com"
    with pytest.raises(tessera.AuthenticationError):
        t.decrypt(ct, ad=b"other")
    col = t.encrypt_batch(pa.array(["a", "bb", None]))
    assert col.type == pa.string() and col[2].as_py() is None
    assert t.decrypt_batch(col).to_pylist() == ["a", "bb", None]


def test_wrong_password_and_unknown_names(keyset):
    ks, _, _ = keyset
    with pytest.raises(tessera.InvalidKeyError, match="wrong password"):
        tessera.Keyset.open(ks, password="nope")
    with pytest.raises(tessera.InvalidParameterError):
        tessera.Keyset.open(ks)
    k = tessera.Keyset.open(ks, password="s3cret")
    assert sorted(k.names()) == ["cards", "emails"]
    with pytest.raises(tessera.InvalidParameterError, match="no transformation"):
        k.transform("nope")
    assert "s3cret" not in repr(k) and "cards" in repr(k)
