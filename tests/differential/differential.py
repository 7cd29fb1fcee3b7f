#!/usr/bin/env python3
"""Differential test of one ppy program: python3 against every road of ppy.

    differential.py --ppy PATH/TO/ppy PROGRAM.ppy [--levels 0,3] [--roads jit,interp,exe]
                    [--timeout S]
    differential.py --ppy PATH/TO/ppy --refused PROGRAM.ppy
    differential.py --ppy PATH/TO/ppy PROGRAM.ppy|PROJECT/ --backend python [--levels 0,3]

A ppy program is valid Python 3, so python3 is the oracle. The program runs
under python3 (with an import hook that finds sibling `.ppy` modules, and a
stand-in `ppy` module when the program imports one that is not installed), then,
for each level, through each road: `ppy run -O<N>` (the LLVM backend's objects in
a JIT), `ppy run --interp -O<N>` (the reference interpreter) and an executable
`ppy build --standalone -O<N>` makes. Stdout and the exit status must be equal;
when both fail, the exception's name (the start of stderr's last line) must be
equal too. When `<program>.expected` exists, python3's stdout must match it
(a stale recording is reported as such). Exit 0 when all agree, 1 with a report
otherwise, 77 (skipped) for a module that is not a program (no `__main__` guard and
no module-level call such as a bare `main()`).

With --refused (a program the frontend refuses), `ppy run` and `ppy run --interp`
must both refuse it with the same exit status and the same diagnostics.

A program may come with fixtures beside it (issue 33): `NAME.args` (its
arguments, split as a shell splits them: `sys.argv[1:]`), `NAME.stdin` (its
standard input) and `NAME.files/` (files copied into the working directory).
Every run, python3's and each road's, happens in a fresh temporary working
directory holding those files, so a program may read and write files there.
Stderr is compared too: python3's with its traceback dropped (the lines from
`Traceback (most recent call last):` up to the exception's line) against
ppy's, so an uncaught exception's line, `sys.exit("message")` and writes to
`sys.stderr` must read the same. At every level (-O0 and -O3: no frame is inlined away, issue 34) the traceback
itself must be python3's on every road (issue 34; traceback_of says what is normalized: files by base
name, python3's caret lines, and the executable's quoted source lines); a
program that raises also runs its executable at -O0 for it. A program python3
writes both stdout and stderr from runs once more on each road (at its highest
level) with the two in one pipe, which must interleave as python3's do
(check_merged: stdout flushed before an uncaught error's traceback, and so on).

With `--backend python` the only road is `ppy run --backend python`: the python
backend's output run by python3, whose last stderr line must also equal
`<name>.error` where one is recorded. That build writes the project's cache, so
the program (its file, or its project folder) is copied to a temporary folder
first and the source tree stays clean.
"""

import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
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
    stub.xla = _Any("ppy.xla")
    stub.pure = lambda f: f
    def _opt(level):
        if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 3:
            raise ValueError("@ppy.opt(level) requires an int level in 0..3")
        return lambda f: f
    stub.opt = _opt
    sys.modules["ppy"] = stub
sys.argv = [prog] + sys.argv[2:]
sys.path.insert(0, root)
try:
    runpy.run_path(prog, run_name="__main__")
except BaseException:
    sys.stdout.flush()  # as `python3 prog.py` flushes before its report; `python3 -c` does not
    raise
