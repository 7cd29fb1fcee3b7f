// `*rest` of an unpacking target (`first, *rest = xs`): the parser makes it a
// Unary "*" whose kid is the target; the checker takes it only in a target
// unpacking a list (check_tuple.cc), lowering slices the rest (lower_statements.cc).
#pragma once

#include "ast.h"

namespace ppy::frontend {

/// True for the `*rest` of an unpacking target.
inline bool is_starred(const Expr& e) { return e.kind == ExprKind::Unary && e.str == "*"; }

}  // namespace ppy::frontend
