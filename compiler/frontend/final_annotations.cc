// typing.Final annotations rewritten to what python3 runs (final_annotations.h).
#include "final_annotations.h"

#include "checker_internal.h"
#include "expr_build.h"

namespace ppy::frontend {
namespace {

bool is_final(const Expr& a) {
  auto d = checking::dotted(a);
  return d && (*d == "Final" || *d == "typing.Final");
}

/// The builtin type a literal value has, or nullptr.
const char* literal_type(const Expr& v) {
  switch (v.kind) {
    case ExprKind::Int: return "int";
    case ExprKind::Float: return "float";
    case ExprKind::Bool: return "bool";
    case ExprKind::Str: return "str";
    case ExprKind::Unary:
      return v.str == "-" && (v.kids[0]->kind == ExprKind::Int || v.kids[0]->kind == ExprKind::Float)
                 ? literal_type(*v.kids[0])
                 : nullptr;
    default: return nullptr;
  }
}

void strip(Stmt& s) {
  if (s.kind != StmtKind::AnnAssign || !s.annotation) return;
  Expr& a = *s.annotation;
  if (a.kind == ExprKind::Subscript && is_final(*a.kids[0])) {  // `Final[T]`: T
    ExprPtr inner = std::move(a.kids[1]);
    s.annotation = std::move(inner);
    return;
  }
  if (!is_final(a) || !s.value) return;
  if (const char* t = literal_type(*s.value)) {
    s.annotation = build::name(t, a.pos);
    return;
  }
  s.kind = StmtKind::Assign;  // `x: Final = f()`: the value's type, as an assignment has
  s.annotation = nullptr;
}

void strip(std::vector<StmtPtr>& body) {
  for (auto& s : body) {
    strip(*s);
    if ((s->kind == StmtKind::Def || s->kind == StmtKind::Class) && s->def) strip(s->def->body);
    strip(s->body);
    strip(s->orelse);
    for (auto& h : s->handlers) strip(h.body);
    strip(s->finalbody);
  }
}

}  // namespace

void strip_final_annotations(ModuleAst& ast) { strip(ast.body); }

}  // namespace ppy::frontend
