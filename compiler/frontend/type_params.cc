// The parser, generics (PEP 695): a def's or a class's type parameters
// (`def first[T](xs: list[T]) -> T`, `class Stack[T]:`) and the `type`
// statement (`type Grid = list[list[int]]`). What the checker makes of them is
// check_generic.cc's and type_alias.cc's.
#include "parser_internal.h"

namespace ppy::frontend::parsing {

std::vector<std::string> Parser::type_params() {
  expect_op("[");
  std::vector<std::string> names;
  while (!at_op("]")) {
    if (at_op("*")) unsupported(cur().pos, "a TypeVarTuple type parameter (*Ts)");
    if (at_op("**")) unsupported(cur().pos, "a ParamSpec type parameter (**P)");
    Pos p = cur().pos;
    std::string n = expect_name();
    if (at_op(":")) unsupported(p, str_cat("a bounded type parameter ('", n, ": ...')"));
    if (at_op("=")) unsupported(p, str_cat("a type parameter with a default ('", n, " = ...')"));
    if (std::find(names.begin(), names.end(), n) != names.end()) fail(p, str_cat("duplicate type parameter '", n, "'"));
    names.push_back(std::move(n));
    if (!accept_op(",")) break;
  }
  expect_op("]");
  if (names.empty()) fail(cur().pos, "type parameter list cannot be empty");
  return names;
}

StmtPtr Parser::type_alias_stmt() {
  Pos p = take().pos;  // `type`
  auto s = make(StmtKind::AnnAssign, p);
  auto target = node(ExprKind::Name, cur().pos);
  target->str = expect_name();
  if (at_op("[")) unsupported(cur().pos, "a generic type alias (type Name[T] = ...)");
  expect_op("=");
  auto marker = node(ExprKind::Name, p);
  marker->str = "TypeAlias";
  s->targets.push_back(std::move(target));
  s->annotation = std::move(marker);
  s->value = expr();
  s->op = "type";  // written `type Name = ...`: an alias whatever `TypeAlias` is bound to
  if (!at(Tok::End)) {
    if (!at(Tok::Newline)) fail(cur().pos, str_cat("expected end of line, found ", describe(cur())));
    take();
  }
  return s;
}

}  // namespace ppy::frontend::parsing
