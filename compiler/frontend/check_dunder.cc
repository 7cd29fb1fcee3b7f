// The body checker's special methods (docs/language.md, "Classes"): an
// operator, len(), a subscript, a call or a truth test of an instance whose
// class defines the method is rewritten into that method call (`a + b` is
// `a.__add__(b)`), which lowering dispatches as any other.
#include "body_checker.h"
#include "expr_build.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {
namespace {

/// Whether instances of `t` have method `name`.
bool has_method(Ty t, const char* name) { return is_class(t) && class_info(t)->methods.count(name) != 0; }

ExprPtr node(ExprKind k, Pos p) {
  auto e = std::make_unique<Expr>();
  e->kind = k;
  e->pos = p;
  return e;
}

/// Makes `e` the call `self.name(args...)`.
void make_call(Expr& e, ExprPtr self, const char* name, std::vector<ExprPtr> args) {
  auto callee = node(ExprKind::Attribute, e.pos);
  callee->str = name;
  callee->ty = Ty::Error;
  callee->kids.push_back(std::move(self));
  Pos p = e.pos;
  e = Expr{};
  e.kind = ExprKind::Call;
  e.pos = p;
  e.kids.push_back(std::move(callee));
  for (auto& a : args) e.kids.push_back(std::move(a));
}

}  // namespace

Ty BodyChecker::dunder_call(Expr& e, ExprPtr self, const char* name, std::vector<ExprPtr> args) {
  Ty st = self->ty;
  make_call(e, std::move(self), name, std::move(args));
  return method_call(e, *e.kids[0], st);
}

Ty BodyChecker::negated_dunder(Expr& e, ExprPtr self, const char* name, std::vector<ExprPtr> args) {
  Pos p = e.pos;
  auto call = node(ExprKind::Call, p);
  Ty t = dunder_call(*call, std::move(self), name, std::move(args));
  call->ty = t;
  if (t == Ty::Error) return t;
  e = Expr{};
  e.kind = ExprKind::Unary;
  e.pos = p;
  e.str = "not";
  e.kids.push_back(std::move(call));
  return Ty::Bool;
}

Ty BodyChecker::dunder_binary(Expr& e, Ty a, Ty b) {
  static const std::map<std::string, std::pair<const char*, const char*>> kOps = {
      {"+", {"__add__", "__radd__"}},
      {"-", {"__sub__", "__rsub__"}},
      {"*", {"__mul__", "__rmul__"}},
      {"/", {"__truediv__", "__rtruediv__"}},
      {"//", {"__floordiv__", "__rfloordiv__"}},
      {"%", {"__mod__", "__rmod__"}},
      {"@", {"__matmul__", "__rmatmul__"}},
      {"**", {"__pow__", "__rpow__"}}};
  auto it = kOps.find(e.str);
  if (it == kOps.end()) return Ty::Error;
  std::vector<ExprPtr> arg;
  if (has_method(a, it->second.first)) {
    arg.push_back(std::move(e.kids[1]));
    return dunder_call(e, std::move(e.kids[0]), it->second.first, std::move(arg));
  }
  if (has_method(b, it->second.second)) {
    arg.push_back(std::move(e.kids[0]));
    return dunder_call(e, std::move(e.kids[1]), it->second.second, std::move(arg));
  }
  error(e.pos, "E1030",
        str_cat("unsupported operand type(s) for ", e.str, ": '", ty_name(a), "' and '", ty_name(b), "'"));
  return Ty::Error;
}

Ty BodyChecker::dunder_compare(Expr& e, Ty a, Ty b) {
  const std::string op = e.ops[0];
  static const std::map<std::string, std::pair<const char*, const char*>> kOps = {
      {"<", {"__lt__", "__gt__"}},  {"<=", {"__le__", "__ge__"}}, {">", {"__gt__", "__lt__"}},
      {">=", {"__ge__", "__le__"}}, {"==", {"__eq__", "__eq__"}}, {"!=", {"__ne__", "__ne__"}}};
  std::vector<ExprPtr> arg;
  if (op == "in" || op == "not in") {
    arg.push_back(std::move(e.kids[0]));
    if (op == "in") return dunder_call(e, std::move(e.kids[1]), "__contains__", std::move(arg));
    return negated_dunder(e, std::move(e.kids[1]), "__contains__", std::move(arg));
  }
  auto it = kOps.find(op);
  if (it == kOps.end()) return Ty::Error;
  if (has_method(a, it->second.first)) {
    arg.push_back(std::move(e.kids[1]));
    return dunder_call(e, std::move(e.kids[0]), it->second.first, std::move(arg));
  }
  if (has_method(b, it->second.second)) {
    arg.push_back(std::move(e.kids[0]));
    return dunder_call(e, std::move(e.kids[1]), it->second.second, std::move(arg));
  }
  // `!=` without __ne__: not __eq__, as Python's default __ne__.
  if (op == "!=" && has_method(a, "__eq__")) {
    arg.push_back(std::move(e.kids[1]));
    return negated_dunder(e, std::move(e.kids[0]), "__eq__", std::move(arg));
  }
  return Ty::Error;
}

