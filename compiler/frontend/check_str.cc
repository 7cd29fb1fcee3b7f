// The body checker, strings: operators, subscripts, methods and str() of the
// `str` type (docs/language.md, "Strings").
#include <map>
#include <string>
#include <vector>

#include "body_checker.h"
#include "checker_internal.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::checking {

Ty BodyChecker::str_binary(Expr& e, Ty a, Ty b) {
  const std::string& op = e.str;
  if (op == "+" && a == Ty::Str && b == Ty::Str) return Ty::Str;
  if (op == "*" &&
      ((a == Ty::Str && (b == Ty::Int || b == Ty::Bool)) || (b == Ty::Str && (a == Ty::Int || a == Ty::Bool)))) {
    raises();  // MemoryError for a result that cannot be held
    return Ty::Str;
  }
  if (op == "%" && a == Ty::Str) {
    error(e.pos, "E1010", "%-formatting of a str is outside the ppy subset");
    return Ty::Error;
  }
  error(e.pos, "E1030",
        op == "+" ? str_cat("can only concatenate str (not \"", ty_name(a == Ty::Str ? b : a), "\") to str")
                  : str_cat("unsupported operand types for ", op, ": ", ty_name(a), " and ", ty_name(b)));
  return Ty::Error;
}

Ty BodyChecker::str_subscript(Expr& e) {
  Expr& i = *e.kids[1];
  raises();  // IndexError, or a zero step's ValueError
  if (i.kind != ExprKind::Slice) {
    Ty t = value(i, Ty::Int);
    if (t != Ty::Error && t != Ty::Int && t != Ty::Bool) {
      error(i.pos, "E1030", str_cat("string indices must be integers, not ", ty_name(t)));
      return Ty::Error;
    }
    return Ty::Str;
  }
  bool ok = true;
  for (auto& k : i.kids) {
    Ty t = value(*k, Ty::Int);
    if (t != Ty::Error && t != Ty::Int && t != Ty::Bool) {
      error(k->pos, "E1030", str_cat("slice indices must be integers, not ", ty_name(t)));
      ok = false;
    }
    if (t == Ty::Error) ok = false;
  }
  i.ty = Ty::Int;
  return ok ? Ty::Str : Ty::Error;
}

Ty BodyChecker::str_method(Expr& e, Expr& callee, Ty base) {
  // name -> (arguments, all str; result)
  static const std::map<std::string, std::pair<size_t, Ty>> kMethods = {
      {"upper", {0, Ty::Str}},  {"lower", {0, Ty::Str}},       {"strip", {0, Ty::Str}},     {"lstrip", {0, Ty::Str}},
      {"rstrip", {0, Ty::Str}}, {"startswith", {1, Ty::Bool}}, {"endswith", {1, Ty::Bool}}, {"find", {1, Ty::Int}},
      {"count", {1, Ty::Int}},  {"replace", {2, Ty::Str}},
  };
  (void)base;
  const std::string& name = callee.str;
  auto it = kMethods.find(name);
  if (it == kMethods.end()) {
    for (size_t k = 1; k < e.kids.size(); ++k) value(*e.kids[k], Ty::Error);
    error(callee.pos, "E1010", str_cat("the str method '", name, "' is outside the ppy subset"));
    return Ty::Error;
  }
  size_t nargs = e.kids.size() - 1;
  if (!e.keywords.empty()) {
    error(e.keywords[0].pos, "E1032", str_cat("str.", name, "() takes no keyword arguments"));
    return Ty::Error;
  }
  if (nargs != it->second.first) {
    bool optional = name.find("strip") != std::string::npos || name == "find" || name == "count" ||
                    name == "startswith" || name == "endswith" || name == "replace";
    error(e.pos, optional && nargs > it->second.first ? "E1010" : "E1032",
          optional && nargs > it->second.first
              ? str_cat("str.", name, "() with ", nargs, " arguments is outside the ppy subset (it takes ",
                        it->second.first, ")")
              : str_cat("str.", name, "() takes exactly ", it->second.first, " argument",
                        it->second.first == 1 ? "" : "s", " (", nargs, " given)"));
    return Ty::Error;
  }
  bool ok = true;
  for (size_t k = 1; k < e.kids.size(); ++k) {
    Ty t = value(*e.kids[k], Ty::Str);
    if (t == Ty::Error) {
      ok = false;
    } else if (t != Ty::Str) {
      error(e.kids[k]->pos, "E1030", str_cat("str.", name, "() takes str arguments, not ", ty_name(t)));
      ok = false;
    }
  }
  e.ref = Ref::Builtin;
  e.target = "str." + name;
  return ok ? it->second.second : Ty::Error;
}

Ty BodyChecker::str_call(Expr& e) {
  size_t nargs = e.kids.size() - 1;
  if (!e.keywords.empty() || nargs > 1) {
    error(e.pos, "E1032", str_cat("str() takes at most 1 argument (", nargs, " given)"));
    return Ty::Error;
  }
  if (nargs == 0) return Ty::Str;
  Ty t = value(*e.kids[1], Ty::Error);
  if (t == Ty::Error) return t;
  if (!is_numeric(t) && t != Ty::Str) {
    error(e.kids[1]->pos, "E1010", str_cat("str() of ", ty_name(t), " is outside the ppy subset"));
    return Ty::Error;
  }
  return Ty::Str;
}

}  // namespace ppy::frontend::checking
