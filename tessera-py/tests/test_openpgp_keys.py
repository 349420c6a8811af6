"""tessera.openpgp keys and signatures: generation, certificates,
encryption to certificates, signing while encrypting, verification, and bad
input (each a typed exception, no output file, no key in any message)."""

import io

import pytest

import tessera
from tessera import openpgp

FAST = dict(s2k="iterated", s2k_count=96)
BOB_PW = "bob's key password"


@pytest.fixture(scope="module")
def alice():
    return openpgp.generate_key("Alice <alice@example.org>")


@pytest.fixture(scope="module")
def bob():
    return openpgp.generate_key("Bob <bob@example.org>", password=BOB_PW)


@pytest.fixture(scope="module")
def carol():
    return openpgp.generate_key(["Carol <carol@example.org>", "c@example.net"], profile="rfc4880", armor=False)


def listing(path):
    return sorted(p.name for p in path.iterdir())


def test_generate_extract_inspect(alice, bob, carol):
    assert alice.startswith(b"-----BEGIN PGP PRIVATE KEY BLOCK-----")
    cert = openpgp.extract_cert(alice)
    assert cert.startswith(b"-----BEGIN PGP PUBLIC KEY BLOCK-----")
    [ka], [kc] = openpgp.inspect_keys(alice), openpgp.inspect_keys(cert)
    assert ka.fingerprint == kc.fingerprint and len(ka.fingerprint) == 64
    assert (ka.version, ka.secret, ka.locked, kc.secret) == (6, True, False, False)
    assert kc.user_ids == ["Alice <alice@example.org>"] and len(kc.subkeys) == 1
    assert kc.can_encrypt and kc.can_sign and kc.problem is None
    [kb] = openpgp.inspect_keys(bob)
    assert kb.locked and kb.secret
    assert not carol.startswith(b"-----")
    [k4] = openpgp.inspect_keys(carol)
    assert (k4.version, len(k4.fingerprint), k4.user_ids) == (4, 40, ["Carol <carol@example.org>", "c@example.net"])
    both = openpgp.extract_cert([alice, carol], armor=False)
    assert [k.fingerprint for k in openpgp.inspect_keys(both)] == [ka.fingerprint, k4.fingerprint]
    assert b"BEGIN" not in both
    with pytest.raises(ValueError, match="profile"):
        openpgp.generate_key("x", profile="rfc1991")
    with pytest.raises(ValueError, match="empty"):
        openpgp.generate_key("x", password="")
    with pytest.raises(TypeError, match="bytes"):
        openpgp.extract_cert(42)
    with pytest.raises(tessera.InvalidKeyError, match="data: not an OpenPGP key"):
        openpgp.inspect_keys(b"not a key")


def test_expiring_key_inspected():
    k = openpgp.generate_key("Short <s@example.org>", expires_in=3600)
    [info] = openpgp.inspect_keys(openpgp.extract_cert(k))
    assert info.problem is None and info.can_encrypt


def test_encrypt_to_certificates_file_round_trip(tmp_path, alice, bob, carol):
    data = bytes(range(256)) * 5000
    (tmp_path / "in").write_bytes(data)
    certs = [openpgp.extract_cert(alice), openpgp.extract_cert(bob)]
    openpgp.encrypt_file(tmp_path / "in", tmp_path / "enc", recipients=certs, armor=True)
    for key, pw in [(alice, None), (bob, BOB_PW), ([carol, bob], ["wrong first", BOB_PW])]:
        res = openpgp.decrypt_file(tmp_path / "enc", tmp_path / "out", keys=key, key_password=pw)
        assert (tmp_path / "out").read_bytes() == data
        assert not res.verified and res.verifications == []
    # A v4 recipient (announcing SEIPD v2, as tessera's keys do), read with the key given as a path.
    (tmp_path / "carol.key").write_bytes(carol)
    openpgp.encrypt_file(tmp_path / "in", tmp_path / "enc4", "and a password", recipients=tmp_path / "carol.key", **FAST)
    openpgp.decrypt_file(tmp_path / "enc4", tmp_path / "out4", keys=str(tmp_path / "carol.key"))
    openpgp.decrypt_file(tmp_path / "enc4", tmp_path / "out5", "and a password")
    assert (tmp_path / "out4").read_bytes() == data == (tmp_path / "out5").read_bytes()


