#include "ppy/driver/artifact_cache.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <random>

#include "ppy/util/file.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

constexpr const char* kIndex = ".ppy-entry";  // the list of files, one path a line; the entry's lock and clock
constexpr const char* kAbout = ".ppy-about";  // `backend NAME`: who made the entry

std::string unique_suffix() {
  static std::atomic<uint64_t> counter{0};
  std::random_device rd;
  return str_cat(".tmp-", static_cast<int64_t>(getpid()), "-", static_cast<uint64_t>(rd()), "-",
                 counter.fetch_add(1));
}

bool safe_relative(const std::string& p) {
  if (p.empty() || p[0] == '/' || p == kIndex || p == kAbout) return false;
  for (auto& part : fs::path(p))
    if (part == ".." || part == ".") return false;
  return true;
}

absl::Status errno_status(std::string_view what, const std::string& path) {
  return absl::InternalError(str_cat("cannot ", what, " ", path, ": ", std::strerror(errno)));
}

std::optional<std::string> read_all(const fs::path& p) {
  auto bytes = read_file(p);
  if (!bytes.ok()) return std::nullopt;
  return std::move(*bytes);
}

std::optional<std::string> read_fd(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) return out;
    out.append(buf, static_cast<size_t>(n));
  }
}

/// Closes a descriptor (and so drops its flock) on every way out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

/// Whether `fd` is still the index at `path` (not one whose entry was removed
/// while we waited for its lock).
bool still_in_place(int fd, const fs::path& path) {
  struct stat held{}, now{};
  return ::fstat(fd, &held) == 0 && ::stat(path.c_str(), &now) == 0 && held.st_ino == now.st_ino &&
         held.st_dev == now.st_dev;
}

}  // namespace

std::string ArtifactCache::entry_path(const std::string& key) const {
  return (fs::path(root_) / key.substr(0, 2) / key).string();
}

std::optional<std::vector<ArtifactFile>> ArtifactCache::lookup(const std::string& key) const {
  fs::path entry = entry_path(key);
  Fd index_fd{::open((entry / kIndex).c_str(), O_RDONLY | O_CLOEXEC)};
  if (index_fd.fd < 0) return std::nullopt;
  // Held until the files are read: a remover skips an entry being read.
  if (::flock(index_fd.fd, LOCK_SH) != 0 || !still_in_place(index_fd.fd, entry / kIndex)) return std::nullopt;
  (void)::futimens(index_fd.fd, nullptr);  // used now (a cache we may not touch still answers)
  auto index = read_fd(index_fd.fd);
  if (!index) return std::nullopt;
  std::vector<ArtifactFile> files;
  size_t start = 0;
  while (start < index->size()) {
    size_t nl = index->find('\n', start);
    if (nl == std::string::npos) return std::nullopt;  // the index always ends in a newline
    std::string rel = index->substr(start, nl - start);
    start = nl + 1;
    if (!safe_relative(rel)) return std::nullopt;
    auto bytes = read_all(entry / rel);
    if (!bytes) return std::nullopt;
    files.push_back({rel, std::move(*bytes), is_executable(entry / rel)});
  }
  return files;
}

absl::Status ArtifactCache::store(const std::string& key, const std::vector<ArtifactFile>& files,
                                  const std::string& backend) const {
  fs::path entry = entry_path(key);
  std::error_code ec;
  if (fs::exists(entry / kIndex, ec)) {
    (void)::utimensat(AT_FDCWD, (entry / kIndex).c_str(), nullptr, 0);
    return absl::OkStatus();
  }
  fs::create_directories(entry.parent_path(), ec);
  if (ec) return absl::InternalError(str_cat("cannot create ", entry.parent_path().string(), ": ", ec.message()));
  fs::path tmp = entry.string() + unique_suffix();
  fs::create_directories(tmp, ec);
  if (ec) return absl::InternalError(str_cat("cannot create ", tmp.string(), ": ", ec.message()));
  std::string index;
  for (auto& f : files) {
    if (!safe_relative(f.path)) {
      fs::remove_all(tmp, ec);
      return absl::InvalidArgumentError(str_cat("artifact path '", f.path, "' leaves its folder"));
    }
    fs::path p = tmp / f.path;
    fs::create_directories(p.parent_path(), ec);
    if (auto s = write_new_file(p, f.bytes, {.executable = f.executable}); !s.ok()) {
      fs::remove_all(tmp, ec);
      return s;
    }
    str_append(index, f.path, "\n");
  }
  if (auto s = write_new_file(tmp / kAbout, str_cat("backend ", backend.empty() ? "unknown" : backend, "\n"));
      !s.ok()) {
    fs::remove_all(tmp, ec);
    return s;
  }
  if (auto s = write_new_file(tmp / kIndex, index); !s.ok()) {
    fs::remove_all(tmp, ec);
    return s;
  }
  sync_folder(tmp);
  if (::rename(tmp.c_str(), entry.c_str()) != 0) {
    // Another build stored the same key first: its entry is as good as ours.
    int err = errno;
    fs::remove_all(tmp, ec);
    if (err != ENOTEMPTY && err != EEXIST) {
      errno = err;
      return errno_status("store", entry.string());
    }
  }
  sync_folder(entry.parent_path());
  return absl::OkStatus();
}

std::vector<CacheEntryInfo> ArtifactCache::entries() const {
  std::vector<CacheEntryInfo> out;
  std::error_code ec;
  for (auto& shard : fs::directory_iterator(root_, ec)) {
    std::string s = shard.path().filename().string();
    if (s.size() != 2 || !shard.is_directory(ec)) continue;
    for (auto& e : fs::directory_iterator(shard.path(), ec)) {
      std::string key = e.path().filename().string();
      if (key.size() != 64 || key.compare(0, 2, s) != 0) continue;  // temporaries carry a suffix
      CacheEntryInfo info;
      info.key = key;
      std::error_code ec2;
      info.last_use = fs::last_write_time(e.path() / kIndex, ec2);
      if (ec2) continue;  // not complete, or being removed
      info.backend = "unknown";
      if (auto about = read_all(e.path() / kAbout); about && about->starts_with("backend ")) {
        std::string name = about->substr(8);
        while (!name.empty() && name.back() == '\n') name.pop_back();
        if (!name.empty()) info.backend = name;
      }
      for (auto& f : fs::recursive_directory_iterator(e.path(), ec2))
        if (f.is_regular_file(ec2)) info.bytes += f.file_size(ec2);
      out.push_back(std::move(info));
    }
  }
  return out;
}

bool ArtifactCache::remove_if_unused(const std::string& key, fs::file_time_type unused_since) const {
  fs::path entry = entry_path(key);
  Fd index_fd{::open((entry / kIndex).c_str(), O_RDONLY | O_CLOEXEC)};
  if (index_fd.fd < 0) return false;
  if (::flock(index_fd.fd, LOCK_EX | LOCK_NB) != 0 || !still_in_place(index_fd.fd, entry / kIndex)) return false;
  std::error_code ec;
  if (fs::last_write_time(entry / kIndex, ec) > unused_since || ec) return false;
  // Out of sight in one step (lookups that then take the lock find it gone),
  // then removed at leisure.
  fs::path trash = fs::path(root_) / (".trash-" + key + unique_suffix());
  if (::rename(entry.c_str(), trash.c_str()) != 0) return false;
  fs::remove_all(trash, ec);
  return true;
}

}  // namespace ppy::driver
