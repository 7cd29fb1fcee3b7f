#include "check_dataclass.h"

#include "ppy/util/str_cat.h"

namespace ppy::frontend {

std::optional<ConstInfo> dataclass_field_default(const Expr& v, const std::string& callee,
                                                 const std::function<std::optional<ConstInfo>(const Expr&)>& fold,
                                                 const std::function<void(const char*, Pos, std::string)>& error,
                                                 bool* is_field_call) {
  *is_field_call = v.kind == ExprKind::Call && callee == "dataclasses.field";
  if (!*is_field_call) return std::nullopt;
  if (v.kids.size() != 1 || v.keywords.size() != 1) {
    error("E1010", v.pos,
          "field() takes one of default= or default_factory= in the ppy subset (its other options are outside it)");
    return std::nullopt;
  }
  const Keyword& k = v.keywords[0];
  if (k.name == "default") {
    std::optional<ConstInfo> d = fold(*k.value);
    if (!d) error("E1010", k.value->pos, "field(default=...) must be a constant int, float, bool or str expression");
    return d;
  }
  if (k.name == "default_factory" && k.value->kind == ExprKind::Name &&
      (k.value->str == "list" || k.value->str == "dict" || k.value->str == "set")) {
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
