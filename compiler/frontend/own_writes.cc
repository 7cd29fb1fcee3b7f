// Writes to containers a function made itself (own_writes.h).
#include "own_writes.h"

#include <string>

namespace ppy::frontend::checking {
namespace {

bool fresh_container(const Expr& v) {
  switch (v.kind) {
    case ExprKind::List:
    case ExprKind::Dict:
    case ExprKind::Set:
    case ExprKind::DictComp:
    case ExprKind::SetComp:
      return true;
    case ExprKind::ListComp:
      return !v.bval;  // a generator expression is no container
    case ExprKind::Call:
      return v.kids[0]->kind == ExprKind::Name &&
             (v.kids[0]->str == "list" || v.kids[0]->str == "dict" || v.kids[0]->str == "set" ||
              v.kids[0]->str == "sorted");
    default:
      return false;
  }
}

/// Whether expression `e` binds `name` by `:=`, or names it as a comprehension's target.
bool binds_in(const Expr& e, const std::string& name) {
  if (e.kind == ExprKind::Binary && e.str == ":=" && e.kids[0]->str == name) return true;
  for (auto& o : e.ops)
    if (o == name && (e.kind == ExprKind::ListComp || e.kind == ExprKind::DictComp || e.kind == ExprKind::SetComp))
      return true;
  for (auto& k : e.kids)
    if (k && binds_in(*k, name)) return true;
  return false;
}

/// Whether every binding of `name` in `body` gives it a new container (and there is one).
bool all_fresh(const std::vector<StmtPtr>& body, const std::string& name, bool& seen) {
  for (auto& s : body) {
    if (s->value && binds_in(*s->value, name)) return false;
    for (auto& t : s->targets) {
      bool plain = t->kind == ExprKind::Name && t->str == name;
      if (!plain && binds_in(*t, name)) return false;
      if (t->kind == ExprKind::Tuple)
        for (auto& k : t->kids)
          if (k->kind == ExprKind::Name && k->str == name) return false;
      if (!plain) continue;
      bool assigns = s->kind == StmtKind::Assign || s->kind == StmtKind::AnnAssign;
      if (!assigns || !s->value || !fresh_container(*s->value)) return false;  // a for target, `+=`, an alias
      seen = true;
    }
    for (auto& h : s->handlers)
      if (h.name == name) return false;
    if ((s->kind == StmtKind::Def || s->kind == StmtKind::Class) && s->def && s->def->name == name) return false;
    if ((s->kind == StmtKind::Global || s->kind == StmtKind::Nonlocal))
      for (auto& n : s->names)
        if (n.name == name) return false;
    bool ok = true;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { ok = ok && all_fresh(b, name, seen); });
    if (!ok) return false;
  }
  return true;
}

}  // namespace

bool owned_container(const Expr& base, const FuncInfo& f) {
  if (base.kind != ExprKind::Name || !f.def || f.module_code) return false;
  for (auto& p : f.def->params)
    if (p.name == base.str) return false;
  bool seen = false;
  return all_fresh(f.def->body, base.str, seen) && seen;
}

void write_through(const Expr& base, FuncInfo& f, Pos at) {
  f.effects.insert("writes");
  f.effect_sites.emplace(owned_container(base, f) ? "own writes" : "writes", at);
}

bool writes_only_own(const FuncInfo& f) {
  return !f.effect_sites.count("writes") && f.effect_sites.count("own writes");
}

}  // namespace ppy::frontend::checking