def test_sign_while_encrypting_and_verify_while_decrypting(tmp_path, alice, bob):
    data = b"signed and sealed\n" * 30_000
    (tmp_path / "in").write_bytes(data)
    bob_cert, alice_cert = openpgp.extract_cert(bob), openpgp.extract_cert(alice)
    openpgp.encrypt_file(tmp_path / "in", tmp_path / "enc", recipients=bob_cert, sign_with=alice)
    res = openpgp.decrypt_file(tmp_path / "enc", tmp_path / "out", keys=bob, key_password=BOB_PW, verify_with=alice_cert)
    assert (tmp_path / "out").read_bytes() == data
    assert res.verified
    [v] = res.verifications
    [info] = openpgp.inspect_keys(alice_cert)
    assert (v.good, v.status, v.signer, v.user_id) == (True, "good", info.fingerprint, "Alice <alice@example.org>")
    assert v.created and info.fingerprint in v.message
    # Decrypting without verify_with: the data, and nothing claimed about signatures.
    plain = openpgp.decrypt_file(tmp_path / "enc", tmp_path / "out2", keys=bob, key_password=BOB_PW)
    assert (plain.verified, plain.verifications) == (False, [])
    assert (tmp_path / "out2").read_bytes() == data
    # The same through file objects, signing with a locked key.
    enc = io.BytesIO()
    openpgp.encrypt_stream(io.BytesIO(data), enc, recipients=[alice_cert], sign_with=bob, key_password=BOB_PW)
    out = io.BytesIO()
    res = openpgp.decrypt_stream(io.BytesIO(enc.getvalue()), out, keys=alice, verify_with=[alice_cert, bob_cert])
    assert out.getvalue() == data and res.verified and [v.good for v in res.verifications] == [True]


def test_verify_with_failures_release_nothing(tmp_path, alice, bob, carol):
    (tmp_path / "in").write_bytes(b"payload" * 1000)
    alice_cert = openpgp.extract_cert(alice)
    openpgp.encrypt_file(tmp_path / "in", tmp_path / "unsigned", recipients=alice_cert)
    openpgp.encrypt_file(tmp_path / "in", tmp_path / "by-carol", recipients=alice_cert, sign_with=carol)
    for msg, match in [("unsigned", "not signed"), ("by-carol", "no signature in the message is good")]:
        with pytest.raises(openpgp.SignatureError, match=match):
            openpgp.decrypt_file(tmp_path / msg, tmp_path / "out", keys=alice, verify_with=alice_cert)
        out = io.BytesIO()
        with pytest.raises(openpgp.SignatureError):
            openpgp.decrypt_stream(io.BytesIO((tmp_path / msg).read_bytes()), out, keys=alice, verify_with=alice_cert)
        assert out.getvalue() == b""
    assert listing(tmp_path) == ["by-carol", "in", "unsigned"]
    with pytest.raises(tessera.InvalidParameterError, match="verify_with"):
        openpgp.decrypt_file(tmp_path / "by-carol", tmp_path / "out", keys=alice, verify_with=[])
    # Carol's own certificate does verify it.
    res = openpgp.decrypt_file(tmp_path / "by-carol", tmp_path / "out", keys=alice,
                               verify_with=openpgp.extract_cert(carol))
    assert res.verified


