// The body checker, `key=` and `reverse=` (callable.h): `sorted(xs, ...)`,
// `xs.sort(...)`, `min(xs, key=f)` and `max(xs, key=f)`, of a list, a dict's
// keys or a set, and `sorted(d.items(), ...)`. The key is any function value
// of the elements (a lambda takes the element type from here).
#include "body_checker.h"
#include "tuple_as_list.h"
#include "callable.h"
#include "checker_internal.h"
#include "expr_build.h"
#include "lazy.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

namespace {

/// Builtins a key names as Python programs do (`key=int`, `key=abs`,
/// `key=str.lower`): each becomes the lambda calling it, which the key's
/// checks then type from the elements (len keeps its own rule below).
const std::set<std::string> kKeyBuiltins = {"int", "float", "str", "abs", "repr", "ord", "bool", "round", "sum",
                                            "min", "max", "sorted", "list", "hash"};

/// `key=int`, `key=str.lower`: the lambda `lambda x: int(x)` / `lambda x:
/// x.lower()` calling that builtin, frameless as Python's builtin call is
/// (ppy/ir/trace.h), or null for any other key. `builtin` says whether the
/// name is the builtin (no local, binding or function of the program hides
/// it), `x` names the lambda's parameter.
ExprPtr builtin_key(const Expr& f, bool builtin, const std::string& x) {
  Pos p = f.pos;
  ExprPtr applied;
  if (f.kind == ExprKind::Name && builtin && kKeyBuiltins.count(f.str)) {  // key=int: int(x)
    std::vector<ExprPtr> args;
    args.push_back(build::name(x, p));
    applied = build::call(build::name(f.str, p), std::move(args), p);
  } else if (f.kind == ExprKind::Attribute && f.kids[0]->kind == ExprKind::Name && f.kids[0]->str == "str" &&
             builtin) {  // key=str.lower: x.lower()
    std::vector<ExprPtr> kids;
    kids.push_back(build::name(x, p));
    applied = build::call(build::with_kids(ExprKind::Attribute, p, std::move(kids), f.str), {}, p);
  } else {
    return nullptr;
  }
  ExprPtr l = build::node(ExprKind::Lambda, p);
  l->comp_frame = "";
  l->ops = {x};
  l->kids.push_back(std::move(applied));
  l->depth = build::depth_over(l->kids);
  return l;
}

/// `key=d.get`, `key=d.__getitem__` of a dict `d` named by a variable: the
/// lambda `lambda x: d[x]`, frameless as the bound builtin is (every element
/// is a key of `d` when the elements are its keys, so `get` finds each one).
ExprPtr dict_lookup_key(const Expr& f, const std::string& x) {
  Pos p = f.pos;
  std::vector<ExprPtr> kids;
  kids.push_back(build::name(f.kids[0]->str, p));
  kids.push_back(build::name(x, p));
  ExprPtr l = build::node(ExprKind::Lambda, p);
  l->comp_frame = "";
  l->ops = {x};
  l->kids.push_back(build::with_kids(ExprKind::Subscript, p, std::move(kids)));
  l->depth = build::depth_over(l->kids);
  return l;
}

}  // namespace

