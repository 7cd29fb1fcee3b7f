// The body checker, lists: methods and comparisons of `list[T]` (docs/language.md, "Lists").
#include <algorithm>
#include <string>

#include "body_checker.h"
#include "tuple_as_list.h"
#include "own_writes.h"
#include "object_list_helpers.h"
#include "builtins.h"
#include "checker_internal.h"
#include "expr_build.h"
#include "imported_classes.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

Ty BodyChecker::list_method(Expr& e, Expr& callee, Ty base) {
  const std::string& name = callee.str;
  size_t nargs = e.kids.size() - 1;
  Ty elem = list_elem(base);
  auto args_error = [&](size_t want) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(e.pos, "E1032",
          str_cat("list.", name, "() takes ", want == 0 ? "no arguments" : "exactly one argument", " (", nargs,
                  " given)"));
    return Ty::Error;
  };
  if (name == "sort" && !e.keywords.empty()) return keyed_call(e, "sort", base);  // check_keyed.cc
  if (!e.keywords.empty()) {
    error(e.keywords[0].pos, "E1010", str_cat("list.", name, "() with keywords is outside the ppy subset"));
    return Ty::Error;
  }
  const BuiltinMethod* m = find_builtin_method("list", name);
  if (!m) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    refuse_member(callee.pos, base, name, str_cat("list method '", name, "' is outside the ppy subset"));
    return Ty::Error;
  }
  e.builtin = m->id;
  if (is_class(elem) && e.keywords.empty() &&
      class_info(elem)->methods.count(name == "sort" ? "__lt__" : "__eq__") &&
      ((name == "sort" && nargs == 0) || ((name == "index" || name == "count" || name == "remove") && nargs == 1))) {
    // A helper written in ppy beside the class (object_list_helpers.h).
    std::vector<ExprPtr> args;
    args.push_back(std::move(callee.kids[0]));
    if (nargs == 1) args.push_back(std::move(e.kids[1]));
    make_function_call(e, list_helper_for(m_, name, elem), std::move(args));
    e.builtin = {};
    return call(e, false);
  }
  if (holds_object(elem) && (name == "index" || name == "count" || name == "remove" || name == "sort")) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(callee.pos, "E1010", str_cat("list.", name, "() of a ", ty_name(base), " is outside the ppy subset"));
    return Ty::Error;
  }
  if (name == "append") {
    if (nargs != 1) return args_error(1);
    Ty t = value(*e.kids[1], elem);
    if (t == Ty::Error) return Ty::Error;
    if (!element_fits(t, elem) && !(is_class(t) && assignable(t, elem))) {
      if (!is_optional(elem) && maybe_none(*e.kids[1])) return Ty::Error;
      error(e.kids[1]->pos, "E1030", str_cat("cannot append ", ty_name(t), " to a ", ty_name(base)));
      return Ty::Error;
    }
    write_through(*callee.kids[0], f_, cur_pos_);  // own_writes.h
    raises();  // MemoryError past the largest list
    e.ref = Ref::Builtin;
    e.target = "list.append";
    return Ty::None;
  }
  if (name == "pop") {
    if (nargs > 1) {
      for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
      error(e.pos, "E1032", str_cat("pop expected at most 1 argument, got ", nargs));
      return Ty::Error;
    }
    if (nargs == 1) {
      Ty it = value(*e.kids[1], Ty::Int);
      if (it == Ty::Error || maybe_none(*e.kids[1])) return Ty::Error;
      if (it != Ty::Int && it != Ty::Bool) {
        error(e.kids[1]->pos, "E1030", str_cat("list.pop() takes an int index, not ", ty_name(it)));
        return Ty::Error;
      }
    }
    write_through(*callee.kids[0], f_, cur_pos_);  // own_writes.h
    raises();  // IndexError: pop from empty list, pop index out of range
    e.ref = Ref::Builtin;
    e.target = "list.pop";
    return elem;
  }
  // sort, reverse, clear, copy: no arguments.
  if (name == "sort" || name == "reverse" || name == "clear" || name == "copy") {
    if (nargs != 0) return args_error(0);
    if (name == "sort" && !orderable(elem)) {
      error(callee.pos, "E1010",
            str_cat("sort() of ", ty_name(base),
                    " is outside the ppy subset (it orders numbers, strs, and lists and tuples of those)"));
      return Ty::Error;
    }
    effect(name == "copy" ? "reads" : "writes");
    e.ref = Ref::Builtin;
    e.target = "list." + name;
    return name == "copy" ? base : Ty::None;
  }
  // index, count, remove: one value of the element type.
  if (name == "index" || name == "count" || name == "remove") {
    if (nargs != 1) return args_error(1);
    Ty t = value(*e.kids[1], elem);
    if (t == Ty::Error) return Ty::Error;
    if (!element_fits(t, elem)) {
      if (!is_optional(elem) && maybe_none(*e.kids[1])) return Ty::Error;
      error(e.kids[1]->pos, "E1030", str_cat("list.", name, "() of a ", ty_name(base), " takes ", ty_name(elem), ", not ", ty_name(t)));
      return Ty::Error;
    }
    effect(name == "remove" ? "writes" : "reads");
    if (name != "count") raises();  // ValueError
    e.ref = Ref::Builtin;
    e.target = "list." + name;
    return name == "remove" ? Ty::None : Ty::Int;
  }
  if (name == "insert") {
    if (nargs != 2) {
      for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
      error(e.pos, "E1032", str_cat("list.insert() takes exactly 2 arguments (", nargs, " given)"));
      return Ty::Error;
    }
    Ty it = value(*e.kids[1], Ty::Int);
    Ty t = value(*e.kids[2], elem);
    if (it == Ty::Error || t == Ty::Error) return Ty::Error;
    if (maybe_none(*e.kids[1])) return Ty::Error;
    if (it != Ty::Int && it != Ty::Bool) {
      error(e.kids[1]->pos, "E1030", str_cat("list.insert() takes an int index, not ", ty_name(it)));
      return Ty::Error;
    }
    if (!element_fits(t, elem)) {
      if (!is_optional(elem) && maybe_none(*e.kids[2])) return Ty::Error;
      error(e.kids[2]->pos, "E1030", str_cat("cannot insert ", ty_name(t), " into a ", ty_name(base)));
      return Ty::Error;
    }
    write_through(*callee.kids[0], f_, cur_pos_);  // own_writes.h
    raises();  // MemoryError past the largest list
    e.ref = Ref::Builtin;
    e.target = "list.insert";
    return Ty::None;
  }
  if (name == "extend") {
    if (nargs != 1) return args_error(1);
    Ty t = value(*e.kids[1], base);
    if (t == Ty::Error) return Ty::Error;
    if (t != base) {
      error(e.kids[1]->pos, "E1030",
            str_cat("a ", ty_name(base), " can only be extended by a ", ty_name(base), " in the ppy subset, not ",
                    ty_name(t)));
      return Ty::Error;
    }
    effect("reads");
    write_through(*callee.kids[0], f_, cur_pos_);  // own_writes.h
    raises();
    e.ref = Ref::Builtin;
    e.target = "list.extend";
    return Ty::None;
  }
  for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
  refuse_member(callee.pos, base, name, str_cat("list method '", name, "' is outside the ppy subset"));
  return Ty::Error;
}

