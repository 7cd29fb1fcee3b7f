#pragma once
/// Profile-guided optimization on the LLVM road (docs/llvm.md, "Profile-guided
/// optimization"): `ppy run --profile` builds with the flag `profile-generate`
/// (LLVM's IR instrumentation, counters written by compiler-rt's profile
/// runtime at exit), and `--pgo FILE` builds with an indexed profile
/// (`llvm-profdata-19 merge`'s output) read by PGOInstrumentationUse.
///
/// A profile never makes a wrong build: one that cannot be read, or that was
/// recorded from another program, or whose functions changed since, is a
/// warning (W2009) and the code it does not fit is built as without it.

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/PGOOptions.h"
#include "ppy/backend/backend.h"

namespace ppy::llvm_backend {

/// What the build asks of profiles.
struct ProfileRequest {
  bool generate = false;  ///< instrument (`profile-generate`)
  std::string use;        ///< the indexed profile to optimize with (`pgo`), if any
  /// Why `use` was dropped (unreadable, not an indexed profile): the build goes on without it.
  std::string unusable;
};

/// The request of the context's flags; `use` checked readable as an indexed profile.
[[nodiscard]] ProfileRequest profile_request(const BackendContext& context);

/// The pass builder's options for the request, or nullopt (no profile work).
[[nodiscard]] std::optional<llvm::PGOOptions> pgo_options(const ProfileRequest& request);

/// Why an indexed profile at `path` cannot be used, or "" when it can.
[[nodiscard]] std::string unreadable_profile(const std::string& path);

/// After optimizing with a profile: a warning when none of `module`'s defined
/// functions found counts in it (a profile recorded from another program), or "".
[[nodiscard]] std::string foreign_profile_warning(const llvm::Module& module, const std::string& path);

/// The linker arguments an instrumented executable needs (compiler-rt's
/// profile runtime, libclang-rt-19-dev), or E1801 naming what to install.
[[nodiscard]] absl::StatusOr<std::vector<std::string>> profile_runtime_link_args();

/// `warning[W2009]: ...`: how a profile's warnings are spelled in the notes.
[[nodiscard]] std::string profile_warning(const std::string& text);

}  // namespace ppy::llvm_backend
