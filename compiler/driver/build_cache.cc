#include "ppy/driver/build_cache.h"

#include "ppy/driver/backend_context.h"
#include "ppy/driver/cache_eviction.h"

namespace ppy::driver {

CacheSettings cache_settings(const Compilation& c, const std::string& target, bool enabled) {
  CacheSettings s;
  s.enabled = enabled;
  s.local_root = cache_root(c, target) + "/artifacts";
  s.max_bytes = c.project && c.project->cache_max_size ? *c.project->cache_max_size : kDefaultCacheMaxBytes;
  return s;
}

BuildCache::BuildCache(CacheSettings settings, std::ostream& warnings)
    : settings_(std::move(settings)), local_(settings_.local_root), warnings_(warnings) {}

std::optional<std::vector<ArtifactFile>> BuildCache::lookup(const std::string& key, const std::string& backend) {
  if (!settings_.enabled) return std::nullopt;
  auto hit = local_.lookup(key);
  std::lock_guard<std::mutex> lock(mu_);
  if (hit)
    ++counts_[backend].local_hits;
  else
    ++counts_[backend].misses;
  return hit;
}

void BuildCache::store(const std::string& key, const std::vector<ArtifactFile>& files, const std::string& backend) {
  if (!settings_.enabled) return;
  if (local_.store(key, files, backend).ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    stored_ = true;
  }
}

void BuildCache::finish() {
  if (!settings_.enabled) return;
  (void)add_cache_counts(local_.root(), counts());
  if (stored_) (void)evict_to_bound(local_, settings_.max_bytes);
}

CountsByBackend BuildCache::counts() const {
  std::lock_guard<std::mutex> lock(mu_);
  return counts_;
}

}  // namespace ppy::driver