/// io (issue 33): a stream `x` where a list goes becomes `list(x)`, its lines read as a for loop reads them.
static void read_lines(ExprPtr& x) {
  Pos p = x->pos;
  std::vector<ExprPtr> args;
  args.push_back(std::move(x));
  x = build::call(build::name("list", p), std::move(args), p);
}

bool BodyChecker::is_pairs_call(const Expr& it) {
  if (!(it.kind == ExprKind::Call && it.kids[0]->kind == ExprKind::Name &&
        (it.kids[0]->str == "enumerate" || it.kids[0]->str == "zip") && !types_.count(it.kids[0]->str) &&
        !m_.func_index.count(it.kids[0]->str) && !m_.bindings.count(it.kids[0]->str)))
    return false;
  // Lazy sequences (check_lazy.cc) take the rest: zip of three or more, keywords, iterables of other kinds,
  // and every zip and enumerate of a generator (its loops keep what they walk in its frame).
  // `enumerate(xs, start=1)` is `enumerate(xs, 1)` (pairs_iter moves the keyword).
  bool start_kw = it.kids[0]->str == "enumerate" && it.kids.size() == 2 && it.keywords.size() == 1 &&
                  it.keywords[0].name == "start";
  if (generator_ || (!it.keywords.empty() && !start_kw) || (it.kids[0]->str == "zip" && it.kids.size() != 3))
    return false;
  for (size_t k = 1; k < it.kids.size(); ++k)
    if (lazy_arg(*it.kids[k]) || view_call(*it.kids[k]) != 0) return false;
  return true;
}

