#pragma once
// What `ppy emit` and `ppy build` do before they differ: the command line's
// host settings, the -o checks, the project, the backend started and its
// toolchain checked, the target compiled, the backend's context made.

#include <optional>
#include <string>

#include "ppy/driver/backend_catalog.h"
#include "ppy/driver/build_report.h"
#include "ppy/driver/commands.h"
#include "ppy/driver/compile.h"

namespace ppy::driver {

/// What a command asks of its opening.
struct OpeningRequest {
  std::string target;
  std::optional<int> opt_level;
  int jobs = 0;
  HostFlags host;
  std::optional<std::string> output;  ///< -o, checked before any backend starts
  bool replace_output = false;        ///< -o is a folder the command replaces (build): checked so too
  std::string backend;                ///< the backend by name (build), or
  std::string format;                 ///< the backend that owns this format (emit)
  /// Keys before IR (build): when the project's keys memo holds this
  /// project's keys (ppy/driver/keys_memo.h), the opening makes the context
  /// from them and compiles nothing; compile_opened() compiles when the
  /// artifact turns out not to be cached.
  bool keys_first = false;
};

/// What an opened command holds: its backend, started (owned by `catalog`),
/// the format asked for, the compiled target and the backend's context.
struct Opened {
  std::optional<BackendCatalog> catalog;
  host::BackendHandle* backend = nullptr;
  const EmitFormat* format = nullptr;  ///< emit's format (in the backend's info); null for build
  Compilation compilation;
  BackendContext context;
  /// False when the compilation holds the memo's keys and no modules yet.
  bool compiled = true;
  std::string keys_memo;  ///< where the keys are remembered (keys_first), or empty
};

/// Opens `ppy emit` and `ppy build` alike, in one place so that the two roads
/// cannot drift apart (issue 17): they read the same settings, start and check
/// their backend the same way, and compile with portable paths, since both
/// cache what the backend makes. `progress` (build's report), when given,
/// shows the compile's progress and says the sandbox warning; else the
/// warning goes to `io.err`. Answers 0 with `out` filled, or the exit status
/// once the failure is reported on `io.err`.
int open_command(const OpeningRequest& request, Streams io, BuildReport* progress, Opened& out);

/// Compiles what an opening with keys only (`!out.compiled`) left for later:
/// the modules, whose keys must be the memo's (an Internal error if not, and
/// then nothing is built). Answers as open_command does.
int compile_opened(const OpeningRequest& request, Streams io, BuildReport* progress, Opened& out);

}  // namespace ppy::driver
