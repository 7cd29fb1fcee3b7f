#include "ppy/driver/output_tree.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>

#include "ppy/util/error.h"
#include "ppy/util/file.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

/// `dest` as an absolute path without a trailing separator, its existing part
/// resolved (a symlinked `-o` is replaced where it points, on that filesystem).
fs::path resolved(const fs::path& dest) {
  std::error_code ec;
  fs::path abs = fs::absolute(dest, ec).lexically_normal();
  if (!abs.has_filename()) abs = abs.parent_path();
  fs::path real = fs::weakly_canonical(abs, ec);
  return ec ? abs : real;
}

/// `<pid>-<random>-<counter>`: unique among writers and within one.
std::string unique_tag() {
  static std::atomic<uint64_t> counter{0};
  std::random_device rd;
  return str_cat(static_cast<int64_t>(getpid()), "-", static_cast<uint64_t>(rd()), "-", counter.fetch_add(1));
}

/// The sibling names: `.<name>.ppy-build-<tag>` (staging), `.<name>.ppy-old-<tag>`
/// (the previous folder, aside), `.<name>.ppy-tmp-<tag>` (a file's temporary).
std::string sibling_prefix(const fs::path& dest, std::string_view kind) {
  return str_cat(".", dest.filename().string(), ".ppy-", kind, "-");
}
fs::path sibling(const fs::path& dest, std::string_view kind) {
  return dest.parent_path() / str_cat(sibling_prefix(dest, kind), unique_tag());
}

absl::Status write_error(const fs::path& shown, std::string_view why) {
  return coded_error("E1002", str_cat("cannot write ", shown.string(), ": ", why));
}
absl::Status errno_error(const fs::path& shown, int err) { return write_error(shown, std::strerror(err)); }

bool safe_relative(const std::string& p) {
  if (p.empty() || p.front() == '/' || p.back() == '/') return false;
  for (const auto& part : fs::path(p))
    if (part.empty() || part == "." || part == "..") return false;
  return true;
}

/// E1002 for a failed write of the file utility: its message names the path
/// (as shown) and the cause.
absl::Status write_failed(const absl::Status& s) { return coded_error("E1002", std::string(s.message())); }

