#pragma once
/// The shared artifact cache: a Bazel HTTP remote cache (bazel-remote, nginx
/// with WebDAV, anything that serves `GET`/`PUT` of `<base>/ac/<key>` and
/// `<base>/cas/<sha256>`).
///
/// An entry is an action-cache record under the artifact key, an ActionResult
/// (proto/ppy/cache/v1/action_result.proto) naming each file by the SHA-256
/// and size of its bytes, and those bytes as CAS blobs. What comes back is
/// checked against those digests before use: a blob that is wrong or cut
/// short refuses the entry.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ppy/driver/artifact_cache.h"
#include "ppy/driver/http_client.h"

namespace ppy::driver {

struct RemoteLookup {
  enum class Kind {
    kHit,
    kMiss,         ///< no record, or a blob it names is gone
    kRefused,      ///< a record or blob failed its check (`why` says which)
    kUnavailable,  ///< no answer, or the server failed (`why`)
  };
  Kind kind = Kind::kMiss;
  std::vector<ArtifactFile> files;
  std::string why;
};

class RemoteCache {
 public:
  /// `base` without a trailing slash, e.g. `http://cache.internal:8080/ppy`.
  RemoteCache(std::string base, std::unique_ptr<HttpClient> http);

  RemoteLookup lookup(const std::string& key);

  /// Writes the blobs, then the record (so a reader never finds a record whose
  /// blobs are not there yet). UNAVAILABLE when the server cannot be reached.
  absl::Status store(const std::string& key, const std::vector<ArtifactFile>& files);

  const std::string& base() const { return base_; }

 private:
  std::string base_;
  std::unique_ptr<HttpClient> http_;
};

}  // namespace ppy::driver
