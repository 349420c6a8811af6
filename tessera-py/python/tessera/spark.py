"""Apache Spark helpers: tokenize or encrypt named columns of a DataFrame.

The work runs on the executors through ``DataFrame.mapInArrow``: Spark hands
each Python worker Arrow record batches, and the named columns go through
tessera's batch API (without the GIL) and back. The other columns pass
through untouched and the schema does not change.

Key material never enters the query plan: give either

- ``key_file=``: a path to a hex key file (as the CLI's ``--key-file``),
  readable on every executor (a shared mount, or a file shipped with
  ``spark.sparkContext.addFile(path)``: a name not found as a path is looked
  up with ``SparkFiles.get``), or
- ``key=``: a ``pyspark.Broadcast`` of the key bytes
  (``spark.sparkContext.broadcast(key)``); the closure then holds only the
  broadcast's id, and executors fetch the value.

Raw ``bytes`` are refused, since they would travel inside the pickled
closure.

Example::

    from tessera import spark as ts

    out = ts.encrypt(df, ["card"], "ff1", key_file="/secrets/fpe.key")
    out = ts.encrypt(out, ["email"], "aes-siv", key=spark.sparkContext.broadcast(siv_key),
                     ad={"email": [b"customers.email"]})
    back = ts.decrypt(out, ["card"], "ff1", key_file="/secrets/fpe.key")

Algorithms: ``"ff1"``, ``"ff3-1"``, ``"ff3"`` (string columns; options
``alphabet``, ``tweak``, ``passthrough``, ``keep_prefix``, ``keep_suffix``) and
``"aes-siv"`` (string columns become unpadded base64url of ``V || C``, binary
columns binary ``V || C``; option ``ad``: a list of bytes for every column,
or a dict from column name to list, and ``nonce``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow
    from pyspark.sql import DataFrame

__all__ = ["encrypt", "decrypt", "encrypt_columns", "decrypt_columns", "ColumnCipher"]

_FPE = {"ff1": "FF1", "ff3-1": "FF3_1", "ff3_1": "FF3_1", "ff3": "FF3"}
_SIV = {"aes-siv", "siv", "aessiv"}


@dataclass(frozen=True)
class ColumnCipher:
    """What to apply, and where the key comes from. Picklable and holds no
    key: it is what travels to the executors."""

    algorithm: str
    key_file: str | None = None
    key: Any = None  # a pyspark Broadcast of bytes
    alphabet: str = "0123456789"
    tweak: bytes = b""
    passthrough: str = ""
    keep_prefix: int = 0
    keep_suffix: int = 0
    ad: Any = None  # list[bytes] | dict[str, list[bytes]] | None
    nonce: bytes | None = None
    _alg: str = field(init=False, default="")

    def __post_init__(self) -> None:
        alg = self.algorithm.lower()
        if alg not in _FPE and alg not in _SIV:
            raise ValueError(f"unknown algorithm {self.algorithm!r}: use ff1, ff3-1, ff3 or aes-siv")
        object.__setattr__(self, "_alg", alg)
        if (self.key_file is None) == (self.key is None):
            raise ValueError("give exactly one of key_file= (a path) or key= (a pyspark Broadcast of the key bytes)")
        if self.key is not None and isinstance(self.key, (bytes, bytearray, memoryview, str)):
            raise TypeError(
                "key= must be a pyspark Broadcast (spark.sparkContext.broadcast(key)), not raw key material, "
                "which would be pickled into the job; or use key_file="
            )

    @property
    def is_fpe(self) -> bool:
        return self._alg in _FPE

    def _key_bytes(self) -> bytes:
        import tessera

        if self.key is not None:
            return bytes(self.key.value)
        path = self.key_file
        assert path is not None
        if not os.path.exists(path):
            try:
                from pyspark import SparkFiles

                alt = SparkFiles.get(os.path.basename(path))
                if os.path.exists(alt):
                    path = alt
            except Exception:  # noqa: BLE001 - not in a Spark worker: report the path as given
                pass
        return tessera.read_key_file(path)

    def build(self) -> Any:
        """The tessera cipher object (on the executor)."""
        import tessera

        key = self._key_bytes()
        if self.is_fpe:
            cls = getattr(tessera, _FPE[self._alg])
            return cls(
                key,
                alphabet=self.alphabet,
                passthrough=self.passthrough,
                keep_prefix=self.keep_prefix,
                keep_suffix=self.keep_suffix,
            )
        return tessera.AesSiv(key)

    def _ad_for(self, column: str) -> list[bytes]:
        if self.ad is None:
            return []
        if isinstance(self.ad, dict):
            return list(self.ad.get(column, []))
        return list(self.ad)

    def apply(self, cipher: Any, column: str, values: pyarrow.Array, decrypt: bool) -> pyarrow.Array:
        """Encrypts or decrypts one Arrow column."""
        if self.is_fpe:
            f = cipher.decrypt_batch if decrypt else cipher.encrypt_batch
            return f(values, tweak=self.tweak)
        f = cipher.decrypt_batch if decrypt else cipher.encrypt_batch
        return f(values, ad=self._ad_for(column), nonce=self.nonce)


def _check_columns(df: DataFrame, columns: Sequence[str], spec: ColumnCipher) -> list[int]:
    from pyspark.sql.types import BinaryType, StringType

    names = df.columns
    idx = []
    for c in columns:
        if c not in names:
            raise ValueError(f"column {c!r} is not in the DataFrame (columns: {', '.join(names)})")
        t = df.schema[c].dataType
        ok = isinstance(t, StringType) or (not spec.is_fpe and isinstance(t, BinaryType))
        if not ok:
            want = "string" if spec.is_fpe else "string or binary"
            raise TypeError(f"column {c!r} is {t.simpleString()}; {spec.algorithm} needs {want}")
        idx.append(names.index(c))
    return idx


def _transform(df: DataFrame, columns: Sequence[str] | str, spec: ColumnCipher, decrypt: bool) -> DataFrame:
    if isinstance(columns, str):
        columns = [columns]
    idx = _check_columns(df, columns, spec)
    names = list(df.columns)

    def run(batches: Iterator[pyarrow.RecordBatch]) -> Iterator[pyarrow.RecordBatch]:
        import pyarrow as pa

        cipher = spec.build()
        for batch in batches:
            cols = list(batch.columns)
            for i in idx:
                cols[i] = spec.apply(cipher, names[i], cols[i], decrypt)
            yield pa.RecordBatch.from_arrays(cols, schema=batch.schema)

    run.__name__ = f"tessera_{'decrypt' if decrypt else 'encrypt'}_{spec._alg.replace('-', '_')}"
    return df.mapInArrow(run, df.schema)


def encrypt_columns(df: DataFrame, columns: Sequence[str] | str, algorithm: str, **options: Any) -> DataFrame:
    """Encrypts (tokenizes) the named columns of ``df``; see the module doc
    for ``algorithm`` and the options (``key_file=`` or ``key=`` required)."""
    return _transform(df, columns, ColumnCipher(algorithm, **options), decrypt=False)


def decrypt_columns(df: DataFrame, columns: Sequence[str] | str, algorithm: str, **options: Any) -> DataFrame:
    """The inverse of :func:`encrypt_columns`, with the same options."""
    return _transform(df, columns, ColumnCipher(algorithm, **options), decrypt=True)


encrypt = encrypt_columns
decrypt = decrypt_columns
