#include "ppy/util/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <mutex>
#include <random>

#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy {
namespace {

std::mutex observer_mu;
FileObserver& observer() {
  static FileObserver o;
  return o;
}

/// Calls the observer's `which` outside the lock (it may read files itself).
void observe(std::function<void(const fs::path&)> FileObserver::*which, const fs::path& p) {
  std::function<void(const fs::path&)> f;
  {
    std::lock_guard<std::mutex> lock(observer_mu);
    f = observer().*which;
  }
  if (f) f(p);
}
void observe_write(const fs::path& p) { observe(&FileObserver::wrote, p); }
void observe_read(const fs::path& p) { observe(&FileObserver::read, p); }

absl::Status failure(int err, std::string_view what, const fs::path& path) {
  return absl::ErrnoToStatus(err, str_cat("cannot ", what, " ", path.string()));
}

const fs::path& shown(const fs::path& path, const FileWriteOptions& o) { return o.shown.empty() ? path : o.shown; }

/// Writes all of `bytes` to `fd` and (`durable`) fsyncs it; 0 or an errno.
int write_all(int fd, std::string_view bytes, bool durable) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += static_cast<size_t>(n);
  }
  return durable && ::fsync(fd) != 0 ? errno : 0;
}

/// Creates `path` (O_EXCL) with `bytes`, fsynced (`durable`) and closed; 0 or
/// an errno, and then nothing left at `path`.
int put(const fs::path& path, std::string_view bytes, bool executable, bool durable = true) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, executable ? 0777 : 0666);
  if (fd < 0) return errno;
  int err = write_all(fd, bytes, durable);
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) ::unlink(path.c_str());
  return err;
}

/// `.<name>.ppy-tmp-<pid>-<random>-<counter>`: unique among writers and within
/// one; the driver's recover_output removes those of a writer killed midway.
fs::path temporary_beside(const fs::path& path) {
  static std::atomic<uint64_t> counter{0};
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  return path.parent_path() / str_cat(".", path.filename().string(), ".ppy-tmp-", static_cast<int64_t>(::getpid()), "-",
                                      static_cast<uint64_t>(rng() & 0xffffffff), "-", counter.fetch_add(1));
}

}  // namespace

absl::StatusOr<std::string> read_file(const fs::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return failure(errno, "read", path);
  std::string out;
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return failure(EISDIR, "read", path);
  }
  if (st.st_size > 0) out.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return failure(err, "read", path);
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  observe_read(path);
  return out;
}

bool is_executable(const fs::path& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && (st.st_mode & S_IXUSR) != 0;
}

absl::Status mark_executable(const fs::path& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return failure(errno, "mark executable", path);
  mode_t mode = st.st_mode & 07777;
  if (mode & S_IRUSR) mode |= S_IXUSR;
  if (mode & S_IRGRP) mode |= S_IXGRP;
  if (mode & S_IROTH) mode |= S_IXOTH;
  if (::chmod(path.c_str(), mode) != 0) return failure(errno, "mark executable", path);
  return absl::OkStatus();
}

absl::Status write_new_file(const fs::path& path, std::string_view bytes, const FileWriteOptions& options) {
  if (int err = put(path, bytes, options.executable)) return failure(err, "write", shown(path, options));
  observe_write(path);
  return absl::OkStatus();
}

absl::Status write_file_atomic(const fs::path& path, std::string_view bytes, const FileWriteOptions& options) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return failure(EISDIR, "write", shown(path, options));
  fs::path tmp = temporary_beside(path);
  if (int err = put(tmp, bytes, options.executable, options.durable))
    return failure(err, "write", shown(path, options));
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return failure(err, "write", shown(path, options));
  }
  if (options.durable) sync_folder(path.has_parent_path() ? path.parent_path() : fs::path("."));
  observe_write(path);
  return absl::OkStatus();
}

void sync_folder(const fs::path& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

FileObserver set_file_observer(FileObserver o) {
  std::lock_guard<std::mutex> lock(observer_mu);
  FileObserver previous = std::move(observer());
  observer() = std::move(o);
  return previous;
}

}  // namespace ppy
