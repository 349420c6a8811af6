import io
import subprocess

import pytest

import tessera

FAST = dict(s2k="iterated", s2k_count=96)


@pytest.mark.parametrize("aead", ["ocb", "eax", "gcm"])
@pytest.mark.parametrize("armor", [False, True])
def test_file_round_trip(tmp_path, aead, armor):
    data = bytes(range(256)) * 4099
    (tmp_path / "in").write_bytes(data)
    tessera.encrypt_file(tmp_path / "in", tmp_path / "enc", "pässword", aead=aead, armor=armor, chunk_size_octet=4, **FAST)
    enc = (tmp_path / "enc").read_bytes()
    assert enc.startswith(b"-----BEGIN PGP MESSAGE-----") == armor
    tessera.decrypt_file(str(tmp_path / "enc"), str(tmp_path / "out"), "pässword".encode())
    assert (tmp_path / "out").read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["enc", "in", "out"]


def v1_wrong_password(message, out):
    """A wrong password for a SEIPD v1 message that its "quick check" refuses
    ("wrong", unless its key passes the check: 1 message in 65,536; such a
    password fails on the MDC, not as a wrong password)."""
    for candidate in ["wrong"] + [f"wrong{i}" for i in range(2, 100)]:
        with pytest.raises(tessera.AuthenticationError) as e:
            tessera.decrypt_file(message, out, candidate)
        if "wrong password" in str(e.value):
            return candidate
    raise AssertionError("no wrong password fails the quick check")


def test_rfc4880_profile_and_argon2(tmp_path):
    (tmp_path / "in").write_bytes(b"hello\n" * 1000)
    tessera.encrypt_file(tmp_path / "in", tmp_path / "v1", "pw", profile="rfc4880", s2k_count=96)
    wrong = v1_wrong_password(tmp_path / "v1", tmp_path / "o1")
    tessera.decrypt_file(tmp_path / "v1", tmp_path / "o1", [wrong, "pw"])
    assert (tmp_path / "o1").read_bytes() == b"hello\n" * 1000
    tessera.encrypt_file(tmp_path / "in", tmp_path / "v2", "pw")  # Argon2 default
    tessera.decrypt_file(tmp_path / "v2", tmp_path / "o2", "pw")
    assert (tmp_path / "o2").read_bytes() == b"hello\n" * 1000
    with pytest.raises(ValueError):
        tessera.encrypt_file(tmp_path / "in", tmp_path / "x", "pw", profile="rfc4880", s2k="argon2")
    with pytest.raises(ValueError):
        tessera.encrypt_file(tmp_path / "in", tmp_path / "x", "pw", aead="ccm")
    assert not (tmp_path / "x").exists()


def test_failures_write_nothing(tmp_path):
    data = b"x" * 100_000
    (tmp_path / "in").write_bytes(data)
    tessera.encrypt_file(tmp_path / "in", tmp_path / "enc", "pw", chunk_size_octet=0, **FAST)
    enc = bytearray((tmp_path / "enc").read_bytes())
    with pytest.raises(tessera.AuthenticationError):
        tessera.decrypt_file(tmp_path / "enc", tmp_path / "out", "wrong")
    enc[len(enc) // 2] ^= 1
    (tmp_path / "bad").write_bytes(enc)
    with pytest.raises(tessera.AuthenticationError):
        tessera.decrypt_file(tmp_path / "bad", tmp_path / "out", "pw")
    (tmp_path / "cut").write_bytes((tmp_path / "enc").read_bytes()[:-40])
    with pytest.raises(tessera.TesseraError):
        tessera.decrypt_file(tmp_path / "cut", tmp_path / "out", "pw")
    (tmp_path / "junk").write_bytes(b"not openpgp at all")
    with pytest.raises(tessera.InvalidValueError):
        tessera.decrypt_file(tmp_path / "junk", tmp_path / "out", "pw")
    assert not (tmp_path / "out").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad", "cut", "enc", "in", "junk"]
    with pytest.raises(OSError):
        tessera.decrypt_file(tmp_path / "missing", tmp_path / "out", "pw")


def test_streams():
    data = b"stream me " * 50_000
    enc = io.BytesIO()
    tessera.encrypt_stream(io.BytesIO(data), enc, b"pw", aead="gcm", **FAST)
    out = io.BytesIO()
    tessera.decrypt_stream(io.BytesIO(enc.getvalue()), out, "pw")
    assert out.getvalue() == data
    with pytest.raises(tessera.AuthenticationError):
        tessera.decrypt_stream(io.BytesIO(enc.getvalue()), io.BytesIO(), "nope")

    class Boom(io.RawIOBase):
        def readable(self):
            return True

        def read(self, n=-1):
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        tessera.encrypt_stream(Boom(), io.BytesIO(), "pw", **FAST)
    with pytest.raises(ValueError):
        tessera.encrypt_stream(io.StringIO("text"), io.BytesIO(), "pw", **FAST)


def test_cli_interop(cli, tmp_path):
    data = bytes(range(256)) * 1000
    (tmp_path / "in").write_bytes(data)
    (tmp_path / "pw").write_text("secret\n")
    tessera.encrypt_file(tmp_path / "in", tmp_path / "py.pgp", "secret", **FAST)
    subprocess.run([cli, "decrypt", "--password-file", str(tmp_path / "pw"), "-o", str(tmp_path / "cli.out"),
                    str(tmp_path / "py.pgp")], check=True)
    assert (tmp_path / "cli.out").read_bytes() == data
    subprocess.run([cli, "encrypt", "--password-file", str(tmp_path / "pw"), "--aead", "eax", "--armor",
                    "--s2k", "iterated", "--s2k-count", "96", "-o", str(tmp_path / "cli.pgp"), str(tmp_path / "in")],
                   check=True)
    tessera.decrypt_file(tmp_path / "cli.pgp", tmp_path / "py.out", "secret")
    assert (tmp_path / "py.out").read_bytes() == data
