#pragma once
// Functions as values: the checker's type of a callable value and what the
// other parts of the frontend use to take and call one. Not an API outside
// compiler/frontend.
//
// - A callable value is `Callable[[A, B], R]` (from typing or collections.abc),
//   interned as a Ty like a tuple (types.cc): `callable_of({A, B}, R)`.
// - On the IR it is a handle, `ptr<i8>`, to a closure object on the collector
//   (docs/runtime.md, "Functions as values"): `{__tid, fn, cells...}` where `fn`
//   is a `core.func_ref` of a function that takes the closure itself first.
// - To call one from lowering code, use `FunctionLowerer::call_value(fn, type,
//   args, pos)` (lower_closure.cc, declared in lowerer.h): it reads `fn` from the
//   closure and emits `core.call_indirect %fn, %closure, args... : R`. The
//   checker marks such a call `Ref::Value` (BodyChecker::value_call).
// - A lambda takes its parameter types from the Callable expected where it
//   goes. A builtin that takes a function (a sort key, map's) checks its
//   argument with `value(arg, callable_of({elem}, Ty::Error))` (a result of
//   Error lets a lambda's body decide it), then `is_callable` and
//   `callable_params` of what it got, and records the effects of a call
//   through a value (io, raises, reads, writes), as check_keyed.cc does.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ast.h"

namespace ppy::frontend {

/// `Callable[[params...], result]`; a result of Ty::Error is one the checker has
/// still to infer (a lambda's body gives it).
Ty callable_of(const std::vector<Ty>& params, Ty result);
bool is_callable(Ty t);
/// A Callable's parameter types (empty for anything else).
std::vector<Ty> callable_params(Ty t);
/// A Callable's result type (Ty::None for a function that returns nothing;
/// Error for anything else).
Ty callable_result(Ty t);

namespace checking {

/// `Callable[[A, B], R]` as an annotation: its type (Error when reported), or
/// nullopt when `a` is not one; `elem` reads the types inside.
std::optional<Ty> callable_annotation(const Expr& a, const std::function<Ty(const Expr&)>& elem,
                                      const std::function<void(Pos, const char*, std::string)>& error);

}  // namespace checking
}  // namespace ppy::frontend
