#pragma once
/// The builtin `python` backend: canonical IR back to Python 3 source that
/// python3 runs with the program's behaviour (output, exceptions and their
/// messages, exit status), written to be read: structured loops and branches
/// where the CFG allows, source names kept, values read once written where they
/// are read. It imports nothing but the standard library.

#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "ppy/backend/backend.h"

namespace ppy::backends {

/// The Python source of one module (what `ppy emit python` prints). The module
/// is expected to have passed `validate`; what the writer cannot express is an
/// E1802 refusal all the same.
absl::StatusOr<std::string> python_source(const ir::Module& module);
/// The same and its traceback table (JSON: the source file, generated line ->
/// source line, function -> frame name and role), which `ppy run --backend
/// python` reads to print the original's traceback (issue 34, python_trace.cc).
absl::StatusOr<std::pair<std::string, std::string>> python_source_traced(const ir::Module& module);

/// Where `build` writes a module: `pkg/mod.py`, or `pkg/__init__.py` for a
/// module another module of `modules` is nested in.
std::string python_module_path(const std::string& module, ModuleList modules);

std::unique_ptr<Backend> create_python_backend(const Options& options);

}  // namespace ppy::backends
