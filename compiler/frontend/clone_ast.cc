// generics: deep copies of the AST as the parser made it. Each instantiation
// of a generic function or class is checked (and so annotated) on a copy of
// its template of its own.
#include "expr_build.h"
#include "generics.h"

namespace ppy::frontend::checking {
namespace {

std::vector<ExprPtr> clone_exprs(const std::vector<ExprPtr>& v) {
  std::vector<ExprPtr> out;
  out.reserve(v.size());
  for (auto& e : v) out.push_back(clone_expr(e.get()));
  return out;
}

}  // namespace

ExprPtr clone_expr(const Expr* e) { return e ? build::clone(*e) : nullptr; }

StmtPtr clone_stmt(const Stmt& s) {
  auto c = std::make_unique<Stmt>();
  c->kind = s.kind;
  c->pos = s.pos;
  c->targets = clone_exprs(s.targets);
  c->value = clone_expr(s.value.get());
  c->annotation = clone_expr(s.annotation.get());
  c->op = s.op;
  c->body = clone_body(s.body);
  c->orelse = clone_body(s.orelse);
  if (s.def) c->def = clone_def(*s.def);
  c->module = s.module;
  c->names = s.names;
  for (auto& h : s.handlers) c->handlers.push_back(clone_handler(h));
  c->finalbody = clone_body(s.finalbody);
  return c;
}

std::vector<StmtPtr> clone_body(const std::vector<StmtPtr>& body) {
  std::vector<StmtPtr> out;
  out.reserve(body.size());
  for (auto& s : body) out.push_back(clone_stmt(*s));
  return out;
}

Handler clone_handler(const Handler& h) {
  Handler c;
  c.pos = h.pos;
  c.classes = h.classes;
  c.name = h.name;
  c.name_pos = h.name_pos;
  c.body = clone_body(h.body);
  return c;
}

std::unique_ptr<FuncDef> clone_def(const FuncDef& d) {
  auto c = std::make_unique<FuncDef>();
  c->name = d.name;
  c->pos = d.pos;
  for (auto& p : d.params) {
    Param n;
    n.name = p.name;
    n.pos = p.pos;
    n.annotation = clone_expr(p.annotation.get());
    n.default_value = clone_expr(p.default_value.get());
    c->params.push_back(std::move(n));
  }
  c->returns = clone_expr(d.returns.get());
  c->decorators = clone_exprs(d.decorators);
  c->body = clone_body(d.body);
  c->type_params = d.type_params;
  c->incomplete = d.incomplete;
  return c;
}

}  // namespace ppy::frontend::checking
