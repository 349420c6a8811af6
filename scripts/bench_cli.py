"""The whole-process tables of BENCHMARKS.md (run by scripts/bench): OpenPGP
encryption and decryption of 256 MiB through the CLI beside rPGP and
`openssl enc` (scripts/bench-pgp-threads), SEIPD v1 (GnuPG 2.2's format) of
256 MiB beside `gpg -z0`, signatures of 256 MiB beside `openssl dgst`,
`tessera siv encrypt` of 64 MiB
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
    """Wall s, CPU s (user + sys) and peak RSS MiB of one run of `cmd`. GNU
    time reports the command's own peak: a child forked from this
    interpreter would count the interpreter's pages in its ru_maxrss."""
    with tempfile.NamedTemporaryFile("r") as report, open(stdin, "rb") as i, open(stdout, "wb") as o:
        start = time.perf_counter()
        child = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", report.name, *cmd], stdin=i, stdout=o,
                               stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        if child.returncode != 0:
            raise SystemExit(f"{cmd} failed")
        user, system, rss_kib = report.read().split()[-3:]
    return wall, float(user) + float(system), int(rss_kib) / 1024


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


def gnupg_v1(d):
    """SEIPD v1 (CFB + MDC) of 256 MiB beside GnuPG 2.2 `-z0`: to a GnuPG RSA-3072 certificate and with a
    password (`--profile rfc4880`); each side encrypts the file, and both decrypt gpg's message. GNUPG_V1_MIB
    sets the size (default 256)."""
    home = d / "gnupg"
    home.mkdir(mode=0o700)
    g = ["gpg", "--homedir", str(home), "--batch", "--quiet", "--no-tty", "--pinentry-mode", "loopback",
         "--trust-model", "always"]
    subprocess.run(g + ["--passphrase", "", "--quick-gen-key", "Bench <bench@example.org>", "default", "default",
                        "never"], check=True, capture_output=True)
    with open(d / "cert", "wb") as f:
        subprocess.run(g + ["--export", "bench@example.org"], stdout=f, check=True)
    with open(d / "key", "wb") as f:
        subprocess.run(g + ["--passphrase", "", "--export-secret-keys", "bench@example.org"], stdout=f, check=True)
    (d / "pw").write_text("bench password\n")
    for secret in ("key", "pw"):
        (d / secret).chmod(0o600)
    mib = int(os.environ.get("GNUPG_V1_MIB", "256"))
    m = d / "m256"
    with open(m, "wb") as f:
        for _ in range(mib):
            f.write(os.urandom(1 << 20))
    pw = ["--s2k-count", "65536", "--s2k-digest-algo", "SHA256", "--cipher-algo", "AES256"]
    gsym = g + ["--passphrase-file", str(d / "pw")]
    # gpg's messages, which both sides decrypt.
    subprocess.run(g + ["-z0", "-r", "bench@example.org", "-o", str(d / "g.pk"), "-e", str(m)], check=True)
    subprocess.run(gsym + pw + ["-z0", "-o", str(d / "g.pw"), "--symmetric", str(m)], check=True)
    tpw = ["--profile", "rfc4880", "--s2k", "iterated", "--s2k-count", "96", "--password-file", str(d / "pw")]
    rows = [
        ("encrypt to a GnuPG 2.2 certificate", [T, "encrypt", "-r", str(d / "cert")], m,
         g + ["-z0", "-r", "bench@example.org", "-o", "-", "-e"], m),
        ("decrypt that (gpg's message)", [T, "decrypt", "-i", str(d / "key"), "-o", str(d / "out.t")], d / "g.pk",
         g + ["--yes", "-o", str(d / "out.g"), "-d"], d / "g.pk"),
        ("password, `--profile rfc4880`", [T, "encrypt"] + tpw, m, gsym + pw + ["-z0", "-o", "-", "--symmetric"], m),
        ("decrypt that (gpg's message)", [T, "decrypt", "--password-file", str(d / "pw"), "-o", str(d / "out.t")],
         d / "g.pw", gsym + ["--yes", "-o", str(d / "out.g"), "-d"], d / "g.pw"),
    ]
    print(f"SEIPD v1 (CFB + SHA-1 MDC, what GnuPG 2.2 reads and writes), {mib} MiB, beside GnuPG 2.2 `-z0` (no")
    print("compression); AES-256; to an RSA-3072 certificate made by gpg, or a password with the iterated S2K at")
    print("65536 octets on both sides. Encryption from stdin to stdout; decryption of gpg's message on both sides")
    print("into a file on /dev/shm (tessera releases SEIPD v1 plaintext only once the MDC verifies: to stdout it")
    print("would spool it first); best of 3:\n")
    print(f"| SEIPD v1, {mib} MiB | tessera wall s | tessera CPU s | peak RSS MiB | gpg wall s | gpg CPU s | gpg / tessera (wall) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, tcmd, tin, gcmd, gin in rows:
        t = best(tcmd, tin, runs=3)
        p = best(gcmd, gin, runs=3)
        print(f"| {label} | {t[0]:.3f} | {t[1]:.3f} | {t[2]:.0f} | {p[0]:.3f} | {p[1]:.3f} | {p[0] / t[0]:.1f}x |")
    key, iv = "11" * 32, "00" * 16
    cfb = best(["openssl", "enc", "-aes-256-cfb", "-K", key, "-iv", iv], m, runs=3)
    sha = best(["openssl", "dgst", "-sha1"], m, runs=3)
    print("\nThe floors, same file: the CFB chain alone (`openssl enc -aes-256-cfb`, serial like SEIPD v1")
    print(f"encryption) {cfb[0]:.3f} s wall; SHA-1 alone (`openssl dgst -sha1`, the MDC) {sha[0]:.3f} s wall. gpg's")
    print("CPU time leaves out gpg-agent's, which does its RSA decryption.\n")
    subprocess.run(["gpgconf", "--homedir", str(home), "--kill", "gpg-agent"], check=False)


def signing(d):
    """Detached signatures of 256 MiB with SHA2-256 and SHA2-512 beside `openssl dgst` (the hash alone, the
    floor), and sign+encrypt to a v6 certificate with the default hash beside that hash's floor."""
    key, cert = d / "sig.key", d / "sig.cert"
    subprocess.run([T, "key", "generate", "--profile", "rfc9580", "--userid", "Bench <bench@example.org>",
                    "--no-password", "-o", str(key)], check=True, capture_output=True)
    with open(cert, "wb") as f:
        subprocess.run([T, "key", "cert", str(key)], stdout=f, check=True)
    m = d / "m256"
    with open(m, "wb") as f:
        for _ in range(256):
            f.write(os.urandom(1 << 20))
    print("Signatures, 256 MiB, from stdin, by a v6 Ed25519 key (`tessera key generate --profile rfc9580`); the")
    print("floor is `openssl dgst` of the same file (the hash is all a signature of large data costs); best of 3:\n")
    print("| command | wall s | CPU s | floor | floor wall s | tessera / floor (throughput) |")
    print("|---|---:|---:|---|---:|---:|")
    floors = {h: best(["openssl", "dgst", f"-{h.lower()}"], m, runs=3) for h in ("SHA256", "SHA512")}
    rows = [(f"`tessera sign -b --hash {h}`", [T, "sign", "-b", "-i", str(key), "--hash", h], h)
            for h in ("SHA256", "SHA512")]
    rows.append(("`tessera encrypt --sign-with` (default hash, SHA256)",
                 [T, "encrypt", "-r", str(cert), "--sign-with", str(key)], "SHA256"))
    signed = d / "signed.pgp"
    subprocess.run([T, "encrypt", "-r", str(cert), "--sign-with", str(key), "-o", str(signed), str(m)], check=True)
    out = d / "out"
    rows.append(("`tessera decrypt --verify-with` of that, to a file", [T, "decrypt", "-i", str(key), "--verify-with",
                 str(cert), "-o", str(out)], "SHA256"))
    for label, cmd, h in rows:
        runs = []
        for _ in range(3):
            out.unlink(missing_ok=True)  # decrypt -o never replaces a file
            runs.append(timed(cmd, signed if "decrypt" in cmd else m))
        t = (min(r[0] for r in runs), min(r[1] for r in runs))
        f = floors[h]
        print(f"| {label} | {t[0]:.3f} | {t[1]:.3f} | `openssl dgst -{h.lower()}` | {f[0]:.3f} | {f[0] / t[0]:.0%} |")
    print()


def main():
    pgp()
    # In memory where there is a tmpfs: tessera syncs a decrypted file before renaming it into place, gpg does
    # not, and on a disk the sync would be what is timed.
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=shm) as tmp:
        gnupg_v1(Path(tmp))
    with tempfile.TemporaryDirectory(dir=shm) as tmp:
        signing(Path(tmp))
    with tempfile.TemporaryDirectory() as tmp:
        siv_and_fpe(Path(tmp))


if __name__ == "__main__":
    main()
