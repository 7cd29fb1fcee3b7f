// The body checker, map() and filter() (docs/language.md, "Iterables"): where an iterable goes, a call
// of either becomes the generator expression Python's own documentation gives as its meaning, checked
// and lowered as one, so it is as lazy as Python's (each element made when the consumer takes it):
//   map(f, xs)          (f(_m0) for _m0 in xs)
//   map(f, xs, ys)      (f(_m0, _m1) for _m0, _m1 in zip(xs, ys))
//   map(lambda x: e, xs)  (e for x in xs)       the lambda's parameters are the clause's names
//   filter(f, xs)       (_m0 for _m0 in xs if f(_m0))
//   filter(None, xs)    (_m0 for _m0 in xs if _m0)
//   map(str.upper, ws)  (_m0.upper() for _m0 in ws)   a method named on a builtin type
// The function is a name (a module function, a builtin such as str, int, len or abs, a class, a
// Callable local), a lambda, or `obj.method`: each is free of effects to name again per element, so
// naming it at each call means what Python's one evaluation means. Anything else is refused (E1010).
#include <string>

#include "body_checker.h"
#include "tuple_as_list.h"
#include "expr_build.h"
#include "lazy.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {


Ty BodyChecker::map_call(Expr& e, const std::string& n) {
  size_t nargs = e.kids.size() - 1;
  bool map = n == "map";
  Pos p = e.pos;
  auto fail = [&](Pos at, const char* code, std::string msg) {
    for (size_t k = 1; k < e.kids.size(); ++k)
      if (e.kids[k]->kind != ExprKind::Lambda) value(*e.kids[k], Ty::Error);
    error(at, code, std::move(msg));
    return Ty::Error;
  };
  if (!e.keywords.empty()) return fail(e.keywords[0].pos, "E1032", str_cat(n, "() takes no keyword arguments"));
  if (map && nargs < 2) return fail(p, "E1032", "map() must have at least two arguments.");
  if (!map && nargs != 2) return fail(p, "E1032", str_cat("filter expected 2 arguments, got ", nargs));
  bool as_value = !lazy_ok_.count(&e);  // stored, passed or returned: a generator (check_lazy_values.cc)
  Expr& f = *e.kids[1];
  bool none = !map && f.kind == ExprKind::NoneLit;
  size_t iters = nargs - 1;
  if (f.kind == ExprKind::Lambda) {
    if (f.ops.size() != iters)
      return fail(f.pos, "E1030",
                  str_cat("<lambda>() takes ", f.ops.size(), " positional argument", f.ops.size() == 1 ? "" : "s",
                          " but ", iters, (iters == 1 ? " was" : " were"), " given"));
  } else if (!none && !reads_a_variable(f)) {
    return fail(f.pos, "E1010",
                str_cat(n,
                        "() of a function made by an expression is outside the ppy subset (name it first: "
                        "`f = ...`, then ",
                        n, "(f, ...))"));
  }
  // The clause's names: the lambda's parameters, else names of this call's own.
  std::vector<std::string> names;
  if (f.kind == ExprKind::Lambda) {
    names = f.ops;
  } else {
    int k = ++comps_;
    for (size_t i = 0; i < iters; ++i) names.push_back(str_cat("_m", k, "_", i));
  }
  // What each element is (map) or whether it is kept (filter).
  ExprPtr applied;
  if (none) {
    applied = build::name(names[0], p);
  } else if (f.kind == ExprKind::Lambda) {
    applied = std::move(f.kids[0]);
  } else {
    auto c = std::make_unique<Expr>();
    c->kind = ExprKind::Call;
    c->pos = p;
    bool type_method = f.kind == ExprKind::Attribute && f.kids[0]->kind == ExprKind::Name &&
                       (f.kids[0]->str == "str" || f.kids[0]->str == "list" || f.kids[0]->str == "dict") &&
                       !types_.count(f.kids[0]->str) && !m_.bindings.count(f.kids[0]->str);
    if (type_method) {  // `str.upper`: the method of the first argument
      auto attr = std::make_unique<Expr>();
      attr->kind = ExprKind::Attribute;
      attr->pos = f.pos;
      attr->str = f.str;
      attr->kids.push_back(build::name(names[0], p));
      attr->depth = 2;
      c->kids.push_back(std::move(attr));
      for (size_t i = 1; i < iters; ++i) c->kids.push_back(build::name(names[i], p));
    } else {
      c->kids.push_back(build::clone(f));
      for (const std::string& m : names) c->kids.push_back(build::name(m, p));
    }
    c->depth = build::depth_over(c->kids);
    applied = std::move(c);
  }
  if (as_value) return lazy_map_value(e, map, names, std::move(applied));
  // The iterable: the one given, or zip() of them.
  ExprPtr source;
  if (iters == 1) {
    source = std::move(e.kids[2]);
  } else {
    auto z = std::make_unique<Expr>();
    z->kind = ExprKind::Call;
    z->pos = e.kids[2]->pos;
    z->kids.push_back(build::name("zip", z->pos));
    for (size_t k = 2; k < e.kids.size(); ++k) z->kids.push_back(std::move(e.kids[k]));
    z->depth = build::depth_over(z->kids);
    source = std::move(z);
  }
  // `e` becomes the generator expression, in place (so it stays where an iterable is taken).
  Expr gen;
  gen.kind = ExprKind::ListComp;
  gen.bval = true;
  gen.pos = p;
  gen.ops = names;
  if (map) {
    gen.kids.push_back(std::move(applied));
    gen.kids.push_back(std::move(source));
  } else {
    gen.kids.push_back(build::name(names[0], p));
    gen.kids.push_back(std::move(source));
    gen.kids.push_back(std::move(applied));
    gen.ival = 1;
  }
  gen.depth = build::depth_over(gen.kids);
  e = std::move(gen);
  return value(e, Ty::Error);
}

}  // namespace ppy::frontend::checking
