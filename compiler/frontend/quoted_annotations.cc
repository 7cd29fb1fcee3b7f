// Quoted annotations parsed in place (quoted_annotations.h).
#include "quoted_annotations.h"

#include "parser.h"

namespace ppy::frontend {
namespace {

/// Gives `e` and everything in it the position `p` (the quoted text's own).
void place(Expr& e, Pos p) {
  e.pos = p;
  for (auto& k : e.kids)
    if (k) place(*k, p);
}

void unquote(ExprPtr& a, const std::string& file) {
  if (!a) return;
  if (a->kind == ExprKind::Str) {
    DiagnosticEngine quiet;
    ModuleAst m = parse_module(a->str, file, quiet);
    if (!quiet.diagnostics().empty() || m.body.size() != 1 || m.body[0]->kind != StmtKind::Expr ||
        !m.body[0]->value)
      return;
    ExprPtr e = std::move(m.body[0]->value);
    place(*e, a->pos);
    a = std::move(e);
    return;
  }
  for (auto& k : a->kids) unquote(k, file);  // `list["Node"]`, `"A" | None`
}

void unquote(std::vector<StmtPtr>& body, const std::string& file) {
  for (auto& s : body) {
    if (s->kind == StmtKind::AnnAssign) unquote(s->annotation, file);
    if ((s->kind == StmtKind::Def || s->kind == StmtKind::Class) && s->def) {
      for (auto& p : s->def->params) unquote(p.annotation, file);
      unquote(s->def->returns, file);
      unquote(s->def->body, file);
    }
    unquote(s->body, file);
    unquote(s->orelse, file);
    unquote(s->finalbody, file);
    for (auto& h : s->handlers) unquote(h.body, file);
  }
}

}  // namespace

void unquote_annotations(ModuleAst& ast, const std::string& file) { unquote(ast.body, file); }

}  // namespace ppy::frontend
