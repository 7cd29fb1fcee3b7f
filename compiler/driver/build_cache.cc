#include "ppy/driver/build_cache.h"

#include <cstdlib>

#include "ppy/driver/backend_context.h"
#include "ppy/driver/cache_eviction.h"
#include "ppy/util/escape.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

CacheSettings cache_settings(const Compilation& c, const std::string& target, bool enabled) {
  CacheSettings s;
  s.enabled = enabled;
  s.local_root = cache_root(c, target) + "/artifacts";
  s.max_bytes = c.project && c.project->cache_max_size ? *c.project->cache_max_size : kDefaultCacheMaxBytes;
  if (std::getenv("PPY_REMOTE_CACHE")) {
    s.remote_url = env("PPY_REMOTE_CACHE");
    s.remote_from = "PPY_REMOTE_CACHE";
  } else if (c.project && c.project->remote_cache) {
    s.remote_url = *c.project->remote_cache;
    s.remote_from = "[tool.ppy] remote-cache";
  }
  s.remote_http.bearer_token = env("PPY_REMOTE_CACHE_TOKEN");
  s.remote_http.ca_file = env("PPY_REMOTE_CACHE_CA");
  if (long ms = std::atol(env("PPY_REMOTE_CACHE_TIMEOUT_MS").c_str()); ms > 0 && ms <= 600'000)
    s.remote_http.timeout = std::chrono::milliseconds(ms);
  return s;
}

BuildCache::BuildCache(CacheSettings settings, std::ostream& warnings)
    : settings_(std::move(settings)), local_(settings_.local_root), warnings_(warnings) {
  if (!settings_.enabled || settings_.remote_url.empty()) return;
  const std::string& url = settings_.remote_url;
  if (!url.starts_with("http://") && !url.starts_with("https://")) {
    warnings_ << "warning: " << settings_.remote_from << " '" << escape_control(url)
              << "' is not an http:// or https:// URL; the remote cache is not used\n";
    return;
  }
  auto http = settings_.make_http ? settings_.make_http(settings_.remote_http)
                                  : make_curl_http_client(settings_.remote_http);
  remote_ = std::make_unique<RemoteCache>(url, std::move(http));
}

void BuildCache::give_up_remote(const std::string& why) {
  // Called with mu_ held.
  if (!remote_) return;
  warnings_ << "warning: remote cache " << escape_control(remote_->base()) << " is unavailable ("
            << escape_control(why) << "); building without it\n";
  remote_.reset();
}

std::optional<std::vector<ArtifactFile>> BuildCache::lookup(const std::string& key, const std::string& backend,
                                                            CacheSource* source) {
  if (source) *source = CacheSource::kBuilt;
  if (!settings_.enabled) return std::nullopt;
  if (auto hit = local_.lookup(key)) {
    std::lock_guard<std::mutex> lock(mu_);
    ++counts_[backend].local_hits;
    if (source) *source = CacheSource::kLocal;
    return hit;
  }
  std::lock_guard<std::mutex> lock(mu_);  // remote requests one at a time
  if (remote_) {
    RemoteLookup r = remote_->lookup(key);
    switch (r.kind) {
      case RemoteLookup::Kind::kHit:
        if (local_.store(key, r.files, backend).ok()) stored_ = true;
        ++counts_[backend].remote_hits;
        if (source) *source = CacheSource::kRemote;
        return std::move(r.files);
      case RemoteLookup::Kind::kRefused:
        warnings_ << "warning: remote cache entry " << key << " refused: " << escape_control(r.why)
                  << "; building it here\n";
        ++counts_[backend].remote_refused;
        break;
      case RemoteLookup::Kind::kUnavailable:
        give_up_remote(r.why);
        break;
      case RemoteLookup::Kind::kMiss:
        break;
    }
  }
  ++counts_[backend].misses;
  return std::nullopt;
}

void BuildCache::store(const std::string& key, const std::vector<ArtifactFile>& files, const std::string& backend) {
  if (!settings_.enabled) return;
  bool stored = local_.store(key, files, backend).ok();
  std::lock_guard<std::mutex> lock(mu_);
  stored_ = stored_ || stored;
  if (remote_)
    if (auto s = remote_->store(key, files); !s.ok()) give_up_remote(std::string(s.message()));
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
