#pragma once
/// Whole files read and written one way everywhere (the driver, the host, the
/// SDK's serve and session, the `.ppyir` writer, tests), with one set of
/// guarantees, so that no caller grows its own half-careful copy:
///   - a write is atomic: the bytes go to a temporary in the destination's own
///     folder (same filesystem), are fsynced, renamed over the destination, and
///     the folder is fsynced; a reader sees the old file or the new one, and a
///     failure leaves the destination as it was and no temporary behind;
///   - the execute bit is kept: an executable file is made 0777, another 0666,
///     both less the umask, as a compiler's outputs are;
///   - every error names the path and the cause, and its code says the errno's
///     kind (absl::ErrnoToStatus: NotFound, AlreadyExists, PermissionDenied...).

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ppy {

/// How a file is written.
struct FileWriteOptions {
  bool executable = false;  ///< 0777 rather than 0666, less the umask
  /// The path errors name, when it differs from the one written (a file staged
  /// under a temporary folder is named as the user will see it). Empty: the path.
  std::filesystem::path shown;
  /// False: no fsync of the file or its folder. Still atomic (a reader sees
  /// the old file or the new one), but a crash may lose the write: for what
  /// is only a tally (the cache's hit counts), written on every build.
  bool durable = true;
};

/// The whole of the file at `path`. "cannot read PATH: CAUSE" on failure
/// (NotFound when it does not exist).
[[nodiscard]] absl::StatusOr<std::string> read_file(const std::filesystem::path& path);

/// Whether the file at `path` has its owner's execute bit (false when absent).
bool is_executable(const std::filesystem::path& path);

/// Gives the file at `path` the execute bits its read bits allow (`chmod +x`
/// as a compiler's output gets it: owner, group and others where each may
/// read): how a backend's `build` marks an executable it wrote, which then stays
/// executable under `-o` and in the artifact cache. Writing it with
/// `write_file_atomic(path, bytes, {.executable = true})` does the same at once.
/// "cannot mark executable PATH: CAUSE" on failure.
[[nodiscard]] absl::Status mark_executable(const std::filesystem::path& path);

/// Makes `path` hold `bytes` atomically (see above); the folder must exist.
/// "cannot write PATH: CAUSE" on failure, `path` then as it was.
[[nodiscard]] absl::Status write_file_atomic(const std::filesystem::path& path, std::string_view bytes,
                                             const FileWriteOptions& options = {});

/// Creates the new file `path` (never replacing one: AlreadyExists) holding
/// `bytes`, fsynced: a file inside a folder that is itself renamed into place
/// whole (a staged output tree, a cache entry), where the folder's rename is
/// what makes the write atomic. A failure removes what it made.
[[nodiscard]] absl::Status write_new_file(const std::filesystem::path& path, std::string_view bytes,
                                          const FileWriteOptions& options = {});

/// fsync on a folder, so that its entries (a rename, a new file) reach the disk.
/// Best effort: a folder that cannot be opened is left as it is.
void sync_folder(const std::filesystem::path& dir);

/// Test seam: called with each path a file of bytes is written to (by
/// write_file_atomic or write_new_file, once written whole) and each path
/// read_file reads; answers the observer it replaces. Tests count a build's
/// writes with it; nothing else sets it.
struct FileObserver {
  std::function<void(const std::filesystem::path&)> wrote;
  std::function<void(const std::filesystem::path&)> read;
};
FileObserver set_file_observer(FileObserver observer);

}  // namespace ppy
