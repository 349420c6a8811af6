"""Several columns of a table in one call, each through its own keyset
transformation (FPE and AES-SIV mixed), as ``tessera fpe encrypt --csv
--columns card=cards,email=emails`` does for CSV files.

Tables are pyarrow ``Table`` or ``RecordBatch``, pandas ``DataFrame`` or
Polars ``DataFrame``; the result is a new table of the same kind with the
named columns replaced and every other column untouched. Each column goes
through its transformation's batch method once (Arrow in, Arrow out,
without the GIL)::

    import tessera
    from tessera.columns import encrypt_columns, decrypt_columns

    ks = tessera.Keyset.open("ks.tks", password)
    tokens = encrypt_columns(df, ks, {"card": "cards", "email": "emails", "dob": "dates"})
    back = decrypt_columns(tokens, ks, {"card": "cards", "email": "emails", "dob": "dates"})

Options go to the transformations that take them: ``tweak=`` (FPE, one
tweak for every row), ``tweaks=`` (FPE whose tweak is a field of each
record: the column holding it, or a dict from column to such a column),
``ad=`` (AES-SIV associated data, or a dict from column to it) and
``version=`` (FPE external key versions, on decrypt and rewrap). An error
names the column and, as ``index``, the row; no table is returned then.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["encrypt_columns", "decrypt_columns", "rewrap_columns"]


def _per_column(option: Any, column: str) -> Any:
    return option.get(column) if isinstance(option, Mapping) else option


class _Table:
    """Reads columns of a table as Arrow and puts results back."""

    def __init__(self, data: Any) -> None:
        self.data = data
        kind = type(data).__module__.split(".")[0]
        if kind not in ("pyarrow", "pandas", "polars"):
            raise TypeError(f"expected a pyarrow Table/RecordBatch or a pandas/Polars DataFrame, not {type(data).__name__}")
        self.kind = kind
        if kind == "pandas":
            self.data = data.copy()

    def names(self) -> list[str]:
        return list(self.data.columns) if self.kind != "pyarrow" else list(self.data.schema.names)

    def get(self, name: str) -> Any:
        if name not in self.names():
            raise KeyError(f"no column {name!r} in the table")
        if self.kind == "pandas":
            import pyarrow as pa

            return pa.Array.from_pandas(self.data[name])
        if self.kind == "polars":
            return self.data.get_column(name)
        return self.data.column(name)

    def put(self, name: str, array: Any) -> None:
        if self.kind == "pandas":
            import pandas as pd

            arrow_backed = isinstance(self.data[name].dtype, pd.ArrowDtype)
            series = array.to_pandas(types_mapper=pd.ArrowDtype) if arrow_backed else array.to_pandas()
            series.index = self.data.index
            self.data[name] = series
        elif self.kind == "polars":
            import polars as pl

            self.data = self.data.with_columns(pl.Series(name, pl.from_arrow(array)))
        else:
            import pyarrow as pa

            i = self.data.schema.get_field_index(name)
            if isinstance(self.data, pa.RecordBatch):
                cols = list(self.data.columns)
                cols[i] = array
                self.data = pa.RecordBatch.from_arrays(cols, names=self.data.schema.names)
            else:
                self.data = self.data.set_column(i, name, array)


_OPTIONS = {"tweak", "tweaks", "ad", "version"}


def _apply(data: Any, keyset: Any, columns: Mapping[str, str], mode: str, options: dict[str, Any]) -> Any:
    from . import TesseraError

    unknown = set(options) - _OPTIONS
    if unknown:
        raise TypeError(f"unknown option(s) {', '.join(sorted(unknown))}; the options are {', '.join(sorted(_OPTIONS))}")
    if not isinstance(columns, Mapping) or not columns:
        raise TypeError("columns= is a dict from column name to transformation name")
    table = _Table(data)
    transforms = {column: keyset.transform(name) for column, name in columns.items()}
    results = {}
    for column, t in transforms.items():
        kwargs: dict[str, Any] = {}
        if t.kind == "AES-SIV":
            kwargs["ad"] = _per_column(options.get("ad"), column) or b""
        else:
            tweak = _per_column(options.get("tweak"), column)
            if tweak is not None:
                kwargs["tweak"] = tweak
            by_row = _per_column(options.get("tweaks"), column)
            if by_row is not None:
                kwargs["tweaks"] = table.get(by_row)
            if mode != "encrypt" and options.get("version") is not None:
                kwargs["version"] = options["version"]
        try:
            results[column] = getattr(t, f"{mode}_batch")(table.get(column), **kwargs)
        except TesseraError as e:
            raise type(e)(f"column {column!r}: {e}", e.index) from None
    for column, array in results.items():
        table.put(column, array)
    return table.data


def encrypt_columns(data: Any, keyset: Any, columns: Mapping[str, str], **options: Any) -> Any:
    """Encrypts each column of ``columns`` (a dict from column name to
    transformation name) with its transformation's primary key; see the
    module documentation for ``data`` and the options."""
    return _apply(data, keyset, columns, "encrypt", options)


def decrypt_columns(data: Any, keyset: Any, columns: Mapping[str, str], **options: Any) -> Any:
    """The inverse of :func:`encrypt_columns`, with the same options and ``version=``."""
    return _apply(data, keyset, columns, "decrypt", options)


def rewrap_columns(data: Any, keyset: Any, columns: Mapping[str, str], **options: Any) -> Any:
    """Re-encrypts each column under its transformation's primary key
    (``version=``: the key version that made FPE tokens of external mode)."""
    return _apply(data, keyset, columns, "rewrap", options)
