"""Type stubs for the native module ``tessera._tessera``."""

from collections.abc import Sequence
from os import PathLike
from typing import IO, Any, Literal, Protocol, TypedDict

# typing.Unpack is 3.11+; a stub is never imported, and type checkers ship typing_extensions.
from typing_extensions import Unpack

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

_KeyData = bytes | bytearray | str | PathLike[str]
"""Key or certificate data (binary or armored; one or several) as bytes, or a path."""
_Keys = _KeyData | Sequence[_KeyData]
_Passwords = str | bytes | list[str | bytes]

class _EncryptOptions(TypedDict, total=False):
    """The keyword-only options of :func:`encrypt_file` and
    :func:`encrypt_stream`; one left out takes the default its comment gives."""

    recipients: _Keys | None  # default None
    sign_with: _Keys | None  # default None
    key_password: _Passwords | None  # default None
    aead: Literal["ocb", "eax", "gcm"]  # default "ocb"
    cipher: Literal["aes128", "aes192", "aes256"]  # default "aes256"
    chunk_size_octet: int  # default 12
    s2k: Literal["argon2", "iterated"] | None  # default None
    s2k_count: int  # default 255
    profile: Literal["rfc9580", "rfc4880"]  # default "rfc9580"
    armor: bool  # default False

class _DecryptOptions(TypedDict, total=False):
    """The keyword-only options of :func:`decrypt_file` and
    :func:`decrypt_stream`; one left out takes the default its comment gives."""

    keys: _Keys | None  # default None
    key_password: _Passwords | None  # default None
    verify_with: _Keys | None  # default None
    max_argon2_memory: int  # default 256 << 20 (256 MiB)
    max_argon2_passes: int  # default 16
    max_argon2_lanes: int  # default 16
    max_s2k_work: int  # default 1 << 30 (bytes processed)
    max_decompressed_size: int | None  # default 16 << 30 (16 GiB); None: no limit

def encrypt_file(
    src: _Path,
    dst: _Path,
    password: str | bytes | None = None,
    **options: Unpack[_EncryptOptions],
) -> None:
    """Encrypts the file ``src`` to ``dst`` (OpenPGP, as the CLI's ``tessera
    encrypt``) with a password and/or to the certificates ``recipients``:
    RFC 9580 SKESK v6 + SEIPD v2 by default, ``profile="rfc4880"`` for SKESK
    v4 + SEIPD v1 (GnuPG 2.2); with certificates, SEIPD v2 only if every
    recipient announces it, with the algorithms they all prefer. A
    certificate that is expired, revoked or cannot encrypt raises
    InvalidKeyError naming it. ``sign_with`` (secret keys; locked ones opened
    with ``key_password``, one or a list to try) signs in the same pass: the
    signatures travel inside the encryption. ``dst`` appears only on
    success (written to a temporary file, then renamed)."""

def decrypt_file(
    src: _Path,
    dst: _Path,
    password: _Passwords | None = None,
    **options: Unpack[_DecryptOptions],
) -> Decrypted:
    """Decrypts an OpenPGP file (binary or armored, v1 or v2) with passwords
    and/or secret ``keys`` (locked ones opened with ``key_password``).
    Nothing is written to ``dst`` unless the whole message authenticates and,
    with ``verify_with`` (certificates), a signature from one of them is good.
    Returns :class:`Decrypted`: ``verified`` is True only with ``verify_with``.
    Raises AuthenticationError (wrong password or key, modified data),
    KeyLockedError (a needed key is locked and no ``key_password`` opens it),
    SignatureError (``verify_with`` given and no good signature from it), or
    InvalidValueError (malformed or truncated message, or one asking for
    more than a limit: Argon2 memory in bytes, passes, lanes, the total
    password-hashing work in bytes processed, the decompressed size in bytes;
    as ``tessera decrypt``'s flags)."""

def encrypt_stream(
    reader: IO[bytes],
    writer: IO[bytes],
    password: str | bytes | None = None,
    **options: Unpack[_EncryptOptions],
) -> None:
    """Encrypts everything ``reader.read()`` gives into ``writer`` (binary
    file objects), in constant memory. Options as in :func:`encrypt_file`."""

