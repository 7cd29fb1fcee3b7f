// The body checker, itertools (docs/stdlib.md, "itertools"): where an iterable goes, each call becomes
// the generator expression (or range) that means what it means in Python, checked and lowered as one:
//   product(a, b)            ((_x0, _x1) for _x0 in a for _x1 in b)
//   combinations(xs, 2)      ((xs[i], xs[j]) for i in range(len(xs)) for j in range(i + 1, len(xs)))
//   permutations(xs, 2)      ((xs[i], xs[j]) for i in range(len(xs)) for j in range(len(xs)) if j != i)
//   islice(it, stop)         (_x for _i, _x in zip(range(stop), it))      lazy: it is stepped stop times at most
//   islice(it, a, b, s)      (... zip(range(b), it) if _i >= a and (_i - a) % s == 0)
//   chain(a, b)              (_x for _s in [a, b] for _x in _s)
//   chain.from_iterable(xss) (_x for _s in xss for _x in _s)
//   count(a, s)              range(a, <the largest int>, s) in a for loop's or a comprehension's header
// so each is written once, in the checker, and every road runs it as it runs generator expressions.
// What is named in them more than once (combinations' xs, islice's bounds) must be a name or a
// literal, so naming it again means what Python's one evaluation means. accumulate keeps a state
// between elements that a generator expression cannot hold: it is one loop making a list
// (lower_lazy.cc), as zip is. groupby is a generic generator written in ppy (lazy_values.cc).
#include <optional>
#include <string>

#include "body_checker.h"
#include "callable.h"
#include "checker_internal.h"
#include "expr_build.h"
#include "lazy.h"
#include "lazy_values.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

namespace {

/// Whether naming `x` again is free of effects (a name, an attribute of one, an int literal, -literal).
bool repeatable(const Expr& x) {
  if (x.kind == ExprKind::Name || x.kind == ExprKind::Int || x.kind == ExprKind::Str) return true;
  if (x.kind == ExprKind::Unary && x.str == "-") return x.kids[0]->kind == ExprKind::Int;
  return x.kind == ExprKind::Attribute && repeatable(*x.kids[0]);
}

}  // namespace

