#pragma once
/// The builtin `llvm` backend: canonical IR to LLVM IR, objects, libraries and
/// executables (docs/llvm.md). An ordinary SDK backend: linked into the driver
/// and hosted in-process by default, and also served as the helper
/// `ppy-backend-llvm` (`[tool.ppy.backends.llvm] hosting = "helper"`).

#include <memory>

#include "ppy/backend/backend.h"

namespace ppy::backends {

/// The backend, with its table (`debug-crash = "codegen"` makes code
/// generation abort inside LLVM: how the tests show a crash is contained).
std::unique_ptr<Backend> create_llvm_backend(const Options& options);

}  // namespace ppy::backends
