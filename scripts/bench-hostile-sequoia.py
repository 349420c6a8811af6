"""Sequoia (through pysequoia) side of scripts/bench-hostile: the same cases
as tessera's examples/hostile_certs on the files it wrote, timed inside the
process (interpreter start-up not counted).

    bench-hostile-sequoia.py DIR CASE

Prints `<seconds> <verdict>`.
"""

import os
import sys
import time

import pysequoia as sq


def main(directory, case):
    def read(name):
        with open(os.path.join(directory, name), "rb") as f:
            return f.read()

    start = time.perf_counter()
    files = {
        "validate-flood": "flood.cert",
        "validate-subkeys": "subkeys.cert",
        "validate-uid": "uid.cert",
        "validate-rsa": "rsa.cert",
        "validate-ring": "ring.certs",
    }
    if case in files:
        try:
            certs = sq.Cert.split_bytes(read(files[case]))
            # Revocation and expiry under the standard policy now.
            valid = sum(1 for c in certs if not c.is_revoked and c.expiration is None)
            verdict = f"{valid} of {len(certs)} valid"
        except Exception as e:  # noqa: BLE001 - a refusal is a verdict here
            verdict = f"refused: {e}"
    else:
        cert_file, sig_file = {
            "verify-flood": ("flood.cert", "good.sig"),
            "verify-ring-issuerless": ("ring.certs", "issuerless.sig"),
            "verify-subkeys-issuerless": ("subkeys.cert", "issuerless.sig"),
        }[case]
        try:
            certs = sq.Cert.split_bytes(read(cert_file))
            sig = sq.Sig.from_bytes(read(sig_file))
            r = sq.verify(bytes=read("data"), store=lambda ids: certs, signature=sig)
            verdict = f"{len(r.valid_sigs)} good"
        except Exception as e:  # noqa: BLE001
            verdict = f"refused: {str(e).splitlines()[0]}"
    print(f"{time.perf_counter() - start:.3f} {verdict}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
