// The body checker, lazy sequences (docs/language.md, "Iterables"): generator expressions as the
// argument of the builtins that consume an iterable, any() and all(), and zip(), enumerate() and
// reversed() wherever an iterable goes (a for loop, a comprehension, a consuming call, each other).
#include <string>

#include "body_checker.h"
#include "expr_build.h"
#include "callable.h"
#include "checker_internal.h"
#include "lazy.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

const FuncInfo* BodyChecker::generator_iter(Ty cls) const {
  const ClassInfo* c = class_info(cls);
  if (!c) return nullptr;
  auto m = c->methods.find("__iter__");
  if (m == c->methods.end()) return nullptr;
  const FuncInfo* f = m_.func(class_info(m->second)->name + ".__iter__");
  return f && is_iterator(f->result) ? f : nullptr;
}

bool BodyChecker::iterable_object(Expr& it) {
  if (is_class(it.ty) && !generator_iter(it.ty)) return protocol_object(it);  // __next__ (check_iter_protocol.cc)
  if (!is_class(it.ty) || !generator_iter(it.ty)) return false;
  // `for x in obj`: `for x in obj.__iter__()`, the node rewritten in place.
  auto obj = std::make_unique<Expr>(std::move(it));
  Pos p = obj->pos;
  it = Expr{};
  it.kind = ExprKind::Call;
  it.pos = p;
  it.depth = obj->depth + 2;
  auto attr = std::make_unique<Expr>();
  attr->kind = ExprKind::Attribute;
  attr->pos = p;
  attr->str = "__iter__";
  attr->depth = obj->depth + 1;
  attr->kids.push_back(std::move(obj));
  it.kids.push_back(std::move(attr));
  return true;
}

bool BodyChecker::maybe_iterator(const Expr& x) const {
  if (x.kind == ExprKind::Name) {
    auto t = types_.find(x.str);
    return t != types_.end() &&
           (is_iterator(t->second) || generator_iter(t->second) || !protocol_iter(t->second).empty());
  }
  if (x.kind != ExprKind::Call) return false;
  const Expr& callee = *x.kids[0];
  if (callee.kind == ExprKind::Attribute && callee.kids[0]->kind == ExprKind::Name) {  // `obj.method(...)`
    auto t = types_.find(callee.kids[0]->str);
    if (t == types_.end() || !is_class(t->second)) return false;
    const ClassInfo* c = class_info(t->second);
    auto m = c->methods.find(callee.str);
    if (m == c->methods.end()) return false;
    const FuncInfo* f = m_.func(class_info(m->second)->name + "." + callee.str);
    return f && is_iterator(f->result);
  }
  if (callee.kind != ExprKind::Name) return false;
  if (auto t = types_.find(callee.str); t != types_.end())  // a nested generator function, or one in a variable
    return is_callable(t->second) && is_iterator(callable_result(t->second));
  if (auto c = m_.classes.find(callee.str); c != m_.classes.end())  // `C(...)` of an iterable class
    return generator_iter(c->second) || !protocol_iter(c->second).empty();
  const FuncInfo* f = m_.func(callee.str);
  return f && is_iterator(f->result);
}

void BodyChecker::wrap_iterator(ExprPtr& x) {
  if (!maybe_iterator(*x)) return;
  Pos p = x->pos;
  auto gen = std::make_unique<Expr>();
  gen->kind = ExprKind::ListComp;
  gen->bval = true;
  gen->pos = p;
  gen->depth = x->depth + 1;
  gen->ops.push_back("_v");
  auto v = std::make_unique<Expr>();
  v->kind = ExprKind::Name;
  v->str = "_v";
  v->pos = p;
  gen->kids.push_back(std::move(v));
  gen->kids.push_back(std::move(x));
  x = std::move(gen);
}

bool BodyChecker::lazy_arg(const Expr& x) const {
  if (is_genexp(x) || maybe_iterator(x)) return true;
  if (x.kind == ExprKind::Call) {  // itertools' functions (check_itertools.cc)
    std::optional<std::string> d = dotted(*x.kids[0]);
    auto b = d ? m_.bindings.find(d->substr(0, d->find('.'))) : m_.bindings.end();
    if (b != m_.bindings.end() && b->second.kind == Binding::Special && b->second.name.starts_with("itertools"))
      return true;
  }
  if (x.kind != ExprKind::Call || x.kids[0]->kind != ExprKind::Name) return false;
  const std::string& f = x.kids[0]->str;
  return (f == "zip" || f == "enumerate" || f == "reversed" || f == "range" || f == "map" || f == "filter") &&
         !types_.count(f) &&
         !m_.func_index.count(f) && !m_.bindings.count(f) && !m_.consts.count(f);
}

