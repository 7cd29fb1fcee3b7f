#pragma once

#include "ppy/driver/commands.h"

namespace ppy::driver {

/// `ppy run --backend c`: links the program, emits it as one standalone C file
/// into the project's cache (`.ppy-cache/run/c`), compiles it with `cc` and the
/// collector's link line (`pkg-config --libs bdw-gc`), and runs it in the
/// foreground; answers its exit status. No `cc` is E1801; a C compiler error
/// is E1802 with its output.
[[nodiscard]] int run_c(const RunOptions& opts, Streams io);

}  // namespace ppy::driver
