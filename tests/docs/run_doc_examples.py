#!/usr/bin/env python3
"""Runs the examples of the project's docs (see CMakeLists.txt beside this).

A ```python block is a whole program when it has a `__main__` guard or a
`def main`; it runs under `ppy run`, `ppy run --interp` and python3, and the
outputs must be equal. When the text after the block says "Save it as `NAME`",
the program is written to NAME in the scratch folder, so the ```sh lines that
follow can name it. A ```sh line starting with `build/bin/ppy`, `ppy` or
`python3` runs there (its `# comment` removed) and must exit 0; other lines
(installs, servers, `tools/...`) and synopses with metavariables (`[PROJECT]`)
are not run; nor is GPU code (`@cuda.kernel`), which needs a GPU backend.
"""
import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"```(python|sh)\n(.*?)```(.*?)(?=```|\Z)", re.S)


def run(argv, cwd):
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=240)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", required=True)
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    docs = sorted(glob.glob(os.path.join(args.root, "docs", "*.md"))) + [os.path.join(args.root, "README.md")]
    problems, ran = [], 0
    for doc in docs:
        name = os.path.relpath(doc, args.root)
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.join(args.root, "examples"), os.path.join(tmp, "examples"))
            for n, (lang, body, after) in enumerate(BLOCK.findall(open(doc, encoding="utf-8").read())):
                if lang == "python":
                    if "__main__" not in body and "def main" not in body:
                        continue
                    if "@cuda.kernel" in body:  # GPU code runs on a GPU backend, not these roads
                        continue
                    saved = re.search(r"Save it as `([^`]+)`", after)
                    path = os.path.join(tmp, saved.group(1) if saved else f"example{n}.ppy")
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(body)
                    want = run([sys.executable, path], tmp)
                    for road in (["run"], ["run", "--interp"]):
                        got = run([args.ppy, *road, path], tmp)
                        ran += 1
                        if (got.returncode, got.stdout) != (want.returncode, want.stdout):
                            problems.append(f"{name}: the program of block {n} under `ppy {' '.join(road)}` printed "
                                            f"{got.stdout!r} (status {got.returncode}, {got.stderr[-800:]!r}); "
                                            f"python3 printed {want.stdout!r}")
                    continue
                for line in body.splitlines():
                    line = line.split(" #", 1)[0].strip()
                    try:
                        words = shlex.split(line) if line else []
                    except ValueError:  # a line continued with `\`: an install, never a ppy line
                        continue
                    if not words or words[0] not in ("build/bin/ppy", "ppy", "python3"):
                        continue
                    if any(re.fullmatch(r"\[?[A-Z][A-Z_]*\]?(\.\.\.)?", w) for w in words[1:]):
                        continue  # a synopsis (`ppy cache stats [PROJECT]`), not a command
                    if words[0] != "python3":
                        words[0] = args.ppy
                    got = run(words, tmp)
                    ran += 1
                    if got.returncode != 0:
                        problems.append(f"{name}: `{line}` exited {got.returncode}:\n{got.stderr[-1500:]}")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{ran} doc examples run, {len(problems)} failed")
    return 1 if problems or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