def decrypt_stream(
    reader: IO[bytes],
    writer: IO[bytes],
    password: _Passwords | None = None,
    **options: Unpack[_DecryptOptions],
) -> Decrypted:
    """Decrypts a message from ``reader`` into ``writer``. Without
    ``verify_with``, v2 chunks are written only after their tag verifies, but
    a failure late in the message leaves the earlier chunks written: use
    :func:`decrypt_file` for all or nothing. With ``verify_with``, the data
    waits in an anonymous temporary file and reaches ``writer`` only once a
    signature is found good. Keys and limits as in :func:`decrypt_file`.
    ``reader.read(n)`` must give at most ``n`` bytes and ``writer.write(b)``
    at most ``len(b)`` (a short count is retried); anything else raises
    ValueError, ``None`` from a non-blocking raw object BlockingIOError."""

class Verification:
    """One signature and what it amounts to."""

    @property
    def status(self) -> Literal["good", "bad", "unknown-signer", "key-not-valid", "weak-hash", "unchecked"]: ...
    @property
    def good(self) -> bool: ...
    @property
    def signer(self) -> str | None:
        """The signer's certificate fingerprint (hex), when known."""
    @property
    def key(self) -> str | None:
        """The fingerprint of the (sub)key that made a good signature."""
    @property
    def user_id(self) -> str | None: ...
    @property
    def created(self) -> int | None:
        """Creation time, seconds since the epoch."""
    @property
    def message(self) -> str: ...

class Decrypted:
    """What :func:`decrypt_file`/:func:`decrypt_stream` found. The data was
    decrypted and authenticated either way; ``verified`` is True only when
    ``verify_with`` was given (a failed verification raises instead)."""

    @property
    def verified(self) -> bool: ...
    @property
    def verifications(self) -> list[Verification]:
        """Every signature checked (empty without ``verify_with``)."""

class Verified:
    """What :func:`verify`/:func:`verify_file` found: at least one good signature."""

    @property
    def data(self) -> bytes | None:
        """The signed data of an inline or cleartext message given as bytes."""
    @property
    def verifications(self) -> list[Verification]: ...

