#pragma once
/// The stablehlo backend's two passes: what it takes (`check.cc`) and the
/// printer (`emit.cc`). The conventions of the text it writes are in
/// docs/backends.md ("stablehlo").

#include <optional>
#include <string>

#include "ppy/ir/core_ops.h"
#include "ppy/ir/ir.h"

namespace ppy::stablehlo {

/// Whether `f` is marked for XLA (`xla.jit = true`).
bool is_marked(const ir::Function& f);

/// A guard kind's status code: the value a function's trailing status result
/// holds when that guard failed (0: none failed).
int status_code(ir::GuardKind kind);
/// The same by the kind's spelling (`"overflow"`; another word: an unknown kind's).
int status_code(std::string_view guard_kind);

/// What `validate` refuses in a marked function: the op, type or function and where.
struct Refusal {
  std::string what;
  std::string capability;
  std::optional<ir::Location> location;
};

/// The first thing in `module`'s marked functions this backend cannot
/// express, or nullopt.
std::optional<Refusal> check_module(const ir::Module& module);

/// The marked functions of `module` as an MLIR module of `func` and
/// `stablehlo` ops (generic form for stablehlo). Expects a module
/// `check_module` accepts.
std::string print_module(const ir::Module& module);

}  // namespace ppy::stablehlo
