// Decorators on nested functions, written out (nested_decorators.h).
#include "nested_decorators.h"

#include <set>

#include "cache_decorators.h"
#include "checker_internal.h"
#include "expr_build.h"

namespace ppy::frontend {
namespace {

/// Whether `d` is one of ppy's own decorators (`@ppy.pure`, `@cuda.kernel`, ...), which do not wrap.
bool ppy_decorator(const Expr& d) {
  auto path = checking::dotted(d.kind == ExprKind::Call ? *d.kids[0] : d);
  return path && (path->starts_with("ppy.") || path->starts_with("cuda.") || path->starts_with("xla."));
}

/// `name = d1(d2(name))` for the decorators `decos` (outermost first) of the function `name`.
StmtPtr applied(const std::string& name, std::vector<ExprPtr> decos, Pos p) {
  ExprPtr v = build::name(name, p);
  for (size_t i = decos.size(); i-- > 0;) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(v));
    v = build::call(std::move(decos[i]), std::move(args), p);
  }
  auto a = std::make_unique<Stmt>();
  a->kind = StmtKind::Assign;
  a->pos = p;
  a->targets.push_back(build::name(name, p));
  a->value = std::move(v);
  return a;
}

/// Rewrites the decorated functions in `body` (a function's, or a block of one), and in the
/// functions nested in them.
void expand_body(std::vector<StmtPtr>& body, const std::set<std::string>& cached, const std::string& file) {
  std::vector<StmtPtr> out;
  for (auto& s : body) {
    expand_body(s->body, cached, file);
    expand_body(s->orelse, cached, file);
    for (auto& h : s->handlers) expand_body(h.body, cached, file);
    expand_body(s->finalbody, cached, file);
    if (s->kind != StmtKind::Def || !s->def || s->def->decorators.empty()) {
      if (s->kind == StmtKind::Def && s->def) expand_body(s->def->body, cached, file);
      out.push_back(std::move(s));
      continue;
    }
    FuncDef& def = *s->def;
    expand_body(def.body, cached, file);
    if (def.decorators.size() == 1 && is_cache_decorator(*def.decorators[0], cached)) {
      std::vector<StmtPtr> added = expand_cache_decorator(*s, file);
      for (auto& a : added) out.push_back(std::move(a));  // the cache, the function callers call
      out.push_back(std::move(s));
      continue;
    }
    bool own = false;
    for (auto& d : def.decorators) own = own || ppy_decorator(*d);
    if (own) {
      out.push_back(std::move(s));
      continue;
    }
    std::vector<ExprPtr> decos = std::move(def.decorators);
    def.decorators.clear();
    std::string name = def.name;
    Pos p = def.pos;
    out.push_back(std::move(s));
    out.push_back(applied(name, std::move(decos), p));
  }
  body = std::move(out);
}

}  // namespace

void expand_nested_decorators(ModuleAst& ast, const std::string& file) {
  std::set<std::string> cached = imported_decorators(ast);
  for (auto& s : ast.body) {
    if (s->kind == StmtKind::Def && s->def) expand_body(s->def->body, cached, file);
    if (s->kind == StmtKind::Class)
      for (auto& m : s->body)
        if (m->kind == StmtKind::Def && m->def) expand_body(m->def->body, cached, file);
  }
}

}  // namespace ppy::frontend
