#include "ppy/driver/cache_counts.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ppy/util/file.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

// One line a backend: `NAME local_hits remote_hits misses remote_refused`.
constexpr const char* kStats = ".ppy-stats";

CountsByBackend parse(std::istream& in) {
  CountsByBackend out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::string name;
    CacheCounts c;
    if (l >> name >> c.local_hits >> c.remote_hits >> c.misses >> c.remote_refused) out[name] += c;
  }
  return out;
}

}  // namespace

CountsByBackend read_cache_counts(const std::string& root) {
  std::ifstream in(fs::path(root) / kStats);
  return parse(in);
}

bool add_cache_counts(const std::string& root, const CountsByBackend& counts) {
  if (counts.empty()) return true;
  std::error_code ec;
  fs::create_directories(root, ec);
  std::string lock_path = str_cat(root, "/", kStats, ".lock");
  int lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0) return false;
  bool ok = false;
  if (::flock(lock, LOCK_EX) == 0) {
    CountsByBackend all = read_cache_counts(root);
    for (auto& [name, c] : counts) all[name] += c;
    std::string text;
    for (auto& [name, c] : all)
      str_append(text, name, " ", c.local_hits, " ", c.remote_hits, " ", c.misses, " ", c.remote_refused, "\n");
    // Whole or not at all: a reader never sees half a file. Not fsynced: a
    // tally a crash may set back is not worth two fsyncs on every build.
    FileWriteOptions how;
    how.durable = false;
    ok = write_file_atomic(fs::path(root) / kStats, text, how).ok();
  }
  ::close(lock);
  return ok;
}

}  // namespace ppy::driver
