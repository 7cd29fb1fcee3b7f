#pragma once
// Building expressions and statements in the checker's rewrites (map/filter, itertools, the iteration protocol):
// small constructors of unchecked nodes, which the checker then checks as if they had been written.
// Not an API: nothing outside compiler/frontend includes it.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "ast.h"

namespace ppy::frontend::build {

/// The depth a node over `kids` has.
inline int depth_over(const std::vector<ExprPtr>& kids) {
  int d = 0;
  for (auto& k : kids)
    if (k) d = std::max(d, k->depth);
  return d + 1;
}

inline ExprPtr node(ExprKind k, Pos p, std::string s = {}) {
  auto x = std::make_unique<Expr>();
  x->kind = k;
  x->pos = p;
  x->str = std::move(s);
  return x;
}

inline ExprPtr name(const std::string& n, Pos p) { return node(ExprKind::Name, p, n); }

inline ExprPtr int_lit(int64_t v, Pos p) {
  ExprPtr x = node(ExprKind::Int, p);
  x->ival = v;
  return x;
}

/// `kind(kids...)` with `str` (an operator, an attribute's name).
inline ExprPtr with_kids(ExprKind k, Pos p, std::vector<ExprPtr> kids, std::string s = {}) {
  ExprPtr x = node(k, p, std::move(s));
  x->kids = std::move(kids);
  x->depth = depth_over(x->kids);
  return x;
}

/// `callee(args...)`.
inline ExprPtr call(ExprPtr callee, std::vector<ExprPtr> args, Pos p) {
  std::vector<ExprPtr> kids;
  kids.push_back(std::move(callee));
  for (auto& a : args) kids.push_back(std::move(a));
  return with_kids(ExprKind::Call, p, std::move(kids));
}

/// `a <op> b` (a Binary node).
inline ExprPtr binary(const std::string& op, ExprPtr a, ExprPtr b, Pos p) {
  std::vector<ExprPtr> kids;
  kids.push_back(std::move(a));
  kids.push_back(std::move(b));
  return with_kids(ExprKind::Binary, p, std::move(kids), op);
}

/// `then if test else other`.
inline ExprPtr if_exp(ExprPtr test, ExprPtr then, ExprPtr other, Pos p) {
  std::vector<ExprPtr> kids;
  kids.push_back(std::move(test));
  kids.push_back(std::move(then));
  kids.push_back(std::move(other));
  return with_kids(ExprKind::IfExp, p, std::move(kids));
}

/// `True` / `False`.
inline ExprPtr bool_lit(bool b, Pos p) {
  ExprPtr e = node(ExprKind::Bool, p);
  e->bval = b;
  return e;
}

/// An empty statement of kind `k`, for the checker's rewrites of statements.
inline StmtPtr stmt(StmtKind k, Pos p) {
  auto s = std::make_unique<Stmt>();
  s->kind = k;
  s->pos = p;
  return s;
}

/// `name = v`.
inline StmtPtr assign(const std::string& name, ExprPtr v, Pos p) {
  StmtPtr s = stmt(StmtKind::Assign, p);
  s->targets.push_back(build::name(name, p));
  s->value = std::move(v);
  return s;
}

/// `v` as a statement.
inline StmtPtr expr_stmt(ExprPtr v, Pos p) {
  StmtPtr s = stmt(StmtKind::Expr, p);
  s->value = std::move(v);
  return s;
}

/// A copy of the (unchecked) expression `e`.
inline ExprPtr clone(const Expr& e) {
  auto x = std::make_unique<Expr>();
  x->kind = e.kind;
  x->pos = e.pos;
  x->depth = e.depth;
  x->ival = e.ival;
  x->fval = e.fval;
  x->bval = e.bval;
  x->str = e.str;
  x->ops = e.ops;
  x->comp_frame = e.comp_frame;
  for (auto& k : e.kids) x->kids.push_back(k ? clone(*k) : nullptr);
  for (auto& k : e.keywords) x->keywords.push_back({k.name, k.pos, k.value ? clone(*k.value) : nullptr});
  return x;
}

/// One clause `for names in it if conds...` of a comprehension, its element `elt`
/// (another clause, `str` "for", nests inside it).
inline Expr clause(std::vector<std::string> names, ExprPtr elt, ExprPtr it, std::vector<ExprPtr> conds, Pos p) {
  Expr c;
  c.kind = ExprKind::ListComp;
  c.pos = p;
  c.ops = std::move(names);
  c.kids.push_back(std::move(elt));
  c.kids.push_back(std::move(it));
  c.ival = static_cast<int64_t>(conds.size());
  for (auto& k : conds) c.kids.push_back(std::move(k));
  c.depth = depth_over(c.kids);
  return c;
}

}  // namespace ppy::frontend::build