Ty BodyChecker::itertools_call(Expr& e, const std::string& n) {
  Pos p = e.pos;
  size_t nargs = e.kids.size() - 1;
  auto fail = [&](Pos at, const char* code, std::string msg) {
    for (size_t k = 1; k < e.kids.size(); ++k)
      if (e.kids[k] && e.kids[k]->kind != ExprKind::Lambda) value(*e.kids[k], Ty::Error);
    error(at, code, std::move(msg));
    return Ty::Error;
  };
  if (n == "accumulate" && lazy_ok_.count(&e)) {
    // accumulate(it[, func][, initial=x]): the list of running totals, made in one loop (lower_lazy.cc).
    for (auto& k : e.keywords)
      if (k.name != "initial" && k.name != "func")
        return fail(k.pos, "E1032", str_cat("accumulate() got an unexpected keyword argument '", k.name, "'"));
    ExprPtr func, initial;
    if (nargs >= 2) func = std::move(e.kids[2]);
    if (nargs > 2)
      return fail(p, "E1032", str_cat("accumulate() takes at most 2 positional arguments (", nargs, " given)"));
    if (nargs == 0) return fail(p, "E1032", "accumulate() missing required argument 'iterable' (pos 1)");
    for (auto& k : e.keywords) (k.name == "func" ? func : initial) = std::move(k.value);
    e.keywords.clear();
    e.kids.resize(2);
    if (func && func->kind == ExprKind::NoneLit) func.reset();
    wrap_iterator(e.kids[1]);
    Expr& a = *e.kids[1];
    lazy_ok_.insert(&a);
    Ty elem = iter_type(a);
    if (elem == Ty::Error) return elem;
    Ty acc = elem == Ty::Bool ? Ty::Int : elem;
    ExprPtr none = build::node(ExprKind::NoneLit, p);
    if (initial) {
      Ty it = value(*initial, acc);
      if (it == Ty::Error) return it;
      if (!assignable(it, acc)) {
        error(initial->pos, "E1030",
              str_cat("accumulate()'s initial is ", ty_name(it), " where its values are ", ty_name(acc)));
        return Ty::Error;
      }
    }
    if (func) {
      Ty ft = value(*func, callable_of({acc, elem}, Ty::Error));
      if (ft == Ty::Error) return ft;
      std::vector<Ty> ps = callable_params(ft);
      if (!is_callable(ft) || ps.size() != 2 || !assignable(acc, ps[0]) || !assignable(elem, ps[1]) ||
          !assignable(callable_result(ft), acc)) {
        error(func->pos, "E1030",
              str_cat("accumulate() takes a function Callable[[", ty_name(acc), ", ", ty_name(elem), "], ",
                      ty_name(acc), "], not ", ty_name(ft)));
        return Ty::Error;
      }
      for (const char* x : {"io", "raises", "reads", "writes"}) effect(x);
    } else if (acc != Ty::Int && acc != Ty::Float) {
      error(a.pos, "E1010",
            str_cat("accumulate() of ", ty_name(elem),
                    " values without a function is outside the ppy subset (it adds "
                    "ints or floats)"));
      return Ty::Error;
    }
    if (acc == Ty::Int) raises();  // OverflowError
    raises();                      // MemoryError
    int id = ++comps_;
    std::string total = str_cat("_r", id), seen = str_cat("_r", id, "_seen");
    types_[total] = acc;
    types_[seen] = Ty::Bool;
    for (const std::string& l : {total, seen}) {
      note_local(l);
      flow_.assigned.insert(l);
    }
    e.kids.push_back(func ? std::move(func) : std::move(none));
    if (initial) e.kids.push_back(std::move(initial));
    e.ops = {total, seen};
    e.ref = Ref::Builtin;
    e.target = "lazy.accumulate";
    return list_of(acc);
  }
  if (n == "groupby") {
    // groupby(it[, key]): a generator of (key, group) pairs whose groups share `it` (lazy_values.cc).
    for (auto& k : e.keywords)
      if (k.name != "key")
        return fail(k.pos, "E1032", str_cat("groupby() got an unexpected keyword argument '", k.name, "'"));
    if (nargs == 0 || nargs + e.keywords.size() > 2)
      return fail(p, "E1032", str_cat("groupby() takes at most 2 arguments (", nargs + e.keywords.size(), " given)"));
    // `e` becomes __ppy_groupby(it, key), key `lambda _g: _g` (the values) when none is given.
    ExprPtr key = nargs == 2 ? std::move(e.kids[2]) : e.keywords.empty() ? nullptr : std::move(e.keywords[0].value);
    if (!key || key->kind == ExprKind::NoneLit) {
      key = build::node(ExprKind::Lambda, p);
      key->comp_frame = "";  // no frame of Python's
      key->ops = {"_g"};
      key->kids.push_back(build::name("_g", p));
      key->depth = build::depth_over(key->kids);
    }
    if (!m_.generic_funcs.count(kLazyGroupby)) {
      value(*e.kids[1], Ty::Error);
      error(p, "E1010", "itertools.groupby() is outside the ppy subset here");
      return Ty::Error;
    }
    Expr& it = *e.kids[1];
    bool lazy_source = is_genexp(it) || (it.kind == ExprKind::Call && it.kids[0]->kind == ExprKind::Name &&
                                         (it.kids[0]->str == "map" || it.kids[0]->str == "filter"));
    if (!lazy_source) lazy_ok_.insert(&it);  // zip(...) and the like are taken where an iterable goes
    std::vector<ExprPtr> args;
    args.push_back(std::move(e.kids[1]));
    args.push_back(std::move(key));
    ExprPtr c = build::call(build::name(kLazyGroupby, p), std::move(args), p);
    int placed = e.param_index;  // its place in the call it is passed to
    e = std::move(*c);
    e.param_index = placed;
    return value(e, Ty::Error);
  }
  if (!lazy_ok_.count(&e))
    return fail(p, "E1010",
                str_cat("itertools.", n,
                        "() is outside the ppy subset here: a for loop, a comprehension, or a call that consumes an "
                        "iterable (list(), sum(), sorted(), set(), ...) takes it; it is not stored, passed or "
                        "returned"));
  // Keywords: count(start=, step=), combinations/permutations(r=) as positional arguments.
  for (auto& k : e.keywords) {
    bool ok = (n == "count" && (k.name == "start" || k.name == "step")) ||
              ((n == "combinations" || n == "permutations") && k.name == "r");
    if (!ok) return fail(k.pos, "E1032", str_cat(n, "() got an unexpected keyword argument '", k.name, "'"));
  }
  if (n == "count") {
    ExprPtr start, step;
    if (nargs >= 1) start = std::move(e.kids[1]);
    if (nargs >= 2) step = std::move(e.kids[2]);
    for (auto& k : e.keywords) (k.name == "start" ? start : step) = std::move(k.value);
    e.keywords.clear();
    if (nargs > 2) return fail(p, "E1032", str_cat("count() takes at most 2 arguments (", nargs, " given)"));
    if (!start) start = build::int_lit(0, p);
    if (!step) step = build::int_lit(1, p);
    bool down = step->kind == ExprKind::Unary && step->str == "-";
    if (!(step->kind == ExprKind::Int && step->ival > 0) && !(down && step->kids[0]->ival > 0))
      return fail(step->pos, "E1010", "count() with a step other than a nonzero int literal is outside the ppy subset");
    // The far end of the ints: reached by no loop that ends.
    ExprPtr end = build::int_lit(INT64_MAX, p);
    if (down) {
      end = build::node(ExprKind::Unary, p, "-");
      end->kids.push_back(build::int_lit(INT64_MAX, p));
      end->depth = 2;
    }
    std::vector<ExprPtr> args;
    args.push_back(std::move(start));
    args.push_back(std::move(end));
    args.push_back(std::move(step));
    ExprPtr r = build::call(build::name("range", p), std::move(args), p);
    e = std::move(*r);
    e.str = "itertools.count";  // zip() refuses it: it would make a list of it (check_lazy.cc)
    return iter_type(e) == Ty::Error ? Ty::Error : list_of(Ty::Int);
  }
  if (!e.keywords.empty()) {  // r=
    e.kids.push_back(std::move(e.keywords[0].value));
    e.keywords.clear();
    ++nargs;
  }
  int id = ++comps_;
  auto fresh = [&](const char* what, size_t i) { return str_cat("_it", id, "_", what, i); };
  Expr gen;
  if (n == "product") {
    if (nargs == 0) return fail(p, "E1010", "product() of no iterables is outside the ppy subset");
    for (size_t k = 2; k < e.kids.size(); ++k)
      if (maybe_iterator(*e.kids[k]) || is_genexp(*e.kids[k]))
        return fail(e.kids[k]->pos, "E1010",
                    "product() walks each iterable after the first many times: give it a list, a str or a range");
    std::vector<ExprPtr> elems;
    for (size_t k = 0; k < nargs; ++k) elems.push_back(build::name(fresh("x", k), p));
    ExprPtr inner = build::with_kids(ExprKind::Tuple, p, std::move(elems));
    for (size_t k = nargs; k-- > 0;) {
      Expr c = build::clause({fresh("x", k)}, std::move(inner), std::move(e.kids[k + 1]), {}, p);
      if (k > 0) c.str = "for";
      inner = std::make_unique<Expr>(std::move(c));
    }
    gen = std::move(*inner);
  } else if (n == "combinations" || n == "permutations") {
    bool comb = n == "combinations";
    if (nargs != 2 || e.kids[2]->kind != ExprKind::Int || e.kids[2]->ival < 1 || e.kids[2]->ival > 8)
      return fail(p, "E1010",
                  str_cat(n,
                          "() takes an iterable and r, an int literal from 1 to 8, in the ppy subset (its tuples' "
                          "length is their type)"));
    if (!repeatable(*e.kids[1]))
      return fail(e.kids[1]->pos, "E1010", str_cat(n, "() of an expression is outside the ppy subset (name it first)"));
    size_t r = static_cast<size_t>(e.kids[2]->ival);
    const Expr& xs = *e.kids[1];
    auto len_xs = [&] {
      std::vector<ExprPtr> a;
      a.push_back(build::clone(xs));
      return build::call(build::name("len", p), std::move(a), p);
    };
    std::vector<ExprPtr> elems;
    for (size_t k = 0; k < r; ++k) {
      std::vector<ExprPtr> sub;
      sub.push_back(build::clone(xs));
      sub.push_back(build::name(fresh("i", k), p));
      elems.push_back(build::with_kids(ExprKind::Subscript, p, std::move(sub)));
    }
    ExprPtr inner = build::with_kids(ExprKind::Tuple, p, std::move(elems));
    for (size_t k = r; k-- > 0;) {
      std::vector<ExprPtr> range_args;
      if (comb && k > 0)
        range_args.push_back(build::binary("+", build::name(fresh("i", k - 1), p), build::int_lit(1, p), p));
      range_args.push_back(len_xs());
      std::vector<ExprPtr> conds;
      if (!comb)
        for (size_t j = 0; j < k; ++j) {
          ExprPtr c = build::with_kids(ExprKind::Compare, p, {});
          c->kids.push_back(build::name(fresh("i", k), p));
          c->kids.push_back(build::name(fresh("i", j), p));
          c->ops.push_back("!=");
          c->depth = 2;
          conds.push_back(std::move(c));
        }
      Expr c = build::clause({fresh("i", k)}, std::move(inner),
                             build::call(build::name("range", p), std::move(range_args), p), std::move(conds), p);
      if (k > 0) c.str = "for";
      inner = std::make_unique<Expr>(std::move(c));
    }
    gen = std::move(*inner);
  } else if (n == "islice") {
    if (nargs < 2 || nargs > 4) return fail(p, "E1032", str_cat("islice expected 2 to 4 arguments, got ", nargs));
    for (size_t k = 2; k < e.kids.size(); ++k) {
      if (e.kids[k]->kind == ExprKind::NoneLit)
        return fail(e.kids[k]->pos, "E1010", "islice() with a None bound is outside the ppy subset");
      if (!repeatable(*e.kids[k]))
        return fail(e.kids[k]->pos, "E1010", "islice()'s bounds are names or int literals in the ppy subset");
    }
    Expr& src = *e.kids[1];
    std::optional<std::string> src_name =
        src.kind == ExprKind::Call && src.keywords.empty() ? dotted(*src.kids[0]) : std::nullopt;
    if (nargs == 2 && src_name && resolve_path(*src_name).name == "itertools.count") {
      // islice(count(a, s), n): range(a, a + n * s, s), the ints it gives.
      if (src.kids.size() > 3 || (src.kids.size() > 1 && !repeatable(*src.kids[1])) ||
          (src.kids.size() > 2 && !repeatable(*src.kids[2])))
        return fail(src.pos, "E1010", "islice(count(...)) takes names or int literals in the ppy subset");
      ExprPtr start = src.kids.size() > 1 ? build::clone(*src.kids[1]) : build::int_lit(0, p);
      ExprPtr step = src.kids.size() > 2 ? build::clone(*src.kids[2]) : build::int_lit(1, p);
      ExprPtr span = build::binary("*", std::move(e.kids[2]), build::clone(*step), p);
      std::vector<ExprPtr> args;
      args.push_back(build::clone(*start));
      args.push_back(build::binary("+", std::move(start), std::move(span), p));
      args.push_back(std::move(step));
      ExprPtr r = build::call(build::name("range", p), std::move(args), p);
      e = std::move(*r);
      return iter_type(e) == Ty::Error ? Ty::Error : list_of(Ty::Int);
    }
    ExprPtr stop = std::move(e.kids[nargs == 2 ? 2 : 3]);
    std::vector<ExprPtr> conds;
    if (nargs >= 3) {
      const Expr& start = *e.kids[2];
      ExprPtr ge = build::with_kids(ExprKind::Compare, p, {});
      ge->kids.push_back(build::name(fresh("i", 0), p));
      ge->kids.push_back(build::clone(start));
      ge->ops.push_back(">=");
      ge->depth = 3;
      conds.push_back(std::move(ge));
      if (nargs == 4) {
        ExprPtr off = build::binary("-", build::name(fresh("i", 0), p), build::clone(start), p);
        ExprPtr rem = build::binary("%", std::move(off), std::move(e.kids[4]), p);
        ExprPtr eq = build::with_kids(ExprKind::Compare, p, {});
        eq->kids.push_back(std::move(rem));
        eq->kids.push_back(build::int_lit(0, p));
        eq->ops.push_back("==");
        eq->depth = eq->kids[0]->depth + 1;
        conds.push_back(std::move(eq));
      }
    }
    std::vector<ExprPtr> range_args;
    range_args.push_back(std::move(stop));
    std::vector<ExprPtr> zip_args;
    zip_args.push_back(build::call(build::name("range", p), std::move(range_args), p));
    zip_args.push_back(std::move(e.kids[1]));
    gen = build::clause({fresh("i", 0), fresh("x", 0)}, build::name(fresh("x", 0), p),
                        build::call(build::name("zip", p), std::move(zip_args), p), std::move(conds), p);
  } else if (n == "chain" || n == "chain.from_iterable") {
    ExprPtr sources;
    if (n == "chain") {
      if (nargs == 0) return fail(p, "E1010", "chain() of no iterables is outside the ppy subset");
      std::vector<ExprPtr> all;
      for (size_t k = 1; k < e.kids.size(); ++k) all.push_back(std::move(e.kids[k]));
      sources = build::with_kids(ExprKind::List, p, std::move(all));
    } else {
      if (nargs != 1)
        return fail(p, "E1032", str_cat("chain.from_iterable() takes exactly one argument (", nargs, " given)"));
      sources = std::move(e.kids[1]);
    }
    Expr in = build::clause({fresh("x", 0)}, build::name(fresh("x", 0), p), build::name(fresh("s", 0), p), {}, p);
    in.str = "for";
    gen = build::clause({fresh("s", 0)}, std::make_unique<Expr>(std::move(in)), std::move(sources), {}, p);
  } else {
    return fail(p, "E1010", str_cat("itertools.", n, "() is outside the ppy subset"));
  }
  // `e` becomes the generator expression, in place (so it stays where an iterable is taken).
  gen.bval = true;
  gen.pos = p;
  e = std::move(gen);
  return value(e, Ty::Error);
}

}  // namespace ppy::frontend::checking
