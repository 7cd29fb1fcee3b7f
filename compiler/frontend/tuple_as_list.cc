#include "tuple_as_list.h"

#include "expr_build.h"
#include "types.h"

namespace ppy::frontend::checking {
bool reads_a_variable(const Expr& e) {
  if (e.kind == ExprKind::Name) return true;
  return e.kind == ExprKind::Attribute && reads_a_variable(*e.kids[0]);
}

bool tuple_as_list(Expr& e, Ty t) {
  std::vector<Ty> elems = tuple_elems(t);
  if (elems.empty() || !reads_a_variable(e)) return false;
  for (Ty x : elems)
    if (x != elems[0]) return false;
  Pos p = e.pos;
  std::vector<ExprPtr> items;
  for (size_t i = 0; i < elems.size(); ++i) {
    std::vector<ExprPtr> kids;
    kids.push_back(build::clone(e));
    kids.push_back(build::int_lit(static_cast<int64_t>(i), p));
    items.push_back(build::with_kids(ExprKind::Subscript, p, std::move(kids)));
  }
  ExprPtr list = build::with_kids(ExprKind::List, p, std::move(items));
  e = std::move(*list);
  return true;
}

bool computed_index(const Expr& ix) {
  if (ix.kind == ExprKind::Int || ix.kind == ExprKind::Slice || ix.kind == ExprKind::Tuple) return false;
  return !(ix.kind == ExprKind::Unary && ix.str == "-" && ix.kids[0]->kind == ExprKind::Int);
}

}  // namespace ppy::frontend::checking
