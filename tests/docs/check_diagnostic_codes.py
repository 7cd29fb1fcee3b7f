#!/usr/bin/env python3
"""Every diagnostic code the sources issue has a row in docs/diagnostics.md, and
every row there has an example (issue 34): a code added without its row, or a
row without an example, fails here.

A code is a quoted `"E1234"` or `"W2345"` in a C++ source that is not a test;
a row is a table line `| E1234 | what | example |` whose last cell is not empty.
"""
import argparse
import glob
import os
import re
import sys

CODE = re.compile(r'"([EW][0-9]{4})"')
ROW = re.compile(r"^\|\s*([EW][0-9]{4})\s*\|(.*)\|\s*$")
SOURCES = ("compiler", "backends", "backend-host", "sdk", "plugins")


def issued_codes(root):
    codes = {}
    for top in SOURCES:
        for path in glob.glob(os.path.join(root, top, "**", "*.[ch]*"), recursive=True):
            if "_test." in path or not path.endswith((".cc", ".h", ".c", ".cpp")):
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for code in CODE.findall(f.read()):
                    codes.setdefault(code, os.path.relpath(path, root))
    return codes


def documented_rows(doc):
    rows = {}
    with open(doc, encoding="utf-8") as f:
        for line in f:
            m = ROW.match(line.rstrip("\n"))
            if m:
                cells = [c.strip() for c in re.split(r"(?<!\\)\|", m.group(2))]
                rows[m.group(1)] = cells
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    rows = documented_rows(os.path.join(args.root, "docs", "diagnostics.md"))
    problems = []
    for code, where in sorted(issued_codes(args.root).items()):
        if code not in rows:
            problems.append(f"{code} (issued in {where}) has no row in docs/diagnostics.md")
    for code, cells in sorted(rows.items()):
        if len(cells) < 2 or not cells[-1]:
            problems.append(f"{code}'s row in docs/diagnostics.md has no example message")
    for p in problems:
        print(p)
    print(f"{len(rows)} documented codes, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
