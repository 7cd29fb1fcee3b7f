#include "ppy/driver/cache_eviction.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace ppy::driver {

EvictionReport evict_to_bound(const ArtifactCache& cache, uint64_t max_bytes, std::chrono::seconds grace) {
  EvictionReport r;
  std::error_code ec;
  if (!fs::is_directory(cache.root(), ec)) return r;
  std::string lock_path = cache.root() + "/.ppy-evict.lock";
  int lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0) return r;
  if (::flock(lock, LOCK_EX | LOCK_NB) != 0) {  // another build is evicting
    ::close(lock);
    return r;
  }
  std::vector<CacheEntryInfo> entries = cache.entries();
  r.entries = entries.size();
  for (auto& e : entries) r.bytes += e.bytes;
  uint64_t total = r.bytes;
  uint64_t low_water = max_bytes - max_bytes / 10;
  if (total > max_bytes) {
    std::sort(entries.begin(), entries.end(),
              [](const CacheEntryInfo& a, const CacheEntryInfo& b) { return a.last_use < b.last_use; });
    auto recent = fs::file_time_type::clock::now() - grace;
    for (auto& e : entries) {
      if (total <= low_water) break;
      if (e.last_use > recent || !cache.remove_if_unused(e.key, recent)) {
        ++r.skipped_in_use;
        continue;
      }
      ++r.removed;
      r.freed += e.bytes;
      total -= e.bytes;
    }
  }
  ::close(lock);
  return r;
}

EvictionReport remove_unused(const ArtifactCache& cache) {
  EvictionReport r;
  auto now = fs::file_time_type::clock::now();
  for (auto& e : cache.entries()) {
    ++r.entries;
    r.bytes += e.bytes;
    if (cache.remove_if_unused(e.key, now)) {
      ++r.removed;
      r.freed += e.bytes;
    } else {
      ++r.skipped_in_use;
    }
  }
  return r;
}

}  // namespace ppy::driver
