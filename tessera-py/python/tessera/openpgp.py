"""OpenPGP (RFC 9580): encryption to passwords and certificates, secret keys,
signatures, all streaming in constant memory. The work is done by the Rust
library; these functions convert arguments, results and errors.

Keys and certificates are given as ``bytes`` (binary or armored, one or
several) or as a path (``str`` or ``os.PathLike``), or a list of those.

Decryption and verification are different outcomes: :func:`decrypt_file`
returns a :class:`Decrypted` whose ``verified`` is ``True`` only when
``verify_with=`` was given, and then a good signature from one of those
certificates was found; otherwise it raises :class:`SignatureError` and
writes nothing.

Example::

    from tessera import openpgp

    alice = openpgp.generate_key("Alice <alice@example.org>")
    bob = openpgp.generate_key("Bob <bob@example.org>", password="bob's pw")
    openpgp.encrypt_file("report.pdf", "report.pdf.pgp",
                         recipients=[openpgp.extract_cert(bob)], sign_with=alice)
    result = openpgp.decrypt_file("report.pdf.pgp", "report.pdf",
                                  keys=bob, key_password="bob's pw",
                                  verify_with=openpgp.extract_cert(alice))
    assert result.verified
"""

from __future__ import annotations

from . import _errors
from ._errors import *  # noqa: F403 (the exception classes)
from ._tessera import (
    Decrypted,
    KeyInfo,
    Verification,
    Verified,
    certify_userid,
    decrypt_file,
    decrypt_stream,
    encrypt_file,
    encrypt_stream,
    extract_cert,
    generate_key,
    inspect_keys,
    merge_certs,
    revoke_key,
    sign,
    sign_file,
    update_key,
    validate_userid,
    verify,
    verify_file,
)

__all__ = [
    "Decrypted",
    "KeyInfo",
    "Verification",
    "Verified",
    "certify_userid",
    "decrypt_file",
    "decrypt_stream",
    "encrypt_file",
    "encrypt_stream",
    "extract_cert",
    "generate_key",
    "inspect_keys",
    "merge_certs",
    "revoke_key",
    "sign",
    "sign_file",
    "update_key",
    "validate_userid",
    "verify",
    "verify_file",
]
__all__ += _errors.__all__
