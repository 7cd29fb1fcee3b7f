#pragma once
/// A ppy project: the modules the frontend lowers and the `[tool.ppy]` settings
/// the driver needs (entry module, optimization level, each backend's table).
///
/// A project is either a folder holding `pyproject.toml`, or a single `.ppy`
/// file (a project of one module named after the file stem). Loading reads
/// every source file up front, so later phases never touch the file system.

#include <map>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

struct evp_md_st;  // OpenSSL's EVP_MD

namespace ppy {

/// One source file: its dotted module name, the path as the user would see it
/// (used verbatim in diagnostics and IR locations) and its text.
struct SourceModule {
  std::string name;
  std::string path;
  std::string text;
};

/// A `[tool.ppy.backends.NAME]` table, kept for the backend of that name.
struct BackendTable {
  /// The table as canonical TOML text (keys sorted): what the digest covers.
  std::string toml_text;
  /// Each key mapped to its value written as TOML (`'sm_80'`, `3`, `true`, `[1, 2]`).
  std::map<std::string, std::string> options;
  /// SHA-256 (hex, 64 chars) of `toml_text`; part of the backend's cache key.
  std::string digest;
};

struct Project {
  /// The project folder (the file's folder for a single file).
  std::string root;
  /// `root/pyproject.toml`, or empty for a single file.
  std::string pyproject;
  /// Source roots as paths (root joined with each `source-roots` entry).
  std::vector<std::string> source_roots;
  /// Every module, sorted by name.
  std::vector<SourceModule> modules;
  /// The module whose `main()` is the program entry (may be empty for a library).
  std::string entry;
  /// `[tool.ppy] opt-level`, when the project sets one (0..3).
  std::optional<int> opt_level;
  /// Backend name -> its table.
  std::map<std::string, BackendTable> backends;
  /// `[tool.ppy] cache-max-size`, in bytes, when the project sets one.
  std::optional<uint64_t> cache_max_size;
  /// `[tool.ppy] remote-cache`: the base URL of a Bazel HTTP remote cache.
  std::optional<std::string> remote_cache;
  /// `[tool.ppy] module-suffix`: which files under the source roots are modules,
  /// `.ppy` (the default: `.py` files are the project's tooling, never read) or
  /// `.py` (a project python3 imports as it is). Either way a module given by
  /// both `x.ppy` and `x.py` is E1203: python3 would import one, ppy the other.
  std::string module_suffix = ".ppy";
  /// Files of the other suffix under the source roots, not read (for the
  /// message when there are no modules).
  int other_suffix_files = 0;

  /// The module of that name, or null.
  const SourceModule* module(const std::string& name) const;
};

/// Loads a project from a folder (which must hold `pyproject.toml`, or else is
/// read as a plain source root) or a single `.ppy` file. Errors carry E-codes:
/// E1201 a malformed pyproject.toml or `[tool.ppy]` value, E1202 a missing path
/// or a project without modules, E1203 two files giving one module name,
/// E1204 an entry module that does not exist, E1205 an unreadable file.
absl::StatusOr<Project> load_project(const std::string& path);

/// The standard library's ppy modules (docs/stdlib.md, "Modules written in
/// ppy"): `$PPY_STDLIB` when set, else `<the executable's folder>/../share/ppy/stdlib`
/// (the build tree's and an install's), else the source tree's `stdlib/`.
std::string stdlib_dir();

/// Adds to `p` each standard library module its modules import (and those
/// import, in turn) that the project does not define itself: a module of the
/// project shadows the standard library's, as in Python (stdlib.cc).
absl::Status add_stdlib_modules(Project& p);

/// The module name a source file gets: its path under `source_root` without the
/// extension, '/' replaced by '.', a trailing `.__init__` dropped
/// (`src/pkg/mod.ppy` under `src` -> `pkg.mod`).
std::string module_name_for(const std::string& source_root, const std::string& file);

/// A size as `[tool.ppy] cache-max-size` takes it: a number of bytes, or a
/// number with a binary suffix K, M, G or T (`500M`, `2G`, also `2GiB`, `2GB`);
/// nullopt for anything else (or a size that does not fit 64 bits).
std::optional<uint64_t> parse_byte_size(std::string_view text);

/// Lowercase hex SHA-256 of `data`.
std::string sha256_hex(const std::string& data);

/// OpenSSL's SHA-256 (an `EVP_MD*`), fetched once for the process: OpenSSL 3
/// looks an implicit `EVP_sha256()` up again at every digest, which cost more
/// than hashing a module's source.
const ::evp_md_st* sha256_md();

/// `bytes` as lowercase hex, two digits a byte.
std::string hex_lower(std::string_view bytes);

}  // namespace ppy
