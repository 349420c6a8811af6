"""The library tables of BENCHMARKS.md (run by scripts/bench): FPE batches and
single values against the AES floor at every TESSERA_CPU level this CPU has,
AES-SIV seal + open against the `aes-siv` crate, OCB kernels. Runs the
release examples `fpe_cputime` and `aead_cputime`; prints Markdown."""

import os
import re
import subprocess
import sys

EX = "target/release/examples"
N = os.environ.get("FPE_VALUES", "20000000")


def run(args, level=None):
    env = dict(os.environ)
    if level:
        env["TESSERA_CPU"] = level
    return subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout


def levels():
    flags = set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
    out = []
    if {"avx512f", "avx512bw", "avx512vl", "vaes"} <= flags:
        out.append("avx512")
    if {"avx2", "vaes"} <= flags:
        out.append("vaes256")
    if "avx2" in flags:
        out.append("avx2")
    if "aes" in flags:
        out.append("aesni")
    return out


def fpe(lvls):
    ratio = re.compile(r"^(.*): ([\d.]+) ns, ([\d.]+)x floor \(median of \d+ rounds; ([\d.]+)-([\d.]+)\)")
    table, order = {}, []
    for lv in lvls:
        for line in run([f"{EX}/fpe_cputime", N, "paired"], lv).splitlines():
            m = ratio.match(line)
            if m:
                name = m.group(1)
                if name not in table:
                    order.append(name)
                    table[name] = {}
                table[name][lv] = f"{float(m.group(3)):.2f}x ({float(m.group(2)):.1f} ns)"
    print(f"`{EX}/fpe_cputime {N} paired` with `TESSERA_CPU` at each level (levels below the CPU's are capped,")
    print("kernels and floor alike). Each cell: the median of 9 per-round ratios to the AES floor measured in the same")
    print("round (the floor is 10 AES blocks per FF1 value, 8 per FF3-1 value, pipelined for batches and dependent for")
    print("one value), and the median time per value.\n")
    print("| row | " + " | ".join(f"`{lv}`" for lv in lvls) + " |")
    print("|---|" + "---|" * len(lvls))
    for name in order:
        print(f"| {name} | " + " | ".join(table[name].get(lv, "") for lv in lvls) + " |")
    print()


def siv(lvls):
    line = re.compile(r"aes-siv / tessera ([\d.]+)x, tessera / floor ([\d.]+)")
    timing = re.compile(r"^(tessera|aes-siv\S*|floor\S*)\s+([\d.]+) / ([\d.]+)")
    rows = []
    for lv in lvls:
        out = run([f"{EX}/aead_cputime", "siv-wall"], lv)
        m = line.search(out)
        times = {t.group(1): t.group(3) for t in map(timing.match, out.splitlines()) if t}
        if m:
            rows.append((lv, m.group(1), m.group(2), times.get("tessera", "")))
    print(f"AES-SIV, 1000-byte messages with 100 bytes of associated data, seal + open (`{EX}/aead_cputime siv-wall`:")
    print("interleaved wall-clock rounds; the floor is the two dependent AES chains S2V and CTR need, 126 blocks).\n")
    print("| level | `aes-siv` 0.8 / tessera | tessera / floor | tessera ns per seal + open (median) |")
    print("|---|---:|---:|---:|")
    for lv, speedup, floor, ns in rows:
        print(f"| `{lv}` | {speedup}x | {floor} | {ns} |")
    print()


def ocb():
    out = run([f"{EX}/aead_cputime", "ocb"])
    print(f"OCB (AES-128) kernels, `{EX}/aead_cputime ocb`:\n")
    print("| kernel | size | seal GiB/s | open GiB/s |")
    print("|---|---:|---:|---:|")
    for line in out.splitlines():
        m = re.match(r"^(\S+)\s+(\d+) KiB\s+([\d.]+)\s+([\d.]+)", line)
        if m:
            print(f"| {m.group(1)} | {m.group(2)} KiB | {m.group(3)} | {m.group(4)} |")
    print()


def single():
    out = run([f"{EX}/fpe_cputime", "2000000"])
    print(f"FPE one value at a time and in batches on the default level (`{EX}/fpe_cputime 2000000`):\n")
    print("```")
    print(out.rstrip())
    print("```\n")


def main():
    lvls = levels()
    if not lvls:
        sys.exit("no AES-NI: the library tables need it")
    fpe(lvls)
    single()
    siv(lvls)
    ocb()


main()
