#pragma once
/// plugins (docs/writing-a-plugin.md, "Ops of a plugin's dialect"): a dialect a
/// plugin registers is open. The compiler knows none of its ops: any op named
/// `<dialect>.<op>` is accepted with whatever operands, results and attributes
/// it has, and is neither pure nor a terminator (the optimizer keeps every
/// call, in order). Only a backend that declares the dialect takes such ops.

#include <string>
#include <vector>

#include "ppy/ir/dialect.h"

namespace ppy::ir::v1 {
class Module;
}

namespace ppy::ir {

/// The open dialect `name` at version 1: one catch-all op spec, `<name>.*`,
/// which DialectRegistry::op answers for every op of the dialect it lacks.
[[nodiscard]] Dialect open_dialect(const std::string& name);

/// `base` with an open dialect for each of `names` it does not already have.
[[nodiscard]] DialectRegistry with_open_dialects(const DialectRegistry& base, const std::vector<std::string>& names);

/// The builtin dialects plus an open one for each other dialect `m` names:
/// what a module that may hold plugins' ops is read against (from_proto).
/// Whether those dialects are allowed is asked later, by the verifier against
/// the driver's registry.
[[nodiscard]] DialectRegistry registry_for(const ppy::ir::v1::Module& m);

/// Whether `name` is an open dialect of `reg` (one added by open_dialect).
[[nodiscard]] bool is_open_dialect(const DialectRegistry& reg, std::string_view name);

}  // namespace ppy::ir
