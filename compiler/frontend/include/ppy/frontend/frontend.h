#pragma once
/// The frontend's public API: ppy source to canonical IR, one ir::Module per
/// source module (docs/language.md says what source is accepted, docs/runtime.md
/// how it is written on the IR, docs/diagnostics.md which errors it reports).
///
/// Modules lower on their own. A project is lowered in two phases: every
/// module's interface (its functions' signatures and effects, its constants) is
/// collected first, then each module is checked and lowered against the others'
/// interfaces; a call into another module becomes an `extern func` declaration
/// marked `ppy.external`, which the linker joins.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ppy/frontend/diagnostics.h"
#include "ppy/ir/ir.h"
#include "ppy/project/project.h"

namespace ppy::frontend {

/// A module-level constant: its source type and value (an int, float or bool).
struct ConstantValue {
  std::string type;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;  ///< a str constant's text
};

/// Source-level type names as written in annotations: "int", "float", "bool",
/// "None", "list[int]", "list[float]", "native.ptr[float]", ...
struct FuncSignature {
  std::string name;                      ///< the function's name in its module
  std::vector<std::string> param_names;
  std::vector<std::string> param_types;
  /// Per parameter: the constant a call that leaves it out passes, or none.
  std::vector<std::optional<ConstantValue>> param_defaults;
  std::string result_type;               ///< "None" when it returns nothing
  std::vector<std::string> effects;      ///< sorted; empty means pure
  std::string gpu_kind;                  ///< "", "kernel" or "device"
  bool exported = false;
  /// generics: a generic function's type parameters (its param_types and
  /// result_type are then its annotations as written, `list[T]`); callers ask
  /// its module for each instantiation (`first[int]`, docs/ir.md).
  std::vector<std::string> type_params;
};

/// What other modules may use of a module.
struct ModuleInterface {
  std::string name;
  std::map<std::string, FuncSignature> functions;
  std::map<std::string, ConstantValue> constants;
  /// Its classes' names, which other modules may import (issue 32): their
  /// methods stay the module's, reached through the class.
  std::vector<std::string> classes;
  /// Project modules it may import, in order (docs/runtime.md, "Module-level code").
  std::vector<std::string> imports;
};

/// Module name -> interface.
using ModuleInterfaces = std::map<std::string, ModuleInterface>;

struct LowerResult {
  /// The lowered module (not yet verified), or null when there were errors.
  std::unique_ptr<ir::Module> module;
  /// The module's own interface (signatures with the effects found in its bodies).
  ModuleInterface interface;
};

/// The IR symbol of a function: `<module>_<func>` with '.' of the module -> '_'.
std::string symbol_name(const std::string& module, const std::string& func);

/// Phase 1: parses `src` and returns its signatures and constants (effects not
/// yet known). Errors in the module's declarations are reported to `diags`.
ModuleInterface collect_interface(const SourceModule& src, DiagnosticEngine& diags);

/// Checks and lowers one module. `others` holds the interfaces of the modules it
/// may import (its own entry, if present, is ignored). Every error is reported to
/// `diags`; on any error the result's module is null.
LowerResult lower_module(const SourceModule& src, const ModuleInterfaces& others, DiagnosticEngine& diags);

/// Lowers every module of the project (sorted by module name): interfaces
/// first, then each module's check, effects propagated across modules, then IR
/// generation. Returns an empty vector when any module had an error.
std::vector<std::unique_ptr<ir::Module>> lower_project(const Project& project, DiagnosticEngine& diags);

/// Calls `fn(i)` for every i in [0, n), in any order and on any threads.
using ForEach = std::function<void(size_t n, const std::function<void(size_t)>& fn)>;

/// lower_project with parsing and declaring, then IR generation, spread by
/// `each` (the modules are checked in between, one after another, since each
/// needs its imports' interfaces), and
/// `then(i, module)` called on the thread that lowered module i as soon as it
/// has: the driver's shared passes, so that they overlap other modules'
/// lowering rather than wait for all of it. Module i is the project's i-th.
std::vector<std::unique_ptr<ir::Module>> lower_project(const Project& project, DiagnosticEngine& diags,
                                                       const ForEach& each,
                                                       const std::function<void(size_t, ir::Module&)>& then);

/// Parses and checks without generating IR (`ppy check`); true when clean.
bool check_project(const Project& project, DiagnosticEngine& diags);

}  // namespace ppy::frontend
