// The body checker, `collections`' dict classes (docs/stdlib.md,
// "collections"): defaultdict, Counter and OrderedDict are typed as the dicts
// they derive from (`Counter[str]` is `dict[str, int]`), so every dict
// operation and every function taking a dict takes them; what differs (a
// missing key, the repr, most_common, move_to_end) is the runtime's
// (ppy_collections.c), by the flavor the constructor gives the table.
#include <optional>
#include <string>

#include "body_checker.h"
#include "checker_internal.h"
#include "hash_key_helpers.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {
namespace {

/// Why counting a list of `t` is refused when its elements' class has its own `==`: the runtime
/// counts a list's elements by identity (hash_key_helpers.h).
std::string counted_by_eq(Ty t, const std::string& what) {
  return str_cat(what, " of ", ty_name(t),
                 " is outside the ppy subset (its class has its own __eq__: count them in a loop, c[x] += 1)");
}

/// The class a dotted annotation or callee names, by its last component
/// (`collections.Counter`, `typing.DefaultDict`), or empty.
std::string class_of(const std::string& path) {
  static const std::pair<const char*, const char*> names[] = {{"defaultdict", "defaultdict"},
                                                              {"collections.defaultdict", "defaultdict"},
                                                              {"DefaultDict", "defaultdict"},
                                                              {"typing.DefaultDict", "defaultdict"},
                                                              {"Counter", "Counter"},
                                                              {"collections.Counter", "Counter"},
                                                              {"typing.Counter", "Counter"},
                                                              {"OrderedDict", "OrderedDict"},
                                                              {"collections.OrderedDict", "OrderedDict"},
                                                              {"typing.OrderedDict", "OrderedDict"}};
  for (auto& [n, c] : names)
    if (path == n) return c;
  return "";
}

/// defaultdict's factories the subset has, in ppy_collections.h's numbering.
int factory_code(const std::string& name) {
  if (name == "int") return 1;
  if (name == "float") return 2;
  if (name == "str") return 3;
  if (name == "list") return 4;
  if (name == "bool") return 5;
  return 0;
}

/// Whether factory `code` makes values of type `v`.
bool factory_fits(int code, Ty v) {
  switch (code) {
    case 1:
      return v == Ty::Int;
    case 2:
      return v == Ty::Float;
    case 3:
      return v == Ty::Str;
    case 4:
      return is_list(v);
    case 5:
      return v == Ty::Bool;
    default:
      return false;
  }
}

}  // namespace

bool is_collections_class_name(const std::string& n) {
  return n == "collections.defaultdict" || n == "collections.Counter" || n == "collections.OrderedDict" ||
         n == "collections.deque";  // check_deque.cc
}

std::optional<Ty> collections_annotation(const Expr& a, const std::function<Ty(const Expr&)>& elem,
                                         const std::function<void(Pos, const char*, std::string)>& error) {
  if (auto d = deque_annotation(a, elem, error)) return d;  // check_deque.cc
  if (a.kind != ExprKind::Subscript) return std::nullopt;
  auto base = dotted(*a.kids[0]);
  std::string cls = base ? class_of(*base) : "";
  if (cls.empty()) return std::nullopt;
  const Expr& arg = *a.kids[1];
  size_t want = cls == "Counter" ? 1 : 2;
  size_t n = arg.kind == ExprKind::Tuple ? arg.kids.size() : 1;
  if (n != want) {
    error(a.pos, "E1031",
          cls == "Counter" ? "Counter takes one type: Counter[str]"
                           : str_cat(cls, " takes two types: ", cls, "[str, int]"));
    return Ty::Error;
  }
  const Expr& ke = want == 1 ? arg : *arg.kids[0];
  Ty k = elem(ke);
  if (k == Ty::Error) return Ty::Error;
  if (!key_holdable(k)) {
    error(ke.pos, "E1031", str_cat(cls, " keys are int, str or tuples of those in the ppy subset, not ", ty_name(k)));
    return Ty::Error;
  }
  if (want == 1) return dict_of(k, Ty::Int);
  Ty v = elem(*arg.kids[1]);
  if (v == Ty::Error) return Ty::Error;
  if (!dict_value_holdable(v)) {
    error(arg.kids[1]->pos, "E1031",
          dict_value_refusal(cls, v));
    return Ty::Error;
  }
  return dict_of(k, v);
}

