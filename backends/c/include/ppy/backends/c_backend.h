#pragma once
/// The builtin `c` backend: canonical IR as C11 (`c`), C++17 (`cpp`), the C
/// declarations of a module's exports (`header`), and CUDA / HIP with kernels,
/// device functions and the host code launching them (`cuda`, `hip`). Source
/// formats all (no toolchain needed to write them); each unit compiles on its
/// own, carrying the native runtime (backends/runtime/ppy_runtime.h) it calls.
///
/// Flag-shaped options of `ppy emit` arrive in the BackendContext, as entries
/// `--NAME = true` of its backend table: `--standalone` (the whole program,
/// ending in a C `main`), `--header-only` (every function `static inline`
/// under an include guard), `--unsafe` (wrapping arithmetic; guards stay) and
/// `--format` (the text through clang-format).

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ppy/backend/backend.h"

namespace ppy::backends {

/// What the writer is asked for.
struct COptions {
  enum class Dialect { C, Cpp, Header, Cuda, Hip };
  Dialect dialect = Dialect::C;
  bool standalone = false;
  bool header_only = false;
  bool unsafe = false;
};

/// The source of one module in `options.dialect`. E1802 for what the dialect
/// cannot take (device code in C, a standalone program without its entry).
absl::StatusOr<std::string> c_source(const ir::Module& module, const COptions& options);

std::unique_ptr<Backend> create_c_backend(const Options& options);

}  // namespace ppy::backends
