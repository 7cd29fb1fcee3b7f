// The body checker, functools (docs/stdlib.md, "functools"): `functools.reduce(f, it[, init])`, a fold
// of any iterable (a list, a generator, map(), ...) through a function value, one loop and no list made.
// `functools.partial` stays outside (E1010): a Callable value of the parameters left needs a closure
// made of a function value and values of several types, which check_closure.cc does not make yet.
#include <string>

#include "body_checker.h"
#include "callable.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

Ty BodyChecker::reduce_call(Expr& e) {
  size_t nargs = e.kids.size() - 1;
  auto fail = [&](Pos at, const char* code, std::string msg) {
    for (size_t k = 1; k < e.kids.size(); ++k)
      if (e.kids[k]->kind != ExprKind::Lambda) value(*e.kids[k], Ty::Error);
    error(at, code, std::move(msg));
    return Ty::Error;
  };
  if (!e.keywords.empty()) return fail(e.keywords[0].pos, "E1032", "reduce() takes no keyword arguments");
  if (nargs < 2) return fail(e.pos, "E1032", str_cat("reduce expected at least 2 arguments, got ", nargs));
  if (nargs > 3) return fail(e.pos, "E1032", str_cat("reduce expected at most 3 arguments, got ", nargs));
  wrap_iterator(e.kids[2]);  // a generator's values, as a generator expression gives them
  Expr& a = *e.kids[2];
  lazy_ok_.insert(&a);
  Ty elem = iter_type(a);
  if (elem == Ty::Error) return Ty::Error;
  Ty acc = elem;
  if (nargs == 3) {
    acc = value(*e.kids[3], elem);
    if (acc == Ty::Error) return acc;
    if (acc == Ty::Bool && elem == Ty::Int) acc = Ty::Int;
  }
  Expr& f = *e.kids[1];
  Ty ft = value(f, callable_of({acc, elem}, Ty::Error));
  if (ft == Ty::Error) return ft;
  std::vector<Ty> ps = callable_params(ft);
  if (!is_callable(ft) || ps.size() != 2 || !assignable(acc, ps[0]) || !assignable(elem, ps[1])) {
    error(f.pos, "E1030",
          str_cat("reduce() takes a function of two arguments, Callable[[", ty_name(acc), ", ", ty_name(elem), "], ",
                  ty_name(acc), "], not ", ty_name(ft)));
    return Ty::Error;
  }
  Ty r = callable_result(ft);
  if (nargs == 2 && r != acc && is_numeric(r) && is_numeric(acc) && r != Ty::Bool) acc = r;
  if (!assignable(r, acc)) {
    error(f.pos, "E1030",
          str_cat("reduce()'s function gives ", ty_name(r), " where the value it folds is ", ty_name(acc),
                  "; a reduction keeps one type"));
    return Ty::Error;
  }
  for (const char* x : {"io", "raises", "reads", "writes"}) effect(x);
  // The accumulator and whether it holds a value yet: locals of their own.
  int n = ++comps_;
  std::string total = str_cat("_r", n), seen = str_cat("_r", n, "_seen");
  types_[total] = acc;
  types_[seen] = Ty::Bool;
  for (const std::string& l : {total, seen}) {
    note_local(l);
    flow_.assigned.insert(l);
  }
  e.ops = {total, seen};
  e.ref = Ref::Builtin;
  e.target = "lazy.reduce";
  return acc;
}

Ty BodyChecker::partial_call(Expr& e, Ty expected) {
  (void)expected;
  for (size_t k = 1; k < e.kids.size(); ++k)
    if (e.kids[k]->kind != ExprKind::Lambda) value(*e.kids[k], Ty::Error);
  error(e.pos, "E1010", "functools.partial() is outside the ppy subset (write a lambda: lambda x: f(a, x))");
  return Ty::Error;
}

}  // namespace ppy::frontend::checking