std::optional<Ty> BodyChecker::collections_ctor(Expr& e, Ty expected) {
  auto path = dotted(*e.kids[0]);
  if (!path || types_.count(path->substr(0, path->find('.')))) return std::nullopt;
  Resolved r = resolve_path(*path);
  if (r.ref != Ref::Sys || !is_collections_class_name(r.name)) return std::nullopt;
  std::string cls = r.name.substr(12);
  e.ref = Ref::Sys;
  e.target = r.name;
  if (cls == "deque") return deque_ctor(e, expected);  // check_deque.cc
  size_t nargs = e.kids.size() - 1;
  if (!e.keywords.empty()) {
    error(e.keywords[0].pos, "E1010", str_cat(cls, "() with keywords is outside the ppy subset"));
    return Ty::Error;
  }
  auto annotate = [&](const char* example) {
    error(e.pos, "E1030", str_cat("the types of an empty ", cls, " are unknown; annotate it: `", example, "`"));
    return Ty::Error;
  };
  if (cls == "defaultdict") {
    const Expr* f = nargs == 1 ? e.kids[1].get() : nullptr;
    int code = f && f->kind == ExprKind::Name && !types_.count(f->str) ? factory_code(f->str) : 0;
    if (!code) {
      error(f ? f->pos : e.pos, "E1010",
            "defaultdict() takes one factory in the ppy subset: int, float, str, list or bool");
      return Ty::Error;
    }
    e.ival = code;
    if (!is_dict(expected)) return annotate("d: defaultdict[str, int] = defaultdict(int)");
    if (!factory_fits(code, dict_value(expected))) {
      error(f->pos, "E1030",
            str_cat("defaultdict(", f->str, ") makes ", f->str, " values, not ", ty_name(dict_value(expected))));
      return Ty::Error;
    }
    return expected;
  }
  if (nargs > 1) {
    error(e.pos, "E1032", str_cat(cls, "() takes at most 1 argument (", nargs, " given)"));
    return Ty::Error;
  }
  if (nargs == 0) {
    if (!is_dict(expected) || (cls == "Counter" && dict_value(expected) != Ty::Int))
      return annotate(cls == "Counter" ? "c: Counter[str] = Counter()" : "d: OrderedDict[str, int] = OrderedDict()");
    return expected;
  }
  if (cls == "OrderedDict") {
    value(*e.kids[1], Ty::Error);
    error(e.kids[1]->pos, "E1010", "OrderedDict() of a value is outside the ppy subset (make it empty and fill it)");
    return Ty::Error;
  }
  // Counter(iterable): a list's elements, a str's characters, another Counter's counts.
  Ty t = value(*e.kids[1], Ty::Error);
  if (t == Ty::Error) return t;
  Ty key = t == Ty::Str ? Ty::Str : is_list(t) ? list_elem(t) : is_dict(t) ? key_of(t) : Ty::Error;
  if (key != Ty::Error && !is_dict(t) && helped_key(key)) {
    error(e.kids[1]->pos, "E1010", counted_by_eq(t, "Counter()"));
    return Ty::Error;
  }
  if (key == Ty::Error || !key_holdable(key) || (is_dict(t) && dict_value(t) != Ty::Int)) {
    error(e.kids[1]->pos, "E1010",
          str_cat("Counter() of ", ty_name(t),
                  " is outside the ppy subset (it counts a list, a str, or another Counter's counts)"));
    return Ty::Error;
  }
  effect("reads");
  raises();
  return dict_of(key, Ty::Int);
}

bool is_collections_method(const std::string& name) {
  return name == "most_common" || name == "update" || name == "subtract" || name == "total" || name == "move_to_end" ||
         name == "popitem" || name == "elements";
}

