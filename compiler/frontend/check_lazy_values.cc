// The body checker, lazy sequences as values (docs/language.md, "Iterables"; lazy_values.h): a
// `map(...)`, `filter(...)` or generator expression that is stored, passed or returned becomes a
// call of the module's generic helper generators, so it is a generator like any other (consumed
// once, lazily, `next()` raising StopIteration):
//   map(f, xs)               __ppy_map(lambda _m: f(_m), xs)
//   map(f, xs, ys)           __ppy_map2(lambda _m0, _m1: f(_m0, _m1), xs, ys)
//   filter(p, xs)            __ppy_filter(lambda _m: p(_m), xs)
//   (e for x in xs if c)     __ppy_map(lambda x: e, __ppy_filter(lambda x: c, xs))
// An iterable that is not an iterator (a list, str, set, dict) passed where an `Iterator[T]` goes
// is walked by `__ppy_iter_list` (of a list of it, for the others).
#include <string>

#include "body_checker.h"
#include "expr_build.h"
#include "lazy.h"
#include "lazy_values.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

namespace {

/// `lambda names: body`.
ExprPtr lambda_of(const std::vector<std::string>& names, ExprPtr body, Pos p, const char* frame) {
  ExprPtr l = build::node(ExprKind::Lambda, p);
  l->comp_frame = frame;
  l->ops = names;
  l->kids.push_back(std::move(body));
  l->depth = build::depth_over(l->kids);
  return l;
}

/// Whether `x` becomes a value of its own when not in an iterable's place (a generator expression,
/// map or filter): such a source stays lazy; any other is taken where an iterable goes.
bool lazy_value_source(const Expr& x) {
  if (is_genexp(x)) return true;
  return x.kind == ExprKind::Call && x.kids[0]->kind == ExprKind::Name &&
         (x.kids[0]->str == "map" || x.kids[0]->str == "filter");
}

}  // namespace

Ty BodyChecker::lazy_map_value(Expr& e, bool map, const std::vector<std::string>& names, ExprPtr applied) {
  Pos p = e.pos;
  size_t iters = e.kids.size() - 2;
  if (iters > 2 || !m_.generic_funcs.count(kLazyMap)) {
    for (size_t k = 2; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(p, "E1010", "map() of more than two iterables stored, passed or returned is outside the ppy subset");
    return Ty::Error;
  }
  std::vector<ExprPtr> args;
  args.push_back(lambda_of(names, std::move(applied), p, ""));  // map()'s own call of f: no frame of Python's
  for (size_t k = 2; k < e.kids.size(); ++k) {
    if (!lazy_value_source(*e.kids[k])) lazy_ok_.insert(e.kids[k].get());
    args.push_back(std::move(e.kids[k]));
  }
  const char* helper = !map ? kLazyFilter : iters == 2 ? kLazyMap2 : kLazyMap;
  ExprPtr c = build::call(build::name(helper, p), std::move(args), p);
  int placed = e.param_index;  // its place in the call it is passed to
  e = std::move(*c);
  e.param_index = placed;
  return value(e, Ty::Error);
}

Ty BodyChecker::genexp_value(Expr& e, Ty expected) {
  bool one_clause = e.ops.size() == 1 && !(e.kids[0]->kind == ExprKind::ListComp && e.kids[0]->str == "for");
  if (!one_clause || !m_.generic_funcs.count(kLazyMap)) {
    error(e.pos, "E1010",
          "a generator expression of several 'for' clauses or a tuple target is outside the ppy subset here (it is "
          "the argument of sum(), min(), max(), any(), all(), sorted(), list(), set(), dict() or str.join(), or a "
          "for loop's iterable)");
    return Ty::Error;
  }
  Pos p = e.pos;
  const std::string& x = e.ops[0];
  ExprPtr source = std::move(e.kids[1]);
  if (!lazy_value_source(*source)) lazy_ok_.insert(source.get());
  for (int64_t k = 0; k < e.ival; ++k) {
    std::vector<ExprPtr> args;
    args.push_back(lambda_of({x}, std::move(e.kids[2 + k]), p, e.comp_frame));
    args.push_back(std::move(source));
    source = build::call(build::name(kLazyFilter, p), std::move(args), p);
  }
  std::vector<ExprPtr> args;
  args.push_back(lambda_of({x}, std::move(e.kids[0]), p, e.comp_frame));
  args.push_back(std::move(source));
  ExprPtr c = build::call(build::name(kLazyMap, p), std::move(args), p);
  int placed = e.param_index;
  e = std::move(*c);
  e.param_index = placed;
  return value(e, expected);
}

Ty BodyChecker::iterator_arg(Expr& a, Ty t, Ty want) {
  if (t == Ty::Error || is_iterator(t)) return t;
  bool listed = list_elem(t) != Ty::Error;
  if (!listed && t != Ty::Str && !is_set(t) && !is_dict(t)) return t;
  if (!m_.generic_funcs.count(kLazyIterList)) return t;  // the caller says what is wrong
  Pos p = a.pos;
  int placed = a.param_index;  // the argument's place in the call it is passed to
  bool taken = lazy_ok_.count(&a) != 0;  // zip(...) and the like, where an iterable goes
  auto inner = std::make_unique<Expr>(std::move(a));
  if (taken) lazy_ok_.insert(inner.get());
  inner->ref = Ref::Unresolved;  // checked again, inside the call (a builtin's call dispatches on it)
  inner->target.clear();
  if (!listed) {
    std::vector<ExprPtr> one;
    one.push_back(std::move(inner));
    inner = build::call(build::name("list", p), std::move(one), p);
  }
  std::vector<ExprPtr> args;
  args.push_back(std::move(inner));
  ExprPtr c = build::call(build::name(kLazyIterList, p), std::move(args), p);
  a = std::move(*c);
  a.param_index = placed;
  return value(a, want);
}

}  // namespace ppy::frontend::checking
