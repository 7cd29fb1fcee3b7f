#pragma once
// plugins: what a plugin's typed stub adds to the checker (plugin_stub.cc) and
// to lowering (lower_extern.cc). Internal to the frontend.
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "ast.h"
#include "checker.h"
#include "lower.h"
#include "ppy/frontend/diagnostics.h"
#include "ppy/ir/ir.h"

namespace ppy::frontend::checking {

/// `@ppy.extern("symbol", library="name")` on a stub's function, or
/// `@ppy.op("dialect.name")` (then `op` is the op's full name, `symbol` empty):
/// the function is one op of a dialect the plugin registers (an open dialect,
/// ppy/ir/open_dialect.h), its arguments the operands, its result the op's.
struct ExternDecl {
  std::string symbol, library;
  Pos pos;
  std::string op;
};

/// Whether `deco` is `@ppy.extern(...)` or `@ppy.op(...)` (`resolve` maps a dotted name to the
/// special name it binds: `extern` -> `ppy.extern` after `from ppy import
/// extern`); a malformed one is reported through `error`.
bool plugin_decorator(const Expr& deco, const std::function<std::string(const std::string&)>& resolve,
                      const std::function<void(Pos, const char*, std::string)>& error);

/// The @ppy.extern or @ppy.op declaration among `def`'s decorators, if any (well formed).
std::optional<ExternDecl> extern_decl(const FuncDef& def);

/// For an @ppy.extern function: checks it is declared in a stub with a `...`
/// body and types that cross to C, gives it its effects, and answers true
/// (its body is not checked as ppy); false for any other function.
bool check_extern_body(FuncInfo& f, const std::string& path, DiagnosticEngine& diags);

/// The modules of the project being lowered that are plugins' stubs: their
/// functions' IR symbols are `<module>_P_<func>` (symbol_name), so that a stub's
/// `dot` in module `vecmath` never takes the name of the library's C symbol
/// `vecmath_dot` that its extern calls. Set by lower_project before lowering.
void set_stub_modules(std::set<std::string> modules);
bool is_stub_module(const std::string& module);

/// For an @ppy.extern function: its IR body, one `core.call_extern` of the
/// symbol (lower_extern.cc), and true; for an @ppy.op function, one op of the
/// plugin's dialect, which `mod` then declares; false for any other function.
bool lower_extern_function(const FuncInfo& f, const std::string& path, ir::Function* fn, ir::Module& mod);

/// The stub functions `m` calls (and those they call), lowered into `mod` as
/// private functions of the same symbols, so that the optimizer inlines them
/// into `m`'s functions before the plugin stages: a plugin's pass then sees
/// a stub's `core.call_extern`s where the user's calls are (vecmath's fusion
/// of `axpy` then `norm`). Only functions that reach nothing else of their
/// module (no module variable, class, closure or other module) are copied;
/// the others are called across modules as before.
void copy_stub_functions(const ModuleInfo& m, const ModuleInterfaces& all, const StubModules& stubs, ir::Module& mod);

}  // namespace ppy::frontend::checking
