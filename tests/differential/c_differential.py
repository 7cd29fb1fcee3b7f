#!/usr/bin/env python3
"""Differential test of the c backend on one ppy program: its C (and C++) with
--standalone, built by cc -Wall -Werror (c++), run, against python3.

    c_differential.py --ppy PATH/TO/ppy PROGRAM.ppy|PROJECT_DIR [--levels 0,3] [--langs c,cpp]
        [--cpp-levels 3]

For each level and language (C++ only at --cpp-levels: its output differs from C's in
spelling, not in what the optimizer did, and each compile of the embedded runtime costs
a second, most of this suite's time): `ppy emit c PROGRAM -O N --standalone` (a project is
linked first: `ppy emit linked-ir` to one .ppyir, then `ppy emit c` of that), then
`cc -std=c11 -Wall -Werror -O1 prog.c -lgc -lm` (`c++ -std=c++17`), then the program.
Stdout and the exit status must equal python3's on the original program (and,
at the last level, the two streams in one pipe: differential.check_merged), and
when python3 raised, the last line of stderr must equal `<name>.error` and, at
every level, the traceback python3's (differential.traceback_of says what is normalized). Exit 0
when all agree, 1 with a report, 77 (skipped) for a module that is not a program.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import differential  # noqa: E402  (the python3 runner and the helpers)


def imports_stdlib(path):
    """Whether a program file imports a standard module written in ppy (stdlib/*.ppy,
    docs/stdlib.md): ppy compiles that as a second module, so the program is a project
    to link first."""
    names = {n[:-4] for n in os.listdir(os.path.join(HERE, "..", "..", "stdlib")) if n.endswith(".ppy")}
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.replace(",", " ").split()
            if len(words) >= 2 and words[0] in ("import", "from") and words[1].split(".")[0] in names:
                return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", required=True)
    ap.add_argument("--levels", default="0,3")
    ap.add_argument("--langs", default="c,cpp")
    ap.add_argument("--cpp-levels", default="3")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("program")
    args = ap.parse_args()
    prog = os.path.abspath(args.program).rstrip(os.sep)
    ppy = os.path.abspath(args.ppy)
    cwd = os.path.dirname(prog)
    oracle = differential.python3_oracle(prog, args.timeout)
    if oracle is None:
        return 77
    py, expected_path, error_line = oracle
    problems = []
    compilers = {"c": (shutil.which("cc"), ["-std=c11"]), "cpp": (shutil.which("c++"), ["-std=c++17"])}
    with tempfile.TemporaryDirectory(prefix="ppy-c-differential-") as tmp:
        target = differential.copy_program(prog, tmp)
        levels = [l.strip() for l in args.levels.split(",") if l.strip()]
        for level in levels:
            source = target
            if os.path.isdir(target) or imports_stdlib(target):
                source = os.path.join(tmp, f"linked{level}.ppyir")
                got = differential.run([ppy, "emit", "linked-ir", "-O", level, target, "-o", source], tmp, args.timeout)
                if got[0] != 0:
                    problems.append(f"ppy emit linked-ir -O{level} failed: {got[2].strip()[-1500:]}")
                    continue
            for lang in [l.strip() for l in args.langs.split(",") if l.strip()]:
                if lang == "cpp" and level not in args.cpp_levels.split(","):
                    continue
                cc, std = compilers[lang]
                if not cc:
                    print(f"note: no compiler for {lang} here; skipped")
                    continue
                label = f"{lang} -O{level}"
                out = os.path.join(tmp, f"prog{level}.{lang}")
                got = differential.run([ppy, "emit", lang, source, "-O", level, "--standalone", "-o", out], tmp,
                                       args.timeout)
                if got[0] != 0:
                    problems.append(f"{label}: ppy emit failed ({got[0]}): {got[2].strip()[-1500:]}")
                    continue
                exe = os.path.join(tmp, f"prog{level}_{lang}")
                got = differential.run([cc, *std, "-Wall", "-Werror", "-O1", out, "-o", exe, "-lgc", "-lm"], tmp, args.timeout)
                if got[0] != 0:
                    problems.append(f"{label}: {os.path.basename(cc)} refused the output:\n{got[2][-3000:]}")
                    continue
                got = differential.run([exe], tmp, args.timeout, program=True)
                if got[0] == py[0] and got[0] != 0 and error_line is None:
                    differential.check_road(label, got, py, problems)  # stderr and the exception's name
                elif got[0] == 0 and py[0] == 0 and got[2] != py[2]:
                    problems.append(f"{label}: stderr differs from python3's:\n" + differential.diff(py[2], got[2], "python3", label))
                if got[0] != py[0]:
                    problems.append(f"{label}: exit status {got[0]}, python3 {py[0]}\n  stderr: {got[2].strip()[-1500:]}")
                elif got[0] != 0 and error_line is not None and differential.last_line(got[2]) != error_line:
                    problems.append(f"{label}: the error reads {differential.last_line(got[2])!r}, python3's {error_line!r}")
                # Tracebacks (issue 34), at every level, with their line numbers, without
                # quoted source: it runs elsewhere.
                differential.check_traceback(label, got, py, problems, quotes=False)
                if level == levels[-1]:  # stdout and stderr in one pipe, as python3's interleave
                    differential.check_merged(label, [exe], prog, tmp, args.timeout, py, got, problems)
                if got[1] != py[1]:
                    problems.append(f"{label}: stdout differs from python3's:\n" + differential.diff(py[1], got[1], "python3", label))
    name = os.path.basename(prog)
    if os.path.exists(expected_path):
        with open(expected_path, encoding="utf-8") as f:
            if f.read() != py[1]:
                problems.append(f"python3's stdout no longer matches {os.path.basename(expected_path)}")
    if problems:
        print(f"FAIL {name} [c]")
        for p in problems:
            print(p)
        return 1
    print(f"ok {name} [{args.langs}] (levels {args.levels}, cpp {args.cpp_levels}, exit {py[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