std::optional<Ty> BodyChecker::lazy_builtin(Expr& e, const std::string& n) {
  size_t nargs = e.kids.size() - 1;
  if (n == "range") {  // `sorted(range(n))`, `zip(range(n), xs)`: its ints, where an iterable goes
    if (!lazy_ok_.count(&e)) return std::nullopt;
    if (iter_type(e) == Ty::Error) return Ty::Error;
    return list_of(Ty::Int);
  }
  if (n == "zip" || n == "enumerate" || n == "reversed") return lazy_iterable(e, n);
  if (n == "map" || n == "filter") return map_call(e, n);  // check_map.cc
  if (n == "functools.reduce") return reduce_call(e);     // check_functools.cc
  if (n == "functools.partial") return partial_call(e, Ty::Error);
  if (n.starts_with("itertools.")) return itertools_call(e, n.substr(10));  // check_itertools.cc
  if (n == "any" || n == "all") return lazy_fold(e, n);
  if (n == "next") return next_call(e);
  if (nargs != 1 || !e.keywords.empty() || !lazy_arg(*e.kids[1])) return std::nullopt;
  if (n != "sum") wrap_iterator(e.kids[1]);  // a generator's values, as a generator expression gives them
  Expr& a = *e.kids[1];
  if (n == "sum") return lazy_fold(e, n);
  if (n == "list") {
    // list(range(...)) and list(zip(a, b)) keep their own lowering (list_call).
    if (!is_genexp(a) && a.kind == ExprKind::Call && (a.kids[0]->str == "range" || is_pairs_call(a)))
      return std::nullopt;
    lazy_ok_.insert(&a);
    Ty t = value(a, Ty::Error);
    if (t == Ty::Error) return t;
    e.target = "lazy.list";
    raises();  // MemoryError past the largest list
    return t;
  }
  if (n == "min" || n == "max" || n == "sorted") lazy_ok_.insert(&a);  // a list of its values, then as before
  return std::nullopt;
}

Ty BodyChecker::lazy_iterable(Expr& e, const std::string& n) {
  size_t nargs = e.kids.size() - 1;
  if (!lazy_ok_.count(&e)) {
    error(e.pos, "E1010",
          str_cat(n,
                  "() is outside the ppy subset here: a for loop, a comprehension, another zip/enumerate/reversed or "
                  "a call that consumes an iterable (list(), sum(), sorted(), set(), dict(), ...) takes it"));
    return Ty::Error;
  }
  auto arg = [&](Expr& x) {
    lazy_ok_.insert(&x);
    Ty t = iter_type(x);
    if (x.kind == ExprKind::Call && x.str == "itertools.count") {  // check_itertools.cc: endless, never a list
      error(x.pos, "E1010",
            str_cat("itertools.count() inside ", n, "() is outside the ppy subset (write enumerate(xs, start))"));
      return Ty::Error;
    }
    return t;
  };
  effect("reads");
  raises();  // MemoryError; enumerate's count is checked
  if (n == "zip") {
    if (!e.keywords.empty()) {
      refuse_keyword(e.keywords[0], "zip");  // `strict=` (E1010), or a misspelling (E1032)
      return Ty::Error;
    }
    if (nargs == 0) {
      error(e.pos, "E1010", "zip() of no iterables is outside the ppy subset");
      return Ty::Error;
    }
    std::vector<Ty> elems;
    bool ok = true;
    for (size_t k = 1; k < e.kids.size(); ++k) {
      elems.push_back(arg(*e.kids[k]));
      ok = ok && elems.back() != Ty::Error;
    }
    if (!ok) return Ty::Error;
    Ty t = tuple_of(elems);
    if (!list_holdable(t)) {
      error(e.pos, "E1030", str_cat("zip() of ", ty_name(t), " values is outside the ppy subset"));
      return Ty::Error;
    }
    e.target = "lazy.zip";
    return list_of(t);
  }
  if (n == "enumerate") {
    for (auto& k : e.keywords) {
      if (k.name != "start") {
        refuse_keyword(k, "enumerate");  // `strat=1`: python3's words, and "did you mean 'start'?"
        return Ty::Error;
      }
      if (nargs != 1) {
        error(k.pos, "E1032", str_cat("enumerate() got an unexpected keyword argument '", k.name, "'"));
        return Ty::Error;
      }
    }
    if (!e.keywords.empty()) {  // `start=k` is the second argument
      e.kids.push_back(std::move(e.keywords[0].value));
      e.keywords.clear();
      nargs = 2;
    }
    if (nargs < 1 || nargs > 2) {
      error(e.pos, "E1032", str_cat("enumerate() takes 1 or 2 arguments (", nargs, " given)"));
      return Ty::Error;
    }
    Ty elem = arg(*e.kids[1]);
    if (nargs == 2) {
      Ty st = value(*e.kids[2], Ty::Int);
      if (st == Ty::Error) return st;
      if (st != Ty::Int && st != Ty::Bool) {
        error(e.kids[2]->pos, "E1030", str_cat("enumerate() takes an int start, not ", ty_name(st)));
        return Ty::Error;
      }
    }
    if (elem == Ty::Error) return elem;
    Ty t = tuple_of({Ty::Int, elem});
    if (!list_holdable(t)) {
      error(e.pos, "E1030", str_cat("enumerate() of ", ty_name(elem), " values is outside the ppy subset"));
      return Ty::Error;
    }
    e.target = "lazy.enumerate";
    return list_of(t);
  }
  // reversed: a sequence (a list, a str, a range, a dict), never an iterator.
  if (nargs != 1 || !e.keywords.empty()) {
    error(e.pos, "E1032", str_cat("reversed() takes exactly one argument (", nargs, " given)"));
    return Ty::Error;
  }
  Expr& a = *e.kids[1];
  bool gen = is_genexp(a) || maybe_iterator(a);
  if (gen || (lazy_arg(a) && a.kids[0]->str != "range")) {
    error(a.pos, "E1030", str_cat("'", gen ? std::string("generator") : a.kids[0]->str, "' object is not reversible"));
    return Ty::Error;
  }
  Ty elem = arg(a);
  if (elem == Ty::Error) return elem;
  if (is_set(a.ty)) {
    error(a.pos, "E1030", "'set' object is not reversible");
    return Ty::Error;
  }
  e.target = "lazy.reversed";
  return list_of(elem);
}

