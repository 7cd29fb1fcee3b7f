#include "inherited_classmethods.h"

#include <map>
#include <set>

#include "generics.h"

namespace ppy::frontend {
namespace {

/// Whether `s` is a method decorated `@classmethod`.
bool is_classmethod(const Stmt& s) {
  if (s.kind != StmtKind::Def || !s.def || s.def->decorators.size() != 1 || !s.def->decorators[0]) return false;
  const Expr& d = *s.def->decorators[0];
  return d.kind == ExprKind::Name && d.str == "classmethod";
}

/// The name of class `s`'s base when it has one written as a plain name.
const std::string* base_name(const Stmt& s) {
  if (s.targets.size() != 1 || !s.targets[0] || s.targets[0]->kind != ExprKind::Name) return nullptr;
  return &s.targets[0]->str;
}

/// Adds to `out` each `Name.attr` that `e` reads (`Sub.create`).
void attributes_read(const Expr& e, std::set<std::string>& out) {
  if (e.kind == ExprKind::Attribute && !e.kids.empty() && e.kids[0] && e.kids[0]->kind == ExprKind::Name)
    out.insert(e.kids[0]->str + "." + e.str);
  for (auto& k : e.kids)
    if (k) attributes_read(*k, out);
  for (auto& k : e.keywords)
    if (k.value) attributes_read(*k.value, out);
}

void attributes_read(const std::vector<StmtPtr>& body, std::set<std::string>& out) {
  for (auto& s : body) {
    if (!s) continue;
    for (auto& t : s->targets)
      if (t) attributes_read(*t, out);
    if (s->value) attributes_read(*s->value, out);
    if (s->def) attributes_read(s->def->body, out);
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { attributes_read(b, out); });
  }
}

}  // namespace

void add_inherited_classmethods(ModuleAst& ast) {
  std::set<std::string> called;  // only a method called through the subclass is copied: a
  attributes_read(ast.body, called);  // copy is checked, and `cls(...)` may not fit every subclass
  std::map<std::string, Stmt*> classes;  // the module's classes above the one at hand
  for (auto& s : ast.body) {
    if (!s || s->kind != StmtKind::Class || !s->def) continue;
    const std::string& name = s->def->name;
    std::set<std::string> seen;  // the methods of the class or of a nearer base
    for (auto& m : s->def->body)
      if (m && m->kind == StmtKind::Def && m->def) seen.insert(m->def->name);
    std::vector<StmtPtr> copies;
    for (const std::string* base = base_name(*s); base;) {
      auto b = classes.find(*base);
      if (b == classes.end() || !b->second->def->type_params.empty()) break;
      const std::string& above = b->second->def->name;
      for (auto& m : b->second->def->body) {
        if (!m || m->kind != StmtKind::Def || !m->def || !seen.insert(m->def->name).second) continue;
        if (!is_classmethod(*m) || !called.count(name + "." + m->def->name)) continue;
        StmtPtr copy = checking::clone_stmt(*m);
        Expr* r = copy->def->returns.get();
        if (r && (r->kind == ExprKind::Name || r->kind == ExprKind::Str) && r->str == above) r->str = name;
        copies.push_back(std::move(copy));
      }
      base = base_name(*b->second);
    }
    for (auto& c : copies) s->def->body.push_back(std::move(c));
    if (s->def->type_params.empty()) classes[name] = s.get();
  }
}

}  // namespace ppy::frontend
