#pragma once
/// Joining modules into one (`ppy emit linked-ir`, program-scoped backends).

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/ir/ir.h"

namespace ppy::ir {

/// Links `modules` into one named `name`: a definition answers the declarations
/// (extern funcs) of the same symbol, clashing private symbols are renamed
/// `<module>.<name>` (uses rewritten), and two public definitions of one symbol,
/// or a declaration whose signature differs from its definition, are errors.
absl::StatusOr<std::unique_ptr<Module>> link(std::vector<std::unique_ptr<Module>> modules,
                                             std::string name = "linked");

}  // namespace ppy::ir
