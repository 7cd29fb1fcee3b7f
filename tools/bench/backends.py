#!/usr/bin/env python3
"""How fast the source backends' output runs (a benchmark, not a test).

    tools/bench/backends.py [--ppy build/bin/ppy] [--repeat 3] [PROGRAM.ppy ...]

For each loop program (default: tools/bench/programs/*.ppy), each figure is the
best processor time (tools/bench/proc_time.py says why not wall time) of
--repeat runs, every run a process of its own:

  python3      python3 running the original program;
  pypy3        PyPy running the original program (where installed);
  py-backend   python3 running the python backend's output (`ppy build --backend python`);
  c -O2        the c backend's `--standalone` C built by `gcc -O2`;
  llvm         the LLVM backend's executable, when `ppy build --backend llvm` makes one.

and the ratios the issue asks for: py-backend / python3 (the goal: at most 1.5),
and python3 / c, llvm / c. Outputs are checked equal to python3's first.
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", default=os.path.join(ROOT, "build", "bin", "ppy"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args()
    programs = args.programs or sorted(glob.glob(os.path.join(HERE, "programs", "*.ppy")))
    cc = shutil.which("gcc") or shutil.which("cc")
    pypy = shutil.which("pypy3")
    print(f"{'program':<16}{'python3':>9}{'pypy3':>8}{'py-backend':>11}{'c -O2':>9}{'llvm':>9}"
          f"{'py-b/py3':>10}{'py3/c':>8}{'pypy/c':>8}{'llvm/c':>8}")
    for prog in programs:
        name = os.path.splitext(os.path.basename(prog))[0]
        with tempfile.TemporaryDirectory(prefix="ppy-bench-") as tmp:
            src = os.path.join(tmp, os.path.basename(prog))
            shutil.copyfile(prog, src)
            py3, want = timed([sys.executable, src], tmp, args.repeat)
            row = {"python3": py3}
            if pypy:
                row["pypy3"], got = timed([pypy, src], tmp, args.repeat)
                assert got == want, f"{name}: pypy3 printed something else"
            subprocess.run([args.ppy, "build", src, "--backend", "python"], cwd=tmp, check=True, capture_output=True)
            pyb, got = timed([sys.executable, "-m", name], os.path.join(tmp, ".ppy-cache", "backends", "python"),
                             args.repeat)
            assert got == want, f"{name}: the python backend's output printed something else"
            row["py-backend"] = pyb
            if cc:
                c_src = os.path.join(tmp, name + ".c")
                subprocess.run([args.ppy, "emit", "c", src, "--standalone", "-o", c_src], cwd=tmp, check=True,
                               capture_output=True)
                exe = os.path.join(tmp, name + "_c")
                subprocess.run([cc, "-O2", c_src, "-o", exe, "-lm"], check=True, capture_output=True)
                row["c"], got = timed([exe], tmp, args.repeat)
                assert got == want, f"{name}: the C printed something else"
            llvm = subprocess.run([args.ppy, "build", src, "--backend", "llvm", "-o", os.path.join(tmp, "llvm")],
                                  cwd=tmp, capture_output=True, text=True)
            # The executable is the output named after the program (libraries are executable files too).
            exes = [l for l in llvm.stdout.splitlines()
                    if os.path.basename(l.strip()) == name and os.access(l.strip(), os.X_OK)]
            if llvm.returncode == 0 and exes:
                row["llvm"], got = timed([exes[0].strip()], tmp, args.repeat)
                assert got == want, f"{name}: the LLVM executable printed something else"
        def fmt(key):
            return f"{row[key]:.3f}" if key in row else "-"
        def ratio(a, b):
            return f"{row[a] / row[b]:.2f}" if a in row and b in row else "-"
        print(f"{name:<16}{fmt('python3'):>9}{fmt('pypy3'):>8}{fmt('py-backend'):>11}{fmt('c'):>9}{fmt('llvm'):>9}"
              f"{ratio('py-backend', 'python3'):>10}{ratio('python3', 'c'):>8}{ratio('pypy3', 'c'):>8}"
              f"{ratio('llvm', 'c'):>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
