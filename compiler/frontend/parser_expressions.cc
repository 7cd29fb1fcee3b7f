// The parser, expressions: Python's precedence climbing restricted to the subset,
// displays, comprehensions, slices and f-strings.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "lexer.h"
#include "parser_internal.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend::parsing {

ExprPtr Parser::node(ExprKind k, Pos p) {
  auto e = std::make_unique<Expr>();
  e->kind = k;
  e->pos = p;
  return e;
}

void Parser::shift(Expr& e, Pos where) {
  if (e.pos.line == 1) e.pos.col += where.col - 1;
  e.pos.line += where.line - 1;
  for (auto& k : e.kids) shift(*k, where);
  for (auto& k : e.keywords) shift(*k.value, where);
}

void Parser::fstring_parts(const std::string& text, Pos where, std::vector<ExprPtr>& parts, std::string& lit) {
  auto flush = [&]() {
    if (lit.empty()) return;
    auto n = node(ExprKind::Str, where);
    n->str = std::move(lit);
    lit.clear();
    parts.push_back(std::move(n));
  };
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '}') {
      if (i + 1 < text.size() && text[i + 1] == '}') {
        lit += '}';
        i += 2;
        continue;
      }
      fail(where, "f-string: single '}' is not allowed");
    }
    if (c != '{') {
      lit += c;
      ++i;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      lit += '{';
      i += 2;
      continue;
    }
    // A field: its expression ends at a top-level '!', ':' or '}'.
    size_t start = ++i;
    int depth = 0;
    char quote = 0;
    size_t expr_end = std::string::npos, conv_at = std::string::npos, spec_at = std::string::npos;
    for (; i < text.size(); ++i) {
      char d = text[i];
      if (quote) {
        if (d == quote) quote = 0;
        continue;
      }
      if (spec_at != std::string::npos) {  // a nested field (`{x:{w}}`) runs to its own '}'
        if (d == '{')
          ++depth;
        else if (d == '}' && depth-- == 0)
          break;
        continue;
      }
      if (d == '\'' || d == '"')
        quote = d;
      else if (d == '(' || d == '[' || d == '{')
        ++depth;
      else if ((d == ')' || d == ']' || d == '}') && depth > 0)
        --depth;
      else if (depth == 0 && d == '}')
        break;
      else if (depth == 0 && d == '!' && i + 1 < text.size() && text[i + 1] != '=' && conv_at == std::string::npos) {
        expr_end = i;
        conv_at = i + 1;
      } else if (depth == 0 && d == ':') {
        if (expr_end == std::string::npos) expr_end = i;
        spec_at = i + 1;
      }
    }
    if (i >= text.size()) fail(where, "f-string: expecting '}'");
    if (expr_end == std::string::npos) expr_end = i;
    std::string source = text.substr(start, expr_end - start);
    size_t last = source.find_last_not_of(" \t");
    if (last != std::string::npos && source[last] == '=' &&
        (last == 0 || std::string("=!<>").find(source[last - 1]) == std::string::npos))
      fail(where, "a self-documenting f-string field (`{x=}`) is outside the ppy subset", "E1010");
    auto field = node(ExprKind::FField, where);
    if (conv_at != std::string::npos) {
      size_t conv_end = spec_at != std::string::npos ? spec_at - 1 : i;
      std::string conv = text.substr(conv_at, conv_end - conv_at);
      if (conv != "r" && conv != "s")
        fail(where, str_cat("the f-string conversion '!", conv, "' is outside the ppy subset (it takes !r and !s)"),
             "E1010");
      field->ival = conv[0];
    }
    if (spec_at != std::string::npos) field->str = text.substr(spec_at, i - spec_at);
    ExprPtr spec;
    if (field->str.find('{') != std::string::npos) {  // `{x:{w}.{p}f}`: the spec is an f-string made at run time
      std::vector<ExprPtr> spec_parts;
      std::string spec_lit;
      fstring_parts(field->str, where, spec_parts, spec_lit);
      if (!spec_lit.empty()) {
        auto n = node(ExprKind::Str, where);
        n->str = std::move(spec_lit);
        spec_parts.push_back(std::move(n));
      }
      spec = node(ExprKind::FString, where);
      spec->kids = std::move(spec_parts);
      spec = finish(std::move(spec));
    }
    ++i;  // the '}'
    Parser sub(lex(source, file_, diags_), file_, diags_);
    ExprPtr e = sub.lone_expression(where);
    Pos fp = where;
    fp.col += static_cast<uint32_t>(start) + 2;  // past `f"` (a longer prefix or quote shifts it)
    shift(*e, fp);
    field->pos = e->pos;
    flush();
    field->kids.push_back(std::move(e));
    if (spec) field->kids.push_back(std::move(spec));  // kids[1]: the spec's value (check_str.cc, lower_str.cc)
    parts.push_back(finish(std::move(field)));
  }
}