class KeyInfo:
    """One key or certificate, as :func:`inspect_keys` describes it."""

    @property
    def fingerprint(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def secret(self) -> bool: ...
    @property
    def locked(self) -> bool: ...
    @property
    def user_ids(self) -> list[str]: ...
    @property
    def subkeys(self) -> list[str]: ...
    @property
    def can_encrypt(self) -> bool: ...
    @property
    def can_sign(self) -> bool: ...
    @property
    def problem(self) -> str | None:
        """Why it is not valid now (expired, revoked, ...), or None."""

def generate_key(
    userid: str | list[str] | None = None,
    *,
    profile: Literal["rfc9580", "rfc4880", "rfc9980", "rfc9980-high", "rfc9980-v4"] = "rfc9580",
    password: str | bytes | None = None,
    armor: bool = True,
    expires_in: int | None = None,
) -> bytes:
    """A new secret key: v6 Ed25519 + X25519 (``rfc9580``), v4 EdDSA +
    ECDH Curve25519 for GnuPG 2.2 (``rfc4880``, needs a User ID), or
    post-quantum (RFC 9980): v6 ML-DSA-65+Ed25519 + ML-KEM-768+X25519
    (``rfc9980``), v6 ML-DSA-87+Ed448 + ML-KEM-1024+X448 (``rfc9980-high``),
    v4 Ed25519 + ML-KEM-768+X25519 (``rfc9980-v4``, needs a User ID), with
    self-signatures, optionally expiring ``expires_in`` seconds after now and
    locked with ``password``. Armored (``PRIVATE KEY BLOCK``) unless ``armor=False``."""

def extract_cert(key: _Keys, *, armor: bool = True) -> bytes:
    """The certificates (public keys) of the keys in ``key``."""

def inspect_keys(data: _Keys) -> list[KeyInfo]:
    """Describes every key or certificate in ``data``."""

def revoke_key(
    key: _Keys,
    *,
    key_password: _Passwords | None = None,
    reason: Literal["unspecified", "compromised", "superseded", "retired"] = "unspecified",
    message: str = "",
    armor: bool = True,
) -> bytes:
    """Revocation certificates of the secret keys in ``key``: each key's
    certificate with a key revocation added (``unspecified`` and
    ``compromised`` are hard revocations: signatures made before them no
    longer count either). Merged into a copy of the certificate (or
    imported by any OpenPGP implementation), it revokes it."""

def merge_certs(certs: _Keys, updates: _Keys, *, armor: bool = True) -> bytes:
    """The certificates of ``certs`` with every User ID, subkey and signature
    that the copies in ``updates`` hold of them added, each once; updates of
    other certificates are left out."""

def update_key(
    key: _Keys,
    *,
    key_password: str | bytes | None = None,
    expires_in: int | None = None,
    signing_only: bool = False,
    add_capabilities: bool = True,
    armor: bool = True,
) -> bytes:
    """The secret keys in ``key`` with stale self-signatures made again
    (SHA-1, soon expiring, or a new expiry: ``expires_in`` seconds from now,
    ``0`` for never), an encryption subkey added when none is valid (unless
    ``signing_only`` or ``add_capabilities=False``). A locked key is locked
    again with ``key_password``. A revoked key raises ``InvalidKeyError``."""

def certify_userid(
    key: _Keys,
    cert: _Keys,
    userid: str | list[str],
    *,
    key_password: _Passwords | None = None,
    require_self_sig: bool = True,
    armor: bool = True,
) -> bytes:
    """The certificates of ``cert`` with ``userid`` certified by every secret
    key in ``key``. Unless ``require_self_sig=False``, a User ID the
    certificate does not bind itself raises ``InvalidKeyError``; a key that
    cannot certify (revoked, expired) too."""

def validate_userid(
    cert: _Keys,
    userid: str,
    authorities: _Keys,
    *,
    email: bool = False,
    at: int | None = None,
) -> bool:
    """Whether every certificate of ``cert`` binds ``userid`` (an e-mail
    address with ``email=True``), certified at ``at`` (Unix seconds; now by
    default) by one of ``authorities`` (a certificate counts for its own
    self-signatures)."""

class _SignOptions(TypedDict, total=False):
    """The keyword-only options of :func:`sign` and :func:`sign_file`; one
    left out takes the default its comment gives."""

    key_password: _Passwords | None  # default None
    detached: bool  # default False
    cleartext: bool  # default False
    armor: bool  # default False
    text: bool  # default False

def sign(
    data: bytes,
    key: _Keys,
    **options: Unpack[_SignOptions],
) -> bytes:
    """Signs ``data`` with every signing-capable key in ``key``: an
    inline-signed message (one-pass signatures, the data, the signatures),
    a detached signature (``detached=True``) or a cleartext-signed text
    (``cleartext=True``, always armored and a text signature). ``text=True``
    makes text signatures (line endings do not matter)."""

def sign_file(
    src: _Path,
    dst: _Path,
    key: _Keys,
    **options: Unpack[_SignOptions],
) -> None:
    """:func:`sign` on the file ``src``, streamed; ``dst`` appears only on success."""

def verify(data: bytes, signers: _Keys, *, signature: _Keys | None = None) -> Verified:
    """Checks a signed message (inline or cleartext) or, with ``signature``
    (a detached signature: bytes or a path), ``data`` itself, against the
    certificates ``signers``. Returns :class:`Verified` (with the signed
    data of a message); raises SignatureError if no signature is good."""

def verify_file(
    src: _Path,
    signers: _Keys,
    *,
    signature: _Keys | None = None,
    dst: _Path | None = None,
) -> Verified:
    """:func:`verify` on the file ``src``, streamed; a signed message's data
    goes to ``dst`` (if given) only when a signature is good."""


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
    ``version``, required while several versions are enabled), rewraps to
    the primary (FPE external mode: ``version`` required, not the primary). FPE batch
    calls take ``tweak=`` (one for every row) or ``tweaks=`` (a column of
    one per row, for a transformation whose tweak is another field)."""

    @property
    def primary(self) -> int: ...
    @property
    def kind(self) -> str:
        """``"FPE"`` or ``"AES-SIV"``."""
    def encrypt(self, value: str | bytes, *, tweak: bytes | None = None, ad: bytes = b"") -> str | bytes: ...
    def decrypt(self, value: str | bytes, *, tweak: bytes | None = None, version: int | None = None,
                ad: bytes = b"") -> str | bytes: ...
    def rewrap(self, value: str | bytes, *, tweak: bytes | None = None, version: int | None = None,
               ad: bytes = b"") -> str | bytes: ...
    def encrypt_batch(self, values: object, *, tweak: bytes | None = None, tweaks: object = None,
                      ad: bytes = b"") -> pyarrow.Array: ...
    def decrypt_batch(self, values: object, *, tweak: bytes | None = None, tweaks: object = None,
                      version: int | None = None, ad: bytes = b"") -> pyarrow.Array: ...
    def rewrap_batch(self, values: object, *, tweak: bytes | None = None, tweaks: object = None,
                     version: int | None = None, ad: bytes = b"") -> pyarrow.Array: ...
    def migrate_batch(self, values: object, source: FF1 | FF3_1 | FF3, *, source_tweak: bytes = b"",
                      tweak: bytes | None = None, tweaks: object = None) -> pyarrow.Array:
        """Tokens made by `source` moved to this transformation's primary version."""
        ...
