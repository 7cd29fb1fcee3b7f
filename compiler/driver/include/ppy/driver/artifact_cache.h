#pragma once
/// A content-addressed store of artifacts under the project's cache folder.
///
/// An entry is a folder named by its artifact identity, holding the files a
/// backend answered. It is written under a unique temporary name and renamed
/// into place in one step, so a reader sees a whole entry or none: two builds
/// at once both succeed (the second rename finds the entry there and drops its
/// copy), and a build killed mid-write leaves only a temporary folder that no
/// lookup ever reads.
///
/// Each entry's index file is also its lock and its clock: a lookup holds a
/// shared flock on it while it reads and sets its mtime (the entry's last use),
/// and removal takes the lock exclusively without waiting, so an entry being
/// read is never removed (the remover skips it) and least-recently-used
/// eviction orders entries by that mtime.

#include <cstdint>
#include <filesystem>
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

/// What `ppy cache stats` and eviction need to know of one entry.
struct CacheEntryInfo {
  std::string key;
  std::string backend;  ///< who made it; "unknown" for entries older than the field
  uint64_t bytes = 0;   ///< the sizes of its files
  std::filesystem::file_time_type last_use;
};

class ArtifactCache {
 public:
  /// `root` is e.g. `<project>/.ppy-cache/artifacts`; created on first store.
  explicit ArtifactCache(std::string root) : root_(std::move(root)) {}

  /// The files stored under `key`, or nullopt when there is no complete entry.
  /// A hit marks the entry as used now.
  std::optional<std::vector<ArtifactFile>> lookup(const std::string& key) const;

  /// Stores `files` under `key` atomically, recording which backend made them;
  /// storing an existing key only marks it used.
  absl::Status store(const std::string& key, const std::vector<ArtifactFile>& files,
                     const std::string& backend = "") const;

  /// Where the entry for `key` lives (whether or not it exists).
  std::string entry_path(const std::string& key) const;

  /// Every complete entry (temporaries and half-removed entries left out).
  std::vector<CacheEntryInfo> entries() const;

  /// Removes the entry unless a lookup is reading it or it was used after
  /// `unused_since`; true when it was removed.
  bool remove_if_unused(const std::string& key, std::filesystem::file_time_type unused_since) const;

  const std::string& root() const { return root_; }

 private:
  std::string root_;
};

}  // namespace ppy::driver
