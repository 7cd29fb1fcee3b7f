// The body checker's exception classes (docs/language.md, "Exceptions"):
// raising an instance, catching by class, BaseException's arguments and
// `super().__init__(...)`, `as e` of a class of the program.
#include "body_checker.h"
#include "builtin_exceptions.h"
#include "exception_classes.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

bool BodyChecker::exception_args(Expr& e) {
  if (!e.keywords.empty()) {
    error(e.keywords[0].value->pos, "E1032", "an exception takes no keyword arguments");
    return false;
  }
  bool ok = true;
  for (size_t i = 1; i < e.kids.size(); ++i) {
    Expr& a = *e.kids[i];
    Ty t = value(a, Ty::Error);
    std::string why;
    if (t == Ty::Error) {
      ok = false;
    } else if (t != Ty::Str && !is_numeric(t) && !is_exception_class(t) && !printable(t, &why)) {
      error(a.pos, "E1010", str_cat("an exception argument of type ", ty_name(t), " is outside the ppy subset"));
      ok = false;
    } else {
      a.param_index = static_cast<int>(i - 1);
    }
  }
  return ok;
}

Ty BodyChecker::base_exception_init(Expr& e) {
  e.ref = Ref::Super;
  e.target = std::string(kBaseExceptionInit);
  effect("writes");
  return exception_args(e) ? Ty::None : Ty::Error;
}

void BodyChecker::raise_value(Stmt& s) {
  Expr& v = *s.value;
  if (v.kind == ExprKind::Name && !types_.count(v.str) && m_.classes.count(v.str)) {
    error(v.pos, "E1010", str_cat("raising class '", v.str, "' itself is outside the ppy subset: raise ", v.str, "()"));
    return;
  }
  Pos outer = cur_pos_;
  flow_.reachable = true;
  Ty t = value(v, Ty::Error);
  flow_.reachable = false;
  cur_pos_ = outer;
  if (t != Ty::Exc && t != Ty::Error && !is_exception_class(t))
    error(v.pos, "E1030", str_cat("exceptions must derive from BaseException, not ", ty_name(t)));
}

void BodyChecker::raise_cause(Stmt& s) {
  if (!s.annotation) return;
  Expr& c = *s.annotation;
  if (c.kind == ExprKind::NoneLit) return;
  bool was = flow_.reachable;
  flow_.reachable = true;
  Ty t = value(c, Ty::Error);
  flow_.reachable = was;
  if (t != Ty::Exc && t != Ty::Error && !is_exception_class(t))
    error(c.pos, "E1030", str_cat("exception causes must derive from BaseException, not ", ty_name(t)));
}

Ty BodyChecker::handler_type(Handler& h) {
  Ty common = Ty::Error;
  bool objects = !h.classes.empty();
  for (auto& c : h.classes) {
    auto ci = m_.classes.find(c);
    if (ci != m_.classes.end() && is_exception_class(ci->second)) {
      common = common == Ty::Error ? ci->second : common_class(common, ci->second);
      if (common == Ty::Error) objects = false;
      continue;
    }
    objects = false;
    if (!is_builtin_exception(c))
      error(h.pos, "E1010",
            str_cat("catching '", c,
                    "' is outside the ppy subset (builtin exceptions and the module's exception classes only)"));
  }
  return objects && common != Ty::Error ? common : Ty::Exc;
}

}  // namespace ppy::frontend::checking
