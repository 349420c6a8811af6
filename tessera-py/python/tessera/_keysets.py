"""Keysets opened where the work runs (Spark executors, Polars map
functions), never in the query plan: what travels is a :class:`KeysetRef`,
which names the file and where its password comes from, and holds no key
and no password.

Opening a sealed keyset costs a password hash (Argon2), so each process
keeps the keysets it opened, keyed by the file's path, size and
modification time and by the password source.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from typing import Any

__all__ = ["KeysetRef", "local_path"]


def local_path(path: str) -> str:
    """``path`` itself if it exists here, else the copy Spark shipped with
    ``SparkContext.addFile`` (looked up by base name), else ``path``."""
    if os.path.exists(path):
        return path
    try:
        from pyspark import SparkFiles

        alt = SparkFiles.get(os.path.basename(path))
        if os.path.exists(alt):
            return alt
    except Exception:  # noqa: BLE001 - not in a Spark worker: report the path as given
        pass
    return path


def _read_password_file(path: str) -> bytes:
    with open(local_path(path), "rb") as f:
        pw = f.read()
    # As the CLI's --keyset-password-file: one trailing line ending is not part of it.
    if pw.endswith(b"\r\n"):
        return pw[:-2]
    return pw[:-1] if pw.endswith(b"\n") else pw


@dataclass(frozen=True)
class KeysetRef:
    """A keyset file and the source of its password: ``password_file=`` (a
    path readable where the work runs, or shipped with ``addFile``),
    ``password_env=`` (an environment variable there, e.g. set with
    ``spark.executorEnv.NAME``), ``password=`` (a ``pyspark.Broadcast`` of
    the password; a plain ``str``/``bytes`` is refused since it would be
    pickled into the job), or ``insecure_cleartext=True`` for a cleartext
    keyset."""

    path: str
    password_file: str | None = None
    password_env: str | None = None
    password: Any = None  # a pyspark Broadcast of str or bytes
    insecure_cleartext: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", os.fspath(self.path))
        if self.password_file is not None:
            object.__setattr__(self, "password_file", os.fspath(self.password_file))
        given = [x is not None for x in (self.password_file, self.password_env, self.password)]
        if sum(given) + bool(self.insecure_cleartext) != 1:
            raise ValueError(
                "give exactly one of keyset_password_file=, keyset_password_env=, keyset_password= "
                "(a pyspark Broadcast) or insecure_cleartext=True"
            )
        if isinstance(self.password, (str, bytes, bytearray, memoryview)):
            raise TypeError(
                "keyset_password= must be a pyspark Broadcast (spark.sparkContext.broadcast(pw)), not the "
                "password itself, which would be pickled into the job; or use keyset_password_file=/_env="
            )

    def _password(self) -> bytes | None:
        if self.insecure_cleartext:
            return None
        if self.password_file is not None:
            return _read_password_file(self.password_file)
        if self.password_env is not None:
            value = os.environb.get(self.password_env.encode())
            if value is None:
                raise ValueError(f"environment variable {self.password_env} is not set (keyset password)")
            return value
        value = self.password.value
        return value.encode() if isinstance(value, str) else bytes(value)

    def open(self) -> Any:
        """The :class:`tessera.Keyset`, opened once per process."""
        import tessera

        path = local_path(self.path)
        st = os.stat(path)
        pw = self._password()
        tag = hashlib.sha256(pw).digest() if pw is not None else None
        key = (path, st.st_size, st.st_mtime_ns, tag)
        with _LOCK:
            ks = _OPEN.get(key)
            if ks is None:
                if pw is None:
                    ks = tessera.Keyset.open(path, insecure_cleartext=True)
                else:
                    ks = tessera.Keyset.open(path, password=pw)
                _OPEN[key] = ks
        return ks

    def transform(self, name: str) -> Any:
        """The transformation ``name`` of the keyset."""
        return self.open().transform(name)


_LOCK = threading.Lock()
_OPEN: dict[tuple[Any, ...], Any] = {}
