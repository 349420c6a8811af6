"""Type stubs for the native module ``tessera._tessera``."""

from collections.abc import Sequence
from os import PathLike
from typing import IO, Any, Literal, Protocol

import pyarrow

__version__: str

class _ArrowArrayExportable(Protocol):
    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...

class _ArrowStreamExportable(Protocol):
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...

StrColumn = _ArrowArrayExportable | _ArrowStreamExportable | Sequence[str | None] | Any
BytesColumn = _ArrowArrayExportable | _ArrowStreamExportable | Sequence[bytes | None] | Any

class _Fpe:
    def __init__(
        self,
        key: bytes,
        alphabet: str = "0123456789",
        *,
        passthrough: str = "",
        keep_prefix: int = 0,
        keep_suffix: int = 0,
    ) -> None:
        """Builds the cipher once from an AES key (16, 24 or 32 bytes) and an
        alphabet (character i is numeral i). ``passthrough`` characters are
        kept in place and not encrypted; the first ``keep_prefix`` and last
        ``keep_suffix`` alphabet characters stay in clear (as the CLI's
        ``--passthrough``/``--keep-prefix``/``--keep-suffix``).

        Raises InvalidKeyError or InvalidParameterError."""
    def encrypt(self, value: str, tweak: bytes = b"") -> str:
        """Encrypts one value. Raises InvalidValueError (character not in the
        alphabet, length outside the domain) or InvalidParameterError (tweak)."""
    def decrypt(self, value: str, tweak: bytes = b"") -> str:
        """Decrypts one token."""
    def encrypt_batch(self, values: StrColumn, tweak: bytes = b"") -> pyarrow.Array:
        """Encrypts a column of strings: an Arrow array or stream (pyarrow
        string/large_string/string_view, Polars Series, ...), a pandas Series
        backed by Arrow, or a list of str/None. Returns a pyarrow ``string``
        array (``large_string`` for large_string input); nulls stay null.
        Runs without the GIL. A bad value raises InvalidValueError whose
        ``index`` is its row; nothing is returned then."""
    def decrypt_batch(self, values: StrColumn, tweak: bytes = b"") -> pyarrow.Array:
        """Decrypts a column of tokens; see :meth:`encrypt_batch`."""
    @property
    def alphabet(self) -> str: ...
    @property
    def radix(self) -> int: ...
    @property
    def min_len(self) -> int:
        """Shortest value accepted, in encrypted characters."""
    @property
    def max_len(self) -> int:
        """Longest value accepted, in encrypted characters."""
    @property
    def passthrough(self) -> str: ...
    @property
    def keep_prefix(self) -> int: ...
    @property
    def keep_suffix(self) -> int: ...

class FF1(_Fpe):
    """FF1 (NIST SP 800-38G Rev 1). Tweaks of any length."""

class FF3_1(_Fpe):
    """FF3-1 (NIST SP 800-38G Rev 1). Tweaks of exactly 7 bytes."""

class FF3(_Fpe):
    """Legacy FF3, withdrawn by NIST: only to read old tokens. 8-byte tweaks."""

class AesSiv:
    """AES-SIV (RFC 5297) with a 32, 48 or 64-byte key. Deterministic
    authenticated encryption: output is ``V || C``, 16 bytes longer."""

    def __init__(self, key: bytes) -> None: ...
    @property
    def key_bits(self) -> int:
        """256, 384 or 512."""
    def encrypt(self, data: bytes, ad: Sequence[bytes] = (), nonce: bytes | None = None) -> bytes:
        """Encrypts ``data`` with associated-data components ``ad`` (and an
        optional nonce, the last component); returns ``V || C``."""
    def decrypt(self, data: bytes, ad: Sequence[bytes] = (), nonce: bytes | None = None) -> bytes:
        """Verifies and decrypts ``V || C``. Raises AuthenticationError."""
    def encrypt_batch(
        self,
        values: BytesColumn | StrColumn,
        ad: Sequence[bytes] = (),
        nonce: bytes | None = None,
        *,
        output: Literal["binary", "string"] | None = None,
    ) -> pyarrow.Array:
        """Encrypts every value of a column with the same associated data.
        Binary input gives binary ``V || C``; string input gives unpadded
        base64url of ``V || C`` (as the CLI's ``--lines``), unless ``output``
        says otherwise. Nulls stay null."""
    def decrypt_batch(
        self,
        values: BytesColumn | StrColumn,
        ad: Sequence[bytes] = (),
        nonce: bytes | None = None,
        *,
        output: Literal["binary", "string"] | None = None,
    ) -> pyarrow.Array:
        """Decrypts a column of binary ``V || C`` or base64url strings. The
        output has the input's type unless ``output`` says otherwise (string
        output must be UTF-8). All or nothing: AuthenticationError names the
        first failing row."""

