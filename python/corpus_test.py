#!/usr/bin/env python3
"""Every corpus program (tests/programs: files and project folders with a
recorded `.expected`) under `python3 -m ppy`, with only the package's folder
on PYTHONPATH and the program copied to a scratch folder: its stdout must be
the recorded one."""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package", required=True, help="the folder holding ppy/")
    ap.add_argument("--programs", required=True)
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=os.path.abspath(args.package))
    failures, ran = [], 0
    for expected in sorted(glob.glob(os.path.join(args.programs, "*.expected"))):
        stem = expected[: -len(".expected")]
        source = stem + ".ppy" if os.path.isfile(stem + ".ppy") else stem
        if not os.path.exists(source):
            continue
        for extra in (".args", ".stdin", ".files"):  # fixtures the plain runner does not give
            if os.path.exists(stem + extra):
                break
        else:
            with tempfile.TemporaryDirectory() as tmp:
                # The program in a folder of its own; it runs in another, empty one.
                os.makedirs(os.path.join(tmp, "program"))
                os.makedirs(os.path.join(tmp, "work"))
                target = os.path.join(tmp, "program", os.path.basename(source))
                (shutil.copytree if os.path.isdir(source) else shutil.copy)(source, target)
                got = subprocess.run([sys.executable, "-m", "ppy", target], cwd=os.path.join(tmp, "work"), env=env,
                                     capture_output=True, text=True, timeout=120)
            ran += 1
            want = open(expected, encoding="utf-8").read()
            if got.stdout != want:
                failures.append(f"{os.path.basename(source)}: python3 -m ppy printed {got.stdout[-300:]!r}, "
                                f"expected {want[-300:]!r}; stderr {got.stderr[-500:]!r}")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{ran} corpus programs under python3 -m ppy, {len(failures)} differ")
    return 1 if failures or ran < 100 else 0


if __name__ == "__main__":
    sys.exit(main())
