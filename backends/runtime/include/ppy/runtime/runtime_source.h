#pragma once
/// The native runtime's header (backends/runtime/ppy_runtime.h) as text, for a
/// backend that compiles it beside the code it makes or pastes it into C.

#include <string_view>

namespace ppy::runtime {

/// The whole of ppy_runtime.h.
std::string_view source();

/// 16 hex digits of a SHA-256 over source(). An artifact that calls the
/// runtime depends on this text, so backends that link or paste it put the
/// digest in their fingerprint: a changed runtime is a different cache key.
std::string_view digest();

}  // namespace ppy::runtime
