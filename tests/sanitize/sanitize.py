#!/usr/bin/env python3
"""One corpus program built with the sanitizers, against python3.

    sanitize.py --ppy PATH/TO/ppy PROGRAM.ppy|PROJECT/ [--levels 0,3] [--sanitize address,undefined]

`ppy build --standalone --sanitize LIST -O<N>` (LLVM's AddressSanitizer on the
generated code, the runtime compiled with clang's -fsanitize=LIST, LLVM 19's
sanitizer runtime linked in: docs/llvm.md, "Sanitizers"), then the executable:
its stdout and exit status must be python3's, and its stderr must carry no
sanitizer report (ASan's `ERROR: AddressSanitizer`, UBSan's `runtime error:`).
Exit 0 when clean, 1 with a report, 77 (skipped) for a module that is not a
program. python3 runs the program as tests/differential/differential.py runs it.
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "differential"))
import differential  # noqa: E402  (its python3 runner and helpers)

REPORTS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "UndefinedBehaviorSanitizer",
           "AddressSanitizer:DEADLYSIGNAL")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", required=True)
    ap.add_argument("--levels", default="0,3")
    ap.add_argument("--sanitize", default="address,undefined")
    ap.add_argument("--timeout", type=float, default=240)
    ap.add_argument("program")
    args = ap.parse_args()
    prog = os.path.abspath(args.program).rstrip(os.sep)
    ppy = os.path.abspath(args.ppy)
    cwd = os.path.dirname(prog)
    name = os.path.relpath(prog, os.path.dirname(cwd))
    oracle = differential.python3_oracle(prog, args.timeout)
    if oracle is None:
        return 77
    py = oracle[0]

    problems = []
    with tempfile.TemporaryDirectory(prefix="ppy-sanitize-") as scratch:
        # The program's copy: its builds' cache stays out of the source tree.
        target = differential.copy_program(prog, scratch)
        for level in [l.strip() for l in args.levels.split(",") if l.strip()]:
            out = os.path.join(scratch, f"exe-O{level}")
            built = differential.run([ppy, "build", target, "--standalone", "--sanitize", args.sanitize, "-O", level,
                                      "-o", out], scratch, args.timeout)
            if built[0] != 0:
                problems.append(f"ppy build --standalone --sanitize {args.sanitize} -O{level} failed "
                                f"({built[0]}):\n{built[2][-2000:]}")
                continue
            exe = built[1].strip().splitlines()[-1] if built[1].strip() else ""
            got = differential.run([exe], os.path.dirname(target), args.timeout, program=True)
            label = f"--sanitize {args.sanitize} -O{level}"
            reports = [r for r in REPORTS if r in got[2]]
            if reports:
                problems.append(f"{label}: the sanitizers reported ({', '.join(reports)}):\n{got[2][-4000:]}")
            elif got[0] != py[0]:
                problems.append(f"{label}: exit {got[0]}, python3 {py[0]}\nstderr: {got[2][-1500:]}")
            elif got[1] != py[1]:
                problems.append(f"{label}: stdout differs from python3's:\n"
                                + differential.diff(py[1], got[1], "python3", label))
            elif py[0] != 0 and differential.exception_name(got[2]) != differential.exception_name(py[2]):
                problems.append(f"{label}: raised {differential.last_line(got[2])!r}, python3 "
                                f"{differential.last_line(py[2])!r}")
    if problems:
        print(f"FAIL {name}")
        for p in problems:
            print(p)
        return 1
    print(f"ok {name} (--sanitize {args.sanitize}, levels {args.levels}, exit {py[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
