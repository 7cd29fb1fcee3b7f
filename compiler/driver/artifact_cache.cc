#include "ppy/driver/artifact_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

constexpr const char* kIndex = ".ppy-entry";  // the list of files, one path a line

std::string unique_suffix() {
  static std::atomic<uint64_t> counter{0};
  std::random_device rd;
  return str_cat(".tmp-", static_cast<int64_t>(getpid()), "-", static_cast<uint64_t>(rd()), "-",
                 counter.fetch_add(1));
}

bool safe_relative(const std::string& p) {
  if (p.empty() || p[0] == '/') return false;
  for (auto& part : fs::path(p))
    if (part == ".." || part == ".") return false;
  return true;
}

absl::Status errno_status(std::string_view what, const std::string& path) {
  return absl::InternalError(str_cat("cannot ", what, " ", path, ": ", std::strerror(errno)));
}

absl::Status write_all(const std::string& path, std::string_view bytes, bool executable = false) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, executable ? 0755 : 0644);
  if (fd < 0) return errno_status("create", path);
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      return errno_status("write", path);
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) return errno_status("write", path);
  return absl::OkStatus();
}

std::optional<std::string> read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

std::string ArtifactCache::entry_path(const std::string& key) const {
  return (fs::path(root_) / key.substr(0, 2) / key).string();
}

std::optional<std::vector<ArtifactFile>> ArtifactCache::lookup(const std::string& key) const {
  fs::path entry = entry_path(key);
  auto index = read_all(entry / kIndex);
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
    std::error_code ec;
    auto perms = fs::status(entry / rel, ec).permissions();
    files.push_back({rel, std::move(*bytes), (perms & fs::perms::owner_exec) != fs::perms::none});
  }
  return files;
}

absl::Status ArtifactCache::store(const std::string& key, const std::vector<ArtifactFile>& files) const {
  fs::path entry = entry_path(key);
  std::error_code ec;
  if (fs::exists(entry / kIndex, ec)) return absl::OkStatus();
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
    if (auto s = write_all(p.string(), f.bytes, f.executable); !s.ok()) {
      fs::remove_all(tmp, ec);
      return s;
    }
    str_append(index, f.path, "\n");
  }
  if (auto s = write_all((tmp / kIndex).string(), index); !s.ok()) {
    fs::remove_all(tmp, ec);
    return s;
  }
  if (::rename(tmp.c_str(), entry.c_str()) != 0) {
    // Another build stored the same key first: its entry is as good as ours.
    int err = errno;
    fs::remove_all(tmp, ec);
    if (err != ENOTEMPTY && err != EEXIST) {
      errno = err;
      return errno_status("store", entry.string());
    }
  }
  return absl::OkStatus();
}

}  // namespace ppy::driver
