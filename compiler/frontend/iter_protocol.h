#pragma once
/// The iteration protocol written by hand (docs/language.md, "Iterables"): a
/// class with `__next__` (raising StopIteration at the end) gets a generator
/// written in ppy beside it, `__ppy_iter_C(it: C) -> Iterator[T]`, that calls
/// `it.__next__()` until StopIteration and yields each value. Wherever an
/// iterable goes, an object whose `__iter__` returns a C is taken as
/// `__ppy_iter_C(obj.__iter__())`, so everything that takes a generator takes
/// it (for, comprehensions, the builtins, next()), on every road, with nothing
/// new on the IR.

#include <string>

#include "ast.h"

namespace ppy::frontend {

/// The generator that walks instances of `cls` by `__next__`.
std::string protocol_iter_name(const std::string& cls);

/// Adds to `ast`, after each class defining `__next__` (annotated), its walking generator.
void add_iter_protocol_helpers(ModuleAst& ast, const std::string& file);

}  // namespace ppy::frontend