bool BodyChecker::pairs_iter(Expr& it, Ty types[2]) {
  const std::string fn = it.kids[0]->str;
  if (fn == "enumerate" && it.kids.size() == 2 && it.keywords.size() == 1 && it.keywords[0].name == "start") {
    it.kids.push_back(std::move(it.keywords[0].value));
    it.keywords.clear();
  }
  it.ref = Ref::Builtin;
  it.target = fn;
  size_t n = it.kids.size() - 1;
  types[0] = types[1] = Ty::Error;
  bool ok = true;
  // A list or a str: the type of its elements.
  auto seq = [&](Expr& x) {
    Ty st = value(x, Ty::Error);
    if (tuple_as_list(x, st)) st = value(x, Ty::Error);  // `enumerate(LEVELS)` (tuple_as_list.h)
    if (st == Ty::Error) {
      ok = false;
      return st;
    }
    if (st == Ty::File) {  // io (issue 33): a line read per step (lower_loops.cc, pairs_loop)
      effect("io");
      raises();
      return Ty::Str;
    }
    if (!is_list(st) && st != Ty::Str) {
      error(x.pos, "E1010",
            str_cat(fn, "() of ", ty_name(st), " is outside the ppy subset (it takes a list or a str)"));
      ok = false;
      return Ty::Error;
    }
    effect("reads");
    return st == Ty::Str ? Ty::Str : list_elem(st);
  };
  if (!it.keywords.empty()) {
    error(it.keywords[0].pos, "E1010", str_cat(fn, "() with keywords is outside the ppy subset"));
    ok = false;
  } else if (fn == "enumerate") {
    if (n < 1 || n > 2) {
      error(it.pos, "E1032", str_cat("enumerate() takes 1 or 2 arguments (", n, " given)"));
      ok = false;
    } else {
      types[0] = Ty::Int;
      types[1] = seq(*it.kids[1]);
      if (n == 2) {
        Ty st = value(*it.kids[2], Ty::Int);
        if (st != Ty::Error && st != Ty::Int && st != Ty::Bool) {
          error(it.kids[2]->pos, "E1030", str_cat("enumerate() takes an int start, not ", ty_name(st)));
          ok = false;
        }
      }
      raises();  // the count's increment is checked
    }
  } else if (n != 2) {
    for (size_t k = 1; k < it.kids.size(); ++k) value(*it.kids[k], Ty::Error);
    error(it.pos, "E1010", str_cat("zip() of ", n, " sequences is outside the ppy subset (it takes two)"));
    ok = false;
  } else {
    types[0] = seq(*it.kids[1]);
    types[1] = seq(*it.kids[2]);
  }
  return ok;
}

void BodyChecker::for_pairs(Stmt& s) {
  Expr& t = *s.targets[0];
  Expr& it = *s.value;
  const std::string fn = it.kids[0]->str;
  Ty types[2];
  bool ok = pairs_iter(it, types);
  auto target = [](const Expr& k) { return k.kind == ExprKind::Name || k.kind == ExprKind::Tuple; };
  if (t.kind != ExprKind::Tuple || t.kids.size() != 2 || !target(*t.kids[0]) || !target(*t.kids[1])) {
    error(t.pos, "E1010", str_cat("a for loop over ", fn, "() unpacks two variables: `for a, b in ", fn, "(...)`"));
    return;
  }
  if (!ok) return;
  forget_narrowing(s.body);
  Flow before = flow_;
  Expr dummy;
  dummy.kind = ExprKind::Int;
  dummy.pos = t.pos;
  for (size_t k = 0; k < 2; ++k) {
    if (t.kids[k]->kind == ExprKind::Tuple)
      unpack(*t.kids[k], types[k], dummy);
    else
      assign(*t.kids[k], types[k], dummy);
  }
  loop_body(s.body, before);
}