ExprPtr Parser::lone_expression(Pos where) {
  while (at(Tok::Newline)) take();
  if (at(Tok::End)) fail(where, "f-string: empty expression not allowed");
  ExprPtr e = expr();
  while (at(Tok::Newline)) take();
  if (!at(Tok::End)) fail(where, "f-string: invalid expression in a field");
  return e;
}

ExprPtr Parser::slice(ExprPtr start, Pos p) {
  auto n = node(ExprKind::Slice, p);
  if (start) {
    n->ival |= 1;
    n->kids.push_back(std::move(start));
  }
  expect_op(":");
  if (!at_op(":") && !at_op("]")) {
    n->ival |= 2;
    n->kids.push_back(expr());
  }
  if (accept_op(":") && !at_op("]")) {
    n->ival |= 4;
    n->kids.push_back(expr());
  }
  return finish(std::move(n));
}

ExprPtr Parser::finish(ExprPtr e) {
  int d = 0;
  for (auto& k : e->kids) d = std::max(d, k->depth);
  for (auto& k : e->keywords) d = std::max(d, k.value->depth);
  e->depth = d + 1;
  if (e->depth > kMaxExprDepth) fail(e->pos, "the expression is nested too deeply", "E1090");
  return e;
}

ExprPtr Parser::testlist() {
  Pos p = cur().pos;
  ExprPtr first = starred_or_expr();
  if (!at_op(",")) return first;
  auto t = node(ExprKind::Tuple, p);
  t->kids.push_back(std::move(first));
  while (accept_op(",")) {
    if (at(Tok::Newline) || at_op("=") || at_op(")") || at(Tok::End)) break;
    t->kids.push_back(starred_or_expr());
  }
  return finish(std::move(t));
}

ExprPtr Parser::starred_or_expr() {
  if (!at_op("*")) return expr();
  DepthGuard g(*this, cur().pos);
  auto n = node(ExprKind::Unary, take().pos);
  n->str = "*";
  n->kids.push_back(bitor_expr());
  return finish(std::move(n));
}

ExprPtr Parser::comprehension(ExprPtr elt, Pos p, ExprKind kind, ExprPtr value, bool generator) {
  std::vector<ExprPtr> clauses;
  while (at_kw("for")) {
    Pos cp = cur().pos;
    take();  // for
    auto c = node(ExprKind::ListComp, clauses.empty() ? p : cp);
    if (at_op("(")) unsupported(cur().pos, "a parenthesized comprehension target");
    c->ops.push_back(expect_name());
    while (accept_op(",")) c->ops.push_back(expect_name());
    if (!accept_kw("in")) fail(cur().pos, str_cat("expected 'in' in a comprehension, found ", describe(cur())));
    c->kids.push_back(nullptr);  // the element, below
    c->kids.push_back(or_test());
    while (accept_kw("if")) {
      c->kids.push_back(or_test());
      ++c->ival;
    }
    if (!clauses.empty()) c->str = "for";
    clauses.push_back(std::move(c));
  }
  if (at_kw("async")) unsupported(cur().pos, "an async comprehension");
  bool list = kind == ExprKind::ListComp;
  if (!list && clauses.size() > 1)
    unsupported(clauses[1]->pos, "a dict or set comprehension with several 'for' clauses");
  clauses[0]->comp_frame = generator                    ? "<genexpr>"
                           : kind == ExprKind::DictComp ? "<dictcomp>"
                           : kind == ExprKind::SetComp  ? "<setcomp>"
                                                        : "<listcomp>";
  if (generator) {  // lazy sequences: `(elt for x in it)`, its `)` left to the caller
    if (!at_op(")")) fail(cur().pos, "Generator expression must be parenthesized");
    clauses[0]->bval = true;
  } else {
    expect_op(list ? "]" : "}");
  }
  if (!list) {
    clauses[0]->kind = kind;
    clauses[0]->kids[0] = std::move(elt);
    if (value) clauses[0]->kids.push_back(std::move(value));
    return finish(std::move(clauses[0]));
  }
  for (size_t k = clauses.size(); k-- > 0;) {
    clauses[k]->kids[0] = std::move(elt);
    elt = finish(std::move(clauses[k]));
  }
  return elt;
}

