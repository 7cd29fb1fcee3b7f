// `del xs[i]` and `del xs[a:b]` of a list (issue 32, "Types"). The parser
// makes `del x[k]` the call `x.__delitem__(k)`; a dict's is check_dict.cc's.
#include "body_checker.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::checking {

Ty BodyChecker::list_del(Expr& e, Ty base) {
  Expr& k = *e.kids[1];
  if (k.kind == ExprKind::Slice) {
    if (k.ival & 4) {  // Python deletes every step-th element: not lowered yet
      for (auto& x : k.kids) value(*x, Ty::Int);
      error(k.pos, "E1010", "'del' of a list slice with a step is outside the ppy subset (`del xs[a:b]` is in it)");
      return Ty::Error;
    }
    if (!slice_indices(k)) return Ty::Error;
  } else {
    Ty t = value(k, Ty::Int);
    if (t == Ty::Error || maybe_none(k)) return Ty::Error;
    if (t != Ty::Int && t != Ty::Bool) {
      error(k.pos, "E1030", str_cat("list indices must be integers or slices, not ", ty_name(t)));
      return Ty::Error;
    }
    raises();  // IndexError: list assignment index out of range
  }
  (void)base;
  effect("reads");
  effect("writes");
  e.ref = Ref::Builtin;
  e.target = "list.del";
  return Ty::None;
}

}  // namespace ppy::frontend::checking
