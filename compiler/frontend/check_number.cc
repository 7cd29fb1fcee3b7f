// The body checker, numeric builtins (docs/language.md, "Numbers"): `int(s,
// base)`, `hex`, `oct`, `bin`, `round`, `divmod` and `pow`.
#include <string>

#include "body_checker.h"
#include "checker_internal.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

bool is_number_builtin(const std::string& n) {
  return n == "hex" || n == "oct" || n == "bin" || n == "round" || n == "divmod" || n == "pow";
}

Ty BodyChecker::number_builtin(Expr& e, const std::string& n) {
  size_t nargs = e.kids.size() - 1;
  bool base = n == "int";  // int(s, base)
  size_t lo = base || n == "divmod" || n == "pow" ? 2 : 1;
  size_t hi = n == "pow" ? 3 : n == "round" ? 2 : lo;
  if (!e.keywords.empty()) {
    refuse_keyword(e.keywords[0], n);  // `ndigits=` (E1010), `ndigit=` (E1032, "did you mean"), abs(x=) (none taken)
    return Ty::Error;
  }
  if (nargs < lo || nargs > hi) {
    error(e.pos, "E1032",
          lo == hi ? str_cat(n, "() takes exactly ", lo, " argument", lo == 1 ? "" : "s", " (", nargs, " given)")
                   : str_cat(n, "() takes ", lo, " to ", hi, " arguments (", nargs, " given)"));
    return Ty::Error;
  }
  std::vector<Ty> ts;
  for (size_t k = 1; k <= nargs; ++k) {
    Ty t = value(*e.kids[k], base && k == 1 ? Ty::Str : Ty::Int);
    if (t == Ty::Error) return t;
    ts.push_back(t);
  }
  auto integer = [&](size_t k) {
    if (ts[k] == Ty::Int || ts[k] == Ty::Bool) return true;
    error(e.kids[k + 1]->pos, "E1030", str_cat("'", ty_name(ts[k]), "' object cannot be interpreted as an integer"));
    return false;
  };
  auto number = [&](size_t k) {
    if (is_numeric(ts[k])) return true;
    error(e.kids[k + 1]->pos, "E1030",
          n == "round" ? str_cat("type ", ty_name(ts[k]), " doesn't define __round__ method")
                       : str_cat("unsupported operand type(s) for ", n, "(): '", ty_name(ts[k]), "'"));
    return false;
  };
  e.target = base ? "int.base" : n;
  if (base) {
    if (ts[0] != Ty::Str) {
      error(e.kids[1]->pos, "E1030", "int() can't convert non-string with explicit base");
      return Ty::Error;
    }
    if (!integer(1)) return Ty::Error;
    raises();  // ValueError
    return Ty::Int;
  }
  if (n == "hex" || n == "oct" || n == "bin") return integer(0) ? Ty::Str : Ty::Error;
  if (n == "round") {
    if (!number(0) || (nargs == 2 && !integer(1))) return Ty::Error;
    raises();  // OverflowError / ValueError of inf and nan
    return ts[0] == Ty::Float && nargs == 2 ? Ty::Float : Ty::Int;
  }
  if (!number(0) || !number(1)) return Ty::Error;
  if (n == "divmod") {
    Ty t = arith("//", ts[0], ts[1], e.pos);
    if (t == Ty::Error) return t;
    return tuple_of({t, t});
  }
  // pow
  if (nargs == 2) return arith("**", ts[0], ts[1], e.pos);
  if (!integer(0) || !integer(1) || !integer(2)) {
    if (ts[0] == Ty::Float || ts[1] == Ty::Float || ts[2] == Ty::Float)
      error(e.pos, "E1030", "pow() 3rd argument not allowed unless all arguments are integers");
    return Ty::Error;
  }
  raises();  // ValueError of a zero modulus or a base with no inverse
  return Ty::Int;
}

}  // namespace ppy::frontend::checking
