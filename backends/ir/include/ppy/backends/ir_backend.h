#pragma once
/// The builtin `ir` backend: formats `ir` (one `.ppyir` per module) and
/// `linked-ir` (every module linked into one). It ships with the interface, so
/// it tracks `kBackendApiVersion` instead of declaring a literal.

#include <memory>

#include "ppy/backend/backend.h"

namespace ppy::backends {

std::unique_ptr<Backend> create_ir_backend(const Options& options);

}  // namespace ppy::backends
