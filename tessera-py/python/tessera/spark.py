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

Or use a keyset file made by ``tessera keyset`` (named transformations with
versioned keys): ``keyset=`` its path, ``transform=`` a transformation name
(or a dict from column to name), and where its password comes from:
``keyset_password_file=`` (a path on the executors, or shipped with
``addFile``), ``keyset_password_env=`` (an environment variable on the
executors, e.g. ``spark.executorEnv.NAME``) or ``keyset_password=`` (a
``pyspark.Broadcast``). The executors open the keyset (once per Python
worker); the plan holds only the path and the password's source. Options
``tweak``, ``ad`` (bytes, or a dict from column to bytes) and ``version``
(FPE external mode: the key version that made the values, required by
rewrap and by decrypt while several versions are enabled) go to the
transformation's batch methods. ``tweaks`` names a column holding each
row's tweak (or is a dict from column to such a column), for an FPE
transformation whose tweak is another field of the record (``tessera keyset
new --tweak-field``); that column is read, not transformed, and a null
tweak beside a value is an error. :func:`rewrap_columns` moves values to
the primary key, and :func:`migrate_columns` moves tokens made with a key
file (FF3-1 tokens of the ``ff3`` package, say) to a keyset transformation::

    opts = dict(keyset="/secrets/ks.tks", keyset_password_file="/secrets/pw", transform="cards")
    tokens = ts.encrypt(df, ["card"], **opts)
    rotated = ts.rewrap(tokens, ["card"], **opts, version=1)   # after `tessera keyset promote`
    accts = ts.encrypt(df, ["account"], keyset="/secrets/ks.tks", keyset_password_file="/secrets/pw",
                       transform="acct", tweaks="customer")   # each row's tweak: its customer field
    ff1 = ts.migrate(old, ["card"], from_algorithm="ff3-1", from_key_file="/secrets/old.key",
                     from_tweak=bytes.fromhex("00112233445566"), **opts)  # FF3-1 tokens -> FF1

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

from ._keysets import KeysetRef, local_path

__all__ = [
    "encrypt",
    "decrypt",
    "rewrap",
    "encrypt_columns",
    "decrypt_columns",
    "rewrap_columns",
    "migrate",
    "migrate_columns",
    "ColumnCipher",
    "KeysetColumns",
]

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
        assert self.key_file is not None
        return tessera.read_key_file(local_path(self.key_file))

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

    def tweak_columns(self) -> list[str]:
        """Columns read as per-row tweaks: none without a keyset."""
        return []

    def apply(
        self, cipher: Any, column: str, values: pyarrow.Array, mode: str, batch: pyarrow.RecordBatch
    ) -> pyarrow.Array:
        """Encrypts or decrypts one Arrow column of ``batch``."""
        if mode == "rewrap":
            raise ValueError("rewrap needs a keyset (keyset=, transform=): a bare key has no versions")
        decrypt = mode == "decrypt"
        if self.is_fpe:
            f = cipher.decrypt_batch if decrypt else cipher.encrypt_batch
            return f(values, tweak=self.tweak)
        f = cipher.decrypt_batch if decrypt else cipher.encrypt_batch
        return f(values, ad=self._ad_for(column), nonce=self.nonce)


def _check_columns(df: DataFrame, columns: Sequence[str], spec: ColumnCipher | KeysetColumns | MigrateColumns) -> list[int]:
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
    for t in spec.tweak_columns():
        if t not in names:
            raise ValueError(f"tweak column {t!r} is not in the DataFrame (columns: {', '.join(names)})")
        if t in columns:
            raise ValueError(f"tweak column {t!r} is one of the columns to transform; it must stay readable")
        kind = df.schema[t].dataType
        if not isinstance(kind, (StringType, BinaryType)):
            raise TypeError(f"tweak column {t!r} is {kind.simpleString()}; tweaks are string or binary")
    return idx


