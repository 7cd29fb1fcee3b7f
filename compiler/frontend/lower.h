#pragma once
// IR generation: a checked module to canonical IR (docs/runtime.md). Locals
// live in `core.alloca` stack slots; control flow is `core.br`/`core.cond_br`
// with block arguments where values merge.

#include <memory>

#include "checker.h"
#include "ppy/ir/ir.h"

namespace ppy::frontend {

/// Lowers a module the checker accepted without errors (effects propagated).
std::unique_ptr<ir::Module> lower_to_ir(const ModuleInfo& m, const ModuleInterfaces& all);

}  // namespace ppy::frontend