Ty BodyChecker::keyed_call(Expr& e, const std::string& n, Ty base) {
  bool method = n == "sort";
  size_t nargs = e.kids.size() - 1;
  std::string shown = method ? "sort()" : str_cat(n, "()");
  if (nargs != (method ? 0u : 1u)) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(e.pos, "E1010",
          method ? std::string("list.sort() takes only keyword arguments (key=, reverse=)")
                 : str_cat(n, "() with a key and ", nargs, " arguments is outside the ppy subset (it takes one list)"));
    return Ty::Error;
  }
  Ty elem = Ty::Error;
  if (method) {
    elem = list_elem(base);
  } else {
    wrap_iterator(e.kids[1]);  // a generator's values, as a generator expression gives them (check_lazy.cc)
    Expr& a = *e.kids[1];
    if (view_call(a) == 2 && a.kind == ExprKind::Call && a.kids[0]->kind == ExprKind::Attribute && a.kids.size() == 1 &&
        a.keywords.empty()) {  // `sorted(d.items(), key=...)`: the (key, value) pairs
      Ty dt = value(*a.kids[0]->kids[0], Ty::Error);
      if (dt == Ty::Error) return Ty::Error;
      if (!is_dict(dt)) {
        error(a.pos, "E1010", str_cat("methods of ", ty_name(dt), " are outside the ppy subset"));
        return Ty::Error;
      }
      a.ref = Ref::Builtin;
      a.target = "dict.items";
      a.ty = tuple_of({key_of(dt), dict_value(dt)});
      elem = a.ty;
    } else {
      views_ok_ = view_call(a) == 1;
      // map(), filter() and a generator expression: the list of their values (check_map.cc)
      if (is_genexp(a) || (a.kind == ExprKind::Call && a.kids[0]->kind == ExprKind::Name &&
                           (a.kids[0]->str == "map" || a.kids[0]->str == "filter") && lazy_arg(a)))
        lazy_ok_.insert(&a);
      Ty t = value(a, Ty::Error);
      views_ok_ = 0;
      if (tuple_as_list(a, t)) t = value(a, Ty::Error);  // `sorted(LEVELS)` (tuple_as_list.h)
      if (t == Ty::Error) return Ty::Error;
      if (is_dict(t) || is_set(t)) t = list_of(key_of(t));
      if (!is_list(t)) {
        if (!maybe_none(a))
          error(a.pos, "E1030",
                str_cat(shown, " of ", ty_name(t), " is outside the ppy subset (it takes a list, a dict or a set)"));
        return Ty::Error;
      }
      elem = list_elem(t);
    }
  }
  effect("reads");
  if (method) effect("writes");
  bool has_key = false;
  for (auto& k : e.keywords) {
    if (k.name == "key") {
      if (k.value->kind == ExprKind::NoneLit) continue;  // key=None: the elements themselves
      if (k.value->kind == ExprKind::Name && k.value->str == "len" && !types_.count("len") &&
          resolve_path("len").ref == Ref::Builtin) {  // key=len: the builtin's own rule
        if (elem != Ty::Str && !is_list(elem) && !is_dict(elem) && !is_set(elem)) {
          error(k.value->pos, "E1030", str_cat("object of type '", ty_name(elem), "' has no len()"));
          return Ty::Error;
        }
        k.value->ref = Ref::Builtin;
        k.value->target = "len";
        k.value->ty = callable_of({elem}, Ty::Int);
        has_key = true;
        continue;
      }
      const Expr& kv = *k.value;
      const std::string& named = kv.kind == ExprKind::Attribute && kv.kids[0]->kind == ExprKind::Name ? kv.kids[0]->str
                                 : kv.kind == ExprKind::Name                                          ? kv.str
                                                                                                      : std::string();
      bool builtin = !named.empty() && !types_.count(named) && !m_.bindings.count(named) &&
                     (kv.kind == ExprKind::Attribute ? named == "str" : resolve_path(named).ref == Ref::Builtin);
      if (ExprPtr l = builtin_key(kv, builtin, str_cat("_k", ++comps_))) k.value = std::move(l);
      if (kv.kind == ExprKind::Attribute && (kv.str == "get" || kv.str == "__getitem__") && !named.empty()) {
        auto local = types_.find(named);  // `key=d.get`: a dict's lookup of each element
        Ty dt = local != types_.end() ? local->second : resolve_path(named).ty;
        if (is_dict(dt)) k.value = dict_lookup_key(kv, str_cat("_k", ++comps_));
      }
      Ty kt = value(*k.value, callable_of({elem}, Ty::Error));
      if (kt == Ty::Error) return Ty::Error;
      std::vector<Ty> ps = callable_params(kt);
      if (!is_callable(kt) || ps.size() != 1 || !assignable(elem, ps[0])) {
        error(k.value->pos, "E1030",
              str_cat("the key of ", shown, " takes a ", ty_name(elem), ": a function, lambda or Callable[[",
                      ty_name(elem), "], T], not ", ty_name(kt)));
        return Ty::Error;
      }
      if (!orderable(callable_result(kt))) {
        error(k.value->pos, "E1030",
              str_cat("the key of ", shown, " gives ", ty_name(callable_result(kt)),
                      ", which the ppy subset does not order (numbers, strs, and lists and tuples of those)"));
        return Ty::Error;
      }
      for (const char* x : {"io", "raises", "reads", "writes"}) effect(x);
      has_key = true;
    } else if (k.name == "reverse" && n != "min" && n != "max") {
      Ty rt = value(*k.value, Ty::Bool);
      if (rt != Ty::Error && rt != Ty::Bool && rt != Ty::Int) {
        error(k.value->pos, "E1030", str_cat("reverse must be a bool, not ", ty_name(rt)));
        return Ty::Error;
      }
    } else {
      refuse_keyword(k, method ? "list.sort" : n);  // `revers=True`, `default=0` (its value is not checked: one error)
      return Ty::Error;
    }
  }
  if (!has_key && !orderable(elem)) {
    error(e.pos, "E1030",
          str_cat(shown, " of ", ty_name(list_of(elem)),
                  " is outside the ppy subset (it orders numbers, strs, and lists and tuples of those; give a key)"));
    return Ty::Error;
  }
  e.ref = Ref::Builtin;
  e.target = str_cat("keyed.", n);
  if (n == "min" || n == "max") {
    raises();  // ValueError for an empty list
    return elem;
  }
  raises();  // MemoryError past the largest list
  return method ? Ty::None : list_of(elem);
}

}  // namespace ppy::frontend::checking
