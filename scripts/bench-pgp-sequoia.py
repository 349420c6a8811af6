"""Sequoia (through pysequoia) side of scripts/bench-pgp: one operation on
files, timed inside the process (interpreter start-up not counted).

    bench-pgp-sequoia.py encrypt IN OUT CERT...
    bench-pgp-sequoia.py decrypt IN OUT KEY
    bench-pgp-sequoia.py sign-encrypt IN OUT SIGNKEY CERT
    bench-pgp-sequoia.py decrypt-verify IN OUT KEY SIGNCERT
    bench-pgp-sequoia.py keys DIR      (writes x1..x3 and r1..r3 .key/.cert)

Prints `<seconds> <MiB/s of the plaintext>` like tessera's pgp_files example.
"""

import os
import sys
import time

import pysequoia as sq


def keys(directory):
    suites = [("x", sq.Profile.RFC9580, sq.CipherSuite.Cv25519), ("r", sq.Profile.RFC4880, sq.CipherSuite.RSA3k)]
    for prefix, profile, suite in suites:
        for i in (1, 2, 3):
            name = f"{prefix}{i}"
            tsk = sq.Tsk.generate(f"{name} <{name}@example.org>", profile=profile, cipher_suite=suite)
            with open(os.path.join(directory, name + ".key"), "wb") as f:
                f.write(bytes(tsk))
            with open(os.path.join(directory, name + ".cert"), "wb") as f:
                f.write(bytes(tsk.extract_certificate()))


def main(argv):
    cmd, args = argv[0], argv[1:]
    if cmd == "keys":
        keys(args[0])
        return
    start = time.perf_counter()
    if cmd == "encrypt":
        certs = [sq.Cert.from_file(p) for p in args[2:]]
        sq.encrypt_file(args[0], args[1], recipients=certs, armor=False)
        size = os.path.getsize(args[0])
    elif cmd == "decrypt":
        sq.decrypt_file(args[0], args[1], decryptor=sq.Tsk.from_file(args[2]).decryptor())
        size = os.path.getsize(args[1])
    elif cmd == "sign-encrypt":
        signer = sq.Tsk.from_file(args[2]).signer()
        sq.encrypt_file(args[0], args[1], recipients=[sq.Cert.from_file(args[3])], signer=signer, armor=False)
        size = os.path.getsize(args[0])
    elif cmd == "decrypt-verify":
        cert = sq.Cert.from_file(args[3])
        result = sq.decrypt_file(
            args[0], args[1], decryptor=sq.Tsk.from_file(args[2]).decryptor(), store=lambda _ids: [cert]
        )
        if not result.valid_sigs:
            raise SystemExit("no valid signature")
        size = os.path.getsize(args[1])
    else:
        raise SystemExit(__doc__)
    secs = time.perf_counter() - start
    print(f"{secs:.3f} {size / (1 << 20) / secs:.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
