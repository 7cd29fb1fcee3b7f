// The body checker, `type(x).__name__` and `type(x) is C` (issue 32): rewritten
// into what the checker already has, so every road runs them as it runs a str
// constant or isinstance():
//
//   type(n).__name__        "int"                       (n: int; a list "list", ...)
//   type(s).__name__        "Circle" if isinstance(s, Circle) else
//                           ("Square" if isinstance(s, Square) else "Shape")
//   type(s) is Circle       isinstance(s, Circle) and not isinstance(s, Unit)
//                           (Unit, Circle's subclass)
//
// `x` is a name or a field of one (`self.shape`): read more than once, it must
// have no effect. `type(e).__name__` of an `except ... as e` is the caught
// exception's name (lowered as its first field, lower_expressions.cc). Anything else of `type` (`type(x)` as a value,
// printed or compared with another `type(y)`) stays outside (E1010).
#include <functional>

#include "body_checker.h"
#include "expr_build.h"
#include "generic_classes.h"  // shown_name
#include "imported_classes.h"
#include "ppy/util/str_cat.h"
#include "types.h"
#include "unions.h"

namespace ppy::frontend::checking {
namespace {

/// Whether `k` is the call `type(x)` of the builtin.
bool is_type_call(const Expr& k) {
  return k.kind == ExprKind::Call && k.kids.size() == 2 && k.keywords.empty() && k.kids[0]->kind == ExprKind::Name &&
         k.kids[0]->str == "type";
}

/// A name or a field of one: what may be read again with no effect.
bool rereadable(const Expr& x) {
  if (x.kind == ExprKind::Name) return true;
  return x.kind == ExprKind::Attribute && x.kids.size() == 1 && rereadable(*x.kids[0]);
}

/// Python's `type(v).__name__` for a value of builtin type `t`; empty when ppy
/// cannot tell it from `t` alone.
std::string builtin_type_name(Ty t) {
  switch (t) {
    case Ty::Int:
      return "int";
    case Ty::Float:
      return "float";
    case Ty::Bool:
      return "bool";
    case Ty::Str:
      return "str";
    case Ty::File:
      return "TextIOWrapper";
    default:
      break;
  }
  if (is_list(t)) return "list";
  if (is_dict(t)) return "dict";
  if (is_set(t)) return "set";
  if (is_tuple(t)) return "tuple";
  if (is_none_value(t)) return "NoneType";
  return "";
}

/// Class `t` and every class below it, each subclass after its base.
void subtree(Ty t, std::vector<Ty>& out) {
  out.push_back(t);
  for (Ty s : class_info(t)->subclasses) subtree(s, out);
}

ExprPtr str_lit(const std::string& s, Pos p) { return build::node(ExprKind::Str, p, s); }

ExprPtr isinstance_of(const Expr& x, const std::string& k, Pos p) {
  std::vector<ExprPtr> args;
  args.push_back(build::clone(x));
  args.push_back(build::name(k, p));
  return build::call(build::name("isinstance", p), std::move(args), p);
}

ExprPtr not_of(ExprPtr a, Pos p) {
  std::vector<ExprPtr> kids;
  kids.push_back(std::move(a));
  return build::with_kids(ExprKind::Unary, p, std::move(kids), "not");
}

ExprPtr and_of(ExprPtr a, ExprPtr b, Pos p) {
  std::vector<ExprPtr> kids;
  kids.push_back(std::move(a));
  kids.push_back(std::move(b));
  return build::with_kids(ExprKind::BoolOp, p, std::move(kids), "and");
}

/// The name of an alternative a runtime test tells apart: a class (its
/// subclasses first) or a builtin type (bool before int: a bool is an int).
struct Alt {
  std::string test;  ///< what isinstance() takes
  std::string name;  ///< `__name__`
};

/// The alternatives of a value of static type `t`, most specific first; false
/// when one of them has no name ppy knows.
bool alternatives(ModuleInfo& m, Ty t, std::vector<Alt>& out) {
  std::vector<Ty> alts = is_union(t) ? union_alts(t) : std::vector<Ty>{t};
  std::stable_sort(alts.begin(), alts.end(), [](Ty a, Ty b) { return a == Ty::Bool && b != Ty::Bool; });
  for (Ty a : alts) {
    if (is_class(a)) {
      std::vector<Ty> classes;
      subtree(a, classes);
      for (size_t i = classes.size(); i-- > 0;)
        out.push_back({class_spelling(m, classes[i]), shown_name(*class_info(classes[i]))});
      continue;
    }
    std::string n = builtin_type_name(a);
    if (n.empty() || n == "NoneType" || n == "TextIOWrapper") return false;
    out.push_back({n, n});
  }
  return true;
}

}  // namespace

std::optional<Ty> BodyChecker::type_name_attribute(Expr& e) {
  if (e.str != "__name__" || e.kids.size() != 1 || !is_type_call(*e.kids[0]) || types_.count("type"))
    return std::nullopt;
  Expr& x = *e.kids[0]->kids[1];
  Pos p = e.pos;
  if (!rereadable(x)) {
    error(x.pos, "E1010",
          "type(x).__name__ of an expression other than a name or a field is outside the ppy subset (assign it to a "
          "local first)");
    return Ty::Error;
  }
  ExprPtr probe = build::clone(x);
  Ty t = value(*probe, Ty::Error);
  if (t == Ty::Error) return Ty::Error;
  if (t == Ty::Exc) {  // `except ... as e`: the runtime's class name, the exception's first field
    e.kids[0] = std::move(probe);
    e.target = "exc.__name__";
    return Ty::Str;
  }
  ExprPtr out;
  if (std::string n = builtin_type_name(t); !n.empty()) {
    out = str_lit(n, p);
  } else {
    Ty inner = is_optional(t) ? optional_inner(t) : t;
    std::vector<Alt> alts;
    if (!alternatives(m_, inner, alts)) {
      error(x.pos, "E1010", str_cat("type(x).__name__ of ", ty_name(t), " is outside the ppy subset"));
      return Ty::Error;
    }
    out = str_lit(alts.back().name, p);
    for (size_t i = alts.size() - 1; i-- > 0;)
      out = build::if_exp(isinstance_of(x, alts[i].test, p), str_lit(alts[i].name, p), std::move(out), p);
    if (is_optional(t)) {
      std::vector<ExprPtr> kids;
      kids.push_back(build::clone(x));
      kids.push_back(build::node(ExprKind::NoneLit, p));
      ExprPtr none_test = build::with_kids(ExprKind::Compare, p, std::move(kids));
      none_test->ops.push_back("is");
      out = build::if_exp(std::move(none_test), str_lit("NoneType", p), std::move(out), p);
    }
  }
  e = std::move(*out);
  return value(e, Ty::Error);
}

std::optional<Ty> BodyChecker::type_compare(Expr& e) {
  if (e.ops.size() != 1 || e.kids.size() != 2) return std::nullopt;
  const std::string& op = e.ops[0];
  if (op != "is" && op != "is not" && op != "==" && op != "!=") return std::nullopt;
  size_t side = is_type_call(*e.kids[0]) ? 0 : is_type_call(*e.kids[1]) ? 1 : 2;
  if (side == 2 || types_.count("type")) return std::nullopt;
  Expr& x = *e.kids[side]->kids[1];
  const Expr& k = *e.kids[1 - side];
  Pos p = e.pos;
  if (k.kind != ExprKind::Name || !rereadable(x)) {
    error(e.pos, "E1010",
          "type(x) compared with anything but a class or builtin type by name, or of an expression other than a name "
          "or a field, is outside the ppy subset");
    return Ty::Error;
  }
  ExprPtr probe = build::clone(x);
  Ty t = value(*probe, Ty::Error);
  if (t == Ty::Error) return Ty::Error;
  static const std::set<std::string> kBuiltins = {"int", "float", "bool", "str", "list", "dict", "set", "tuple"};
  auto cls = m_.classes.find(k.str);
  ExprPtr out;
  if (cls != m_.classes.end() && is_class(cls->second)) {
    out = isinstance_of(x, k.str, p);
    for (Ty s : class_info(cls->second)->subclasses)
      out = and_of(std::move(out), not_of(isinstance_of(x, class_spelling(m_, s), p), p), p);
  } else if (kBuiltins.count(k.str) && !types_.count(k.str)) {
    Ty inner = is_optional(t) ? optional_inner(t) : t;
    if (std::string n = builtin_type_name(t); !n.empty()) {
      out = build::node(ExprKind::Bool, p);
      out->bval = n == k.str;
    } else if (is_union(inner)) {
      out = isinstance_of(x, k.str, p);
      auto alts = union_alts(inner);
      if (k.str == "int" && std::find(alts.begin(), alts.end(), Ty::Bool) != alts.end())
        out = and_of(std::move(out), not_of(isinstance_of(x, "bool", p), p), p);
    } else {
      out = build::node(ExprKind::Bool, p);
      out->bval = false;  // an object (or None) is never of a builtin type
      if (is_optional(t) && !is_class(inner)) {
        error(e.pos, "E1010", str_cat("type(x) is ", k.str, " of ", ty_name(t), " is outside the ppy subset"));
        return Ty::Error;
      }
    }
  } else {
    error(k.pos, "E1010",
          str_cat("type(x) compared with '", k.str,
                  "' is outside the ppy subset (it takes a class of the module or a builtin type)"));
    return Ty::Error;
  }
  if (op == "is not" || op == "!=") out = not_of(std::move(out), p);
  e = std::move(*out);
  return value(e, Ty::Error);
}

}  // namespace ppy::frontend::checking