Ty BodyChecker::list_call(Expr& e, Ty expected) {
  size_t nargs = e.kids.size() - 1;
  if (nargs > 1 || !e.keywords.empty()) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(e.pos, "E1032", str_cat("list expected at most 1 argument, got ", nargs));
    return Ty::Error;
  }
  if (gpu_) {
    error(e.pos, "E1100", "lists are not available in GPU code");
    return Ty::Error;
  }
  if (nargs == 0) {
    if (is_list(expected)) {
      e.target = "list.new";
      return expected;
    }
    error(e.pos, "E1010", "list() with no argument is outside the ppy subset; write an annotated `xs: list[int] = []`");
    return Ty::Error;
  }
  Expr& a = *e.kids[1];
  Ty elem;
  if (is_pairs_call(a)) {
    Ty types[2];
    if (!pairs_iter(a, types)) return Ty::Error;
    elem = tuple_of({types[0], types[1]});
    e.target = "list.pairs";
  } else {
    elem = iter_type(a);
    if (elem == Ty::Error) return Ty::Error;
    e.target = is_list(a.ty) && a.target != "range" ? "list.copy_of" : "list.of";
  }
  raises();  // MemoryError past the largest list
  return list_of(elem);
}

/// Every read of `from` in `e` reads `to` instead (a comprehension's variable is
/// its own); a nested comprehension binding `from` again keeps it in its element
/// and condition (its iterable is evaluated outside).
static void rename(Expr& e, const std::string& from, const std::string& to) {
  if (e.kind == ExprKind::Name && e.str == from) {
    e.str = to;
    return;
  }
  bool comp = e.kind == ExprKind::ListComp || e.kind == ExprKind::DictComp || e.kind == ExprKind::SetComp;
  if (comp && std::find(e.ops.begin(), e.ops.end(), from) != e.ops.end()) {
    rename(*e.kids[1], from, to);
    return;
  }
  for (auto& k : e.kids) rename(*k, from, to);
  for (auto& k : e.keywords) rename(*k.value, from, to);
}

bool BodyChecker::comp_vars(Expr& e) {
  Ty var_ty;
  Expr& it = *e.kids[1];
  if (view_call(it) == 2) {  // `for k, v in d.items()`: (k, v) pairs
    Expr& callee = *it.kids[0];
    Ty bt = value(*callee.kids[0], Ty::Error);
    if (bt == Ty::Error) return false;
    if (!is_dict(bt)) {
      if (!maybe_none(*callee.kids[0]))
        error(callee.pos, "E1010", str_cat("methods of ", ty_name(bt), " are outside the ppy subset"));
      return false;
    }
    if (!it.keywords.empty() || it.kids.size() != 1) {
      error(it.pos, "E1032", str_cat("dict.items() takes no arguments (", it.kids.size() - 1, " given)"));
      return false;
    }
    it.ref = Ref::Builtin;
    it.target = "dict.items";
    effect("reads");
    raises();  // RuntimeError when the dict changes size
    var_ty = tuple_of({key_of(bt), dict_value(bt)});
  } else if (is_pairs_call(*e.kids[1])) {  // `for i, x in enumerate(xs)`: (i, x) pairs
    Ty types[2];
    if (!pairs_iter(*e.kids[1], types)) return false;
    var_ty = tuple_of({types[0], types[1]});
  } else {
    var_ty = iter_type(*e.kids[1]);
  }
  if (var_ty == Ty::Error) return false;
  // `for a, b in pairs`: each tuple unpacked into the names.
  std::vector<Ty> var_tys{var_ty};
  if (e.ops.size() > 1 && is_list(var_ty)) {  // `for a, b in rows`: checked at run time (unpack_list)
    var_tys.assign(e.ops.size(), list_elem(var_ty));
  } else if (e.ops.size() > 1) {
    var_tys = tuple_elems(var_ty);
    if (var_tys.size() != e.ops.size()) {
      error(e.kids[1]->pos, "E1030", str_cat("cannot unpack ", ty_name(var_ty), " into ", e.ops.size(), " names"));
      return false;
    }
  }
  // Each name is a local of its own, `_c<n>_<name>` (e.target lists them, comma-separated);
  // checked once more (a conditional expression's branch): the same locals again.
  std::vector<std::string> us;
  if (e.target.empty()) {
    for (const std::string& n : e.ops) {
      us.push_back(str_cat("_c", ++comps_, "_", n));
      e.target += (e.target.empty() ? "" : ",") + us.back();
    }
  } else {
    size_t from = 0;
    for (size_t at; (at = e.target.find(',', from)) != std::string::npos; from = at + 1)
      us.push_back(e.target.substr(from, at - from));
    us.push_back(e.target.substr(from));
  }
  size_t nconds = static_cast<size_t>(e.ival);
  for (size_t i = 0; i < e.ops.size() && i < us.size(); ++i) {
    rename(*e.kids[0], e.ops[i], us[i]);
    for (size_t k = 0; k < nconds; ++k) rename(*e.kids[2 + k], e.ops[i], us[i]);
    if (e.kind == ExprKind::DictComp) rename(*e.kids.back(), e.ops[i], us[i]);
    types_[us[i]] = var_tys[i];
    note_local(us[i]);
    flow_.assigned.insert(us[i]);
  }
  for (size_t k = 0; k < nconds; ++k) condition(*e.kids[2 + k]);
  return true;
}

