"""Runs a ppy program or project under python3 (the oracle of the corpus), with
the package users install (python/ppy): `python3 -m ppy TARGET [ARGS...]`.

    python3 tests/programs/pyrun.py prog.ppy
    python3 tests/programs/pyrun.py tests/programs/multi_module
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

from ppy.__main__ import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv))
