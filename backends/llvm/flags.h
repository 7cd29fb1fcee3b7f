#pragma once
/// The LLVM road's flags (`ppy build --standalone --target aarch64-linux-gnu`) as
/// the backend reads them: the driver puts them in the BackendContext, in the
/// backend's own table under `flags` (`flags = {standalone = "", target =
/// "aarch64-linux-gnu"}`), over any the project's table sets. They cross the
/// wire with the context, and the build's cache key covers them.

#include <string>
#include <string_view>

#include "ppy/backend/backend.h"

namespace ppy::llvm_backend {

/// Whether the flag `name` (without dashes) was given.
bool has_flag(const BackendContext& context, std::string_view name);

/// Its value ("" for a switch), or `fallback` when it was not given.
std::string flag_value(const BackendContext& context, std::string_view name, std::string_view fallback = {});

}  // namespace ppy::llvm_backend
