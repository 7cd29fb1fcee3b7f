// Checking, exceptions as values (issue 32, docs/language.md "Exceptions"): what a
// parameter, element or `__exit__` argument typed `Exception` allows beyond the
// caught exception's str(), repr() and type name.
#include "body_checker.h"
#include "builtin_exceptions.h"
#include "checker_internal.h"
#include "exception_classes.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::checking {

Ty BodyChecker::exception_isinstance(Expr& e) {
  Expr& k = *e.kids[2];
  std::vector<Expr*> names;
  if (k.kind == ExprKind::Tuple)
    for (auto& x : k.kids) names.push_back(x.get());
  else
    names.push_back(&k);
  bool ok = true;
  for (Expr* x : names) {
    auto path = dotted(*x);
    auto ci = path ? m_.classes.find(*path) : m_.classes.end();
    bool own = ci != m_.classes.end() && is_exception_class(ci->second);
    bool builtin = x->kind == ExprKind::Name && ci == m_.classes.end() && !types_.count(x->str) &&
                   is_builtin_exception(x->str);
    if (!own && !builtin) {
      error(x->pos, "E1010",
            "isinstance() of an exception takes an exception class (builtin or of the program) or a tuple of "
            "those in the ppy subset");
      ok = false;
    }
  }
  if (!ok) return Ty::Error;
  e.target = "exc.isinstance";
  effect("reads");
  return Ty::Bool;
}

}  // namespace ppy::frontend::checking