ExprPtr Parser::brace_display(Pos p) {
  DepthGuard g(*this, p);
  take();  // {
  if (accept_op("}")) return finish(node(ExprKind::Dict, p));
  if (at_op("**")) unsupported(cur().pos, "'**' unpacking in a dict");
  if (at_op("*")) unsupported(cur().pos, "'*' unpacking in a set");
  ExprPtr first = named_expr();
  if (accept_op(":")) {
    auto n = node(ExprKind::Dict, p);
    ExprPtr v = expr();
    if (at_kw("for")) return comprehension(std::move(first), p, ExprKind::DictComp, std::move(v));
    n->kids.push_back(std::move(first));
    n->kids.push_back(std::move(v));
    while (accept_op(",")) {
      if (at_op("}")) break;
      if (at_op("**")) unsupported(cur().pos, "'**' unpacking in a dict");
      n->kids.push_back(expr());
      expect_op(":");
      n->kids.push_back(expr());
    }
    expect_op("}");
    return finish(std::move(n));
  }
  if (at_kw("for")) return comprehension(std::move(first), p, ExprKind::SetComp);
  auto n = node(ExprKind::Set, p);
  n->kids.push_back(std::move(first));
  while (accept_op(",")) {
    if (at_op("}")) break;
    if (at_op("*")) unsupported(cur().pos, "'*' unpacking in a set");
    n->kids.push_back(named_expr());
  }
  expect_op("}");
  return finish(std::move(n));
}

ExprPtr Parser::named_expr() {
  ExprPtr e = expr();
  if (!at_op(":=")) return e;
  take();  // :=
  if (e->kind != ExprKind::Name) fail(e->pos, "cannot use assignment expressions with this target");
  // `(n := v)` (PEP 572): a Binary ":=", kids the target (a Name) and the value; n binds in the
  // enclosing function, as python3's (check_statements.cc, collect_locals).
  auto n = node(ExprKind::Binary, e->pos);
  n->str = ":=";
  n->kids.push_back(std::move(e));
  n->kids.push_back(expr());
  return finish(std::move(n));
}

ExprPtr Parser::expr() {
  DepthGuard g(*this, cur().pos);
  if (at_kw("lambda")) return lambda();
  if (at_kw("yield")) unsupported(cur().pos, "a 'yield' expression (a generator yields in a statement of its own)");
  if (at_kw("await")) unsupported(cur().pos, "'await'");
  ExprPtr e = or_test();
  if (at_kw("if")) {
    Pos p = e->pos;
    take();
    ExprPtr test = or_test();
    if (!accept_kw("else"))
      fail(cur().pos, str_cat("expected 'else' in a conditional expression, found ", describe(cur())));
    ExprPtr other = expr();
    auto n = node(ExprKind::IfExp, p);
    n->kids.push_back(std::move(test));
    n->kids.push_back(std::move(e));
    n->kids.push_back(std::move(other));
    return finish(std::move(n));
  }
  return e;
}

ExprPtr Parser::lambda() {
  auto n = node(ExprKind::Lambda, take().pos);
  while (!at_op(":")) {
    if (at_op("*") || at_op("**") || at_op("/")) unsupported(cur().pos, "a lambda's '*', '**' or '/' parameter");
    n->ops.push_back(expect_name());
    if (at_op("=")) unsupported(cur().pos, "a lambda parameter's default");
    if (!accept_op(",")) break;
  }
  expect_op(":");
  n->kids.push_back(expr());
  return finish(std::move(n));
}

ExprPtr Parser::bool_chain(const char* kw, ExprPtr (Parser::*next)()) {
  ExprPtr e = (this->*next)();
  while (at_kw(kw)) {
    Pos p = take().pos;
    auto n = node(ExprKind::BoolOp, p);
    n->str = kw;
    n->kids.push_back(std::move(e));
    n->kids.push_back((this->*next)());
    e = finish(std::move(n));
  }
  return e;
}

ExprPtr Parser::not_test() {
  if (at_kw("not")) {
    DepthGuard g(*this, cur().pos);
    auto n = node(ExprKind::Unary, take().pos);
    n->str = "not";
    n->kids.push_back(not_test());
    return finish(std::move(n));
  }
  return comparison();
}

bool Parser::comp_op(std::string& op) {
  if (cur().kind == Tok::Op) {
    static const char* ops[] = {"<", ">", "==", ">=", "<=", "!="};
    for (const char* o : ops)
      if (cur().text == o) {
        op = o;
        take();
        return true;
      }
    return false;
  }
  if (at_kw("in")) {
    take();
    op = "in";
    return true;
  }
  if (at_kw("not") && peek().kind == Tok::Name && peek().text == "in") {
    take();
    take();
    op = "not in";
    return true;
  }
  if (at_kw("is")) {
    take();
    op = accept_kw("not") ? "is not" : "is";
    return true;
  }
  return false;
}