_Path = str | PathLike[str]

def encrypt_file(
    src: _Path,
    dst: _Path,
    password: str | bytes,
    *,
    aead: Literal["ocb", "eax", "gcm"] = "ocb",
    cipher: Literal["aes128", "aes192", "aes256"] = "aes256",
    chunk_size_octet: int = 12,
    s2k: Literal["argon2", "iterated"] | None = None,
    s2k_count: int = 255,
    profile: Literal["rfc9580", "rfc4880"] = "rfc9580",
    armor: bool = False,
) -> None:
    """Encrypts the file ``src`` to ``dst`` with a password (OpenPGP, as the
    CLI's ``tessera encrypt``): RFC 9580 SKESK v6 + SEIPD v2 by default,
    ``profile="rfc4880"`` for SKESK v4 + SEIPD v1 (GnuPG 2.2). ``dst``
    appears only on success (written to a temporary file, then renamed)."""

def decrypt_file(src: _Path, dst: _Path, password: str | bytes | list[str | bytes]) -> None:
    """Decrypts an OpenPGP file (binary or armored, v1 or v2). Nothing is
    written to ``dst`` unless the whole message verifies. Raises
    AuthenticationError (wrong password, modified data) or InvalidValueError
    (malformed or truncated message)."""

def encrypt_stream(
    reader: IO[bytes],
    writer: IO[bytes],
    password: str | bytes,
    *,
    aead: Literal["ocb", "eax", "gcm"] = "ocb",
    cipher: Literal["aes128", "aes192", "aes256"] = "aes256",
    chunk_size_octet: int = 12,
    s2k: Literal["argon2", "iterated"] | None = None,
    s2k_count: int = 255,
    profile: Literal["rfc9580", "rfc4880"] = "rfc9580",
    armor: bool = False,
) -> None:
    """Encrypts everything ``reader.read()`` gives into ``writer`` (binary
    file objects), in constant memory."""

def decrypt_stream(reader: IO[bytes], writer: IO[bytes], password: str | bytes | list[str | bytes]) -> None:
    """Decrypts a message from ``reader`` into ``writer``. v2 chunks are
    written only after their tag verifies, but a failure late in the message
    leaves the earlier chunks written: use :func:`decrypt_file` for all or
    nothing."""


class Keyset:
    """A keyset file made by ``tessera keyset`` (sealed with a password, or
    cleartext JSON when ``insecure_cleartext=True``). Never shows its keys."""

    @staticmethod
    def open(path: str | PathLike[str], password: str | bytes | None = None, *,
             insecure_cleartext: bool = False) -> Keyset: ...
    def names(self) -> list[str]:
        """The transformations' names."""
    def transform(self, name: str) -> KeysetTransform:
        """The transformation ``name``, ready to use."""

class KeysetTransform:
    """FPE on ``str`` values, or Tink-compatible AES-SIV on ``bytes`` (on
    ``str`` columns, unpadded base64url). Encrypts under the primary key,
    decrypts under the version that made the value (FPE external mode:
    ``version``, default the primary), rewraps to the primary."""

    @property
    def primary(self) -> int: ...
    def encrypt(self, value: str | bytes, *, tweak: bytes | None = None, ad: bytes = b"") -> str | bytes: ...
    def decrypt(self, value: str | bytes, *, tweak: bytes | None = None, version: int | None = None,
                ad: bytes = b"") -> str | bytes: ...
    def rewrap(self, value: str | bytes, *, tweak: bytes | None = None, version: int | None = None,
               ad: bytes = b"") -> str | bytes: ...
    def encrypt_batch(self, values: object, *, tweak: bytes | None = None, ad: bytes = b"") -> pyarrow.Array: ...
    def decrypt_batch(self, values: object, *, tweak: bytes | None = None, version: int | None = None,
                      ad: bytes = b"") -> pyarrow.Array: ...
    def rewrap_batch(self, values: object, *, tweak: bytes | None = None, version: int | None = None,
                     ad: bytes = b"") -> pyarrow.Array: ...
