#pragma once
// Lazy sequences (docs/language.md, "Iterables"): what the checker and the lowering both ask of them.
// Not an API: nothing outside compiler/frontend includes it.

#include "ast.h"

namespace ppy::frontend {

/// Whether `e` is a generator expression, `(x for x in xs)` (the parser marks its first clause).
inline bool is_genexp(const Expr& e) { return e.kind == ExprKind::ListComp && e.bval; }

/// Whether `e` is a generator's `yield v` / `yield from it` (the parser makes it a call of the name `yield`).
inline bool is_yield(const Expr& e) {
  return e.kind == ExprKind::Call && e.kids[0]->kind == ExprKind::Name && e.kids[0]->str == "yield";
}

}  // namespace ppy::frontend