ExprPtr Parser::comparison() {
  ExprPtr e = bitor_expr();
  std::string op;
  Pos p = cur().pos;
  if (!comp_op(op)) return e;
  auto n = node(ExprKind::Compare, p);
  n->kids.push_back(std::move(e));
  do {
    n->ops.push_back(op);
    n->kids.push_back(bitor_expr());
  } while (comp_op(op));
  return finish(std::move(n));
}

ExprPtr Parser::binary_chain(std::initializer_list<const char*> ops, ExprPtr (Parser::*next)()) {
  ExprPtr e = (this->*next)();
  for (;;) {
    const char* found = nullptr;
    if (cur().kind == Tok::Op)
      for (const char* o : ops)
        if (cur().text == o) found = o;
    if (!found) return e;
    Pos p = take().pos;
    auto n = node(ExprKind::Binary, p);
    n->str = found;
    n->kids.push_back(std::move(e));
    n->kids.push_back((this->*next)());
    e = finish(std::move(n));
  }
}

ExprPtr Parser::factor() {
  if (at_op("-") || at_op("+") || at_op("~")) {
    DepthGuard g(*this, cur().pos);
    Token t = take();
    // `-9223372036854775808` is an i64 literal even though its magnitude is not.
    if (t.text == "-" && at(Tok::Int) && cur().too_big && cur().ival == INT64_MIN &&
        !(peek().kind == Tok::Op && peek().text == "**")) {
      auto n = node(ExprKind::Int, t.pos);
      n->ival = INT64_MIN;
      take();
      return trailers(std::move(n));
    }
    auto n = node(ExprKind::Unary, t.pos);
    n->str = t.text;
    n->kids.push_back(factor());
    return finish(std::move(n));
  }
  return power();
}

ExprPtr Parser::power() {
  ExprPtr e = trailers(atom());
  if (at_op("**")) {
    // `**` is right-associative: its right operand recurses, so it counts as nesting.
    DepthGuard g(*this, cur().pos);
    Pos p = take().pos;
    auto n = node(ExprKind::Binary, p);
    n->str = "**";
    n->kids.push_back(std::move(e));
    n->kids.push_back(factor());
    return finish(std::move(n));
  }
  return e;
}

ExprPtr Parser::trailers(ExprPtr e) {
  for (;;) {
    if (at_op("(")) {
      take();
      auto n = node(ExprKind::Call, e->pos);
      n->kids.push_back(std::move(e));
      while (!at_op(")")) {
        if (at_op("**")) unsupported(cur().pos, "'**' unpacking in a call");
        if (at_op("*")) {  // `f(*t)`, `print(*xs)`: a Unary "*" the checker spreads (check_star_args.cc)
          n->kids.push_back(starred_or_expr());
        } else if (at(Tok::Name) && peek().kind == Tok::Op && peek().text == "=") {
          Keyword k;
          k.pos = cur().pos;
          k.name = take().text;
          take();
          k.value = expr();
          n->keywords.push_back(std::move(k));
        } else {
          if (!n->keywords.empty()) fail(cur().pos, "positional argument follows keyword argument");
          n->kids.push_back(named_expr());
          if (at_kw("for") && n->kids.size() == 2 && n->keywords.empty()) {  // `f(x for x in xs)`
            // At the call's place: python3's frame around a `<genexpr>` an argument made is at the call.
            n->kids[1] = comprehension(std::move(n->kids[1]), n->pos, ExprKind::ListComp, nullptr, true);
          }
          if (at_kw("for")) fail(cur().pos, "Generator expression must be parenthesized");
        }
        if (!accept_op(",")) break;
      }
      expect_op(")");
      e = finish(std::move(n));
    } else if (at_op("[")) {
      take();
      auto n = node(ExprKind::Subscript, e->pos);
      n->kids.push_back(std::move(e));
      ExprPtr idx = at_op(":") ? slice(nullptr, cur().pos) : expr();
      if (at_op(":")) {
        auto pos = idx->pos;  // read before the move: argument order is unspecified
        idx = slice(std::move(idx), pos);
      }
      if (at_op(",")) {
        auto t = node(ExprKind::Tuple, idx->pos);
        t->kids.push_back(std::move(idx));
        while (accept_op(",")) {
          if (at_op("]")) break;
          t->kids.push_back(expr());
        }
        idx = finish(std::move(t));
      }
      n->kids.push_back(std::move(idx));
      expect_op("]");
      e = finish(std::move(n));
    } else if (at_op(".")) {
      take();
      auto n = node(ExprKind::Attribute, e->pos);
      n->str = expect_name();
      n->kids.push_back(std::move(e));
      e = finish(std::move(n));
    } else {
      return e;
    }
  }
}

