// The body checker, Counter's arithmetic (docs/stdlib.md, "collections"):
// `c1 + c2`, `c1 - c2`, `c1 | c2`, `c1 & c2` of two dicts of the same type
// with int values (a Counter is typed as the dict it derives from), one runtime
// call (ppy_counter.h) that keeps Python's rules: the result is a new Counter
// of the positive counts, and dicts that are not Counters raise TypeError (but
// `|`, Python's dict merge).
#include <string>

#include "body_checker.h"
#include "checker_internal.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

Ty BodyChecker::counter_binary(Expr& e, Ty a, Ty b) {
  const std::string& op = e.str;
  int code = op == "+" ? 0 : op == "-" ? 1 : op == "|" ? 2 : op == "&" ? 3 : -1;
  if (code < 0 || a != b || dict_value(a) != Ty::Int || is_set(a)) {
    error(e.pos, "E1010",
          str_cat("'", op, "' of ", ty_name(a), " and ", ty_name(b),
                  " is outside the ppy subset (it takes + - | & of two Counters of one key type)"));
    return Ty::Error;
  }
  e.target = "counter.binop";
  e.ival = code;
  effect("reads");
  raises();  // TypeError of dicts that are not Counters, OverflowError
  return a;
}

}  // namespace ppy::frontend::checking