'''


PY_COMMAND = [sys.executable, "-c", PY_RUNNER]


def is_program(text):
    """Whether python3 running the module does something: it has the `__main__`
    guard or calls something at module level (a script's bare `main()`)."""
    return "__main__" in text or re.search(r"^[A-Za-z_][\w.]*\s*\(", text, re.M) is not None


class Fixtures:
    """A program's arguments, standard input and files (NAME.args, NAME.stdin,
    NAME.files/), and the fresh working directory each run gets."""

    def __init__(self, prog):
        base = os.path.splitext(prog)[0] if not os.path.isdir(prog) else prog
        self.args, self.stdin, self.files = [], None, None
        if os.path.exists(base + ".args"):
            with open(base + ".args", encoding="utf-8") as f:
                self.args = shlex.split(f.read())
        if os.path.exists(base + ".stdin"):
            with open(base + ".stdin", encoding="utf-8", newline="") as f:
                self.stdin = f.read()
        if os.path.isdir(base + ".files"):
            self.files = base + ".files"

    def workdir(self):
        """A new empty working directory holding the program's files."""
        d = tempfile.mkdtemp(prefix="ppy-workdir-")
        if self.files:
            shutil.copytree(self.files, d, dirs_exist_ok=True)
        return d


FIXTURES = None  # the program's Fixtures, once main() read them


def run(cmd, cwd, timeout, program=False, merged=False):
    """Runs `cmd`; a `program` run gets the program's arguments after it, its
    standard input and a fresh working directory holding its files."""
    fx = FIXTURES
    work = None
    if fx is not None and program:
        cmd = list(cmd) + fx.args
        work = cwd = fx.workdir()
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT if merged else subprocess.PIPE, text=True, timeout=timeout,
                           input=fx.stdin if fx is not None and program and fx.stdin is not None else "")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return "timeout", out, f"timed out after {timeout}s"
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)


def without_traceback(stderr):
    """python3's stderr as ppy writes it: each traceback reduced to its last line."""
    out, skipping = [], False
    for line in stderr.splitlines(True):
        if line.startswith("Traceback (most recent call last):"):
            skipping = True
            continue
        if skipping and (line.startswith(" ") or not line.strip()):
            continue
        skipping = False
        out.append(line)
    return "".join(out)


FRAME = re.compile(r'^  File "(?P<file>[^"]*)", line (?P<line>\d+), in (?P<function>.*)$')

# The standard library's folders, python3's and ppy's (stdlib/*.ppy, copied to
# share/ppy/stdlib): a frame inside one is the library's, not the program's, and
# its lines and names differ by implementation (statistics.py, statistics.ppy).
LIBRARY_DIRS = (os.path.realpath(sysconfig.get_paths()["stdlib"]) + os.sep,
                os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", "stdlib")) + os.sep)


def library_frame(path):
    """Whether a traceback frame's file is the standard library's (LIBRARY_DIRS)."""
    real = os.path.realpath(path)
    return real.startswith(LIBRARY_DIRS) or f"{os.sep}share{os.sep}ppy{os.sep}stdlib{os.sep}" in real


def traceback_of(stderr, quotes=True, numbers=True):
    """The last traceback in `stderr`, normalized to what every road can print
    alike (issue 34): each frame's file by its base name, only frames of the
    program's own files (python3 run by the test's runner adds `<string>`,
    `<frozen runpy>` and pyrun.py frames; the standard library's are dropped,
    library_frame), python3 3.11's caret lines (`~~^^`)
    dropped, with `quotes` false the quoted source lines too (a built
    executable run elsewhere has no source to quote), with `numbers` false the
    line numbers. None without one."""
    lines = stderr.splitlines()
    starts = [i for i, l in enumerate(lines) if l.startswith("Traceback (most recent call last):")]
    if not starts:
        return None
    out, keep = [], False
    for l in lines[starts[-1] + 1:]:
        m = FRAME.match(l)
        if m:
            base = os.path.basename(m.group("file"))
            keep = (base.endswith((".ppy", ".py")) and base not in ("pyrun.py", "runpy.py")
                    and not library_frame(m.group("file")))
            if keep:
                line = m.group("line") if numbers else "N"
                out.append(f'  File "{base}", line {line}, in {m.group("function")}')
            continue
        if l.startswith("    "):
            if keep and quotes and l.strip() and set(l.strip()) - set("^~"):
                out.append(l)
            continue
        if l.startswith("  [Previous line repeated"):
            if keep:
                out.append(l)
            continue
        out.append(l)
        break
    return out


def check_traceback(label, got, py, problems, quotes=True, numbers=True):
    """The traceback `got` prints must be python3's (traceback_of says what is
    normalized), where python3 printed one."""
    want = traceback_of(py[2], quotes, numbers)
    if want is None or got[0] != py[0]:
        return
    have = traceback_of(got[2], quotes, numbers)
    if have != want:
        problems.append(f"{label}: the traceback differs from python3's:\n"
                        + diff("\n".join(want) + "\n", "\n".join(have or []) + "\n", "python3", label))


def exception_name(stderr):
    lines = [l for l in stderr.strip().splitlines() if l.strip()]
    if not lines:
        return ""
    last = lines[-1]
    return last.split(":", 1)[0].strip()


def last_line(stderr):
    lines = [l for l in stderr.strip().splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""


def copy_program(prog, tmp):
    """The program's copy in `tmp`: a project folder whole, or the file alone."""
    dst = os.path.join(tmp, os.path.basename(prog))
    if os.path.isdir(prog):
        shutil.copytree(prog, dst, ignore=shutil.ignore_patterns(".ppy-cache", "__pycache__"))
    else:
        shutil.copyfile(prog, dst)
    return dst


def diff(a, b, name_a, name_b):
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), name_a, name_b, n=2))[:4000]


def refused(ppy, prog, timeout):
    cwd = os.path.dirname(prog)
    jit = run([ppy, "run", prog], cwd, timeout)
    interp = run([ppy, "run", "--interp", prog], cwd, timeout)
    name = os.path.basename(prog)
    if jit[0] == 0 or jit[0] != interp[0] or jit[2] != interp[2] or jit[1] or interp[1]:
        print(f"FAIL {name}: ppy run exit {jit[0]}, --interp exit {interp[0]}\n"
              + diff(interp[2], jit[2], "ppy run --interp (stderr)", "ppy run (stderr)"))
        return 1
    print(f"ok {name} (refused by both, exit {jit[0]})")
    return 0


def road_command(ppy, road, level, prog, scratch):
    """The command that runs `prog` through `road` at `level`, or a failed build."""
    sep = ["--"] if FIXTURES and FIXTURES.args else []
    if road == "jit":
        return [ppy, "run", "-O", level, prog] + sep, None
    if road == "interp":
        return [ppy, "run", "--interp", "-O", level, prog] + sep, None
    out = os.path.join(scratch, f"exe-O{level}")
    built = subprocess.run([ppy, "build", prog, "--backend", "llvm", "--standalone", "-O", level, "-o", out],
                           cwd=scratch,
                           capture_output=True, text=True)
    if built.returncode != 0:
        return None, f"ppy build --standalone -O{level} failed ({built.returncode}):\n{built.stderr[-1500:]}"
    exe = built.stdout.strip().splitlines()[-1] if built.stdout.strip() else ""
    if not os.access(exe, os.X_OK):
        return None, f"ppy build --standalone -O{level} listed no executable: {built.stdout!r}"
    return [exe], None


def python3_command(prog):
    """How python3 runs a corpus entry: a project folder as tests/programs/pyrun.py
    does, a file with PY_RUNNER."""
    if os.path.isdir(prog):
        return [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "programs", "pyrun.py"),
                prog]
    return PY_COMMAND + [prog]


_PY_MERGED = {}  # python3's run of each program with stderr into stdout's pipe, made once


def check_merged(label, cmd, prog, cwd, timeout, py, got, problems):
    """Stdout and stderr into one pipe, for a program python3 writes both from: the
    road flushes stdout where python3 does (before an uncaught error's traceback,
    before `sys.exit("message")`'s line, on `flush=True`, by `input()`). Tracebacks are
    reduced to their last line (traceback_of compares them)."""
    if not (py[1] and py[2]) or got[0] != py[0]:
        return
    if prog not in _PY_MERGED:
        _PY_MERGED[prog] = run(python3_command(prog), cwd, timeout, program=True, merged=True)
    py_merged = _PY_MERGED[prog]
    merged = run(cmd, cwd, timeout, program=True, merged=True)
    if without_traceback(py_merged[1]) != without_traceback(merged[1]):
        problems.append(f"{label}: stdout and stderr in one pipe interleave otherwise than python3's:\n"
                        + diff(without_traceback(py_merged[1]), without_traceback(merged[1]), "python3", label))


def python3_oracle(prog, timeout):
    """python3's run of a corpus entry, as its user runs it, with the entry's fixtures
    (NAME.args, NAME.stdin, NAME.files/) and stdout block-buffered into a pipe (the
    oracle of where output is flushed): (result, path of `<name>.expected`, the line of
    `<name>.error` or None). None for a file that is not a program (it says so)."""
    global FIXTURES
    os.environ.pop("PYTHONUNBUFFERED", None)
    FIXTURES = Fixtures(prog)
    cwd = os.path.dirname(prog)
    if os.path.isdir(prog):
        expected_path = prog + ".expected"
    else:
        with open(prog, encoding="utf-8") as f:
            if not is_program(f.read()):
                print(f"{prog}: not a program (no __main__ guard, no module-level call); skipped")
                return None
        expected_path = os.path.splitext(prog)[0] + ".expected"
    py = run(python3_command(prog), cwd, timeout, program=True)
    error_line = None
    error_path = os.path.splitext(expected_path)[0] + ".error"
    if os.path.exists(error_path):
        with open(error_path, encoding="utf-8") as f:
            error_line = f.read().strip()
    return py, expected_path, error_line


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", required=True)
    ap.add_argument("--levels", default="0,3")
    ap.add_argument("--roads", default="jit,interp,exe")
    ap.add_argument("--exe-levels", default="3", help="levels of the `exe` road (a static link each: costly)")
    ap.add_argument("--opt", default="/usr/lib/llvm-19/bin/opt", help="LLVM's opt, to verify `ppy emit llvm-ir`")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--refused", action="store_true")
    ap.add_argument("--backend", help="run only through this backend's output (python)")
    ap.add_argument("program")
    args = ap.parse_args()

    prog = os.path.abspath(args.program).rstrip(os.sep)
    ppy = os.path.abspath(args.ppy)
    cwd = os.path.dirname(prog)
    if args.refused:
        return refused(ppy, prog, args.timeout)
    oracle = python3_oracle(prog, args.timeout)
    if oracle is None:
        return 77
    py, expected_path, error_line = oracle
    problems = []
    if os.path.exists(expected_path):
        with open(expected_path, encoding="utf-8") as f:
            expected = f.read()
        if py[1] != expected:
            problems.append(f"python3's stdout no longer matches {os.path.basename(expected_path)}:\n"
                            + diff(expected, py[1], "expected", "python3"))

    scratch = tempfile.mkdtemp(prefix="ppy-differential-")
    if args.backend:
        compare_backend(args, ppy, prog, copy_program(prog, scratch), py, error_line, problems)
    else:
        compare_roads(args, ppy, prog, cwd, scratch, py, problems)
    subprocess.run(["rm", "-rf", scratch])
    name = os.path.relpath(prog, os.path.dirname(cwd)) + (f" [{args.backend}]" if args.backend else "")
    if problems:
        print(f"FAIL {name}")
        for p in problems:
            print(p)
        return 1
    print(f"ok {name} (levels {args.levels}, {args.backend or 'roads ' + args.roads}, exit {py[0]})")
    return 0


def check_road(label, got, py, problems, error_line=None):
    """Adds to `problems` where one road's run differs from python3's."""
    if got[0] == py[0] and got[0] != "timeout" and without_traceback(py[2]) != without_traceback(got[2]) and (
            got[0] == 0 or exception_name(got[2]) == exception_name(py[2])) and (
            error_line is None or got[0] == 0):
        problems.append(f"{label}: stderr differs from python3's (its traceback dropped):\n"
                        + diff(without_traceback(py[2]), without_traceback(got[2]), "python3", label))
    if got[0] != py[0]:
        problems.append(f"{label}: exit status {got[0]}, python3 {py[0]}\n  ppy stderr: {got[2].strip()[-1500:]}"
                        f"\n  python3 stderr (last line): {py[2].strip().splitlines()[-1:]}")
    elif got[0] != 0 and exception_name(got[2]) != exception_name(py[2]):
        problems.append(f"{label}: raised {exception_name(got[2])!r}, python3 {exception_name(py[2])!r}")
    elif got[0] != 0 and error_line is not None and last_line(got[2]) != error_line:
        problems.append(f"{label}: the error reads {last_line(got[2])!r}, python3's {error_line!r}")
    if got[1] != py[1]:
        problems.append(f"{label}: stdout differs from python3's:\n" + diff(py[1], got[1], "python3", label))


def compare_backend(args, ppy, original, target, py, error_line, problems):
    """`ppy run --backend NAME` at each level, in the program's copy."""
    levels = [l.strip() for l in args.levels.split(",") if l.strip()]
    for level in levels:
        label = f"ppy run --backend {args.backend} -O{level}"
        sep = ["--"] if FIXTURES and FIXTURES.args else []
        cmd = [ppy, "run", "--backend", args.backend, "-O", level, target] + sep
        got = run(cmd, os.path.dirname(target), args.timeout, program=True)
        check_road(label, got, py, problems, error_line)
        if level == levels[-1]:
            check_merged(label, cmd, original, os.path.dirname(target), args.timeout, py, got, problems)
        check_traceback(label, got, py, problems)  # tracebacks (issue 34), at every level


def compare_roads(args, ppy, prog, cwd, scratch, py, problems):
    """The LLVM IR's verification, then each road at each level."""
    # The LLVM IR of every module, at every level, is IR LLVM's verifier accepts.
    for level in [l.strip() for l in args.levels.split(",") if l.strip()]:
        out = os.path.join(scratch, f"ll-O{level}") + "/"
        emitted = subprocess.run([ppy, "emit", "llvm-ir", prog, "-O", level, "-o", out], capture_output=True, text=True)
        if emitted.returncode != 0:
            problems.append(f"ppy emit llvm-ir -O{level} failed ({emitted.returncode}): {emitted.stderr[-1500:]}")
            continue
        for ll in sorted(f for f in os.listdir(out) if f.endswith(".ll")):
            v = subprocess.run([args.opt, "-passes=verify", "-disable-output", os.path.join(out, ll)],
                               capture_output=True, text=True)
            if v.returncode != 0:
                problems.append(f"opt -passes=verify refuses {ll} (-O{level}): {v.stderr[-1500:]}")
    roads = [r.strip() for r in args.roads.split(",") if r.strip()]
    exe_levels = {l.strip() for l in args.exe_levels.split(",") if l.strip()}
    # A program that raises runs its executable at -O0 too: its traceback (issue 34).
    if py[0] != 0 and traceback_of(py[2]) is not None and "0" in args.levels.split(","):
        exe_levels.add("0")
    runs = [(l.strip(), r) for l in args.levels.split(",") if l.strip() for r in roads
            if r != "exe" or l.strip() in exe_levels]
    for level, road in runs:
        label = {"jit": f"ppy run -O{level}", "interp": f"ppy run --interp -O{level}",
                 "exe": f"standalone executable -O{level}"}[road]
        cmd, error = road_command(ppy, road, level, prog, scratch)
        if error:
            problems.append(error)
            continue
        got = run(cmd, cwd, args.timeout, program=True)
        check_road(label, got, py, problems)
        check_traceback(label, got, py, problems, quotes=road != "exe")  # tracebacks (issue 34), at every level
        if level == max(l for l, r in runs if r == road):  # once a road, optimized
            check_merged(label, cmd, prog, cwd, args.timeout, py, got, problems)


if __name__ == "__main__":
    sys.exit(main())
