#!/usr/bin/env python3
"""`ppy run --sanitize` as a user meets it: a program runs and prints, a raise
ends it with status 1 and the exception's line, its arguments reach sys.argv, and what the road refuses is
E1002 with the reason (docs/llvm.md, "Sanitizers").

    run_road.py --ppy PATH/TO/ppy
"""

import argparse
import os
import subprocess
import sys
import tempfile

PROGRAM = '''def total(xs: list[int]) -> int:
    s = 0
    for x in xs:
        s += x
    return s


def main() -> None:
    words = "the quick brown fox".split()
    print(total([len(w) for w in words]), "-".join(words).upper())
    d = {w: len(w) for w in words}
    print(d["fox"], f"{3.14159:8.3f}|")
    raise ValueError("done: " + words[-1])


if __name__ == "__main__":
    main()
'''

ARGS_PROGRAM = '''import sys


def main() -> None:
    print(sys.argv[1:])


if __name__ == "__main__":
    main()
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", required=True)
    args = ap.parse_args()
    problems = []
    with tempfile.TemporaryDirectory(prefix="ppy-sanitize-run-") as tmp:
        prog = os.path.join(tmp, "words.ppy")
        with open(prog, "w") as f:
            f.write(PROGRAM)

        def ppy(*a):
            return subprocess.run([args.ppy, *a], cwd=tmp, capture_output=True, text=True, timeout=300)

        for sanitize in ["address,undefined", "address", "undefined"]:
            r = ppy("run", "--sanitize", sanitize, prog)
            want = "16 THE-QUICK-BROWN-FOX\n3    3.142|\n"
            if r.returncode != 1 or r.stdout != want or not r.stderr.strip().endswith("ValueError: done: fox"):
                problems.append(f"run --sanitize {sanitize}: exit {r.returncode}, stdout {r.stdout!r}, "
                                f"stderr {r.stderr[-1500:]!r}")
        args_prog = os.path.join(tmp, "args.ppy")
        with open(args_prog, "w") as f:
            f.write(ARGS_PROGRAM)
        r = ppy("run", "--sanitize", "address", args_prog, "--", "one", "two words")
        if r.returncode != 0 or r.stdout != "['one', 'two words']\n":
            problems.append(f"run --sanitize with arguments: exit {r.returncode}, stdout {r.stdout!r}, "
                            f"stderr {r.stderr[-800:]!r}")
        for argv, says in [(["run", "--sanitize", "adress", prog], "unknown sanitizer 'adress'"),
                           (["run", "--sanitize", "thread", prog], "one thread"),
                           (["run", "--interp", "--sanitize", "address", prog], "--interp"),
                           (["run", "--backend", "python", "--sanitize", "address", prog], "--backend python"),
                           (["build", prog, "--sanitize", "address", "--library", "-o", "lib"], "--library"),
                           (["build", prog, "--backend", "c", "--sanitize", "address", "-o", "c"], "LLVM road")]:
            r = ppy(*argv)
            if r.returncode != 2 or "error[E1002]" not in r.stderr or says not in r.stderr:
                problems.append(f"{' '.join(argv[:-1])}: exit {r.returncode}, stderr {r.stderr[-800:]!r} "
                                f"(wanted E1002 saying {says!r})")
    if problems:
        print("FAIL ppy run --sanitize")
        for p in problems:
            print(p)
        return 1
    print("ok ppy run --sanitize (three sanitizer sets, arguments, six refusals)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
