#pragma once
/// The artifact cache as one build uses it: the project's local cache, kept in
/// its bound, counted per backend for `ppy cache stats`, or no cache at all
/// (`--no-cache`). The roads (emit, build, run) ask it and never the layers
/// below.

#include <cstdint>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ppy/driver/artifact_cache.h"
#include "ppy/driver/cache_counts.h"
#include "ppy/driver/compile.h"

namespace ppy::driver {

struct CacheSettings {
  /// False for `--no-cache`: nothing is read or written.
  bool enabled = true;
  /// `<project>/.ppy-cache/artifacts`.
  std::string local_root;
  /// `[tool.ppy] cache-max-size`, else kDefaultCacheMaxBytes.
  uint64_t max_bytes = 0;
};

/// The settings for compilation `c` of `target` (its project's table).
CacheSettings cache_settings(const Compilation& c, const std::string& target, bool enabled = true);

/// Where an artifact came from, for the build's summary.
enum class CacheSource { kLocal, kBuilt };

class BuildCache {
 public:
  /// `warnings` takes what the cache has to say (it never fails a build).
  BuildCache(CacheSettings settings, std::ostream& warnings);

  /// The files stored under `key` (made by `backend`), or nullopt: the caller
  /// builds them and stores them.
  std::optional<std::vector<ArtifactFile>> lookup(const std::string& key, const std::string& backend);

  /// Keeps what `backend` built under `key`. A cache that cannot be written
  /// only costs time.
  void store(const std::string& key, const std::vector<ArtifactFile>& files, const std::string& backend);

  /// Once the build is done: adds its counts to the cache's and evicts down
  /// to the bound when it stored anything.
  void finish();

  /// This build's counts so far.
  CountsByBackend counts() const;

 private:
  CacheSettings settings_;
  ArtifactCache local_;
  std::ostream& warnings_;
  mutable std::mutex mu_;
  CountsByBackend counts_;
  bool stored_ = false;
};

}  // namespace ppy::driver