def test_bad_keys_and_messages(tmp_path, alice, bob, carol):
    (tmp_path / "in").write_bytes(b"secret data " * 10_000)
    bob_cert = openpgp.extract_cert(bob)
    openpgp.encrypt_file(tmp_path / "in", tmp_path / "enc", recipients=bob_cert)
    before = listing(tmp_path)
    out = tmp_path / "out"
    with pytest.raises(tessera.AuthenticationError, match="no key given can decrypt") as wrong:
        openpgp.decrypt_file(tmp_path / "enc", out, keys=alice)
    with pytest.raises(openpgp.KeyLockedError, match="locked") as locked:
        openpgp.decrypt_file(tmp_path / "enc", out, keys=bob)
    with pytest.raises(tessera.AuthenticationError, match="password") as bad_pw:
        openpgp.decrypt_file(tmp_path / "enc", out, keys=bob, key_password="not it")
    with pytest.raises(tessera.InvalidKeyError, match="no secret key"):
        openpgp.decrypt_file(tmp_path / "enc", out, keys=bob_cert)
    enc = bytearray((tmp_path / "enc").read_bytes())
    enc[len(enc) // 2] ^= 0x40
    (tmp_path / "mod").write_bytes(enc)
    with pytest.raises(tessera.AuthenticationError):
        openpgp.decrypt_file(tmp_path / "mod", out, keys=bob, key_password=BOB_PW)
    assert listing(tmp_path) == sorted(before + ["mod"])
    for e in (wrong.value, locked.value, bad_pw.value):
        assert "not it" not in str(e) and BOB_PW not in str(e) and "BEGIN" not in str(e)
    with pytest.raises(tessera.InvalidParameterError, match="password or recipient"):
        openpgp.encrypt_file(tmp_path / "in", out)
    with pytest.raises(openpgp.KeyLockedError):
        openpgp.encrypt_file(tmp_path / "in", out, recipients=bob_cert, sign_with=bob)
    with pytest.raises(tessera.InvalidKeyError, match="recipients: not an OpenPGP"):
        openpgp.encrypt_file(tmp_path / "in", out, recipients=b"garbage that is no certificate")
    assert not out.exists()


@pytest.mark.parametrize("mode", ["inline", "armored", "detached", "cleartext", "text"])
def test_sign_and_verify(tmp_path, alice, carol, mode):
    data = b"Hello,\n-- dashed line\nlast line"
    opts = {"inline": {}, "armored": {"armor": True}, "detached": {"detached": True, "armor": True},
            "cleartext": {"cleartext": True}, "text": {"text": True}}[mode]
    signed = openpgp.sign(data, alice, **opts)
    cert = openpgp.extract_cert(alice)
    if mode == "detached":
        res = openpgp.verify(data, cert, signature=signed)
        assert res.data is None
        with pytest.raises(openpgp.SignatureError, match="bad signature"):
            openpgp.verify(data + b"!", cert, signature=signed)
    else:
        res = openpgp.verify(signed, cert)
        # A text-mode literal packet carries network line endings (RFC 9580 5.9).
        assert res.data == (data.replace(b"\n", b"\r\n") if mode == "text" else data)
        tampered = signed.replace(b"last line", b"lost line") if mode == "cleartext" else None
        if tampered:
            with pytest.raises(openpgp.SignatureError):
                openpgp.verify(tampered, cert)
    assert [v.status for v in res.verifications] == ["good"]
    with pytest.raises(openpgp.SignatureError, match="none of the given certificates"):
        if mode == "detached":
            openpgp.verify(data, openpgp.extract_cert(carol), signature=signed)
        else:
            openpgp.verify(signed, openpgp.extract_cert(carol))


def test_sign_and_verify_files(tmp_path, alice, bob):
    (tmp_path / "doc").write_bytes(b"a document\n" * 50_000)
    openpgp.sign_file(tmp_path / "doc", tmp_path / "doc.sig", bob, key_password=BOB_PW, detached=True)
    openpgp.sign_file(tmp_path / "doc", tmp_path / "doc.pgp", bob, key_password=[BOB_PW])
    cert = openpgp.extract_cert(bob)
    res = openpgp.verify_file(tmp_path / "doc", cert, signature=tmp_path / "doc.sig")
    assert res.verifications[0].good and res.data is None
    openpgp.verify_file(tmp_path / "doc.pgp", [cert], dst=tmp_path / "back")
    assert (tmp_path / "back").read_bytes() == (tmp_path / "doc").read_bytes()
    with pytest.raises(openpgp.SignatureError):
        openpgp.verify_file(tmp_path / "doc.pgp", openpgp.extract_cert(alice), dst=tmp_path / "nope")
    with pytest.raises(openpgp.KeyLockedError):
        openpgp.sign_file(tmp_path / "doc", tmp_path / "nope", bob)
    with pytest.raises(tessera.InvalidParameterError, match="dst"):
        openpgp.verify_file(tmp_path / "doc", cert, signature=tmp_path / "doc.sig", dst=tmp_path / "nope")
    assert not (tmp_path / "nope").exists()


@pytest.mark.parametrize("profile", ["rfc9980", "rfc9980-high", "rfc9980-v4"])
def test_post_quantum_keys_sign_encrypt_decrypt_verify(profile):
    """RFC 9980 keys: composite ML-DSA+EdDSA signatures (v6; the v4 profile
    signs with Ed25519) and ML-KEM+ECDH encryption subkeys."""
    key = openpgp.generate_key("Dave <dave@example.org>", profile=profile)
    cert = openpgp.extract_cert(key)
    [info] = openpgp.inspect_keys(cert)
    assert info.version == (4 if profile == "rfc9980-v4" else 6) and info.can_encrypt and info.can_sign
    data = b"post-quantum\n" * 1000
    enc, out = io.BytesIO(), io.BytesIO()
    openpgp.encrypt_stream(io.BytesIO(data), enc, recipients=[cert], sign_with=key)
    res = openpgp.decrypt_stream(io.BytesIO(enc.getvalue()), out, keys=key, verify_with=cert)
    assert out.getvalue() == data and res.verified
    signed = openpgp.sign(data, key, detached=True)
    assert [v.status for v in openpgp.verify(data, cert, signature=signed).verifications] == ["good"]
    with pytest.raises(openpgp.SignatureError):
        openpgp.verify(data + b"!", cert, signature=signed)
