#pragma once
/// `functools.cache` and `functools.lru_cache(...)` on a module function (docs/stdlib.md,
/// "functools"): the memoized function as python3 runs it, written in ppy before anything
/// reads the module. `@cache def fib(n: int) -> int: BODY` becomes
///
///     _fib_cache: dict[int, int] = {}
///     def fib(n: int) -> int:                # what callers, recursion included, call
///         if n in _fib_cache:
///             return _fib_cache[n]
///         _fib_result = _fib_uncached(n)
///         _fib_cache[n] = _fib_result
///         return _fib_result
///     def _fib_uncached(n: int) -> int: BODY
///
/// keyed by a tuple of the arguments when there are several. An lru_cache's maxsize only
/// bounds memory: the results are the same, so every maxsize is kept as None's.

#include <set>
#include <string>
#include <vector>

#include "ast.h"

namespace ppy::frontend {

/// The names `from functools import cache, lru_cache as memo` binds to functools' decorators.
std::set<std::string> imported_decorators(const ModuleAst& ast);

/// Whether decorator `d` is `functools.cache`, `functools.lru_cache(...)`, or one `imported` by name.
bool is_cache_decorator(const Expr& d, const std::set<std::string>& imported);

/// The cache and the wrapper of `s`'s function (which is renamed to its uncached self), to go
/// before it in its body, or nothing when its signature cannot key a dict (left for the checker
/// to refuse the decorator). nested_decorators.h places them in a function's body.
std::vector<StmtPtr> expand_cache_decorator(Stmt& s, const std::string& file);

/// Rewrites each module-level function of `ast` decorated by functools' cache or
/// lru_cache as above.
void expand_cache_decorators(ModuleAst& ast, const std::string& file);

}  // namespace ppy::frontend
