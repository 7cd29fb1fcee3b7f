// `__eq__(self, other: object)` typed by its isinstance test (eq_object.h).
#include "eq_object.h"

namespace ppy::frontend {
namespace {

/// Whether `e` is `isinstance(other, cls)`.
bool is_test(const Expr& e, const std::string& other, const std::string& cls) {
  return e.kind == ExprKind::Call && e.kids.size() == 3 && e.keywords.empty() && e.kids[0]->kind == ExprKind::Name &&
         e.kids[0]->str == "isinstance" && e.kids[1]->kind == ExprKind::Name && e.kids[1]->str == other &&
         e.kids[2]->kind == ExprKind::Name && e.kids[2]->str == cls;
}

bool mentions_test(const Expr& e, const std::string& other, const std::string& cls) {
  if (is_test(e, other, cls)) return true;
  for (auto& k : e.kids)
    if (k && mentions_test(*k, other, cls)) return true;
  return false;
}

bool mentions_test(const std::vector<StmtPtr>& body, const std::string& other, const std::string& cls) {
  for (auto& s : body) {
    if (s->value && mentions_test(*s->value, other, cls)) return true;
    bool found = false;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { found = found || mentions_test(b, other, cls); });
    if (found) return true;
  }
  return false;
}

/// Whether `s` is `if not isinstance(other, cls): return NotImplemented` (or `return False`).
bool is_guard(const Stmt& s, const std::string& other, const std::string& cls) {
  if (s.kind != StmtKind::If || !s.orelse.empty() || s.body.size() != 1 || !s.value) return false;
  const Expr& c = *s.value;
  if (c.kind != ExprKind::Unary || c.str != "not" || !is_test(*c.kids[0], other, cls)) return false;
  const Stmt& r = *s.body[0];
  if (r.kind != StmtKind::Return || !r.value) return false;
  return (r.value->kind == ExprKind::Name && r.value->str == "NotImplemented") ||
         (r.value->kind == ExprKind::Bool && !r.value->bval);
}

/// Makes each `isinstance(other, cls)` in `e` the literal True.
void settle(ExprPtr& e, const std::string& other, const std::string& cls) {
  if (!e) return;
  if (is_test(*e, other, cls)) {
    auto t = std::make_unique<Expr>();
    t->kind = ExprKind::Bool;
    t->pos = e->pos;
    t->bval = true;
    e = std::move(t);
    return;
  }
  for (auto& k : e->kids) settle(k, other, cls);
}

void settle(std::vector<StmtPtr>& body, const std::string& other, const std::string& cls) {
  std::erase_if(body, [&](const StmtPtr& s) { return is_guard(*s, other, cls); });
  for (auto& s : body) {
    settle(s->value, other, cls);
    settle(s->body, other, cls);
    settle(s->orelse, other, cls);
    for (auto& h : s->handlers) settle(h.body, other, cls);
    settle(s->finalbody, other, cls);
  }
}

void type_method(FuncDef& f, const std::string& cls) {
  if ((f.name != "__eq__" && f.name != "__ne__") || f.params.size() != 2) return;
  Param& p = f.params[1];
  if (!p.annotation || p.annotation->kind != ExprKind::Name || p.annotation->str != "object") return;
  if (!mentions_test(f.body, p.name, cls)) return;
  p.annotation->str = cls;
  settle(f.body, p.name, cls);
}

}  // namespace

void type_eq_object(ModuleAst& ast) {
  for (auto& s : ast.body)
    if (s->kind == StmtKind::Class && s->def)
      for (auto& m : s->def->body)
        if (m->kind == StmtKind::Def && m->def) type_method(*m->def, s->def->name);
}

}  // namespace ppy::frontend