Ty BodyChecker::list_comp(Expr& e, Ty expected) {
  if (gpu_) {
    error(e.pos, "E1100", "lists are not available in GPU code");
    return Ty::Error;
  }
  if (!comp_vars(e)) return Ty::Error;
  // `[e for a in A for b in B]`: the inner clause's elements are this list's.
  if (e.kids[0]->kind == ExprKind::ListComp && e.kids[0]->str == "for") return list_comp(*e.kids[0], expected);
  Ty want = is_list(expected) ? list_elem(expected) : Ty::Error;
  Ty t = value(*e.kids[0], want);
  if (t == Ty::Error) return t;
  if (want != Ty::Error && t != want && element_fits(t, want)) t = want;  // (x, None), or x for x | None
  if (is_none_value(t) && maybe_none(*e.kids[0])) return Ty::Error;
  if (!list_holdable(t)) {
    error(e.kids[0]->pos, "E1030",
          str_cat("lists hold int, float, bool, str, lists, tuples and optionals, not ", ty_name(t)));
    return Ty::Error;
  }
  return list_of(t);
}

Ty BodyChecker::table_comp(Expr& e, Ty expected) {
  bool set = e.kind == ExprKind::SetComp;
  if (gpu_) {
    error(e.pos, "E1100", "dicts and sets are not available in GPU code");
    return Ty::Error;
  }
  if (!comp_vars(e)) return Ty::Error;
  Ty want_k = (set ? is_set(expected) : is_dict(expected)) ? key_of(expected) : Ty::Error;
  Ty k = value(*e.kids[0], want_k);
  if (k == Ty::Error || maybe_none(*e.kids[0])) return Ty::Error;
  if (!key_holdable(k)) {
    error(e.kids[0]->pos, "E1030",
          str_cat(set ? "set elements" : "dict keys", " are int, str or tuples of those in the ppy subset, not ", ty_name(k)));
    return Ty::Error;
  }
  if (!object_key(k, e.pos)) return Ty::Error;
  raises();  // MemoryError
  if (set) return set_of(k);
  Expr& ve = *e.kids.back();
  Ty v = value(ve, is_dict(expected) ? dict_value(expected) : Ty::Error);
  if (v == Ty::Error || maybe_none(ve)) return Ty::Error;
  if (!dict_value_holdable(v)) {
    error(ve.pos, "E1030",
          dict_value_refusal("dict", v));
    return Ty::Error;
  }
  return dict_of(k, v);
}

Ty BodyChecker::list_contains(Expr& e, const std::vector<Ty>& ts) {
  Ty elem = list_elem(ts[1]);
  if (is_class(elem) && class_info(elem)->methods.count("__eq__") && is_class(ts[0]) && assignable(ts[0], elem)) {
    // `x in xs` by __eq__: a helper written in ppy beside the class (object_list_helpers.h).
    bool negated = e.ops[0] == "not in";
    std::vector<ExprPtr> args;
    args.push_back(std::move(e.kids[1]));
    args.push_back(std::move(e.kids[0]));
    auto inner = std::make_unique<Expr>();
    inner->pos = e.pos;
    make_function_call(*inner, list_helper_for(m_, "contains", elem), std::move(args));
    inner->ty = call(*inner, false);
    if (inner->ty == Ty::Error) return Ty::Error;
    Pos p = e.pos;
    if (!negated) {
      e = std::move(*inner);
      return Ty::Bool;
    }
    e = Expr{};
    e.kind = ExprKind::Unary;
    e.pos = p;
    e.str = "not";
    e.kids.push_back(std::move(inner));
    return Ty::Bool;
  }
  if (holds_object(elem)) {
    error(e.pos, "E1010", str_cat("'", e.ops[0], "' of a ", ty_name(ts[1]), " is outside the ppy subset"));
    return Ty::Error;
  }
  if (!element_fits(ts[0], elem)) {
    if (!is_optional(elem) && maybe_none(*e.kids[0])) return Ty::Error;
    error(e.pos, "E1030",
          str_cat("'", e.ops[0], "' of ", ty_name(ts[0]), " and ", ty_name(ts[1]),
                  ": the subset needs a value of the list's element type"));
    return Ty::Error;
  }
  effect("reads");
  return Ty::Bool;
}

