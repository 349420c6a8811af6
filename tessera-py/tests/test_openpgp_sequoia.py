"""Cross-checks with Sequoia (pysequoia from PyPI), both ways: keys made by
one side used by the other to encrypt, sign, decrypt and verify."""

import io

import pytest

from tessera import openpgp

sq = pytest.importorskip("pysequoia")

DATA = b"interop payload\n" * 20_000


def sq_profile(profile):
    return sq.Profile.RFC9580 if profile == "rfc9580" else sq.Profile.RFC4880


@pytest.fixture(scope="module", params=["rfc9580", "rfc4880"])
def keys(request):
    """A tessera key and a Sequoia key of the same profile."""
    profile = request.param
    t_key = openpgp.generate_key("Tess <tess@example.org>", profile=profile)
    s_key = sq.Tsk.generate("Seq <seq@example.org>", profile=sq_profile(profile))
    return t_key, s_key


def test_sequoia_encrypts_and_signs_tessera_decrypts_and_verifies(tmp_path, keys):
    t_key, s_key = keys
    t_cert = sq.Cert.from_bytes(openpgp.extract_cert(t_key))
    s_cert = str(s_key.extract_certificate()).encode()
    # Signed by the Sequoia key, and by the tessera key loaded into Sequoia.
    for signer, verify_with in [(s_key.signer(), s_cert), (sq.Tsk.from_bytes(t_key).signer(), openpgp.extract_cert(t_key))]:
        msg = sq.encrypt(DATA, recipients=[t_cert], signer=signer, armor=False)
        (tmp_path / "m").write_bytes(msg)
        res = openpgp.decrypt_file(tmp_path / "m", tmp_path / "out", keys=t_key, verify_with=verify_with)
        assert (tmp_path / "out").read_bytes() == DATA and res.verified
        out = io.BytesIO()
        assert openpgp.decrypt_stream(io.BytesIO(msg), out, keys=t_key, verify_with=verify_with).verified
        assert out.getvalue() == DATA
        # Someone else's certificate finds no good signature.
        with pytest.raises(openpgp.SignatureError):
            openpgp.decrypt_file(tmp_path / "m", tmp_path / "bad", keys=t_key,
                                 verify_with=openpgp.extract_cert(openpgp.generate_key("Eve")))
        assert not (tmp_path / "bad").exists()
    # Sequoia's detached, inline and cleartext signatures verify in tessera.
    for mode in (sq.SignatureMode.DETACHED, sq.SignatureMode.INLINE, sq.SignatureMode.CLEAR):
        sig = sq.sign(s_key.signer(), DATA[:992], mode=mode)
        if mode == sq.SignatureMode.DETACHED:
            assert openpgp.verify(DATA[:992], s_cert, signature=sig).verifications[0].good
        else:
            assert openpgp.verify(sig, s_cert).data.rstrip(b"\n") == DATA[:992].rstrip(b"\n")


def test_tessera_encrypts_and_signs_sequoia_decrypts_and_verifies(tmp_path, keys):
    t_key, s_key = keys
    s_cert = str(s_key.extract_certificate()).encode()
    t_cert = openpgp.extract_cert(t_key)
    (tmp_path / "in").write_bytes(DATA)
    openpgp.encrypt_file(tmp_path / "in", tmp_path / "m", recipients=[s_cert, t_cert], sign_with=t_key, armor=True)
    store = lambda _ids: [sq.Cert.from_bytes(t_cert)]  # noqa: E731
    res = sq.decrypt((tmp_path / "m").read_bytes(), decryptor=s_key.decryptor(), store=store)
    assert res.bytes == DATA and len(res.valid_sigs) == 1
    # The tessera key, loaded into Sequoia, decrypts too.
    res = sq.decrypt((tmp_path / "m").read_bytes(), decryptor=sq.Tsk.from_bytes(t_key).decryptor(), store=store)
    assert res.bytes == DATA and len(res.valid_sigs) == 1
    # tessera's detached and inline signatures verify in Sequoia.
    det = openpgp.sign(DATA, t_key, detached=True)
    assert len(sq.verify(DATA, store=store, signature=sq.Sig.from_bytes(det)).valid_sigs) == 1
    inline = openpgp.sign(DATA, t_key, armor=True)
    got = sq.verify(inline, store=store)
    assert got.bytes == DATA and len(got.valid_sigs) == 1
