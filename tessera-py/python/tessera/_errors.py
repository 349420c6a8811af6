"""Exceptions raised by tessera. Messages never contain key material."""

from __future__ import annotations

__all__ = [
    "AuthenticationError",
    "InvalidKeyError",
    "InvalidParameterError",
    "InvalidValueError",
    "KeyLockedError",
    "SignatureError",
    "TesseraError",
]


class TesseraError(Exception):
    """Base class of every tessera exception.

    ``index`` is the row of a batch the error is about, or ``None``.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


class InvalidKeyError(TesseraError, ValueError):
    """A key of the wrong size (or a key file that does not hold hex)."""


class KeyLockedError(InvalidKeyError):
    """An OpenPGP secret key is locked and no password was given for it
    (``key_password=``)."""


class InvalidParameterError(TesseraError, ValueError):
    """A bad alphabet, tweak, passthrough set, associated data or nonce."""


class InvalidValueError(TesseraError, ValueError):
    """A value outside the cipher's domain: a character not in the alphabet,
    a length outside the allowed range, malformed base64url or a ciphertext
    too short. For batches, ``index`` names the row."""


class AuthenticationError(TesseraError):
    """Verification failed: wrong key or associated data, or modified data.
    For batches, ``index`` names the first failing row; nothing is released."""


class SignatureError(TesseraError):
    """No good OpenPGP signature from the given certificates: the data is
    unsigned, signed by someone else, modified, or signed by a key that was
    not valid then. Nothing is released (no output file is left)."""