Ty BodyChecker::list_slice(Expr& e, Ty base) {
  bool ok = slice_indices(*e.kids[1]);
  effect("reads");
  raises();  // a zero step's ValueError
  return ok ? base : Ty::Error;
}

Ty BodyChecker::list_builtin(Expr& e, const std::string& n) {
  size_t nargs = e.kids.size() - 1;
  if ((nargs != 1 && !(n == "sum" && nargs == 2)) || !e.keywords.empty()) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(e.pos, "E1010",
          str_cat(n, "() with ", nargs, " arguments", e.keywords.empty() ? "" : " or keywords",
                  " is outside the ppy subset (it takes one list)"));
    return Ty::Error;
  }
  views_ok_ = view_call(*e.kids[1]) != 0;  // items(): its pairs as a list (check_dict.cc)
  Ty t = value(*e.kids[1], Ty::Error);
  views_ok_ = 0;
  if (tuple_as_list(*e.kids[1], t)) t = value(*e.kids[1], Ty::Error);  // `max(SHARES)` (tuple_as_list.h)
  if (t == Ty::Error) return t;
  if (is_dict(t) || is_set(t)) t = list_of(key_of(t));  // its keys, as a list of them
  if (t == Ty::File) {  // io (issue 33): sorted(f), min(sys.stdin): the stream's lines, as list(f) reads them
    read_lines(e.kids[1]);
    t = value(*e.kids[1], Ty::Error);
    if (t == Ty::Error) return t;
  }
  if (!is_list(t)) {
    if (maybe_none(*e.kids[1])) return Ty::Error;
    error(e.kids[1]->pos, "E1030",
          str_cat(n, "() of ", ty_name(t), " is outside the ppy subset (it takes a list, a dict or a set)"));
    return Ty::Error;
  }
  Ty elem = list_elem(t);
  effect("reads");
  if (is_class(elem) && n != "sum" && nargs == 1 && class_info(elem)->methods.count("__lt__") &&
      is_list(e.kids[1]->ty)) {
    // sorted(), min(), max() by __lt__: a helper written in ppy beside the class (object_list_helpers.h).
    std::vector<ExprPtr> args;
    args.push_back(std::move(e.kids[1]));
    make_function_call(e, list_helper_for(m_, n, elem), std::move(args));
    return call(e, false);
  }
  if (n == "sum") {
    if (elem == Ty::Bool) elem = Ty::Int;  // unions: sum(flags) counts the true ones, as Python's
    if (elem != Ty::Int && elem != Ty::Float) {
      error(e.kids[1]->pos, "E1030",
            str_cat("sum() of ", ty_name(t), " is outside the ppy subset (it adds ints or floats)"));
      return Ty::Error;
    }
    if (elem == Ty::Int) raises();  // OverflowError
    e.target = "list.sum";
    if (nargs == 2) {  // sum(xs, start): the start first, as Python adds
      Ty st = value(*e.kids[2], elem);
      if (st == Ty::Error) return st;
      if (st != elem && !(elem == Ty::Float && (st == Ty::Int || st == Ty::Bool))) {
        if (maybe_none(*e.kids[2])) return Ty::Error;
        error(e.kids[2]->pos, "E1030",
              str_cat("sum() of ", ty_name(t), " takes a start of ", ty_name(elem), " in the ppy subset, not ",
                      ty_name(st)));
        return Ty::Error;
      }
    }
    return elem;
  }
  if (n == "sorted" && !orderable(elem)) {
    error(e.kids[1]->pos, "E1030",
          str_cat("sorted() of ", ty_name(t),
                  " is outside the ppy subset (it orders numbers, strs, and lists and tuples of those)"));
    return Ty::Error;
  }
  if (elem != Ty::Int && elem != Ty::Float && elem != Ty::Str && n != "sorted" &&
      !((is_list(elem) || is_tuple(elem)) && orderable(elem))) {
    error(e.kids[1]->pos, "E1030",
          str_cat(n, "() of ", ty_name(t), " is outside the ppy subset (it orders ints, floats or strs)"));
    return Ty::Error;
  }
  if (n == "sorted") {
    e.target = "list.sorted";
    return t;
  }
  raises();  // ValueError for an empty list
  e.target = n == "min" ? "list.min" : "list.max";
  return elem;
}

