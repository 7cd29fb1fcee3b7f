#!/usr/bin/env python3
"""Issue 33's benchmark (a benchmark, not a test): word frequencies of a large text.

    tools/bench/wordfreq.py [--ppy build/bin/ppy] [--mb 50] [--repeat 3]

Writes a text file of --mb megabytes (a fixed vocabulary with Zipf-like weights,
the same every run), then runs tools/bench/wordfreq/wordfreq.ppy (read line by
line, split, count with a dict and with Counter, format a report and write it)
under python3, PyPy (a column left empty, with a note, where pypy3 is missing) and
ppy's native executable (`ppy build`, the LLVM road, -O3), each figure the best
processor time of --repeat runs in a process of its own, the reports checked equal
to python3's. Prints the ratios the issue asks for: ppy faster than PyPy, and at
least 3x python3.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import proc_time  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
PROGRAM = os.path.join(HERE, "wordfreq", "wordfreq.ppy")


def make_text(path, megabytes):
    """A text of about `megabytes` MB: lines of 8 to 16 words of a 5,000-word vocabulary."""
    rng = random.Random(33)
    syllables = ["ka", "lo", "mi", "ne", "tu", "ra", "shi", "po", "ve", "din", "gor", "al", "ex", "qua"]
    vocab = ["".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))) for _ in range(5000)]
    vocab = [w.capitalize() if i % 7 == 0 else w for i, w in enumerate(vocab)]
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    target = megabytes * 1_000_000
    written = 0
    with open(path, "w") as f:
        while written < target:
            words = rng.choices(vocab, weights, k=4096)
            lines = []
            i = 0
            while i < len(words):
                n = rng.randint(8, 16)
                lines.append(" ".join(words[i:i + n]) + "\n")
                i += n
            chunk = "".join(lines)
            f.write(chunk)
            written += len(chunk)


def timed(cmd, cwd, repeat, report):
    """(best processor seconds, the report's text) of `cmd`, run `repeat` times."""
    best, text = None, None
    for _ in range(repeat):
        if os.path.exists(report):
            os.remove(report)
        elapsed, p = proc_time.run(cmd, cwd=cwd)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr[-500:]}")
        best = elapsed if best is None else min(best, elapsed)
        with open(report) as f:
            text = f.read()
    return best, text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", default=os.path.join(ROOT, "build", "bin", "ppy"))
    ap.add_argument("--mb", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ppy-wordfreq-") as tmp:
        text = os.path.join(tmp, "words.txt")
        make_text(text, args.mb)
        report = os.path.join(tmp, "report.txt")
        prog = os.path.join(tmp, "wordfreq.ppy")
        shutil.copy(PROGRAM, prog)
        b = subprocess.run([args.ppy, "build", prog, "--backend", "llvm", "--standalone", "-O", "3", "-o",
                            os.path.join(tmp, "out")], capture_output=True, text=True)
        exe = b.stdout.strip().splitlines()[-1] if b.stdout.strip() else ""
        if b.returncode != 0 or not os.path.exists(exe):
            print(f"wordfreq: ppy build failed: {b.stderr[-800:]}", file=sys.stderr)
            return 1
        rows = [("python3", [sys.executable, prog, text, report])]
        pypy = shutil.which("pypy3")
        if pypy:
            rows.append(("pypy3", [pypy, prog, text, report]))
        rows.append(("ppy (llvm -O3)", [exe, text, report]))
        print(f"wordfreq: {os.path.getsize(text) / 1e6:.0f} MB of text, best of {args.repeat}")
        times, expected = {}, None
        for name, cmd in rows:
            t, out = timed(cmd, tmp, args.repeat, report)
            if expected is None:
                expected = out
            elif out != expected:
                print(f"wordfreq: {name}'s report differs from python3's", file=sys.stderr)
                return 1
            times[name] = t
            print(f"  {name:<16}{t:8.2f} s")
        ppy = times["ppy (llvm -O3)"]
        print(f"  python3 / ppy  {times['python3'] / ppy:8.2f}x   (target: at least 3x)")
        if "pypy3" in times:
            print(f"  pypy3 / ppy    {times['pypy3'] / ppy:8.2f}x   (target: above 1, ppy faster)")
        else:
            print("  pypy3 / ppy         -    (pypy3 is not installed: apt-get install pypy3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
