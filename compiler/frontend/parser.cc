// The parser: tokens to the AST, Python's grammar restricted to the subset.
#include "parser.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "lexer.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend {

const char* ty_name(Ty t) {
  switch (t) {
    case Ty::Error: return "<error>";
    case Ty::None: return "None";
    case Ty::Int: return "int";
    case Ty::Float: return "float";
    case Ty::Bool: return "bool";
    case Ty::Str: return "str";
    case Ty::ListInt: return "list[int]";
    case Ty::ListFloat: return "list[float]";
    case Ty::PtrInt: return "native.ptr[int]";
    case Ty::PtrFloat: return "native.ptr[float]";
    case Ty::ConstPtrInt: return "native.const_ptr[int]";
    case Ty::ConstPtrFloat: return "native.const_ptr[float]";
    case Ty::Exc:
      return "exception";
    default:
      break;
  }
  if (const char* n = compound_name(t)) return n;
  return "?";
}

namespace {

/// Thrown to abandon the current statement after its error is reported.
struct Bail {};

bool is_keyword(const std::string& s) {
  static const char* kws[] = {"False", "None", "True", "and", "as", "assert", "async", "await",
                              "break", "class", "continue", "def", "del", "elif", "else", "except",
                              "finally", "for", "from", "global", "if", "import", "in", "is",
                              "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
                              "while", "with", "yield"};
  return std::find_if(std::begin(kws), std::end(kws), [&](const char* k) { return s == k; }) != std::end(kws);
}

class Parser {
 public:
  Parser(std::vector<Token> toks, const std::string& file, DiagnosticEngine& diags)
      : t_(std::move(toks)), file_(file), diags_(diags) {}

  ModuleAst run() {
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

 private:
  // --- token helpers ---
  const Token& cur() const { return t_[p_]; }
  const Token& peek(size_t k = 1) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  bool at(Tok k) const { return cur().kind == k; }
  bool at_op(const char* s) const { return cur().kind == Tok::Op && cur().text == s; }
  bool at_kw(const char* s) const { return cur().kind == Tok::Name && cur().text == s; }
  Token take() {
    Token t = t_[p_];
    if (p_ + 1 < t_.size()) ++p_;
    return t;
  }
  bool accept_op(const char* s) {
    if (!at_op(s)) return false;
    take();
    return true;
  }
  bool accept_kw(const char* s) {
    if (!at_kw(s)) return false;
    take();
    return true;
  }
  std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::Name: return str_cat("'", t.text, "'");
      case Tok::Int: case Tok::Float: return str_cat("number '", t.text, "'");
      case Tok::String: return "a string";
      case Tok::Op: return str_cat("'", t.text, "'");
      case Tok::Newline: return "end of line";
      case Tok::Indent: return "an indent";
      case Tok::Dedent: return "a dedent";
      case Tok::End: return "end of file";
    }
    return "?";
  }
  [[noreturn]] void fail(Pos p, std::string msg, const char* code = "E1001") {
    error(p, std::move(msg), code);
    throw Bail{};
  }
  void error(Pos p, std::string msg, const char* code = "E1001") {
    diags_.error(code, file_, p.line, p.col, std::move(msg));
  }
  void expect_op(const char* s) {
    if (!accept_op(s)) fail(cur().pos, str_cat("expected '", s, "', found ", describe(cur())));
  }
  std::string expect_name() {
    if (!at(Tok::Name) || is_keyword(cur().text))
      fail(cur().pos, str_cat("expected a name, found ", describe(cur())));
    return take().text;
  }
  void unsupported(Pos p, std::string what) { fail(p, str_cat(what, " is outside the ppy subset"), "E1010"); }

  struct DepthGuard {
    Parser& p;
    DepthGuard(Parser& parser, Pos pos) : p(parser) {
      if (++p.nesting_ > kMaxNesting) {
        --p.nesting_;
        p.fail(pos, "the code is nested too deeply", "E1090");
      }
    }
    ~DepthGuard() { --p.nesting_; }
  };

