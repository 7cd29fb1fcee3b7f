#pragma once
/// The module keys of a compiled project, remembered by what they were made
/// from, so that a rebuild whose sources have not changed knows every
/// artifact's key without parsing, checking or lowering anything (issue 20's
/// no-op rebuild). A module key's dependency ABI is its one part that needs
/// the IR, and it is a function of the project's sources, of the compiler that
/// lowered them and of the settings the memo is named by. Nothing of the key
/// itself changes: a memo only saves recomputing it, and one that cannot be
/// read is a miss (the build compiles, and writes it).

#include <map>
#include <optional>
#include <string>

#include "ppy/driver/cache_key.h"
#include "ppy/driver/compile.h"
#include "ppy/project/project.h"

namespace ppy::driver {

/// Where the memo for `project` compiled at `opt_level` lives:
/// `<cache_root>/keys/<digest>`, the digest of this driver's executable (path,
/// size, modification time, inode: a rebuilt compiler never trusts an old
/// memo), the compiler's fingerprint, the optimization level, whether paths
/// are portable, pyproject.toml's text, and every module's name, path and
/// source. Empty when this executable cannot be identified (no memo then).
std::string keys_memo_path(const std::string& cache_root, const Project& project, int opt_level, bool portable_paths);

/// The keys the memo at `path` holds (as compile() makes them for `project` at
/// `opt_level`), or nullopt: no memo, or one that cannot be read whole.
std::optional<std::map<std::string, ModuleKey>> read_keys_memo(const std::string& path, const Project& project,
                                                               int opt_level);

/// Remembers `c`'s keys at `path` (atomically; a memo that cannot be written
/// only costs the next build its compile).
void write_keys_memo(const std::string& path, const Compilation& c);

}  // namespace ppy::driver