Ty BodyChecker::collections_method(Expr& e, Expr& callee, Ty base) {
  const std::string& name = callee.str;
  e.ref = Ref::Sys;
  e.target = "collections.method." + name;
  size_t nargs = e.kids.size() - 1;
  std::vector<Expr*> args;
  for (size_t k = 1; k < e.kids.size(); ++k) args.push_back(e.kids[k].get());
  for (auto& kw : e.keywords) {
    if (kw.name == "last" && (name == "move_to_end" || name == "popitem")) {
      args.push_back(kw.value.get());
      continue;
    }
    error(kw.pos, "E1032", str_cat(name, "() got an unexpected keyword argument '", kw.name, "'"));
    return Ty::Error;
  }
  nargs = args.size();
  Ty key = key_of(base), val = dict_value(base);
  auto arity = [&](size_t lo, size_t hi) {
    if (nargs >= lo && nargs <= hi) return true;
    error(e.pos, "E1032",
          lo == hi ? str_cat(name, "() takes ", lo, " argument", lo == 1 ? "" : "s", " (", nargs, " given)")
                   : str_cat(name, "() takes ", lo, " to ", hi, " arguments (", nargs, " given)"));
    return false;
  };
  auto int_arg = [&](Expr* a, Ty want) {
    Ty t = value(*a, want);
    if (t == Ty::Error) return false;
    if (!(t == want || (want == Ty::Int && t == Ty::Bool) || (want == Ty::Bool && t == Ty::Int))) {
      error(a->pos, "E1030", str_cat(name, "() takes ", ty_name(want), ", not ", ty_name(t)));
      return false;
    }
    return true;
  };
  raises();  // AttributeError of a dict of another class, KeyError
  if (name == "elements") {  // a list of the keys, each repeated by its count (ppy_counter.h)
    if (!arity(0, 0)) return Ty::Error;
    effect("reads");
    return list_of(key);
  }
  if (name == "most_common" || name == "total") {
    if (!arity(0, name == "total" ? 0 : 1)) return Ty::Error;
    if (nargs == 1 && !int_arg(args[0], Ty::Int)) return Ty::Error;
    effect("reads");
    if (name == "total") return Ty::Int;
    if (is_tuple(key)) {
      error(e.pos, "E1010", "most_common() of a Counter of tuples is outside the ppy subset");
      return Ty::Error;
    }
    return list_of(tuple_of({key, val}));
  }
  if (name == "update" || name == "subtract") {
    if (!arity(1, 1)) return Ty::Error;
    Ty t = value(*args[0], Ty::Error);
    if (t == Ty::Error) return t;
    bool ok = (t == Ty::Str && key == Ty::Str) || (is_list(t) && list_elem(t) == key) ||
              (name == "update" && is_dict(t) && key_of(t) == key && dict_value(t) == val && val == Ty::Int);
    if (ok && is_list(t) && helped_key(key)) {
      error(args[0]->pos, "E1010", counted_by_eq(t, name + "()"));
      return Ty::Error;
    }
    if (!ok || val != Ty::Int || (name == "subtract" && t == Ty::Str)) {
      error(args[0]->pos, "E1010",
            str_cat(name, "() of ", ty_name(t), " on ", ty_name(base),
                    " is outside the ppy subset (a Counter counts a list of its keys, a str, or another Counter)"));
      return Ty::Error;
    }
    effect("reads");
    effect("writes");
    return Ty::None;
  }
  if (name == "move_to_end") {
    if (!arity(1, 2)) return Ty::Error;
    if (!int_arg(args[0], key == Ty::Int ? Ty::Int : key) || !object_key(key, args[0]->pos)) return Ty::Error;
    if (nargs == 2 && !int_arg(args[1], Ty::Bool)) return Ty::Error;
    effect("writes");
    return Ty::None;
  }
  // popitem(last=True)
  if (!arity(0, 1)) return Ty::Error;
  if (nargs == 1 && !int_arg(args[0], Ty::Bool)) return Ty::Error;
  effect("writes");
  return tuple_of({key, val});
}

}  // namespace ppy::frontend::checking
