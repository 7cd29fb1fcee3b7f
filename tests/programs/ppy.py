"""`python3 prog.ppy` in this folder imports `ppy` from here: the installed
package's own source (python/ppy), loaded under its name, so the corpus runs
against what users install."""
import importlib.util
import os
import sys

_spec = importlib.util.spec_from_file_location(
    "ppy", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "ppy", "__init__.py"))
_package = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_package)
sys.modules["ppy"] = _package
