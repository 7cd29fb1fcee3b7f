#pragma once
/// The native runtime's header (backends/runtime/ppy_runtime.h) as text, for a
/// backend that compiles it beside the code it makes or pastes it into C.

#include <string_view>

namespace ppy::runtime {

/// The whole of ppy_runtime.h.
std::string_view source();

}  // namespace ppy::runtime