  // --- recovery ---
  void skip_block() {
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
  void recover() {
    while (!at(Tok::End) && !at(Tok::Newline) && !at(Tok::Dedent) && !at(Tok::Indent)) take();
    if (at(Tok::Newline)) take();
    if (at(Tok::Indent)) skip_block();
  }

  // --- statements ---
  void statement(std::vector<StmtPtr>& out) {
    size_t start = p_;
    try {
      DepthGuard g(*this, cur().pos);
      compound_or_simple(out);
    } catch (const Bail&) {
      if (p_ == start) take();
      recover();
    }
  }

  StmtPtr make(StmtKind k, Pos p) {
    auto s = std::make_unique<Stmt>();
    s->kind = k;
    s->pos = p;
    return s;
  }

  void compound_or_simple(std::vector<StmtPtr>& out) {
    const Token& t = cur();
    if (t.kind == Tok::Name) {
      if (t.text == "if") return out.push_back(if_stmt());
      if (t.text == "while") return out.push_back(while_stmt());
      if (t.text == "for") return out.push_back(for_stmt());
      if (t.text == "def") return out.push_back(def_stmt({}));
      if (t.text == "class") return out.push_back(class_stmt({}));
      if (t.text == "try") return out.push_back(try_stmt());
      if (t.text == "with") unsupported(t.pos, "a with statement");
      if (t.text == "async") unsupported(t.pos, "async code");
      if (t.text == "match" && starts_match_stmt()) unsupported(t.pos, "a match statement");
      if (t.text == "type" && peek().kind == Tok::Name && !is_keyword(peek().text) &&
          (peek(2).kind == Tok::Op && (peek(2).text == "=" || peek(2).text == "[")))
        unsupported(t.pos, "a type alias statement");
    }
    if (at_op("@")) {
      std::vector<ExprPtr> decos;
      while (accept_op("@")) {
        decos.push_back(expr());
        if (!at(Tok::Newline)) fail(cur().pos, str_cat("expected end of line after a decorator, found ", describe(cur())));
        take();
      }
      if (at_kw("class")) return out.push_back(class_stmt(std::move(decos)));
      if (!at_kw("def")) fail(cur().pos, str_cat("expected 'def' after decorators, found ", describe(cur())));
      return out.push_back(def_stmt(std::move(decos)));
    }
    simple_stmts(out);
  }

  /// Whether the statement at `match` (a soft keyword) is a match statement:
  /// its line ends in `:` and `match` is not itself assigned, annotated or
  /// dereferenced, which is how Python tells `match x:` from `match = 1`.
  bool starts_match_stmt() const {
    const Token& next = peek();
    if (next.kind == Tok::Newline || next.kind == Tok::End) return false;
    if (next.kind == Tok::Op) {
      static const char* not_subject[] = {"=", ".", ":", ",", ")", "]", "}", "+=", "-=", "*=", "/=", "//=", "%=",
                                          "**=", "&=", "|=", "^=", "<<=", ">>=", "@=", ";"};
      for (const char* o : not_subject)
        if (next.text == o) return false;
    }
    size_t k = p_ + 1;
    while (k + 1 < t_.size() && t_[k + 1].kind != Tok::Newline && t_[k + 1].kind != Tok::End) ++k;
    return t_[k].kind == Tok::Op && t_[k].text == ":";
  }

  void simple_stmts(std::vector<StmtPtr>& out) {
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

  StmtPtr small_stmt() {
    const Token t = cur();
    if (t.kind == Tok::Name) {
      if (t.text == "pass") { take(); return make(StmtKind::Pass, t.pos); }
      if (t.text == "break") { take(); return make(StmtKind::Break, t.pos); }
      if (t.text == "continue") { take(); return make(StmtKind::Continue, t.pos); }
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
      if (t.text == "nonlocal") unsupported(t.pos, "a 'nonlocal' statement");
      if (t.text == "del") {
        // `del d[k]` of a dict: the statement `d.__delitem__(k)`, which the checker takes of a dict only.
        Token d = take();
        ExprPtr target = expr();
        if (target->kind != ExprKind::Subscript || target->kids[1]->kind == ExprKind::Slice || at_op(","))
          unsupported(d.pos, "a 'del' statement other than `del d[k]` of a dict");
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
        if (at_kw("from")) unsupported(cur().pos, "'raise ... from'");
        return s;
      }
      if (t.text == "yield") unsupported(t.pos, "a generator ('yield')");
      if (is_keyword(t.text) && t.text != "not" && t.text != "lambda" && t.text != "None" &&
          t.text != "True" && t.text != "False" && t.text != "await")
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

  std::string dotted_name() {
    std::string n = expect_name();
    while (accept_op(".")) n += "." + expect_name();
    return n;
  }

  StmtPtr import_stmt() {
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

  StmtPtr from_stmt() {
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

  std::vector<StmtPtr> suite() {
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
      if (at(Tok::Newline)) { take(); continue; }
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

  StmtPtr if_stmt() {
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

  /// `try:` with `except` clauses, `else` and `finally` (docs/language.md, "Exceptions").
  StmtPtr try_stmt() {
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
          if (n->kind != ExprKind::Name) unsupported(n->pos, "an except clause naming anything but exception classes");
          h.classes.push_back(n->str);
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

  StmtPtr while_stmt() {
    auto s = make(StmtKind::While, take().pos);
    s->value = named_expr();
    s->body = suite();
    if (at_kw("else")) unsupported(cur().pos, "an 'else' clause on a loop");
    return s;
  }

  StmtPtr for_stmt() {
    auto s = make(StmtKind::For, take().pos);
    s->targets.push_back(target_list());
    if (!accept_kw("in")) fail(cur().pos, str_cat("expected 'in', found ", describe(cur())));
    s->value = testlist();
    s->body = suite();
    if (at_kw("else")) unsupported(cur().pos, "an 'else' clause on a loop");
    return s;
  }

  ExprPtr target_list() {
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

  /// `class Name[(Base, ...)]:` and its body (docs/language.md, "Classes").
  StmtPtr class_stmt(std::vector<ExprPtr> decos) {
    auto s = make(StmtKind::Class, take().pos);
    auto d = std::make_unique<FuncDef>();
    d->pos = cur().pos;
    d->name = expect_name();
    d->decorators = std::move(decos);
    if (at_op("[")) unsupported(cur().pos, "a generic class");
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

  StmtPtr def_stmt(std::vector<ExprPtr> decos) {
    auto s = make(StmtKind::Def, take().pos);
    auto d = std::make_unique<FuncDef>();
    d->pos = cur().pos;
    d->name = expect_name();
    d->decorators = std::move(decos);
    if (at_op("[")) unsupported(cur().pos, "a generic function");
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

  // --- expressions ---
  ExprPtr node(ExprKind k, Pos p) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->pos = p;
    return e;
  }
  /// Moves the positions of a field's expression (parsed from the f-string's
  /// text alone) to where the text sits in the file.
  static void shift(Expr& e, Pos where) {
    if (e.pos.line == 1) e.pos.col += where.col - 1;
    e.pos.line += where.line - 1;
    for (auto& k : e.kids) shift(*k, where);
    for (auto& k : e.keywords) shift(*k.value, where);
  }

  /// The parts of an f-string's decoded text: literal text (`{{` and `}}`
  /// undoubled) and fields `{expr[!conv][:spec]}` (an FField: kids[0] the
  /// expression, `str` the spec, `ival` the conversion letter or 0).
  void fstring_parts(const std::string& text, Pos where, std::vector<ExprPtr>& parts, std::string& lit) {
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
        if (spec_at != std::string::npos) {
          if (d == '{') fail(where, "a nested field in an f-string's format spec is outside the ppy subset", "E1010");
          if (d == '}') break;
          continue;
        }
        if (d == '\'' || d == '"') quote = d;
        else if (d == '(' || d == '[' || d == '{') ++depth;
        else if ((d == ')' || d == ']' || d == '}') && depth > 0) --depth;
        else if (depth == 0 && d == '}') break;
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
      ++i;  // the '}'
      Parser sub(lex(source, file_, diags_), file_, diags_);
      ExprPtr e = sub.lone_expression(where);
      Pos fp = where;
      fp.col += static_cast<uint32_t>(start) + 2;  // past `f"` (a longer prefix or quote shifts it)
      shift(*e, fp);
      field->pos = e->pos;
      flush();
      field->kids.push_back(std::move(e));
      parts.push_back(finish(std::move(field)));
    }
  }

 public:
  /// The one expression of an f-string field's text (nothing else).
  ExprPtr lone_expression(Pos where) {
    while (at(Tok::Newline)) take();
    if (at(Tok::End)) fail(where, "f-string: empty expression not allowed");
    ExprPtr e = expr();
    while (at(Tok::Newline)) take();
    if (!at(Tok::End)) fail(where, "f-string: invalid expression in a field");
    return e;
  }

 private:

  /// `start:stop:step` inside `[...]`, at the first `:` (`start` parsed, or
  /// null): a Slice whose kids are the parts present, `ival` their mask (1
  /// start, 2 stop, 4 step).
  ExprPtr slice(ExprPtr start, Pos p) {
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
  ExprPtr finish(ExprPtr e) {
    int d = 0;
    for (auto& k : e->kids) d = std::max(d, k->depth);
    for (auto& k : e->keywords) d = std::max(d, k.value->depth);
    e->depth = d + 1;
    if (e->depth > kMaxExprDepth) fail(e->pos, "the expression is nested too deeply", "E1090");
    return e;
  }

  ExprPtr testlist() {
    Pos p = cur().pos;
    ExprPtr first = expr();
    if (!at_op(",")) return first;
    auto t = node(ExprKind::Tuple, p);
    t->kids.push_back(std::move(first));
    while (accept_op(",")) {
      if (at(Tok::Newline) || at_op("=") || at_op(")") || at(Tok::End)) break;
      t->kids.push_back(expr());
    }
    return finish(std::move(t));
  }

  /// The rest of `[elt for x in it if cond ...]` after `elt`: `for` clauses (one
  /// name, or names separated by commas), each with any number of `if`s.
  /// `[e for a in A if c for b in B]` nests: the comprehension over A has as its
  /// element a comprehension over B marked `str = "for"` (its elements are the
  /// outer one's), whose element is `e`. kids: element, iterable, conditions
  /// (`ival` of them).
  /// A dict or set comprehension (`kind` DictComp or SetComp, closed by `}`) has one
  /// `for` clause; a dict's `value` is its last kid, after the conditions.
  ExprPtr comprehension(ExprPtr elt, Pos p, ExprKind kind = ExprKind::ListComp, ExprPtr value = nullptr) {
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
    expect_op(list ? "]" : "}");
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

  /// `{}`, `{k: v, ...}`, `{a, b}` and their comprehensions.
  ExprPtr brace_display(Pos p) {
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

  ExprPtr named_expr() {
    ExprPtr e = expr();
    if (at_op(":=")) unsupported(cur().pos, "an assignment expression (':=')");
    return e;
  }

  ExprPtr expr() {
    DepthGuard g(*this, cur().pos);
    if (at_kw("lambda")) unsupported(cur().pos, "a lambda");
    if (at_kw("yield")) unsupported(cur().pos, "a generator ('yield')");
    if (at_kw("await")) unsupported(cur().pos, "'await'");
    ExprPtr e = or_test();
    if (at_kw("if")) {
      Pos p = e->pos;
      take();
      ExprPtr test = or_test();
      if (!accept_kw("else")) fail(cur().pos, str_cat("expected 'else' in a conditional expression, found ", describe(cur())));
      ExprPtr other = expr();
      auto n = node(ExprKind::IfExp, p);
      n->kids.push_back(std::move(test));
      n->kids.push_back(std::move(e));
      n->kids.push_back(std::move(other));
      return finish(std::move(n));
    }
    return e;
  }

  ExprPtr bool_chain(const char* kw, ExprPtr (Parser::*next)()) {
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
  ExprPtr or_test() { return bool_chain("or", &Parser::and_test); }
  ExprPtr and_test() { return bool_chain("and", &Parser::not_test); }

  ExprPtr not_test() {
    if (at_kw("not")) {
      DepthGuard g(*this, cur().pos);
      auto n = node(ExprKind::Unary, take().pos);
      n->str = "not";
      n->kids.push_back(not_test());
      return finish(std::move(n));
    }
    return comparison();
  }

  bool comp_op(std::string& op) {
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

  ExprPtr comparison() {
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

  ExprPtr binary_chain(std::initializer_list<const char*> ops, ExprPtr (Parser::*next)()) {
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
  ExprPtr bitor_expr() { return binary_chain({"|"}, &Parser::bitxor_expr); }
  ExprPtr bitxor_expr() { return binary_chain({"^"}, &Parser::bitand_expr); }
  ExprPtr bitand_expr() { return binary_chain({"&"}, &Parser::shift_expr); }
  ExprPtr shift_expr() { return binary_chain({"<<", ">>"}, &Parser::arith_expr); }
  ExprPtr arith_expr() { return binary_chain({"+", "-"}, &Parser::term); }
  ExprPtr term() { return binary_chain({"*", "/", "//", "%", "@"}, &Parser::factor); }

  ExprPtr factor() {
    if (at_op("-") || at_op("+") || at_op("~")) {
      DepthGuard g(*this, cur().pos);
      Token t = take();
      // `-9223372036854775808` is an i64 literal even though its magnitude is not.
      if (t.text == "-" && at(Tok::Int) && cur().too_big && cur().ival == INT64_MIN && !(peek().kind == Tok::Op && peek().text == "**")) {
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

  ExprPtr power() {
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

  ExprPtr trailers(ExprPtr e) {
    for (;;) {
      if (at_op("(")) {
        take();
        auto n = node(ExprKind::Call, e->pos);
        n->kids.push_back(std::move(e));
        while (!at_op(")")) {
          if (at_op("*") || at_op("**")) {
            if (at_op("**")) unsupported(cur().pos, "'**' unpacking in a call");
            unsupported(cur().pos, "'*' unpacking in a call");
          }
          if (at(Tok::Name) && peek().kind == Tok::Op && peek().text == "=") {
            Keyword k;
            k.pos = cur().pos;
            k.name = take().text;
            take();
            k.value = expr();
            n->keywords.push_back(std::move(k));
          } else {
            if (!n->keywords.empty()) fail(cur().pos, "positional argument follows keyword argument");
            n->kids.push_back(named_expr());
            if (at_kw("for")) unsupported(cur().pos, "a generator expression");
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

  ExprPtr atom() {
    const Token t = cur();
    switch (t.kind) {
      case Tok::Int: {
        take();
        if (t.too_big) fail(t.pos, str_cat("the integer ", t.text, " does not fit in 64 bits (ppy's int is i64)"), "E1080");
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
          if (at_kw("for")) unsupported(cur().pos, "a generator expression");
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
        if (t.text == "...") unsupported(t.pos, "'...' (Ellipsis)");
        break;
      }
      default:
        break;
    }
    fail(t.pos, str_cat("invalid syntax: expected an expression, found ", describe(t)));
  }

  std::vector<Token> t_;
  const std::string& file_;
  DiagnosticEngine& diags_;
  size_t p_ = 0;
  int nesting_ = 0;
  int elifs_ = 0;
};

}  // namespace

ModuleAst parse_module(std::string_view src, const std::string& file, DiagnosticEngine& diags) {
  return Parser(lex(src, file, diags), file, diags).run();
}

}  // namespace ppy::frontend
