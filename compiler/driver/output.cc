#include "ppy/driver/output.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <filesystem>

#include "ppy/driver/output_tree.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

bool names_a_folder(const std::string& output) {
  std::error_code ec;
  return output.ends_with('/') || fs::is_directory(output, ec);
}

/// Where `count` artifacts go: one into a file (`-o FILE`, or a file in an
/// existing folder that is not ppy's), else the folder replaced whole. A
/// folder target's modules always go into a folder, as in the reference.
enum class Placement { kFile, kFileInFolder, kFolder };
Placement placement(size_t count, const std::string& output, bool folder_target) {
  if (count <= 1 && !folder_target && !names_a_folder(output)) return Placement::kFile;
  std::error_code ec;
  if (count == 1 && fs::is_directory(output, ec) && !check_replaceable(output).ok()) return Placement::kFileInFolder;
  return Placement::kFolder;
}

}  // namespace

std::string artifact_file_name(const std::string& module, const std::string& suffix) {
  return module + suffix;
}

absl::Status check_placement(const std::vector<std::string>& modules, const std::string& suffix,
                             bool program_scope, bool binary, const OutputRequest& output,
                             bool stdout_is_terminal) {
  if (!program_scope && modules.size() > 1 &&
      !(output.path && (output.folder_target || names_a_folder(*output.path)))) {
    std::string files;
    for (auto& m : modules) str_append(files, files.empty() ? "" : ", ", artifact_file_name(m, suffix));
    return coded_error(
        "E1002", str_cat(modules.size(), " module(s) make one artifact per module, which are never "
                         "written end to end into one ", output.path ? "file" : "stream",
                         "; name a folder with -o DIR to get ", files));
  }
  if (output.path && placement(program_scope ? 1 : modules.size(), *output.path, output.folder_target) == Placement::kFolder)
    PPY_RETURN_IF_ERROR(check_replaceable(*output.path));
  if (binary && !output.path && stdout_is_terminal)
    return coded_error("E1002", "the format is binary and standard output is a terminal; write it with -o FILE");
  return absl::OkStatus();
}

absl::Status check_output_location(const std::string& output) {
  auto refuse = [&](const std::string& why) {
    return coded_error("E1002", str_cat("cannot write the output to ", output, ": ", why));
  };
  std::error_code ec;
  fs::path at = fs::absolute(fs::path(output), ec);
  if (ec) return refuse(ec.message());
  // The output may be a folder to fill; else its parent must take it.
  fs::path dir = fs::is_directory(at, ec) ? at : at.parent_path();
  while (!fs::exists(dir, ec) && dir.has_parent_path() && dir != dir.parent_path()) dir = dir.parent_path();
  if (!fs::is_directory(dir, ec)) return refuse(str_cat(dir.string(), " is not a folder"));
  // Tried, not asked: access() says yes to root, and /proc says no to all.
  std::string probe = (dir / ".ppy-probe-XXXXXX").string();
  int fd = mkstemp(probe.data());
  if (fd < 0) return refuse(str_cat("no file can be made in ", dir.string(), " (", strerror(errno), ")"));
  close(fd);
  unlink(probe.c_str());
  return absl::OkStatus();
}

absl::Status place_artifacts(const std::vector<EmittedArtifact>& artifacts, const std::string& suffix,
                             const OutputRequest& output, std::ostream& out) {
  if (!output.path) {
    for (auto& a : artifacts) out << a.data;
    out.flush();
    return absl::OkStatus();
  }
  const std::string& path = *output.path;
  switch (placement(artifacts.size(), path, output.folder_target)) {
    case Placement::kFile: return write_file_atomically(path, artifacts.at(0).data);
    case Placement::kFileInFolder:
      return write_file_atomically(fs::path(path) / artifact_file_name(artifacts.at(0).module, suffix),
                                   artifacts.at(0).data);
    case Placement::kFolder: break;
  }
  std::vector<OutputFile> files;
  for (auto& a : artifacts) files.push_back({artifact_file_name(a.module, suffix), a.data});
  return write_tree_atomically(path, files, {.made_by = "ppy emit"});
}

}  // namespace ppy::driver
