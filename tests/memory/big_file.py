#!/usr/bin/env python3
"""Reading a large file line by line runs in bounded memory (issue 33, "Bad input").

    big_file.py --ppy PATH/TO/ppy read_lines.ppy [--mb 200] [--native-mib 64]
                [--interp-mb 20] [--interp-mib 200]

Writes a text file of --mb megabytes (lines of 20 to 120 characters, some non-ASCII),
runs read_lines.ppy over it as a --standalone executable (the LLVM road) and,
over a --interp-mb file, in the interpreter; each child's peak resident set
(getrusage of the waited-for child, memory_bound.py's probe) must stay under its
limit, whatever the file's size, and its output must be python3's.
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from memory_bound import run_measured  # noqa: E402


def write_text(path, megabytes):
    words = ["alpha", "beta", "gamma", "délta", "epsilon", "zeta", "ēta", "theta", "iota", "kappa"]
    line_no = 0
    target = megabytes * 1_000_000
    written = 0
    with open(path, "w", encoding="utf-8") as f:
        while written < target:
            block = []
            for _ in range(10000):
                n = 3 + line_no % 17
                block.append(" ".join(words[(line_no + k) % len(words)] for k in range(n)) + f" {line_no}\n")
                line_no += 1
            text = "".join(block)
            f.write(text)
            written += len(text.encode("utf-8"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", required=True)
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--native-mib", type=float, default=64)
    ap.add_argument("--interp-mb", type=int, default=20)
    ap.add_argument("--interp-mib", type=float, default=200)
    ap.add_argument("program")
    args = ap.parse_args()
    problems = []
    with tempfile.TemporaryDirectory(prefix="ppy-bigfile-") as tmp:
        built = subprocess.run([args.ppy, "build", args.program, "--backend", "llvm", "--standalone", "-O", "2",
                                "-o", tmp], capture_output=True, text=True)
        if built.returncode != 0:
            print(f"FAIL: ppy build --standalone failed:\n{built.stderr[-2000:]}")
            return 1
        exe = built.stdout.strip().splitlines()[-1]
        for road, mb, limit in (("native", args.mb, args.native_mib), ("interp", args.interp_mb, args.interp_mib)):
            text = os.path.join(tmp, f"big-{mb}.txt")
            if not os.path.exists(text):
                write_text(text, mb)
            want = subprocess.run([sys.executable, args.program, text], capture_output=True, text=True).stdout
            cmd = [exe, text] if road == "native" else [args.ppy, "run", "--interp", args.program, "--", text]
            status, out, mib, err = run_measured(cmd)
            size = os.path.getsize(text) / 1e6
            print(f"{road}: {size:.0f} MB file, exit {status}, peak RSS {mib:.1f} MiB (limit {limit} MiB), {out.strip()}")
            if status != 0:
                problems.append(f"{road}: exit {status}: {err[-1000:]}")
            if mib > limit:
                problems.append(f"{road}: peak RSS {mib:.1f} MiB over {limit} MiB for a {size:.0f} MB file")
            if out != want:
                problems.append(f"{road}: printed {out!r}, python3 {want!r}")
    for p in problems:
        print("FAIL " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
