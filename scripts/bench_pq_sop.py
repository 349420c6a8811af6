"""RFC 9980 through whole SOP processes, tessera-sop beside rsop 0.12 (rPGP)
in the same run (scripts/bench): each operation once a process on a small
message, per key profile, and 1 GiB encrypted to and decrypted by one
recipient. Prints Markdown. Needs rsop (scripts/install-tools)."""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_cli import best

TESSERA = "target/release/tessera-sop"
RUNS = int(os.environ.get("PQ_RUNS", "11"))
PROFILES = ["rfc9580", "rfc9980", "rfc9980-high", "rfc9980-v4"]


def rsop():
    home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
    found = shutil.which("rsop") or (str(home / "bin/rsop") if (home / "bin/rsop").exists() else None)
    if not found:
        raise SystemExit("rsop is missing: run scripts/install-tools")
    return found


def run(cmd, stdin=b""):
    return subprocess.run(cmd, input=stdin, capture_output=True, check=True).stdout


def median_ms(cmd, stdin=b""):
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def operations(sop, profile, d, made_by):
    """Milliseconds of generate-key, encrypt, decrypt, sign and verify with
    `profile`; a profile `sop` cannot generate uses the key `made_by` made
    (generate-key is None then)."""
    key, cert = d / f"{profile}.key", d / f"{profile}.cert"
    gen = [sop, "generate-key", f"--profile={profile}", "Bench <bench@example.org>"]
    try:
        key.write_bytes(run(gen))
        gen_ms = median_ms(gen)
    except subprocess.CalledProcessError:
        key.write_bytes((made_by / f"{profile}.key").read_bytes())
        gen_ms = None
    cert.write_bytes(run([sop, "extract-cert"], key.read_bytes()))
    msg = os.urandom(1024)
    ct = run([sop, "encrypt", str(cert)], msg)
    sig = d / f"{profile}.sig"
    sig.write_bytes(run([sop, "sign", str(key)], msg))
    return [
        gen_ms,
        median_ms([sop, "encrypt", str(cert)], msg),
        median_ms([sop, "decrypt", str(key)], ct),
        median_ms([sop, "sign", str(key)], msg),
        median_ms([sop, "verify", str(sig), str(cert)], msg),
    ]


def per_operation(peer, d):
    print(f"Milliseconds per whole process, median of {RUNS}, a 1 KiB message (process start-up included:")
    print("`tessera-sop version` and `rsop version` take the first row). rsop cannot generate an")
    print("`rfc9980-high` key (ML-DSA-87+Ed448, ML-KEM-1024+X448): it uses tessera's.\n")
    print("| profile | implementation | generate-key | encrypt | decrypt | sign | verify |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, sop in [("tessera-sop", TESSERA), ("rsop", peer)]:
        print(f"| (start-up) | {name} | {median_ms([sop, 'version']):.1f} | | | | |")
    for profile in PROFILES:
        for name, sop in [("tessera-sop", TESSERA), ("rsop", peer)]:
            (d / name).mkdir(exist_ok=True)
            ms = operations(sop, profile, d / name, d / "tessera-sop")
            cells = " | ".join("–" if m is None else f"{m:.1f}" for m in ms)
            print(f"| {profile} | {name} | {cells} |")
    print()


def large_file(peer, d):
    size = int(os.environ.get("PQ_FILE_MIB", "1024"))
    data = d / "data"
    with open(data, "wb") as f:
        block = os.urandom(1 << 20)
        for _ in range(size):
            f.write(block)
    print(f"{size} MiB through one recipient, stdin to stdout (best wall and CPU of 3, peak RSS):\n")
    print("| profile | implementation | encrypt wall s | CPU s | RSS MiB | decrypt wall s | CPU s | RSS MiB |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for profile in ["rfc9580", "rfc9980"]:
        for name, sop in [("tessera-sop", TESSERA), ("rsop", peer)]:
            key, cert = d / name / f"{profile}.key", d / name / f"{profile}.cert"
            enc = best([sop, "encrypt", "--no-armor", str(cert)], data, d / "ct", 3)
            dec = best([sop, "decrypt", str(key)], d / "ct", d / "pt", 3)
            assert os.path.getsize(d / "pt") == size << 20
            print(f"| {profile} | {name} | {enc[0]:.2f} | {enc[1]:.2f} | {enc[2]:.1f} | {dec[0]:.2f} | {dec[1]:.2f} | {dec[2]:.1f} |")
    print()


def main():
    peer = rsop()
    print(f"`python3 scripts/bench_pq_sop.py`: rsop ({run([peer, 'version']).decode().strip()}) beside "
          f"{run([TESSERA, 'version']).decode().strip()}.\n")
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR", "/tmp")) as tmp:
        d = Path(tmp)
        per_operation(peer, d)
        large_file(peer, d)


if __name__ == "__main__":
    sys.exit(main())
