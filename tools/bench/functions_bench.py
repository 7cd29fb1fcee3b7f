#!/usr/bin/env python3
"""How fast functions as values and lazy sequences run (issue 31; a benchmark, not a test).

    tools/bench/functions_bench.py [--ppy build/bin/ppy] [--repeat 3] [PROGRAM.ppy ...]

Each program of tools/bench/functions/ (closure calls, sorted(key=) by a tuple, by
`lambda kv: -kv[1]` and by `len`, a generator pipeline) is timed as its best processor time (proc_time.py) of --repeat runs,
each run a process of its own:

  python3   python3 running the program;
  pypy3     PyPy running it (where installed: a missing PyPy leaves its column
            empty, with a note, and the bench goes on);
  ppy       ppy's native code: the LLVM backend's executable (`ppy build`);
  ppy-c     the C backend's `--standalone` C built by `gcc -O2`.

and the ratios issue 31 asks for: python3 / ppy (the goal: at least 5) and
pypy3 / ppy (the goal: above 1, faster than PyPy). Outputs are checked equal to
python3's first.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import proc_time  # noqa: E402
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def timed(cmd, cwd, repeat):
    return proc_time.best_of(cmd, repeat, cwd=cwd)


def main(folder="functions"):
    """Times the programs named on the command line, or those of tools/bench/<folder>/."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", default=os.path.join(ROOT, "build", "bin", "ppy"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args()
    programs = args.programs or sorted(glob.glob(os.path.join(HERE, folder, "*.ppy")))
    pypy = shutil.which("pypy3")
    cc = shutil.which("gcc") or shutil.which("cc")
    if not pypy:
        print("note: pypy3 is not installed (apt-get install pypy3): its column is empty")
    print(f"{'program':<20}{'python3':>9}{'pypy3':>8}{'ppy':>8}{'ppy-c':>8}{'py3/ppy':>9}{'pypy/ppy':>10}"
          f"{'py3/ppy-c':>11}")
    status = 0
    for prog in programs:
        name = os.path.splitext(os.path.basename(prog))[0]
        row = {}
        with tempfile.TemporaryDirectory(prefix="ppy-bench-") as tmp:
            src = os.path.join(tmp, os.path.basename(prog))
            shutil.copyfile(prog, src)
            row["python3"], want = timed([sys.executable, src], tmp, args.repeat)
            if pypy:
                row["pypy3"], got = timed([pypy, src], tmp, args.repeat)
                assert got == want, f"{name}: pypy3 printed something else"
            llvm = subprocess.run([args.ppy, "build", src, "--backend", "llvm", "-o", os.path.join(tmp, "llvm")],
                                  cwd=tmp, capture_output=True, text=True)
            exes = [l.strip() for l in llvm.stdout.splitlines()
                    if os.path.basename(l.strip()) == name and os.access(l.strip(), os.X_OK)]
            if llvm.returncode == 0 and exes:
                row["ppy"], got = timed([exes[0]], tmp, args.repeat)
                if got != want:
                    print(f"{name}: ppy's executable printed something else", file=sys.stderr)
                    status = 1
            else:
                print(f"{name}: ppy build failed: {llvm.stderr[-500:]}", file=sys.stderr)
                status = 1
            if cc:
                c_src = os.path.join(tmp, name + ".c")
                emit = subprocess.run([args.ppy, "emit", "c", src, "--standalone", "-o", c_src], cwd=tmp,
                                      capture_output=True, text=True)
                exe = os.path.join(tmp, name + "_c")
                if emit.returncode == 0 and subprocess.run([cc, "-O2", c_src, "-o", exe, "-lgc", "-lm"],
                                                           capture_output=True).returncode == 0:
                    row["ppy-c"], got = timed([exe], tmp, args.repeat)
                    if got != want:
                        print(f"{name}: the C backend's executable printed something else", file=sys.stderr)
                        status = 1

        def fmt(key):
            return f"{row[key]:.3f}" if key in row else "-"

        def ratio(a, b):
            return f"{row[a] / row[b]:.1f}" if a in row and b in row and row[b] > 0 else "-"

        print(f"{name:<20}{fmt('python3'):>9}{fmt('pypy3'):>8}{fmt('ppy'):>8}{fmt('ppy-c'):>8}"
              f"{ratio('python3', 'ppy'):>9}{ratio('pypy3', 'ppy'):>10}{ratio('python3', 'ppy-c'):>11}")
    return status


if __name__ == "__main__":
    sys.exit(main())
