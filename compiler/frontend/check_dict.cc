// The body checker, dicts and sets: displays, `d[k]`, methods, `in` (docs/language.md, "Dicts and sets").
#include <string>

#include "body_checker.h"
#include "expr_build.h"
#include "own_writes.h"
#include "builtins.h"
#include "checker_internal.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

bool BodyChecker::dict_key(Expr& k, Ty key, Ty table) {
  Ty t = value(k, key);
  if (t == Ty::Error || maybe_none(k)) return false;
  if (t != key) {
    error(k.pos, "E1030", str_cat("a ", ty_name(table), " takes ", ty_name(key), " keys, not ", ty_name(t)));
    return false;
  }
  return object_key(key, k.pos);
}

bool BodyChecker::dict_val(Expr& v, Ty want, Ty table) {
  Ty t = value(v, want);
  if (t == Ty::Error || maybe_none(v)) return false;
  if (t != want) {
    error(v.pos, "E1030",
          str_cat("a ", ty_name(table), " holds ", ty_name(want), " values, not ", ty_name(t), hint_for(want, t)));
    return false;
  }
  return true;
}

Ty BodyChecker::dict_display(Expr& e, Ty expected) {
  if (gpu_) {
    error(e.pos, "E1100", "dicts and sets are not available in GPU code");
    return Ty::Error;
  }
  bool set = e.kind == ExprKind::Set;
  if (e.kids.empty()) {
    if (is_dict(expected)) return expected;
    error(e.pos, "E1030",
          "the key and value types of an empty dict are unknown; annotate it: `d: dict[str, int] = {}`");
    return Ty::Error;
  }
  Ty want_k = key_of(expected), want_v = dict_value(expected);
  if (set ? !is_set(expected) : !is_dict(expected)) want_k = want_v = Ty::Error;
  Ty kt = Ty::Error, vt = Ty::Error;
  bool bad = false;
  size_t step = set ? 1 : 2;
  for (size_t i = 0; i < e.kids.size(); i += step) {
    Ty t = value(*e.kids[i], kt != Ty::Error ? kt : want_k);
    if (t == Ty::Error || maybe_none(*e.kids[i])) {
      bad = true;
    } else if (!key_holdable(t)) {
      error(e.kids[i]->pos, "E1030",
            str_cat(set ? "set elements" : "dict keys", " are int, str or tuples of those in the ppy subset, not ", ty_name(t)));
      bad = true;
    } else if (kt == Ty::Error) {
      kt = t;
    } else if (kt != t) {
      error(e.kids[i]->pos, "E1030",
            str_cat("a ", set ? "set mixes " : "dict mixes ", ty_name(kt), " and ", ty_name(t),
                    set ? " elements" : " keys"));
      bad = true;
    }
    if (set) continue;
    Ty v = value(*e.kids[i + 1], vt != Ty::Error ? vt : want_v);
    if (v == Ty::Error || maybe_none(*e.kids[i + 1])) {
      bad = true;
    } else if (!dict_value_holdable(v)) {
      error(e.kids[i + 1]->pos, "E1030",
            dict_value_refusal("dict", v));
      bad = true;
    } else if (vt == Ty::Error) {
      vt = v;
    } else if (vt != v) {
      error(e.kids[i + 1]->pos, "E1030", str_cat("a dict mixes ", ty_name(vt), " and ", ty_name(v), " values"));
      bad = true;
    }
  }
  if (bad || !object_key(kt, e.pos)) return Ty::Error;
  raises();  // MemoryError
  return set ? set_of(kt) : dict_of(kt, vt);
}

Ty BodyChecker::empty_table(Expr& e, const std::string& n, Ty expected) {
  e.ref = Ref::Builtin;
  e.target = n;
  if (e.kids.size() == 2 && e.keywords.empty()) return table_from(e, n, expected);  // lazy sequences
  if (e.kids.size() != 1 || !e.keywords.empty()) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(e.pos, "E1010", str_cat(n, "() with arguments is outside the ppy subset (it makes an empty ", n, ")"));
    return Ty::Error;
  }
  if (n == "set" ? is_set(expected) : is_dict(expected)) return expected;
  error(e.pos, "E1030",
        str_cat("the types of an empty ", n,
                " are unknown; annotate it: ", n == "set" ? "`s: set[int] = set()`" : "`d: dict[str, int] = dict()`"));
  return Ty::Error;
}

