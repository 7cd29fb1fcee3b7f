#include "ppy/driver/output.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <filesystem>

#include "ppy/driver/artifact_cache.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

bool names_a_folder(const std::string& output) {
  std::error_code ec;
  return output.ends_with('/') || fs::is_directory(output, ec);
}

}  // namespace

std::string artifact_file_name(const std::string& module, const std::string& suffix) {
  return module + suffix;
}

absl::Status check_placement(const std::vector<std::string>& modules, const std::string& suffix,
                             bool program_scope, bool binary, const std::optional<std::string>& output,
                             bool stdout_is_terminal) {
  if (!program_scope && modules.size() > 1 && !(output && names_a_folder(*output))) {
    std::string files;
    for (auto& m : modules) str_append(files, files.empty() ? "" : ", ", artifact_file_name(m, suffix));
    return coded_error(
        "E1002", str_cat(modules.size(), " module(s) make one artifact per module, which are never "
                         "written end to end into one ", output ? "file" : "stream",
                         "; name a folder with -o DIR to get ", files));
  }
  if (binary && !output && stdout_is_terminal)
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
                             const std::optional<std::string>& output, std::ostream& out) {
  if (!output) {
    for (auto& a : artifacts) out << a.data;
    out.flush();
    return absl::OkStatus();
  }
  bool folder = artifacts.size() > 1 || names_a_folder(*output);
  for (auto& a : artifacts) {
    std::string path = folder ? (fs::path(*output) / artifact_file_name(a.module, suffix)).string() : *output;
    if (auto s = write_file_atomic(path, a.data); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace ppy::driver
