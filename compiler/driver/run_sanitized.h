#pragma once
// `ppy run --sanitize`: what run.cc asks of the sanitized road.

#include <optional>
#include <string>

#include "ppy/backend/backend.h"

namespace ppy::driver {

/// The `sanitize` of the project's `[tool.ppy.backends.llvm.flags]`, in the
/// context: a JIT cannot run code built for it, so `ppy run` takes the
/// sanitized road then.
[[nodiscard]] std::optional<std::string> sanitize_in_project_flags(const BackendContext& context);

}  // namespace ppy::driver
