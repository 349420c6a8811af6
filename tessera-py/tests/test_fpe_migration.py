"""FF1 is the method: making tokens with the withdrawn FF3-1 and FF3 raises a
DeprecationWarning, reading them does not; KeysetTransform.migrate_batch moves
FF3-1 tokens of the `ff3` package (what Spark notebooks use) to a keyset's FF1
transformation, agreeing with `tessera fpe rewrap --from-key-file`."""

import random
import subprocess
import warnings

import pyarrow as pa
import pytest

import tessera

KEY = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
TWEAK7 = bytes.fromhex("d8e7920afa330a")


def run(cli, *args, stdin=b""):
    return subprocess.run([cli, *args], input=stdin, capture_output=True, check=True).stdout


@pytest.mark.parametrize("cls, tweak", [(tessera.FF3_1, TWEAK7), (tessera.FF3, TWEAK7 + b"\x73")])
def test_withdrawn_methods_warn_when_making_tokens_only(cls, tweak):
    c = cls(KEY)
    with pytest.warns(DeprecationWarning, match="withdrawn"):
        token = c.encrypt("4111111111111111", tweak=tweak)
    with pytest.warns(DeprecationWarning, match="SP 800-38G"):
        c.encrypt_batch(pa.array(["4111111111111111"]), tweak=tweak)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert c.decrypt(token, tweak=tweak) == "4111111111111111"
        assert c.decrypt_batch(pa.array([token]), tweak=tweak).to_pylist() == ["4111111111111111"]
        tessera.FF1(KEY).encrypt("4111111111111111")


def test_ff3_1_tokens_of_the_ff3_package_move_to_ff1(cli, tmp_path):
    ff3 = pytest.importorskip("ff3")
    r = random.Random(3)
    cards = ["".join(r.choice("0123456789") for _ in range(r.randint(13, 19))) for _ in range(20000)]
    old = ff3.FF3Cipher(KEY.hex(), TWEAK7.hex())
    tokens = [old.encrypt(c) for c in cards]
    ks, pw, key = tmp_path / "ks.tks", tmp_path / "pw", tmp_path / "old.key"
    pw.write_text("s3cret\n")
    key.write_text(KEY.hex())
    base = ["--keyset", str(ks), "--keyset-password-file", str(pw)]
    run(cli, "keyset", "new", "-o", str(ks), *base[2:], "--transform", "cards", "--template", "digits")
    t = tessera.Keyset.open(ks, password="s3cret").transform("cards")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # migrating off a withdrawn method never warns
        moved = t.migrate_batch(pa.array(tokens[:5] + [None] + tokens[5:]), tessera.FF3_1(KEY), source_tweak=TWEAK7)
    moved = moved.to_pylist()
    assert moved[5] is None
    moved = moved[:5] + moved[6:]
    assert t.decrypt_batch(pa.array(moved)).to_pylist() == cards
    cli_moved = run(cli, "fpe", "rewrap", *base, "--from-key-file", str(key), "--from-algorithm", "ff3-1",
                    "--from-tweak", TWEAK7.hex(), stdin="".join(x + "\n" for x in tokens).encode())
    assert cli_moved.decode().splitlines() == moved


def test_a_token_the_source_cannot_read_names_its_row(cli, tmp_path):
    ks, pw = tmp_path / "ks.tks", tmp_path / "pw"
    pw.write_text("s3cret\n")
    run(cli, "keyset", "new", "-o", str(ks), "--keyset-password-file", str(pw), "--transform", "cards",
        "--template", "digits")
    t = tessera.Keyset.open(ks, password="s3cret").transform("cards")
    with pytest.raises(tessera.InvalidValueError, match="row 2"):
        t.migrate_batch(pa.array(["1234567890", "0987654321", "12345x7890"]), tessera.FF1(KEY))
    with pytest.raises(TypeError):
        t.migrate_batch(pa.array(["1234567890"]), "not a cipher")
