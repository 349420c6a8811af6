"""The whole-process tables of BENCHMARKS.md (run by scripts/bench): OpenPGP
encryption and decryption of 256 MiB through the CLI beside rPGP and
`openssl enc` (scripts/bench-pgp-threads), `tessera siv encrypt` of 64 MiB
beside the `aes-siv` crate, and `tessera fpe encrypt` of 4,000,000 values at
1 and every thread. Prints Markdown."""

import os
import random
import re
import subprocess
import tempfile
import time
from pathlib import Path

T = "target/release/tessera"
P = "target/release/examples/cli_peers"


def timed(cmd, stdin, stdout=os.devnull):
    """Wall s, CPU s (user + sys) and peak RSS MiB of one run of `cmd`."""
    start = time.perf_counter()
    with open(stdin, "rb") as i, open(stdout, "wb") as o:
        child = subprocess.Popen(cmd, stdin=i, stdout=o)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if child.returncode != 0:
        raise SystemExit(f"{cmd} failed")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def best(cmd, stdin, stdout=os.devnull, runs=5):
    results = [timed(cmd, stdin, stdout) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results), max(r[2] for r in results)


def pgp():
    out = subprocess.run(["scripts/bench-pgp-threads"], env={**os.environ, "REPS": "3"}, capture_output=True,
                         text=True, check=True).stdout
    row = re.compile(r"^(.+?)\s+wall\s+([\d.]+) s =\s+(\d+) MiB/s\s+CPU\s+([\d.]+) s =\s+(\d+) MiB/s\s+peak RSS\s+([\d.]+) MiB")
    rows = [m.groups() for m in map(row.match, out.splitlines()) if m]
    wall = {r[0].strip(): float(r[1]) for r in rows}
    print("OpenPGP, 256 MiB, stdin to stdout (`scripts/bench-pgp-threads`: password message, AES-128 OCB, 256 KiB")
    print("chunks, as the rPGP peer writes; best wall and CPU time of 3 means of 5 runs, peak RSS):\n")
    print("| command | wall s | MiB/s | CPU s | peak RSS MiB | rPGP / tessera (wall) |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, w, mibs, cpu, _, rss in rows:
        label = label.strip()
        peer = ""
        if label.startswith("tessera"):
            op = "encrypt" if "encrypt" in label else "decrypt"
            rp = wall.get(f"rPGP (pgp 0.21) {op}")
            peer = f"{rp / float(w):.1f}x" if rp else ""
        print(f"| `{label}` | {w} | {mibs} | {cpu} | {rss} | {peer} |")
    print()


def siv_and_fpe(d):
    (d / "ksiv").write_text("00" * 32)
    (d / "k32").write_text("11" * 32)
    (d / "m").write_bytes(os.urandom(64 << 20))
    t = best([T, "siv", "encrypt", "--key-file", str(d / "ksiv")], d / "m")
    a = best([P, "siv-encrypt", str(d / "ksiv")], d / "m")
    rng = random.Random(1)
    n = int(os.environ.get("FPE_LINES", "4000000"))
    (d / "v").write_text("".join("".join(rng.choice("0123456789") for _ in range(16)) + "\n" for _ in range(n)))
    cores = os.cpu_count() or 1
    f1 = best([T, "fpe", "encrypt", "--key-file", str(d / "k32"), "--threads", "1"], d / "v", d / "o1", 3)
    fn = best([T, "fpe", "encrypt", "--key-file", str(d / "k32"), "--threads", str(cores)], d / "v", d / "on", 3)
    assert (d / "o1").read_bytes() == (d / "on").read_bytes()
    print("AES-SIV and FPE through the CLI (best of 5 and of 3 runs; outputs of 1 and every thread identical):\n")
    print("| command | wall s | CPU s | peak RSS MiB | peer | peer CPU s | peer / tessera (CPU) |")
    print("|---|---:|---:|---:|---|---:|---:|")
    print(f"| `tessera siv encrypt`, 64 MiB | {t[0]:.3f} | {t[1]:.3f} | {t[2]:.0f} | `aes-siv` 0.8 (`cli_peers`) | {a[1]:.3f} | {a[1] / t[1]:.1f}x |")
    print(f"| `tessera fpe encrypt --threads 1`, {n:,} 16-digit lines | {f1[0]:.3f} | {f1[1]:.3f} | {f1[2]:.0f} | | | |")
    print(f"| `tessera fpe encrypt --threads {cores}`, same | {fn[0]:.3f} | {fn[1]:.3f} | {fn[2]:.0f} | | | |")
    print()


def main():
    pgp()
    with tempfile.TemporaryDirectory() as tmp:
        siv_and_fpe(Path(tmp))


main()
