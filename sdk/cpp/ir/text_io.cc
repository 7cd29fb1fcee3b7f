// `.ppyir` files: reading names the path in every error; writing is atomic
// (a temporary beside the target, then rename), so a reader never sees half a module.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "absl/status/status.h"
#include "ppy/ir/text.h"
#include "ppy/util/str_cat.h"

namespace ppy::ir {
namespace {

absl::Status io_error(int err, std::string message) {
  message += ": ";
  message += std::strerror(err);
  if (err == ENOENT) return absl::NotFoundError(message);
  if (err == EACCES || err == EPERM) return absl::PermissionDeniedError(message);
  return absl::UnavailableError(message);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Module>> read_module_file(const std::string& path, const DialectRegistry& reg) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error(errno, str_cat("cannot read ", path));
  std::string text;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return io_error(err, str_cat("cannot read ", path));
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  auto m = parse_module(text, reg);
  if (!m.ok()) return absl::Status(m.status().code(), str_cat(path, ": ", std::string(m.status().message())));
  return m;
}

absl::Status write_module_file(const Module& m, const std::string& path) {
  std::string text = print_module(m);
  static std::atomic<uint64_t> counter{0};
  std::string tmp = str_cat(path, ".tmp.", static_cast<int64_t>(::getpid()), ".", counter.fetch_add(1));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return io_error(errno, str_cat("cannot write ", path));
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return io_error(err, str_cat("cannot write ", path));
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return io_error(err, str_cat("cannot write ", path));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return io_error(err, str_cat("cannot write ", path));
  }
  return absl::OkStatus();
}

}  // namespace ppy::ir
