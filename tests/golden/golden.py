#!/usr/bin/env python3
"""Golden files of the source backends' readable shape: loops as loops, branches
as branches, source names kept.

    golden.py --ppy PATH/TO/ppy [--update]

Each case is `ppy emit FORMAT tests/programs/PROGRAM.ppy -O LEVEL [FLAGS]`; its
text (the C without the runtime it pastes in, which has its own tests) must equal
tests/golden/<format>/<program>-O<level>.<suffix>. `--update` rewrites the files
from what ppy writes now (review the diff before committing it).
"""

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "..", "programs")

# (program, format, level, suffix, flags)
CASES = [
    ("while_break_continue", "python", "2", "py", []),
    ("bubble_sort", "python", "2", "py", []),
    ("collatz", "python", "2", "py", []),
    ("primes_sieve", "python", "0", "py", []),
    ("nested_loops", "c", "2", "c", ["--standalone"]),
    ("binary_search", "c", "2", "c", []),
    ("export_decorator", "header", "2", "h", []),
]

RUNTIME_BEGIN = "/* ---- the ppy native runtime"
RUNTIME_END = "/* ---- end of the runtime ---- */"


def without_runtime(text):
    start = text.find(RUNTIME_BEGIN)
    end = text.find(RUNTIME_END)
    if start < 0 or end < 0:
        return text
    return text[:start] + "/* (the ppy native runtime) */" + text[end + len(RUNTIME_END):]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", required=True)
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()
    args.ppy = os.path.abspath(args.ppy)
    failures = 0
    for program, fmt, level, suffix, flags in CASES:
        # A copy in a fresh folder: the emit's artifact cache stays out of the tree.
        with tempfile.TemporaryDirectory(prefix="ppy-golden-") as tmp:
            source = os.path.join(tmp, program + ".ppy")
            shutil.copyfile(os.path.join(PROGRAMS, program + ".ppy"), source)
            p = subprocess.run([args.ppy, "emit", fmt, source, "-O", level, *flags], capture_output=True, text=True,
                               cwd=tmp)
        name = f"{fmt}/{program}-O{level}.{suffix}"
        if p.returncode != 0:
            print(f"FAIL {name}: ppy emit exited {p.returncode}\n{p.stderr}")
            failures += 1
            continue
        got = without_runtime(p.stdout)
        path = os.path.join(HERE, fmt, f"{program}-O{level}.{suffix}")
        if args.update:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(got)
            print(f"wrote {name}")
            continue
        try:
            with open(path, encoding="utf-8") as f:
                want = f.read()
        except FileNotFoundError:
            print(f"FAIL {name}: no golden file (run with --update)")
            failures += 1
            continue
        if got != want:
            print(f"FAIL {name}: the output's shape changed (golden.py --update, then review):")
            print("".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "golden", "now")))
            failures += 1
        else:
            print(f"ok {name}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
