#pragma once
// IR generation: a checked module to canonical IR (docs/runtime.md). Locals
// live in `core.alloca` stack slots; control flow is `core.br`/`core.cond_br`
// with block arguments where values merge.

#include <map>
#include <memory>
#include <string>

#include "checker.h"
#include "ppy/ir/ir.h"

namespace ppy::frontend {

/// plugins: the project's typed stubs (`.pyi` modules) by name, whose
/// functions a module that calls them gets private copies of (lower_extern.cc).
using StubModules = std::map<std::string, const ModuleInfo*>;

/// Lowers a module the checker accepted without errors (effects propagated);
/// with `stubs`, the stub functions it calls are lowered into it too, so that
/// the optimizer inlines them into their callers (plugins).
std::unique_ptr<ir::Module> lower_to_ir(const ModuleInfo& m, const ModuleInterfaces& all,
                                        const StubModules* stubs = nullptr);

/// Declares function `f` of another module `module` in `mod` (an extern
/// marked `ppy.external`, which the linker joins), unless `mod` has it: a
/// method of an imported class (imported_classes.h).
void declare_foreign(ir::Module& mod, const std::string& module, const FuncInfo& f);

/// Lowers function `f` of module `m` into `mod` (its IR symbol and attributes
/// are `m`'s), and answers it.
ir::Function* lower_function(const ModuleInfo& m, const FuncInfo& f, ir::Module& mod, const ModuleInterfaces& all);

}  // namespace ppy::frontend