Ty BodyChecker::lazy_fold(Expr& e, const std::string& n) {
  size_t nargs = e.kids.size() - 1;
  if (!e.keywords.empty()) {
    refuse_keyword(e.keywords[0], n);
    return Ty::Error;
  }
  if (nargs != 1) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(e.pos, "E1032", str_cat(n, "() takes exactly one argument (", nargs, " given)"));
    return Ty::Error;
  }
  Expr& a = *e.kids[1];
  ExprPtr unchecked = n == "dict" ? build::clone(a) : nullptr;
  lazy_ok_.insert(&a);
  Ty elem = iter_type(a);
  if (elem == Ty::Error) return elem;
  if (unchecked && is_dict(a.ty)) {  // `dict(d)`: a copy of d, as d.copy() makes it (check_dict.cc)
    lazy_ok_.erase(&a);
    return dict_rewrite(e, std::move(unchecked), false, false);
  }
  if (n == "sum") {
    if (elem != Ty::Int && elem != Ty::Float && elem != Ty::Bool) {
      error(a.pos, "E1030",
            str_cat("sum() of ", ty_name(elem), " values is outside the ppy subset (it adds ints or floats)"));
      return Ty::Error;
    }
    Ty total = elem == Ty::Float ? Ty::Float : Ty::Int;
    if (total == Ty::Int) raises();  // OverflowError
    // The running total is a local of its own, `_s<n>`.
    std::string acc = str_cat("_s", ++comps_);
    types_[acc] = total;
    note_local(acc);
    flow_.assigned.insert(acc);
    e.ops = {acc};
    e.target = "lazy.sum";
    return total;
  }
  if (is_class(elem) || elem == Ty::None) {
    error(a.pos, "E1010", str_cat(n, "() of ", ty_name(elem), " values is outside the ppy subset"));
    return Ty::Error;
  }
  e.target = "lazy." + n;
  return Ty::Bool;
}

Ty BodyChecker::table_from(Expr& e, const std::string& n, Ty expected) {
  (void)expected;
  Expr& a = *e.kids[1];
  ExprPtr unchecked = n == "dict" ? build::clone(a) : nullptr;
  lazy_ok_.insert(&a);
  Ty elem = iter_type(a);
  if (elem == Ty::Error) return elem;
  if (unchecked && is_dict(a.ty)) {  // `dict(d)`: a copy of d, as d.copy() makes it (check_dict.cc)
    lazy_ok_.erase(&a);
    return dict_rewrite(e, std::move(unchecked), false, false);
  }
  raises();  // MemoryError
  if (n == "set") {
    if (!key_holdable(elem)) {
      error(a.pos, "E1030",
            str_cat("set elements are int, str or tuples of those in the ppy subset, not ", ty_name(elem)));
      return Ty::Error;
    }
    if (!object_key(elem, a.pos)) return Ty::Error;
    e.target = "lazy.set";
    return set_of(elem);
  }
  std::vector<Ty> kv = is_tuple(elem) ? tuple_elems(elem) : std::vector<Ty>{};
  if (kv.size() != 2) {
    error(a.pos, "E1030", str_cat("dict() takes (key, value) pairs in the ppy subset, not ", ty_name(elem)));
    return Ty::Error;
  }
  if (!key_holdable(kv[0]) || !dict_value_holdable(kv[1])) {
    error(a.pos, "E1030", str_cat("dict() of ", ty_name(elem), " pairs is outside the ppy subset"));
    return Ty::Error;
  }
  if (!object_key(kv[0], a.pos)) return Ty::Error;
  e.target = "lazy.dict";
  return dict_of(kv[0], kv[1]);
}

}  // namespace ppy::frontend::checking
