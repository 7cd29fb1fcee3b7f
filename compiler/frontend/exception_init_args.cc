#include "exception_init_args.h"

#include "exception_classes.h"

namespace ppy::frontend {
namespace {

bool names(const Expr& e, const std::string& local) {
  if (e.kind == ExprKind::Name && e.str == local) return true;
  for (const ExprPtr& k : e.kids)
    if (k && names(*k, local)) return true;
  for (const Keyword& k : e.keywords)
    if (k.value && names(*k.value, local)) return true;
  return false;
}

}  // namespace

bool init_refills_args_first(const FuncDef& init) {
  if (init.params.empty() || init.body.empty()) return false;
  size_t at = init.body[0]->kind == StmtKind::Expr && init.body[0]->value &&
              init.body[0]->value->kind == ExprKind::Str;  // a docstring
  if (at >= init.body.size()) return false;
  const Stmt& first = *init.body[at];
  if (first.kind != StmtKind::Expr || !first.value || first.value->kind != ExprKind::Call) return false;
  const Expr& call = *first.value;
  if (call.target != kBaseExceptionInit) return false;
  const std::string& self = init.params[0].name;
  for (size_t i = 1; i < call.kids.size(); ++i)
    if (names(*call.kids[i], self)) return false;
  for (const Keyword& k : call.keywords)
    if (k.value && names(*k.value, self)) return false;
  return true;
}

}  // namespace ppy::frontend
