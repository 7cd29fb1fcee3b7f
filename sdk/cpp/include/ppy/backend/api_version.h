#pragma once
/// The backend API version this driver and its builtins speak. Not installed
/// with the SDK: a vendor's backend must not declare itself with this constant
/// (one built against version 1 would call itself 2 the day it is rebuilt
/// against a version-2 SDK, and the number would catch nothing), so it writes the
/// literal. Builtins, linked into the driver, track it on purpose.

namespace ppy {

inline constexpr int kBackendApiVersion = 1;

}  // namespace ppy
