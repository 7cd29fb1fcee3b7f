// Iterable parameters walked once (docs/language.md, "Iterables").
#pragma once

#include <functional>
#include <string>

#include "ast.h"

namespace ppy::frontend {

/// A list, str, set or dict passed where `Iterable[T]` goes reaches the callee as
/// a one-pass iterator (check_lazy_values.cc). python3 walks the list again on
/// each loop, so a parameter annotated `Iterable[...]` that its function may walk
/// more than once (named twice, inside a loop, in a nested function or lambda)
/// would read as empty the second time: `refuse` is called with its position and
/// an E1010 message instead. A parameter named once, outside loops, is walked once.
void refuse_iterables_walked_twice(const FuncDef& def, const std::function<void(Pos, std::string)>& refuse);

}  // namespace ppy::frontend
