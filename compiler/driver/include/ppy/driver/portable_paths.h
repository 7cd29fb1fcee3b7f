#pragma once
/// Source paths as a backend sees them: relative to the project folder, not
/// where the checkout happens to be. The artifact cache's key holds no part of
/// the checkout's place (docs/cache.md), so what a backend makes from a module
/// must not either: a location it copies into an artifact (the toy's text,
/// debug information) then reads the same in every checkout, and two checkouts
/// in different folders share their artifacts through a remote cache whether
/// they were built as `ppy build .` or `ppy build /abs/checkout`. This is
/// ccache's `base_dir` and Bazel's execroot-relative paths.

#include <string>

#include "ppy/ir/ir.h"

namespace ppy::driver {

/// `path` relative to `root` when it lies inside it (`/a/app/src/m.ppy` under
/// `/a/app` -> `src/m.ppy`), else as it is. A relative `path` is taken as
/// the command line gave it, like `root` (both from the same working folder).
std::string under_root(const std::string& path, const std::string& root);

/// Rewrites every location of `m` (its functions' and their operations', at
/// any depth) by under_root().
void make_locations_portable(ir::Module& m, const std::string& root);

}  // namespace ppy::driver
