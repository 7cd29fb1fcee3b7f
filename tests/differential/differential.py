#!/usr/bin/env python3
"""Differential test of one ppy program: python3 against `ppy run -O0` and `-O3`.

    differential.py --ppy PATH/TO/ppy PROGRAM.ppy [--levels 0,3] [--timeout S] [--backend python]

With `--backend python` the program runs as `ppy run --backend python`: the
python backend's output run by python3. That build writes the project's cache,
so the program (its file, or its project folder) is copied to a temporary
folder first and the source tree stays clean.

A ppy program is valid Python 3, so python3 is the oracle. The program runs
under python3 (with an import hook that finds sibling `.ppy` modules, and a
stand-in `ppy` module when the program imports one that is not installed), then
under `ppy run -O<N>` for each level. Stdout and the exit status must be equal;
when both fail, the exception's name (the start of stderr's last line) must be
equal too. When `<program>.expected` exists, python3's stdout must match it
(a stale recording is reported as such). Exit 0 when all agree, 1 with a report
otherwise, 77 (skipped) for a module that is not a program (no `__main__` guard).
"""

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

# Runs a .ppy file as __main__ under python3 with .ppy imports resolved.
PY_RUNNER = r'''
import importlib.abc, importlib.util, os, runpy, sys, types
prog = os.path.abspath(sys.argv[1])
root = os.path.dirname(prog)

class PpyFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        rel = name.replace(".", os.sep)
        for base in [root] + [os.path.join(root, "src")]:
            for cand in (os.path.join(base, rel + ".ppy"), os.path.join(base, rel, "__init__.ppy")):
                if os.path.isfile(cand):
                    loader = importlib.machinery.SourceFileLoader(name, cand)
                    return importlib.util.spec_from_file_location(name, cand, loader=loader)
        return None

sys.meta_path.append(PpyFinder())
try:
    import ppy  # noqa: F401  (the real package, when installed)
except ImportError:
    stub = types.ModuleType("ppy")
    stub.export = lambda f=None, **kw: f if f is not None else (lambda g: g)
    class _Any(types.ModuleType):
        def __getattr__(self, attr):
            return lambda *a, **k: (a[0] if a and callable(a[0]) else None)
    stub.cuda = _Any("ppy.cuda")
    stub.native = _Any("ppy.native")
    sys.modules["ppy"] = stub
sys.argv = [prog]
sys.path.insert(0, root)
runpy.run_path(prog, run_name="__main__")
'''


def run(cmd, cwd, timeout):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return "timeout", out, f"timed out after {timeout}s"


def exception_name(stderr):
    lines = [l for l in stderr.strip().splitlines() if l.strip()]
    if not lines:
        return ""
    last = lines[-1]
    return last.split(":", 1)[0].strip()


def last_line(stderr):
    lines = [l for l in stderr.strip().splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""


def diff(a, b, name_a, name_b):
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), name_a, name_b, n=2))[:4000]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", required=True)
    ap.add_argument("--levels", default="0,3")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--backend", help="run through this backend's output (python)")
    ap.add_argument("program")
    args = ap.parse_args()
    if args.backend:
        with tempfile.TemporaryDirectory(prefix="ppy-differential-") as tmp:
            return compare(args, tmp)
    return compare(args, None)


def copy_program(prog, tmp):
    """The program's copy in `tmp`: a project folder whole, or the file alone."""
    dst = os.path.join(tmp, os.path.basename(prog))
    if os.path.isdir(prog):
        shutil.copytree(prog, dst, ignore=shutil.ignore_patterns(".ppy-cache", "__pycache__"))
    else:
        shutil.copyfile(prog, dst)
    return dst


def compare(args, tmp):

    prog = os.path.abspath(args.program).rstrip(os.sep)
    ppy = os.path.abspath(args.ppy)
    cwd = os.path.dirname(prog)
    problems = []
    if os.path.isdir(prog):
        # A project folder: python3 runs it as tests/programs/pyrun.py does.
        pyrun = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "programs", "pyrun.py")
        py = run([sys.executable, pyrun, prog], cwd, args.timeout)
        expected_path = prog + ".expected"
    else:
        with open(prog, encoding="utf-8") as f:
            if "__main__" not in f.read():
                print(f"{prog}: not a program (no __main__ guard); skipped")
                return 77
        py = run([sys.executable, "-c", PY_RUNNER, prog], cwd, args.timeout)
        expected_path = os.path.splitext(prog)[0] + ".expected"
    if os.path.basename(prog) == "main.ppy" and not os.path.exists(expected_path):
        expected_path = os.path.dirname(prog) + ".expected"
    if os.path.exists(expected_path):
        with open(expected_path, encoding="utf-8") as f:
            expected = f.read()
        if py[1] != expected:
            problems.append(f"python3's stdout no longer matches {os.path.basename(expected_path)}:\n"
                            + diff(expected, py[1], "expected", "python3"))

    # `<name>.error`: python3's last line on stderr, which a backend's must equal.
    error_path = os.path.splitext(expected_path)[0] + ".error"
    error_line = None
    if os.path.exists(error_path):
        with open(error_path, encoding="utf-8") as f:
            error_line = f.read().strip()
    target = prog
    if tmp:
        target = copy_program(prog, tmp)
    for level in [l.strip() for l in args.levels.split(",") if l.strip()]:
        backend = ["--backend", args.backend] if args.backend else []
        label = f"ppy run {' '.join(backend + ['-O' + level])}"
        got = run([ppy, "run", *backend, "-O", level, target], os.path.dirname(target), args.timeout)
        if got[0] != py[0]:
            problems.append(f"{label}: exit status {got[0]}, python3 {py[0]}\n  ppy stderr: {got[2].strip()[-1500:]}"
                            f"\n  python3 stderr (last line): {py[2].strip().splitlines()[-1:]}")
        elif got[0] != 0 and exception_name(got[2]) != exception_name(py[2]):
            problems.append(f"{label}: raised {exception_name(got[2])!r}, python3 {exception_name(py[2])!r}")
        elif got[0] != 0 and error_line is not None and last_line(got[2]) != error_line:
            problems.append(f"{label}: the error reads {last_line(got[2])!r}, python3's {error_line!r}")
        if got[1] != py[1]:
            problems.append(f"{label}: stdout differs from python3's:\n" + diff(py[1], got[1], "python3", label))

    name = os.path.relpath(prog, os.path.dirname(cwd)) + (f" [{args.backend}]" if args.backend else "")
    if problems:
        print(f"FAIL {name}")
        for p in problems:
            print(p)
        return 1
    print(f"ok {name} (levels {args.levels}, exit {py[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
