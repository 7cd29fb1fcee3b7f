// The body checker, an IntEnum member where Python takes it as the int it is
// (issue 32, docs/language.md "Enums"): compared with an int or a float (`p == 2`,
// `p < 3`, `1 <= p <= 3`) and given to int() or float(). The member is rewritten as
// `p.value`, which enum_classes.cc gives every member; `p + 1` and the comparisons
// of two members are the class's own methods already.
#include "body_checker.h"
#include "expr_build.h"
#include "imported_classes.h"  // owner_of
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

bool BodyChecker::is_int_enum(Ty t) const {
  if (!is_class(t)) return false;
  const ClassInfo& c = *class_info(t);
  int v = c.field("value");
  // What enum_classes.cc writes for an IntEnum: an int `value`, the reflected arithmetic, the members' list.
  return v >= 0 && c.fields[static_cast<size_t>(v)].second == Ty::Int && c.methods.count("__radd__") &&
         c.methods.count("__rmul__") &&
         owner_of(m_, t).module_vars.count(str_cat("__ppy_", c.name, "_members"));  // an imported IntEnum's too
}

bool BodyChecker::int_enum_as_int(ExprPtr& x, Ty& t) {
  if (!is_int_enum(t)) return false;
  Pos p = x->pos;
  std::vector<ExprPtr> kids;
  kids.push_back(std::move(x));
  x = build::with_kids(ExprKind::Attribute, p, std::move(kids), "value");
  t = value(*x, Ty::Error);
  return true;
}

void BodyChecker::int_enum_operands(Expr& e, std::vector<Ty>& ts) {
  auto by_value = [&](size_t op) {
    return e.ops[op] != "is" && e.ops[op] != "is not" && e.ops[op] != "in" && e.ops[op] != "not in";
  };
  std::vector<bool> wrap(ts.size(), false);
  for (size_t i = 0; i < ts.size(); ++i) {
    if (!is_int_enum(ts[i])) continue;
    bool left = i > 0 && is_numeric(ts[i - 1]) && by_value(i - 1);
    bool right = i + 1 < ts.size() && is_numeric(ts[i + 1]) && by_value(i);
    wrap[i] = left || right;
  }
  for (size_t i = 0; i < ts.size(); ++i)
    if (wrap[i]) int_enum_as_int(e.kids[i], ts[i]);
}

}  // namespace ppy::frontend::checking
