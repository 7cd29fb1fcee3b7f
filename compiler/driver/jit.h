#pragma once
// `ppy run`'s engine: the LLVM backend's objects loaded by ORC's LLJIT into
// the driver, linked against the native runtime the driver carries, and the
// entry run under the runtime's trap (a raise ends the run, not the driver).

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/backend/backend.h"
#include "ppy/driver/compile.h"
#include "ppy/host/handle.h"

namespace ppy::driver {

/// One object file: its name (for messages) and its bytes.
struct ObjectFile {
  std::string name;
  std::string bytes;
};

/// The LLVM backend's object of every module of `c`: from the artifact cache
/// (keyed as `ppy emit object`), the missing ones in one invocation (stored).
absl::StatusOr<std::vector<ObjectFile>> native_objects(host::BackendHandle& backend, const Compilation& c,
                                                       const BackendContext& ctx, const std::string& target,
                                                       std::vector<std::string>& notes);

/// (Linked into `ppy-llvm` only, and reached through llvm_roads().)
/// Loads `objects`, runs `entry` (a `void()` symbol) with the program's output
/// on `out` and a raise's `<Name>: <message>` on `err`, and answers its exit
/// status (0, or 1 when it raised). An error when the objects do not link.
absl::StatusOr<int> run_objects(const std::vector<ObjectFile>& objects, const std::string& entry, std::ostream& out,
                                std::ostream& err);

}  // namespace ppy::driver
