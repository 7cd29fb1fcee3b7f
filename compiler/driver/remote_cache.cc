#include "ppy/driver/remote_cache.h"

#include "ppy/cache/v1/action_result.pb.h"
#include "ppy/project/project.h"  // sha256_hex
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {
namespace {

bool plain_relative(const std::string& p) {
  if (p.empty() || p.front() == '/' || p.find('\0') != std::string::npos) return false;
  size_t pos = 0;
  while (pos <= p.size()) {
    size_t slash = p.find('/', pos);
    if (slash == std::string::npos) slash = p.size();
    std::string_view part(p.data() + pos, slash - pos);
    if (part.empty() || part == "." || part == "..") return false;
    pos = slash + 1;
  }
  return true;
}

bool is_hex64(const std::string& s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

/// A response that says the server, not the entry, is the trouble.
bool server_failed(long status) { return status >= 500 || status == 401 || status == 403; }

}  // namespace

RemoteCache::RemoteCache(std::string base, std::unique_ptr<HttpClient> http)
    : base_(std::move(base)), http_(std::move(http)) {
  while (!base_.empty() && base_.back() == '/') base_.pop_back();
}

RemoteLookup RemoteCache::lookup(const std::string& key) {
  using Kind = RemoteLookup::Kind;
  RemoteLookup out;
  auto record = http_->get(str_cat(base_, "/ac/", key));
  if (!record.ok()) return {Kind::kUnavailable, {}, std::string(record.status().message())};
  if (server_failed(record->status)) return {Kind::kUnavailable, {}, str_cat("HTTP ", record->status, " for ac/", key)};
  if (record->status != 200) return out;  // 404: not there
  cache::v1::ActionResult result;
  if (!result.ParseFromString(record->body))
    return {Kind::kRefused, {}, str_cat("ac/", key, " is not an ActionResult (", record->body.size(), " bytes)")};
  for (const auto& f : result.output_files()) {
    const std::string& hash = f.digest().hash();
    if (!plain_relative(f.path()) || !is_hex64(hash) || f.digest().size_bytes() < 0)
      return {Kind::kRefused, {}, str_cat("ac/", key, " names a file or digest that is not plain")};
    auto blob = http_->get(str_cat(base_, "/cas/", hash));
    if (!blob.ok()) return {Kind::kUnavailable, {}, std::string(blob.status().message())};
    if (server_failed(blob->status)) return {Kind::kUnavailable, {}, str_cat("HTTP ", blob->status, " for cas/", hash)};
    if (blob->status != 200) return {Kind::kMiss, {}, {}};  // the server dropped a blob: a miss
    if (static_cast<int64_t>(blob->body.size()) != f.digest().size_bytes() || sha256_hex(blob->body) != hash)
      return {Kind::kRefused, {},
              str_cat("cas/", hash, " (", f.path(), ") came back as ", blob->body.size(), " bytes of SHA-256 ",
                      sha256_hex(blob->body), ", not ", f.digest().size_bytes(), " bytes of ", hash)};
    out.files.push_back({f.path(), std::move(blob->body), f.is_executable()});
  }
  out.kind = Kind::kHit;
  return out;
}

absl::Status RemoteCache::store(const std::string& key, const std::vector<ArtifactFile>& files) {
  cache::v1::ActionResult result;
  for (const ArtifactFile& f : files) {
    std::string hash = sha256_hex(f.bytes);
    PPY_ASSIGN_OR_RETURN(auto r, http_->put(str_cat(base_, "/cas/", hash), f.bytes));
    if (r.status < 200 || r.status > 299)
      return absl::UnavailableError(str_cat("HTTP ", r.status, " for PUT cas/", hash));
    auto* out = result.add_output_files();
    out->set_path(f.path);
    out->mutable_digest()->set_hash(hash);
    out->mutable_digest()->set_size_bytes(static_cast<int64_t>(f.bytes.size()));
    out->set_is_executable(f.executable);
  }
  PPY_ASSIGN_OR_RETURN(auto r, http_->put(str_cat(base_, "/ac/", key), result.SerializeAsString()));
  if (r.status < 200 || r.status > 299) return absl::UnavailableError(str_cat("HTTP ", r.status, " for PUT ac/", key));
  return absl::OkStatus();
}

}  // namespace ppy::driver
