// `.ppyir` files: reading names the path in every error; writing is atomic
// (ppy/util/file.h: a temporary beside the target, fsync, then rename), so a
// reader never sees half a module.
#include "absl/status/status.h"
#include "ppy/ir/text.h"
#include "ppy/util/file.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::ir {

absl::StatusOr<std::unique_ptr<Module>> read_module_file(const std::string& path, const DialectRegistry& reg) {
  PPY_ASSIGN_OR_RETURN(std::string text, read_file(path));
  auto m = parse_module(text, reg);
  if (!m.ok()) return absl::Status(m.status().code(), str_cat(path, ": ", std::string(m.status().message())));
  return m;
}

absl::Status write_module_file(const Module& m, const std::string& path) {
  return write_file_atomic(path, print_module(m));
}

}  // namespace ppy::ir
