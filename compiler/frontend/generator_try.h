#pragma once
/// Generators, `yield` inside `try` and `with` (docs/language.md, "Generators"; docs/runtime.md,
/// "Generators"): the tries of a generator's body that yield are split at their yields into tries
/// that do not, with hidden flags keeping what the try means (generator_try.cc).

#include <vector>

#include "ast.h"

namespace ppy::frontend {

/// Whether `s` yields (in a nested statement too, never in a nested def or class).
bool stmt_yields(const Stmt& s);
/// Whether a statement of `body` yields.
bool yields_in(const std::vector<StmtPtr>& body);

/// Rewrites each try of `body` (a generator function's) whose body yields and whose except
/// clauses, `else` and `finally` do not; any other is left for the checker to refuse.
void split_yielding_tries(std::vector<StmtPtr>& body);

}  // namespace ppy::frontend