ExprPtr Parser::atom() {
  const Token t = cur();
  switch (t.kind) {
    case Tok::Int: {
      take();
      if (t.too_big)
        fail(t.pos, str_cat("the integer ", t.text, " does not fit in 64 bits (ppy's int is i64)"), "E1080");
      auto n = node(ExprKind::Int, t.pos);
      n->ival = t.ival;
      return n;
    }
    case Tok::Float: {
      take();
      auto n = node(ExprKind::Float, t.pos);
      n->fval = t.fval;
      return n;
    }
    case Tok::String: {
      std::string s;
      std::vector<ExprPtr> parts;
      bool fstring = false;
      while (at(Tok::String)) {
        if (cur().prefix == 'b') unsupported(cur().pos, "a bytes literal");
        if (cur().prefix == 'f') {
          fstring = true;
          Token f = take();
          fstring_parts(f.text, f.pos, parts, s);
        } else {
          s += take().text;
        }
      }
      if (!fstring) {
        auto n = node(ExprKind::Str, t.pos);
        n->str = std::move(s);
        return n;
      }
      if (!s.empty()) {
        auto lit = node(ExprKind::Str, t.pos);
        lit->str = std::move(s);
        parts.push_back(std::move(lit));
      }
      auto n = node(ExprKind::FString, t.pos);
      n->kids = std::move(parts);
      return finish(std::move(n));
    }
    case Tok::Name: {
      if (t.text == "True" || t.text == "False") {
        take();
        auto n = node(ExprKind::Bool, t.pos);
        n->bval = t.text == "True";
        return n;
      }
      if (t.text == "None") {
        take();
        return node(ExprKind::NoneLit, t.pos);
      }
      if (t.text == "lambda") unsupported(t.pos, "a lambda");
      if (is_keyword(t.text)) fail(t.pos, str_cat("invalid syntax: unexpected '", t.text, "'"));
      take();
      auto n = node(ExprKind::Name, t.pos);
      n->str = t.text;
      return n;
    }
    case Tok::Op: {
      if (t.text == "(") {
        DepthGuard g(*this, t.pos);
        take();
        if (accept_op(")")) return finish(node(ExprKind::Tuple, t.pos));
        ExprPtr e = named_expr();
        if (at_kw("for")) {  // `(x for x in xs)`
          e = comprehension(std::move(e), t.pos, ExprKind::ListComp, nullptr, true);
          expect_op(")");
          return e;
        }
        if (at_op(",")) {
          auto tup = node(ExprKind::Tuple, t.pos);
          tup->kids.push_back(std::move(e));
          while (accept_op(",")) {
            if (at_op(")")) break;
            tup->kids.push_back(expr());
          }
          e = finish(std::move(tup));
        }
        expect_op(")");
        return e;
      }
      if (t.text == "[") {
        DepthGuard g(*this, t.pos);
        take();
        auto n = node(ExprKind::List, t.pos);
        while (!at_op("]")) {
          if (at_op("*")) unsupported(cur().pos, "'*' unpacking in a list");
          n->kids.push_back(named_expr());
          if (at_kw("for") && n->kids.size() == 1) return comprehension(std::move(n->kids[0]), t.pos);
          if (at_kw("for")) unsupported(cur().pos, "a list comprehension");
          if (!accept_op(",")) break;
        }
        expect_op("]");
        return finish(std::move(n));
      }
      if (t.text == "{") return brace_display(t.pos);
      if (t.text == "*") unsupported(t.pos, "a starred expression ('*x')");
      // plugins: a typed stub's `...` body (plugin_stub.cc reads it); Ellipsis elsewhere stays refused.
      if (t.text == "..." && file_.ends_with(".pyi")) {
        take();
        auto e = node(ExprKind::NoneLit, t.pos);
        e->str = "...";
        return e;
      }
      if (t.text == "...") unsupported(t.pos, "'...' (Ellipsis)");
      break;
    }
    default:
      break;
  }
  fail(t.pos, str_cat("invalid syntax: expected an expression, found ", describe(t)));
}

}  // namespace ppy::frontend::parsing