Ty BodyChecker::str_list_method(Expr& e, Expr& callee) {
  const std::string& name = callee.str;
  size_t nargs = e.kids.size() - 1;
  if (!e.keywords.empty()) {
    error(e.keywords[0].pos, "E1032", str_cat("str.", name, "() takes no keyword arguments"));
    return Ty::Error;
  }
  Ty strs = list_of(Ty::Str);
  if (name == "join") {
    if (nargs != 1) {
      for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
      error(e.pos, "E1032", str_cat("str.join() takes exactly one argument (", nargs, " given)"));
      return Ty::Error;
    }
    wrap_iterator(e.kids[1]);  // lazy sequences: `"".join(c for c in s)`, `"".join(gen())`
    if (lazy_arg(*e.kids[1])) lazy_ok_.insert(e.kids[1].get());
    Ty t = value(*e.kids[1], strs);
    if (t == Ty::File) {  // io (issue 33): "".join(sys.stdin)
      read_lines(e.kids[1]);
      t = value(*e.kids[1], strs);
    }
    if (t == Ty::Error) return t;
    if (t != strs) {
      error(e.kids[1]->pos, "E1030", str_cat("str.join() takes a list[str] in the ppy subset, not ", ty_name(t)));
      return Ty::Error;
    }
    effect("reads");
    e.ref = Ref::Builtin;
    e.target = "str.join";
    e.builtin = BuiltinId::StrJoin;
    return Ty::Str;
  }
  // split
  if (nargs > 1) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(e.pos, "E1010", "str.split() with maxsplit is outside the ppy subset");
    return Ty::Error;
  }
  if (nargs == 1) {
    Ty t = value(*e.kids[1], Ty::Str);
    if (t == Ty::Error) return t;
    if (t != Ty::Str) {
      error(e.kids[1]->pos, "E1030", str_cat("str.split() takes a str separator, not ", ty_name(t)));
      return Ty::Error;
    }
    raises();  // ValueError: empty separator
  }
  e.ref = Ref::Builtin;
  e.target = "str.split";
  e.builtin = BuiltinId::StrSplit;
  return strs;
}

Ty BodyChecker::compare_lists(Expr& e, const std::vector<Ty>& ts) {
  if (ts.size() != 2) {
    error(e.pos, "E1010", "a chain of comparisons of lists is outside the ppy subset; compare two at a time");
    return Ty::Error;
  }
  const std::string& op = e.ops[0];
  bool order = op == "<" || op == "<=" || op == ">" || op == ">=";
  if (op != "==" && op != "!=" && !order) {
    error(e.pos, "E1010",
          str_cat("'", op, "' of ", ty_name(ts[0]), " and ", ty_name(ts[1]), " is outside the ppy subset"));
    return Ty::Error;
  }
  if (ts[0] == ts[1] && order && !orderable(ts[0])) {
    error(e.pos, "E1030", str_cat("'", op, "' is not supported between ", ty_name(ts[0]), " values (they hold None)"));
    return Ty::Error;
  }
  if (ts[0] != ts[1]) {
    error(e.pos, "E1030", str_cat("cannot compare ", ty_name(ts[0]), " and ", ty_name(ts[1])));
    return Ty::Error;
  }
  if (holds_object(ts[0])) {
    error(e.pos, "E1010", str_cat("'", op, "' of ", ty_name(ts[0]), " is outside the ppy subset"));
    return Ty::Error;
  }
  effect("reads");
  return Ty::Bool;
}

}  // namespace ppy::frontend::checking
