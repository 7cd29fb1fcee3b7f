"""Runs a ppy program or project under python3 (the oracle of the corpus).

    python3 tests/programs/pyrun.py prog.ppy
    python3 tests/programs/pyrun.py tests/programs/multi_module

A single file runs as it is. A project folder is read as ppy reads it: the
`[tool.ppy]` table of its pyproject.toml names the source roots (default `src`,
else the folder) and the entry module; `.ppy` files import each other through a
finder added for those roots, and the entry module runs as `__main__`.
"""

import importlib.abc
import importlib.machinery
import importlib.util
import os
import runpy
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))


class PpyFinder(importlib.abc.MetaPathFinder):
    def __init__(self, roots):
        self.roots = roots

    def find_spec(self, name, path, target=None):
        rel = name.replace(".", os.sep)
        for root in self.roots:
            base = os.path.join(root, rel)
            if os.path.isfile(base + ".ppy"):
                loader = importlib.machinery.SourceFileLoader(name, base + ".ppy")
                return importlib.util.spec_from_file_location(name, base + ".ppy", loader=loader)
            if os.path.isdir(base):
                init = os.path.join(base, "__init__.ppy")
                if os.path.isfile(init):
                    loader = importlib.machinery.SourceFileLoader(name, init)
                    return importlib.util.spec_from_file_location(
                        name, init, loader=loader, submodule_search_locations=[base])
                spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
                spec.submodule_search_locations = [base]
                return spec
        return None


def main(argv):
    target = argv[1]
    sys.path.insert(0, HERE)  # the `ppy` stand-in (ppy.py)
    if os.path.isfile(target):
        sys.argv = [target]
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
    sys.meta_path.insert(0, PpyFinder(roots))
    entry = conf.get("entry")
    if entry is None:
        raise SystemExit("pyrun: the project names no entry module ([tool.ppy] entry)")
    spec = PpyFinder(roots).find_spec(entry, None)
    sys.argv = [spec.origin]
    runpy.run_path(spec.origin, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv)
