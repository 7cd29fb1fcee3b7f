#include "check_dataclass.h"

#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend {

std::optional<ConstInfo> dataclass_field_default(const Expr& v, const std::string& callee,
                                                 const std::function<std::optional<ConstInfo>(const Expr&)>& fold,
                                                 const std::function<void(const char*, Pos, std::string)>& error,
                                                 bool* is_field_call) {
  *is_field_call = v.kind == ExprKind::Call && callee == "dataclasses.field";
  if (!*is_field_call) return std::nullopt;
  if (v.kids.size() != 1) {
    error("E1010", v.pos, "positional arguments of field() are outside the ppy subset (it takes keywords)");
    return std::nullopt;
  }
  const Keyword* given = nullptr;  // default= or default_factory=
  for (const Keyword& k : v.keywords) {
    if (k.name == "compare" || k.name == "repr") {  // read by the methods class_sugar writes (dataclass_options.h)
      if (!k.value || k.value->kind != ExprKind::Bool) {
        error("E1010", k.pos, str_cat("field(", k.name, "=...) takes a bool literal in the ppy subset"));
        return std::nullopt;
      }
      continue;
    }
    if (k.name != "default" && k.name != "default_factory") {
      error("E1010", k.pos,
            str_cat("field(", k.name,
                    "=...) is outside the ppy subset (field() takes default=, default_factory=, compare= and repr=)"));
      return std::nullopt;
    }
    if (given) {  // Python's ValueError when the class is made
      error("E1010", k.pos, "field() takes one of default= or default_factory= (Python: cannot specify both)");
      return std::nullopt;
    }
    given = &k;
  }
  if (!given) return std::nullopt;  // `field(compare=False)`: no default
  const Keyword& k = *given;
  if (k.name == "default" && k.value->kind == ExprKind::NoneLit) {  // `field(default=None)` of an Optional
    ConstInfo d;
    d.ty = none_value();
    d.pos = k.value->pos;
    return d;
  }
  if (k.name == "default") {
    std::optional<ConstInfo> d = fold(*k.value);
    if (!d) error("E1010", k.value->pos, "field(default=...) must be a constant int, float, bool or str expression");
    return d;
  }
  if (k.value->kind == ExprKind::Name && (k.value->str == "list" || k.value->str == "dict" || k.value->str == "set")) {
    ConstInfo d;
    d.ty = Ty::Error;  // the field's own type: the empty container takes it
    d.factory = k.value->str;
    d.pos = v.pos;
    return d;
  }
  error("E1010", k.value->pos,
        str_cat("field(", k.name, "=...) is outside the ppy subset (default_factory takes list, dict or set)"));
  return std::nullopt;
}

ExprPtr factory_default(const std::string& factory, Pos p) {
  auto e = std::make_unique<Expr>();
  e->pos = p;
  if (factory == "list") {
    e->kind = ExprKind::List;
  } else if (factory == "dict") {
    e->kind = ExprKind::Dict;
  } else {  // set(): the builtin's call
    e->kind = ExprKind::Call;
    auto callee = std::make_unique<Expr>();
    callee->kind = ExprKind::Name;
    callee->pos = p;
    callee->str = "set";
    e->kids.push_back(std::move(callee));
  }
  return e;
}

}  // namespace ppy::frontend
