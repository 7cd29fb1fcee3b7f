#pragma once
/// The artifact cache's hit and miss counters, per backend, kept beside the
/// entries (`<cache>/.ppy-stats`) for `ppy cache stats`. Builds add theirs
/// once, at their end, under a lock, so concurrent builds lose no count.

#include <cstdint>
#include <map>
#include <string>

namespace ppy::driver {

struct CacheCounts {
  uint64_t local_hits = 0;
  uint64_t remote_hits = 0;
  uint64_t misses = 0;           ///< built by the backend
  uint64_t remote_refused = 0;   ///< remote entries that failed their digest check

  CacheCounts& operator+=(const CacheCounts& o) {
    local_hits += o.local_hits;
    remote_hits += o.remote_hits;
    misses += o.misses;
    remote_refused += o.remote_refused;
    return *this;
  }
};

using CountsByBackend = std::map<std::string, CacheCounts>;

/// Adds `counts` to the counters under `root`; false when they could not be
/// written (the cache is then only less informative).
bool add_cache_counts(const std::string& root, const CountsByBackend& counts);

/// The counters under `root` (empty when none were written).
CountsByBackend read_cache_counts(const std::string& root);

}  // namespace ppy::driver
