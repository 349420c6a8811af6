import base64
import random
import subprocess

import pyarrow as pa
import pytest

import tessera
from conftest import load_vectors

SIV = load_vectors("siv.json")["siv"]


def b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def unb64u(s: str) -> bytes:
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


@pytest.mark.parametrize("v", SIV, ids=lambda v: v["name"])
def test_vector(v):
    siv = tessera.AesSiv(bytes.fromhex(v["key"]))
    ad = [bytes.fromhex(a) for a in v["ad"]]
    nonce = bytes.fromhex(v["nonce"]) if v["nonce"] is not None else None
    pt, out = bytes.fromhex(v["pt"]), bytes.fromhex(v["out"])
    assert siv.encrypt(pt, ad=ad, nonce=nonce) == out
    assert siv.decrypt(out, ad=ad, nonce=nonce) == pt
    # The nonce is the last associated-data component.
    assert siv.encrypt(pt, ad=ad + ([nonce] if nonce is not None else [])) == out
    # Batches: binary in, binary out; string out is base64url.
    col = pa.array([pt, None, pt], pa.binary())
    enc = siv.encrypt_batch(col, ad=ad, nonce=nonce)
    assert enc.type == pa.binary() and enc.to_pylist() == [out, None, out]
    assert siv.encrypt_batch(col, ad=ad, nonce=nonce, output="string").to_pylist() == [b64u(out), None, b64u(out)]
    assert siv.decrypt_batch(enc, ad=ad, nonce=nonce).to_pylist() == [pt, None, pt]
    assert siv.decrypt_batch(pa.array([b64u(out)]), ad=ad, nonce=nonce, output="binary").to_pylist() == [pt]
    for typ in (pa.large_binary(), pa.binary_view()):
        assert siv.encrypt_batch(pa.array([pt], typ), ad=ad, nonce=nonce).to_pylist() == [out]
    bad = bytearray(out)
    bad[-1 if len(out) > 16 else 0] ^= 1
    with pytest.raises(tessera.AuthenticationError):
        siv.decrypt(bytes(bad), ad=ad, nonce=nonce)
    with pytest.raises(tessera.AuthenticationError) as e:
        siv.decrypt_batch([out, out, bytes(bad)], ad=ad, nonce=nonce)
    assert e.value.index == 2 and "row 2" in str(e.value)


def test_strings_and_empty_values():
    siv = tessera.AesSiv(bytes(range(64)))
    vals = ["alice", "", None, "bob", "ünïcødé 日本"]
    for typ in (pa.string(), pa.large_string(), pa.string_view()):
        enc = siv.encrypt_batch(pa.array(vals, typ), ad=[b"users.name"])
        assert enc.type in (pa.string(), pa.large_string())
        for v, e in zip(vals, enc.to_pylist()):
            if v is None:
                assert e is None
            else:
                assert "=" not in e and unb64u(e) == siv.encrypt(v.encode(), ad=[b"users.name"])
        assert siv.decrypt_batch(enc, ad=[b"users.name"]).to_pylist() == vals
    assert siv.encrypt_batch(["a"]).to_pylist() == [b64u(siv.encrypt(b"a"))]
    assert siv.encrypt_batch([b"a", None]).to_pylist() == [siv.encrypt(b"a"), None]
    assert siv.encrypt(b"") and len(siv.encrypt(b"")) == 16


def test_batch_equals_single_many_sizes():
    rng = random.Random(3)
    siv = tessera.AesSiv(bytes(rng.randrange(256) for _ in range(48)))
    vals = [bytes(rng.randrange(256) for _ in range(rng.randint(0, 100))) for _ in range(9000)]
    enc = siv.encrypt_batch(vals, ad=[b"t", b"c"]).to_pylist()
    assert enc == [siv.encrypt(v, ad=[b"t", b"c"]) for v in vals]
    arr = pa.array(enc, pa.binary())
    assert siv.decrypt_batch(arr.slice(4000, 4500), ad=[b"t", b"c"]).to_pylist() == vals[4000:8500]