Ty BodyChecker::dict_subscript(Expr& e, Ty bt) {
  if (e.kids[1]->kind == ExprKind::Slice) {
    error(e.kids[1]->pos, "E1010", str_cat("slicing ", ty_name(bt), " is outside the ppy subset"));
    return Ty::Error;
  }
  if (is_set(bt)) {
    error(e.pos, "E1030", str_cat(ty_name(bt), " cannot be indexed"));
    return Ty::Error;
  }
  if (!dict_key(*e.kids[1], key_of(bt), bt)) return Ty::Error;
  effect("reads");
  raises();  // KeyError
  return dict_value(bt);
}

int BodyChecker::view_call(const Expr& x) {
  if (x.kind != ExprKind::Call || x.kids.size() != 1 || x.kids[0]->kind != ExprKind::Attribute) return 0;
  const std::string& m = x.kids[0]->str;
  return m == "items" ? 2 : (m == "keys" || m == "values") ? 1 : 0;
}

Ty BodyChecker::dict_rewrite(Expr& e, ExprPtr base, bool set, bool pairs) {
  Pos p = e.pos;
  int n = ++comps_;
  std::string k = str_cat("_d", n, "_k"), v = str_cat("_d", n, "_v");
  ExprPtr it = std::move(base);
  if (!set) it = build::call(build::with_kids(ExprKind::Attribute, p, [&] {
                               std::vector<ExprPtr> b;
                               b.push_back(std::move(it));
                               return b;
                             }(), "items"),
                             {}, p);
  Expr c;
  c.kind = pairs ? ExprKind::ListComp : set ? ExprKind::SetComp : ExprKind::DictComp;
  c.pos = p;
  c.ops = set ? std::vector<std::string>{k} : std::vector<std::string>{k, v};
  if (pairs) {
    std::vector<ExprPtr> kv;
    kv.push_back(build::name(k, p));
    kv.push_back(build::name(v, p));
    c.kids.push_back(build::with_kids(ExprKind::Tuple, p, std::move(kv)));
  } else {
    c.kids.push_back(build::name(k, p));
  }
  c.kids.push_back(std::move(it));
  if (!set && !pairs) c.kids.push_back(build::name(v, p));  // a dict comprehension's value comes last
  c.comp_frame = pairs ? "<listcomp>" : set ? "<setcomp>" : "<dictcomp>";
  c.depth = build::depth_over(c.kids);
  e = std::move(c);
  return value(e, Ty::Error);
}

Ty BodyChecker::dict_update(Expr& e, Ty base, ExprPtr unchecked, bool stmt_level) {
  Pos p = e.pos;
  auto refuse = [&](Pos at, const char* code, std::string msg) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    for (auto& kw : e.keywords) value(*kw.value, Ty::Error);
    error(at, code, std::move(msg));
    return Ty::Error;
  };
  size_t nargs = e.kids.size() - 1;
  if (nargs > 1) return refuse(p, "E1032", str_cat("update expected at most 1 argument, got ", nargs));
  if (!stmt_level) return refuse(p, "E1010", "d.update() as a value is outside the ppy subset (it is None)");
  // The receiver is read once per pair: a name or a chain of attributes of one.
  const Expr* r = unchecked.get();
  while (r->kind == ExprKind::Attribute) r = r->kids[0].get();
  if (r->kind != ExprKind::Name)
    return refuse(p, "E1010", "d.update() of a receiver made by an expression is outside the ppy subset (name it first)");
  // The pairs in the order given: the other dict's, then the keywords' (`d.update(a=1)` of a dict with str keys).
  std::vector<StmtPtr> stores;
  int n = ++comps_;
  std::string k = str_cat("_u", n, "_k"), v = str_cat("_u", n, "_v");
  auto store = [&](ExprPtr key, ExprPtr val) {
    std::vector<ExprPtr> sub;
    sub.push_back(build::clone(*unchecked));
    sub.push_back(std::move(key));
    StmtPtr a = build::stmt(StmtKind::Assign, p);
    a->targets.push_back(build::with_kids(ExprKind::Subscript, p, std::move(sub)));
    a->value = std::move(val);
    return a;
  };
  if (nargs == 1) {
    ExprPtr other = build::clone(*e.kids[1]);
    Ty ot = value(*e.kids[1], base);
    if (ot == Ty::Error) return Ty::Error;
    if (ot != base) {
      error(e.kids[1]->pos, "E1030",
            str_cat("d.update() of a ", ty_name(base), " takes another ", ty_name(base), " in the ppy subset, not ",
                    ty_name(ot)));
      return Ty::Error;
    }
    StmtPtr loop = build::stmt(StmtKind::For, p);
    std::vector<ExprPtr> names;
    names.push_back(build::name(k, p));
    names.push_back(build::name(v, p));
    loop->targets.push_back(build::with_kids(ExprKind::Tuple, p, std::move(names)));
    loop->value = build::call(build::with_kids(ExprKind::Attribute, p, [&] {
                                std::vector<ExprPtr> b;
                                b.push_back(std::move(other));
                                return b;
                              }(), "items"),
                              {}, p);
    loop->body.push_back(store(build::name(k, p), build::name(v, p)));
    stores.push_back(std::move(loop));
  }
  for (auto& kw : e.keywords) stores.push_back(store(build::node(ExprKind::Str, kw.pos, kw.name), std::move(kw.value)));
  // One statement: the loop alone, else `if True:` over them all.
  StmtPtr whole;
  if (stores.size() == 1) {
    whole = std::move(stores[0]);
  } else {
    whole = build::stmt(StmtKind::If, p);
    whole->value = build::bool_lit(true, p);
    whole->body = std::move(stores);
  }
  update_stmt_ = std::move(whole);
  return Ty::None;
}

