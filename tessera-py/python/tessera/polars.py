"""Polars helpers: tokenize or encrypt columns as Polars expressions.

Example::

    import polars as pl
    import tessera
    from tessera import polars as tp

    ff1 = tessera.FF1(key)
    siv = tessera.AesSiv(siv_key)
    df = df.with_columns(
        tp.encrypt("card", ff1),                    # FF1 tokens, same format
        tp.encrypt("email", siv, ad=[b"email"]),    # base64url of V || C
    )
    df = df.with_columns(tp.decrypt("card", ff1), tp.decrypt("email", siv, ad=[b"email"]))

Each expression runs ``encrypt_batch``/``decrypt_batch`` on whole Series
(``map_batches``): Arrow in, Arrow out, without the GIL. Works in lazy frames.

With a keyset file instead of a cipher object, the keyset is opened when
the expression first runs (once per process), not when it is built, so a
serialized lazy frame holds only the path and the password's source::

    ks = dict(keyset="ks.tks", transform="cards", keyset_password_file="pw")
    df = df.with_columns(tp.encrypt("card", **ks))
    df = df.with_columns(tp.rewrap("card", **ks, version=1))   # from version 1 to the new primary

A transformation whose tweak is another field of the record (``tessera
keyset new --tweak-field``) takes ``tweaks=``: the column (a name or an
expression) holding each row's tweak, which must have as many rows as the
values and no null beside a value::

    df = df.with_columns(tp.encrypt("account", keyset="ks.tks", transform="acct",
                                    keyset_password_file="pw", tweaks="customer"))
"""

from __future__ import annotations

from typing import Any

import polars as pl

from ._keysets import KeysetRef

__all__ = ["encrypt", "decrypt", "rewrap"]


def _expr(column: str | pl.Expr) -> pl.Expr:
    return pl.col(column) if isinstance(column, str) else column


def _return_dtype(cipher: Any, column: str | pl.Expr, kwargs: dict[str, Any]) -> Any:
    # FPE always gives strings; AES-SIV gives the input's type unless `output` says.
    out = kwargs.get("output")
    if out == "binary":
        return pl.Binary()
    if out == "string" or hasattr(cipher, "alphabet"):
        return pl.String()
    return pl.dtype_of(_expr(column))


class _KeysetTransform:
    """A keyset transformation opened on first use (see :class:`KeysetRef`)."""

    def __init__(self, ref: KeysetRef, name: str) -> None:
        self.ref, self.name = ref, name

    def __getattr__(self, method: str) -> Any:
        return getattr(self.ref.transform(self.name), method)


def _cipher(cipher: Any, keyset: Any, transform: str | None, kwargs: dict[str, Any]) -> Any:
    if keyset is None:
        if cipher is None:
            raise TypeError("give a cipher object, or keyset= and transform=")
        return cipher
    if cipher is not None or transform is None:
        raise TypeError("with keyset=, give transform= (a transformation name) and no cipher object")
    ref = KeysetRef(
        keyset,
        kwargs.pop("keyset_password_file", None),
        kwargs.pop("keyset_password_env", None),
        kwargs.pop("keyset_password", None),
        kwargs.pop("insecure_cleartext", False),
    )
    return _KeysetTransform(ref, transform)


def _apply(column: str | pl.Expr, cipher: Any, method: str, kwargs: dict[str, Any]) -> pl.Expr:
    # A keyset transformation keeps the input's type (FPE: strings; AES-SIV: as given).
    dtype = pl.dtype_of(_expr(column)) if isinstance(cipher, _KeysetTransform) else _return_dtype(cipher, column, kwargs)
    tweaks = kwargs.pop("tweaks", None)
    if tweaks is None:

        def run(s: pl.Series) -> pl.Series:
            return pl.Series(s.name, getattr(cipher, method)(s, **kwargs))

        return _expr(column).map_batches(run, return_dtype=dtype, is_elementwise=True)

    def run_with_tweaks(series: list[pl.Series]) -> pl.Series:
        s, t = series
        return pl.Series(s.name, getattr(cipher, method)(s, tweaks=t, **kwargs))

    # The values and their tweaks side by side; the result keeps the values' name.
    name = column if isinstance(column, str) else column.meta.output_name()
    both = pl.map_batches([_expr(column), _expr(tweaks)], run_with_tweaks, return_dtype=dtype, is_elementwise=True)
    return both.alias(name)


def encrypt(
    column: str | pl.Expr, cipher: Any = None, *, keyset: Any = None, transform: str | None = None, **kwargs: Any
) -> pl.Expr:
    """An expression that encrypts ``column`` with ``cipher`` (an FPE object,
    :class:`tessera.AesSiv` or a :class:`tessera.KeysetTransform`), or with
    the transformation ``transform`` of the keyset file ``keyset`` (password
    from ``keyset_password_file=``, ``keyset_password_env=``, or
    ``insecure_cleartext=True``). Other keyword arguments go to
    ``encrypt_batch`` (``tweak=``, or ``ad=``/``nonce=``/``output=``);
    ``tweaks=`` names the column (or is the expression) of each row's tweak."""
    return _apply(column, _cipher(cipher, keyset, transform, kwargs), "encrypt_batch", kwargs)


def decrypt(
    column: str | pl.Expr, cipher: Any = None, *, keyset: Any = None, transform: str | None = None, **kwargs: Any
) -> pl.Expr:
    """The inverse of :func:`encrypt`."""
    return _apply(column, _cipher(cipher, keyset, transform, kwargs), "decrypt_batch", kwargs)


def rewrap(
    column: str | pl.Expr, cipher: Any = None, *, keyset: Any = None, transform: str | None = None, **kwargs: Any
) -> pl.Expr:
    """Re-encrypts ``column`` under the primary key of a keyset
    transformation (as :func:`encrypt` takes it; ``version=`` for FPE
    external mode)."""
    return _apply(column, _cipher(cipher, keyset, transform, kwargs), "rewrap_batch", kwargs)
