#pragma once
/// How `-o` is written: whole or not at all.
///
/// A folder is staged beside its destination (same filesystem), every file
/// fsynced, and then swapped into place by one rename: `renameat2` with
/// RENAME_EXCHANGE where the filesystem has it, so the destination is at every
/// moment the previous folder or the new one; else two renames (the previous
/// folder aside, the new one in), and a writer killed between them leaves the
/// previous folder aside under a name the next writer puts back. The previous
/// folder is removed only once the new one is in place.
///
/// Replacing a folder deletes what was in it, so an existing folder is replaced
/// only when it is empty or holds the marker (`.ppy-output`) that this writes
/// into every folder it makes: `-o .` or `-o src` is refused, never emptied.

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ppy::driver {

/// One file of an output folder.
struct OutputFile {
  std::string path;  ///< relative to the folder; no `.`/`..` part
  std::string bytes;
  bool executable = false;  ///< written 0755 rather than 0644 (less the umask)
};

/// The file in every folder ppy made for `-o`: what makes it ppy's to replace.
inline constexpr std::string_view kOutputMarker = ".ppy-output";

struct TreeWriteOptions {
  /// Who the marker names, e.g. `ppy build --backend toy`.
  std::string made_by = "ppy";
  /// Replaces an existing folder without the marker too: the driver's own
  /// folders in its cache, which no user writes into.
  bool replace_unmarked = false;
  /// Swaps by two renames even where RENAME_EXCHANGE works (to test that path).
  bool no_exchange = false;
  /// Test seam: called at each step ("staged-file", "staged", "moved-aside",
  /// then, once the new folder is in, "exchanged" or "swapped"). A non-OK
  /// answer before the swap fails the write there as a write error would; a
  /// hook may also kill the process at any step.
  std::function<absl::Status(std::string_view step)> at_step;
};

/// Makes the folder `dest` hold exactly `files` and the marker, or leaves it as
/// it was. Every failure is E1002 naming the destination path it concerns. A
/// folder that already holds exactly that is left untouched (read, not
/// rewritten nor synced): a rebuild that changes nothing writes nothing.
[[nodiscard]] absl::Status write_tree_atomically(const std::filesystem::path& dest,
                                                 const std::vector<OutputFile>& files,
                                                 const TreeWriteOptions& options = {});

/// The same for a folder already filled (by make_staging_folder(dest)): the
/// marker is added and it is swapped into place, or removed on failure.
[[nodiscard]] absl::Status replace_tree(const std::filesystem::path& dest, const std::filesystem::path& staged,
                                        const TreeWriteOptions& options = {});

/// A new empty folder beside `dest` (`.<name>.ppy-build-<pid>-<n>`), on its
/// filesystem, for replace_tree or for a backend to build into.
[[nodiscard]] absl::StatusOr<std::filesystem::path> make_staging_folder(const std::filesystem::path& dest);

/// E1002 unless `dest` can be replaced: absent (with a folder above it that
/// takes new entries), or a folder that is empty or holds the marker (any
/// folder with `replace_unmarked`). Checked before any work is done.
[[nodiscard]] absl::Status check_replaceable(const std::filesystem::path& dest, bool replace_unmarked = false);

/// Cleans up after writers of `dest` that were killed (their process gone):
/// removes their staging folders and puts back a previous folder left aside
/// when `dest` is missing. A writer that still runs is left alone.
void recover_output(const std::filesystem::path& dest);

/// A file destination: a temporary beside `dest`, fsynced, renamed over it.
/// On failure `dest` is as it was (E1002 naming `dest`).
[[nodiscard]] absl::Status write_file_atomically(const std::filesystem::path& dest, std::string_view bytes,
                                                 bool executable = false);

/// Whether the folder holds ppy's marker.
bool has_output_marker(const std::filesystem::path& dir);

}  // namespace ppy::driver
