#pragma once
/// How a build's files cross from the backend to the user, once: the backend's
/// answer carries them as bytes (host::InvocationResult::files), they are
/// stored into the artifact cache from memory, and `-o` is written from the
/// same memory (write_tree_atomically). Nothing is staged for the backend,
/// read back or written twice; a cache hit reads the entry once.

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/driver/build_cache.h"
#include "ppy/driver/output_tree.h"
#include "ppy/host/handle.h"

namespace ppy::driver {

/// A build's files, from the cache or the backend.
struct BuiltFiles {
  std::vector<OutputFile> files;     ///< what goes under `-o`
  std::vector<std::string> outputs;  ///< BuildResult.outputs, relative to `-o`
  std::vector<std::string> notes;    ///< the backend's notes (none from the cache)
  CacheSource source = CacheSource::kBuilt;
  std::string server;  ///< the server that built them (a farm), when one did
};

/// The files stored under `key` in `cache`, or, on a miss, those `backend`
/// builds for `build` (a Build invocation), stored under `key` on the way.
/// A backend's failure is its status; a cache that cannot be written only
/// costs time. `prepare`, when given, is called on a miss before the backend
/// is: what the build needs only then (the modules, when the key came from
/// the keys memo) is made there, into the invocation; its failure is the answer.
[[nodiscard]] absl::StatusOr<BuiltFiles> built_files(
    host::BackendHandle& backend, const host::Invocation& build, BuildCache& cache, const std::string& key,
    const std::function<absl::Status(host::Invocation&)>& prepare = nullptr);

}  // namespace ppy::driver
