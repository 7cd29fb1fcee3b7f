#pragma once
/// Lazy sequences as values (docs/language.md, "Iterables"): `map(...)`, `filter(...)`
/// and a generator expression stored in a variable, passed or returned are calls of
/// generic generators written in ppy (`__ppy_map`, `__ppy_filter`, ...) that the
/// frontend adds to a module that may need them, so every road runs them as it runs
/// any generator, with nothing new on the IR. A list (or str, set, dict) passed where
/// an `Iterator[T]` / `Iterable[T]` goes is walked by `__ppy_iter_list`.

#include <string>

#include "ast.h"

namespace ppy::frontend {

/// The helper generators' names.
inline constexpr const char* kLazyMap = "__ppy_map";
inline constexpr const char* kLazyMap2 = "__ppy_map2";
inline constexpr const char* kLazyFilter = "__ppy_filter";
inline constexpr const char* kLazyIterList = "__ppy_iter_list";
inline constexpr const char* kLazyGroupby = "__ppy_groupby";

/// Adds the helper generators to `ast` when `text` (the module's source) names map, filter,
/// Iterable, groupby or a generator expression could be a value (a `for` inside parentheses).
void add_lazy_value_helpers(ModuleAst& ast, const std::string& file, const std::string& text);

}  // namespace ppy::frontend
