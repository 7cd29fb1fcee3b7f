#pragma once
// `ppy run`'s roads that cannot use the JIT (`--sanitize`, `--profile`,
// `--pgo`): each builds a standalone executable on the LLVM road into a
// scratch folder (cached like any build) and runs it once.

#include <map>
#include <string>
#include <vector>

#include "ppy/driver/commands.h"

namespace ppy::driver {

/// What build_for_run made: the executable, or the build's exit status.
struct BuiltForRun {
  std::string executable;  ///< empty when the build failed
  int status = 0;          ///< the build's exit status; nonzero when it failed
};

/// Builds `opts.target` with `opts.opt_level` into `folder` as a standalone
/// executable, with the LLVM road's `llvm_only` options (and `llvm_values`
/// for those that take one) on top. A failed build's errors are written to `io.err`; a good build's
/// warnings (W2009 for a profile) are too, its listing of artifacts is not.
[[nodiscard]] BuiltForRun build_for_run(const RunOptions& opts, const std::string& folder,
                                        const std::vector<std::string>& llvm_only,
                                        const std::map<std::string, std::string>& llvm_values, Streams io);

/// Runs what build_for_run made with `opts.args` as its arguments and `env`
/// added, on the driver's streams; it dies with the driver. Its exit status.
[[nodiscard]] int run_built(const RunOptions& opts, const BuiltForRun& built, Streams io,
                            const std::vector<std::string>& env = {});

}  // namespace ppy::driver
