#pragma once
/// Lists of instances whose class orders or compares them (`__lt__`,
/// `__eq__`): `sorted`, `min`, `max`, `list.sort`, `in`, `index`, `count` and
/// `remove` of them are helper functions written in ppy and added to the
/// module beside the class (`__ppy_sorted_Task`), which the checker calls in
/// their place. Every road then runs them as the module's own code: the
/// helpers call the class's special methods as Python's builtins do (identity
/// first for `==`, as PyObject_RichCompareBool).

#include <string>

#include "ast.h"
#include "ppy/frontend/diagnostics.h"

namespace ppy::frontend {

/// The helper doing `op` (sorted, sort, min, max, contains, index, count,
/// remove) for a list of `cls`.
std::string list_helper_name(const std::string& op, const std::string& cls);

/// Gives the three parameters of each class's `__exit__(self, exc_type, exc,
/// tb)` that its body never reads the type bool, whatever their annotation
/// (check_with.cc): a `with` statement passes placeholders.
void prepare_exit_methods(ModuleAst& ast);

/// Adds to `ast`, after each class whose methods (its own or a base's in the
/// module) include `__lt__` or `__eq__`, the helpers they allow.
void add_list_helpers(ModuleAst& ast, const std::string& file);

/// Makes `e` the call `name(args...)` of a module function.
void make_function_call(Expr& e, const std::string& name, std::vector<ExprPtr> args);

}  // namespace ppy::frontend
