"""Issue 14 in the Python package: file objects that break the io protocol
raise instead of aborting or losing data; output files are private; empty
passwords are refused with the library's words; limits are keywords."""

import io
import os
import stat

import pytest

import tessera

FAST = dict(s2k="iterated", s2k_count=96)


def encrypted(data=b"x" * 100_000, **kw):
    out = io.BytesIO()
    tessera.encrypt_stream(io.BytesIO(data), out, "pw", **{**FAST, **kw})
    return out.getvalue()


class OverlongWriter(io.RawIOBase):
    def writable(self):
        return True

    def write(self, b):
        return len(b) + 5


class OverlongReader(io.RawIOBase):
    def __init__(self, data):
        self.data = data

    def readable(self):
        return True

    def read(self, n=-1):
        out, self.data = self.data[: n + 10], self.data[n + 10 :]
        return out


class ShortWriter(io.RawIOBase):
    """Writes at most 7 bytes a call, as a pipe may."""

    def __init__(self):
        self.out = bytearray()

    def writable(self):
        return True

    def write(self, b):
        take = bytes(b[:7])
        self.out += take
        return len(take)


class BlockingNone(io.RawIOBase):
    def writable(self):
        return True

    def readable(self):
        return True

    def write(self, b):
        return None

    def read(self, n=-1):
        return None


class NoReturn:
    """A plain object whose write() returns nothing: all is written."""

    def __init__(self):
        self.out = bytearray()

    def write(self, b):
        self.out += b


class WrongType:
    def write(self, b):
        return "many"


def test_overlong_write_raises_instead_of_aborting():
    for fn in (tessera.encrypt_stream,):
        with pytest.raises(ValueError, match="returned"):
            fn(io.BytesIO(b"data" * 50_000), OverlongWriter(), "pw", **FAST)
    with pytest.raises(ValueError, match="returned"):
        tessera.decrypt_stream(io.BytesIO(encrypted()), OverlongWriter(), "pw")
    with pytest.raises(ValueError, match="must return the number of bytes"):
        tessera.encrypt_stream(io.BytesIO(b"data"), WrongType(), "pw", **FAST)


def test_overlong_read_raises_instead_of_dropping_data():
    with pytest.raises(ValueError, match="more than asked"):
        tessera.encrypt_stream(OverlongReader(b"y" * 300_000), io.BytesIO(), "pw", **FAST)
    with pytest.raises(ValueError, match="more than asked"):
        tessera.decrypt_stream(OverlongReader(encrypted()), io.BytesIO(), "pw")


def test_short_writes_are_completed_and_none_is_handled():
    data = b"z" * 70_000
    w = ShortWriter()
    tessera.encrypt_stream(io.BytesIO(data), w, "pw", **FAST)
    out = ShortWriter()
    tessera.decrypt_stream(io.BytesIO(bytes(w.out)), out, "pw")
    assert bytes(out.out) == data
    plain = NoReturn()
    tessera.decrypt_stream(io.BytesIO(bytes(w.out)), plain, "pw")
    assert bytes(plain.out) == data
    with pytest.raises(BlockingIOError):
        tessera.encrypt_stream(io.BytesIO(data), BlockingNone(), "pw", **FAST)
    with pytest.raises(BlockingIOError):
        tessera.decrypt_stream(BlockingNone(), io.BytesIO(), "pw")


def test_files_are_private(tmp_path):
    old = os.umask(0o022)
    try:
        (tmp_path / "in").write_bytes(b"secret" * 1000)
        tessera.encrypt_file(tmp_path / "in", tmp_path / "enc", "pw", profile="rfc4880", **FAST)
        tessera.decrypt_file(tmp_path / "enc", tmp_path / "out", "pw")
    finally:
        os.umask(old)
    for name in ("enc", "out"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name


def test_empty_password_is_refused_with_the_library_words(tmp_path):
    (tmp_path / "in").write_bytes(b"x")
    with pytest.raises(tessera.TesseraError, match="the password is empty"):
        tessera.encrypt_file(tmp_path / "in", tmp_path / "enc", "", **FAST)
    with pytest.raises(tessera.TesseraError, match="the password is empty"):
        tessera.encrypt_stream(io.BytesIO(b"x"), io.BytesIO(), b"", **FAST)
    assert not (tmp_path / "enc").exists()


def test_limits_are_keywords(tmp_path):
    argon = io.BytesIO()
    tessera.encrypt_stream(io.BytesIO(b"hello"), argon, "pw")  # Argon2, 64 MiB
    with pytest.raises(tessera.InvalidValueError, match="max_argon2_m"):
        tessera.decrypt_stream(io.BytesIO(argon.getvalue()), io.BytesIO(), "pw", max_argon2_memory=32 << 20)
    with pytest.raises(tessera.InvalidValueError, match="max_work_kib"):
        tessera.decrypt_stream(io.BytesIO(argon.getvalue()), io.BytesIO(), "pw", max_s2k_work=100 << 20)
    out = io.BytesIO()
    tessera.decrypt_stream(io.BytesIO(argon.getvalue()), out, "pw")
    assert out.getvalue() == b"hello"


def test_v1_modified_messages_fail_alike(tmp_path):
    (tmp_path / "in").write_bytes(bytes(range(256)) * 1000)
    tessera.encrypt_file(tmp_path / "in", tmp_path / "enc", "pw", profile="rfc4880", **FAST)
    enc = (tmp_path / "enc").read_bytes()
    messages = set()
    # Flip bits in the first encrypted octets (the packet headers inside):
    # SKESK v4 (15 octets), the SEIPD header (2), version (1), prefix (18).
    assert enc[15] == 0xC0 | 18
    for at in range(36, 60, 3):
        bad = bytearray(enc)
        bad[at] ^= 0x40
        (tmp_path / "bad").write_bytes(bad)
        with pytest.raises(tessera.TesseraError) as e:
            tessera.decrypt_file(tmp_path / "bad", tmp_path / "out", "pw")
        messages.add((type(e.value), str(e.value)))
    assert len(messages) == 1, messages
    assert not (tmp_path / "out").exists()
