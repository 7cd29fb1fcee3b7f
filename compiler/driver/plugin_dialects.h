#pragma once
// plugins (docs/writing-a-plugin.md, "Ops of a plugin's dialect"): the dialects
// the plugins a program uses register, open in the registry the driver verifies
// with, and the refusal of their ops by every backend that does not declare them.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "ppy/driver/compile.h"
#include "ppy/ir/dialect.h"

namespace ppy::driver {

/// The builtin registry with each of `dialects` (dialect -> plugin) added
/// open; null when there are none (the builtin registry serves).
[[nodiscard]] std::shared_ptr<const ir::DialectRegistry> plugin_registry(
    const std::map<std::string, std::string>& dialects);

/// E1901 when `m` lists a dialect `reg` lacks that is no builtin one: a stub's
/// `@ppy.op` of a dialect no plugin the program uses registers (its manifest's
/// `dialects`). OK otherwise (the verifier says the rest).
[[nodiscard]] absl::Status check_plugin_dialects_registered(const ir::Module& m, const ir::DialectRegistry& reg);

/// E1802 naming the first op (its function and location) of a plugin's
/// dialect that `who` (`backend 'llvm'`, `the interpreter`) does not take;
/// `declared` are the dialects it declares (an installed backend's manifest
/// `dialects`; none for the builtin backends). OK when there is none.
[[nodiscard]] absl::Status refuse_plugin_dialects(const Compilation& c, std::string_view who,
                                                  const std::vector<std::string>& declared = {});

}  // namespace ppy::driver
