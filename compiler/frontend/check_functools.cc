// The body checker, functools (docs/stdlib.md, "functools"): `functools.reduce(f, it[, init])`, a fold
// of any iterable (a list, a generator, map(), ...) through a function value, one loop and no list made.
// `functools.partial(f, a, ...)` of a function of the module is the lambda of the parameters left,
// `lambda x: f(a, x)`, typed by f's signature (check_closure.cc makes it a closure).
#include <string>

#include "body_checker.h"
#include "callable.h"
#include "expr_build.h"
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
  Pos p = e.pos;
  size_t nargs = e.kids.size() - 1;
  auto fail = [&](Pos at, std::string msg) {
    for (size_t k = 1; k < e.kids.size(); ++k)
      if (e.kids[k]->kind != ExprKind::Lambda) value(*e.kids[k], Ty::Error);
    error(at, "E1010", std::move(msg));
    return Ty::Error;
  };
  if (!e.keywords.empty())
    return fail(e.keywords[0].pos, "functools.partial() with keyword arguments is outside the ppy subset");
  const FuncInfo* f = nargs >= 1 && e.kids[1]->kind == ExprKind::Name && !types_.count(e.kids[1]->str)
                          ? m_.func(e.kids[1]->str)
                          : nullptr;
  if (!f || !f->gpu_kind.empty())
    return fail(nargs >= 1 ? e.kids[1]->pos : p,
                "functools.partial() of anything but a function of the module is outside the ppy subset (write a "
                "lambda: lambda x: f(a, x))");
  size_t fixed = nargs - 1;
  if (fixed > f->params.size())
    return fail(p,
                str_cat(f->name, "() takes ", f->params.size(), " positional arguments but partial() fixes ", fixed));
  // Python evaluates the fixed arguments once; a literal or a name read at each call means the same
  // while the name is not assigned again (docs/stdlib.md).
  for (size_t k = 2; k < e.kids.size(); ++k) {
    const Expr& a = *e.kids[k];
    bool plain = a.kind == ExprKind::Name || a.kind == ExprKind::Int || a.kind == ExprKind::Float ||
                 a.kind == ExprKind::Str || a.kind == ExprKind::Bool || a.kind == ExprKind::NoneLit ||
                 (a.kind == ExprKind::Unary && a.str == "-" &&
                  (a.kids[0]->kind == ExprKind::Int || a.kids[0]->kind == ExprKind::Float));
    if (!plain)
      return fail(a.pos,
                  "functools.partial()'s fixed arguments are names or literals in the ppy subset (name it first)");
  }
  // `partial(f, a)`: `lambda _pa0: f(a, _pa0)`, typed by f's signature.
  int id = ++comps_;
  std::vector<Ty> rest(f->params.begin() + static_cast<std::ptrdiff_t>(fixed), f->params.end());
  std::vector<std::string> names;
  std::vector<ExprPtr> args;
  for (size_t k = 2; k < e.kids.size(); ++k) args.push_back(std::move(e.kids[k]));
  for (size_t i = 0; i < rest.size(); ++i) {
    names.push_back(str_cat("_pa", id, "_", i));
    args.push_back(build::name(names.back(), p));
  }
  ExprPtr body = build::call(build::name(e.kids[1]->str, e.kids[1]->pos), std::move(args), p);
  Expr lam;
  lam.kind = ExprKind::Lambda;
  lam.pos = p;
  lam.ops = names;
  lam.depth = body->depth + 1;
  lam.kids.push_back(std::move(body));
  e = std::move(lam);
  return value(e, callable_of(rest, f->result));
}

}  // namespace ppy::frontend::checking