def test_batch_errors():
    siv = tessera.AesSiv(bytes(32))
    good = siv.encrypt_batch(["x", "y"]).to_pylist()
    with pytest.raises(tessera.InvalidValueError) as e:
        siv.decrypt_batch([good[0], "not base64!"])
    assert e.value.index == 1
    with pytest.raises(tessera.InvalidValueError) as e:
        siv.decrypt_batch([good[0], None, b64u(b"short")])
    assert e.value.index == 2 and "16" in str(e.value)
    with pytest.raises(tessera.AuthenticationError) as e:
        siv.decrypt_batch(good, ad=[b"other"])
    assert e.value.index == 0
    # Binary plaintext asked for as a string.
    enc = siv.encrypt_batch([b"\xff\xfe"], output="string")
    with pytest.raises(tessera.InvalidValueError):
        siv.decrypt_batch(enc)
    assert siv.decrypt_batch(enc, output="binary").to_pylist() == [b"\xff\xfe"]
    with pytest.raises(ValueError):
        siv.encrypt_batch(["x"], output="hex")
    with pytest.raises(tessera.InvalidParameterError):
        siv.encrypt(b"x", ad=[b""] * 127)


def test_keys_not_shown():
    key = bytes.fromhex("aa" * 31 + "bb")
    siv = tessera.AesSiv(key)
    assert repr(siv) == "tessera.AesSiv(AES-SIV-256)" and siv.key_bits == 256
    with pytest.raises(tessera.InvalidKeyError) as e:
        tessera.AesSiv(key[:16])
    assert "aa" not in str(e.value).lower()
    with pytest.raises(tessera.AuthenticationError) as e:
        siv.decrypt(bytes(20))
    assert key.hex() not in str(e.value)


def test_read_key_file(tmp_path):
    (tmp_path / "k").write_text("00112233 44556677\n8899aabbccddeeff\n")
    assert tessera.read_key_file(tmp_path / "k") == bytes.fromhex("00112233445566778899aabbccddeeff")
    (tmp_path / "bad").write_text("secretzz")
    with pytest.raises(tessera.InvalidKeyError) as e:
        tessera.read_key_file(tmp_path / "bad")
    assert "secret" not in str(e.value)


def test_equals_cli_lines(cli, tmp_path):
    rng = random.Random(9)
    key = bytes(rng.randrange(256) for _ in range(64))
    (tmp_path / "k").write_text(key.hex())
    vals = ["".join(rng.choice("abcdefghij xyz,;") for _ in range(rng.randint(0, 40))) for _ in range(1000)]
    vals = [v for v in vals if v]  # the CLI's line mode has no way to tell "" from a blank line
    ad = [b"db.table", b"column"]
    args = ["siv", "encrypt", "--key-file", str(tmp_path / "k"), "--lines"] + [x for a in ad for x in ("--ad", a.hex())]
    p = subprocess.run([cli, *args], input="".join(v + "\n" for v in vals).encode(), capture_output=True, check=True)
    want = p.stdout.decode().splitlines()
    assert siv_out(key, vals, ad) == want


def siv_out(key, vals, ad):
    return tessera.AesSiv(key).encrypt_batch(pa.array(vals), ad=ad).to_pylist()


def test_binary_equals_cli(cli, tmp_path):
    key = bytes(range(32))
    (tmp_path / "k").write_text(key.hex())
    data = bytes(range(256)) * 5
    (tmp_path / "in").write_bytes(data)
    subprocess.run([cli, "siv", "encrypt", "--key-file", str(tmp_path / "k"), "--ad", "0102", "--nonce", "ff" * 12,
                    "--input", str(tmp_path / "in"), "--output", str(tmp_path / "out")], check=True)
    assert tessera.AesSiv(key).encrypt(data, ad=[b"\x01\x02"], nonce=b"\xff" * 12) == (tmp_path / "out").read_bytes()
