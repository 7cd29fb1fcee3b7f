#pragma once
/// Joining modules into one (`ppy emit linked-ir`, program-scoped backends).
///
/// Each module lowers on its own; a call into another module goes through a
/// declaration (a function without a body) carrying the callee's symbol. Linking
/// answers those declarations with the definitions, so calls need no rewriting:
/// they already name the symbol. Functions move from the input modules into the
/// result (their values and blocks stay where they are in memory).

#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/ir/ir.h"

namespace ppy::ir {

/// Links `modules`, in order, into one named `name`:
/// - a definition answers the declarations of the same symbol in other modules,
///   which go away; a declaration whose signature (parameter and result types,
///   or a global's type and mutability) differs from the definition is an error;
/// - a private symbol (function or global) whose name any other module also
///   uses is renamed `<module>.<name>` (with `.2`, `.3`... if that is taken too),
///   and every `@sym` reference to it in its own module follows (op attributes
///   such as `callee` and `gpu.launch`'s, nested in arrays and dicts, function,
///   parameter, global and module attributes);
/// - two public definitions of one symbol are an error, except definitions all
///   marked `ppy.generic = true` with one signature (an instance each module
///   made for itself, private or public): the first is kept, public if any was;
/// - dialects merge at the highest version any module asks for; module
///   attributes merge first-come, with `ppy.libraries` arrays joined;
/// - a declaration no module defines is kept once (the first), in place.
/// Functions keep input order; a definition sits where it first appeared.
/// Errors are InvalidArgument and name the symbol and the modules.
absl::StatusOr<std::unique_ptr<Module>> link(std::vector<std::unique_ptr<Module>> modules,
                                             std::string name = "linked");

/// link() of copies of `modules`, which stay as they are: the modules a
/// program-scoped `build` or `emit_program` receives (`ppy::ModuleList`) link as
/// they come, without a clone of one's own first.
absl::StatusOr<std::unique_ptr<Module>> link(std::span<const Module* const> modules, std::string name = "linked");

/// What link() did besides the module, for drivers that report it.
struct LinkResult {
  std::unique_ptr<Module> module;
  /// (module, old name) -> new name, for each private symbol renamed.
  std::map<std::pair<std::string, std::string>, std::string> renamed;
  /// Declarations no module defines that the program's code references, sorted.
  std::vector<std::string> unresolved;
  /// Generic instances more than one module defined; one copy was kept.
  std::vector<std::string> shared;
};

/// link(), with its report.
absl::StatusOr<LinkResult> link_with_report(std::vector<std::unique_ptr<Module>> modules,
                                            std::string name = "linked");
/// link_with_report() of copies of `modules`, which stay as they are.
absl::StatusOr<LinkResult> link_with_report(std::span<const Module* const> modules, std::string name = "linked");

/// The functions `m` declares without a body that its code references by
/// `@sym` (calls, launches, any symbol attribute), sorted.
std::vector<std::string> unresolved_symbols(const Module& m);

}  // namespace ppy::ir
