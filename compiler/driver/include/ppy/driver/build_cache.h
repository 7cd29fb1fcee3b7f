#pragma once
/// The artifact cache as one build uses it: the project's local cache first,
/// kept in its bound, then the shared remote cache when one is configured
/// (a remote hit is checked and kept locally, a fresh build is written back),
/// counted per backend for `ppy cache stats`; or no cache at all
/// (`--no-cache`). The roads (emit, build, run) ask it and never the layers
/// below. A remote cache that is down, slow or refusing is a warning, once,
/// and the build goes on without it.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ppy/driver/artifact_cache.h"
#include "ppy/driver/cache_counts.h"
#include "ppy/driver/compile.h"
#include "ppy/driver/http_client.h"
#include "ppy/driver/remote_cache.h"

namespace ppy::driver {

struct CacheSettings {
  /// False for `--no-cache`: nothing is read or written.
  bool enabled = true;
  /// `<project>/.ppy-cache/artifacts`.
  std::string local_root;
  /// `[tool.ppy] cache-max-size`, else kDefaultCacheMaxBytes.
  uint64_t max_bytes = 0;
  /// The shared cache's base URL: PPY_REMOTE_CACHE when set (empty: none),
  /// else `[tool.ppy] remote-cache`; empty: no remote cache.
  std::string remote_url;
  /// What names the URL, for warnings (`PPY_REMOTE_CACHE`, `[tool.ppy] remote-cache`).
  std::string remote_from;
  /// Token (PPY_REMOTE_CACHE_TOKEN), CA file (PPY_REMOTE_CACHE_CA) and each
  /// request's deadline (PPY_REMOTE_CACHE_TIMEOUT_MS, default 5000).
  HttpClientOptions remote_http;
  /// Test seam: the client the remote cache speaks through (default libcurl's).
  std::function<std::unique_ptr<HttpClient>(const HttpClientOptions&)> make_http;
};

/// The settings for compilation `c` of `target` (its project's table).
CacheSettings cache_settings(const Compilation& c, const std::string& target, bool enabled = true);

/// Where an artifact came from, for the build's summary.
enum class CacheSource { kLocal, kRemote, kBuilt };

class BuildCache {
 public:
  /// `warnings` takes what the cache has to say (it never fails a build).
  BuildCache(CacheSettings settings, std::ostream& warnings);

  /// The files stored under `key` (made by `backend`), or nullopt: the caller
  /// builds them and stores them. `source`, when given, says which cache answered.
  std::optional<std::vector<ArtifactFile>> lookup(const std::string& key, const std::string& backend,
                                                  CacheSource* source = nullptr);

  /// Keeps what `backend` built under `key`, locally and in the remote cache.
  /// A cache that cannot be written only costs time.
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
  std::unique_ptr<RemoteCache> remote_;  ///< null: none, or given up on for this build

  /// Says why the remote cache is not used from now on (once).
  void give_up_remote(const std::string& why);
};

}  // namespace ppy::driver