/// Whether the process whose pid a sibling's tag starts with is gone.
bool writer_gone(const std::string& tag) {
  long pid = std::strtol(tag.c_str(), nullptr, 10);
  if (pid <= 0 || pid == getpid()) return false;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

absl::Status step(const TreeWriteOptions& o, std::string_view name) {
  return o.at_step ? o.at_step(name) : absl::OkStatus();
}

std::string marker_text(const TreeWriteOptions& o) {
  return str_cat("Made by ", o.made_by,
                 ". ppy replaces this folder whole when it writes it again;\n"
                 "a folder without this file is never replaced.\n");
}

/// Whether the folder `dest` already holds exactly `files` (same paths, bytes
/// and execute bits, nothing else) and the marker `o` would write: then
/// writing it again would change nothing, and a no-op rebuild syncs nothing.
bool holds_exactly(const fs::path& dest, const std::vector<OutputFile>& files, const TreeWriteOptions& o) {
  auto marker = read_file(dest / kOutputMarker);
  if (!marker.ok() || *marker != marker_text(o)) return false;
  std::set<std::string> want;
  for (const OutputFile& f : files) {
    if (!safe_relative(f.path) || !want.insert(fs::path(f.path).lexically_normal().string()).second) return false;
    struct stat st;
    if (::lstat((dest / f.path).c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        static_cast<size_t>(st.st_size) != f.bytes.size() || ((st.st_mode & S_IXUSR) != 0) != f.executable)
      return false;
    auto bytes = read_file(dest / f.path);
    if (!bytes.ok() || *bytes != f.bytes) return false;
  }
  std::error_code ec;
  size_t found = 0;
  const fs::path base = dest.has_filename() ? dest : dest.parent_path();  // `out/` lists as `out/x`
  for (auto it = fs::recursive_directory_iterator(dest, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    fs::file_status st = it->symlink_status(ec);
    if (fs::is_directory(st)) continue;
    std::string rel = it->path().lexically_relative(base).string();  // no symlink resolution per file
    if (rel == kOutputMarker) continue;
    if (!fs::is_regular_file(st) || !want.count(rel)) return false;
    ++found;
  }
  return !ec && found == want.size();
}

/// Swaps the filled folder `staged` into `dest` (see the header); `shown` is
/// the destination as the user named it.
absl::Status swap_into_place(const fs::path& dest, const fs::path& staged, const fs::path& shown,
                             const TreeWriteOptions& o) {
  sync_folder(staged);
  PPY_RETURN_IF_ERROR(step(o, "staged"));
  for (int attempt = 0;; ++attempt) {
    if (::rename(staged.c_str(), dest.c_str()) == 0) break;  // nothing there yet
    int err = errno;
    if (err != EEXIST && err != ENOTEMPTY) return errno_error(shown, err);
    if (!o.no_exchange && ::renameat2(AT_FDCWD, staged.c_str(), AT_FDCWD, dest.c_str(), RENAME_EXCHANGE) == 0) {
      // `staged` now holds the previous folder.
      (void)step(o, "exchanged");  // done: a hook may only kill the process here
      sync_folder(dest.parent_path());
      std::error_code ec;
      fs::remove_all(staged, ec);
      return absl::OkStatus();
    }
    if (!o.no_exchange && errno != EINVAL && errno != ENOSYS) return errno_error(shown, errno);
    // No RENAME_EXCHANGE here: the previous folder aside, then the new one in.
    fs::path aside = sibling(dest, "old");
    if (::rename(dest.c_str(), aside.c_str()) != 0) {
      if (errno == ENOENT && attempt < 8) continue;  // another writer moved it first
      return errno_error(shown, errno);
    }
    if (auto s = step(o, "moved-aside"); !s.ok()) {
      (void)::rename(aside.c_str(), dest.c_str());
      return s;
    }
    if (::rename(staged.c_str(), dest.c_str()) != 0) {
      int e = errno;
      (void)::rename(aside.c_str(), dest.c_str());
      if ((e == EEXIST || e == ENOTEMPTY) && attempt < 8) continue;
      return errno_error(shown, e);
    }
    (void)step(o, "swapped");
    std::error_code ec;
    fs::remove_all(aside, ec);
    break;
  }
  sync_folder(dest.parent_path());
  return absl::OkStatus();
}

}  // namespace

bool has_output_marker(const fs::path& dir) {
  struct stat st;
  return ::lstat((dir / kOutputMarker).c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

absl::Status check_replaceable(const fs::path& shown, bool replace_unmarked) {
  auto refuse = [&](const std::string& why) {
    return coded_error("E1002", str_cat("cannot write the output to ", shown.string(), ": ", why));
  };
  fs::path dest = resolved(shown);
  std::error_code ec;
  fs::file_status st = fs::symlink_status(dest, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st)) return refuse("it is a file, and the output is a folder");
    if (!replace_unmarked && !has_output_marker(dest) && !fs::is_empty(dest, ec))
      return refuse(str_cat("it is a folder that ppy did not make (it has no ", kOutputMarker,
                            "), and ppy replaces its output folder whole; name a new or empty folder"));
  }
  // The staging folder is made beside it: the nearest folder above must take it.
  fs::path dir = dest.parent_path();
  while (!fs::exists(dir, ec) && dir.has_parent_path() && dir != dir.parent_path()) dir = dir.parent_path();
  if (!fs::is_directory(dir, ec)) return refuse(str_cat(dir.string(), " is not a folder"));
  std::string probe = (dir / ".ppy-probe-XXXXXX").string();
  int fd = mkstemp(probe.data());
  if (fd < 0) return refuse(str_cat("no folder can be made in ", dir.string(), " (", std::strerror(errno), ")"));
  ::close(fd);
  ::unlink(probe.c_str());
  return absl::OkStatus();
}

void recover_output(const fs::path& shown) {
  fs::path dest = resolved(shown);
  std::error_code ec;
  const std::string staging = sibling_prefix(dest, "build"), old = sibling_prefix(dest, "old"),
                    tmp = sibling_prefix(dest, "tmp");
  std::vector<fs::path> stale, asides;
  fs::directory_iterator it(dest.parent_path(), ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    for (const std::string* prefix : {&staging, &old, &tmp}) {
      if (!name.starts_with(*prefix) || !writer_gone(name.substr(prefix->size()))) continue;
      (prefix == &old ? asides : stale).push_back(it->path());
    }
  }
  for (auto& p : stale) fs::remove_all(p, ec);
  // A writer killed between its two renames: the previous folder goes back.
  for (auto& p : asides)
    if (fs::exists(fs::symlink_status(dest, ec)) || ::rename(p.c_str(), dest.c_str()) != 0) fs::remove_all(p, ec);
}

absl::StatusOr<fs::path> make_staging_folder(const fs::path& shown) {
  fs::path dest = resolved(shown);
  std::error_code ec;
  fs::create_directories(dest.parent_path(), ec);
  if (ec) return write_error(shown, str_cat("cannot make ", dest.parent_path().string(), ": ", ec.message()));
  fs::path staged = sibling(dest, "build");
  if (::mkdir(staged.c_str(), 0777) != 0) return errno_error(shown, errno);
  return staged;
}

namespace {

/// Adds the marker to the filled `staged` and swaps it into place; removes it on failure.
absl::Status finish_tree(const fs::path& shown, const fs::path& staged, const TreeWriteOptions& o) {
  auto fail = [&](absl::Status s) {
    std::error_code ec;
    fs::remove_all(staged, ec);
    return s;
  };
  if (has_output_marker(staged))
    return fail(write_error(shown / kOutputMarker, "the output names ppy's own marker file"));
  if (auto s = write_new_file(staged / kOutputMarker, marker_text(o), {.shown = shown / kOutputMarker}); !s.ok())
    return fail(write_failed(s));
  if (auto s = swap_into_place(resolved(shown), staged, shown, o); !s.ok()) return fail(s);
  return absl::OkStatus();
}

}  // namespace

absl::Status replace_tree(const fs::path& shown, const fs::path& staged, const TreeWriteOptions& o) {
  recover_output(shown);
  if (auto s = check_replaceable(shown, o.replace_unmarked); !s.ok()) {
    std::error_code ec;
    fs::remove_all(staged, ec);
    return s;
  }
  return finish_tree(shown, staged, o);
}

absl::Status write_tree_atomically(const fs::path& shown, const std::vector<OutputFile>& files,
                                   const TreeWriteOptions& o) {
  recover_output(shown);
  PPY_RETURN_IF_ERROR(check_replaceable(shown, o.replace_unmarked));
  if (holds_exactly(resolved(shown), files, o)) return absl::OkStatus();
  PPY_ASSIGN_OR_RETURN(fs::path staged, make_staging_folder(shown));
  auto fail = [&](absl::Status s) {
    std::error_code ec;
    fs::remove_all(staged, ec);
    return s;
  };
  std::set<fs::path> dirs;  // made under the staging folder, to fsync
  for (const OutputFile& f : files) {
    if (!safe_relative(f.path)) return fail(write_error(shown / f.path, "the path leaves its folder"));
    if (f.path == kOutputMarker) return fail(write_error(shown / f.path, "the output names ppy's own marker file"));
    fs::path d = staged;
    for (const auto& part : fs::path(f.path).parent_path()) {
      d /= part;
      if (dirs.count(d)) continue;
      if (::mkdir(d.c_str(), 0777) != 0)
        return fail(errno == EEXIST
                        ? write_error(shown / fs::relative(d, staged), "the output names it as a file and as a folder")
                        : errno_error(shown / fs::relative(d, staged), errno));
      dirs.insert(d);
    }
    if (auto s = write_new_file(staged / f.path, f.bytes, {.executable = f.executable, .shown = shown / f.path});
        !s.ok())
      return fail(absl::IsAlreadyExists(s)
                      ? write_error(shown / f.path, "the output names it twice, or as a file and as a folder")
                      : write_failed(s));
    if (auto s = step(o, "staged-file"); !s.ok()) return fail(s);
  }
  for (const fs::path& d : dirs) sync_folder(d);
  return finish_tree(shown, staged, o);
}

absl::Status write_file_atomically(const fs::path& shown, std::string_view bytes, bool executable) {
  fs::path dest = resolved(shown);
  std::error_code ec;
  fs::create_directories(dest.parent_path(), ec);
  if (ec) return write_error(shown, str_cat("cannot make ", dest.parent_path().string(), ": ", ec.message()));
  recover_output(dest);
  if (auto s = write_file_atomic(dest, bytes, {.executable = executable, .shown = shown}); !s.ok())
    return write_failed(s);
  return absl::OkStatus();
}

}  // namespace ppy::driver
