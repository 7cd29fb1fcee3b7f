#pragma once
/// Decorators on nested functions (docs/language.md, "Functions as values"), written out
/// before anything reads the module, as Python applies them:
///
///     def main() -> None:                     def main() -> None:
///         @logged                                 def sq(n: int) -> int:
///         @twice                      ==>             return n * n
///         def sq(n: int) -> int:                  sq = logged(twice(sq))
///             return n * n
///
/// so the name is a local holding what the decorators return (a `Callable` of the same
/// type: the checker says so otherwise). functools' `@cache` / `@lru_cache(...)` on a nested
/// function is cache_decorators.h's form, the cache a local of the enclosing function.
/// ppy's own decorators (`@ppy.pure`, ...) are left for the checker to refuse.

#include <string>

#include "ast.h"

namespace ppy::frontend {

/// Rewrites the decorated functions nested in the module's functions and methods of `ast`.
void expand_nested_decorators(ModuleAst& ast, const std::string& file);

}  // namespace ppy::frontend
