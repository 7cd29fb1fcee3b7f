#!/usr/bin/env python3
"""The collector works: a program allocating ~1 GiB of strings in a loop runs
in bounded memory, natively (a --standalone executable) and in the interpreter.

    memory_bound.py --ppy PATH/TO/ppy PROGRAM.ppy [--native-mib 64] [--interp-mib 200]

Each road runs as a child process of its own; its peak resident set (max RSS,
getrusage of the waited-for child) must stay under the limit, and its output
must be the same on both roads.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile


def run_measured(cmd):
    """(exit status, stdout, peak RSS in MiB) of `cmd` run as a child of a fresh helper."""
    probe = ("import resource, subprocess, sys\n"
             "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
             "sys.stderr.write(p.stderr)\n"
             "print(p.returncode)\n"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
             "sys.stdout.write(p.stdout)\n")
    p = subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True, timeout=600)
    lines = p.stdout.split("\n", 2)
    return int(lines[0]), lines[2], int(lines[1]) / 1024.0, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", required=True)
    ap.add_argument("--native-mib", type=float, default=64)
    ap.add_argument("--interp-mib", type=float, default=160)
    ap.add_argument("program")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ppy-memory-") as tmp:
        built = subprocess.run([args.ppy, "build", args.program, "--backend", "llvm", "--standalone", "-O", "2",
                                "-o", tmp], capture_output=True, text=True)
        if built.returncode != 0:
            print(f"FAIL: ppy build --standalone failed:\n{built.stderr[-2000:]}")
            return 1
        exe = built.stdout.strip().splitlines()[-1]
        problems = []
        results = {}
        for road, cmd, limit in (("native", [exe], args.native_mib),
                                 ("interp", [args.ppy, "run", "--interp", args.program], args.interp_mib)):
            status, out, mib, err = run_measured(cmd)
            results[road] = out
            print(f"{road}: exit {status}, peak RSS {mib:.1f} MiB (limit {limit} MiB)")
            if status != 0:
                problems.append(f"{road}: exit {status}: {err[-1000:]}")
            if mib > limit:
                problems.append(f"{road}: peak RSS {mib:.1f} MiB over {limit} MiB: the collector does not reclaim")
        if results.get("native") != results.get("interp"):
            problems.append(f"outputs differ: native {results.get('native')!r}, interp {results.get('interp')!r}")
        for p in problems:
            print("FAIL " + p)
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