@dataclass(frozen=True)
class KeysetColumns:
    """Which keyset transformation to apply to each column. Picklable and
    holds no key and no password: it is what travels to the executors."""

    ref: KeysetRef
    transform: str | dict[str, str]
    tweak: bytes | None = None
    ad: Any = None  # bytes | dict[str, bytes] | None
    version: int | None = None
    tweaks: str | dict[str, str] | None = None  # the column (per column) holding each row's tweak
    algorithm: str = "keyset"
    is_fpe: bool = False  # unknown before the keyset is opened: string or binary columns

    @classmethod
    def from_options(
        cls,
        keyset: str | os.PathLike[str],
        transform: str | dict[str, str],
        *,
        keyset_password_file: str | os.PathLike[str] | None = None,
        keyset_password_env: str | None = None,
        keyset_password: Any = None,
        insecure_cleartext: bool = False,
        tweak: bytes | None = None,
        ad: Any = None,
        version: int | None = None,
        tweaks: str | dict[str, str] | None = None,
    ) -> KeysetColumns:
        if tweak is not None and tweaks is not None:
            raise ValueError("give tweak= (one for every row) or tweaks= (a column of one per row), not both")
        ref = KeysetRef(os.fspath(keyset), keyset_password_file, keyset_password_env, keyset_password, insecure_cleartext)
        return cls(ref, transform, tweak, ad, version, tweaks)

    def _name(self, column: str) -> str:
        if isinstance(self.transform, str):
            return self.transform
        if column not in self.transform:
            raise ValueError(f"column {column!r} has no transformation in transform= ({', '.join(self.transform)})")
        return self.transform[column]

    def _tweak_column(self, column: str) -> str | None:
        return self.tweaks.get(column) if isinstance(self.tweaks, dict) else self.tweaks

    def tweak_columns(self) -> list[str]:
        """Columns read as per-row tweaks."""
        if isinstance(self.tweaks, dict):
            return list(self.tweaks.values())
        return [] if self.tweaks is None else [self.tweaks]

    def build(self) -> Any:
        """The keyset (on the executor)."""
        return self.ref.open()

    def apply(
        self, keyset: Any, column: str, values: pyarrow.Array, mode: str, batch: pyarrow.RecordBatch
    ) -> pyarrow.Array:
        """Encrypts, decrypts or rewraps one Arrow column of ``batch``."""
        t = keyset.transform(self._name(column))
        ad = self.ad.get(column, b"") if isinstance(self.ad, dict) else (self.ad or b"")
        by_row = self._tweak_column(column)
        tweaks = None if by_row is None else batch.column(by_row)
        if mode == "encrypt":
            return t.encrypt_batch(values, tweak=self.tweak, tweaks=tweaks, ad=ad)
        f = t.decrypt_batch if mode == "decrypt" else t.rewrap_batch
        return f(values, tweak=self.tweak, tweaks=tweaks, version=self.version, ad=ad)


@dataclass(frozen=True)
class MigrateColumns:
    """Tokens made by ``source`` (an FPE cipher with its key file or
    broadcast key) moved to the keyset transformations of ``target``. Holds
    no key and no password."""

    source: ColumnCipher
    target: KeysetColumns
    algorithm: str = "migrate"
    is_fpe: bool = True

    def tweak_columns(self) -> list[str]:
        return self.target.tweak_columns()

    def build(self) -> Any:
        return self.source.build(), self.target.build()

    def apply(
        self, built: Any, column: str, values: pyarrow.Array, mode: str, batch: pyarrow.RecordBatch
    ) -> pyarrow.Array:
        """Moves one Arrow column of ``batch`` to the target transformation."""
        cipher, keyset = built
        t = self.target
        by_row = t._tweak_column(column)
        tweaks = None if by_row is None else batch.column(by_row)
        return keyset.transform(t._name(column)).migrate_batch(
            values, cipher, source_tweak=self.source.tweak, tweak=t.tweak, tweaks=tweaks
        )


def _spec(algorithm: str | None, options: dict[str, Any]) -> ColumnCipher | KeysetColumns:
    if "keyset" in options:
        if algorithm not in (None, "keyset"):
            raise ValueError("give either an algorithm with key_file=/key=, or keyset= with transform=, not both")
        return KeysetColumns.from_options(**options)
    if algorithm is None:
        raise TypeError("give an algorithm (ff1, ff3-1, ff3, aes-siv) with key_file=/key=, or keyset= and transform=")
    return ColumnCipher(algorithm, **options)


