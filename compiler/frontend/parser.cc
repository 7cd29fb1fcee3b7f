// The parser: tokens to the AST, Python's grammar restricted to the subset; the module
// and its statements here, expressions in parser_expressions.cc.
#include "parser.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "lexer.h"
#include "parser_internal.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend {

const char* ty_name(Ty t) {
  switch (t) {
    case Ty::Error:
      return "<error>";
    case Ty::None:
      return "None";
    case Ty::Int:
      return "int";
    case Ty::Float:
      return "float";
    case Ty::Bool:
      return "bool";
    case Ty::Str:
      return "str";
    case Ty::ListInt:
      return "list[int]";
    case Ty::ListFloat:
      return "list[float]";
    case Ty::PtrInt:
      return "native.ptr[int]";
    case Ty::PtrFloat:
      return "native.ptr[float]";
    case Ty::ConstPtrInt:
      return "native.const_ptr[int]";
    case Ty::ConstPtrFloat:
      return "native.const_ptr[float]";
    case Ty::Exc:
      return "exception";
    case Ty::File:  // io (issue 33)
      return "TextIOWrapper";
    default:
      break;
  }
  if (const char* n = compound_name(t)) return n;
  return "?";
}

namespace parsing {

bool is_keyword(const std::string& s) {
  static const char* kws[] = {"False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
                              "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
                              "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
                              "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  return std::find_if(std::begin(kws), std::end(kws), [&](const char* k) { return s == k; }) != std::end(kws);
}

ModuleAst Parser::run() {
  ModuleAst m;
  size_t errors = diags_.error_count();
  while (!at(Tok::End)) {
    if (at(Tok::Indent)) {
      error(cur().pos, "unexpected indent");
      skip_block();
      continue;
    }
    if (at(Tok::Dedent) || at(Tok::Newline)) {
      ++p_;
      continue;
    }
    statement(m.body);
  }
  m.incomplete = diags_.error_count() != errors;
  return m;
}

void Parser::skip_block() {
  int depth = 0;
  while (!at(Tok::End)) {
    if (at(Tok::Indent)) ++depth;
    if (at(Tok::Dedent) && --depth <= 0) {
      take();
      return;
    }
    take();
  }
}

void Parser::recover() {
  while (!at(Tok::End) && !at(Tok::Newline) && !at(Tok::Dedent) && !at(Tok::Indent)) take();
  if (at(Tok::Newline)) take();
  if (at(Tok::Indent)) skip_block();
}

void Parser::statement(std::vector<StmtPtr>& out) {
  size_t start = p_;
  std::string first = at(Tok::Name) ? cur().text : "";
  try {
    DepthGuard g(*this, cur().pos);
    compound_or_simple(out);
  } catch (const Bail&) {
    if (p_ == start) take();
    recover();
    skip_clauses(first);
  }
}

void Parser::skip_clauses(const std::string& first) {
  static const std::map<std::string, std::set<std::string>> kClauses = {
      {"if", {"elif", "else"}}, {"for", {"else"}}, {"while", {"else"}}, {"try", {"except", "else", "finally"}}};
  auto it = kClauses.find(first);
  if (it == kClauses.end()) return;
  while (at(Tok::Name) && it->second.count(cur().text)) recover();
}

StmtPtr Parser::make(StmtKind k, Pos p) {
  auto s = std::make_unique<Stmt>();
  s->kind = k;
  s->pos = p;
  return s;
}

void Parser::compound_or_simple(std::vector<StmtPtr>& out) {
  const Token& t = cur();
  if (t.kind == Tok::Name) {
    if (t.text == "if") return out.push_back(if_stmt());
    if (t.text == "while") return out.push_back(while_stmt());
    if (t.text == "for") return out.push_back(for_stmt());
    if (t.text == "def") return out.push_back(def_stmt({}));
    if (t.text == "class") return out.push_back(class_stmt({}));
    if (t.text == "try") return out.push_back(try_stmt());
    if (t.text == "with") return with_stmt(out);  // io (issue 33)
    if (t.text == "async") unsupported(t.pos, "async code");
    if (t.text == "match" && starts_match_stmt()) {  // issue 32 (parser_match.cc)
      StmtPtr m = match_stmt(out);
      return out.push_back(std::move(m));
    }
    if (t.text == "type" && peek().kind == Tok::Name && !is_keyword(peek().text) &&
        (peek(2).kind == Tok::Op && (peek(2).text == "=" || peek(2).text == "[")))
      return out.push_back(type_alias_stmt());  // generics (type_params.cc)
  }
  if (at_op("@")) {
    std::vector<ExprPtr> decos;
    while (accept_op("@")) {
      decos.push_back(expr());
      if (!at(Tok::Newline))
        fail(cur().pos, str_cat("expected end of line after a decorator, found ", describe(cur())));
      take();
    }
    if (at_kw("class")) return out.push_back(class_stmt(std::move(decos)));
    if (!at_kw("def")) fail(cur().pos, str_cat("expected 'def' after decorators, found ", describe(cur())));
    return out.push_back(def_stmt(std::move(decos)));
  }
  simple_stmts(out);
}

bool Parser::starts_match_stmt() const {
  const Token& next = peek();
  if (next.kind == Tok::Newline || next.kind == Tok::End) return false;
  if (next.kind == Tok::Op) {
    static const char* not_subject[] = {"=",   ".",  ":",   ",",  ")",  "]",  "}",   "+=",  "-=", "*=", "/=",
                                        "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>=", "@=", ";"};
    for (const char* o : not_subject)
      if (next.text == o) return false;
  }
  size_t k = p_ + 1;
  while (k + 1 < t_.size() && t_[k + 1].kind != Tok::Newline && t_[k + 1].kind != Tok::End) ++k;
  return t_[k].kind == Tok::Op && t_[k].text == ":";
}

void Parser::simple_stmts(std::vector<StmtPtr>& out) {
  for (;;) {
    out.push_back(small_stmt());
    if (accept_op(";")) {
      if (at(Tok::Newline) || at(Tok::End)) break;
      continue;
    }
    break;
  }
  if (at(Tok::End)) return;
  if (!at(Tok::Newline)) fail(cur().pos, str_cat("expected end of line, found ", describe(cur())));
  take();
}

StmtPtr Parser::small_stmt() {
  const Token t = cur();
  if (t.kind == Tok::Name) {
    if (t.text == "pass") {
      take();
      return make(StmtKind::Pass, t.pos);
    }
    if (t.text == "break") {
      take();
      return make(StmtKind::Break, t.pos);
    }
    if (t.text == "continue") {
      take();
      return make(StmtKind::Continue, t.pos);
    }
    if (t.text == "return") {
      take();
      auto s = make(StmtKind::Return, t.pos);
      if (!at(Tok::Newline) && !at_op(";") && !at(Tok::End)) s->value = testlist();
      return s;
    }
    if (t.text == "import") return import_stmt();
    if (t.text == "from") return from_stmt();
    if (t.text == "assert") {
      take();
      auto s = make(StmtKind::Assert, t.pos);
      s->value = expr();
      if (accept_op(",")) s->annotation = expr();
      return s;
    }
    if (t.text == "global") {
      auto s = make(StmtKind::Global, take().pos);
      do {
        ImportName n;
        n.pos = cur().pos;
        n.name = expect_name();
        s->names.push_back(std::move(n));
      } while (accept_op(","));
      return s;
    }
    if (t.text == "nonlocal") {
      auto s = make(StmtKind::Nonlocal, take().pos);
      do {
        ImportName n;
        n.pos = cur().pos;
        n.name = expect_name();
        s->names.push_back(std::move(n));
      } while (accept_op(","));
      return s;
    }
    if (t.text == "del") {
      // `del d[k]` of a dict: the statement `d.__delitem__(k)`, which the checker takes of a dict only.
      Token d = take();
      ExprPtr target = expr();
      if (target->kind != ExprKind::Subscript || at_op(","))  // issue 32: `del xs[a:b]` of a list too
        unsupported(d.pos, "a 'del' statement other than `del x[k]` of a dict or list");
      auto s = make(StmtKind::Expr, d.pos);
      auto callee = node(ExprKind::Attribute, d.pos);
      callee->str = "__delitem__";
      callee->kids.push_back(std::move(target->kids[0]));
      auto call = node(ExprKind::Call, d.pos);
      call->kids.push_back(std::move(callee));
      call->kids.push_back(std::move(target->kids[1]));
      s->value = std::move(call);
      return s;
    }
    if (t.text == "raise") {
      auto s = make(StmtKind::Raise, take().pos);
      if (!at(Tok::Newline) && !at_op(";") && !at(Tok::End)) s->value = expr();
      if (s->value && at_kw("from")) {  // `raise E from cause`: the cause is evaluated, then dropped
        take();
        s->annotation = expr();
      }
      return s;
    }
    if (t.text == "yield") {  // lazy sequences: `yield v` and `yield from it`, a call of the name `yield`
      auto s = make(StmtKind::Expr, take().pos);
      auto call = node(ExprKind::Call, t.pos);
      auto callee = node(ExprKind::Name, t.pos);
      callee->str = "yield";
      if (accept_kw("from")) call->ival = 1;
      if (at(Tok::Newline) || at_op(";") || at(Tok::End)) unsupported(t.pos, "a bare 'yield' (it yields None)");
      call->kids.push_back(std::move(callee));
      call->kids.push_back(testlist());
      s->value = std::move(call);
      return s;
    }
    if (is_keyword(t.text) && t.text != "not" && t.text != "lambda" && t.text != "None" && t.text != "True" &&
        t.text != "False" && t.text != "await")
      fail(t.pos, str_cat("invalid syntax: unexpected '", t.text, "'"));
  }
  ExprPtr first = testlist();
  if (at_op("=")) {
    auto s = make(StmtKind::Assign, first->pos);
    s->targets.push_back(std::move(first));
    while (accept_op("=")) s->targets.push_back(testlist());
    s->value = std::move(s->targets.back());
    s->targets.pop_back();
    return s;
  }
  if (at_op(":")) {
    take();
    auto s = make(StmtKind::AnnAssign, first->pos);
    s->targets.push_back(std::move(first));
    s->annotation = expr();
    if (accept_op("=")) s->value = testlist();
    return s;
  }
  static const char* aug[] = {"+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>=", "@="};
  for (const char* a : aug)
    if (at_op(a)) {
      take();
      auto s = make(StmtKind::AugAssign, first->pos);
      s->op = std::string(a, std::strlen(a) - 1);
      s->targets.push_back(std::move(first));
      s->value = testlist();
      return s;
    }
  auto s = make(StmtKind::Expr, first->pos);
  s->value = std::move(first);
  return s;
}

std::string Parser::dotted_name() {
  std::string n = expect_name();
  while (accept_op(".")) n += "." + expect_name();
  return n;
}

StmtPtr Parser::import_stmt() {
  auto s = make(StmtKind::Import, take().pos);
  do {
    ImportName n;
    n.pos = cur().pos;
    n.name = dotted_name();
    if (accept_kw("as")) n.asname = expect_name();
    s->names.push_back(std::move(n));
  } while (accept_op(","));
  return s;
}

StmtPtr Parser::from_stmt() {
  auto s = make(StmtKind::ImportFrom, take().pos);
  if (at_op(".") || at_op("...")) unsupported(cur().pos, "a relative import");
  s->module = dotted_name();
  if (!accept_kw("import")) fail(cur().pos, str_cat("expected 'import', found ", describe(cur())));
  if (at_op("*")) unsupported(cur().pos, "'import *'");
  bool paren = accept_op("(");
  do {
    if (paren && at_op(")")) break;
    ImportName n;
    n.pos = cur().pos;
    n.name = expect_name();
    if (accept_kw("as")) n.asname = expect_name();
    s->names.push_back(std::move(n));
  } while (accept_op(","));
  if (paren) expect_op(")");
  return s;
}

std::vector<StmtPtr> Parser::suite() {
  expect_op(":");
  std::vector<StmtPtr> body;
  if (!at(Tok::Newline)) {
    simple_stmts(body);
    return body;
  }
  take();
  if (!at(Tok::Indent)) fail(cur().pos, "expected an indented block");
  take();
  while (!at(Tok::Dedent) && !at(Tok::End)) {
    if (at(Tok::Newline)) {
      take();
      continue;
    }
    if (at(Tok::Indent)) {
      error(cur().pos, "unexpected indent");
      skip_block();
      continue;
    }
    statement(body);
  }
  if (at(Tok::Dedent)) take();
  return body;
}

StmtPtr Parser::if_stmt() {
  auto s = make(StmtKind::If, take().pos);
  s->value = named_expr();
  s->body = suite();
  if (at_kw("elif")) {
    struct Count {
      int& n;
      ~Count() { --n; }
    } count{++elifs_};
    if (elifs_ > kMaxElifs) {
      // One error for the chain: the clauses left are skipped, not each refused.
      error(cur().pos, "the if/elif chain is too long", "E1090");
      while (at_kw("elif") || at_kw("else")) recover();
      return s;
    }
    s->orelse.push_back(if_stmt());
  } else if (at_kw("else")) {
    take();
    s->orelse = suite();
  }
  return s;
}

StmtPtr Parser::try_stmt() {
  auto s = make(StmtKind::Try, take().pos);
  s->body = suite();
  while (at_kw("except")) {
    Handler h;
    h.pos = take().pos;
    if (at_op("*")) unsupported(cur().pos, "'except*'");
    if (!at_op(":")) {
      ExprPtr cls = expr();
      std::vector<const Expr*> names;
      if (cls->kind == ExprKind::Tuple)
        for (auto& k : cls->kids) names.push_back(k.get());
      else
        names.push_back(cls.get());
      for (const Expr* n : names) {
        std::string path;  // `errors.AppError`: a class of an imported module
        for (const Expr* x = n; x; x = x->kind == ExprKind::Attribute ? x->kids[0].get() : nullptr) {
          if (x->kind != ExprKind::Name && x->kind != ExprKind::Attribute) break;
          path = path.empty() ? x->str : x->str + "." + path;
          if (x->kind == ExprKind::Name) {
            h.classes.push_back(path);
            path.clear();
            break;
          }
        }
        if (!path.empty() || (n->kind != ExprKind::Name && n->kind != ExprKind::Attribute))
          unsupported(n->pos, "an except clause naming anything but exception classes");
      }
      if (accept_kw("as")) {
        h.name_pos = cur().pos;
        h.name = expect_name();
      }
    }
    h.body = suite();
    s->handlers.push_back(std::move(h));
  }
  if (!s->handlers.empty() && at_kw("else")) {
    take();
    s->orelse = suite();
  }
  if (at_kw("finally")) {
    take();
    s->finalbody = suite();
  } else if (s->handlers.empty()) {
    fail(cur().pos, str_cat("expected 'except' or 'finally' block, found ", describe(cur())));
  }
  return s;
}

StmtPtr Parser::while_stmt() {
  auto s = make(StmtKind::While, take().pos);
  s->value = named_expr();
  s->body = suite();
  if (at_kw("else")) unsupported(cur().pos, "an 'else' clause on a loop");
  return s;
}

StmtPtr Parser::for_stmt() {
  auto s = make(StmtKind::For, take().pos);
  s->targets.push_back(target_list());
  if (!accept_kw("in")) fail(cur().pos, str_cat("expected 'in', found ", describe(cur())));
  s->value = testlist();
  s->body = suite();
  if (at_kw("else")) unsupported(cur().pos, "an 'else' clause on a loop");
  return s;
}

ExprPtr Parser::target_list() {
  Pos p = cur().pos;
  ExprPtr first = bitor_expr();
  if (!at_op(",")) return first;
  auto t = node(ExprKind::Tuple, p);
  t->kids.push_back(std::move(first));
  while (accept_op(",")) {
    if (at_kw("in")) break;
    t->kids.push_back(bitor_expr());
  }
  return finish(std::move(t));
}

StmtPtr Parser::class_stmt(std::vector<ExprPtr> decos) {
  auto s = make(StmtKind::Class, take().pos);
  auto d = std::make_unique<FuncDef>();
  d->pos = cur().pos;
  d->name = expect_name();
  d->decorators = std::move(decos);
  if (at_op("[")) d->type_params = type_params();  // generics: `class Stack[T]:` (generic_classes.h)
  if (accept_op("(")) {
    while (!at_op(")")) {
      if (peek().kind == Tok::Op && peek().text == "=") unsupported(cur().pos, "a class keyword (metaclass=...)");
      if (at_op("*") || at_op("**")) unsupported(cur().pos, "unpacked class bases");
      s->targets.push_back(expr());
      if (!accept_op(",")) break;
    }
    expect_op(")");
  }
  size_t errors = diags_.error_count();
  d->body = suite();
  d->incomplete = diags_.error_count() != errors;
  s->def = std::move(d);
  return s;
}

StmtPtr Parser::def_stmt(std::vector<ExprPtr> decos) {
  auto s = make(StmtKind::Def, take().pos);
  auto d = std::make_unique<FuncDef>();
  d->pos = cur().pos;
  d->name = expect_name();
  d->decorators = std::move(decos);
  if (at_op("[")) d->type_params = type_params();  // generics: `def first[T](...)` (type_params.cc)
  expect_op("(");
  bool defaults = false;
  while (!at_op(")")) {
    if (at_op("*") || at_op("**")) unsupported(cur().pos, "a variadic parameter");
    if (at_op("/")) unsupported(cur().pos, "a positional-only marker");
    Param prm;
    prm.pos = cur().pos;
    prm.name = expect_name();
    if (accept_op(":")) prm.annotation = expr();
    if (accept_op("=")) {
      prm.default_value = expr();
      defaults = true;
    } else if (defaults) {
      fail(prm.pos, "non-default argument follows default argument");
    }
    d->params.push_back(std::move(prm));
    if (!accept_op(",")) break;
  }
  expect_op(")");
  if (accept_op("->")) d->returns = expr();
  size_t errors = diags_.error_count();
  d->body = suite();
  d->incomplete = diags_.error_count() != errors;
  s->def = std::move(d);
  return s;
}

}  // namespace parsing

ModuleAst parse_module(std::string_view src, const std::string& file, DiagnosticEngine& diags) {
  return parsing::Parser(lex(src, file, diags), file, diags).run();
}

}  // namespace ppy::frontend
