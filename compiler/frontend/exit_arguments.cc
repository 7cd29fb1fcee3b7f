// `__exit__`'s `exc_type` and `exc` as a bool (exit_arguments.h).
#include "exit_arguments.h"

#include "expr_build.h"

namespace ppy::frontend {
namespace {

bool is_name(const Expr& e, const std::string& n) { return e.kind == ExprKind::Name && e.str == n; }

/// Whether `e` reads `n` anywhere.
bool reads(const Expr& e, const std::string& n) {
  if (is_name(e, n)) return true;
  for (auto& k : e.kids)
    if (k && reads(*k, n)) return true;
  for (auto& k : e.keywords)
    if (k.value && reads(*k.value, n)) return true;
  return false;
}

/// Rewrites `e` (a value used for its truth when `truth`) so that it reads `n` only as a
/// truth value: `n is None` is `not n`, `n is not None` is `n`; false when a read is left
/// elsewhere. With `apply` false it only answers, changing nothing.
bool rewrite(ExprPtr& e, const std::string& n, bool truth, bool apply) {
  Expr& x = *e;
  if (x.kind == ExprKind::Compare && x.ops.size() == 1 && (x.ops[0] == "is" || x.ops[0] == "is not") &&
      x.kids.size() == 2 && is_name(*x.kids[0], n) && x.kids[1]->kind == ExprKind::NoneLit) {
    if (!apply) return true;
    ExprPtr name = std::move(x.kids[0]);
    if (x.ops[0] == "is not") {
      e = std::move(name);
    } else {
      std::vector<ExprPtr> kids;
      kids.push_back(std::move(name));
      e = build::with_kids(ExprKind::Unary, x.pos, std::move(kids), "not");
    }
    return true;
  }
  if (is_name(x, n)) return truth;
  bool kid_truth = (x.kind == ExprKind::Unary && x.str == "not") || x.kind == ExprKind::BoolOp;
  for (size_t i = 0; i < x.kids.size(); ++i) {
    if (!x.kids[i]) continue;
    bool t = kid_truth || (x.kind == ExprKind::IfExp && i == 0);
    if (x.kind == ExprKind::BoolOp) t = truth || i + 1 < x.kids.size();  // `a or b`'s value is an operand
    if (!rewrite(x.kids[i], n, t, apply)) return false;
  }
  for (auto& k : x.keywords)
    if (k.value && reads(*k.value, n)) return false;
  return true;
}

bool rewrite(std::vector<StmtPtr>& body, const std::string& n, bool apply) {
  for (auto& s : body) {
    bool test = s->kind == StmtKind::If || s->kind == StmtKind::While;
    if (s->value && !rewrite(s->value, n, test, apply)) return false;
    for (auto& t : s->targets)
      if (t && reads(*t, n)) return false;
    if (s->annotation && reads(*s->annotation, n)) return false;
    if (s->kind == StmtKind::Def || s->kind == StmtKind::Class) {
      if (s->def && !s->def->body.empty()) {
        std::vector<StmtPtr>& inner = s->def->body;
        for (auto& st : inner)
          if (st->value && reads(*st->value, n)) return false;
      }
      continue;
    }
    bool ok = rewrite(s->body, n, apply) && rewrite(s->orelse, n, apply) && rewrite(s->finalbody, n, apply);
    for (auto& h : s->handlers) ok = ok && rewrite(h.body, n, apply);
    if (!ok) return false;
  }
  return true;
}

bool reads(const std::vector<StmtPtr>& body, const std::string& n) {
  for (auto& s : body) {
    for (auto& t : s->targets)
      if (t && reads(*t, n)) return true;
    if (s->value && reads(*s->value, n)) return true;
    if (s->annotation && reads(*s->annotation, n)) return true;
    if (s->def && reads(s->def->body, n)) return true;
    bool inner = false;
    for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { inner = inner || reads(b, n); });
    if (inner) return true;
  }
  return false;
}

}  // namespace

bool exit_type_as_bool(FuncDef& f) {
  if (f.params.size() != 4 || reads(f.body, f.params[3].name)) return false;
  // `exc_type` and `exc` are both None exactly when the body did not raise: each may be
  // tested for None (issue 32), and check_with.cc passes both the same bool.
  bool any = false;
  // Nothing is rewritten unless both can be: otherwise they are the exception itself (check_with.cc).
  for (size_t i = 1; i < 3; ++i)
    if (reads(f.body, f.params[i].name) && !rewrite(f.body, f.params[i].name, false)) return false;
  for (size_t i = 1; i < 3; ++i) {
    const std::string& n = f.params[i].name;
    if (!reads(f.body, n)) continue;
    if (!rewrite(f.body, n, true)) return false;
    any = true;
  }
  if (!any) return false;
  for (size_t i = 1; i < 4; ++i) {
    f.params[i].annotation = build::name("bool", f.params[i].pos);
    if (i < 3) f.params[i].annotation->ival = kExitTypeAsBool;
  }
  return true;
}

}  // namespace ppy::frontend
