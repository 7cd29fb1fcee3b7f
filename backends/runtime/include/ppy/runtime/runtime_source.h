#pragma once
/// The native runtime (backends/runtime: ppy_runtime.h and the files it names)
/// as text, for a backend that compiles it beside the code it makes or pastes
/// it into C.

#include <string_view>

namespace ppy::runtime {

/// The runtime's headers, then its C files, in dependency order and without
/// their includes of one another: one C11 unit that stands alone (functions
/// `static` unless PPY_RT_API says otherwise; what needs the collector only
/// under PPY_RT_STRINGS).
std::string_view source();

/// 16 hex digits of a SHA-256 over source(). An artifact that calls the
/// runtime depends on this text, so backends that link or paste it put the
/// digest in their fingerprint: a changed runtime is a different cache key.
std::string_view digest();

}  // namespace ppy::runtime