def _batch_function(
    spec: ColumnCipher | KeysetColumns | MigrateColumns, names: list[str], idx: list[int], mode: str
) -> Any:
    """The function Spark pickles and runs on each partition's Arrow batches."""

    def run(batches: Iterator[pyarrow.RecordBatch]) -> Iterator[pyarrow.RecordBatch]:
        import pyarrow as pa

        cipher = spec.build()
        for batch in batches:
            cols = list(batch.columns)
            for i in idx:
                cols[i] = spec.apply(cipher, names[i], cols[i], mode, batch)
            yield pa.RecordBatch.from_arrays(cols, schema=batch.schema)

    run.__name__ = f"tessera_{mode}_{spec.algorithm.lower().replace('-', '_')}"
    return run


def _transform(
    df: DataFrame, columns: Sequence[str] | str, spec: ColumnCipher | KeysetColumns | MigrateColumns, mode: str
) -> DataFrame:
    if isinstance(columns, str):
        columns = [columns]
    idx = _check_columns(df, columns, spec)
    return df.mapInArrow(_batch_function(spec, list(df.columns), idx, mode), df.schema)


def encrypt_columns(df: DataFrame, columns: Sequence[str] | str, algorithm: str | None = None, **options: Any) -> DataFrame:
    """Encrypts (tokenizes) the named columns of ``df``; see the module doc
    for ``algorithm`` and the options (``key_file=`` or ``key=``, or
    ``keyset=`` and ``transform=``)."""
    return _transform(df, columns, _spec(algorithm, options), "encrypt")


def decrypt_columns(df: DataFrame, columns: Sequence[str] | str, algorithm: str | None = None, **options: Any) -> DataFrame:
    """The inverse of :func:`encrypt_columns`, with the same options."""
    return _transform(df, columns, _spec(algorithm, options), "decrypt")


def rewrap_columns(df: DataFrame, columns: Sequence[str] | str, **options: Any) -> DataFrame:
    """Re-encrypts the named columns under the keyset transformation's
    primary key (``keyset=``, ``transform=`` and the password options;
    ``version=`` for FPE external mode). Plaintext stays in executor memory."""
    return _transform(df, columns, _spec("keyset", options), "rewrap")


def migrate_columns(
    df: DataFrame,
    columns: Sequence[str] | str,
    *,
    from_algorithm: str,
    from_key_file: str | None = None,
    from_key: Any = None,
    from_alphabet: str = "0123456789",
    from_tweak: bytes = b"",
    from_passthrough: str = "",
    from_keep_prefix: int = 0,
    from_keep_suffix: int = 0,
    **options: Any,
) -> DataFrame:
    """Moves tokens of the named columns, made by ``from_algorithm``
    (``ff1``, ``ff3-1``, ``ff3``) with ``from_key_file=`` or ``from_key=``
    (a Broadcast) and the ``from_*`` parameters, to the keyset
    transformation of ``keyset=``/``transform=`` (with the keyset options of
    :func:`encrypt_columns`). The plaintexts stay in executor memory; a
    token the source cannot decrypt, or a value the target cannot hold,
    fails the job."""
    source = ColumnCipher(
        from_algorithm,
        key_file=from_key_file,
        key=from_key,
        alphabet=from_alphabet,
        tweak=from_tweak,
        passthrough=from_passthrough,
        keep_prefix=from_keep_prefix,
        keep_suffix=from_keep_suffix,
    )
    if not source.is_fpe:
        raise ValueError(f"from_algorithm {from_algorithm!r}: migration is for FPE tokens (ff1, ff3-1, ff3)")
    target = _spec("keyset", options)
    assert isinstance(target, KeysetColumns)
    return _transform(df, columns, MigrateColumns(source, target), "migrate")


encrypt = encrypt_columns
decrypt = decrypt_columns
rewrap = rewrap_columns
migrate = migrate_columns