Ty BodyChecker::dict_method(Expr& e, Expr& callee, Ty base, ExprPtr unchecked, bool stmt_level) {
  int views = views_ok_;
  views_ok_ = 0;
  const std::string& name = callee.str;
  size_t nargs = e.kids.size() - 1;
  bool set = is_set(base);
  // `d.copy()`: a new dict of the same pairs in the same order, as the comprehension over them makes it.
  if (unchecked && name == "copy" && nargs == 0 && e.keywords.empty()) return dict_rewrite(e, std::move(unchecked), set, false);
  // `list(d.items())`, `max(d.items())`: the (key, value) pairs, as a list of them.
  if (unchecked && !set && name == "items" && views == 1 && nargs == 0 && e.keywords.empty())
    return dict_rewrite(e, std::move(unchecked), false, true);
  Ty key = key_of(base), val = dict_value(base);
  const char* kind = set ? "set" : "dict";
  auto drop = [&] {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    return Ty::Error;
  };
  auto arity = [&](size_t lo, size_t hi) {
    if (nargs >= lo && nargs <= hi) return true;
    drop();
    error(e.pos, "E1032",
          lo == hi ? str_cat(kind, ".", name, "() takes ",
                             lo == 0   ? "no arguments"
                             : lo == 1 ? "exactly one argument"
                                       : "2 arguments",
                             " (", nargs, " given)")
                   : str_cat(name, " expected at most ", hi, " arguments, got ", nargs));
    return false;
  };
  if (unchecked && !set && name == "update") return dict_update(e, base, std::move(unchecked), stmt_level);
  if (!e.keywords.empty()) {
    drop();
    error(e.keywords[0].pos, "E1010", str_cat(kind, ".", name, "() with keywords is outside the ppy subset"));
    return Ty::Error;
  }
  e.ref = Ref::Builtin;
  e.target = str_cat(kind, ".", name);
  if (const BuiltinMethod* m = find_builtin_method(kind, name)) e.builtin = m->id;
  if (!set && name == "get") {
    if (!arity(1, 2)) return Ty::Error;
    if (!dict_key(*e.kids[1], key, base)) return drop();
    if (nargs == 2 && !dict_val(*e.kids[2], val, base)) return Ty::Error;
    if (nargs == 1 && !holdable(val)) {
      error(e.pos, "E1010",
            str_cat("d.get(k) of a ", ty_name(base), " would be a ", ty_name(val),
                    " | None, outside the ppy subset; give a default: d.get(k, default)"));
      return Ty::Error;
    }
    effect("reads");
    return nargs == 2 ? val : optional_of(val);
  }
  if (!set && name == "setdefault") {  // the stored value: `d.setdefault(k, []).append(x)`
    if (!arity(2, 2)) return Ty::Error;
    if (!dict_key(*e.kids[1], key, base)) return drop();
    if (!dict_val(*e.kids[2], val, base)) return Ty::Error;
    write_through(*callee.kids[0], f_, cur_pos_);  // own_writes.h
    raises();  // MemoryError: the dict grows
    return val;
  }
  if (!set && name == "__delitem__") {  // `del d[k]`
    if (!arity(1, 1)) return Ty::Error;
    if (!dict_key(*e.kids[1], key, base)) return Ty::Error;
    write_through(*callee.kids[0], f_, cur_pos_);  // own_writes.h
    raises();  // KeyError
    return Ty::None;
  }
  if (!set && name == "pop") {
    if (!arity(1, 2)) return Ty::Error;
    if (!dict_key(*e.kids[1], key, base)) return drop();
    if (nargs == 2 && !dict_val(*e.kids[2], val, base)) return Ty::Error;
    write_through(*callee.kids[0], f_, cur_pos_);  // own_writes.h
    if (nargs == 1) raises();  // KeyError
    return val;
  }
  if (!set && (name == "keys" || name == "values" || name == "items")) {
    if (!arity(0, 0)) return Ty::Error;
    if (!views || (name == "items" && views != 2)) {
      error(e.pos, "E1010",
            str_cat("dict.", name, "() ",
                    name == "items"
                        ? "outside `for k, v in d.items()`"
                        : "outside a for loop, a comprehension's iterable or sorted()/sum()/min()/max()/len()",
                    " is outside the ppy subset"));
      return Ty::Error;
    }
    effect("reads");
    raises();                              // MemoryError: a list is made
    if (name == "items") return Ty::None;  // for_pairs reads the types
    return list_of(name == "keys" ? key : val);
  }
  if (name == "clear") {
    if (!arity(0, 0)) return Ty::Error;
    write_through(*callee.kids[0], f_, cur_pos_);  // own_writes.h
    return Ty::None;
  }
  if (set && (name == "add" || name == "remove" || name == "discard")) {
    if (!arity(1, 1)) return Ty::Error;
    if (!dict_key(*e.kids[1], key, base)) return Ty::Error;
    write_through(*callee.kids[0], f_, cur_pos_);  // own_writes.h
    raises();  // KeyError (remove), MemoryError (add)
    return Ty::None;
  }
  drop();
  refuse_member(callee.pos, base, name, str_cat(kind, " method '", name, "' is outside the ppy subset"));
  return Ty::Error;
}

