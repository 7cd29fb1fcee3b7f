#pragma once
/// A content-addressed store of artifacts under the project's cache folder.
///
/// An entry is a folder named by its artifact identity, holding the files a
/// backend answered. It is written under a unique temporary name and renamed
/// into place in one step, so a reader sees a whole entry or none: two builds
/// at once both succeed (the second rename finds the entry there and drops its
/// copy), and a build killed mid-write leaves only a temporary folder that no
/// lookup ever reads.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "ppy/driver/output_tree.h"

namespace ppy::driver {

/// One file of an artifact: its path relative to the output, its bytes and
/// whether it is executable (kept as the stored file's mode).
using ArtifactFile = OutputFile;

class ArtifactCache {
 public:
  /// `root` is e.g. `<project>/.ppy-cache/artifacts`; created on first store.
  explicit ArtifactCache(std::string root) : root_(std::move(root)) {}

  /// The files stored under `key`, or nullopt when there is no complete entry.
  std::optional<std::vector<ArtifactFile>> lookup(const std::string& key) const;

  /// Stores `files` under `key` atomically; storing an existing key is a no-op.
  absl::Status store(const std::string& key, const std::vector<ArtifactFile>& files) const;

  /// Where the entry for `key` lives (whether or not it exists).
  std::string entry_path(const std::string& key) const;

 private:
  std::string root_;
};

}  // namespace ppy::driver
