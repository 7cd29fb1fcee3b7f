#!/usr/bin/env python3
"""Typical work (issue 35): each part a program of its own, ppy's native executable
against python3, PyPy and C (a benchmark, not a test).

    typical_bench.py --ppy BUILD/bin/ppy [--repeat 3] [--pgo] [PART ...]

Parts (tools/bench/typical/NAME.ppy, with NAME.c where C can say the same):
objects (float fields stepped in a loop), words (counting in a dict), fstrings
(f-string lines with format specs), join (string joining), bfs (a graph search
over dict[int, list[int]]), sort (records sorted with key=), interp (a stack
machine dispatching over a list of tuples).

Each figure is the best processor time (user + system, tools/bench/proc_time.py)
of --repeat runs, every run a process of its own; outputs are checked equal to
python3's first. Columns: python3, pypy3 (where installed; a note says so
otherwise), ppy (`ppy build --standalone -O2`), ppy with `--pgo` (--pgo: a
profile written by `ppy run --profile` of the same program), gcc -O2 and
clang-19 -O2 C. Ratios: python3/ppy (the target: at least 5), pypy3/ppy (the
target: above 1), ppy/gcc.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import proc_time  # noqa: E402

PARTS = ["objects", "words", "fstrings", "join", "bfs", "sort", "interp"]


def best(cmd, repeat, cwd):
    return proc_time.best_of(cmd, repeat, cwd=cwd)


def build(ppy, src, out, extra, cwd):
    subprocess.run([ppy, "build", src, "--standalone", "-O", "2", "-o", out, "-q"] + extra, check=True, cwd=cwd)
    return os.path.join(out, os.path.splitext(os.path.basename(src))[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", default=os.path.join(HERE, "..", "..", "..", "build", "bin", "ppy"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pgo", action="store_true", help="also a column built with a profile of the same program")
    ap.add_argument("parts", nargs="*")
    args = ap.parse_args()
    ppy = os.path.abspath(args.ppy)
    parts = args.parts or PARTS
    pypy = shutil.which("pypy3")
    gcc = shutil.which("gcc")
    clang = shutil.which("clang-19")
    notes = []
    if not pypy:
        notes.append("pypy3 is not installed (apt-get install pypy3): its column is empty")
    if not clang:
        notes.append("clang-19 is not installed (apt-get install clang-19): its column is empty")
    cols = ["python3", "pypy3", "ppy"] + (["ppy-pgo"] if args.pgo else []) + ["gcc", "clang"]
    print(f"== typical work (processor seconds, best of {args.repeat}; C at -O2)")
    print(f"{'part':<10}" + "".join(f"{c:>9}" for c in cols) + f"{'py/ppy':>9}{'pypy/ppy':>9}{'ppy/gcc':>9}")
    nan = float("nan")
    totals = {c: 0.0 for c in cols}
    work = tempfile.mkdtemp(prefix="ppy-typical-")
    try:
        for name in parts:
            src = os.path.join(work, name + ".ppy")
            shutil.copyfile(os.path.join(HERE, name + ".ppy"), src)
            row = {c: nan for c in cols}
            row["python3"], want = best([sys.executable, src], args.repeat, work)
            if pypy:
                row["pypy3"], got = best([pypy, src], args.repeat, work)
                if got != want:
                    notes.append(f"{name}: pypy3 printed something else")
            exe = build(ppy, src, os.path.join(work, name + "-ppy"), [], work)
            row["ppy"], got = best([exe], args.repeat, work)
            if got != want:
                notes.append(f"{name}: ppy printed {got[:80]!r}, python3 {want[:80]!r}")
            if args.pgo:
                profile = os.path.join(work, name + ".ppyprof")
                subprocess.run([ppy, "run", "--profile", "--profile-out", profile, src], check=True, cwd=work,
                               capture_output=True)
                exe = build(ppy, src, os.path.join(work, name + "-pgo"), ["--pgo", profile], work)
                row["ppy-pgo"], got = best([exe], args.repeat, work)
                if got != want:
                    notes.append(f"{name}: ppy --pgo printed something else")
            c_src = os.path.join(HERE, name + ".c")
            if os.path.exists(c_src):
                for col, cc in (("gcc", gcc), ("clang", clang)):
                    if not cc:
                        continue
                    cexe = os.path.join(work, f"{name}-{col}")
                    subprocess.run([cc, "-O2", c_src, "-o", cexe, "-lm"], check=True)
                    row[col], got = best([cexe], args.repeat, work)
                    if got != want:
                        notes.append(f"{name}: the C ({col}) printed something else")
            for c in cols:
                totals[c] += row[c]
            print(f"{name:<10}" + "".join(f"{row[c]:>9.3f}" for c in cols) +
                  f"{row['python3'] / row['ppy']:>8.1f}x{row['pypy3'] / row['ppy']:>8.2f}x"
                  f"{row['ppy'] / row['gcc']:>8.1f}x")
        print(f"{'total':<10}" + "".join(f"{totals[c]:>9.3f}" for c in cols) +
              f"{totals['python3'] / totals['ppy']:>8.1f}x{totals['pypy3'] / totals['ppy']:>8.2f}x")
        for n in notes:
            print(f"note: {n}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
