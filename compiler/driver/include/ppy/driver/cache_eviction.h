#pragma once
/// Keeps the local artifact cache within its bound (`[tool.ppy] cache-max-size`).
///
/// Least recently used first, down to 90% of the bound (so a cache at its bound
/// is not swept on every build), and never an entry in use: one a lookup is
/// reading (its lock) or one used within the grace period (a build running now
/// may still want what it looked up or stored). One evictor at a time; a build
/// that finds another evicting leaves it to that one.

#include <chrono>
#include <cstdint>

#include "ppy/driver/artifact_cache.h"

namespace ppy::driver {

/// The bound when the project sets none: 1 GiB (ccache's default is 5 GB,
/// for a whole machine; this is one project's).
inline constexpr uint64_t kDefaultCacheMaxBytes = uint64_t{1} << 30;

/// Entries used this recently are kept whatever the bound.
inline constexpr std::chrono::seconds kEvictionGrace{300};

struct EvictionReport {
  uint64_t entries = 0;  ///< complete entries found
  uint64_t bytes = 0;    ///< their size before eviction
  uint64_t removed = 0;
  uint64_t freed = 0;    ///< bytes of the entries removed
  uint64_t skipped_in_use = 0;  ///< entries over the bound kept because they were in use
};

/// Evicts down to the bound when the cache is over it.
EvictionReport evict_to_bound(const ArtifactCache& cache, uint64_t max_bytes,
                              std::chrono::seconds grace = kEvictionGrace);

/// `ppy cache clean`: removes every entry that no lookup is reading now.
EvictionReport remove_unused(const ArtifactCache& cache);

}  // namespace ppy::driver
