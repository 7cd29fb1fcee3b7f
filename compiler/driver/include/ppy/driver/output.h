#pragma once
/// Where `ppy emit` puts what a backend answered: the contract's emit-scope
/// rules, apart from how the artifacts were made.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace ppy::driver {

/// One artifact: the module it is for (empty for a program-scoped one), its
/// bytes, and whether the format is binary.
struct EmittedArtifact {
  std::string module;
  std::string data;
};

/// Where `ppy emit` writes: stdout without a path. A folder target (a project)
/// writes its module artifacts into the folder `path` names, made if need be,
/// whatever its spelling; a file target, or a program-scoped format, writes a
/// file unless `path` is a folder.
struct OutputRequest {
  std::optional<std::string> path;
  bool folder_target = false;  ///< a project's module-scoped artifacts
};

/// Checks, before any backend is called, that the answers can be placed:
/// several module artifacts need `-o DIR` (E1002 names the files it would write;
/// two artifacts are never concatenated), a folder to be replaced must be one
/// ppy may replace (see output_tree.h), and a binary artifact is never sent
/// to a terminal.
absl::Status check_placement(const std::vector<std::string>& modules, const std::string& suffix,
                             bool program_scope, bool binary, const OutputRequest& output,
                             bool stdout_is_terminal);

/// Checks, before anything is compiled, that `output` (a file or a folder to
/// be made) can be written: the nearest folder that exists above it must be
/// one, and writable. E1002 naming `output`, never a temporary beside it.
absl::Status check_output_location(const std::string& output);

/// Writes the artifacts: one to stdout or `-o FILE` (or `-o DIR/<module><suffix>`
/// when the output is an existing folder or ends in '/'), several into
/// `-o DIR` as `<module><suffix>`. A file is replaced atomically; a folder is
/// replaced whole (write_tree_atomically), except that one artifact into an
/// existing folder ppy did not make is written there as a file. E1002 on failure.
absl::Status place_artifacts(const std::vector<EmittedArtifact>& artifacts, const std::string& suffix,
                             const OutputRequest& output, std::ostream& out);

/// The file an artifact gets in `-o DIR`.
std::string artifact_file_name(const std::string& module, const std::string& suffix);

}  // namespace ppy::driver