Ty BodyChecker::dict_contains(Expr& e, const std::vector<Ty>& ts) {
  Ty key = key_of(ts[1]);
  if (maybe_none(*e.kids[0])) return Ty::Error;
  if (ts[0] != key) {
    error(e.pos, "E1030",
          str_cat("'", e.ops[0], "' of ", ty_name(ts[0]), " and ", ty_name(ts[1]), ": the subset needs a ",
                  ty_name(key), " key"));
    return Ty::Error;
  }
  if (!object_key(key, e.pos)) return Ty::Error;
  effect("reads");
  return Ty::Bool;
}

bool BodyChecker::dict_store(Expr& t, Ty bt, Ty vt, const Expr& v) {
  if (is_set(bt)) {
    error(t.pos, "E1030", str_cat("cannot assign through an index of ", ty_name(bt)));
    return false;
  }
  if (!dict_key(*t.kids[1], key_of(bt), bt)) return false;
  t.ty = dict_value(bt);
  if (vt != Ty::Error && vt != t.ty) {
    error(v.pos, "E1030", str_cat("cannot store ", ty_name(vt), " in a ", ty_name(bt), hint_for(t.ty, vt)));
    return false;
  }
  write_through(*t.kids[0], f_, cur_pos_);  // own_writes.h
  raises();  // MemoryError
  return true;
}

void BodyChecker::for_items(Stmt& s) {
  Expr& t = *s.targets[0];
  Expr& it = *s.value;
  Expr& callee = *it.kids[0];
  Ty bt = value(*callee.kids[0], Ty::Error);
  bool ok = bt != Ty::Error;
  if (ok && !is_dict(bt)) {
    if (!maybe_none(*callee.kids[0]))
      error(callee.pos, "E1010", str_cat("methods of ", ty_name(bt), " are outside the ppy subset"));
    ok = false;
  }
  if (!it.keywords.empty() || it.kids.size() != 1) {
    for (size_t k = 1; k < it.kids.size(); ++k) value(*it.kids[k], Ty::Error);
    error(it.pos, "E1032", str_cat("dict.items() takes no arguments (", it.kids.size() - 1, " given)"));
    ok = false;
  }
  if (t.kind != ExprKind::Tuple || t.kids.size() != 2 || t.kids[0]->kind != ExprKind::Name ||
      t.kids[1]->kind != ExprKind::Name) {
    error(t.pos, "E1010", "a for loop over d.items() unpacks two variables: `for k, v in d.items()`");
    return;
  }
  if (!ok) return;
  it.ref = Ref::Builtin;
  it.target = "dict.items";
  effect("reads");
  raises();  // RuntimeError when the dict changes size
  forget_narrowing(s.body);
  Flow before = flow_;
  Expr dummy;
  dummy.kind = ExprKind::Int;
  dummy.pos = t.pos;
  assign(*t.kids[0], key_of(bt), dummy);
  assign(*t.kids[1], dict_value(bt), dummy);
  loop_body(s.body, before);
}

}  // namespace ppy::frontend::checking