bool BodyChecker::compares_by_dunder(const Expr& e, const std::vector<Ty>& ts) const {
  if (ts.size() != 2) return false;
  const std::string& op = e.ops[0];
  if (op == "is" || op == "is not") return false;
  if (op == "in" || op == "not in") return has_method(ts[1], "__contains__");
  static const std::map<std::string, std::vector<const char*>> kNames = {
      {"<", {"__lt__", "__gt__"}},  {"<=", {"__le__", "__ge__"}}, {">", {"__gt__", "__lt__"}},
      {">=", {"__ge__", "__le__"}}, {"==", {"__eq__", "__eq__"}}, {"!=", {"__ne__", "__ne__", "__eq__"}}};
  auto it = kNames.find(op);
  if (it == kNames.end()) return false;
  const auto& n = it->second;
  return has_method(ts[0], n[0]) || has_method(ts[1], n[1]) || (n.size() > 2 && has_method(ts[0], n[2]));
}

Ty BodyChecker::dunder_unary(Expr& e, Ty t) {
  const char* name = e.str == "-" ? "__neg__" : e.str == "+" ? "__pos__" : e.str == "~" ? "__invert__" : nullptr;
  if (!name || !has_method(t, name)) {
    error(e.pos, "E1030", str_cat("bad operand type for unary ", e.str, ": '", ty_name(t), "'"));
    return Ty::Error;
  }
  return dunder_call(e, std::move(e.kids[0]), name, {});
}

Ty BodyChecker::dunder_callable(Expr& e) {
  Ty t = value(*e.kids[0], Ty::Error);
  if (t == Ty::Error) return t;
  auto callee = node(ExprKind::Attribute, e.pos);
  callee->str = "__call__";
  callee->kids.push_back(std::move(e.kids[0]));
  e.kids[0] = std::move(callee);
  return method_call(e, *e.kids[0], t);
}

bool BodyChecker::setitem_stmt(Stmt& s) {
  if (s.targets.size() != 1 || s.targets[0]->kind != ExprKind::Subscript) return false;
  Expr& base = *s.targets[0]->kids[0];
  if (base.kind != ExprKind::Name) return false;
  auto it = types_.find(base.str);
  if (it == types_.end() || !has_method(it->second, "__setitem__")) return false;
  Pos p = s.targets[0]->pos;
  auto callee = node(ExprKind::Attribute, p);
  callee->str = "__setitem__";
  callee->kids.push_back(std::move(s.targets[0]->kids[0]));
  auto call = node(ExprKind::Call, p);
  call->kids.push_back(std::move(callee));
  call->kids.push_back(std::move(s.targets[0]->kids[1]));
  call->kids.push_back(std::move(s.value));
  s.targets.clear();
  s.value = std::move(call);
  s.kind = StmtKind::Expr;
  return true;
}

bool BodyChecker::aug_dunder(Stmt& s) {
  static const std::map<std::string, const char*> kInPlace = {
      {"+", "__iadd__"},       {"-", "__isub__"}, {"*", "__imul__"},    {"/", "__itruediv__"},
      {"//", "__ifloordiv__"}, {"%", "__imod__"}, {"@", "__imatmul__"}, {"**", "__ipow__"}};
  Expr& t = *s.targets[0];
  Ty tt = Ty::Error;
  if (t.kind == ExprKind::Name) {
    if (auto it = types_.find(t.str); it != types_.end()) tt = it->second;
  } else if (t.kind == ExprKind::Attribute && t.kids[0]->kind == ExprKind::Name) {  // read twice: a name only
    tt = field_type_hint(t);
  }
  auto op = kInPlace.find(s.op);
  if (!is_class(tt) || op == kInPlace.end()) return false;
  ExprPtr v;
  if (has_method(tt, op->second)) {  // `x = x.__iadd__(v)`: it returns the object (self, as a rule)
    auto callee = node(ExprKind::Attribute, s.pos);
    callee->str = op->second;
    callee->kids.push_back(build::clone(t));
    v = node(ExprKind::Call, s.pos);
    v->kids.push_back(std::move(callee));
    v->kids.push_back(std::move(s.value));
  } else {  // `x = x + v`: __add__, or the right operand's __radd__
    v = node(ExprKind::Binary, s.pos);
    v->str = s.op;
    v->kids.push_back(build::clone(t));
    v->kids.push_back(std::move(s.value));
  }
  s.kind = StmtKind::Assign;
  s.op.clear();
  s.value = std::move(v);
  return true;
}

Ty BodyChecker::dunder_abs(Expr& e) { return dunder_call(e, std::move(e.kids[1]), "__abs__", {}); }

Ty BodyChecker::dunder_len(Expr& e) { return dunder_call(e, std::move(e.kids[1]), "__len__", {}); }

void BodyChecker::dunder_truth(Expr& e) {
  if (has_method(e.ty, "__bool__")) {
    auto self = std::make_unique<Expr>(std::move(e));
    dunder_call(e, std::move(self), "__bool__", {});
    e.ty = Ty::Bool;
    return;
  }
  if (has_method(e.ty, "__len__")) {  // true when its len() is not 0
    Pos p = e.pos;
    auto self = std::make_unique<Expr>(std::move(e));
    auto call = node(ExprKind::Call, p);
    call->ty = dunder_call(*call, std::move(self), "__len__", {});
    auto zero = node(ExprKind::Int, p);
    zero->ty = Ty::Int;
    e = Expr{};
    e.kind = ExprKind::Compare;
    e.pos = p;
    e.ops.push_back("!=");
    e.kids.push_back(std::move(call));
    e.kids.push_back(std::move(zero));
    e.ty = Ty::Bool;
  }
}

}  // namespace ppy::frontend::checking
