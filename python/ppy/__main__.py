"""`python3 -m ppy TARGET [ARGS...]`: a ppy program or project under CPython.

A single file runs as it is, as `__main__`. A project folder is read as ppy
reads it: the `[tool.ppy]` table of its pyproject.toml names the source roots
(default `src` when there is one, else the folder), the module suffix (`.ppy`
by default, or `.py`) and the entry module (default: `main`, or the one module
named `*.main`); the modules import each other through a finder for those
roots, and the entry module runs as `__main__`. ARGS follow in `sys.argv`.
"""

import importlib.abc
import importlib.machinery
import importlib.util
import os
import runpy
import sys
import tomllib


class PpyFinder(importlib.abc.MetaPathFinder):
    """Finds `name` as `<root>/<name>.ppy` (or a package folder) under the roots."""

    def __init__(self, roots, suffix=".ppy"):
        self.roots = roots
        self.suffix = suffix

    def find_spec(self, name, path, target=None):
        rel = name.replace(".", os.sep)
        for root in self.roots:
            base = os.path.join(root, rel)
            if os.path.isfile(base + self.suffix):
                loader = importlib.machinery.SourceFileLoader(name, base + self.suffix)
                return importlib.util.spec_from_file_location(name, base + self.suffix, loader=loader)
            if os.path.isdir(base):
                init = os.path.join(base, "__init__" + self.suffix)
                if os.path.isfile(init):
                    loader = importlib.machinery.SourceFileLoader(name, init)
                    return importlib.util.spec_from_file_location(
                        name, init, loader=loader, submodule_search_locations=[base])
                spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
                spec.submodule_search_locations = [base]
                return spec
        return None


def default_entry(roots, suffix):
    """ppy's default entry: a module `main` (or `__main__`), else the one `*.main`."""
    found = []
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__"]
            for f in files:
                if not f.endswith(suffix):
                    continue
                rel = os.path.relpath(os.path.join(folder, f[: -len(suffix)]), root)
                name = rel.replace(os.sep, ".")
                if name in ("main", "__main__"):
                    return name
                if name.endswith(".main") or name.endswith(".__main__"):
                    found.append(name)
    return found[0] if len(found) == 1 else None


def run(target, args):
    if os.path.isfile(target):
        sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
        sys.argv = [target, *args]
        runpy.run_path(target, run_name="__main__")
        return
    conf = {}
    pyproject = os.path.join(target, "pyproject.toml")
    if os.path.isfile(pyproject):
        with open(pyproject, "rb") as f:
            conf = tomllib.load(f).get("tool", {}).get("ppy", {})
    roots = conf.get("source-roots")
    if roots is None:
        roots = ["src"] if os.path.isdir(os.path.join(target, "src")) else ["."]
    roots = [os.path.join(target, r) for r in roots]
    suffix = conf.get("module-suffix", ".ppy")
    finder = PpyFinder(roots, suffix)
    sys.meta_path.insert(0, finder)
    entry = conf.get("entry") or default_entry(roots, suffix)
    if entry is None:
        raise SystemExit(f"python3 -m ppy: {target} names no entry module ([tool.ppy] entry)")
    spec = finder.find_spec(entry, None)
    if spec is None or spec.origin is None:
        raise SystemExit(f"python3 -m ppy: the entry module {entry} is not in {target}")
    sys.argv = [spec.origin, *args]
    runpy.run_path(spec.origin, run_name="__main__")


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    run(argv[1], argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
