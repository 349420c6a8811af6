"""tessera.openpgp certificate management: revocation certificates, merging
copies of a certificate, updating keys, certifying and validating User IDs;
what tessera writes read the same way by Sequoia (pysequoia), and Sequoia's
revocations read by tessera."""

import time

import pytest

import tessera
from tessera import openpgp

PW = "key password"


@pytest.fixture(scope="module", params=["rfc9580", "rfc4880"])
def alice(request):
    return openpgp.generate_key("Alice <alice@example.org>", profile=request.param)


@pytest.fixture(scope="module")
def bob():
    return openpgp.generate_key("Bob <bob@example.org>", password=PW)


def test_revoke_key_makes_a_revocation_certificate(alice, bob):
    cert = openpgp.extract_cert(alice)
    rev = openpgp.revoke_key(alice)
    assert rev.startswith(b"-----BEGIN PGP PUBLIC KEY BLOCK-----")
    [info] = openpgp.inspect_keys(rev)
    assert not info.secret and "revoked" in info.problem
    merged = openpgp.merge_certs(cert, rev)
    assert merged == rev
    assert "revoked" in openpgp.inspect_keys(merged)[0].problem
    soft = openpgp.revoke_key(alice, reason="retired", message="moved on", armor=False)
    assert "reason 3: moved on" in openpgp.inspect_keys(soft)[0].problem
    with pytest.raises(tessera.KeyLockedError):
        openpgp.revoke_key(bob)
    assert openpgp.revoke_key(bob, key_password=["wrong", PW])
    with pytest.raises(ValueError, match="reason"):
        openpgp.revoke_key(alice, reason="lost")
    with pytest.raises(tessera.InvalidKeyError, match="no secret key"):
        openpgp.revoke_key(cert)


def test_merge_certs_keeps_the_base_only(alice, bob):
    cert, other = openpgp.extract_cert(alice), openpgp.extract_cert(bob)
    assert openpgp.merge_certs(cert, cert) == cert
    assert openpgp.merge_certs(cert, other) == cert
    both = openpgp.merge_certs([cert, other], [openpgp.revoke_key(alice)])
    infos = openpgp.inspect_keys(both)
    assert len(infos) == 2 and "revoked" in infos[0].problem and infos[1].problem is None


def test_update_key_renews_expiry_and_adds_capabilities(alice, bob):
    assert openpgp.update_key(alice) == alice
    longer = openpgp.update_key(alice, expires_in=30 * 86_400)
    assert openpgp.inspect_keys(longer)[0].problem is None
    locked = openpgp.update_key(bob, key_password=PW, expires_in=86_400)
    [info] = openpgp.inspect_keys(locked)
    assert info.locked and info.problem is None
    with pytest.raises(tessera.KeyLockedError):
        openpgp.update_key(bob, expires_in=86_400)
    with pytest.raises(tessera.InvalidKeyError, match="no secret key"):
        openpgp.update_key(openpgp.extract_cert(alice))


def test_certify_and_validate(alice, bob):
    bob_cert = openpgp.extract_cert(bob)
    alice_cert = openpgp.extract_cert(alice)
    uid = "Bob <bob@example.org>"
    assert openpgp.validate_userid(bob_cert, uid, bob_cert)
    assert not openpgp.validate_userid(bob_cert, uid, alice_cert)
    certified = openpgp.certify_userid(alice, bob_cert, uid)
    assert openpgp.validate_userid(certified, uid, alice_cert)
    assert openpgp.validate_userid(certified, "bob@example.org", [alice_cert], email=True)
    assert not openpgp.validate_userid(certified, uid, alice_cert, at=1_000_000_000)
    with pytest.raises(tessera.InvalidKeyError, match="not bound"):
        openpgp.certify_userid(alice, bob_cert, "Bobby")
    pet = openpgp.certify_userid(alice, bob_cert, ["Bobby"], require_self_sig=False)
    assert openpgp.validate_userid(pet, "Bobby", alice_cert)
    assert not openpgp.validate_userid(pet, "Bobby", bob_cert)
    revoked_alice = openpgp.revoke_key(alice)
    assert not openpgp.validate_userid(certified, uid, revoked_alice)


def sequoia():
    return pytest.importorskip("pysequoia")


def test_sequoia_reads_revocations_and_expiry(alice):
    sq = sequoia()
    assert sq.Cert.from_bytes(openpgp.revoke_key(alice)).is_revoked
    assert not sq.Cert.from_bytes(openpgp.extract_cert(alice)).is_revoked
    updated = openpgp.update_key(alice, expires_in=10 * 86_400)
    expiration = sq.Cert.from_bytes(openpgp.extract_cert(updated)).expiration
    assert abs(expiration.timestamp() - (time.time() + 10 * 86_400)) < 60


def test_tessera_reads_sequoia_revocations():
    sq = sequoia()
    key = sq.Tsk.generate("Seq <seq@example.org>")
    public = bytes(key.extract_certificate())
    revocation = bytes(key.extract_certificate().revoke(key.certifier()))
    revoked = openpgp.merge_certs(public, public + revocation)
    assert openpgp.validate_userid(public, "Seq <seq@example.org>", public)
    assert not openpgp.validate_userid(revoked, "Seq <seq@example.org>", public)
