#pragma once
/// `ppy run --backend python`'s traceback hook (issue 34, python_trace_hook.cc).

#include <string>

namespace ppy::driver {

/// Python code that installs `sys.excepthook` so an uncaught exception prints
/// the original program's traceback, reading each generated module's
/// `<module>.py.trace.json` (the python backend's table) and quoting source
/// lines from the files under `source_root`.
[[nodiscard]] std::string python_traceback_hook(const std::string& source_root);

}  // namespace ppy::driver
