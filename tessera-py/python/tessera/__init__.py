"""tessera: AES-based data protection for Python, on Arrow.

- :class:`FF1`, :class:`FF3_1` (NIST SP 800-38G Rev 1) and legacy :class:`FF3`:
  format-preserving tokenization of strings over any alphabet, one value or
  whole Arrow columns at once.
- :class:`AesSiv` (RFC 5297): deterministic authenticated encryption of bytes
  or of whole binary/string columns.
- :func:`encrypt_file` / :func:`decrypt_file` (and ``*_stream`` for binary
  file objects): OpenPGP (RFC 9580), streaming in constant memory; keys,
  certificates and signatures in :mod:`tessera.openpgp`.
- :class:`Keyset`: a keyset file made by ``tessera keyset`` (named
  transformations, versioned keys, Tink-compatible AES-SIV):
  ``Keyset.open(path, password=...).transform("cards").encrypt_batch(col)``,
  ``decrypt_batch``, ``rewrap_batch`` (to the primary key).
- :mod:`tessera.columns`: several columns of a pyarrow, pandas or Polars
  table in one call, each through its own keyset transformation.
- :mod:`tessera.spark` and :mod:`tessera.polars`: the same on Spark DataFrames
  and Polars expressions.

Batches accept anything that exports Arrow through the PyCapsule interface
(``__arrow_c_array__`` or ``__arrow_c_stream__``: pyarrow arrays and chunked
arrays, Polars Series, ...), pandas Series backed by Arrow, or Python lists,
and return a ``pyarrow.Array``. The work runs without the GIL.

Example::

    import tessera
    ff1 = tessera.FF1(key, alphabet="0123456789")
    token = ff1.encrypt("4111111111111111", tweak=b"")
    tokens = ff1.encrypt_batch(pyarrow_array_of_strings)
"""

from __future__ import annotations

from os import PathLike

from . import _errors
from ._errors import *  # noqa: F403 (the exception classes)
from . import openpgp
from ._tessera import (
    FF1,
    FF3,
    FF3_1,
    AesSiv,
    Keyset,
    KeysetTransform,
    __version__,
    decrypt_file,
    decrypt_stream,
    encrypt_file,
    encrypt_stream,
)

__all__ = [
    "FF1",
    "FF3",
    "FF3_1",
    "AesSiv",
    "Keyset",
    "KeysetTransform",
    "openpgp",
    "read_key_file",
    "encrypt_file",
    "decrypt_file",
    "encrypt_stream",
    "decrypt_stream",
    "__version__",
]
__all__ += _errors.__all__


def read_key_file(path: str | PathLike[str]) -> bytes:
    """Reads a key file as the CLI does: hex, whitespace ignored.

    Raises :class:`InvalidKeyError` (never showing the file's content) if
    the file does not hold an even number of hex digits.
    """
    with open(path, "rb") as f:
        raw = f.read()
    text = b"".join(raw.split())
    try:
        return bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise _errors.InvalidKeyError(f"key file {path}: expected hex digits (whitespace ignored)") from None
