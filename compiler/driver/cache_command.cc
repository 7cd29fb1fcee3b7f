// `ppy cache stats|clean`: what the project's artifact cache holds, and emptying it.
#include <cstdio>
#include <filesystem>
#include <map>
#include <ostream>

#include "diagnostics.h"
#include "ppy/driver/artifact_cache.h"
#include "ppy/driver/cache_counts.h"
#include "ppy/driver/cache_eviction.h"
#include "ppy/driver/commands.h"
#include "ppy/project/project.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

std::string human_size(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return str_cat(bytes, " B");
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[u]);
  return buf;
}

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace

int cache_command(const CacheCommandOptions& opts, Streams io) {
  auto project = load_project(opts.target);
  std::error_code ec;
  fs::path root;
  uint64_t max_bytes = kDefaultCacheMaxBytes;
  if (project.ok()) {
    root = project->root;
    if (project->cache_max_size) max_bytes = *project->cache_max_size;
  } else if (fs::is_directory(opts.target, ec)) {
    root = opts.target;  // a folder without modules may still hold a cache
  } else {
    return fail(io.err, project.status());
  }
  // Said in full: where it is, whatever folder it was asked from.
  if (fs::path full = fs::weakly_canonical(root, ec); !ec) root = full;
  ArtifactCache cache((root / ".ppy-cache" / "artifacts").string());

  if (opts.action == "clean") {
    EvictionReport r = remove_unused(cache);
    io.out << "removed " << r.removed << " entries (" << human_size(r.freed) << ") from " << cache.root() << "\n";
    if (r.skipped_in_use) io.out << "kept " << r.skipped_in_use << " entries a build is reading\n";
    return 0;
  }

  struct Row {
    uint64_t entries = 0, bytes = 0;
    CacheCounts counts;
  };
  std::map<std::string, Row> rows;
  uint64_t entries = 0, bytes = 0;
  for (auto& e : cache.entries()) {
    ++entries;
    bytes += e.bytes;
    ++rows[e.backend].entries;
    rows[e.backend].bytes += e.bytes;
  }
  CacheCounts total;
  for (auto& [name, c] : read_cache_counts(cache.root())) {
    rows[name].counts = c;
    total += c;
  }
  io.out << "cache:        " << cache.root() << "\n";
  io.out << "size:         " << human_size(bytes) << " of " << human_size(max_bytes) << " (" << entries
         << " entries)\n";
  io.out << "local hits:   " << total.local_hits << "\n";
  io.out << "remote hits:  " << total.remote_hits << "\n";
  io.out << "misses:       " << total.misses << "\n";
  if (total.remote_refused) io.out << "refused:      " << total.remote_refused << " remote entries failed their digest\n";
  if (rows.empty()) return 0;
  io.out << "\n" << pad("backend", 14) << pad("entries", 9) << pad("size", 12) << pad("local hits", 12)
         << pad("remote hits", 13) << "misses\n";
  for (auto& [name, r] : rows)
    io.out << pad(name, 14) << pad(str_cat(r.entries), 9) << pad(human_size(r.bytes), 12)
           << pad(str_cat(r.counts.local_hits), 12) << pad(str_cat(r.counts.remote_hits), 13) << r.counts.misses
           << "\n";
  return 0;
}

}  // namespace ppy::driver
