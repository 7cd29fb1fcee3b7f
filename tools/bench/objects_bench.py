#!/usr/bin/env python3
"""How fast objects run (issue 32; a benchmark, not a test).

    tools/bench/objects_bench.py [--ppy build/bin/ppy] [--repeat 3] [PROGRAM.ppy ...]

Each program of tools/bench/objects/ (method calls through a base class, sorting
by __lt__, raising and catching exception classes in a loop) is timed as
functions_bench.py times its programs: the best processor time (proc_time.py) of
--repeat runs, each a process of its own, under python3, PyPy (pypy3), ppy's
native executable (`ppy build`, the LLVM backend) and the C backend's
`--standalone` C built by `gcc -O2`, outputs checked equal to python3's. The
goal of issue 32: ppy's native code faster than PyPy on each (pypy/ppy above 1).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import functions_bench  # noqa: E402

if __name__ == "__main__":
    sys.exit(functions_bench.main("objects"))
